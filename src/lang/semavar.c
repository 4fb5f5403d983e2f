// SPDX-License-Identifier: GPL-2.0
/*
 * Semantic analysis of variables: binds identifiers (built-ins, globals,
 * self->, this->, associative arrays, aggregations) and assignments.
 * Variables take the type of their first assignment in program order, as
 * in D; using one before any assignment is an error.
 */
#include <stdlib.h>
#include <string.h>

#include "lang/agg.h"
#include "lang/builtins.h"
#include "lang/sema.h"

/* Type a variable takes from the value first assigned to it: an integer
 * keeps its width and signedness (stores wrap to it, as in D and C), not
 * how it prints (a syscall number, an errno). */
static struct type *storage_type(struct lcc *cc, struct type *t)
{
	if (t->k == TY_INT)
		return type_int(t->size, t->sign);
	if (t->k == TY_STR)
		return type_str(cc->o->strsize, 1);
	return t;
}

int sema_compatible(const struct type *var, const struct type *val)
{
	if (var->k == TY_INT || var->k == TY_PTR)
		return val->k == TY_INT || val->k == TY_PTR;
	return var->k == val->k;
}

static struct var *var_new(struct lcc *cc, enum vscope s, const char *name, struct loc loc)
{
	struct var *v = calloc(1, sizeof(*v));

	if (!v)
		abort();
	v->s = s;
	v->name = (char *)name;
	v->loc = loc;
	v->map = -1;
	v->next = cc->vars;
	cc->vars = v;
	return v;
}

/* Type of a key slot: integers widen to 64 bits; strings are strsize wide
 * whatever the first key was, as in DTrace, or a later longer key would be
 * truncated to the first one's width and collide with its prefix. */
static struct type *key_type(struct lcc *cc, struct type *t)
{
	if (t->k == TY_INT)
		return t->sign ? &t_s64 : &t_u64;
	return storage_type(cc, t);
}

/* Key tuple of an associative array or aggregation: the first use fixes
 * the key types, later uses must match in number and kind. */
static int sema_keys(struct lcc *cc, struct node *n, int *nkeys, struct type **kt, const char *what,
		     const char *name)
{
	struct node *a;
	int k = 0;

	if (n->nargs > MAX_KEYS) {
		cc_error(cc, n->loc, "too many keys for %s %s (at most %d)", what, name, MAX_KEYS);
		return -1;
	}
	if (*nkeys < 0) {
		for (a = n->args; a; a = a->next, k++) {
			if (a->t->k == TY_VOID || a->t->k == TY_STRUCT || a->t->k == TY_ARRAY) {
				cc_error(cc, a->loc, "a %s cannot be a key of %s %s", sema_tn(a->t),
					 what, name);
				return -1;
			}
			kt[k] = key_type(cc, a->t);
		}
		*nkeys = n->nargs;
		return 0;
	}
	if (*nkeys != n->nargs) {
		cc_error(cc, n->loc, "%s %s has %d key%s, used here with %d", what, name, *nkeys,
			 *nkeys == 1 ? "" : "s", n->nargs);
		return -1;
	}
	for (a = n->args; a; a = a->next, k++)
		if (!sema_compatible(kt[k], a->t) || (kt[k]->k == TY_STR) != (a->t->k == TY_STR)) {
			cc_error(cc, a->loc, "key %d of %s %s is %s, used here with %s", k + 1,
				 what, name, sema_tn(kt[k]), sema_tn(a->t));
			return -1;
		}
	return 0;
}

/* Scope and name of an indexed variable: a[k] (global associative array)
 * or self->a[k] (thread-local one). D has no clause-local arrays:
 * this->a[k] is DTrace's D_ARR_LOCAL error. */
static int index_scope(struct lcc *cc, struct node *n, enum vscope *s, const char **name)
{
	struct node *l = n->l;

	if (l->k == N_SELF) {
		*s = VS_SELFA;
		*name = l->name;
		return 0;
	}
	if (l->k == N_THIS) {
		cc_error(cc, n->loc,
			 "this->%s: clause-local variables cannot be associative arrays (as in "
			 "DTrace); use self->%s[...] or a global %s[...]",
			 l->name, l->name, l->name);
		return -1;
	}
	if (l->k != N_IDENT || builtin_find(l->name)) {
		cc_error(cc, n->loc,
			 "only associative arrays (a[k], self->a[k]) and args[] can be indexed");
		return -1;
	}
	*s = VS_ASSOC;
	*name = l->name;
	return 0;
}

