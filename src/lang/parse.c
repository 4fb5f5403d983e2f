// SPDX-License-Identifier: GPL-2.0
/* Recursive-descent parser for D clauses. Operator precedence follows C,
 * with D's logical xor (^^) between || and &&. The only context-dependent
 * part is the predicate: its closing '/' is the one followed by '{'. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lang/ast.h"

struct parser {
	struct lexer *lx;
	struct program *prog;
	int in_pred; /* a '/' followed by '{' closes the predicate */
	int depth;   /* recursion depth, bounded by AST_MAX_DEPTH */
};

#define CUR(ps) ((ps)->lx->cur)

static void next(struct parser *ps)
{
	lex_next(ps->lx, 0);
}

static int failed(struct parser *ps)
{
	return ps->lx->err[0] != 0;
}

static int expect(struct parser *ps, enum tok t, const char *what)
{
	if (failed(ps))
		return -1;
	if (CUR(ps).t != t) {
		lex_error(ps->lx, CUR(ps).loc, "expected %s %s, found %s", tok_name(t), what,
			  tok_name(CUR(ps).t));
		return -1;
	}
	next(ps);
	return 0;
}

/* Every recursive call of the parser goes through here, so that deeply
 * nested input fails with its location instead of overflowing the stack. */
static struct node *nested(struct parser *ps, struct node *(*parse)(struct parser *))
{
	struct node *n = NULL;

	if (++ps->depth > AST_MAX_DEPTH)
		lex_error(ps->lx, CUR(ps).loc, "nested too deeply: more than %d levels",
			  AST_MAX_DEPTH);
	else
		n = parse(ps);
	ps->depth--;
	return n;
}

struct node *node_new(struct program *p, enum nkind k, struct loc loc)
{
	struct node *n = calloc(1, sizeof(*n));

	if (!n)
		abort();
	n->k = k;
	n->loc = loc;
	n->alloc_next = p->nodes;
	p->nodes = n;
	return n;
}

static struct node *expr(struct parser *ps);
static struct node *assign_expr(struct parser *ps);
static struct node *unary(struct parser *ps);
static struct node *statement(struct parser *ps);

/* Comma-separated expressions up to `close`; returns the list. */
static struct node *arg_list(struct parser *ps, enum tok close, int *count)
{
	struct node *head = NULL, **tail = &head;

	*count = 0;
	if (CUR(ps).t == close) {
		next(ps);
		return NULL;
	}
	for (;;) {
		struct node *a = nested(ps, assign_expr);

		if (!a)
			return NULL;
		*tail = a;
		tail = &a->next;
		(*count)++;
		if (CUR(ps).t == T_COMMA) {
			next(ps);
			continue;
		}
		if (expect(ps, close, "after the arguments"))
			return NULL;
		return head;
	}
}

static int is_type_word(const char *s)
{
	static const char *const w[] = {
		"char",	   "short",   "int",	 "long",     "void",	  "int8_t",   "int16_t",
		"int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t",  "uint64_t", "size_t",
		"ssize_t", "pid_t",   "uid_t",	 "gid_t",    "uintptr_t", "intptr_t", "string",
		"u8",	   "u16",     "u32",	 "u64",	     "s8",	  "s16",      "s32",
		"s64",	   "bool",    NULL,
	};
	for (int i = 0; w[i]; i++)
		if (!strcmp(s, w[i]))
			return 1;
	return 0;
}

static int at_type(struct parser *ps)
{
	enum tok t = CUR(ps).t;

	return t == T_STRUCT || t == T_UNSIGNED || t == T_SIGNED ||
	       (t == T_IDENT && is_type_word(CUR(ps).s));
}

/* A C type name in a cast or sizeof: words then '*'s, resolved by
 * type_parse_name (kernel structs through BTF). */
static struct type *type_name_parse(struct parser *ps)
{
	char buf[256] = "", err[200];
	struct loc l = CUR(ps).loc;
	struct type *t;

