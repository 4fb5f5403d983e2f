// SPDX-License-Identifier: GPL-2.0
/*
 * Variables in generated code: globals live in one ARRAY value at fixed
 * offsets (addressed directly, no lookup), this-> variables in per-CPU
 * scratch, self-> variables and associative arrays in HASH maps keyed by
 * thread id or by the key tuple.
 */
#include "lang/cg.h"

/* Stores the thread id (low half of pid_tgid) at [vkey]. */
static void tid_into(struct cg *cg, int vkey)
{
	int v = cg_call(cg, BPF_FUNC_get_current_pid_tgid, 0, NULL);

	ir_alui(cg->ir, BPF_LSH, v, 32);
	ir_alui(cg->ir, BPF_RSH, v, 32);
	cg_store_scalar(cg, vkey, 0, v, 8);
}

/* Pointer to the key of a dynamic variable:
 *   self->x        | tid |
 *   self->a[k...]  | tid | k1 | k2 ... |   (each key 8-aligned)
 *   a[k...]        | k1 | k2 ... |
 */
static int dyn_key(struct cg *cg, struct node *n)
{
	int size, vk;

	if (n->var->s == VS_SELF) {
		vk = cg_scratch_ptr(cg, cg_scratch(cg, 8));
		tid_into(cg, vk);
		return vk;
	}
	vk = cg_key(cg, n->args, n->var->nkeys, n->var->kt, n->var->s == VS_SELFA ? 8 : 0, &size);
	if (n->var->s == VS_SELFA)
		tid_into(cg, vk);
	return vk;
}

/* Reads a variable: scalars as values, strings as pointers. Absent
 * dynamic variables read as 0 or "". */
int cg_var_read(struct cg *cg, struct node *n)
{
	struct var *v = n->var;
	int p = ir_vreg(cg->ir), args[2], r, got, done;

	switch (v->s) {
	case VS_GLOBAL:
		ir_ldmapval(cg->ir, p, cg->cc->m_globals, v->off);
		break;
	case VS_THIS:
		ir_mov(cg->ir, p, cg->vscr);
		ir_alui(cg->ir, BPF_ADD, p, v->off);
		break;
	default:
		args[0] = cg_map_ptr(cg, v->map);
		args[1] = dyn_key(cg, n);
		got = ir_label(cg->ir);
		done = ir_label(cg->ir);
		ir_mov(cg->ir, p, cg_call(cg, BPF_FUNC_map_lookup_elem, 2, args));
		if (v->t->k == TY_STR) {
			ir_jmpi(cg->ir, BPF_JNE, p, 0, done);
			ir_ldmapval(cg->ir, p, cg->cc->m_rodata, 0); /* "" */
			ir_bind(cg->ir, done);
			return p;
		}
		r = ir_vreg(cg->ir);
		ir_jmpi(cg->ir, BPF_JNE, p, 0, got);
		ir_movi(cg->ir, r, 0);
		ir_ja(cg->ir, done);
		ir_bind(cg->ir, got);
		ir_mov(cg->ir, r, cg_load_scalar(cg, p, 0, v->t));
		ir_bind(cg->ir, done);
		return r;
	}
	if (v->t->k == TY_STR)
		return p;
	return cg_load_scalar(cg, p, 0, v->t);
}

/* Writes vval (scalar) or the string expression rhs into a variable. A
 * dynamic variable assigned 0 is deleted, freeing its slot, as in D. */
void cg_var_write(struct cg *cg, struct node *l, int vval, struct node *rhs)
{
	struct var *v = l->var;
	int p, args[4], off, vkey, del = ir_label(cg->ir), done = ir_label(cg->ir);

	/* the value wraps to the variable's type; it is also the value of
	 * the assignment, so converted in place */
	cg_convert(cg, vval, v->t);
	if (v->s == VS_GLOBAL || v->s == VS_THIS) {
		p = ir_vreg(cg->ir);
		if (v->s == VS_GLOBAL) {
			ir_ldmapval(cg->ir, p, cg->cc->m_globals, v->off);
		} else {
			ir_mov(cg->ir, p, cg->vscr);
			ir_alui(cg->ir, BPF_ADD, p, v->off);
		}
		if (v->t->k == TY_STR)
			cg_str_into(cg, rhs, p, v->t->size);
		else
			cg_store_scalar(cg, p, 0, vval, 8);
		return;
	}
	vkey = dyn_key(cg, l);
	off = cg_scratch(cg, type_slot_size(v->t));
	p = cg_scratch_ptr(cg, off);
	if (v->t->k == TY_STR) {
		cg_str_into(cg, rhs, p, v->t->size);
	} else {
		cg_store_scalar(cg, p, 0, vval, 8);
		ir_jmpi(cg->ir, BPF_JEQ, vval, 0, del);
	}
	args[0] = cg_map_ptr(cg, v->map);
	args[1] = vkey;
	args[2] = p;
	args[3] = cg_imm(cg, BPF_ANY);
	p = cg_call(cg, BPF_FUNC_map_update_elem, 4, args);
	ir_jmpi(cg->ir, BPF_JEQ, p, 0, done);
	cg_drop(cg, DROP_DYN);
	if (v->t->k != TY_STR) {
		/* only integers are freed by assigning 0 */
		ir_ja(cg->ir, done);
		ir_bind(cg->ir, del);
		args[0] = cg_map_ptr(cg, v->map);
		args[1] = vkey;
		cg_call(cg, BPF_FUNC_map_delete_elem, 2, args);
	}
	ir_bind(cg->ir, done);
}