/* A scalar use (x, self->x) of a name already used as an array, or an
 * indexed use of a scalar: one name has one kind, as in D. */
static int scalar_is_array(struct lcc *cc, struct node *n, enum vscope s, const char *name)
{
	static const enum vscope other[] = {
		[VS_GLOBAL] = VS_ASSOC, [VS_ASSOC] = VS_GLOBAL, [VS_SELF] = VS_SELFA,
		[VS_SELFA] = VS_SELF,	[VS_THIS] = VS_THIS,
	};
	const char *pre = s == VS_SELF || s == VS_SELFA ? "self->" : "";

	if (s == VS_THIS || !var_find(cc, other[s], name))
		return 0;
	if (s == VS_GLOBAL || s == VS_SELF)
		cc_error(cc, n->loc, "'%s%s' is an associative array: index it, %s%s[key]", pre,
			 name, pre, name);
	else
		cc_error(cc, n->loc, "'%s%s' is a scalar variable: it cannot be indexed", pre,
			 name);
	return -1;
}

/* Lvalue: the variable an assignment or ++ targets, declared on first
 * write. */
int sema_lvalue(struct lcc *cc, struct clause *c, struct node *l, struct type *vt)
{
	enum vscope s;
	struct var *v;
	const char *name = l->name;

	switch (l->k) {
	case N_IDENT:
		if (builtin_find(l->name)) {
			cc_error(cc, l->loc, "cannot assign to built-in variable '%s'", l->name);
			return -1;
		}
		s = VS_GLOBAL;
		break;
	case N_SELF:
		s = VS_SELF;
		break;
	case N_THIS:
		s = VS_THIS;
		break;
	case N_INDEX:
		if (index_scope(cc, l, &s, &name))
			return -1;
		if (sema_args(cc, c, l))
			return -1;
		break;
	default:
		cc_error(cc, l->loc,
			 "cannot assign to this expression: only variables, self->x, this->x, "
			 "a[key] and @a[key] are assignable");
		return -1;
	}
	v = var_find(cc, s, name);
	if (!v && scalar_is_array(cc, l, s, name))
		return -1;
	if (!v) {
		if (vt->k == TY_VOID || vt->k == TY_STRUCT || vt->k == TY_ARRAY ||
		    vt->k == TY_STACK || vt->k == TY_USTACK || vt->k == TY_SYM) {
			cc_error(cc, l->loc, "cannot store a %s in variable '%s'", sema_tn(vt),
				 name);
			return -1;
		}
		v = var_new(cc, s, name, l->loc);
		v->t = storage_type(cc, vt);
		v->nkeys = -1;
		if ((s == VS_ASSOC || s == VS_SELFA) &&
		    sema_keys(cc, l, &v->nkeys, v->kt, "associative array", name))
			return -1;
	} else {
		if (!sema_compatible(v->t, vt)) {
			cc_error(cc, l->loc, "type mismatch: '%s' is %s, assigned %s", name,
				 sema_tn(v->t), sema_tn(vt));
			return -1;
		}
		if ((s == VS_ASSOC || s == VS_SELFA) &&
		    sema_keys(cc, l, &v->nkeys, v->kt, "associative array", name))
			return -1;
	}
	l->var = v;
	l->t = v->t;
	return 0;
}

static int sema_agg_assign(struct lcc *cc, struct clause *c, struct node *n)
{
	struct node *l = n->l, *r = n->r;
	const struct func *fn;
	struct agg *a;

	if (n->op != T_ASSIGN || r->k != N_CALL || !(fn = func_find(r->name)) || !fn->agg) {
		cc_error(cc, n->loc,
			 "an aggregation is assigned an aggregating function: count(), sum(x), "
			 "avg(x), min(x), max(x), stddev(x), quantize(x), lquantize(x, lo, hi, "
			 "step), llquantize(x, f, lo, hi, steps)");
		return -1;
	}
	if (sema_arity(cc, fn, r))
		return -1;
	if (sema_args(cc, c, l) || sema_args(cc, c, r))
		return -1;
	r->fn = fn;
	for (a = cc->aggs; a; a = a->next)
		if (!strcmp(a->name, l->name))
			break;
	if (!a) {
		struct agg **tail = &cc->aggs;

		a = calloc(1, sizeof(*a));
		if (!a)
			abort();
		a->name = l->name;
		a->id = cc->naggs++;
		a->fn = fn->agg;
		a->nkeys = -1;
		a->loc = l->loc;
		a->map = -1;
		a->normal = 1;
		while (*tail)
			tail = &(*tail)->next;
		*tail = a;
	} else if (a->fn != fn->agg) {
		cc_error(cc, r->loc, "%s is a %s() aggregation (line %d), used here with %s()",
			 a->name, func_agg_name(a->fn), a->loc.line, fn->name);
		return -1;
	}
	if (sema_keys(cc, l, &a->nkeys, a->kt, "aggregation", a->name))
		return -1;
	l->agg = r->agg = a;
	if (fn->check(cc, c, r))
		return -1;
	n->t = &t_void;
	return 0;
}

