// SPDX-License-Identifier: GPL-2.0
/* Built-in variables. Each is one table entry: a type (fixed or computed
 * from the clause's probes) and an emitter. Providers may override the
 * emitter per probe (prov.h, builtin hook). */
#include <string.h>

#include "lang/builtins.h"
#include "lang/prov.h"

static int pid_tgid(struct cg *cg)
{
	return cg_call(cg, BPF_FUNC_get_current_pid_tgid, 0, NULL);
}

static int emit_pid(struct cg *cg, struct node *n)
{
	int v = pid_tgid(cg);

	(void)n;
	ir_alui(cg->ir, BPF_RSH, v, 32);
	return v;
}

static int emit_tid(struct cg *cg, struct node *n)
{
	int v = pid_tgid(cg);

	(void)n;
	ir_alui(cg->ir, BPF_LSH, v, 32);
	ir_alui(cg->ir, BPF_RSH, v, 32);
	return v;
}

static int emit_uid(struct cg *cg, struct node *n)
{
	int v = cg_call(cg, BPF_FUNC_get_current_uid_gid, 0, NULL);

	(void)n;
	ir_alui(cg->ir, BPF_LSH, v, 32);
	ir_alui(cg->ir, BPF_RSH, v, 32);
	return v;
}

static int emit_gid(struct cg *cg, struct node *n)
{
	int v = cg_call(cg, BPF_FUNC_get_current_uid_gid, 0, NULL);

	(void)n;
	ir_alui(cg->ir, BPF_RSH, v, 32);
	return v;
}

static int emit_cpu(struct cg *cg, struct node *n)
{
	(void)n;
	return cg_call(cg, BPF_FUNC_get_smp_processor_id, 0, NULL);
}

static int emit_timestamp(struct cg *cg, struct node *n)
{
	(void)n;
	return cg_call(cg, BPF_FUNC_ktime_get_ns, 0, NULL);
}

/* CLOCK_MONOTONIC plus the realtime offset measured at start. */
static int emit_walltimestamp(struct cg *cg, struct node *n)
{
	int v = cg_call(cg, BPF_FUNC_ktime_get_ns, 0, NULL);
	int o = cg_imm(cg, cg->cc->wall_offset);

	(void)n;
	ir_alu(cg->ir, BPF_ADD, v, o);
	return v;
}

static int emit_curthread(struct cg *cg, struct node *n)
{
	(void)n;
	return cg_call(cg, BPF_FUNC_get_current_task, 0, NULL);
}

static struct type *type_curthread(struct lcc *cc, struct clause *c, struct node *n)
{
	char err[256];
	struct type *t;

	(void)c;
	if (lbtf_load(err, sizeof(err))) {
		cc_error(cc, n->loc, "%s", err);
		return NULL;
	}
	t = lbtf_struct("task_struct");
	return t ? type_ptr(t, 0) : NULL;
}

static struct type *type_needs_btf(struct lcc *cc, struct clause *c, struct node *n)
{
	return type_curthread(cc, c, n) ? (n->name[0] == 'v' ? &t_u64 : &t_s32) : NULL;
}

static int emit_ppid(struct cg *cg, struct node *n)
{
	int task = emit_curthread(cg, n);
	int parent = prov_task_field(cg, task, "real_parent", &t_u64);

	return prov_task_field(cg, parent, "tgid", &t_s32);
}

/* CPU time the thread has run, as the scheduler last accounted it
 * (task->se.sum_exec_runtime; updated at ticks and context switches). */
static int emit_vtimestamp(struct cg *cg, struct node *n)
{
	int task = emit_curthread(cg, n);
	int off = lbtf_offsetof("task_struct", "se") +
		  lbtf_offsetof("sched_entity", "sum_exec_runtime");
	int a = ir_vreg(cg->ir);

	ir_mov(cg->ir, a, task);
	ir_alui(cg->ir, BPF_ADD, a, off);
	return cg_read_scalar(cg, a, &t_u64, 0);
}