	while (CUR(ps).t == T_STRUCT || CUR(ps).t == T_UNSIGNED || CUR(ps).t == T_SIGNED ||
	       CUR(ps).t == T_IDENT || CUR(ps).t == T_STAR) {
		const char *w = CUR(ps).t == T_STAR    ? "*"
				: CUR(ps).t == T_IDENT ? CUR(ps).s
						       : tok_name(CUR(ps).t);
		if (strlen(buf) + strlen(w) + 2 >= sizeof(buf))
			break;
		if (buf[0])
			strcat(buf, " ");
		strcat(buf, w);
		next(ps);
	}
	t = type_parse_name(buf, err, sizeof(err));
	if (!t)
		lex_error(ps->lx, l, "%s", err);
	return t;
}

static struct node *primary(struct parser *ps)
{
	struct token tk = CUR(ps);
	struct node *n;

	switch (tk.t) {
	case T_NUM:
		n = node_new(ps->prog, N_NUM, tk.loc);
		n->num = tk.num;
		n->num_unsigned = tk.num_unsigned;
		next(ps);
		return n;
	case T_STR:
		n = node_new(ps->prog, N_STR, tk.loc);
		n->str = tk.s;
		n->slen = tk.slen;
		next(ps);
		/* adjacent literals concatenate, as in C */
		while (CUR(ps).t == T_STR) {
			int len = n->slen + CUR(ps).slen;
			char *s = malloc(len + 1);

			memcpy(s, n->str, n->slen);
			memcpy(s + n->slen, CUR(ps).s, CUR(ps).slen);
			n->str = lex_strdup(ps->lx, s, len);
			n->slen = len;
			free(s);
			next(ps);
		}
		return n;
	case T_IDENT:
		next(ps);
		if (CUR(ps).t == T_LPAREN) {
			n = node_new(ps->prog, N_CALL, tk.loc);
			n->name = tk.s;
			next(ps);
			n->args = arg_list(ps, T_RPAREN, &n->nargs);
			return failed(ps) ? NULL : n;
		}
		n = node_new(ps->prog, N_IDENT, tk.loc);
		n->name = tk.s;
		return n;
	case T_AGG:
		n = node_new(ps->prog, N_AGG, tk.loc);
		n->name = tk.s;
		next(ps);
		if (CUR(ps).t == T_LBRACK) {
			next(ps);
			n->args = arg_list(ps, T_RBRACK, &n->nargs);
			n->aux = 1; /* indexed */
			if (failed(ps))
				return NULL;
		}
		return n;
	case T_SELF:
	case T_THIS:
		n = node_new(ps->prog, tk.t == T_SELF ? N_SELF : N_THIS, tk.loc);
		next(ps);
		if (expect(ps, T_ARROW, tk.t == T_SELF ? "after self" : "after this"))
			return NULL;
		if (CUR(ps).t != T_IDENT) {
			lex_error(ps->lx, CUR(ps).loc, "expected a variable name after '->'");
			return NULL;
		}
		n->name = CUR(ps).s;
		next(ps);
		return n;
	case T_LPAREN:
		next(ps);
		n = nested(ps, expr);
		if (!n || expect(ps, T_RPAREN, "to close '('"))
			return NULL;
		return n;
	case T_SIZEOF:
	case T_STRINGOF:
		next(ps);
		n = node_new(ps->prog, tk.t == T_SIZEOF ? N_SIZEOF : N_STRINGOF, tk.loc);
		if (expect(ps, T_LPAREN, "after sizeof/stringof"))
			return NULL;
		if (tk.t == T_SIZEOF && at_type(ps)) {
			n->ctype = type_name_parse(ps);
			if (!n->ctype)
				return NULL;
		} else {
			n->l = nested(ps, expr);
			if (!n->l)
				return NULL;
		}
		return expect(ps, T_RPAREN, "to close the argument") ? NULL : n;
	default:
		lex_error(ps->lx, tk.loc, "expected an expression, found %s", tok_name(tk.t));
		return NULL;
	}
}

