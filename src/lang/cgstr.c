// SPDX-License-Identifier: GPL-2.0
/*
 * Strings in generated code. Invariant: every string value is a pointer to
 * a buffer of its type's capacity that is zero padded after the NUL. That
 * makes equality a word compare, lets strings serve as hash keys as they
 * are, and lets copies be unrolled loads and stores without helper calls.
 * Producers (copyinstr, execname, strjoin...) keep the invariant by
 * zeroing their destination before writing.
 */
#include "lang/builtins.h"
#include "lang/cg.h"

int cg_str_dest(struct cg *cg, int natural_cap, int *cap)
{
	int d;

	if (cg->sdst != NO_REG) {
		d = cg->sdst;
		*cap = cg->scap;
		cg->sdst = NO_REG;
		return d;
	}
	*cap = natural_cap;
	return cg_scratch_ptr(cg, cg_scratch(cg, natural_cap));
}

static int is_producer(const struct node *n)
{
	return (n->k == N_CALL && n->fn && n->fn->strdst) ||
	       (n->k == N_IDENT && n->bi && n->bi->strdst);
}

void cg_str_copy(struct cg *cg, int vdst, int cap, int vsrc, const struct type *st)
{
	int n = cap < st->size ? cap : st->size, i, t = ir_vreg(cg->ir);
	int end = (cap + 7) & ~7;

	for (i = 0; i + 8 <= n; i += 8) {
		ir_ldx(cg->ir, BPF_DW, t, vsrc, i);
		ir_stx(cg->ir, BPF_DW, vdst, i, t);
	}
	for (; i < n; i++) {
		ir_ldx(cg->ir, BPF_B, t, vsrc, i);
		ir_stx(cg->ir, BPF_B, vdst, i, t);
	}
	for (; i < end && i % 8; i++)
		ir_st(cg->ir, BPF_B, vdst, i, 0);
	for (; i < end; i += 8)
		ir_st(cg->ir, BPF_DW, vdst, i, 0);
	if (st->size > cap)
		ir_st(cg->ir, BPF_B, vdst, cap - 1, 0);
}

void cg_str_into(struct cg *cg, struct node *n, int vdst, int cap)
{
	int v;

	if (is_producer(n)) {
		int save = cg->sdst, savecap = cg->scap;

		cg->sdst = vdst;
		cg->scap = cap;
		v = cg_expr(cg, n);
		if (cg->sdst == NO_REG) { /* the producer took it */
			cg->sdst = save;
			cg->scap = savecap;
			return;
		}
		cg->sdst = save;
		cg->scap = savecap;
	} else {
		v = cg_expr(cg, n);
	}
	cg_str_copy(cg, vdst, cap, v, n->t);
}

/* for (i = 0; i < cap; i++) { x = a[i]; y = b[i]; if (x != y) return x - y;
 *                             if (!x) break; } return 0;
 * A bounded loop: the verifier walks it with i known in each iteration. */
int cg_str_cmp(struct cg *cg, int va, int vb, int cap)
{
	struct ir *ir = cg->ir;
	int i = ir_vreg(ir), x = ir_vreg(ir), y = ir_vreg(ir), p = ir_vreg(ir);
	int r = ir_vreg(ir), a = ir_vreg(ir), b = ir_vreg(ir);
	int loop = ir_label(ir), eq = ir_label(ir), diff = ir_label(ir), done = ir_label(ir);

	ir_mov(ir, a, va);
	ir_mov(ir, b, vb);
	ir_movi(ir, i, 0);
	ir_movi(ir, x, 0);
	ir_movi(ir, y, 0);
	ir_bind(ir, loop);
	ir_jmpi(ir, BPF_JGE, i, cap, eq);
	ir_mov(ir, p, a);
	ir_alu(ir, BPF_ADD, p, i);
	ir_ldx(ir, BPF_B, x, p, 0);
	ir_mov(ir, p, b);
	ir_alu(ir, BPF_ADD, p, i);
	ir_ldx(ir, BPF_B, y, p, 0);
	ir_jmp(ir, BPF_JNE, x, y, diff);
	ir_jmpi(ir, BPF_JEQ, x, 0, eq);
	ir_alui(ir, BPF_ADD, i, 1);
	ir_ja(ir, loop);
	ir_bind(ir, diff);
	ir_mov(ir, r, x);
	ir_alu(ir, BPF_SUB, r, y);
	ir_ja(ir, done);
	ir_bind(ir, eq);
	ir_movi(ir, r, 0);
	ir_bind(ir, done);
	return r;
}

int cg_str_len(struct cg *cg, int vs, int cap)
{
	struct ir *ir = cg->ir;
	int i = ir_vreg(ir), x = ir_vreg(ir), p = ir_vreg(ir), s = ir_vreg(ir);
	int loop = ir_label(ir), done = ir_label(ir);

	ir_mov(ir, s, vs);
	ir_movi(ir, i, 0);
	ir_bind(ir, loop);
	ir_jmpi(ir, BPF_JGE, i, cap, done);
	ir_mov(ir, p, s);
	ir_alu(ir, BPF_ADD, p, i);
	ir_ldx(ir, BPF_B, x, p, 0);
	ir_jmpi(ir, BPF_JEQ, x, 0, done);
	ir_alui(ir, BPF_ADD, i, 1);
	ir_ja(ir, loop);
	ir_bind(ir, done);
	return i;
}