static int emit_execname(struct cg *cg, struct node *n)
{
	int cap, d = cg_str_dest(cg, 16, &cap), args[2];

	(void)n;
	if (cap > 16)
		cg_zero(cg, d, 16, ((cap + 7) & ~7) - 16);
	args[0] = d;
	args[1] = cg_imm(cg, cap < 16 ? cap : 16);
	cg_call(cg, BPF_FUNC_get_current_comm, 2, args);
	return d;
}

static int emit_zero(struct cg *cg, struct node *n)
{
	(void)n;
	return cg_imm(cg, 0);
}

static int emit_arg(struct cg *cg, struct node *n)
{
	return cg->p->prov->arg(cg, n->name[3] - '0');
}

/* probeprov/probemod/probefunc/probename: a constant when every probe of
 * the clause agrees; otherwise the provider computes it (syscall:::entry
 * looks the number up in the names map). */
static int probe_field(const char *name)
{
	return !strcmp(name, "probeprov")   ? 0
	       : !strcmp(name, "probemod")  ? 1
	       : !strcmp(name, "probefunc") ? 2
					    : 3;
}

static struct type *type_probefield(struct lcc *cc, struct clause *c, struct node *n)
{
	struct lprobe *ps[512];
	int np = clause_probes(cc, c, ps, 512), f = probe_field(n->name), max = 0, same = 1;

	if (np > 512)
		np = 512;
	for (int i = 0; i < np; i++) {
		int l = strlen(ps[i]->f[f]);

		max = l > max ? l : max;
		same &= !strcmp(ps[i]->f[f], ps[0]->f[f]);
	}
	if (np && same) {
		n->aux = 1;
		n->strid = rodata_add(cc, ps[0]->f[f], strlen(ps[0]->f[f]), max + 1);
	}
	return type_str((max + 8) & ~7, 1);
}

static int emit_probefield(struct cg *cg, struct node *n)
{
	int r = ir_vreg(cg->ir);

	if (n->aux) {
		ir_ldmapval(cg->ir, r, cg->cc->m_rodata, n->strid);
		return r;
	}
	/* the provider hook handles the dynamic case before we get here */
	ir_ldmapval(cg->ir, r, cg->cc->m_rodata, 0);
	return r;
}

static struct type *type_args(struct lcc *cc, struct clause *c, struct node *n)
{
	struct lprobe *ps[512];
	int np = clause_probes(cc, c, ps, 512), i = n->k == N_IDENT ? -1 : (int)n->args->cval;
	struct type *t = NULL;

	if (np > 512)
		np = 512;
	if (i == -1) {
		/* bare args: tracepoint records (args->field) */
		for (int k = 0; k < np; k++) {
			struct type *pt =
				ps[k]->prov->arg_type ? ps[k]->prov->arg_type(cc, ps[k], -1) : NULL;

			if (!pt) {
				if (!cc_failed(cc))
					cc_error(cc, n->loc,
						 "args must be indexed here: args[0], args[1]...");
				return NULL;
			}
			t = pt;
		}
		return t;
	}
	if (i < 0 || i >= MAX_ARGS) {
		cc_error(cc, n->loc, "args[%d] is out of range (0..%d)", i, MAX_ARGS - 1);
		return NULL;
	}
	for (int k = 0; k < np; k++) {
		struct type *pt =
			ps[k]->prov->arg_type ? ps[k]->prov->arg_type(cc, ps[k], i) : NULL;

		if (cc_failed(cc))
			return NULL;
		if (!pt) {
			cc_error(cc, n->loc, "probe %s:%s:%s:%s has no args[%d]", ps[k]->f[0],
				 ps[k]->f[1], ps[k]->f[2], ps[k]->f[3], i);
			return NULL;
		}
		t = !t || (t->k == pt->k && t->size == pt->size) ? pt : &t_s64;
	}
	return t ? t : &t_s64;
}

static int emit_args(struct cg *cg, struct node *n)
{
	(void)n;
	return cg->p->prov->args(cg, -1);
}