static struct node *postfix(struct parser *ps)
{
	struct node *n = primary(ps), *m;

	while (n && !failed(ps)) {
		struct token tk = CUR(ps);

		if (tk.t == T_LBRACK) {
			next(ps);
			m = node_new(ps->prog, N_INDEX, tk.loc);
			m->l = n;
			m->args = arg_list(ps, T_RBRACK, &m->nargs);
			if (failed(ps))
				return NULL;
			n = m;
		} else if (tk.t == T_DOT || tk.t == T_ARROW) {
			next(ps);
			if (CUR(ps).t != T_IDENT) {
				lex_error(ps->lx, CUR(ps).loc, "expected a member name after %s",
					  tok_name(tk.t));
				return NULL;
			}
			m = node_new(ps->prog, N_MEMBER, tk.loc);
			m->op = tk.t;
			m->l = n;
			m->name = CUR(ps).s;
			next(ps);
			n = m;
		} else if (tk.t == T_INC || tk.t == T_DEC) {
			next(ps);
			m = node_new(ps->prog, N_INCDEC, tk.loc);
			m->op = tk.t;
			m->aux = 1;
			m->l = n;
			n = m;
		} else {
			break;
		}
	}
	return failed(ps) ? NULL : n;
}

static struct node *unary(struct parser *ps)
{
	struct token tk = CUR(ps);
	struct node *n;

	switch (tk.t) {
	case T_MINUS:
	case T_PLUS:
	case T_NOT:
	case T_TILDE:
	case T_STAR:
	case T_AMP:
		next(ps);
		n = node_new(ps->prog, N_UN, tk.loc);
		n->op = tk.t;
		n->l = nested(ps, unary);
		return n->l ? n : NULL;
	case T_INC:
	case T_DEC:
		next(ps);
		n = node_new(ps->prog, N_INCDEC, tk.loc);
		n->op = tk.t;
		n->l = nested(ps, unary);
		return n->l ? n : NULL;
	case T_LPAREN: {
		/* a cast when '(' is followed by a type name */
		const char *save_p = ps->lx->p, *save_ls = ps->lx->line_start;
		int save_line = ps->lx->line;

		next(ps);
		if (at_type(ps)) {
			n = node_new(ps->prog, N_CAST, tk.loc);
			n->ctype = type_name_parse(ps);
			if (!n->ctype || expect(ps, T_RPAREN, "to close the cast"))
				return NULL;
			n->l = nested(ps, unary);
			return n->l ? n : NULL;
		}
		/* not a cast: rewind and parse a parenthesised expression */
		ps->lx->p = save_p;
		ps->lx->line = save_line;
		ps->lx->line_start = save_ls;
		ps->lx->cur = tk;
		return postfix(ps);
	}
	default:
		return postfix(ps);
	}
}

/* Binary precedence levels, loosest first (below ternary). */
static int binprec(enum tok t)
{
	switch (t) {
	case T_LOR:
		return 1;
	case T_LXOR:
		return 2;
	case T_LAND:
		return 3;
	case T_PIPE:
		return 4;
	case T_CARET:
		return 5;
	case T_AMP:
		return 6;
	case T_EQ:
	case T_NE:
		return 7;
	case T_LT:
	case T_GT:
	case T_LE:
	case T_GE:
		return 8;
	case T_SHL:
	case T_SHR:
		return 9;
	case T_PLUS:
	case T_MINUS:
		return 10;
	case T_STAR:
	case T_SLASH:
	case T_PERCENT:
		return 11;
	default:
		return 0;
	}
}

/* In a predicate, '/' followed by '{' (or the end) is the closing
 * delimiter, not a division. */
static int pred_closes(struct parser *ps)
{
	const char *p = ps->lx->p;

	while (p < ps->lx->end && isspace((unsigned char)*p))
		p++;
	return p >= ps->lx->end || *p == '{';
}

