// SPDX-License-Identifier: GPL-2.0
/*
 * Code generation: expressions, statements, clauses and the program
 * prologue/epilogue, emitted as IR over virtual registers.
 *
 * Program shape (one per attach point):
 *
 *	*(u64 *)(fp - 8) = 0		// key 0 for array lookups
 *	scr = map_lookup(scratch, fp-8) // per-CPU scratch; NULL never happens
 *	if (scr->busy) { drops[NEST]++; return 0; }
 *	scr->busy = 1
 *	<provider prologue>		// e.g. the syscall number
 *	clause 1: if (!filter || !predicate) goto end1; body; end1:
 *	clause 2: ...
 *	scr->busy = 0
 *	return 0
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lang/agg.h"
#include "lang/builtins.h"
#include "lang/prov.h"

int cg_imm(struct cg *cg, int64_t v)
{
	int r = ir_vreg(cg->ir);

	ir_movi(cg->ir, r, v);
	return r;
}

int cg_call(struct cg *cg, int helper, int nargs, const int *args)
{
	int r;

	for (int k = 0; k < nargs; k++)
		ir_mov(cg->ir, k + 1, args[k]);
	ir_call(cg->ir, helper, nargs);
	r = ir_vreg(cg->ir);
	ir_mov(cg->ir, r, BPF_REG_0);
	return r;
}

int cg_scratch(struct cg *cg, int size)
{
	int off = cg->soff;

	cg->soff += (size + 7) & ~7;
	if (cg->soff > cg->cc->scratch_size)
		cg->cc->scratch_size = cg->soff;
	return off;
}

int cg_scratch_ptr(struct cg *cg, int off)
{
	int r = ir_vreg(cg->ir);

	ir_mov(cg->ir, r, cg->vscr);
	if (off)
		ir_alui(cg->ir, BPF_ADD, r, off);
	return r;
}

/* Pointer to the constant zero key on the stack. */
static int zero_key(struct cg *cg)
{
	int r = ir_vreg(cg->ir);

	ir_mov(cg->ir, r, BPF_REG_10);
	ir_alui(cg->ir, BPF_ADD, r, FP_ZERO_KEY);
	return r;
}

static int map_ptr(struct cg *cg, int map)
{
	int r = ir_vreg(cg->ir);

	ir_ldmap(cg->ir, r, map);
	return r;
}

void cg_drop(struct cg *cg, enum drop_kind k)
{
	int args[2] = { map_ptr(cg, cg->cc->m_stats), zero_key(cg) };
	int v = cg_call(cg, BPF_FUNC_map_lookup_elem, 2, args), t = ir_vreg(cg->ir);
	int skip = ir_label(cg->ir);

	ir_jmpi(cg->ir, BPF_JEQ, v, 0, skip);
	ir_ldx(cg->ir, BPF_DW, t, v, 8 * k);
	ir_alui(cg->ir, BPF_ADD, t, 1);
	ir_stx(cg->ir, BPF_DW, v, 8 * k, t);
	ir_bind(cg->ir, skip);
}

void cg_zero(struct cg *cg, int vptr, int off, int size)
{
	for (int i = 0; i < size; i += 8)
		ir_st(cg->ir, BPF_DW, vptr, off + i, 0);
}

static int bpf_size(int width)
{
	switch (width) {
	case 1:
		return BPF_B;
	case 2:
		return BPF_H;
	case 4:
		return BPF_W;
	default:
		return BPF_DW;
	}
}

void cg_store_scalar(struct cg *cg, int vptr, int off, int v, int width)
{
	ir_stx(cg->ir, bpf_size(width), vptr, off, v);
}

int cg_load_scalar(struct cg *cg, int vptr, int off, struct type *t)
{
	int r = ir_vreg(cg->ir);
	int w = t->k == TY_INT ? t->size : 8;

	if (t->k == TY_INT && t->sign && w < 8)
		ir_ldxs(cg->ir, bpf_size(w), r, vptr, off);
	else
		ir_ldx(cg->ir, bpf_size(w), r, vptr, off);
	return r;
}

/* bpf_probe_read_{kernel,user}(scratch, size, addr), then a checked load:
 * the only safe way to dereference an arbitrary address. On a fault the
 * helper zeroes the buffer, so the value reads as 0. */
