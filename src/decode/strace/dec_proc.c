// SPDX-License-Identifier: GPL-2.0
/*
 * Decoders of process and scheduling syscalls: clone/clone3, execve and
 * execveat, wait4/waitid, arch_prctl, prlimit64, affinity, groups,
 * nanosleep. prctl is in dec_prctl.c, futex and the signal calls in
 * dec_sig.c.
 */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "decode/strace/strace_int.h"
#include <sonde/payload.h>

#define CSIGNAL_MASK 0xffULL

/* CLONE_VM|CLONE_FS|SIGCHLD; JSON ["CLONE_VM","CLONE_FS","SIGCHLD"]. */
static void pr_clone_flags(struct st *s, uint64_t f)
{
	uint64_t rest = f & ~CSIGNAL_MASK;
	struct st_cap c;
	struct st *t = st_cap_begin(s, &c);

	if (rest || !(f & CSIGNAL_MASK))
		pr_flags(t, &x_clone_flags, rest, "CLONE_???");
	if (f & CSIGNAL_MASK) {
		if (rest)
			sb_putc(t->o, '|');
		pr_sig(t, f & CSIGNAL_MASK);
	}
	st_cap_flags(s, &c);
}

/* strace names clone's arguments in its text ("flags=") and prints them
 * out of order: argument i comes next, with its text label. */
static void clone_arg(struct st *s, int i, const char *label)
{
	if (s->j) {
		st_sep_at(s, i);
		return;
	}
	if (strcmp(label, "child_stack"))
		sb_puts(s->o, ", ");
	sb_puts(s->o, label);
	sb_putc(s->o, '=');
}

/* The pidfd CLONE_PIDFD stored: [3<anon_inode:[pidfd]>] with -y. */
static void pr_pidfd(struct st *s, int fd)
{
	if (s->j) {
		st_jint(s, fd);
		return;
	}
	sb_putc(s->o, '[');
	pr_fd(s, fd);
	sb_putc(s->o, ']');
}

/* x86-64 clone(flags, stack, parent_tid, child_tid, tls); i386's
 * (events.h, SONDE_SC_COMPAT) passes tls before child_tid. */
void dec_clone(struct st *s)
{
	uint64_t f = st_arg(s, 0);
	int i386 = !!(s->sc->hdr.flags & SONDE_SC_COMPAT), ctid = 3 + i386, tls = 4 - i386;

	s->rkind = R_CHILD;
	clone_arg(s, 1, "child_stack");
	pr_addr(s, st_arg(s, 1));
	clone_arg(s, 0, "flags");
	pr_clone_flags(s, f);
	if (f & (CLONE_PARENT_SETTID | CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID |
		 CLONE_SETTLS | CLONE_PIDFD))
		st_entry_end(s);
	if (f & (CLONE_PARENT_SETTID | CLONE_PIDFD)) {
		int v;

		/* With CLONE_PIDFD the kernel stores the pidfd there. */
		clone_arg(s, 2, "parent_tid");
		if (st_ok(s) && (f & CLONE_PIDFD) && st_peek(s, SONDE_PL_EXIT, st_arg(s, 2), &v, 4))
			pr_pidfd(s, v);
		else if (st_ok(s))
			ps_child(s, SONDE_PL_EXIT, st_arg(s, 2));
		else
			pr_addr(s, st_arg(s, 2));
	}
	if (f & CLONE_SETTLS) {
		clone_arg(s, tls, "tls");
		pr_addr(s, st_arg(s, tls));
	}
	if (f & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)) {
		clone_arg(s, ctid, "child_tidptr");
		pr_addr(s, st_arg(s, ctid));
	}
}

struct clone_args_k {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack,
		stack_size, tls, set_tid, set_tid_size, cgroup;
};

/* What clone3 wrote back: " => {pidfd=[3], parent_tid=[1234]}" after the
 * struct; JSON "result":{"pidfd":3,"parent_tid":1234}. */