static struct node *binary(struct parser *ps, int minprec)
{
	struct node *l = unary(ps);

	while (l && !failed(ps)) {
		struct token tk = CUR(ps);
		int prec = binprec(tk.t);
		struct node *n;

		if (!prec || prec < minprec)
			break;
		if (tk.t == T_SLASH && ps->in_pred && pred_closes(ps))
			break;
		next(ps);
		n = node_new(ps->prog, N_BIN, tk.loc);
		n->op = tk.t;
		n->l = l;
		n->r = binary(ps, prec + 1);
		if (!n->r)
			return NULL;
		l = n;
	}
	return failed(ps) ? NULL : l;
}

static struct node *ternary(struct parser *ps)
{
	struct node *c = binary(ps, 1), *n;

	if (!c || CUR(ps).t != T_QUEST)
		return c;
	n = node_new(ps->prog, N_TERN, CUR(ps).loc);
	next(ps);
	n->l = c;
	n->r = nested(ps, assign_expr);
	if (!n->r || expect(ps, T_COLON, "in '?:'"))
		return NULL;
	n->x = nested(ps, ternary);
	return n->x ? n : NULL;
}

static int is_assign_op(enum tok t)
{
	return t == T_ASSIGN || (t >= T_ADDEQ && t <= T_SHREQ);
}

static struct node *assign_expr(struct parser *ps)
{
	struct node *l = ternary(ps), *n;

	if (!l || !is_assign_op(CUR(ps).t))
		return l;
	n = node_new(ps->prog, N_ASSIGN, CUR(ps).loc);
	n->op = CUR(ps).t;
	next(ps);
	n->l = l;
	n->r = nested(ps, assign_expr);
	return n->r ? n : NULL;
}

/* D has no comma operator; an expression is an assignment expression. */
static struct node *expr(struct parser *ps)
{
	return assign_expr(ps);
}

/* top: the clause body, after which a probe description may follow. */
static struct node *block(struct parser *ps, int top)
{
	struct node *b = node_new(ps->prog, N_BLOCK, CUR(ps).loc), **tail = &b->args;

	if (expect(ps, T_LBRACE, "to open the clause body"))
		return NULL;
	while (CUR(ps).t != T_RBRACE) {
		struct node *s;

		if (CUR(ps).t == T_EOF) {
			if (!failed(ps))
				lex_error(ps->lx, CUR(ps).loc, "missing '}' at end of input");
			return NULL;
		}
		if (CUR(ps).t == T_SEMI) {
			next(ps);
			continue;
		}
		s = nested(ps, statement);
		if (!s)
			return NULL;
		*tail = s;
		tail = &s->next;
		b->nargs++;
	}
	lex_next(ps->lx, top);
	return b;
}

static struct node *statement(struct parser *ps)
{
	struct token tk = CUR(ps);
	struct node *n;

	if (tk.t == T_LBRACE)
		return block(ps, 0);
	if (tk.t == T_IF) {
		next(ps);
		n = node_new(ps->prog, N_IF, tk.loc);
		if (expect(ps, T_LPAREN, "after if"))
			return NULL;
		n->l = expr(ps);
		if (!n->l || expect(ps, T_RPAREN, "after the condition"))
			return NULL;
		n->r = nested(ps, statement);
		if (!n->r)
			return NULL;
		if (CUR(ps).t == T_ELSE) {
			next(ps);
			n->x = nested(ps, statement);
			if (!n->x)
				return NULL;
		}
		return n;
	}
	n = node_new(ps->prog, N_EXPR, tk.loc);
	n->l = expr(ps);
	if (!n->l)
		return NULL;
	if (CUR(ps).t == T_SEMI)
		next(ps);
	else if (CUR(ps).t != T_RBRACE) {
		lex_error(ps->lx, CUR(ps).loc, "expected ';' after the statement, found %s",
			  tok_name(CUR(ps).t));
		return NULL;
	}
	return n;
}

