// SPDX-License-Identifier: GPL-2.0
/*
 * Semantic analysis: types expressions, statements and predicates, folds
 * constants and checks that actions are statements. Variables and
 * assignments are bound in semavar.c.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lang/agg.h"
#include "lang/builtins.h"
#include "lang/prov.h"
#include "lang/sema.h"

void cc_error(struct lcc *cc, struct loc loc, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (cc->err[0])
		return;
	n = loc.line ? snprintf(cc->err, sizeof(cc->err), "%d:%d: ", loc.line, loc.col) : 0;
	va_start(ap, fmt);
	vsnprintf(cc->err + n, sizeof(cc->err) - n, fmt, ap);
	va_end(ap);
}

int cc_failed(const struct lcc *cc)
{
	return cc->err[0] != 0;
}

struct var *var_find(struct lcc *cc, enum vscope s, const char *name)
{
	for (struct var *v = cc->vars; v; v = v->next)
		if (v->s == s && !strcmp(v->name, name))
			return v;
	return NULL;
}

int clause_probes(struct lcc *cc, struct clause *c, struct lprobe **out, int max)
{
	int n = 0;

	for (int i = 0; i < cc->nprobes; i++)
		if (cc->probes[i].c == c) {
			if (n < max)
				out[n] = &cc->probes[i];
			n++;
		}
	return n;
}

const char *sema_tn(const struct type *t)
{
	static char buf[4][160];
	static int k;

	k = (k + 1) % 4;
	return type_name(t, buf[k], sizeof(buf[k]));
}

int sema_need_agg(struct lcc *cc, struct node *n)
{
	if (n->k != N_AGG) {
		cc_error(cc, n->loc, "expected an aggregation (@name) here");
		return -1;
	}
	for (struct agg *a = cc->aggs; a; a = a->next)
		if (!strcmp(a->name, n->name)) {
			n->agg = a;
			return 0;
		}
	cc_error(cc, n->loc, "aggregation %s is never assigned: write '%s[...] = count();' first",
		 n->name, n->name);
	return -1;
}

int sema_args(struct lcc *cc, struct clause *c, struct node *n)
{
	for (struct node *a = n->args; a; a = a->next)
		if (sema_expr(cc, c, a))
			return -1;
	return 0;
}

/* Folds in uint64_t where signed C arithmetic could overflow: the BPF
 * program wraps around, and so must its constants (no UB in the compiler). */
static int fold(struct node *n, int op, int64_t a, int64_t b, int is_unsigned)
{
	uint64_t ua = a, ub = b;

	switch (op) {
	case T_PLUS:
		n->cval = (int64_t)(ua + ub);
		break;
	case T_MINUS:
		n->cval = (int64_t)(ua - ub);
		break;
	case T_STAR:
		n->cval = (int64_t)(ua * ub);
		break;
	case T_SLASH:
	case T_PERCENT:
		if (!b)
			return -1;
		if (op == T_SLASH)
			n->cval = is_unsigned			? (int64_t)(ua / ub)
				  : (a == INT64_MIN && b == -1) ? a
								: a / b;
		else
			n->cval = is_unsigned ? (int64_t)(ua % ub) : (b == -1) ? 0 : a % b;
		break;
	case T_AMP:
		n->cval = a & b;
		break;
	case T_PIPE:
		n->cval = a | b;
		break;
	case T_CARET:
		n->cval = a ^ b;
		break;
	case T_SHL:
		n->cval = (int64_t)(ua << (ub & 63));
		break;
	case T_SHR:
		n->cval = is_unsigned ? (int64_t)(ua >> (ub & 63)) : a >> (b & 63);
		break;
	case T_LT:
		n->cval = is_unsigned ? ua < ub : a < b;
		break;
	case T_GT:
		n->cval = is_unsigned ? ua > ub : a > b;
		break;
	case T_LE:
		n->cval = is_unsigned ? ua <= ub : a <= b;
		break;
	case T_GE:
		n->cval = is_unsigned ? ua >= ub : a >= b;
		break;
	case T_EQ:
		n->cval = a == b;
		break;
	case T_NE:
		n->cval = a != b;
		break;
	case T_LAND:
		n->cval = a && b;
		break;
	case T_LOR:
		n->cval = a || b;
		break;
	case T_LXOR:
		n->cval = !a != !b;
		break;
	default:
		return -1;
	}
	n->is_const = 1;
	return 0;
}