static void clone3_out(struct st *s, const struct clone_args_k *ca)
{
	struct strbuf b;
	struct st t;
	int v;

	if (s->j) {
		st_res_begin(s, &t, &b, NULL);
	} else {
		t = *s;
		sb_puts(s->o, " => ");
	}
	if (!s->j)
		st_obj_begin(&t);
	if (ca->flags & CLONE_PIDFD) {
		st_field(&t, "pidfd");
		if (!st_peek(&t, SONDE_PL_EXIT, ca->pidfd, &v, sizeof(v)))
			pr_unfetched(&t, SONDE_PL_EXIT, ca->pidfd);
		else
			pr_pidfd(&t, v);
	}
	if (ca->flags & CLONE_PARENT_SETTID) {
		st_field(&t, "parent_tid");
		ps_child(&t, SONDE_PL_EXIT, ca->parent_tid);
	}
	if (!s->j)
		st_obj_end(&t);
	if (s->j)
		st_res_end(s, &t, &b);
}

void dec_clone3(struct st *s)
{
	struct clone_args_k ca = { 0 };
	uint64_t a = st_arg(s, 0), size = st_arg(s, 1);
	size_t n = size < sizeof(ca) ? (size_t)size : sizeof(ca);

	s->rkind = R_CHILD;
	if (n < 64 || !st_fetch(s, SONDE_PL_ENTRY, a, &ca, n)) {
		if (n < 64)
			pr_unfetched(s, SONDE_PL_ENTRY, a);
		st_sep(s);
		pr_ulong(s, size);
		return;
	}
	st_obj_begin(s);
	st_field(s, "flags");
	pr_flags(s, &x_clone_flags, ca.flags, "CLONE_???");
	if (ca.flags & CLONE_PIDFD) {
		st_field(s, "pidfd");
		pr_addr(s, ca.pidfd);
	}
	if (ca.flags & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)) {
		st_field(s, "child_tid");
		pr_addr(s, ca.child_tid);
	}
	if (ca.flags & CLONE_PARENT_SETTID) {
		st_field(s, "parent_tid");
		pr_addr(s, ca.parent_tid);
	}
	st_field(s, "exit_signal");
	pr_sig(s, ca.exit_signal);
	st_field(s, "stack");
	pr_addr(s, ca.stack);
	st_field(s, "stack_size");
	pr_hex(s, ca.stack_size);
	if (ca.flags & CLONE_SETTLS) {
		st_field(s, "tls");
		pr_addr(s, ca.tls);
	}
	if (n >= 80 && ca.set_tid_size) {
		st_field(s, "set_tid");
		pr_hex(s, ca.set_tid);
		st_field(s, "set_tid_size");
		pr_ulong(s, ca.set_tid_size);
	}
	if (n >= 88 && (ca.flags & 0x200000000ULL)) {
		st_field(s, "cgroup");
		pr_ulong(s, ca.cgroup);
	}
	st_obj_end(s);
	if (ca.flags & (CLONE_PARENT_SETTID | CLONE_PIDFD))
		st_entry_end(s);
	if (st_ok(s) && (ca.flags & (CLONE_PARENT_SETTID | CLONE_PIDFD)))
		clone3_out(s, &ca);
	st_sep(s);
	pr_ulong(s, size);
}

/*
 * A NULL-terminated pointer array (argv, envp) as captured: have pointers
 * before its NULL, or before the cut of a long one (payload.h,
 * SONDE_STRV_MAX), and n elements in all, at least n when more.
 */
struct strv {
	long have; /* -1: not captured */
	long n;
	int more;
};

/* Element i of the pointer array at a, in the call's ABI. */
static int strv_elem(struct st *s, uint64_t a, uint64_t i, uint64_t *ptr)
{
	unsigned int psz = st_ptr_size(s->sc);

	*ptr = 0;
	return st_peek(s, SONDE_PL_ENTRY, a + i * psz, ptr, psz);
}

static void strv_get(struct st *s, uint64_t a, struct strv *v)
{
	unsigned int psz = st_ptr_size(s->sc);
	const struct sonde_payload *p = sonde_call_mem(s->c, SONDE_PL_ENTRY, a, psz);
	uint64_t ptr;

	*v = (struct strv){ .have = -1, .n = -1 };
	if (!p || (p->flags & SONDE_PLF_UNREADABLE) || !st_deref(s))
		return;
	for (v->have = 0; strv_elem(s, a, (uint64_t)v->have, &ptr); v->have++)
		if (!ptr) {
			v->n = v->have;
			return;
		}
	/* Cut: the recorder counted it (requested) up to a limit; a trace
	 * of an older sonde only says it had more. */
	v->n = v->have;
	v->more = 1;
	if (p->addr != a || p->requested / psz <= (uint64_t)v->have)
		return;
	if (p->requested == UINT32_MAX) {
		v->n = SONDE_STRV_COUNT_MAX;
		return;
	}
	v->n = p->requested / psz - 1;
	v->more = 0;
}