int cg_read_scalar(struct cg *cg, int vaddr, struct type *t, int user)
{
	int off = cg_scratch(cg, 8);
	int w = t->k == TY_INT ? t->size : 8;
	int args[3] = { cg_scratch_ptr(cg, off), cg_imm(cg, w), vaddr };

	cg_call(cg, user ? BPF_FUNC_probe_read_user : BPF_FUNC_probe_read_kernel, 3, args);
	return cg_load_scalar(cg, cg->vscr, off, t);
}

/* Truncates/extends v to integer type t in place. */
static void cg_convert(struct cg *cg, int v, const struct type *t)
{
	int sh;

	if (t->k != TY_INT || t->size >= 8)
		return;
	sh = 64 - 8 * t->size;
	ir_alui(cg->ir, BPF_LSH, v, sh);
	ir_alui(cg->ir, t->sign ? BPF_ARSH : BPF_RSH, v, sh);
}

void cg_store_to(struct cg *cg, struct node *n, int vptr, int off, struct type *slot_t)
{
	if (slot_t->k == TY_STR) {
		int d = ir_vreg(cg->ir);

		ir_mov(cg->ir, d, vptr);
		if (off)
			ir_alui(cg->ir, BPF_ADD, d, off);
		cg_str_into(cg, n, d, slot_t->size);
		return;
	}
	if (slot_t->k == TY_STACK || slot_t->k == TY_USTACK) {
		int d = ir_vreg(cg->ir);

		ir_mov(cg->ir, d, vptr);
		if (off)
			ir_alui(cg->ir, BPF_ADD, d, off);
		cg->pv[3] = d; /* destination for stack()/ustack() */
		cg_expr(cg, n);
		cg->pv[3] = NO_REG;
		return;
	}
	cg_store_scalar(cg, vptr, off, cg_expr(cg, n), 8);
}

int cg_key(struct cg *cg, struct node *args, int nkeys, struct type **kt, int *size)
{
	int koff[MAX_KEYS], total = 0, off, vk, k = 0;

	for (int i = 0; i < nkeys; i++) {
		koff[i] = total;
		total += type_slot_size(kt[i]);
	}
	off = cg_scratch(cg, total);
	vk = cg_scratch_ptr(cg, off);
	for (struct node *a = args; a; a = a->next, k++)
		cg_store_to(cg, a, vk, koff[k], kt[k]);
	*size = total;
	return vk;
}

int cg_map_slot(struct cg *cg, int map, int vkey, enum drop_kind dk, int lbl_fail)
{
	int args[4], v, ok = ir_label(cg->ir), vk = ir_vreg(cg->ir);

	ir_mov(cg->ir, vk, vkey);
	args[0] = map_ptr(cg, map);
	args[1] = vk;
	v = cg_call(cg, BPF_FUNC_map_lookup_elem, 2, args);
	ir_jmpi(cg->ir, BPF_JNE, v, 0, ok);
	/* absent: insert zeros (BPF_NOEXIST: another CPU may have won) */
	args[0] = map_ptr(cg, map);
	args[1] = vk;
	args[2] = ir_vreg(cg->ir);
	ir_ldmapval(cg->ir, args[2], cg->cc->m_zero, 0);
	args[3] = cg_imm(cg, BPF_NOEXIST);
	cg_call(cg, BPF_FUNC_map_update_elem, 4, args);
	args[0] = map_ptr(cg, map);
	args[1] = vk;
	ir_mov(cg->ir, v, cg_call(cg, BPF_FUNC_map_lookup_elem, 2, args));
	ir_jmpi(cg->ir, BPF_JNE, v, 0, ok);
	cg_drop(cg, dk);
	ir_ja(cg->ir, lbl_fail);
	ir_bind(cg->ir, ok);
	return v;
}

int cg_rec_begin(struct cg *cg, struct action *a, int *off)
{
	int vr;

	*off = cg_scratch(cg, a->size);
	vr = cg_scratch_ptr(cg, *off);
	ir_st(cg->ir, BPF_W, vr, 0, a->id);
	if (cg->vspec != NO_REG)
		ir_stx(cg->ir, BPF_W, vr, 4, cg->vspec);
	else
		ir_st(cg->ir, BPF_W, vr, 4, 0);
	return vr;
}