static int sema_bin(struct lcc *cc, struct clause *c, struct node *n)
{
	struct type *a, *b;
	int op = n->op;
	int cmp = op == T_LT || op == T_GT || op == T_LE || op == T_GE || op == T_EQ || op == T_NE;
	int logic = op == T_LAND || op == T_LOR || op == T_LXOR;

	if (sema_expr(cc, c, n->l) || sema_expr(cc, c, n->r))
		return -1;
	a = n->l->t;
	b = n->r->t;
	for (struct node *o = n->l; o; o = o == n->l ? n->r : NULL)
		if (o->t->k == TY_VOID && o->k == N_CALL) {
			cc_error(cc, o->loc,
				 "%s() is an action and has no value: use it as a statement",
				 o->name);
			return -1;
		}
	if (a->k == TY_STR || b->k == TY_STR) {
		if (!cmp || a->k != b->k) {
			cc_error(cc, n->loc, "operator %s cannot take %s and %s%s", tok_name(op),
				 sema_tn(a), sema_tn(b),
				 cmp ? "" : ": strings only compare (==, !=, <, >...)");
			return -1;
		}
		n->t = &t_s32;
		return 0;
	}
	if (!type_is_scalar(a) || !type_is_scalar(b)) {
		cc_error(cc, n->loc, "operator %s cannot take %s and %s", tok_name(op), sema_tn(a),
			 sema_tn(b));
		return -1;
	}
	if (cmp || logic) {
		n->t = &t_s32;
	} else if (a->k == TY_PTR && b->k == TY_INT && (op == T_PLUS || op == T_MINUS)) {
		n->t = a;
	} else if (a->k == TY_PTR && b->k == TY_PTR && op == T_MINUS) {
		n->t = &t_s64;
	} else if (a->k == TY_PTR || b->k == TY_PTR) {
		if (b->k == TY_PTR && op == T_PLUS && a->k == TY_INT) {
			n->t = b;
		} else {
			cc_error(cc, n->loc, "operator %s cannot take %s and %s", tok_name(op),
				 sema_tn(a), sema_tn(b));
			return -1;
		}
	} else {
		n->t = type_arith(a, b);
	}
	if (n->l->is_const && n->r->is_const && a->k == TY_INT && b->k == TY_INT &&
	    fold(n, op, n->l->cval, n->r->cval, !n->t->sign || (cmp && !type_arith(a, b)->sign)) &&
	    (op == T_SLASH || op == T_PERCENT)) {
		cc_error(cc, n->r->loc, "division by zero");
		return -1;
	}
	return 0;
}

static int sema_un(struct lcc *cc, struct clause *c, struct node *n)
{
	struct type *t;

	if (sema_expr(cc, c, n->l))
		return -1;
	t = n->l->t;
	switch (n->op) {
	case T_STAR:
		if (t->k != TY_PTR || !t->ref || t->ref->k == TY_VOID) {
			cc_error(cc, n->loc,
				 "cannot dereference %s: cast it to a typed pointer first",
				 sema_tn(t));
			return -1;
		}
		n->t = t->ref;
		return 0;
	case T_AMP:
		cc_error(cc, n->loc, "the address-of operator is not supported");
		return -1;
	case T_NOT:
		if (!type_is_scalar(t))
			break;
		n->t = &t_s32;
		if (n->l->is_const) {
			n->is_const = 1;
			n->cval = !n->l->cval;
		}
		return 0;
	default:
		if (t->k != TY_INT)
			break;
		n->t = t->size < 4 ? &t_s32 : t;
		if (n->l->is_const) {
			n->is_const = 1;
			n->cval = n->op == T_MINUS   ? (int64_t)(0 - (uint64_t)n->l->cval)
				  : n->op == T_TILDE ? ~n->l->cval
						     : n->l->cval;
		}
		return 0;
	}
	cc_error(cc, n->loc, "operator %s cannot take %s", tok_name(n->op), sema_tn(t));
	return -1;
}

/* The type parser accepts struct values and void for sizeof(); a cast
 * cannot produce them. */