static int return_probes(struct lcc *cc, struct clause *c, struct node *n, const char *what)
{
	struct lprobe *ps[512];
	int np = clause_probes(cc, c, ps, 512);

	if (np > 512)
		np = 512;
	for (int k = 0; k < np; k++)
		if (!ps[k]->prov->is_return || !ps[k]->prov->is_return(ps[k])) {
			cc_error(
				cc, n->loc,
				"%s is only defined in return probes (:return), not in %s:%s:%s:%s",
				what, ps[k]->f[0], ps[k]->f[1], ps[k]->f[2], ps[k]->f[3]);
			return -1;
		}
	return 0;
}

static struct type *type_retval(struct lcc *cc, struct clause *c, struct node *n)
{
	return return_probes(cc, c, n, "retval") ? NULL : &t_s64;
}

static int emit_retval(struct cg *cg, struct node *n)
{
	(void)n;
	return cg->p->prov->arg(cg, 0);
}

static struct type t_pid = { .k = TY_INT, .size = 4, .sign = 1, .name = "pid_t" };
static struct type t_uid = { .k = TY_INT, .size = 4, .name = "uid_t" };
static struct type t_execname = { .k = TY_STR, .size = 16, .padded = 1, .name = "string" };

static const struct builtin builtins[] = {
	{ .name = "pid", .t = &t_pid, .emit = emit_pid, .help = "process id" },
	{ .name = "tid", .t = &t_pid, .emit = emit_tid, .help = "thread id" },
	{ .name = "ppid", .type = type_needs_btf, .emit = emit_ppid, .help = "parent process id" },
	{ .name = "uid", .t = &t_uid, .emit = emit_uid, .help = "real user id" },
	{ .name = "gid", .t = &t_uid, .emit = emit_gid, .help = "real group id" },
	{ .name = "cpu", .t = &t_u32, .emit = emit_cpu, .help = "CPU number" },
	{ .name = "curcpu", .t = &t_u32, .emit = emit_cpu, .help = "CPU number" },
	{ .name = "timestamp", .t = &t_u64, .emit = emit_timestamp, .help = "monotonic ns" },
	{ .name = "vtimestamp",
	  .type = type_needs_btf,
	  .emit = emit_vtimestamp,
	  .help = "thread CPU time in ns" },
	{ .name = "walltimestamp",
	  .t = &t_u64,
	  .emit = emit_walltimestamp,
	  .help = "ns since the epoch" },
	{ .name = "execname",
	  .t = &t_execname,
	  .emit = emit_execname,
	  .strdst = 1,
	  .help = "command name" },
	{ .name = "curthread",
	  .type = type_curthread,
	  .emit = emit_curthread,
	  .help = "struct task_struct * of the current thread" },
	{ .name = "probeprov", .type = type_probefield, .emit = emit_probefield },
	{ .name = "probemod", .type = type_probefield, .emit = emit_probefield },
	{ .name = "probefunc", .type = type_probefield, .emit = emit_probefield },
	{ .name = "probename", .type = type_probefield, .emit = emit_probefield },
	{ .name = "errno", .t = &t_s32, .emit = emit_zero, .help = "error of the syscall" },
	{ .name = "retval", .type = type_retval, .emit = emit_retval },
	{ .name = "args", .type = type_args, .emit = emit_args },
	{ .name = "arg0", .t = &t_s64, .emit = emit_arg },
	{ .name = "arg1", .t = &t_s64, .emit = emit_arg },
	{ .name = "arg2", .t = &t_s64, .emit = emit_arg },
	{ .name = "arg3", .t = &t_s64, .emit = emit_arg },
	{ .name = "arg4", .t = &t_s64, .emit = emit_arg },
	{ .name = "arg5", .t = &t_s64, .emit = emit_arg },
	{ .name = "arg6", .t = &t_s64, .emit = emit_arg },
	{ .name = "arg7", .t = &t_s64, .emit = emit_arg },
	{ .name = "arg8", .t = &t_s64, .emit = emit_arg },
	{ .name = "arg9", .t = &t_s64, .emit = emit_arg },
};

const struct builtin *builtin_find(const char *name)
{
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (!strcmp(builtins[i].name, name))
			return &builtins[i];
	return NULL;
}
