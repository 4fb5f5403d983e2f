// SPDX-License-Identifier: GPL-2.0
/* Aggregating functions: checks, in-kernel updates and user-space merges.
 * Layouts are described in agg.h. */
#include <stdlib.h>
#include <string.h>

#include "lang/agg.h"
#include "lang/builtins.h"

static void ld(struct cg *cg, int r, int vval, int word)
{
	ir_ldx(cg->ir, BPF_DW, r, vval, 8 * word);
}

static void st(struct cg *cg, int vval, int word, int r)
{
	ir_stx(cg->ir, BPF_DW, vval, 8 * word, r);
}

/* [word] += v (per-CPU storage: no atomics needed) */
static void add(struct cg *cg, int vval, int word, int v)
{
	int t = ir_vreg(cg->ir);

	ld(cg, t, vval, word);
	ir_alu(cg->ir, BPF_ADD, t, v);
	st(cg, vval, word, t);
}

static void emit_count(struct cg *cg, struct agg *a, int vval, int varg)
{
	(void)a;
	(void)varg;
	add(cg, vval, 0, cg_imm(cg, 1));
}

static void emit_sum(struct cg *cg, struct agg *a, int vval, int varg)
{
	(void)a;
	add(cg, vval, 0, varg);
}

static void emit_avg(struct cg *cg, struct agg *a, int vval, int varg)
{
	(void)a;
	add(cg, vval, 0, cg_imm(cg, 1));
	add(cg, vval, 1, varg);
}

static void emit_minmax(struct cg *cg, struct agg *a, int vval, int varg)
{
	int n = ir_vreg(cg->ir), cur = ir_vreg(cg->ir), set = ir_label(cg->ir);
	int done = ir_label(cg->ir), is_min = a->fn->name[1] == 'i';
	int sign = a->argt->k != TY_INT || a->argt->sign;

	ld(cg, n, vval, 0);
	ir_jmpi(cg->ir, BPF_JEQ, n, 0, set);
	ld(cg, cur, vval, 1);
	ir_jmp(cg->ir, is_min ? (sign ? BPF_JSGE : BPF_JGE) : (sign ? BPF_JSLE : BPF_JLE), varg,
	       cur, done);
	ir_bind(cg->ir, set);
	st(cg, vval, 1, varg);
	ir_bind(cg->ir, done);
	ir_alui(cg->ir, BPF_ADD, n, 1);
	st(cg, vval, 0, n);
}

/*
 * stddev: n, sum, and the 128-bit sum of squares. With x = |v| = h*2^32 + l:
 *   x^2 = h^2*2^64 + 2*h*l*2^32 + l^2
 * lo += l^2, then lo += (2hl << 32) and hi += h^2 + (2hl >> 32), each
 * addition carrying into hi when lo wraps (lo < addend afterwards).
 */
static void add128(struct cg *cg, int lo, int hi, int v)
{
	int skip = ir_label(cg->ir);

	ir_alu(cg->ir, BPF_ADD, lo, v);
	ir_jmp(cg->ir, BPF_JGE, lo, v, skip);
	ir_alui(cg->ir, BPF_ADD, hi, 1);
	ir_bind(cg->ir, skip);
}

static void emit_stddev(struct cg *cg, struct agg *a, int vval, int varg)
{
	struct ir *ir = cg->ir;
	int x = ir_vreg(ir), h = ir_vreg(ir), l = ir_vreg(ir), t = ir_vreg(ir);
	int lo = ir_vreg(ir), hi = ir_vreg(ir), pos = ir_label(ir);

	emit_avg(cg, a, vval, varg);
	ir_mov(ir, x, varg);
	ir_jmpi(ir, BPF_JSGE, x, 0, pos);
	ir_alui(ir, BPF_NEG, x, 0);
	ir_bind(ir, pos);
	ir_mov(ir, h, x);
	ir_alui(ir, BPF_RSH, h, 32);
	ir_mov(ir, l, x);
	ir_alui(ir, BPF_LSH, l, 32);
	ir_alui(ir, BPF_RSH, l, 32);
	ld(cg, lo, vval, 2);
	ld(cg, hi, vval, 3);
	ir_mov(ir, t, l);
	ir_alu(ir, BPF_MUL, t, l);
	add128(cg, lo, hi, t);
	ir_mov(ir, t, h);
	ir_alu(ir, BPF_MUL, t, l);
	ir_alui(ir, BPF_LSH, t, 1); /* 2hl < 2^65: keep the top bit */
	{
		int top = ir_vreg(ir), t2 = ir_vreg(ir);

		ir_mov(ir, top, h);
		ir_alu(ir, BPF_MUL, top, l);
		ir_alui(ir, BPF_RSH, top, 63); /* bit 64 of 2hl */
		ir_alui(ir, BPF_LSH, top, 32); /* lands at bit 96, i.e. hi bit 32 */
		ir_alu(ir, BPF_ADD, hi, top);
		ir_mov(ir, t2, t);
		ir_alui(ir, BPF_LSH, t2, 32);
		add128(cg, lo, hi, t2);
		ir_alui(ir, BPF_RSH, t, 32);
		ir_alu(ir, BPF_ADD, hi, t);
	}
	ir_mov(ir, t, h);
	ir_alu(ir, BPF_MUL, t, h);
	ir_alu(ir, BPF_ADD, hi, t);
	st(cg, vval, 2, lo);
	st(cg, vval, 3, hi);
}