static int sema_cast(struct lcc *cc, struct clause *c, struct node *n)
{
	if (n->ctype->k == TY_STRUCT) {
		cc_error(cc, n->loc, "cannot cast to a struct value: cast to 'struct %s *'",
			 n->ctype->name);
		return -1;
	}
	if (n->ctype->k == TY_VOID) {
		cc_error(cc, n->loc, "cannot cast to void");
		return -1;
	}
	if (sema_expr(cc, c, n->l))
		return -1;
	if (!type_is_scalar(n->l->t) || !type_is_scalar(n->ctype)) {
		cc_error(cc, n->loc, "cannot cast %s to %s", sema_tn(n->l->t), sema_tn(n->ctype));
		return -1;
	}
	n->t = n->ctype;
	if (n->l->is_const && n->t->k == TY_INT) {
		int sh = 64 - 8 * n->t->size;

		n->is_const = 1;
		n->cval = n->t->sign ? (int64_t)((uint64_t)n->l->cval << sh) >> sh
				     : (int64_t)(((uint64_t)n->l->cval << sh) >> sh);
	}
	return 0;
}

static int sema_member(struct lcc *cc, struct clause *c, struct node *n)
{
	struct btf_member_info mi;
	struct type *t, *st;

	if (sema_expr(cc, c, n->l))
		return -1;
	t = n->l->t;
	st = n->op == T_ARROW ? (t->k == TY_PTR ? t->ref : NULL) : t;
	if (!st || st->k != TY_STRUCT) {
		cc_error(cc, n->loc, "'%s%s' needs a %s, not %s%s", n->op == T_ARROW ? "->" : ".",
			 n->name, n->op == T_ARROW ? "pointer to a struct" : "struct", sema_tn(t),
			 t->k == TY_PTR && !t->ref ? ": cast it, e.g. (struct task_struct *)p"
						   : "");
		return -1;
	}
	if (lbtf_member(st, n->name, &mi)) {
		cc_error(cc, n->loc, "struct %s has no member named '%s'", st->name, n->name);
		return -1;
	}
	if (mi.bitfield) {
		cc_error(cc, n->loc, "member '%s' is a bit-field, which cannot be read", n->name);
		return -1;
	}
	n->aux = mi.offset;
	n->dataloc = mi.dataloc;
	n->t = mi.t;
	if (n->t->k == TY_PTR && t->user)
		n->t = type_ptr(n->t->ref, 1);
	return 0;
}

int sema_arity(struct lcc *cc, const struct func *fn, struct node *n)
{
	if (n->nargs >= fn->min && n->nargs <= fn->max)
		return 0;
	if (fn->min == fn->max)
		cc_error(cc, n->loc, "%s() takes %d argument%s, not %d", fn->name, fn->min,
			 fn->min == 1 ? "" : "s", n->nargs);
	else
		cc_error(cc, n->loc, "%s() takes %d to %d arguments, not %d", fn->name, fn->min,
			 fn->max, n->nargs);
	return -1;
}

static int sema_call(struct lcc *cc, struct clause *c, struct node *n)
{
	const struct func *fn = func_find(n->name);

	if (!fn) {
		cc_error(cc, n->loc, "unknown function '%s()'", n->name);
		return -1;
	}
	if (fn->agg) {
		cc_error(cc, n->loc,
			 "%s() is an aggregating function: assign it to an aggregation, "
			 "@name[keys] = %s(...)",
			 n->name, n->name);
		return -1;
	}
	if (sema_arity(cc, fn, n))
		return -1;
	n->fn = fn;
	/* printa/clear/trunc... name aggregations: checked by the hook */
	int k = 0, aggpos = !fn->aggarg ? -1 : !strcmp(n->name, "printa") ? n->nargs - 1 : 0;

	for (struct node *a = n->args; a; a = a->next, k++) {
		if (a->k == N_AGG && k != aggpos) {
			cc_error(cc, a->loc, "aggregation %s cannot be an argument of %s()",
				 a->name, n->name);
			return -1;
		}
		if (a->k != N_AGG && sema_expr(cc, c, a))
			return -1;
	}
	return fn->check(cc, c, n);
}

static int sema_node(struct lcc *cc, struct clause *c, struct node *n);

/* The parser builds "x + x + ... + x" in a loop, as a left-deep tree as
 * deep as the sum is long: bound the recursion here too. */
