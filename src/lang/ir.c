// SPDX-License-Identifier: GPL-2.0
/* IR construction: small emitters that append virtual-register BPF. */
#include <stdlib.h>
#include <string.h>

#include "lang/ir.h"

static struct vinsn *ir_add(struct ir *ir, enum vkind k)
{
	struct vinsn *v;

	if (ir->n == ir->cap) {
		ir->cap = ir->cap ? 2 * ir->cap : 256;
		ir->v = realloc(ir->v, ir->cap * sizeof(*ir->v));
		if (!ir->v)
			abort();
	}
	v = &ir->v[ir->n++];
	memset(v, 0, sizeof(*v));
	v->k = k;
	v->dst = v->src = NO_REG;
	v->label = -1;
	v->loc = ir->loc;
	v->note = ir->note;
	ir->note = NULL;
	return v;
}

int ir_vreg(struct ir *ir)
{
	return VREG_BASE + ir->nvregs++;
}

int ir_label(struct ir *ir)
{
	return ir->nlabels++;
}

void ir_bind(struct ir *ir, int label)
{
	ir_add(ir, VK_LABEL)->label = label;
}

void ir_free(struct ir *ir)
{
	free(ir->v);
	memset(ir, 0, sizeof(*ir));
}

void ir_alu(struct ir *ir, int op, int dst, int src)
{
	struct vinsn *v = ir_add(ir, VK_INSN);

	v->i.code = BPF_ALU64 | op | BPF_X;
	v->dst = dst;
	v->src = src;
}

void ir_alui(struct ir *ir, int op, int dst, int32_t imm)
{
	struct vinsn *v = ir_add(ir, VK_INSN);

	v->i.code = BPF_ALU64 | op | BPF_K;
	v->dst = dst;
	v->i.imm = imm;
}

void ir_mov(struct ir *ir, int dst, int src)
{
	if (dst != src)
		ir_alu(ir, BPF_MOV, dst, src);
}

void ir_movi(struct ir *ir, int dst, int64_t imm)
{
	struct vinsn *v;

	if (imm == (int32_t)imm) {
		ir_alui(ir, BPF_MOV, dst, (int32_t)imm);
		return;
	}
	v = ir_add(ir, VK_LD64);
	v->dst = dst;
	v->imm64 = imm;
}

void ir_ldx(struct ir *ir, int size, int dst, int src, int16_t off)
{
	struct vinsn *v = ir_add(ir, VK_INSN);

	v->i.code = BPF_LDX | BPF_MEM | size;
	v->dst = dst;
	v->src = src;
	v->i.off = off;
}

/* BPF_MEMSX (sign-extending load) is in the v4 ISA (Linux 6.6+). */
void ir_ldxs(struct ir *ir, int size, int dst, int src, int16_t off)
{
	struct vinsn *v = ir_add(ir, VK_INSN);

	v->i.code = BPF_LDX | (size == BPF_DW ? BPF_MEM : 0x80 /* BPF_MEMSX */) | size;
	v->dst = dst;
	v->src = src;
	v->i.off = off;
}

void ir_stx(struct ir *ir, int size, int dst, int16_t off, int src)
{
	struct vinsn *v = ir_add(ir, VK_INSN);

	v->i.code = BPF_STX | BPF_MEM | size;
	v->dst = dst;
	v->src = src;
	v->i.off = off;
}

void ir_st(struct ir *ir, int size, int dst, int16_t off, int32_t imm)
{
	struct vinsn *v = ir_add(ir, VK_INSN);

	v->i.code = BPF_ST | BPF_MEM | size;
	v->dst = dst;
	v->i.off = off;
	v->i.imm = imm;
}

void ir_xadd(struct ir *ir, int size, int dst, int16_t off, int src)
{
	struct vinsn *v = ir_add(ir, VK_INSN);

	v->i.code = BPF_STX | BPF_ATOMIC | size;
	v->i.imm = BPF_ADD;
	v->dst = dst;
	v->src = src;
	v->i.off = off;
}