/* ring = ring[cpu] by a binary decision tree over the CPU number. */
static void ring_tree(struct cg *cg, int cpu, int ring, int lo, int hi, int done)
{
	int mid, right;

	if (lo == hi) {
		ir_ldmap(cg->ir, ring, cg->cc->m_ring0 + lo);
		ir_ja(cg->ir, done);
		return;
	}
	mid = (lo + hi + 1) / 2;
	right = ir_label(cg->ir);
	ir_jmpi(cg->ir, BPF_JGE, cpu, mid, right);
	ring_tree(cg, cpu, ring, lo, mid - 1, done);
	ir_bind(cg->ir, right);
	ring_tree(cg, cpu, ring, mid, hi, done);
}

/* Output goes to this CPU's ring, so producers never contend across
 * CPUs: a RINGBUF map per CPU chosen by CPU number, or with many CPUs an
 * ARRAY_OF_MAPS of RINGBUFs indexed by CPU. */
void cg_rec_submit(struct cg *cg, int vrec, int size)
{
	int args[4], ring = ir_vreg(cg->ir), ret, done = ir_label(cg->ir);
	int fail = ir_label(cg->ir), picked = ir_label(cg->ir);
	int cpu = cg_call(cg, BPF_FUNC_get_smp_processor_id, 0, NULL);

	if (cg->cc->m_ring0 >= 0) {
		ring_tree(cg, cpu, ring, 0, cg->cc->ncpus - 1, picked);
	} else {
		int koff = cg_scratch(cg, 8);

		cg_store_scalar(cg, cg->vscr, koff, cpu, 4);
		args[0] = map_ptr(cg, cg->cc->m_rings);
		args[1] = cg_scratch_ptr(cg, koff);
		ir_mov(cg->ir, ring, cg_call(cg, BPF_FUNC_map_lookup_elem, 2, args));
		ir_jmpi(cg->ir, BPF_JEQ, ring, 0, fail);
	}
	ir_bind(cg->ir, picked);
	args[0] = ring;
	args[1] = vrec;
	args[2] = cg_imm(cg, size);
	args[3] = cg_imm(cg, 0);
	ret = cg_call(cg, BPF_FUNC_ringbuf_output, 4, args);
	ir_jmpi(cg->ir, BPF_JEQ, ret, 0, done);
	ir_bind(cg->ir, fail);
	cg_drop(cg, DROP_RING);
	ir_bind(cg->ir, done);
}

static int alu_op(int tok, int sign, int *off)
{
	*off = 0;
	switch (tok) {
	case T_PLUS:
	case T_ADDEQ:
	case T_INC:
		return BPF_ADD;
	case T_MINUS:
	case T_SUBEQ:
	case T_DEC:
		return BPF_SUB;
	case T_STAR:
	case T_MULEQ:
		return BPF_MUL;
	case T_SLASH:
	case T_DIVEQ:
		*off = sign;
		return BPF_DIV; /* off 1: sdiv (v4 ISA) */
	case T_PERCENT:
	case T_MODEQ:
		*off = sign;
		return BPF_MOD;
	case T_AMP:
	case T_ANDEQ:
		return BPF_AND;
	case T_PIPE:
	case T_OREQ:
		return BPF_OR;
	case T_CARET:
	case T_XOREQ:
		return BPF_XOR;
	case T_SHL:
	case T_SHLEQ:
		return BPF_LSH;
	case T_SHR:
	case T_SHREQ:
		return sign ? BPF_ARSH : BPF_RSH;
	default:
		return -1;
	}
}

/* dst op= src, with division by zero yielding 0 instead of the BPF
 * semantics (x/0 = 0, x%0 = x) differing from each other. */
static void cg_arith(struct cg *cg, int tok, int dst, int src, const struct type *t)
{
	int off, op = alu_op(tok, t->sign, &off);

	if (op == BPF_DIV || op == BPF_MOD) {
		int nz = ir_label(cg->ir), done = ir_label(cg->ir);

		ir_jmpi(cg->ir, BPF_JNE, src, 0, nz);
		ir_movi(cg->ir, dst, 0);
		ir_ja(cg->ir, done);
		ir_bind(cg->ir, nz);
		ir_alu(cg->ir, op, dst, src);
		cg->ir->v[cg->ir->n - 1].i.off = off;
		ir_bind(cg->ir, done);
		return;
	}
	ir_alu(cg->ir, op, dst, src);
	if (t->k == TY_INT)
		cg_convert(cg, dst, t);
}