/* buckets[idx] += 1 for idx in a vreg already clamped to [0, n). */
static void bump(struct cg *cg, int vval, int idx, int n)
{
	int p = ir_vreg(cg->ir), ok = ir_label(cg->ir), t = ir_vreg(cg->ir);

	/* the explicit bound check gives the verifier idx's range */
	ir_jmpi(cg->ir, BPF_JLT, idx, n, ok);
	ir_movi(cg->ir, idx, n - 1);
	ir_bind(cg->ir, ok);
	ir_alui(cg->ir, BPF_LSH, idx, 3);
	ir_mov(cg->ir, p, vval);
	ir_alu(cg->ir, BPF_ADD, p, idx);
	ir_ldx(cg->ir, BPF_DW, t, p, 0);
	ir_alui(cg->ir, BPF_ADD, t, 1);
	ir_stx(cg->ir, BPF_DW, p, 0, t);
}

/* floor(log2(x)) for 0 < x < 2^63 without branches:
 *   s = ((2^k - 1 - x) >> 63) << log2(k)  is k when x >= 2^k, else 0 */
static int log2_nobranch(struct cg *cg, int x)
{
	static const int steps[] = { 32, 16, 8, 4, 2, 1 };
	int r = cg_imm(cg, 0), s = ir_vreg(cg->ir);

	for (int k = 0; k < 6; k++) {
		ir_movi(cg->ir, s, (int64_t)((1ULL << steps[k]) - 1));
		ir_alu(cg->ir, BPF_SUB, s, x);
		ir_alui(cg->ir, BPF_RSH, s, 63);
		ir_alui(cg->ir, BPF_LSH, s, __builtin_ctz(steps[k]));
		ir_alu(cg->ir, BPF_RSH, x, s);
		ir_alu(cg->ir, BPF_OR, r, s);
	}
	return r;
}

/* quantize: 0 -> bucket 63; x > 0 -> 64 + log2(x); x < 0 -> 62 - log2(-x)
 * (INT64_MIN, whose negation overflows, goes to bucket 0). */
static void emit_quantize(struct cg *cg, struct agg *a, int vval, int varg)
{
	struct ir *ir = cg->ir;
	int x = ir_vreg(ir), idx = ir_vreg(ir), neg = ir_label(ir), go = ir_label(ir), l2;

	(void)a;
	ir_movi(ir, idx, QUANT_ZERO);
	ir_mov(ir, x, varg);
	ir_jmpi(ir, BPF_JEQ, x, 0, go);
	ir_jmpi(ir, BPF_JSLT, x, 0, neg);
	l2 = log2_nobranch(cg, x);
	ir_movi(ir, idx, QUANT_ZERO + 1);
	ir_alu(ir, BPF_ADD, idx, l2);
	ir_ja(ir, go);
	ir_bind(ir, neg);
	ir_movi(ir, idx, 0);
	ir_alui(ir, BPF_NEG, x, 0);
	ir_jmpi(ir, BPF_JSLT, x, 0, go);
	l2 = log2_nobranch(cg, x);
	ir_movi(ir, idx, QUANT_ZERO - 1);
	ir_alu(ir, BPF_SUB, idx, l2);
	ir_bind(ir, go);
	bump(cg, vval, idx, QUANT_NBUCKETS);
}

