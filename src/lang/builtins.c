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
	return type_curthread(cc, c, n) ? &t_s32 : NULL;
}

static int emit_ppid(struct cg *cg, struct node *n)
{
	int task = emit_curthread(cg, n);
	int parent = prov_task_field(cg, task, "real_parent", &t_u64);

	return prov_task_field(cg, parent, "tgid", &t_s32);
}

/* Thread CPU time in ns, from sched-switch bookkeeping (prov_vtime.c). */
static struct type *type_vtimestamp(struct lcc *cc, struct clause *c, struct node *n)
{
	if (!type_curthread(cc, c, n) || vtime_plan(cc))
		return NULL;
	return &t_u64;
}

static int emit_vtimestamp(struct cg *cg, struct node *n)
{
	(void)n;
	return vtime_emit(cg);
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
	if (cg->in_error)
		return cg_error_arg(cg, n->name[3] - '0');
	return cg->p->prov->arg(cg, n->name[3] - '0');
}

/* probeprov/probemod/probefunc/probename: a string as long as the
 * longest among the clause's probes. */
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
	int np = clause_probes(cc, c, ps, 512), f = probe_field(n->name), max = 0;

	if (np > 512)
		np = 512;
	for (int i = 0; i < np; i++) {
		int l = strlen(ps[i]->f[f]);

		max = l > max ? l : max;
	}
	return type_str((max + 8) & ~7, 1);
}

/* Code is generated per program, and a program serves one probe of the
 * clause, whose field is a constant, except where probes share an attach
 * point: syscall entry (or return) probes, which differ in probefunc only
 * and whose provider hook looks it up by syscall number. */
static int emit_probefield(struct cg *cg, struct node *n)
{
	const char *s = cg->probes[0]->f[probe_field(n->name)];
	int r = ir_vreg(cg->ir);

	ir_ldmapval(cg->ir, r, cg->cc->m_rodata,
		    rodata_add(cg->cc, s, strlen(s), n->t->size));
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

/* DTrace's fault codes, to compare with arg4 in ERROR clauses. */
static int emit_fault_code(struct cg *cg, struct node *n)
{
	static const char *const names[] = { "DTRACEFLT_UNKNOWN", "DTRACEFLT_BADADDR",
					     "DTRACEFLT_BADALIGN", "DTRACEFLT_ILLOP",
					     "DTRACEFLT_DIVZERO" };
	int k = 0;

	while (k < FLT_DIVZERO && strcmp(names[k], n->name))
		k++;
	return cg_imm(cg, k);
}

static int emit_epid(struct cg *cg, struct node *n)
{
	(void)n;
	return cg_epid(cg);
}

static struct type t_pid = { .k = TY_INT, .size = 4, .sign = 1, .name = "pid_t" };
static struct type t_uid = { .k = TY_INT, .size = 4, .name = "uid_t" };
static struct type t_execname = { .k = TY_STR, .size = 16, .padded = 1, .name = "string" };

static const struct builtin builtins[] = {
	{ .name = "pid", .t = &t_pid, .emit = emit_pid, .help = "process id" },
	{ .name = "tid", .t = &t_pid, .emit = emit_tid, .help = "thread id" },
	{ .live_only = 1,
	  .name = "ppid",
	  .type = type_needs_btf,
	  .emit = emit_ppid,
	  .help = "parent process id" },
	{ .live_only = 1, .name = "uid", .t = &t_uid, .emit = emit_uid, .help = "real user id" },
	{ .live_only = 1, .name = "gid", .t = &t_uid, .emit = emit_gid, .help = "real group id" },
	{ .name = "cpu", .t = &t_u32, .emit = emit_cpu, .help = "CPU number" },
	{ .name = "curcpu", .t = &t_u32, .emit = emit_cpu, .help = "CPU number" },
	{ .name = "timestamp", .t = &t_u64, .emit = emit_timestamp, .help = "monotonic ns" },
	{ .live_only = 1,
	  .name = "vtimestamp",
	  .type = type_vtimestamp,
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
	{ .live_only = 1,
	  .name = "curthread",
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
	{ .name = "epid", .t = &t_u32, .emit = emit_epid, .help = "enabled probe id" },
	{ .name = "DTRACEFLT_UNKNOWN", .t = &t_s32, .emit = emit_fault_code },
	{ .name = "DTRACEFLT_BADADDR", .t = &t_s32, .emit = emit_fault_code },
	{ .name = "DTRACEFLT_BADALIGN", .t = &t_s32, .emit = emit_fault_code },
	{ .name = "DTRACEFLT_ILLOP", .t = &t_s32, .emit = emit_fault_code },
	{ .name = "DTRACEFLT_DIVZERO", .t = &t_s32, .emit = emit_fault_code },
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
