// SPDX-License-Identifier: GPL-2.0
/*
 * vtimestamp: the nanoseconds the current thread has spent on a CPU, kept
 * by sched-switch bookkeeping (DTrace's vtime accounting). A hidden
 * program on the sched_switch raw tracepoint, loaded only when a clause
 * reads vtimestamp, maintains per thread
 *
 *	map "vtime" (LRU_HASH, tid -> value):
 *	+----------------+------------------------------------------------+
 *	| acc (u64 ns)   | on-CPU time up to the last switch-out           |
 *	| since (u64 ns) | when it last came on a CPU (0: off CPU)         |
 *	+----------------+------------------------------------------------+
 *
 * and vtimestamp = acc + (now - since). A thread first seen running starts
 * from the CPU time the scheduler accounted it so far
 * (task->se.sum_exec_runtime), so values are comparable with the thread's
 * CPU time. The cost is one program run per context switch (about two map
 * lookups), paid only by scripts using vtimestamp.
 */
#include <string.h>

#include "lang/prov.h"

/* Stores the pid field (a thread id) of task vtask as the key at koff. */
static int tid_key(struct cg *cg, int vtask, int koff)
{
	cg_store_scalar(cg, cg->vscr, koff, prov_task_field(cg, vtask, "pid", &t_u32), 4);
	return cg_scratch_ptr(cg, koff);
}

static int vtime_lookup(struct cg *cg, int vkey)
{
	int args[2] = { cg_map_ptr(cg, cg->cc->m_vtime), vkey };

	return cg_call(cg, BPF_FUNC_map_lookup_elem, 2, args);
}

/* sched_switch(preempt, prev, next, prev_state) */
static void vt_prologue(struct cg *cg)
{
	int now = cg_call(cg, BPF_FUNC_ktime_get_ns, 0, NULL), koff = cg_scratch(cg, 8);
	int v, d = ir_vreg(cg->ir), acc = ir_vreg(cg->ir);
	int skip = ir_label(cg->ir), done = ir_label(cg->ir);

	cg->ir->note = "vtime: prev leaves the CPU, acc += now - since";
	v = vtime_lookup(cg, tid_key(cg, prov_raw_arg(cg, 1), koff));
	ir_jmpi(cg->ir, BPF_JEQ, v, 0, skip);
	ir_ldx(cg->ir, BPF_DW, d, v, 8);
	ir_jmpi(cg->ir, BPF_JEQ, d, 0, skip);
	ir_alu(cg->ir, BPF_SUB, d, now);
	ir_alui(cg->ir, BPF_NEG, d, 0);
	ir_ldx(cg->ir, BPF_DW, acc, v, 0);
	ir_alu(cg->ir, BPF_ADD, acc, d);
	ir_stx(cg->ir, BPF_DW, v, 0, acc);
	ir_st(cg->ir, BPF_DW, v, 8, 0);
	ir_bind(cg->ir, skip);
	cg->ir->note = "vtime: next comes on, since = now";
	v = vtime_lookup(cg, tid_key(cg, prov_raw_arg(cg, 2), koff));
	ir_jmpi(cg->ir, BPF_JEQ, v, 0, done);
	ir_stx(cg->ir, BPF_DW, v, 8, now);
	ir_bind(cg->ir, done);
}

/* vtimestamp in a probe: the current thread's entry, created on first use
 * from the scheduler's account of its CPU time. */
int vtime_emit(struct cg *cg)
{
	int now = cg_call(cg, BPF_FUNC_ktime_get_ns, 0, NULL), koff = cg_scratch(cg, 24);
	int task = cg_call(cg, BPF_FUNC_get_current_task, 0, NULL), v, args[4];
	int r = ir_vreg(cg->ir), t = ir_vreg(cg->ir), found = ir_label(cg->ir);
	int done = ir_label(cg->ir);
	int off = lbtf_offsetof("task_struct", "se") +
		  lbtf_offsetof("sched_entity", "sum_exec_runtime");

	v = vtime_lookup(cg, tid_key(cg, task, koff));
	ir_jmpi(cg->ir, BPF_JNE, v, 0, found);
	ir_mov(cg->ir, t, task);
	ir_alui(cg->ir, BPF_ADD, t, off);
	ir_mov(cg->ir, r, cg_read_scalar(cg, t, &t_u64, 0));
	cg_store_scalar(cg, cg->vscr, koff + 8, r, 8);
	cg_store_scalar(cg, cg->vscr, koff + 16, now, 8);
	args[0] = cg_map_ptr(cg, cg->cc->m_vtime);
	args[1] = cg_scratch_ptr(cg, koff);
	args[2] = cg_scratch_ptr(cg, koff + 8);
	args[3] = cg_imm(cg, BPF_NOEXIST);
	cg_call(cg, BPF_FUNC_map_update_elem, 4, args);
	ir_ja(cg->ir, done);
	ir_bind(cg->ir, found);
	ir_ldx(cg->ir, BPF_DW, r, v, 0);
	ir_ldx(cg->ir, BPF_DW, t, v, 8);
	ir_jmpi(cg->ir, BPF_JEQ, t, 0, done);
	ir_alu(cg->ir, BPF_ADD, r, now);
	ir_alu(cg->ir, BPF_SUB, r, t);
	ir_bind(cg->ir, done);
	return r;
}

static int vt_attach(struct lcc *cc, struct lprog *p)
{
	return prov_attach_raw_tp(cc, p, "sched_switch");
}

static int vt_none(struct cg *cg, int i)
{
	(void)i;
	return cg_imm(cg, 0);
}

const struct provider prov_vtime = {
	.name = "vtime",
	.desc = "sched_switch bookkeeping for vtimestamp (hidden)",
	.type = BPF_PROG_TYPE_RAW_TRACEPOINT,
	.prologue = vt_prologue,
	.arg = vt_none,
	.args = vt_none,
	.attach = vt_attach,
};

int vtime_plan(struct lcc *cc)
{
	struct lprobe *lp;

	if (cc->m_vtime >= 0)
		return 0;
	cc->m_vtime =
		map_add(cc, "vtime", BPF_MAP_TYPE_LRU_HASH, 4, 16, cc->o->dynvarsize, "dynvarsize");
	lp = probe_add(cc, &prov_vtime, NULL);
	snprintf(lp->f[0], sizeof(lp->f[0]), "vtime");
	snprintf(lp->attach, sizeof(lp->attach), "sched_switch/vtime");
	return probes_group(cc);
}
