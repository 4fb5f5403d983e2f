/* SPDX-License-Identifier: GPL-2.0 */
/* Tables of built-in variables (builtins.c) and of functions, actions and
 * aggregating functions (funcs.c, actions.c, agg.c). Each entry is a small
 * self-contained block: a type hook for sema and an emit hook for cg, in
 * the manner of ply's struct func. */
#ifndef SONDE_LANG_BUILTINS_H
#define SONDE_LANG_BUILTINS_H

#include "lang/compile.h"

struct cg;

struct builtin {
	const char *name;
	struct type *t; /* fixed type, or NULL: type() decides */
	struct type *(*type)(struct lcc *cc, struct clause *c, struct node *n);
	int (*emit)(struct cg *cg, struct node *n); /* returns a vreg */
	int strdst;				    /* writes its string into cg_str_dest() */
	int live_only;				    /* not in recorded traces: refused with -r */
	const char *help;
};

struct func {
	const char *name;
	int min, max;		 /* argument count */
	int action;		 /* statement only */
	int aggarg;		 /* takes an aggregation (@name) argument */
	const struct aggfn *agg; /* aggregating function */
	/* sets n->t after the arguments are typed; 0 or -1 (cc_error) */
	int (*check)(struct lcc *cc, struct clause *c, struct node *n);
	int (*emit)(struct cg *cg, struct node *n); /* vreg, NO_REG for void */
	int strdst;				    /* writes its string into cg_str_dest() */
};

const struct builtin *builtin_find(const char *name);
const struct func *func_find(const char *name);
extern const struct func funcs_actions[]; /* actions.c */
extern const struct func funcs_values[];  /* funcs.c */
extern const struct func funcs_aggs[];	  /* agg.c */

/* spec.c: speculation() and the kernel side of commit() and discard() */
int spec_check_speculation(struct lcc *cc, struct clause *c, struct node *n);
int spec_emit_claim(struct cg *cg, struct node *n);
int spec_emit_release(struct cg *cg, struct node *n);
/* The DTrace rules on speculate() and commit() in a clause's statements. */
int spec_check_clause(struct lcc *cc, struct clause *c);

/* sema helpers used by the check hooks */
int sema_need_agg(struct lcc *cc, struct node *n); /* n must be @name */
struct clause;
/* The probes a clause matched (for typed args and dynamic fields). */
int clause_probes(struct lcc *cc, struct clause *c, struct lprobe **out, int max);

#endif
