// SPDX-License-Identifier: GPL-2.0
/*
 * Register allocation by linear scan with spilling, then lowering to
 * struct bpf_insn.
 *
 * Liveness is measured in program points: instruction i reads at point 2i
 * and writes at point 2i+1. A value lives from its definition's write
 * point to its last read point, so a register read by an instruction can
 * be reused for that instruction's result. Helper calls write r0-r5 (the
 * clobber), which keeps values that live across a call out of r1-r5.
 * Backward jumps (the bounded loops of the string routines) extend every
 * interval that is live at the loop head to the end of the loop.
 *
 * Register roles after allocation:
 *   r1-r5   allocatable, and helper arguments around calls
 *   r6-r8   allocatable, preserved across calls
 *   r0, r9  never allocated: the two scratch registers used to reload
 *           spilled operands (r0 is also the helper result, which is moved
 *           out right after each call, so the two uses never overlap)
 *   r10     frame pointer; spill slots sit below ir->stack_used
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lang/ir.h"

#define NPHYS 11
#define TMP_DST BPF_REG_0
#define TMP_SRC BPF_REG_9
#define MAX_SLOTS (512 / 8)

struct interval {
	int a, b; /* first and last point, -1 when unused */
	int reg;  /* physical register, or -1 when spilled */
	int slot; /* frame offset when spilled */
};

struct ra {
	struct ir *ir;
	struct interval *iv; /* per vreg */
	uint8_t *busy;	     /* [NPHYS][npoints] */
	int npoints;
	int *labelpos; /* instruction index of each label */
	int nslots;
	int slot_end[MAX_SLOTS]; /* last point of the value each slot holds */
};

static void note_use(struct ra *ra, int r, int pt)
{
	struct interval *iv;

	if (!IS_VREG(r))
		return;
	iv = &ra->iv[r - VREG_BASE];
	if (iv->a < 0 || pt < iv->a)
		iv->a = pt;
	if (pt > iv->b)
		iv->b = pt;
}

/* Registers read and written by one instruction. */
static void insn_regs(const struct vinsn *v, int use[6], int *nuse, int *def)
{
	int cls = BPF_CLASS(v->i.code), op = BPF_OP(v->i.code);

	*nuse = 0;
	*def = NO_REG;
	switch (v->k) {
	case VK_LABEL:
		return;
	case VK_LD64:
	case VK_LDMAP:
	case VK_LDMAPVAL:
		*def = v->dst;
		return;
	case VK_CALL:
		for (int k = 1; k <= v->nargs; k++)
			use[(*nuse)++] = k;
		*def = BPF_REG_0;
		return;
	case VK_JMP:
		if (op == BPF_JA)
			return;
		use[(*nuse)++] = v->dst;
		if (BPF_SRC(v->i.code) == BPF_X)
			use[(*nuse)++] = v->src;
		return;
	case VK_INSN:
		break;
	}
	if (cls == BPF_JMP && op == BPF_EXIT) {
		use[(*nuse)++] = BPF_REG_0;
	} else if (cls == BPF_ALU64 || cls == BPF_ALU) {
		if (op != BPF_MOV)
			use[(*nuse)++] = v->dst;
		if (BPF_SRC(v->i.code) == BPF_X && op != BPF_NEG)
			use[(*nuse)++] = v->src;
		*def = v->dst;
	} else if (cls == BPF_LDX) {
		use[(*nuse)++] = v->src;
		*def = v->dst;
	} else if (cls == BPF_STX) {
		use[(*nuse)++] = v->dst;
		use[(*nuse)++] = v->src;
		if (BPF_MODE(v->i.code) == BPF_ATOMIC && (v->i.imm & BPF_FETCH))
			*def = v->src; /* xchg, fetch-add: the old value */
	} else if (cls == BPF_ST) {
		use[(*nuse)++] = v->dst;
	}
}

static uint8_t *busy_at(struct ra *ra, int reg)
{
	return ra->busy + (size_t)reg * ra->npoints;
}

static void mark(struct ra *ra, int reg, int a, int b)
{
	if (a < 0)
		return;
	memset(busy_at(ra, reg) + a, 1, b - a + 1);
}