static void ir_atomic_fetch(struct ir *ir, int op, int dst, int16_t off, int src)
{
	struct vinsn *v = ir_add(ir, VK_INSN);

	v->i.code = BPF_STX | BPF_ATOMIC | BPF_DW;
	v->i.imm = op;
	v->dst = dst;
	v->src = src;
	v->i.off = off;
}

void ir_xchg(struct ir *ir, int dst, int16_t off, int src)
{
	ir_atomic_fetch(ir, BPF_XCHG, dst, off, src);
}

void ir_fetch_add(struct ir *ir, int dst, int16_t off, int src)
{
	ir_atomic_fetch(ir, BPF_ADD | BPF_FETCH, dst, off, src);
}

void ir_jmp(struct ir *ir, int op, int a, int b, int label)
{
	struct vinsn *v = ir_add(ir, VK_JMP);

	v->i.code = BPF_JMP | op | BPF_X;
	v->dst = a;
	v->src = b;
	v->label = label;
}

void ir_jmpi(struct ir *ir, int op, int a, int32_t imm, int label)
{
	struct vinsn *v = ir_add(ir, VK_JMP);

	v->i.code = BPF_JMP | op | BPF_K;
	v->dst = a;
	v->i.imm = imm;
	v->label = label;
}

void ir_ja(struct ir *ir, int label)
{
	struct vinsn *v = ir_add(ir, VK_JMP);

	v->i.code = BPF_JMP | BPF_JA;
	v->label = label;
}

void ir_ldmap(struct ir *ir, int dst, int map)
{
	struct vinsn *v = ir_add(ir, VK_LDMAP);

	v->dst = dst;
	v->map = map;
}

void ir_ldmapval(struct ir *ir, int dst, int map, int off)
{
	struct vinsn *v = ir_add(ir, VK_LDMAPVAL);

	v->dst = dst;
	v->map = map;
	v->imm64 = off;
}

void ir_call(struct ir *ir, int helper, int nargs)
{
	struct vinsn *v = ir_add(ir, VK_CALL);

	v->i.code = BPF_JMP | BPF_CALL;
	v->i.imm = helper;
	v->nargs = nargs;
}

void ir_exit(struct ir *ir)
{
	ir_add(ir, VK_INSN)->i.code = BPF_JMP | BPF_EXIT;
}

/* Whether control never falls through v to the next instruction. */
static int ir_ends_path(const struct vinsn *v)
{
	int op = BPF_OP(v->i.code);

	if (BPF_CLASS(v->i.code) != BPF_JMP)
		return 0;
	return (v->k == VK_JMP && op == BPF_JA) || (v->k == VK_INSN && op == BPF_EXIT);
}

/* Marks the instructions reachable from the entry, following
 * fall-through and jumps (label_at: a label's index). */
static void ir_mark_reachable(const struct ir *ir, const int *label_at, char *live)
{
	int *work = malloc((ir->n + 1) * sizeof(*work)), nw = 0;

	if (!work)
		abort();
	work[nw++] = 0;
	while (nw) {
		for (int i = work[--nw]; i < ir->n && !live[i]; i++) {
			const struct vinsn *v = &ir->v[i];

			live[i] = 1;
			if (v->k == VK_JMP)
				work[nw++] = label_at[v->label];
			if (ir_ends_path(v))
				break;
		}
	}
	free(work);
}

void ir_prune_unreachable(struct ir *ir)
{
	int *label_at = calloc(ir->nlabels + 1, sizeof(*label_at)), k = 0;
	char *live = calloc(ir->n + 1, 1);

	if (!label_at || !live)
		abort();
	for (int i = 0; i < ir->n; i++)
		if (ir->v[i].k == VK_LABEL)
			label_at[ir->v[i].label] = i;
	ir_mark_reachable(ir, label_at, live);
	/* labels stay: they emit nothing and dead jumps no longer name them */
	for (int i = 0; i < ir->n; i++)
		if (live[i] || ir->v[i].k == VK_LABEL)
			ir->v[k++] = ir->v[i];
	ir->n = k;
	free(label_at);
	free(live);
}