int sema_assign(struct lcc *cc, struct clause *c, struct node *n)
{
	if (n->l->k == N_AGG)
		return sema_agg_assign(cc, c, n);
	if (sema_expr(cc, c, n->r))
		return -1;
	if (n->op != T_ASSIGN && n->r->t->k != TY_INT) {
		cc_error(cc, n->r->loc, "compound assignment needs an integer, not %s",
			 sema_tn(n->r->t));
		return -1;
	}
	if (n->op != T_ASSIGN && n->l->k != N_INDEX && n->l->k != N_IDENT && n->l->k != N_SELF &&
	    n->l->k != N_THIS) {
		cc_error(cc, n->loc, "cannot assign to this expression");
		return -1;
	}
	if (n->op != T_ASSIGN) {
		/* x += y reads x: it must exist or be created as an integer */
		if (sema_lvalue(cc, c, n->l, &t_s64))
			return -1;
		if (n->l->t->k != TY_INT && n->l->t->k != TY_PTR) {
			cc_error(cc, n->loc, "'%s' is %s: compound assignment needs an integer",
				 n->l->var->name, sema_tn(n->l->t));
			return -1;
		}
	} else if (sema_lvalue(cc, c, n->l, n->r->t)) {
		return -1;
	}
	n->t = n->l->t;
	return 0;
}

int sema_ident(struct lcc *cc, struct clause *c, struct node *n)
{
	const struct builtin *b = builtin_find(n->name);
	struct var *v;

	if (b) {
		if (b->live_only && cc->o->offline) {
			cc_error(cc, n->loc,
				 "%s is not recorded in traces: it cannot be used with -r (run the "
				 "script live)",
				 n->name);
			return -1;
		}
		n->bi = b;
		n->t = b->t ? b->t : b->type(cc, c, n);
		return n->t ? 0 : -1;
	}
	v = var_find(cc, VS_GLOBAL, n->name);
	if (!v) {
		if (!scalar_is_array(cc, n, VS_GLOBAL, n->name))
			cc_error(cc, n->loc,
				 "unknown variable '%s': assign it before use, or check the name "
				 "of the built-in",
				 n->name);
		return -1;
	}
	n->var = v;
	n->t = v->t;
	return 0;
}

int sema_index(struct lcc *cc, struct clause *c, struct node *n)
{
	struct var *v;
	enum vscope s;
	const char *name;

	if (sema_args(cc, c, n))
		return -1;
	if (n->l->k == N_IDENT && !strcmp(n->l->name, "args")) {
		n->bi = builtin_find("args");
		if (n->nargs != 1 || !n->args->is_const) {
			cc_error(cc, n->loc, "args[] takes one constant index");
			return -1;
		}
		n->t = n->bi->type(cc, c, n);
		return n->t ? 0 : -1;
	}
	if (index_scope(cc, n, &s, &name))
		return -1;
	v = var_find(cc, s, name);
	if (!v) {
		if (!scalar_is_array(cc, n, s, name))
			cc_error(cc, n->loc,
				 "unknown associative array '%s%s': assign %s%s[...] before "
				 "reading it",
				 s == VS_SELFA ? "self->" : "", name, s == VS_SELFA ? "self->" : "",
				 name);
		return -1;
	}
	if (sema_keys(cc, n, &v->nkeys, v->kt, "associative array", v->name))
		return -1;
	n->var = v;
	n->t = v->t;
	return 0;
}

/* self->x and this->x read before any assignment are errors. */
int sema_tls(struct lcc *cc, struct node *n)
{
	enum vscope s = n->k == N_SELF ? VS_SELF : VS_THIS;
	struct var *v = var_find(cc, s, n->name);

	if (!v) {
		if (!scalar_is_array(cc, n, s, n->name))
			cc_error(cc, n->loc, "%s->%s is read before any assignment to it",
				 s == VS_SELF ? "self" : "this", n->name);
		return -1;
	}
	n->var = v;
	n->t = v->t;
	return 0;
}