/* lquantize: 0 below lo, 1 + (v - lo) / step inside, n - 1 at or above hi. */
static void emit_lquantize(struct cg *cg, struct agg *a, int vval, int varg)
{
	struct ir *ir = cg->ir;
	int x = ir_vreg(ir), idx = ir_vreg(ir), lo = cg_imm(cg, a->p[0]), hi = cg_imm(cg, a->p[1]);
	int go = ir_label(ir), in = ir_label(ir);

	ir_mov(ir, x, varg);
	ir_movi(ir, idx, 0);
	ir_jmp(ir, BPF_JSLT, x, lo, go);
	ir_movi(ir, idx, a->nbuckets - 1);
	ir_jmp(ir, BPF_JSGE, x, hi, go);
	ir_bind(ir, in);
	ir_alu(ir, BPF_SUB, x, lo);
	ir_alui(ir, BPF_DIV, x, (int32_t)a->p[2]);
	ir_mov(ir, idx, x);
	ir_alui(ir, BPF_ADD, idx, 1);
	ir_bind(ir, go);
	bump(cg, vval, idx, a->nbuckets);
}

/* llquantize: the bucket bounds are constants, so the index is found by a
 * binary decision tree over them (depth log2(nbuckets)). */
static int64_t *llq_bounds(const struct agg *a, int *n)
{
	int64_t f = a->p[0], this = 1, last;
	int64_t *lb = calloc(4096, sizeof(*lb));
	int k = 0;

	for (int o = 0; o < a->p[1]; o++)
		this *= f;
	lb[k++] = INT64_MIN; /* bucket 0: below factor^low */
	last = this;
	this *= f;
	for (int o = a->p[1]; o <= a->p[2] && k < 4000; o++) {
		int64_t nb = this > a->p[3] ? a->p[3] : this, w = this / nb;

		for (int64_t v = last; v < this && k < 4000; v += w)
			lb[k++] = v;
		last = this;
		this = this * f;
	}
	lb[k++] = last; /* at or above factor^(high+1) */
	*n = k;
	return lb;
}

int64_t agg_bucket_lo(const struct agg *a, int i)
{
	if (!strcmp(a->fn->name, "quantize")) {
		if (i == QUANT_ZERO)
			return 0;
		return i > QUANT_ZERO ? (int64_t)(1ULL << (i - QUANT_ZERO - 1))
				      : -(int64_t)(1ULL << (QUANT_ZERO - i - 1));
	}
	if (!strcmp(a->fn->name, "lquantize"))
		return i == 0 ? INT64_MIN : a->p[0] + (i - 1) * a->p[2];
	{
		int n;
		int64_t *lb = llq_bounds(a, &n), v = i < n ? lb[i] : INT64_MAX;

		free(lb);
		return v;
	}
}

static void llq_tree(struct cg *cg, int x, int idx, const int64_t *lb, int from, int to, int go)
{
	int mid, right;

	if (from == to) {
		ir_movi(cg->ir, idx, from);
		ir_ja(cg->ir, go);
		return;
	}
	mid = (from + to + 1) / 2;
	right = ir_label(cg->ir);
	ir_jmp(cg->ir, BPF_JSGE, x, cg_imm(cg, lb[mid]), right);
	llq_tree(cg, x, idx, lb, from, mid - 1, go);
	ir_bind(cg->ir, right);
	llq_tree(cg, x, idx, lb, mid, to, go);
}

static void emit_llquantize(struct cg *cg, struct agg *a, int vval, int varg)
{
	int n, x = ir_vreg(cg->ir), idx = ir_vreg(cg->ir), go = ir_label(cg->ir);
	int64_t *lb = llq_bounds(a, &n);

	ir_mov(cg->ir, x, varg);
	ir_movi(cg->ir, idx, 0);
	llq_tree(cg, x, idx, lb, 0, n - 1, go);
	ir_bind(cg->ir, go);
	free(lb);
	bump(cg, vval, idx, a->nbuckets);
}

static void merge_add(const struct agg *a, uint64_t *d, const uint64_t *s)
{
	for (int i = 0; i < a->val_size / 8; i++)
		d[i] += s[i];
}

static void merge_stddev(const struct agg *a, uint64_t *d, const uint64_t *s)
{
	uint64_t lo = d[2] + s[2];

	(void)a;
	d[3] += s[3] + (lo < d[2]);
	d[2] = lo;
	d[0] += s[0];
	d[1] += s[1];
}

static void merge_minmax(const struct agg *a, uint64_t *d, const uint64_t *s)
{
	int is_min = a->fn->name[1] == 'i', sign = a->argt->k != TY_INT || a->argt->sign;
	int better;

	if (!s[0])
		return;
	if (sign)
		better = is_min ? (int64_t)s[1] < (int64_t)d[1] : (int64_t)s[1] > (int64_t)d[1];
	else
		better = is_min ? s[1] < d[1] : s[1] > d[1];
	if (!d[0] || better)
		d[1] = s[1];
	d[0] += s[0];
}

static int64_t val_first(const struct agg *a, const uint64_t *v)
{
	(void)a;
	return (int64_t)v[0];
}