static struct probe_desc *probe_desc(struct parser *ps)
{
	struct probe_desc *pd = calloc(1, sizeof(*pd));
	char *p;
	int n = 0;

	if (!pd)
		abort();
	pd->loc = CUR(ps).loc;
	pd->text = CUR(ps).s;
	/* split into at most 4 fields; provider matching aligns them */
	p = lex_strdup(ps->lx, pd->text, strlen(pd->text));
	for (;;) {
		char *c = strchr(p, ':');

		if (n == 3 || !c) {
			pd->f[n++] = p;
			break;
		}
		*c = 0;
		pd->f[n++] = p;
		p = c + 1;
	}
	/* D aligns partial descriptions to the right: "read:entry" is
	 * ::read:entry. Providers with their own syntax (tracepoint:, uprobe:)
	 * re-align in prov.c, which sees the original text too. */
	if (n < 4) {
		memmove(pd->f + (4 - n), pd->f, n * sizeof(char *));
		for (int i = 0; i < 4 - n; i++)
			pd->f[i] = "";
	}
	return pd;
}

static struct clause *clause(struct parser *ps)
{
	struct clause *c = calloc(1, sizeof(*c));
	struct probe_desc **tail = &c->probes;

	if (!c)
		abort();
	c->loc = CUR(ps).loc;
	for (;;) {
		if (CUR(ps).t != T_PROBE) {
			lex_error(ps->lx, CUR(ps).loc, "expected a probe description, found %s",
				  tok_name(CUR(ps).t));
			goto err;
		}
		*tail = probe_desc(ps);
		tail = &(*tail)->next;
		next(ps);
		if (CUR(ps).t != T_COMMA)
			break;
		lex_next(ps->lx, 1);
	}
	if (CUR(ps).t == T_SLASH) {
		next(ps);
		ps->in_pred = 1;
		c->pred = expr(ps);
		ps->in_pred = 0;
		if (!c->pred || expect(ps, T_SLASH, "to close the predicate"))
			goto err;
	}
	c->body = block(ps, 1);
	if (!c->body)
		goto err;
	return c;
err:
	while (c->probes) {
		struct probe_desc *pd = c->probes;

		c->probes = pd->next;
		free(pd);
	}
	free(c);
	return NULL;
}

int parse_program(struct lexer *lx, struct program *prog)
{
	struct parser ps = { .lx = lx, .prog = prog };
	struct clause **tail = &prog->clauses;

	lex_next(lx, 1);
	while (CUR(&ps).t != T_EOF) {
		struct clause *c = clause(&ps);

		if (!c)
			return -1;
		c->id = prog->nclauses++;
		*tail = c;
		tail = &c->next;
	}
	if (lx->err[0])
		return -1;
	if (!prog->nclauses) {
		lex_error(lx, CUR(&ps).loc, "the program has no clause: write 'PROBE { ACTIONS }'");
		return -1;
	}
	return 0;
}

/* -l with bare descriptions ("syscall::read*:entry"): one clause, no body. */
int parse_probes_only(struct lexer *lx, struct program *prog)
{
	struct parser ps = { .lx = lx, .prog = prog };
	struct clause *c = calloc(1, sizeof(*c));
	struct probe_desc **tail = &c->probes;

	if (!c)
		abort();
	prog->clauses = c;
	prog->nclauses = 1;
	c->body = node_new(prog, N_BLOCK, c->loc);
	for (lex_next(lx, 1); CUR(&ps).t != T_EOF; lex_next(lx, 1)) {
		if (CUR(&ps).t == T_COMMA)
			continue;
		if (CUR(&ps).t != T_PROBE) {
			lex_error(lx, CUR(&ps).loc, "expected a probe description");
			return -1;
		}
		*tail = probe_desc(&ps);
		tail = &(*tail)->next;
	}
	return lx->err[0] ? -1 : 0;
}