static int is_free(struct ra *ra, int reg, int a, int b)
{
	const uint8_t *bz = busy_at(ra, reg);

	for (int p = a; p <= b; p++)
		if (bz[p])
			return 0;
	return 1;
}

/* Physical registers r0-r5 are occupied from each write to its last read
 * (a read with no write before it, like r1 = ctx on entry, opens at point
 * 0); a call writes r0-r5, ending the argument intervals. */
static void close_phys(struct ra *ra, int r, int *open, int *last_use)
{
	if (open[r] < 0)
		return;
	mark(ra, r, open[r], last_use[r] > open[r] ? last_use[r] : open[r]);
	open[r] = -1;
}

static void mark_physical(struct ra *ra)
{
	int open[6], last_use[6];
	struct ir *ir = ra->ir;

	for (int r = 0; r < 6; r++)
		open[r] = last_use[r] = -1;
	for (int i = 0; i < ir->n; i++) {
		int use[6], nuse, def;

		insn_regs(&ir->v[i], use, &nuse, &def);
		for (int k = 0; k < nuse; k++) {
			int r = use[k];

			if (IS_VREG(r) || r < 0 || r > 5)
				continue;
			if (open[r] < 0)
				open[r] = 0;
			last_use[r] = 2 * i;
		}
		if (ir->v[i].k == VK_CALL) {
			for (int r = 0; r < 6; r++) {
				close_phys(ra, r, open, last_use);
				mark(ra, r, 2 * i + 1, 2 * i + 1);
			}
		}
		if (def >= 0 && def <= 5 && !IS_VREG(def)) {
			close_phys(ra, def, open, last_use);
			open[def] = 2 * i + 1;
		}
	}
	for (int r = 0; r < 6; r++)
		close_phys(ra, r, open, last_use);
}

/* Values live at a loop head stay live to the backward jump. */
static void extend_loops(struct ra *ra)
{
	struct ir *ir = ra->ir;
	int changed = 1;

	while (changed) {
		changed = 0;
		for (int j = 0; j < ir->n; j++) {
			int t;

			if (ir->v[j].k != VK_JMP)
				continue;
			t = ra->labelpos[ir->v[j].label];
			if (t > j)
				continue;
			for (int k = 0; k < ir->nvregs; k++) {
				struct interval *iv = &ra->iv[k];

				if (iv->a >= 0 && iv->a < 2 * t && iv->b >= 2 * t &&
				    iv->b < 2 * j) {
					iv->b = 2 * j;
					changed = 1;
				}
			}
		}
	}
}

static int crosses_call(struct ra *ra, const struct interval *iv)
{
	for (int p = iv->a | 1; p <= iv->b; p += 2)
		if (ra->ir->v[p / 2].k == VK_CALL && p > iv->a && p < iv->b)
			return 1;
	return 0;
}

static int by_start(const void *x, const void *y, void *arg)
{
	const struct interval *iv = arg;
	int a = *(const int *)x, b = *(const int *)y;

	return iv[a].a - iv[b].a;
}

/* Gives iv a stack slot: one whose value died before iv starts, so the
 * frame holds as many slots as values are spilled at once (not one per
 * spilled value of the whole program, which many clauses sharing one
 * program would exhaust), else a new one. -1 when the frame is full. */
static int spill(struct ra *ra, struct interval *iv)
{
	int s = 0;

	while (s < ra->nslots && ra->slot_end[s] >= iv->a)
		s++;
	if (s == ra->nslots) {
		if (ra->ir->stack_used + 8 * (s + 1) > 512)
			return -1;
		ra->nslots++;
	}
	ra->slot_end[s] = iv->b;
	iv->slot = -(ra->ir->stack_used + 8 * (s + 1));
	return 0;
}

