// SPDX-License-Identifier: GPL-2.0
/*
 * proc provider, on raw tracepoints. args[] follow DTrace's positions; where
 * DTrace passes a psinfo_t * or lwpsinfo_t *, sonde passes the integer those
 * structures are keyed by (pr_pid, pr_lwpid), since it models neither:
 *   proc:::exec          sys_enter for execve/execveat   args[0] = path (string)
 *   proc:::exec-success  sched_process_exec(p, old_pid, bprm)
 *   proc:::create        sched_process_fork(parent, child)
 *                        args[0] = child pid (DTrace: psinfo_t * of the child)
 *   proc:::exit          sched_process_exit(p), thread-group leader only
 *                        args[0] = CLD_EXITED (1), CLD_KILLED (2) or
 *                        CLD_DUMPED (3), from the wait(2) status
 *   proc:::signal-send   signal_generate(sig, info, task, group, result)
 *                        args[0] = target tid (DTrace: lwpsinfo_t *),
 *                        args[1] = target pid (DTrace: psinfo_t *),
 *                        args[2] = signal
 */
#include <string.h>

#include <linux/types.h>
#include <sonde/syscalls.h>

#include "lang/prov.h"

enum { P_EXEC, P_EXEC_OK, P_CREATE, P_EXIT, P_SIGNAL, P_N };

static const struct {
	const char *name, *tp;
	int nargs;
} pprobes[P_N] = {
	[P_EXEC] = { "exec", "sys_enter", 1 },
	[P_EXEC_OK] = { "exec-success", "sched_process_exec", 0 },
	[P_CREATE] = { "create", "sched_process_fork", 1 },
	[P_EXIT] = { "exit", "sched_process_exit", 1 },
	[P_SIGNAL] = { "signal-send", "signal_generate", 3 },
};

static int proc_match(struct lcc *cc, struct probe_desc *pd, const char *f[4], struct clause *c)
{
	int n = 0;

	(void)pd;
	if (!f[0][0] || strcmp(f[0], "proc") || f[1][0] || f[2][0])
		return 0;
	for (int i = 0; i < P_N; i++) {
		struct lprobe *lp;

		if (!prov_glob(f[3], pprobes[i].name))
			continue;
		lp = probe_add(cc, &prov_proc, c);
		snprintf(lp->f[0], sizeof(lp->f[0]), "proc");
		snprintf(lp->f[3], sizeof(lp->f[3]), "%s", pprobes[i].name);
		snprintf(lp->attach, sizeof(lp->attach), "%s", pprobes[i].tp);
		lp->aux[0] = i;
		n++;
	}
	return n;
}

static struct type *proc_arg_type(struct lcc *cc, const struct lprobe *p, int i)
{
	if (i >= pprobes[p->aux[0]].nargs)
		return NULL;
	if (p->aux[0] == P_EXEC)
		return type_str(cc->o->strsize, 1);
	return &t_s32;
}

static void proc_filter(struct cg *cg, int lbl_skip)
{
	int kind = cg->p->aux[0];

	if (kind == P_EXEC) {
		int nr = prov_raw_arg(cg, 1), ok = ir_label(cg->ir);

		ir_jmpi(cg->ir, BPF_JEQ, nr, sonde_syscall_lookup("execve"), ok);
		ir_jmpi(cg->ir, BPF_JNE, nr, sonde_syscall_lookup("execveat"), lbl_skip);
		ir_bind(cg->ir, ok);
	} else if (kind == P_EXIT) {
		/* one firing per process: when its leader thread exits */
		int v = cg_call(cg, BPF_FUNC_get_current_pid_tgid, 0, NULL), t = ir_vreg(cg->ir);

		ir_mov(cg->ir, t, v);
		ir_alui(cg->ir, BPF_RSH, t, 32);
		ir_alui(cg->ir, BPF_LSH, v, 32);
		ir_alui(cg->ir, BPF_RSH, v, 32);
		ir_jmp(cg->ir, BPF_JNE, t, v, lbl_skip);
	}
}