static int jmp_for(int tok, int sign)
{
	switch (tok) {
	case T_EQ:
		return BPF_JEQ;
	case T_NE:
		return BPF_JNE;
	case T_LT:
		return sign ? BPF_JSLT : BPF_JLT;
	case T_GT:
		return sign ? BPF_JSGT : BPF_JGT;
	case T_LE:
		return sign ? BPF_JSLE : BPF_JLE;
	case T_GE:
		return sign ? BPF_JSGE : BPF_JGE;
	default:
		return -1;
	}
}

static int neg_jmp(int tok)
{
	switch (tok) {
	case T_EQ:
		return T_NE;
	case T_NE:
		return T_EQ;
	case T_LT:
		return T_GE;
	case T_GE:
		return T_LT;
	case T_GT:
		return T_LE;
	default:
		return T_GT;
	}
}

static int is_cmp(int op)
{
	return op == T_EQ || op == T_NE || op == T_LT || op == T_GT || op == T_LE || op == T_GE;
}

/* Jumps to lbl when (a op b) is false. */
static void cg_cmp_false(struct cg *cg, struct node *n, int lbl)
{
	struct type *l = n->l->t, *r = n->r->t;
	int a, b, sign;

	if (l->k == TY_STR) {
		a = cg_expr(cg, n->l);
		b = cg_expr(cg, n->r);
		if (n->op == T_EQ || n->op == T_NE) {
			int cap = l->size < r->size ? l->size : r->size;
			int diff = ir_label(cg->ir), same = ir_label(cg->ir);
			int x = ir_vreg(cg->ir), y = ir_vreg(cg->ir);

			/* strings are zero padded: compare words */
			for (int i = 0; i < cap; i += 8) {
				int w = cap - i >= 8 ? 8 : cap - i >= 4 ? 4 : cap - i >= 2 ? 2 : 1;

				ir_ldx(cg->ir, bpf_size(w), x, a, i);
				ir_ldx(cg->ir, bpf_size(w), y, b, i);
				ir_jmp(cg->ir, BPF_JNE, x, y, diff);
				if (w < 8)
					break;
			}
			ir_ja(cg->ir, same);
			ir_bind(cg->ir, diff);
			if (n->op == T_EQ)
				ir_ja(cg->ir, lbl);
			else {
				int t = ir_label(cg->ir);

				ir_ja(cg->ir, t);
				ir_bind(cg->ir, same);
				ir_ja(cg->ir, lbl);
				ir_bind(cg->ir, t);
				return;
			}
			ir_bind(cg->ir, same);
			return;
		}
		a = cg_str_cmp(cg, a, b, l->size < r->size ? l->size : r->size);
		ir_jmpi(cg->ir, jmp_for(neg_jmp(n->op), 1), a, 0, lbl);
		return;
	}
	sign = (l->k == TY_INT && l->sign) && (r->k == TY_INT && r->sign);
	if (l->k == TY_INT && r->k == TY_INT)
		sign = type_arith(l, r)->sign;
	a = cg_expr(cg, n->l);
	if (n->r->is_const && n->r->cval == (int32_t)n->r->cval) {
		ir_jmpi(cg->ir, jmp_for(neg_jmp(n->op), sign), a, (int32_t)n->r->cval, lbl);
		return;
	}
	b = cg_expr(cg, n->r);
	ir_jmp(cg->ir, jmp_for(neg_jmp(n->op), sign), a, b, lbl);
}

void cg_cond(struct cg *cg, struct node *n, int lbl_false)
{
	struct loc save = cg->ir->loc;

	cg->ir->loc = n->loc;
	if (n->is_const) {
		if (!n->cval)
			ir_ja(cg->ir, lbl_false);
	} else if (n->k == N_BIN && is_cmp(n->op)) {
		cg_cmp_false(cg, n, lbl_false);
	} else if (n->k == N_BIN && n->op == T_LAND) {
		cg_cond(cg, n->l, lbl_false);
		cg_cond(cg, n->r, lbl_false);
	} else if (n->k == N_BIN && n->op == T_LOR) {
		int yes = ir_label(cg->ir), no = ir_label(cg->ir);

		cg_cond(cg, n->l, no);
		ir_ja(cg->ir, yes);
		ir_bind(cg->ir, no);
		cg_cond(cg, n->r, lbl_false);
		ir_bind(cg->ir, yes);
	} else if (n->k == N_UN && n->op == T_NOT) {
		int skip = ir_label(cg->ir);

		cg_cond(cg, n->l, skip);
		ir_ja(cg->ir, lbl_false);
		ir_bind(cg->ir, skip);
	} else {
		ir_jmpi(cg->ir, BPF_JEQ, cg_expr(cg, n), 0, lbl_false);
	}
	cg->ir->loc = save;
}

