// SPDX-License-Identifier: GPL-2.0
/*
 * Code generation of expressions and conditions: arithmetic with D's
 * division semantics, comparisons (strings word by word), short-circuit
 * conditions compiled to branches, member walks, assignments, ++/--, ?:.
 */
#include "lang/agg.h"
#include "lang/builtins.h"
#include "lang/prov.h"

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

/* dst op= src. Division by zero is DTrace's "divide-by-zero" fault
 * (outside clauses, where no handler exists, it yields 0 instead of the
 * BPF semantics x/0 = 0, x%0 = x differing from each other). */
static void cg_arith(struct cg *cg, int tok, int dst, int src, const struct type *t)
{
	int off, op = alu_op(tok, t->sign, &off);

	if (op == BPF_DIV || op == BPF_MOD) {
		int nz = ir_label(cg->ir), done = ir_label(cg->ir);

		ir_jmpi(cg->ir, BPF_JNE, src, 0, nz);
		if (!cg_fault(cg, FLT_DIVZERO, NO_REG)) {
			ir_movi(cg->ir, dst, 0);
			ir_ja(cg->ir, done);
		}
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

				ir_ldx(cg->ir, cg_bpf_size(w), x, a, i);
				ir_ldx(cg->ir, cg_bpf_size(w), y, b, i);
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

static int cg_addr(struct cg *cg, struct node *n);

/* Address of the struct holding member n: the pointer for a->b, the
 * address of the place a for a.b. */
static int cg_base(struct cg *cg, struct node *n)
{
	int r = ir_vreg(cg->ir);

	ir_mov(cg->ir, r, n->op == T_ARROW ? cg_expr(cg, n->l) : cg_addr(cg, n->l));
	return r;
}

/* Address of a member place: its struct's address plus the offset. A
 * __data_loc field locates its data in the record: base + (u32 & 0xffff). */
static int cg_addr(struct cg *cg, struct node *n)
{
	int base, r = ir_vreg(cg->ir);

	if (n->k == N_MEMBER) {
		base = cg_base(cg, n);
		ir_mov(cg->ir, r, base);
		if (n->aux)
			ir_alui(cg->ir, BPF_ADD, r, n->aux);
		if (n->dataloc) {
			int loc = cg_read_scalar(cg, r, &t_u32, 0);

			ir_alui(cg->ir, BPF_AND, loc, 0xffff);
			ir_mov(cg->ir, r, base);
			ir_alu(cg->ir, BPF_ADD, r, loc);
		}
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
		cg_fault_if(cg,
			    cg_call(cg,
				    user ? BPF_FUNC_probe_read_user_str
					 : BPF_FUNC_probe_read_kernel_str,
				    3, args),
			    FLT_BADADDR, vaddr);
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

	if (cg->p->prov->builtin && !cg->in_error)
		r = cg->p->prov->builtin(cg, name);
	return r != NO_REG ? r : n->bi->emit(cg, n);
}

/* args[i] has its declared type: a syscall argument is a 64-bit register
 * whose upper half is not the sign of an int (openat's dfd AT_FDCWD would
 * read 4294967196). A copy, as providers may return a register they keep. */
static int cg_args(struct cg *cg, struct node *n)
{
	int r = ir_vreg(cg->ir);

	ir_mov(cg->ir, r, cg->p->prov->args(cg, (int)n->args->cval));
	cg_convert(cg, r, n->t);
	return r;
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
		return n->bi ? cg_args(cg, n) : cg_var_read(cg, n);
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
		if (n->dataloc && n->t->k == TY_PTR)
			return cg_addr(cg, n); /* u8[], u64[]...: the first element */
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
