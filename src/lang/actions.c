// SPDX-License-Identifier: GPL-2.0
/*
 * Actions: statements that emit output records (printf, trace, printa,
 * exit, clear, trunc, normalize, denormalize, commit, discard) and
 * speculate(). The record layout of each is fixed at compile time (struct
 * action); user space (rt.c, output.c) renders records in arrival order,
 * so aggregation actions take effect where they appear in the output.
 */
#include <stdlib.h>
#include <string.h>

#include "lang/agg.h"
#include "lang/builtins.h"
#include "lang/printf.h"

struct action *action_new(struct lcc *cc, enum akind k, struct loc loc)
{
	struct action *a;

	cc->acts = realloc(cc->acts, (cc->nacts + 1) * sizeof(*cc->acts));
	if (!cc->acts)
		abort();
	a = &cc->acts[cc->nacts];
	memset(a, 0, sizeof(*a));
	a->k = k;
	a->id = cc->nacts++;
	a->loc = loc;
	a->size = REC_HDR;
	return a;
}

static void add_arg(struct action *a, struct type *t)
{
	a->args[a->nargs].t = t;
	a->args[a->nargs].off = a->size;
	a->size += type_slot_size(t);
	a->nargs++;
}

/* Slot type of a value in a record: integers widen to 64 bits, strings
 * keep their capacity. */
static struct type *rec_type(struct type *t)
{
	if (t->k == TY_INT)
		return t->sign ? &t_s64 : &t_u64;
	if (t->k == TY_STR)
		return type_str(t->size, 1);
	return t;
}

static int conv_ok(char conv, const struct type *t)
{
	switch (conv) {
	case 's':
		return t->k == TY_STR || t->k == TY_SYM;
	case 'a':
	case 'A':
		return type_is_scalar(t) || t->k == TY_SYM;
	case 'k':
		return t->k == TY_STACK || t->k == TY_USTACK;
	default:
		return type_is_scalar(t);
	}
}

/* The type a printf argument is recorded and rendered with. An integer
 * keeps its own type: its slot holds it widened to 64 bits anyway
 * (cg_store_to), and %u %x %o print the bits of its width, as C does. */
static struct type *printf_slot_type(char conv, struct type *t)
{
	/* %A of an address records the process with it */
	if (conv == 'A' && t->k != TY_SYM)
		return &t_usymoff;
	return t->k == TY_INT ? t : rec_type(t);
}

static int check_printf(struct lcc *cc, struct clause *c, struct node *n)
{
	struct fmt_conv cv[FMT_MAX];
	char err[256], tb[160];
	struct node *a = n->args->next;
	struct action *act;
	int nc;

	(void)c;
	if (n->args->k != N_STR) {
		cc_error(cc, n->args->loc,
			 "the first argument of printf() must be a string literal");
		return -1;
	}
	nc = fmt_parse(n->args->str, cv, FMT_MAX, err, sizeof(err));
	if (nc < 0) {
		cc_error(cc, n->args->loc, "%s", err);
		return -1;
	}
	if (nc != n->nargs - 1) {
		cc_error(cc, n->loc,
			 "printf() format has %d conversion%s but %d argument%s follow%s", nc,
			 nc == 1 ? "" : "s", n->nargs - 1, n->nargs == 2 ? "" : "s",
			 n->nargs == 2 ? "s" : "");
		return -1;
	}
	if (nc > MAX_ARGS) {
		cc_error(cc, n->loc, "printf() takes at most %d values", MAX_ARGS);
		return -1;
	}
	act = action_new(cc, A_PRINTF, n->loc);
	act->fmt = n->args->str;
	for (int k = 0; k < nc; k++, a = a->next) {
		if (cv[k].conv == '@' || !conv_ok(cv[k].conv, a->t)) {
			cc_error(cc, a->loc, "%s%c in the format cannot print %s%s", cv[k].spec,
				 cv[k].conv, type_name(a->t, tb, sizeof(tb)),
				 a->t->k == TY_STR   ? ": use %s"
				 : cv[k].conv == 's' ? ": use %d"
						     : "");
			return -1;
		}
		add_arg(act, printf_slot_type(cv[k].conv, a->t));
	}
	n->aux = act->id;
	n->t = &t_void;
	return 0;
}