/* 0/1 value of a condition. */
static int cg_bool(struct cg *cg, struct node *n)
{
	int r = ir_vreg(cg->ir), f = ir_label(cg->ir);

	ir_movi(cg->ir, r, 0);
	cg_cond(cg, n, f);
	ir_movi(cg->ir, r, 1);
	ir_bind(cg->ir, f);
	return r;
}

static int cg_bin(struct cg *cg, struct node *n)
{
	int a, b;

	if (is_cmp(n->op) || n->op == T_LAND || n->op == T_LOR)
		return cg_bool(cg, n);
	if (n->op == T_LXOR) {
		a = cg_bool(cg, n->l);
		b = cg_bool(cg, n->r);
		ir_alu(cg->ir, BPF_XOR, a, b);
		return a;
	}
	a = ir_vreg(cg->ir);
	ir_mov(cg->ir, a, cg_expr(cg, n->l));
	b = cg_expr(cg, n->r);
	if (n->t->k == TY_PTR && n->l->t->k == TY_PTR && n->r->t->k == TY_INT && n->t->ref &&
	    n->t->ref->size > 1) {
		int s = ir_vreg(cg->ir);

		ir_mov(cg->ir, s, b);
		ir_alui(cg->ir, BPF_MUL, s, n->t->ref->size); /* C pointer arithmetic */
		b = s;
	}
	cg_arith(cg, n->op, a, b, n->t);
	return a;
}

/* Address of a member place: for a->b the pointer plus the offset; for
 * a.b (a itself a struct place) the address of a plus the offset. */
static int cg_addr(struct cg *cg, struct node *n)
{
	int base, r = ir_vreg(cg->ir);

	if (n->k == N_MEMBER) {
		base = n->op == T_ARROW ? cg_expr(cg, n->l) : cg_addr(cg, n->l);
		ir_mov(cg->ir, r, base);
		if (n->aux)
			ir_alui(cg->ir, BPF_ADD, r, n->aux);
		return r;
	}
	if (n->k == N_UN && n->op == T_STAR)
		return cg_expr(cg, n->l);
	return cg_expr(cg, n);
}

/* Value at an address of type t: scalars read safely, char arrays copied
 * as strings, structs stay addresses. */
static int cg_place_value(struct cg *cg, int vaddr, struct type *t, int user)
{
	if (t->k == TY_STRUCT || t->k == TY_ARRAY)
		return vaddr;
	if (t->k == TY_STR) {
		int off = cg_scratch(cg, t->size), d = cg_scratch_ptr(cg, off);
		int args[3];

		cg_zero(cg, cg->vscr, off, (t->size + 7) & ~7);
		args[0] = d;
		args[1] = cg_imm(cg, t->size);
		args[2] = vaddr;
		cg_call(cg, user ? BPF_FUNC_probe_read_user_str : BPF_FUNC_probe_read_kernel_str, 3,
			args);
		return d;
	}
	return cg_read_scalar(cg, vaddr, t, user);
}

static int cg_assign(struct cg *cg, struct node *n)
{
	struct node *l = n->l;
	int v;

	if (l->k == N_AGG)
		return agg_emit_assign(cg, n), NO_REG;
	if (n->op == T_ASSIGN) {
		if (l->t->k == TY_STR) {
			cg_var_write(cg, l, NO_REG, n->r);
			return NO_REG;
		}
		v = ir_vreg(cg->ir);
		ir_mov(cg->ir, v, cg_expr(cg, n->r));
		cg_var_write(cg, l, v, NULL);
		return v;
	}
	v = ir_vreg(cg->ir);
	ir_mov(cg->ir, v, cg_var_read(cg, l));
	cg_arith(cg, n->op, v, cg_expr(cg, n->r), l->t);
	cg_var_write(cg, l, v, NULL);
	return v;
}