int sema_expr(struct lcc *cc, struct clause *c, struct node *n)
{
	int r = -1;

	if (cc_failed(cc))
		return -1;
	if (++cc->depth > AST_MAX_DEPTH)
		cc_error(cc, n->loc, "expression nested too deeply: more than %d levels",
			 AST_MAX_DEPTH);
	else
		r = sema_node(cc, c, n);
	cc->depth--;
	return r;
}

static int sema_node(struct lcc *cc, struct clause *c, struct node *n)
{
	switch (n->k) {
	case N_NUM:
		n->is_const = 1;
		n->cval = n->num;
		n->t = n->num_unsigned || n->num > INT64_MAX ? &t_u64 : &t_s64;
		return 0;
	case N_STR:
		/* a D string ends at its first NUL ("abc\0x" is "abc"), and the
		 * code relies on the bytes after it being zero (cgstr.c) */
		n->slen = strnlen(n->str, n->slen);
		n->t = type_str((n->slen + 8) & ~7, 1);
		n->strid = rodata_add(cc, n->str, n->slen, n->t->size);
		return 0;
	case N_IDENT:
		return sema_ident(cc, c, n);
	case N_SELF:
	case N_THIS:
		return sema_tls(cc, n);
	case N_AGG:
		cc_error(cc, n->loc,
			 "aggregation %s cannot be read in a clause: print it with printa(%s)",
			 n->name, n->name);
		return -1;
	case N_INDEX:
		return sema_index(cc, c, n);
	case N_CALL:
		return sema_call(cc, c, n);
	case N_BIN:
		return sema_bin(cc, c, n);
	case N_UN:
		return sema_un(cc, c, n);
	case N_ASSIGN:
		return sema_assign(cc, c, n);
	case N_INCDEC:
		if (n->l->k == N_AGG) {
			cc_error(cc, n->loc,
				 "aggregations are updated with count(), sum()...: %s cannot take "
				 "%s",
				 tok_name(n->op), n->l->name);
			return -1;
		}
		if (sema_lvalue(cc, c, n->l, &t_s64))
			return -1;
		if (!type_is_scalar(n->l->t)) {
			cc_error(cc, n->loc, "%s needs an integer, not %s", tok_name(n->op),
				 sema_tn(n->l->t));
			return -1;
		}
		n->t = n->l->t;
		return 0;
	case N_TERN:
		if (sema_expr(cc, c, n->l) || sema_expr(cc, c, n->r) || sema_expr(cc, c, n->x))
			return -1;
		if (!type_is_scalar(n->l->t)) {
			cc_error(cc, n->l->loc,
				 "the condition of ?: must be an integer or pointer");
			return -1;
		}
		if ((n->r->t->k == TY_STR) != (n->x->t->k == TY_STR) ||
		    !sema_compatible(n->r->t, n->x->t)) {
			cc_error(cc, n->loc, "the branches of ?: have different types: %s and %s",
				 sema_tn(n->r->t), sema_tn(n->x->t));
			return -1;
		}
		if (n->r->t->k == TY_STR)
			n->t = type_str(
				n->r->t->size > n->x->t->size ? n->r->t->size : n->x->t->size, 0);
		else
			n->t = n->r->t->k == TY_PTR ? n->r->t : type_arith(n->r->t, n->x->t);
		return 0;
	case N_MEMBER:
		return sema_member(cc, c, n);
	case N_CAST:
		return sema_cast(cc, c, n);
	case N_SIZEOF:
		if (n->l && sema_expr(cc, c, n->l))
			return -1;
		n->t = &t_u64;
		n->is_const = 1;
		n->cval = n->ctype ? (n->ctype->k == TY_STRUCT || n->ctype->k == TY_INT ||
						      n->ctype->k == TY_PTR
					      ? n->ctype->size
					      : 8)
				   : n->l->t->size;
		return 0;
	case N_STRINGOF:
		if (sema_expr(cc, c, n->l))
			return -1;
		if (n->l->t->k != TY_STR && n->l->t->k != TY_PTR) {
			cc_error(cc, n->loc, "stringof() needs a string or a pointer, not %s",
				 sema_tn(n->l->t));
			return -1;
		}
		n->t = n->l->t->k == TY_STR ? n->l->t : type_str(cc->o->strsize, 0);
		return 0;
	default:
		cc_error(cc, n->loc, "unexpected statement in an expression");
		return -1;
	}
}

