// SPDX-License-Identifier: GPL-2.0
/*
 * Code generation: the helpers every generator shares (scratch, calls,
 * loads and stores, keys, map slots, output records), statements, clauses
 * and the program prologue/epilogue, emitted as IR over virtual
 * registers. Expressions are in cgexpr.c.
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

int cg_map_ptr(struct cg *cg, int map)
{
	int r = ir_vreg(cg->ir);

	ir_ldmap(cg->ir, r, map);
	return r;
}

void cg_drop(struct cg *cg, enum drop_kind k)
{
	int args[2] = { cg_map_ptr(cg, cg->cc->m_stats), zero_key(cg) };
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

int cg_bpf_size(int width)
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
	ir_stx(cg->ir, cg_bpf_size(width), vptr, off, v);
}

int cg_load_scalar(struct cg *cg, int vptr, int off, struct type *t)
{
	int r = ir_vreg(cg->ir);
	int w = t->k == TY_INT ? t->size : 8;

	if (t->k == TY_INT && t->sign && w < 8)
		ir_ldxs(cg->ir, cg_bpf_size(w), r, vptr, off);
	else
		ir_ldx(cg->ir, cg_bpf_size(w), r, vptr, off);
	return r;
}

/* bpf_probe_read_{kernel,user}(scratch, size, addr), then a checked load:
 * the only safe way to dereference an arbitrary address. A fault is
 * DTrace's "invalid address" (cgfault.c). */
int cg_read_scalar(struct cg *cg, int vaddr, struct type *t, int user)
{
	int off = cg_scratch(cg, 8);
	int w = t->k == TY_INT ? t->size : 8;
	int args[3] = { cg_scratch_ptr(cg, off), cg_imm(cg, w), vaddr };
	int ret =
		cg_call(cg, user ? BPF_FUNC_probe_read_user : BPF_FUNC_probe_read_kernel, 3, args);

	cg_fault_if(cg, ret, FLT_BADADDR, args[2]);
	return cg_load_scalar(cg, cg->vscr, off, t);
}