static int cg_incdec(struct cg *cg, struct node *n)
{
	int v = ir_vreg(cg->ir), old = ir_vreg(cg->ir);
	int step = n->l->t->k == TY_PTR && n->l->t->ref ? n->l->t->ref->size : 1;

	ir_mov(cg->ir, v, cg_var_read(cg, n->l));
	ir_mov(cg->ir, old, v);
	ir_alui(cg->ir, n->op == T_INC ? BPF_ADD : BPF_SUB, v, step ? step : 1);
	cg_var_write(cg, n->l, v, NULL);
	return n->aux ? old : v;
}

static int cg_tern(struct cg *cg, struct node *n)
{
	int r = ir_vreg(cg->ir), f = ir_label(cg->ir), done = ir_label(cg->ir);

	if (n->t->k == TY_STR) {
		int off = cg_scratch(cg, n->t->size);

		ir_mov(cg->ir, r, cg_scratch_ptr(cg, off));
		cg_cond(cg, n->l, f);
		cg_str_into(cg, n->r, r, n->t->size);
		ir_ja(cg->ir, done);
		ir_bind(cg->ir, f);
		cg_str_into(cg, n->x, r, n->t->size);
		ir_bind(cg->ir, done);
		return r;
	}
	cg_cond(cg, n->l, f);
	ir_mov(cg->ir, r, cg_expr(cg, n->r));
	ir_ja(cg->ir, done);
	ir_bind(cg->ir, f);
	ir_mov(cg->ir, r, cg_expr(cg, n->x));
	ir_bind(cg->ir, done);
	return r;
}

static int cg_builtin(struct cg *cg, struct node *n)
{
	const char *name = n->bi->name;
	int r = NO_REG;

	if (cg->p->prov->builtin)
		r = cg->p->prov->builtin(cg, name);
	return r != NO_REG ? r : n->bi->emit(cg, n);
}

static int cg_expr_inner(struct cg *cg, struct node *n)
{
	int r;

	if (n->is_const && n->t->k == TY_INT)
		return cg_imm(cg, n->cval);
	switch (n->k) {
	case N_STR:
		r = ir_vreg(cg->ir);
		ir_ldmapval(cg->ir, r, cg->cc->m_rodata, n->strid);
		return r;
	case N_IDENT:
		return n->bi ? cg_builtin(cg, n) : cg_var_read(cg, n);
	case N_SELF:
	case N_THIS:
		return cg_var_read(cg, n);
	case N_INDEX:
		return n->bi ? cg->p->prov->args(cg, (int)n->args->cval) : cg_var_read(cg, n);
	case N_CALL:
		return n->fn->emit(cg, n);
	case N_BIN:
		return cg_bin(cg, n);
	case N_UN:
		if (n->op == T_NOT)
			return cg_bool(cg, n);
		if (n->op == T_STAR)
			return cg_place_value(cg, cg_expr(cg, n->l), n->t, n->l->t->user);
		r = ir_vreg(cg->ir);
		ir_mov(cg->ir, r, cg_expr(cg, n->l));
		if (n->op == T_MINUS)
			ir_alui(cg->ir, BPF_NEG, r, 0);
		else if (n->op == T_TILDE)
			ir_alui(cg->ir, BPF_XOR, r, -1);
		cg_convert(cg, r, n->t);
		return r;
	case N_ASSIGN:
		return cg_assign(cg, n);
	case N_INCDEC:
		return cg_incdec(cg, n);
	case N_TERN:
		return cg_tern(cg, n);
	case N_MEMBER:
		return cg_place_value(cg, cg_addr(cg, n), n->t, n->l->t->user);
	case N_CAST:
		r = ir_vreg(cg->ir);
		ir_mov(cg->ir, r, cg_expr(cg, n->l));
		cg_convert(cg, r, n->t);
		return r;
	case N_STRINGOF:
		if (n->l->t->k == TY_STR)
			return cg_expr(cg, n->l);
		return cg_place_value(cg, cg_expr(cg, n->l), n->t, n->l->t->user);
	default:
		return cg_imm(cg, n->cval);
	}
}

int cg_expr(struct cg *cg, struct node *n)
{
	struct loc save = cg->ir->loc;
	int r;

	cg->ir->loc = n->loc;
	r = cg_expr_inner(cg, n);
	cg->ir->loc = save;
	return r;
}

