/* SPDX-License-Identifier: GPL-2.0 */
/* Abstract syntax tree of a sonde program: clauses, probe descriptions,
 * statements and expressions. Semantic analysis annotates nodes in place
 * (type, resolved variable, built-in, function). */
#ifndef SONDE_LANG_AST_H
#define SONDE_LANG_AST_H

#include <stdint.h>
#include <stdio.h>

#include "lang/lex.h"
#include "lang/types.h"

enum nkind {
	N_NUM,
	N_STR,
	N_IDENT,  /* built-in variable, global, or associative array name */
	N_SELF,	  /* self->name */
	N_THIS,	  /* this->name */
	N_AGG,	  /* @name; args = key tuple when indexed */
	N_INDEX,  /* l[args]: args[N], assoc[k...] */
	N_CALL,	  /* name(args) */
	N_BIN,	  /* op: T_PLUS ... T_NE, T_LAND, T_LOR, T_LXOR */
	N_UN,	  /* op: T_MINUS T_TILDE T_NOT T_STAR(deref) T_AMP T_PLUS */
	N_ASSIGN, /* op: T_ASSIGN, T_ADDEQ ... */
	N_INCDEC, /* op: T_INC/T_DEC, aux: 1 = postfix */
	N_TERN,	  /* l ? r : x */
	N_MEMBER, /* l.name (op T_DOT) or l->name (op T_ARROW) */
	N_CAST,	  /* (ctype) l */
	N_SIZEOF, /* sizeof(expr) or sizeof(type) */
	N_STRINGOF,
	/* statements */
	N_EXPR,
	N_IF,	 /* if (l) r else x */
	N_BLOCK, /* args = statements */
};

struct var;
struct builtin;
struct func;
struct agg;

struct node {
	enum nkind k;
	struct loc loc;
	int op;
	struct node *l, *r, *x;
	struct node *args; /* list through ->next */
	int nargs;
	struct node *next;
	char *name;
	uint64_t num;
	int num_unsigned;
	char *str;
	int slen;
	long aux;
	struct type *ctype; /* N_CAST, N_SIZEOF(type) */

	/* set by sema */
	struct type *t;
	struct var *var;
	const struct builtin *bi;
	const struct func *fn;
	struct agg *agg;
	int is_const; /* value known at compile time: cval */
	int64_t cval;
	int strid;   /* N_STR: constant string id in the rodata */
	int dataloc; /* N_MEMBER: a tracepoint __data_loc field */
	struct node *alloc_next;
};

struct probe_desc {
	char *text; /* as written (macros expanded) */
	char *f[4]; /* provider, module, function, name; "" = any */
	struct loc loc;
	struct probe_desc *next;
};

struct clause {
	struct probe_desc *probes;
	struct node *pred; /* NULL: always */
	struct node *body; /* N_BLOCK */
	struct loc loc;
	int id;
	struct clause *next;
};

struct program {
	struct clause *clauses;
	int nclauses;
	struct node *nodes; /* every node, for freeing */
};

/* Deepest nesting of expressions and statements the parser and the type
 * checker accept: both recurse on the C stack, which deeper input (30000
 * parentheses, a 100000-term sum) would overflow. */
#define AST_MAX_DEPTH 1000

struct node *node_new(struct program *p, enum nkind k, struct loc loc);
void ast_dump(FILE *f, const struct program *p);
void ast_dump_expr(FILE *f, const struct node *n);
void program_free(struct program *p);

/* parse.c: 0 or -1 with lx->err set. */
int parse_program(struct lexer *lx, struct program *p);
/* Probe descriptions only, for -l. */
int parse_probes_only(struct lexer *lx, struct program *p);

#endif