/* Truncates/extends v to integer type t in place. */
void cg_convert(struct cg *cg, int v, const struct type *t)
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
	if (slot_t->k == TY_SYM) {
		/* | pid | address |: user addresses need their process */
		int pid = cg_imm(cg, 0);

		if (slot_t->user) {
			pid = cg_call(cg, BPF_FUNC_get_current_pid_tgid, 0, NULL);
			ir_alui(cg->ir, BPF_RSH, pid, 32);
		}
		cg_store_scalar(cg, vptr, off, pid, 8);
		cg_store_scalar(cg, vptr, off + 8, cg_expr(cg, n), 8);
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

int cg_key(struct cg *cg, struct node *args, int nkeys, struct type **kt, int lead, int *size)
{
	int koff[MAX_KEYS], total = lead, off, vk, k = 0;

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
	args[0] = cg_map_ptr(cg, map);
	args[1] = vk;
	v = cg_call(cg, BPF_FUNC_map_lookup_elem, 2, args);
	ir_jmpi(cg->ir, BPF_JNE, v, 0, ok);
	/* absent: insert zeros (BPF_NOEXIST: another CPU may have won) */
	args[0] = cg_map_ptr(cg, map);
	args[1] = vk;
	args[2] = ir_vreg(cg->ir);
	ir_ldmapval(cg->ir, args[2], cg->cc->m_zero, 0);
	args[3] = cg_imm(cg, BPF_NOEXIST);
	cg_call(cg, BPF_FUNC_map_update_elem, 4, args);
	args[0] = cg_map_ptr(cg, map);
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
		args[0] = cg_map_ptr(cg, cg->cc->m_rings);
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

/* Whether a statement list holds a statement matching fn. */
static int stmt_find(const struct node *s, int (*fn)(const struct node *call))
{
	if (!s)
		return 0;
	if (s->k == N_BLOCK) {
		for (const struct node *x = s->args; x; x = x->next)
			if (stmt_find(x, fn))
				return 1;
		return 0;
	}
	if (s->k == N_IF)
		return stmt_find(s->r, fn) || stmt_find(s->x, fn);
	return s->k == N_EXPR && s->l->k == N_CALL && fn(s->l);
}

/* Data-recording actions: everything but speculate() among the actions,
 * and stack()/ustack() as statements (typed void by sema). */
static int is_recording(const struct node *call)
{
	if (call->fn->action)
		return strcmp(call->name, "speculate") != 0;
	return call->t == &t_void;
}

static int is_speculate(const struct node *call)
{
	return !strcmp(call->name, "speculate");
}

void cg_probe_rec(struct cg *cg, enum akind k)
{
	struct action *a = action_new(cg->cc, k, cg->c->loc);
	int off, vr, which;

	a->clause = cg->c;
	a->prog = cg->probes[0]->prog; /* ERROR clauses: the ERROR program */
	if (k == A_PROBE) {
		a->nargs = 2;
		a->args[0] = (struct arec_arg){ &t_u64, REC_HDR };
		a->args[1] = (struct arec_arg){ &t_s64, REC_HDR + 8 };
		a->size = REC_HDR + 16;
	}
	vr = cg_rec_begin(cg, a, &off);
	if (k == A_PROBE) {
		which = cg->np > 1 && cg->p->prov->which ? cg->p->prov->which(cg) : cg_imm(cg, -1);
		cg_store_scalar(cg, vr, REC_HDR,
				cg_call(cg, BPF_FUNC_get_smp_processor_id, 0, NULL), 8);
		cg_store_scalar(cg, vr, REC_HDR + 8, which, 8);
	}
	cg_rec_submit(cg, vr, a->size);
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
	args[0] = cg_map_ptr(cg, cg->cc->m_scratch);
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
	cg->np = 0;
	for (int i = 0; i < cg->cc->nprobes; i++)
		if (cg->cc->probes[i].c == c && cg->cc->probes[i].prog == pi &&
		    cg->np < (int)(sizeof(cg->probes) / sizeof(cg->probes[0])))
			cg->probes[cg->np++] = &cg->cc->probes[i];
	if (cg->np)
		cg_clause_body(cg, c, base);
}

void cg_clause_body(struct cg *cg, struct clause *c, int base)
{
	int resume = ir_label(cg->ir);

	cg->c = c;
	cg->soff = base;
	cg->vspec = NO_REG;
	cg->sdst = NO_REG;
	cg->pv[3] = NO_REG;
	cg->lbl_end = ir_label(cg->ir);
	cg->lbl_fault = ir_label(cg->ir);
	cg->nfaults = 0;
	cg->actno = 0;
	cg->ir->loc = c->loc;
	cg->ir->note = "clause";
	if (cg->p->prov->filter && !cg->in_error)
		cg->p->prov->filter(cg, cg->lbl_end);
	if (c->pred)
		cg_cond(cg, c->pred, cg->lbl_end);
	/* DTrace's default output: a clause recording data, or with no
	 * statement at all, prints its probe line unless quiet. Under
	 * speculate() the line is emitted (speculatively) by it. */
	cg->probe_line = !cg->cc->o->quiet && (!c->body->args || stmt_find(c->body, is_recording));
	if (cg->probe_line && !stmt_find(c->body, is_speculate))
		cg_probe_rec(cg, A_PROBE);
	for (struct node *s = c->body->args; s; s = s->next) {
		cg->actno++;
		cg_stmt(cg, s);
	}
	if (cg->nfaults) {
		ir_ja(cg->ir, resume);
		ir_bind(cg->ir, cg->lbl_fault);
		cg_fault_handler(cg);
	}
	ir_bind(cg->ir, resume);
	cg->lbl_fault = -1;
	if (cg->probe_line)
		cg_probe_rec(cg, A_PROBE_END);
	ir_bind(cg->ir, cg->lbl_end);
}

int cg_programs(struct lcc *cc)
{
	int base = this_size(cc);

	if (cc->scratch_size < base)
		cc->scratch_size = base;
	for (int pi = 0; pi < cc->nprogs; pi++) {
		struct lprog *p = &cc->progs[pi];
		struct cg cg = { .cc = cc, .p = p, .ir = &p->ir, .sdst = NO_REG, .lbl_fault = -1 };

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