/*
 * JSON "result":{"argv_count":N}: a cut array's length, so that its
 * elements are not taken for all of it ("argv_count_min" when the
 * recorder stopped counting, or a trace of an older sonde did not).
 */
static void strv_count_result(struct st *s, const char *name, const struct strv *v)
{
	char key[32];
	struct strbuf b;
	struct st t;

	if (!s->j || v->have < 0 || (v->have == v->n && !v->more))
		return;
	snprintf(key, sizeof(key), "%s_count%s", name, v->more ? "_min" : "");
	st_res_begin(s, &t, &b, key);
	st_juint(&t, (uint64_t)v->n);
	st_res_end(s, &t, &b);
}

/* ["ls", "-l"]: at most -s elements, then "..."; "..." too where a long
 * array was cut (strace -v would go on). */
static void pr_str_array(struct st *s, uint64_t a, const char *name)
{
	struct strv v;
	uint64_t p;
	long i;

	if (!a) {
		pr_addr(s, 0);
		return;
	}
	strv_get(s, a, &v);
	if (v.have < 0) {
		pr_unfetched(s, SONDE_PL_ENTRY, a);
		return;
	}
	st_arr_begin(s);
	for (i = 0; i < v.have && !st_array_cut(s, (uint64_t)i); i++) {
		st_elem(s);
		strv_elem(s, a, (uint64_t)i, &p);
		pr_cstr(s, SONDE_PL_ENTRY, p);
	}
	/* Text only: JSON has all it has, and the count below. */
	if (i < v.have || v.n > v.have || v.more) {
		st_elem(s);
		sb_puts(s->o, "...");
	}
	st_arr_end(s);
	strv_count_result(s, name, &v);
}

/* 0x7ffd... followed by strace's comment with the count, unless -v. */
static void pr_envp(struct st *s, uint64_t a)
{
	struct strv v;

	if (s->opt->verbose || !a) {
		pr_str_array(s, a, "envp");
		return;
	}
	pr_addr(s, a);
	strv_get(s, a, &v);
	if (v.n >= 0)
		sb_printf(s->o, " /* %s%ld var%s */", v.more ? "at least " : "", v.n,
			  v.n == 1 ? "" : "s");
}

/*
 * JSON "result":{"argv_from_exec":[0,2]}: the argv elements the recorder
 * could not read at entry, whose strings come from the exec record the
 * call produced (execargv.h). Text shows them as strace does.
 */
static void argv_from_exec(struct st *s, uint64_t a)
{
	const struct sonde_payload *q;
	struct strbuf b;
	struct st t;
	uint64_t p;
	int open = 0;

	if (!s->j || !a)
		return;
	for (unsigned int i = 0; strv_elem(s, a, i, &p) && p; i++) {
		q = sonde_call_mem(s->c, SONDE_PL_ENTRY, p, 0);
		if (!q || !(q->flags & SONDE_PLF_EXEC))
			continue;
		if (!open) {
			st_res_begin(s, &t, &b, "argv_from_exec");
			st_arr_begin(&t);
			open = 1;
		}
		st_elem(&t);
		st_juint(&t, i);
	}
	if (open) {
		st_arr_end(&t);
		st_res_end(s, &t, &b);
	}
}

/* JSON "result":{"path_from_exec":true}: the same for execve's path. */
static void path_from_exec(struct st *s, uint64_t a)
{
	const struct sonde_payload *q;
	struct strbuf b;
	struct st t;

	if (!s->j || !a)
		return;
	q = sonde_call_mem(s->c, SONDE_PL_ENTRY, a, 0);
	if (!q || !(q->flags & SONDE_PLF_EXEC))
		return;
	st_res_begin(s, &t, &b, "path_from_exec");
	st_jbool(&t, 1);
	st_res_end(s, &t, &b);
}