static void cg_stmt(struct cg *cg, struct node *s)
{
	int f, done;

	cg->ir->loc = s->loc;
	switch (s->k) {
	case N_BLOCK:
		for (struct node *x = s->args; x; x = x->next)
			cg_stmt(cg, x);
		break;
	case N_IF:
		f = ir_label(cg->ir);
		done = ir_label(cg->ir);
		cg_cond(cg, s->l, f);
		cg_stmt(cg, s->r);
		ir_ja(cg->ir, done);
		ir_bind(cg->ir, f);
		if (s->x)
			cg_stmt(cg, s->x);
		ir_bind(cg->ir, done);
		break;
	default:
		cg_expr(cg, s->l);
		break;
	}
}

static void cg_prologue(struct cg *cg)
{
	struct ir *ir = cg->ir;
	int args[2], busy = ir_vreg(ir), ok = ir_label(ir);

	ir->stack_used = 8;
	cg->vctx = ir_vreg(ir);
	ir->note = "ctx";
	ir_mov(ir, cg->vctx, BPF_REG_1);
	ir_st(ir, BPF_DW, BPF_REG_10, FP_ZERO_KEY, 0);
	args[0] = map_ptr(cg, cg->cc->m_scratch);
	args[1] = zero_key(cg);
	ir->note = "per-CPU scratch";
	cg->vscr = cg_call(cg, BPF_FUNC_map_lookup_elem, 2, args);
	ir_jmpi(ir, BPF_JEQ, cg->vscr, 0, cg->lbl_exit);
	ir->note = "reentrancy guard";
	ir_ldx(ir, BPF_DW, busy, cg->vscr, SCR_BUSY);
	ir_jmpi(ir, BPF_JEQ, busy, 0, ok);
	cg_drop(cg, DROP_NEST);
	ir_ja(ir, cg->lbl_exit);
	ir_bind(ir, ok);
	ir_st(ir, BPF_DW, cg->vscr, SCR_BUSY, 1);
	if (cg->p->prov->prologue)
		cg->p->prov->prologue(cg);
}

static int this_size(struct lcc *cc)
{
	int off = SCR_THIS;

	for (struct var *v = cc->vars; v; v = v->next)
		if (v->s == VS_THIS) {
			v->off = off;
			off += type_slot_size(v->t);
		}
	return off;
}

static void cg_clause(struct cg *cg, int pi, struct clause *c, int base)
{
	cg->c = c;
	cg->np = 0;
	for (int i = 0; i < cg->cc->nprobes; i++)
		if (cg->cc->probes[i].c == c && cg->cc->probes[i].prog == pi &&
		    cg->np < (int)(sizeof(cg->probes) / sizeof(cg->probes[0])))
			cg->probes[cg->np++] = &cg->cc->probes[i];
	if (!cg->np)
		return;
	cg->soff = base;
	cg->vspec = NO_REG;
	cg->sdst = NO_REG;
	cg->pv[3] = NO_REG;
	cg->lbl_end = ir_label(cg->ir);
	cg->ir->loc = c->loc;
	cg->ir->note = "clause";
	if (cg->p->prov->filter)
		cg->p->prov->filter(cg, cg->lbl_end);
	if (c->pred)
		cg_cond(cg, c->pred, cg->lbl_end);
	cg_stmt(cg, c->body);
	ir_bind(cg->ir, cg->lbl_end);
}

int cg_programs(struct lcc *cc)
{
	int base = this_size(cc);

	if (cc->scratch_size < base)
		cc->scratch_size = base;
	for (int pi = 0; pi < cc->nprogs; pi++) {
		struct lprog *p = &cc->progs[pi];
		struct cg cg = { .cc = cc, .p = p, .ir = &p->ir, .sdst = NO_REG };

		cg.lbl_exit = ir_label(&p->ir);
		cg_prologue(&cg);
		for (struct clause *c = cc->prog.clauses; c; c = c->next)
			cg_clause(&cg, pi, c, base);
		p->ir.loc = (struct loc){ 0, 0 };
		p->ir.note = "epilogue";
		ir_st(&p->ir, BPF_DW, cg.vscr, SCR_BUSY, 0);
		ir_bind(&p->ir, cg.lbl_exit);
		ir_movi(&p->ir, BPF_REG_0, 0);
		ir_exit(&p->ir);
		if (cc_failed(cc))
			return -1;
	}
	if (cc->scratch_size > 32768) {
		cc_error(cc, (struct loc){ 0, 0 },
			 "the clauses need %d bytes of per-CPU scratch memory, more than the 32 "
			 "KiB limit: use fewer or shorter strings (-x strsize=N)",
			 cc->scratch_size);
		return -1;
	}
	return 0;
}