static int assign(struct ra *ra, char *err, size_t errlen)
{
	static const int pref_short[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const int pref_call[] = { 6, 7, 8 };
	int n = ra->ir->nvregs, *order = malloc(n * sizeof(int) + 1);

	for (int k = 0; k < n; k++)
		order[k] = k;
	qsort_r(order, n, sizeof(int), by_start, ra->iv);
	for (int k = 0; k < n; k++) {
		struct interval *iv = &ra->iv[order[k]];
		const int *pref = pref_short;
		int np = 8;

		if (iv->a < 0)
			continue;
		if (crosses_call(ra, iv)) {
			pref = pref_call;
			np = 3;
		}
		for (int j = 0; j < np; j++)
			if (is_free(ra, pref[j], iv->a, iv->b)) {
				iv->reg = pref[j];
				mark(ra, pref[j], iv->a, iv->b);
				break;
			}
		if (iv->reg >= 0)
			continue;
		if (spill(ra, iv)) {
			snprintf(err, errlen,
				 "expression too complex: more than %d values are live at once and "
				 "the 512-byte BPF stack is full; split it into several statements "
				 "using this-> variables",
				 ra->nslots);
			free(order);
			return -1;
		}
	}
	free(order);
	return 0;
}

struct out {
	struct lowered *l;
	int cap;
};

static struct bpf_insn *out_add(struct out *o, const struct vinsn *v)
{
	struct lowered *l = o->l;

	if (l->n == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 512;
		l->insns = realloc(l->insns, o->cap * sizeof(*l->insns));
		l->locs = realloc(l->locs, o->cap * sizeof(*l->locs));
		l->notes = realloc(l->notes, o->cap * sizeof(*l->notes));
		if (!l->insns || !l->locs || !l->notes)
			abort();
	}
	memset(&l->insns[l->n], 0, sizeof(struct bpf_insn));
	l->locs[l->n] = v->loc;
	l->notes[l->n] = v->note;
	return &l->insns[l->n++];
}

static int phys(struct ra *ra, int r)
{
	return IS_VREG(r) ? ra->iv[r - VREG_BASE].reg : r;
}

static void spill_load(struct out *o, const struct vinsn *v, int reg, int slot)
{
	struct bpf_insn *b = out_add(o, v);

	b->code = BPF_LDX | BPF_MEM | BPF_DW;
	b->dst_reg = reg;
	b->src_reg = BPF_REG_10;
	b->off = slot;
}

static void spill_store(struct out *o, const struct vinsn *v, int reg, int slot)
{
	struct bpf_insn *b = out_add(o, v);

	b->code = BPF_STX | BPF_MEM | BPF_DW;
	b->dst_reg = BPF_REG_10;
	b->src_reg = reg;
	b->off = slot;
}

/* Operand register for the final instruction, reloading a spilled vreg
 * into tmp first when `read`. */
static int operand(struct ra *ra, struct out *o, const struct vinsn *v, int r, int tmp, int read)
{
	if (r == NO_REG)
		return 0;
	if (!IS_VREG(r) || ra->iv[r - VREG_BASE].reg >= 0)
		return phys(ra, r);
	if (read)
		spill_load(o, v, tmp, ra->iv[r - VREG_BASE].slot);
	return tmp;
}

static void lower_one(struct ra *ra, struct out *o, const struct vinsn *v, const int *map_fds,
		      int *jsrc)
{
	int use[6], nuse, def, dst, src, dspill, rdst = 0;
	struct bpf_insn *b;

	insn_regs(v, use, &nuse, &def);
	if (v->k == VK_LABEL)
		return;
	/* mov pK, spilled: load straight into pK; mov spilled, r0: store r0 */
	if (v->k == VK_INSN && BPF_CLASS(v->i.code) == BPF_ALU64 && BPF_OP(v->i.code) == BPF_MOV &&
	    BPF_SRC(v->i.code) == BPF_X) {
		int d = phys(ra, v->dst), s = phys(ra, v->src);

		if (IS_VREG(v->src) && s < 0 && d >= 0) {
			spill_load(o, v, d, ra->iv[v->src - VREG_BASE].slot);
			return;
		}
		if (IS_VREG(v->dst) && d < 0 && s >= 0) {
			spill_store(o, v, s, ra->iv[v->dst - VREG_BASE].slot);
			return;
		}
		if (d >= 0 && d == s)
			return;
	}
	for (int k = 0; k < nuse; k++)
		if (use[k] == v->dst)
			rdst = 1;
	dspill = IS_VREG(v->dst) && phys(ra, v->dst) < 0;
	dst = operand(ra, o, v, v->dst, TMP_DST, rdst);
	src = operand(ra, o, v, v->src, TMP_SRC, 1);
	b = out_add(o, v);
	*b = v->i;
	b->dst_reg = dst;
	b->src_reg = src;
	switch (v->k) {
	case VK_LD64:
	case VK_LDMAP:
	case VK_LDMAPVAL:
		b->code = BPF_LD | BPF_IMM | BPF_DW;
		b->src_reg = v->k == VK_LD64	? 0
			     : v->k == VK_LDMAP ? BPF_PSEUDO_MAP_FD
						: BPF_PSEUDO_MAP_VALUE;
		b->imm = v->k == VK_LD64 ? (int32_t)(uint32_t)v->imm64 : map_fds[v->map];
		b = out_add(o, v);
		b->imm = v->k == VK_LDMAPVAL ? (int32_t)v->imm64 : (int32_t)(v->imm64 >> 32);
		break;
	case VK_CALL:
		b->dst_reg = b->src_reg = 0;
		break;
	case VK_JMP:
		*jsrc = o->l->n - 1;
		break;
	default:
		break;
	}
	if (def == v->dst && dspill)
		spill_store(o, v, dst, ra->iv[v->dst - VREG_BASE].slot);
	else if (def == v->src && IS_VREG(v->src) && phys(ra, v->src) < 0)
		spill_store(o, v, src, ra->iv[v->src - VREG_BASE].slot);
}

int ir_lower(struct ir *ir, const int *map_fds, struct lowered *out, char *err, size_t errlen)
{
	struct ra ra = { .ir = ir };
	struct out o = { .l = out };
	int *insn_at = NULL, *jumps = NULL, ret = -1;

	memset(out, 0, sizeof(*out));
	ir_prune_unreachable(ir);
	ra.npoints = 2 * ir->n + 2;
	ra.iv = calloc(ir->nvregs + 1, sizeof(*ra.iv));
	ra.busy = calloc((size_t)NPHYS * ra.npoints, 1);
	ra.labelpos = calloc(ir->nlabels + 1, sizeof(int));
	insn_at = calloc(ir->nlabels + 1, sizeof(int));
	jumps = malloc((ir->n + 1) * sizeof(int));
	if (!ra.iv || !ra.busy || !ra.labelpos || !insn_at || !jumps)
		abort();
	for (int k = 0; k < ir->nvregs; k++)
		ra.iv[k] = (struct interval){ .a = -1, .b = -1, .reg = -1 };
	for (int i = 0; i < ir->n; i++) {
		int use[6], nuse, def;

		if (ir->v[i].k == VK_LABEL)
			ra.labelpos[ir->v[i].label] = i;
		insn_regs(&ir->v[i], use, &nuse, &def);
		for (int k = 0; k < nuse; k++)
			note_use(&ra, use[k], 2 * i);
		note_use(&ra, def, 2 * i + 1);
	}
	extend_loops(&ra);
	mark_physical(&ra);
	if (assign(&ra, err, errlen))
		goto out;
	for (int i = 0; i < ir->n; i++) {
		jumps[i] = -1;
		if (ir->v[i].k == VK_LABEL)
			insn_at[ir->v[i].label] = out->n;
		lower_one(&ra, &o, &ir->v[i], map_fds, &jumps[i]);
	}
	for (int i = 0; i < ir->n; i++) {
		long off;

		if (jumps[i] < 0)
			continue;
		off = insn_at[ir->v[i].label] - jumps[i] - 1;
		if (off != (int16_t)off) {
			snprintf(err, errlen, "program too large: a jump spans %ld instructions",
				 off);
			goto out;
		}
		out->insns[jumps[i]].off = off;
	}
	out->stack = ir->stack_used + 8 * ra.nslots;
	ret = 0;
out:
	free(ra.iv);
	free(ra.busy);
	free(ra.labelpos);
	free(insn_at);
	free(jumps);
	return ret;
}

void lowered_free(struct lowered *l)
{
	free(l->insns);
	free(l->locs);
	free(l->notes);
	memset(l, 0, sizeof(*l));
}
