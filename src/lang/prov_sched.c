// SPDX-License-Identifier: GPL-2.0
/*
 * sched provider, on raw tracepoints:
 *   sched:::off-cpu  sched_switch(preempt, prev, next, prev_state), in the
 *                    context of the thread leaving the CPU
 *   sched:::on-cpu   the same tracepoint; pid, tid, execname and curthread
 *                    are rebound to the thread coming on (next), because
 *                    there is no tracepoint in its own context
 *   sched:::wakeup   sched_wakeup(p): args[0] = woken tid, args[1] = its pid
 * sched:::enqueue has no tracepoint on this kernel and is reported as
 * unavailable.
 */
#include <string.h>

#include "lang/prov.h"

enum { S_ON, S_OFF, S_WAKEUP, S_N };

static const char *const snames[S_N] = { "on-cpu", "off-cpu", "wakeup" };

static int sched_match(struct lcc *cc, struct probe_desc *pd, const char *f[4], struct clause *c)
{
	int n = 0;

	if (!f[0][0] || strcmp(f[0], "sched") || f[1][0] || f[2][0])
		return 0;
	if (!strcmp(f[3], "enqueue") || !strcmp(f[3], "dequeue")) {
		cc_error(cc, pd->loc,
			 "sched:::%s is unavailable: this kernel has no tracepoint for run-queue "
			 "%s; use sched:::wakeup or sched:::on-cpu",
			 f[3], f[3]);
		return -1;
	}
	for (int i = 0; i < S_N; i++) {
		struct lprobe *lp;

		if (!prov_glob(f[3], snames[i]))
			continue;
		lp = probe_add(cc, &prov_sched, c);
		snprintf(lp->f[0], sizeof(lp->f[0]), "sched");
		snprintf(lp->f[3], sizeof(lp->f[3]), "%s", snames[i]);
		/* on-cpu and off-cpu are separate programs on the same
		 * tracepoint: one switch fires both, each from its side */
		snprintf(lp->attach, sizeof(lp->attach), "%s/%s",
			 i == S_WAKEUP ? "sched_wakeup" : "sched_switch", snames[i]);
		lp->aux[0] = i;
		n++;
	}
	return n;
}

static struct type *sched_arg_type(struct lcc *cc, const struct lprobe *p, int i)
{
	(void)cc;
	if (p->aux[0] == S_WAKEUP)
		return i < 2 ? &t_s32 : NULL;
	return i < 2 ? &t_s32 : NULL; /* on/off-cpu: args[0] tid, args[1] pid of the other */
}

static int task_arg(struct cg *cg)
{
	int kind = cg->probes[0]->aux[0];

	if (kind == S_WAKEUP)
		return prov_raw_arg(cg, 0);
	return prov_raw_arg(cg, kind == S_ON ? 2 : 1);
}

static int sched_arg(struct cg *cg, int i)
{
	int kind = cg->probes[0]->aux[0], t;

	/* off-cpu describes the next thread, on-cpu the previous one,
	 * wakeup the woken one */
	t = kind == S_WAKEUP ? prov_raw_arg(cg, 0) : prov_raw_arg(cg, kind == S_ON ? 1 : 2);
	return prov_task_field(cg, t, i == 0 ? "pid" : "tgid", &t_s32);
}

static int sched_builtin(struct cg *cg, const char *name)
{
	int t;

	if (cg->probes[0]->aux[0] != S_ON)
		return NO_REG;
	if (!strcmp(name, "pid") || !strcmp(name, "tid")) {
		t = task_arg(cg);
		return prov_task_field(cg, t, name[0] == 'p' ? "tgid" : "pid", &t_s32);
	}
	if (!strcmp(name, "curthread"))
		return task_arg(cg);
	if (!strcmp(name, "execname")) {
		int cap, d = cg_str_dest(cg, 16, &cap), a = ir_vreg(cg->ir), args[3];

		cg_zero(cg, d, 0, (cap + 7) & ~7);
		ir_mov(cg->ir, a, task_arg(cg));
		ir_alui(cg->ir, BPF_ADD, a, lbtf_offsetof("task_struct", "comm"));
		args[0] = d;
		args[1] = cg_imm(cg, cap < 16 ? cap : 16);
		args[2] = a;
		cg_call(cg, BPF_FUNC_probe_read_kernel_str, 3, args);
		return d;
	}
	return NO_REG;
}

static int sched_prepare(struct lcc *cc, struct lprog *p)
{
	char err[256];

	(void)p;
	if (lbtf_load(err, sizeof(err))) {
		cc_error(cc, (struct loc){ 0, 0 }, "%s", err);
		return -1;
	}
	return 0;
}

static int sched_attach(struct lcc *cc, struct lprog *p)
{
	char tp[64];

	snprintf(tp, sizeof(tp), "%.*s", (int)strcspn(p->attach, "/"), p->attach);
	return prov_attach_raw_tp(cc, p, tp);
}

const struct provider prov_sched = {
	.name = "sched",
	.desc = "scheduler: on-cpu, off-cpu, wakeup",
	.type = BPF_PROG_TYPE_RAW_TRACEPOINT,
	.match = sched_match,
	.arg_type = sched_arg_type,
	.arg = sched_arg,
	.args = sched_arg,
	.builtin = sched_builtin,
	.prepare = sched_prepare,
	.attach = sched_attach,
};