static int emit_record(struct cg *cg, struct node *n, struct node *args)
{
	struct action *act = &cg->cc->acts[n->aux];
	int off, vr = cg_rec_begin(cg, act, &off), k = 0;

	for (struct node *a = args; a; a = a->next, k++)
		cg_store_to(cg, a, vr, act->args[k].off, act->args[k].t);
	cg_rec_submit(cg, vr, act->size);
	return NO_REG;
}

static int emit_printf(struct cg *cg, struct node *n)
{
	return emit_record(cg, n, n->args->next);
}

static int check_trace(struct lcc *cc, struct clause *c, struct node *n)
{
	struct action *act;

	(void)c;
	if (n->args->t->k == TY_VOID || n->args->t->k == TY_STRUCT || n->args->t->k == TY_ARRAY) {
		cc_error(cc, n->args->loc, "trace() cannot record this value");
		return -1;
	}
	act = action_new(cc, A_TRACE, n->loc);
	add_arg(act, rec_type(n->args->t));
	act->tsize = n->args->t->size;
	n->aux = act->id;
	n->t = &t_void;
	return 0;
}

static int emit_trace(struct cg *cg, struct node *n)
{
	return emit_record(cg, n, n->args);
}

/* exit(status): stops tracing once user space reads the record; END runs
 * and aggregations print. The status is required, as in DTrace. */
static int check_exit(struct lcc *cc, struct clause *c, struct node *n)
{
	struct action *act;

	(void)c;
	if (n->args->t->k != TY_INT) {
		cc_error(cc, n->args->loc, "exit() takes an integer status");
		return -1;
	}
	act = action_new(cc, A_EXIT, n->loc);
	add_arg(act, &t_s64);
	n->aux = act->id;
	n->t = &t_void;
	return 0;
}

static int emit_exit(struct cg *cg, struct node *n)
{
	struct action *act = &cg->cc->acts[n->aux];
	int off, vr = cg_rec_begin(cg, act, &off);

	cg_store_scalar(cg, vr, act->args[0].off, cg_expr(cg, n->args), 8);
	cg_rec_submit(cg, vr, act->size);
	return NO_REG;
}

/* printa([fmt,] @agg): the format's conversions take the keys in order
 * and %@ the value. */
static int check_printa(struct lcc *cc, struct clause *c, struct node *n)
{
	struct node *an = n->nargs == 2 ? n->args->next : n->args;
	struct fmt_conv cv[FMT_MAX];
	struct action *act;
	char err[256];

	(void)c;
	if (sema_need_agg(cc, an))
		return -1;
	act = action_new(cc, A_PRINTA, n->loc);
	act->agg = an->agg;
	if (n->nargs == 2) {
		int nc, keys = 0;

		if (n->args->k != N_STR) {
			cc_error(cc, n->args->loc,
				 "the format of printa() must be a string literal");
			return -1;
		}
		nc = fmt_parse(n->args->str, cv, FMT_MAX, err, sizeof(err));
		if (nc < 0) {
			cc_error(cc, n->args->loc, "%s", err);
			return -1;
		}
		for (int k = 0; k < nc; k++) {
			if (cv[k].conv == '@')
				continue;
			if (keys >= an->agg->nkeys) {
				cc_error(cc, n->args->loc,
					 "printa() format has more conversions than %s has keys "
					 "(%d)",
					 an->agg->name, an->agg->nkeys);
				return -1;
			}
			if (!conv_ok(cv[k].conv, an->agg->kt[keys])) {
				cc_error(
					cc, n->args->loc,
					"printa() format conversion %d does not match key %d of %s",
					k + 1, keys + 1, an->agg->name);
				return -1;
			}
			keys++;
		}
		act->fmt = n->args->str;
	}
	n->aux = act->id;
	n->t = &t_void;
	return 0;
}

static int emit_plain(struct cg *cg, struct node *n)
{
	struct action *act = &cg->cc->acts[n->aux];
	int off, vr = cg_rec_begin(cg, act, &off), k = 0;

	for (struct node *a = n->args; a; a = a->next)
		if (a->k != N_AGG && a->k != N_STR && k < act->nargs) {
			cg_store_scalar(cg, vr, act->args[k].off, cg_expr(cg, a), 8);
			k++;
		}
	cg_rec_submit(cg, vr, act->size);
	return NO_REG;
}