void dec_execve(struct st *s)
{
	pr_path(s, st_arg(s, 0));
	st_sep(s);
	pr_str_array(s, st_arg(s, 1), "argv");
	st_sep(s);
	pr_envp(s, st_arg(s, 2));
	path_from_exec(s, st_arg(s, 0));
	argv_from_exec(s, st_arg(s, 1));
}

void dec_execveat(struct st *s)
{
	pr_dirfd(s, st_arg(s, 0));
	st_sep(s);
	pr_path(s, st_arg(s, 1));
	st_sep(s);
	pr_str_array(s, st_arg(s, 2), "argv");
	st_sep(s);
	pr_envp(s, st_arg(s, 3));
	st_sep(s);
	pr_flags(s, &x_at_flags, (uint32_t)st_arg(s, 4), "AT_???");
	argv_from_exec(s, st_arg(s, 2));
}

/* pid, the status the call stored, options: wait4's first three, all of
 * i386's waitpid. */
static void pr_wait_pid_status(struct st *s)
{
	uint64_t st_addr = st_arg(s, 1);

	/* (its result, the child reaped, is gone from /proc: no -Y name) */
	pr_pid(s, st_arg(s, 0));
	st_sep(s);
	st_entry_end(s);
	if (st_ok(s) && s->ret && st_addr)
		ps_wait_status(s, SONDE_PL_EXIT, st_addr);
	else
		pr_addr(s, st_addr);
	st_sep(s);
	pr_flags(s, &x_wait_opts, (uint32_t)st_arg(s, 2), "W???");
}

void dec_waitpid(struct st *s)
{
	pr_wait_pid_status(s);
}

void dec_wait4(struct st *s)
{
	uint64_t ru = st_arg(s, 3);

	pr_wait_pid_status(s);
	st_sep(s);
	if (st_ok(s) && s->ret > 0)
		ps_rusage(s, SONDE_PL_EXIT, ru);
	else
		pr_addr(s, ru);
}

void dec_waitid(struct st *s)
{
	uint32_t idtype = (uint32_t)st_arg(s, 0);

	pr_xval(s, &x_idtype, idtype, "P_???");
	st_sep(s);
	if (idtype == P_PID)
		pr_pid(s, st_arg(s, 1));
	else
		pr_int(s, st_arg(s, 1));
	st_sep(s);
	st_entry_end(s);
	/* The child it reaped is gone from /proc (-Y), unless WNOWAIT. */
	if (st_ok(s))
		ps_siginfo_named(s, SONDE_PL_EXIT, st_arg(s, 2), !!(st_arg(s, 3) & WNOWAIT));
	else
		pr_addr(s, st_arg(s, 2));
	st_sep(s);
	pr_flags(s, &x_wait_opts, (uint32_t)st_arg(s, 3), "W???");
	st_sep(s);
	if (st_ok(s))
		ps_rusage(s, SONDE_PL_EXIT, st_arg(s, 4));
	else
		pr_addr(s, st_arg(s, 4));
}

void dec_arch_prctl(struct st *s)
{
	uint32_t code = (uint32_t)st_arg(s, 0);

	pr_xval(s, &x_arch_prctl, code, "ARCH_???");
	st_sep(s);
	if (code == 0x1003 || code == 0x1004)
		st_entry_end(s);
	if ((code == 0x1003 || code == 0x1004) && st_ok(s)) {
		uint64_t v;

		if (!st_fetch(s, SONDE_PL_EXIT, st_arg(s, 1), &v, sizeof(v)))
			return;
		if (s->j)
			pr_addr(s, v);
		else
			sb_printf(s->o, "[%#llx]", (unsigned long long)v);
		return;
	}
	pr_addr(s, st_arg(s, 1));
}

void dec_prlimit64(struct st *s)
{
	pr_pid(s, st_arg(s, 0));
	st_sep(s);
	pr_xval(s, &x_rlimit, (uint32_t)st_arg(s, 1), "RLIMIT_???");
	st_sep(s);
	ps_rlimit(s, SONDE_PL_ENTRY, st_arg(s, 2));
	st_sep(s);
	st_entry_end(s);
	if (st_ok(s))
		ps_rlimit(s, SONDE_PL_EXIT, st_arg(s, 3));
	else
		pr_addr(s, st_arg(s, 3));
}