static int64_t val_second(const struct agg *a, const uint64_t *v)
{
	(void)a;
	return (int64_t)v[1];
}

static int64_t val_avg(const struct agg *a, const uint64_t *v)
{
	(void)a;
	return v[0] ? (int64_t)v[1] / (int64_t)v[0] : 0;
}

/* sqrt(E[x^2] - E[x]^2), with E[x^2] from the 128-bit sum */
static int64_t val_stddev(const struct agg *a, const uint64_t *v)
{
	long double n = v[0], m, sq;

	(void)a;
	if (!v[0])
		return 0;
	m = (long double)(int64_t)v[1] / n;
	sq = ((long double)v[3] * 18446744073709551616.0L + (long double)v[2]) / n;
	sq -= m * m;
	if (sq <= 0)
		return 0;
	/* Newton's method on long double avoids pulling in libm's sqrtl */
	{
		long double x = sq > 1 ? sq / 2 : 1;

		for (int i = 0; i < 200; i++)
			x = (x + sq / x) / 2;
		return (int64_t)x;
	}
}

/* histograms sort by their total count */
static int64_t val_hist(const struct agg *a, const uint64_t *v)
{
	int64_t s = 0;

	for (int i = 0; i < a->nbuckets; i++)
		s += v[i];
	return s;
}

static const struct aggfn fn_count = { "count", 1, 0, emit_count, merge_add, val_first };
static const struct aggfn fn_sum = { "sum", 1, 0, emit_sum, merge_add, val_first };
static const struct aggfn fn_avg = { "avg", 2, 0, emit_avg, merge_add, val_avg };
static const struct aggfn fn_min = { "min", 2, 0, emit_minmax, merge_minmax, val_second };
static const struct aggfn fn_max = { "max", 2, 0, emit_minmax, merge_minmax, val_second };
static const struct aggfn fn_stddev = { "stddev", 4, 0, emit_stddev, merge_stddev, val_stddev };
static const struct aggfn fn_quantize = { "quantize",	 QUANT_NBUCKETS, 1,
					  emit_quantize, merge_add,	 val_hist };
static const struct aggfn fn_lquantize = { "lquantize", 0, 1, emit_lquantize, merge_add, val_hist };
static const struct aggfn fn_llquantize = {
	"llquantize", 0, 1, emit_llquantize, merge_add, val_hist
};

const char *func_agg_name(const struct aggfn *fn)
{
	return fn->name;
}

static int cparam(struct lcc *cc, struct node *p, int64_t *out, const char *what)
{
	if (!p->is_const) {
		cc_error(cc, p->loc, "the %s must be a constant", what);
		return -1;
	}
	*out = p->cval;
	return 0;
}

static int check_agg(struct lcc *cc, struct clause *c, struct node *n)
{
	const struct aggfn *fn = n->fn->agg;
	struct agg *a = n->agg;
	struct node *p = n->args;
	int64_t q[5] = { 0 }, prev[5];
	int used = a->val_size != 0; /* checked at an earlier use */

	(void)c;
	memcpy(prev, a->p, sizeof(prev));
	if (p && !type_is_scalar(p->t)) {
		cc_error(cc, p->loc, "%s() aggregates integers, not this value", fn->name);
		return -1;
	}
	a->argt = p ? p->t : &t_s64;
	a->val_size = 8 * fn->words;
	a->nbuckets = fn == &fn_quantize ? QUANT_NBUCKETS : 0;
	if (fn == &fn_lquantize) {
		if (cparam(cc, p->next, &q[0], "lower bound of lquantize()") ||
		    cparam(cc, p->next->next, &q[1], "upper bound of lquantize()") ||
		    (n->nargs == 4 &&
		     cparam(cc, p->next->next->next, &q[2], "step of lquantize()")))
			return -1;
		if (n->nargs == 3)
			q[2] = 1;
		if (q[2] <= 0 || q[2] > INT32_MAX || q[1] <= q[0] || (q[1] - q[0]) / q[2] > 4000 ||
		    q[0] < INT32_MIN || q[1] > INT32_MAX) {
			cc_error(cc, n->loc,
				 "lquantize() needs lower < upper, a positive step and at most "
				 "4000 buckets in 32-bit range");
			return -1;
		}
		a->nbuckets = (int)((q[1] - q[0]) / q[2]) + 2;
	}
	if (fn == &fn_llquantize) {
		int nb;
		int64_t *lb, pw = 1;

		for (int k = 0; k < 4; k++)
			if (cparam(cc,
				   k == 0   ? p->next
				   : k == 1 ? p->next->next
				   : k == 2 ? p->next->next->next
					    : p->next->next->next->next,
				   &q[k], "llquantize() parameter"))
				return -1;
		if (q[0] < 2 || q[1] < 0 || q[2] < q[1] || q[3] < 1 || q[3] % q[0] || q[3] > 1000 ||
		    q[0] > 1000) {
			cc_error(cc, n->loc,
				 "llquantize(value, factor, low, high, steps) needs factor >= 2, 0 "
				 "<= low <= high, and steps a multiple of factor");
			return -1;
		}
		for (int k = 0; k <= q[2] + 1; k++) {
			if (pw > INT64_MAX / q[0]) {
				cc_error(cc, n->loc,
					 "llquantize(): factor^(high+1) overflows 64 bits");
				return -1;
			}
			pw *= q[0];
		}
		memcpy(a->p, q, sizeof(q));
		lb = llq_bounds(a, &nb);
		free(lb);
		if (nb >= 4000) {
			cc_error(cc, n->loc, "llquantize() would have too many buckets");
			return -1;
		}
		a->nbuckets = nb;
	}
	if (fn == &fn_lquantize || fn == &fn_llquantize) {
		if (used && memcmp(prev, q, sizeof(q))) {
			cc_error(cc, n->loc,
				 "%s is used with different %s() parameters here than at line %d",
				 a->name, fn->name, a->loc.line);
			return -1;
		}
		memcpy(a->p, q, sizeof(q));
		a->val_size = 8 * a->nbuckets;
	}
	if ((fn == &fn_count) != !p) {
		cc_error(cc, n->loc,
			 fn == &fn_count ? "count() takes no argument"
					 : "%s() needs a value to aggregate",
			 fn->name);
		return -1;
	}
	n->t = &t_void;
	return 0;
}

