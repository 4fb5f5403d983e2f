// SPDX-License-Identifier: GPL-2.0
/*
 * Runtime faults and the dtrace:::ERROR probe, as DTrace defines them: a
 * faulting read (bad address in copyin(), copyinstr(), a struct walk or a
 * dereference) or a division by zero aborts the clause; an error record
 * tells user space, which prints DTrace's message on stderr; the ERROR
 * clauses run right there, in the faulting probe's context, with
 *
 *	arg1 = enabled probe id   arg2 = action number (0: predicate)
 *	arg3 = -1 (no DIF offset) arg4 = fault (DTRACEFLT_*)  arg5 = address
 *
 * then the next clause of the probe runs. A fault site stores what
 * happened in the scratch header and jumps to the clause's handler:
 *
 *	scratch + SCR_FAULT       u64  fault | action << 8 | line << 16 | col << 40
 *	scratch + SCR_FAULT + 8   u64  address
 *	scratch + SCR_FAULT + 16  u64  enabled probe id (set by the handler)
 *
 * The ERROR clauses are generated inline in each handler (BPF has no
 * indirect jump back to "the next clause"). Faults inside them only end
 * that ERROR clause: no recursion, as in DTrace.
 */
#include <stdlib.h>
#include <string.h>

#include "lang/cg.h"
#include "lang/prov.h"

int cg_fault(struct cg *cg, int kind, int vaddr)
{
	struct loc l = cg->ir->loc;
	uint64_t w0 = (uint64_t)kind | (uint64_t)(cg->actno & 0xff) << 8 |
		      (uint64_t)(l.line & 0xffffff) << 16 | (uint64_t)(l.col & 0xffffff) << 40;

	if (cg->lbl_fault < 0)
		return 0; /* program prologue: provider reads of known memory */
	if (!cg->in_error) {
		cg_store_scalar(cg, cg->vscr, SCR_FAULT, cg_imm(cg, (int64_t)w0), 8);
		cg_store_scalar(cg, cg->vscr, SCR_FAULT + 8,
				vaddr == NO_REG ? cg_imm(cg, 0) : vaddr, 8);
	}
	cg->nfaults++;
	ir_ja(cg->ir, cg->lbl_fault);
	return 1;
}

void cg_fault_if(struct cg *cg, int vret, int kind, int vaddr)
{
	int ok = ir_label(cg->ir);

	if (cg->lbl_fault < 0)
		return;
	ir_jmpi(cg->ir, BPF_JSGE, vret, 0, ok);
	cg_fault(cg, kind, vaddr);
	ir_bind(cg->ir, ok);
}

/* Enabled probe id (index in cc->probes + 1) of the probe that fired: a
 * constant, or for a program serving several probes of the clause (the
 * syscall provider) a table in rodata indexed by the probe filter. */
int cg_epid(struct cg *cg)
{
	long max = 0;
	int32_t *tab;
	int off, key, p, r = ir_vreg(cg->ir), done = ir_label(cg->ir);

	ir_movi(cg->ir, r, cg->probes[0] - cg->cc->probes + 1);
	if (cg->np == 1 || !cg->p->prov->which)
		return r;
	for (int i = 0; i < cg->np; i++)
		max = cg->probes[i]->filter > max ? cg->probes[i]->filter : max;
	if (max >= 4096)
		return r;
	tab = calloc(max + 1, sizeof(*tab));
	if (!tab)
		abort();
	for (int i = 0; i < cg->np; i++)
		tab[cg->probes[i]->filter] = (int32_t)(cg->probes[i] - cg->cc->probes + 1);
	off = rodata_add(cg->cc, (char *)tab, (max + 1) * 4, (max + 1) * 4);
	free(tab);
	key = cg->p->prov->which(cg);
	ir_jmpi(cg->ir, BPF_JGT, key, max, done);
	p = ir_vreg(cg->ir);
	ir_mov(cg->ir, p, key);
	ir_alui(cg->ir, BPF_LSH, p, 2);
	ir_ldmapval(cg->ir, r, cg->cc->m_rodata, off);
	ir_alu(cg->ir, BPF_ADD, r, p);
	ir_ldx(cg->ir, BPF_W, r, r, 0);
	ir_bind(cg->ir, done);
	return r;
}

/* The error record: | hdr | fault word | address | epid | */
static void cg_error_rec(struct cg *cg)
{
	struct action *a = action_new(cg->cc, A_ERROR, cg->c->loc);
	int off, vr, w;

	a->nargs = 3;
	for (int k = 0; k < 3; k++)
		a->args[k] = (struct arec_arg){ &t_u64, REC_HDR + 8 * k };
	a->size = REC_HDR + 24;
	vr = cg_rec_begin(cg, a, &off);
	for (int k = 0; k < 3; k++) {
		w = cg_load_scalar(cg, cg->vscr, SCR_FAULT + 8 * k, &t_u64);
		cg_store_scalar(cg, vr, REC_HDR + 8 * k, w, 8);
	}
	cg_rec_submit(cg, vr, a->size);
}

/* ERROR clauses, inline, with the state of the interrupted clause saved. */
static void cg_error_clauses(struct cg *cg)
{
	struct cg save = *cg;

	for (int i = 0; i < cg->cc->nprobes; i++) {
		struct lprobe *lp = &cg->cc->probes[i];

		if (lp->prov != &prov_dtrace || strcmp(lp->f[3], "ERROR"))
			continue;
		cg->in_error = 1;
		cg->np = 1;
		cg->probes[0] = lp;
		cg_clause_body(cg, lp->c, save.soff);
	}
	*cg = save;
}

void cg_fault_handler(struct cg *cg)
{
	if (cg->in_error)
		return; /* faults in ERROR clauses end them, nothing more */
	cg->ir->note = "fault handler";
	cg->vspec = NO_REG;
	cg_store_scalar(cg, cg->vscr, SCR_FAULT + 16, cg_epid(cg), 8);
	cg_error_rec(cg);
	cg_error_clauses(cg);
}

/* argN in an ERROR clause. */
int cg_error_arg(struct cg *cg, int i)
{
	int r;

	switch (i) {
	case 1:
		return cg_load_scalar(cg, cg->vscr, SCR_FAULT + 16, &t_u64);
	case 2:
	case 4:
		r = cg_load_scalar(cg, cg->vscr, SCR_FAULT, &t_u64);
		if (i == 2)
			ir_alui(cg->ir, BPF_RSH, r, 8);
		ir_alui(cg->ir, BPF_AND, r, 0xff);
		return r;
	case 3:
		return cg_imm(cg, -1);
	case 5:
		return cg_load_scalar(cg, cg->vscr, SCR_FAULT + 8, &t_u64);
	default:
		return cg_imm(cg, 0);
	}
}