/* clear(@a), trunc(@a[, n]), normalize(@a, n), denormalize(@a) */
static int check_aggop(struct lcc *cc, struct clause *c, struct node *n)
{
	enum akind k = !strcmp(n->name, "clear")       ? A_CLEAR
		       : !strcmp(n->name, "trunc")     ? A_TRUNC
		       : !strcmp(n->name, "normalize") ? A_NORMALIZE
						       : A_DENORMALIZE;
	struct action *act;

	(void)c;
	if (sema_need_agg(cc, n->args))
		return -1;
	if (n->nargs == 2 && n->args->next->t->k != TY_INT) {
		cc_error(cc, n->args->next->loc, "%s() takes an integer as its second argument",
			 n->name);
		return -1;
	}
	act = action_new(cc, k, n->loc);
	act->agg = n->args->agg;
	if (n->nargs == 2)
		add_arg(act, &t_s64);
	n->aux = act->id;
	n->t = &t_void;
	return 0;
}

static int check_specop(struct lcc *cc, struct clause *c, struct node *n)
{
	struct action *act;

	(void)c;
	if (n->args->t->k != TY_INT) {
		cc_error(cc, n->args->loc, "%s() takes a speculation id from speculation()",
			 n->name);
		return -1;
	}
	if (!strcmp(n->name, "speculate")) {
		n->t = &t_void;
		return 0;
	}
	act = action_new(cc, n->name[0] == 'c' ? A_COMMIT : A_DISCARD, n->loc);
	add_arg(act, &t_s64);
	n->aux = act->id;
	n->t = &t_void;
	return 0;
}

/* speculate(id): the rest of the clause's records carry the id (0 is
 * tagged 0xffffffff: "no buffer", which user space drops and counts). */
static int emit_speculate(struct cg *cg, struct node *n)
{
	int v = ir_vreg(cg->ir), ok = ir_label(cg->ir);

	ir_mov(cg->ir, v, cg_expr(cg, n->args));
	ir_jmpi(cg->ir, BPF_JNE, v, 0, ok);
	ir_movi(cg->ir, v, 0xffffffff);
	ir_bind(cg->ir, ok);
	cg->vspec = v;
	if (cg->probe_line)
		cg_probe_rec(cg, A_PROBE); /* held with the clause's records */
	return NO_REG;
}

const struct func funcs_actions[] = {
	{ .name = "printf",
	  .min = 1,
	  .max = MAX_ARGS + 1,
	  .action = 1,
	  .check = check_printf,
	  .emit = emit_printf },
	{ .name = "trace",
	  .min = 1,
	  .max = 1,
	  .action = 1,
	  .check = check_trace,
	  .emit = emit_trace },
	{ .name = "exit", .min = 1, .max = 1, .action = 1, .check = check_exit, .emit = emit_exit },
	{ .name = "printa",
	  .aggarg = 1,
	  .min = 1,
	  .max = 2,
	  .action = 1,
	  .check = check_printa,
	  .emit = emit_plain },
	{ .name = "clear",
	  .aggarg = 1,
	  .min = 1,
	  .max = 1,
	  .action = 1,
	  .check = check_aggop,
	  .emit = emit_plain },
	{ .name = "trunc",
	  .aggarg = 1,
	  .min = 1,
	  .max = 2,
	  .action = 1,
	  .check = check_aggop,
	  .emit = emit_plain },
	{ .name = "normalize",
	  .aggarg = 1,
	  .min = 2,
	  .max = 2,
	  .action = 1,
	  .check = check_aggop,
	  .emit = emit_plain },
	{ .name = "denormalize",
	  .aggarg = 1,
	  .min = 1,
	  .max = 1,
	  .action = 1,
	  .check = check_aggop,
	  .emit = emit_plain },
	{ .name = "speculate",
	  .min = 1,
	  .max = 1,
	  .action = 1,
	  .check = check_specop,
	  .emit = emit_speculate },
	{ .name = "commit",
	  .min = 1,
	  .max = 1,
	  .action = 1,
	  .check = check_specop,
	  .emit = spec_emit_release },
	{ .name = "discard",
	  .min = 1,
	  .max = 1,
	  .action = 1,
	  .check = check_specop,
	  .emit = spec_emit_release },
	{ .name = NULL },
};