void agg_emit_assign(struct cg *cg, struct node *n)
{
	struct agg *a = n->l->agg;
	struct node *call = n->r;
	int skip = ir_label(cg->ir), vkey, vval, varg = NO_REG, size;

	if (a->nkeys) {
		vkey = cg_key(cg, n->l->args, a->nkeys, a->kt, 0, &size);
	} else {
		vkey = ir_vreg(cg->ir);
		ir_mov(cg->ir, vkey, BPF_REG_10);
		ir_alui(cg->ir, BPF_ADD, vkey, FP_ZERO_KEY);
	}
	if (call->args)
		varg = cg_expr(cg, call->args);
	vval = cg_map_slot(cg, a->map, vkey, DROP_AGG, skip);
	a->fn->emit(cg, a, vval, varg);
	ir_bind(cg->ir, skip);
}

/* Keyless aggregations use a one-slot PERCPU_ARRAY: no hashing, no
 * bucket lock. Keyed ones use PERCPU_HASH with room for aggsize keys. */
int aggs_layout(struct lcc *cc)
{
	int zero = 0;

	for (struct agg *a = cc->aggs; a; a = a->next) {
		char name[24];

		a->key_size = 0;
		for (int k = 0; k < a->nkeys; k++) {
			a->koff[k] = a->key_size;
			a->key_size += type_slot_size(a->kt[k]);
		}
		snprintf(name, sizeof(name), "agg_%s", a->name[1] ? a->name + 1 : "_");
		a->map = a->nkeys ? map_add(cc, name, BPF_MAP_TYPE_PERCPU_HASH, a->key_size,
					    a->val_size, cc->o->aggsize, "aggsize")
				  : map_add(cc, name, BPF_MAP_TYPE_PERCPU_ARRAY, 4, a->val_size, 1,
					    NULL);
		if (a->val_size > zero)
			zero = a->val_size;
	}
	return zero;
}

const struct func funcs_aggs[] = {
	{ .name = "count", .min = 0, .max = 0, .agg = &fn_count, .check = check_agg },
	{ .name = "sum", .min = 1, .max = 1, .agg = &fn_sum, .check = check_agg },
	{ .name = "avg", .min = 1, .max = 1, .agg = &fn_avg, .check = check_agg },
	{ .name = "min", .min = 1, .max = 1, .agg = &fn_min, .check = check_agg },
	{ .name = "max", .min = 1, .max = 1, .agg = &fn_max, .check = check_agg },
	{ .name = "stddev", .min = 1, .max = 1, .agg = &fn_stddev, .check = check_agg },
	{ .name = "quantize", .min = 1, .max = 1, .agg = &fn_quantize, .check = check_agg },
	{ .name = "lquantize", .min = 3, .max = 4, .agg = &fn_lquantize, .check = check_agg },
	{ .name = "llquantize", .min = 5, .max = 5, .agg = &fn_llquantize, .check = check_agg },
	{ .name = NULL },
};
