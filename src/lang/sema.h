/* SPDX-License-Identifier: GPL-2.0 */
/* Semantic analysis, shared between sema.c (expressions, statements) and
 * semavar.c (variables, assignments). */
#ifndef SONDE_LANG_SEMA_H
#define SONDE_LANG_SEMA_H

#include "lang/compile.h"

int sema_expr(struct lcc *cc, struct clause *c, struct node *n);
int sema_args(struct lcc *cc, struct clause *c, struct node *n);
/* The call n has as many arguments as fn takes; else -1 after cc_error. */
struct func;
int sema_arity(struct lcc *cc, const struct func *fn, struct node *n);
/* Type name for diagnostics (rotating static buffers). */
const char *sema_tn(const struct type *t);
/* A value of type val may be stored in a variable of type var. */
int sema_compatible(const struct type *var, const struct type *val);
int sema_lvalue(struct lcc *cc, struct clause *c, struct node *l, struct type *vt);
int sema_assign(struct lcc *cc, struct clause *c, struct node *n);
int sema_ident(struct lcc *cc, struct clause *c, struct node *n);
int sema_tls(struct lcc *cc, struct node *n); /* self->x, this->x */
int sema_index(struct lcc *cc, struct clause *c, struct node *n);

#endif