/*
 * DTrace's exit reason from task->exit_code (wait(2) status): low 7 bits
 * zero means a normal exit, else the signal that killed it, with 0x80 set
 * when it dumped core.
 */
static int proc_exit_reason(struct cg *cg)
{
	int code = prov_task_field(cg, prov_raw_arg(cg, 0), "exit_code", &t_s32);
	int r = ir_vreg(cg->ir), t = ir_vreg(cg->ir), done = ir_label(cg->ir);

	ir_movi(cg->ir, r, 1); /* CLD_EXITED */
	ir_mov(cg->ir, t, code);
	ir_alui(cg->ir, BPF_AND, t, 0x7f);
	ir_jmpi(cg->ir, BPF_JEQ, t, 0, done);
	ir_movi(cg->ir, r, 2); /* CLD_KILLED */
	ir_mov(cg->ir, t, code);
	ir_alui(cg->ir, BPF_AND, t, 0x80);
	ir_jmpi(cg->ir, BPF_JEQ, t, 0, done);
	ir_movi(cg->ir, r, 3); /* CLD_DUMPED */
	ir_bind(cg->ir, done);
	return r;
}

static int proc_arg(struct cg *cg, int i)
{
	int kind = cg->p->aux[0];

	if (i >= pprobes[kind].nargs)
		return cg_imm(cg, 0);
	switch (kind) {
	case P_EXEC: {
		/* execve(path, ...): rdi; execveat(dfd, path, ...): rsi */
		int regs = prov_raw_arg(cg, 0), nr = prov_raw_arg(cg, 1), a = ir_vreg(cg->ir);
		int is_at = ir_label(cg->ir), go = ir_label(cg->ir);

		ir_mov(cg->ir, a, regs);
		ir_jmpi(cg->ir, BPF_JNE, nr, sonde_syscall_lookup("execve"), is_at);
		ir_alui(cg->ir, BPF_ADD, a, 112);
		ir_ja(cg->ir, go);
		ir_bind(cg->ir, is_at);
		ir_alui(cg->ir, BPF_ADD, a, 104);
		ir_bind(cg->ir, go);
		return cg_read_scalar(cg, a, &t_u64, 0);
	}
	case P_CREATE:
		return prov_task_field(cg, prov_raw_arg(cg, 1), "tgid", &t_s32);
	case P_EXIT:
		return proc_exit_reason(cg);
	case P_SIGNAL:
		if (i == 2)
			return prov_raw_arg(cg, 0);
		return prov_task_field(cg, prov_raw_arg(cg, 2), i ? "tgid" : "pid", &t_s32);
	}
	return cg_imm(cg, 0);
}

/* args[0] of exec is the path as a string */
static int proc_args(struct cg *cg, int i)
{
	int cap, d, args[3];

	if (cg->p->aux[0] != P_EXEC || i)
		return proc_arg(cg, i);
	d = cg_str_dest(cg, cg->cc->o->strsize, &cap);
	args[2] = proc_arg(cg, 0);
	cg_zero(cg, d, 0, (cap + 7) & ~7);
	args[0] = d;
	args[1] = cg_imm(cg, cap);
	cg_call(cg, BPF_FUNC_probe_read_user_str, 3, args);
	return d;
}

static int proc_prepare(struct lcc *cc, struct lprog *p)
{
	char err[256];

	if (p->aux[0] != P_EXEC && lbtf_load(err, sizeof(err))) {
		cc_error(cc, (struct loc){ 0, 0 }, "%s", err);
		return -1;
	}
	return 0;
}

static int proc_attach(struct lcc *cc, struct lprog *p)
{
	return prov_attach_raw_tp(cc, p, p->attach);
}

const struct provider prov_proc = {
	.name = "proc",
	.desc = "process exec, creation, exit and signals",
	.type = BPF_PROG_TYPE_RAW_TRACEPOINT,
	.match = proc_match,
	.arg_type = proc_arg_type,
	.filter = proc_filter,
	.arg = proc_arg,
	.args = proc_args,
	.prepare = proc_prepare,
	.attach = proc_attach,
};