static int sema_stmt(struct lcc *cc, struct clause *c, struct node *s)
{
	switch (s->k) {
	case N_BLOCK:
		for (struct node *x = s->args; x; x = x->next)
			if (sema_stmt(cc, c, x))
				return -1;
		return 0;
	case N_IF:
		if (sema_expr(cc, c, s->l) || sema_stmt(cc, c, s->r) ||
		    (s->x && sema_stmt(cc, c, s->x)))
			return -1;
		if (!type_is_scalar(s->l->t)) {
			cc_error(cc, s->l->loc,
				 "the condition of if must be an integer or pointer, not %s",
				 sema_tn(s->l->t));
			return -1;
		}
		return 0;
	case N_EXPR:
		if (s->l->k == N_CALL &&
		    (!strcmp(s->l->name, "stack") || !strcmp(s->l->name, "ustack")))
			s->l->aux = 1; /* stack() as a statement prints */
		return sema_expr(cc, c, s->l);
	default:
		cc_error(cc, s->loc, "unexpected statement");
		return -1;
	}
}

/* Actions are statements: printf() cannot appear inside an expression. */
static int check_actions(struct lcc *cc, struct node *n, int top)
{
	if (!n)
		return 0;
	if (n->k == N_CALL && n->fn && n->fn->action && !top && n->t == &t_void) {
		cc_error(cc, n->loc, "%s() is an action: use it as a statement", n->name);
		return -1;
	}
	if (n->k == N_BLOCK) {
		for (struct node *x = n->args; x; x = x->next)
			if (check_actions(cc, x, 1))
				return -1;
		return 0;
	}
	if (n->k == N_EXPR)
		return check_actions(cc, n->l, 1);
	if (n->k == N_IF)
		return check_actions(cc, n->l, 0) || check_actions(cc, n->r, 1) ||
		       check_actions(cc, n->x, 1);
	for (struct node *a = n->args; a; a = a->next)
		if (check_actions(cc, a, 0))
			return -1;
	return check_actions(cc, n->l, 0) || check_actions(cc, n->r, 0) ||
	       check_actions(cc, n->x, 0);
}

int sema_program(struct lcc *cc)
{
	for (struct clause *c = cc->prog.clauses; c; c = c->next) {
		if (c->pred) {
			if (sema_expr(cc, c, c->pred))
				return -1;
			if (!type_is_scalar(c->pred->t)) {
				cc_error(cc, c->pred->loc,
					 "a predicate must be an integer or pointer, not %s%s",
					 sema_tn(c->pred->t),
					 c->pred->t->k == TY_STR
						 ? ": compare the string, e.g. /execname == \"sh\"/"
						 : "");
				return -1;
			}
		}
		if (sema_stmt(cc, c, c->body) || check_actions(cc, c->body, 1) ||
		    check_actions(cc, c->pred, 0) || spec_check_clause(cc, c))
			return -1;
	}
	for (struct var *v = cc->vars; v; v = v->next)
		if (v->s == VS_GLOBAL) {
			v->off = cc->globals_size;
			cc->globals_size += type_slot_size(v->t);
		}
	return 0;
}

void sema_dump(struct lcc *cc, FILE *f)
{
	static const char *const scope[] = { "global", "self->", "this->", "assoc", "self->[]" };

	fprintf(f, "-- variables\n");
	for (struct var *v = cc->vars; v; v = v->next) {
		fprintf(f, "  %-8s %-20s %s", scope[v->s], v->name, sema_tn(v->t));
		for (int k = 0; k < v->nkeys; k++)
			fprintf(f, "%s%s", k ? ", " : "  keys: ", sema_tn(v->kt[k]));
		fputc('\n', f);
	}
	fprintf(f, "-- aggregations\n");
	for (struct agg *a = cc->aggs; a; a = a->next) {
		fprintf(f, "  %-20s %s()", a->name, func_agg_name(a->fn));
		for (int k = 0; k < a->nkeys; k++)
			fprintf(f, "%s%s", k ? ", " : "  keys: ", sema_tn(a->kt[k]));
		fprintf(f, "  value: %d bytes\n", a->val_size);
	}
}
