// SPDX-License-Identifier: GPL-2.0
/* AST printing for -S and freeing. */
#include <stdlib.h>

#include "lang/ast.h"

static const char *kind_name[] = {
	[N_NUM] = "num",       [N_STR] = "str",		  [N_IDENT] = "ident",
	[N_SELF] = "self",     [N_THIS] = "this",	  [N_AGG] = "agg",
	[N_INDEX] = "index",   [N_CALL] = "call",	  [N_BIN] = "bin",
	[N_UN] = "un",	       [N_ASSIGN] = "assign",	  [N_INCDEC] = "incdec",
	[N_TERN] = "?:",       [N_MEMBER] = "member",	  [N_CAST] = "cast",
	[N_SIZEOF] = "sizeof", [N_STRINGOF] = "stringof", [N_EXPR] = "expr",
	[N_IF] = "if",	       [N_BLOCK] = "block",
};

void ast_dump_expr(FILE *f, const struct node *n)
{
	char tb[160];

	if (!n)
		return;
	fprintf(f, "(%s", kind_name[n->k]);
	switch (n->k) {
	case N_NUM:
		fprintf(f, " %llu", (unsigned long long)n->num);
		break;
	case N_STR:
		fprintf(f, " \"%.*s\"", n->slen, n->str);
		break;
	case N_BIN:
	case N_UN:
	case N_ASSIGN:
	case N_INCDEC:
		fprintf(f, " %s", tok_name(n->op));
		break;
	default:
		break;
	}
	if (n->name)
		fprintf(f, " %s", n->name);
	if (n->t)
		fprintf(f, " :%s", type_name(n->t, tb, sizeof(tb)));
	for (const struct node *a = n->args; a; a = a->next) {
		fputc(' ', f);
		ast_dump_expr(f, a);
	}
	if (n->l) {
		fputc(' ', f);
		ast_dump_expr(f, n->l);
	}
	if (n->r) {
		fputc(' ', f);
		ast_dump_expr(f, n->r);
	}
	if (n->x) {
		fputc(' ', f);
		ast_dump_expr(f, n->x);
	}
	fputc(')', f);
}

void ast_dump(FILE *f, const struct program *p)
{
	for (const struct clause *c = p->clauses; c; c = c->next) {
		fprintf(f, "clause %d (line %d):", c->id, c->loc.line);
		for (const struct probe_desc *pd = c->probes; pd; pd = pd->next)
			fprintf(f, " %s", pd->text);
		fputc('\n', f);
		if (c->pred) {
			fprintf(f, "  predicate ");
			ast_dump_expr(f, c->pred);
			fputc('\n', f);
		}
		for (const struct node *s = c->body->args; s; s = s->next) {
			fprintf(f, "  ");
			ast_dump_expr(f, s);
			fputc('\n', f);
		}
	}
}

void program_free(struct program *p)
{
	while (p->nodes) {
		struct node *n = p->nodes;

		p->nodes = n->alloc_next;
		free(n);
	}
	while (p->clauses) {
		struct clause *c = p->clauses;

		p->clauses = c->next;
		while (c->probes) {
			struct probe_desc *pd = c->probes;

			c->probes = pd->next;
			free(pd);
		}
		free(c);
	}
}