void dec_getrandom(struct st *s)
{
	st_entry_end(s);
	if (st_ok(s))
		pr_buf(s, SONDE_PL_EXIT, st_arg(s, 0), (uint64_t)s->ret, 1);
	else
		pr_addr(s, st_arg(s, 0));
	st_sep(s);
	pr_ulong(s, st_arg(s, 1));
	st_sep(s);
	pr_flags(s, &x_getrandom, (uint32_t)st_arg(s, 2), "GRND_???");
}

void dec_sched_getaffinity(struct st *s)
{
	pr_pid(s, st_arg(s, 0));
	st_sep(s);
	pr_ulong(s, st_arg(s, 1));
	st_sep(s);
	st_entry_end(s);
	if (st_ok(s))
		ps_cpuset(s, SONDE_PL_EXIT, st_arg(s, 2), (uint64_t)s->ret);
	else
		pr_addr(s, st_arg(s, 2));
}

void dec_sched_setaffinity(struct st *s)
{
	pr_pid(s, st_arg(s, 0));
	st_sep(s);
	pr_ulong(s, st_arg(s, 1));
	st_sep(s);
	ps_cpuset(s, SONDE_PL_ENTRY, st_arg(s, 2), st_arg(s, 1));
}

void dec_getgroups(struct st *s)
{
	uint64_t n = (uint32_t)st_arg(s, 0);

	pr_int(s, n);
	st_sep(s);
	st_entry_end(s);
	/* With size 0 the call only counts: strace shows an empty list. */
	if (st_ok(s))
		pr_mem_array(s, SONDE_PL_EXIT, st_arg(s, 1),
			     n < (uint64_t)s->ret ? n : (uint64_t)s->ret, 4, pr_uint);
	else
		pr_addr(s, st_arg(s, 1));
}

void dec_setgroups(struct st *s)
{
	uint64_t n = (uint32_t)st_arg(s, 0);

	pr_int(s, n);
	st_sep(s);
	pr_mem_array(s, SONDE_PL_ENTRY, st_arg(s, 1), n, 4, pr_uint);
}

/*
 * The remaining time is written only when a signal cut the sleep short:
 * the call then ends with a restart code (ERESTART_RESTARTBLOCK; the
 * kernel turns it into EINTR for a handler only after sys_exit).
 */
/* The timespec of the call's ABI: 32-bit longs in an i386 nanosleep or
 * clock_nanosleep (events.h). */
static void ps_sleep_ts(struct st *s, int phase, uint64_t a)
{
	if (s->sc->hdr.flags & SONDE_SC_COMPAT)
		ps_timespec_i386(s, phase, a);
	else
		ps_timespec(s, phase, a);
}

static void pr_rem(struct st *s, uint64_t a)
{
	if ((s->err >= 512 && s->err <= 514) || s->err == 516)
		ps_sleep_ts(s, SONDE_PL_EXIT, a);
	else
		pr_addr(s, a);
}

/* <... resuming interrupted clock_nanosleep ...>: the thread's call
 * before, which a stop signal cut short. */
void dec_restart_syscall(struct st *s)
{
	const char *name = s->c->prev_call ? sonde_syscall_name(s->c->prev_call - 1) : NULL;

	struct strbuf b;
	struct st t;

	if (!name)
		name = "system call";
	if (!s->j) {
		sb_printf(s->o, "<... resuming interrupted %s ...>", name);
		return;
	}
	/* JSON: the call takes no argument; what it resumes is a result. */
	st_res_begin(s, &t, &b, "resuming");
	pr_sym(&t, name);
	st_res_end(s, &t, &b);
}

void dec_nanosleep(struct st *s)
{
	ps_sleep_ts(s, SONDE_PL_ENTRY, st_arg(s, 0));
	st_sep(s);
	st_entry_end(s);
	pr_rem(s, st_arg(s, 1));
}

void dec_clock_nanosleep(struct st *s)
{
	pr_clockid(s, st_arg(s, 0));
	st_sep(s);
	pr_flags(s, &x_timer_flags, (uint32_t)st_arg(s, 1), "TIMER_???");
	st_sep(s);
	ps_sleep_ts(s, SONDE_PL_ENTRY, st_arg(s, 2));
	st_sep(s);
	st_entry_end(s);
	pr_rem(s, st_arg(s, 3));
}
