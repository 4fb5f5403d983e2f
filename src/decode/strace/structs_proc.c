// SPDX-License-Identifier: GPL-2.0
/*
 * Struct printers of process and system state (x86-64 ABI): rlimit,
 * rusage, utsname, sysinfo, tms, sched_param, stack_t, wait statuses,
 * siginfo, CPU sets. Same conventions as structs.c: NULL, the address of
 * memory not captured, or the struct in strace's syntax (-v: every field;
 * JSON: an object with strace's member names).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include <sonde/signal.h>

#include "decode/strace/strace_int.h"
#include "decode/strace/pidname.h"

/* 8192*1024: strace shows limits divisible by 1 KiB that way; infv is
 * the infinity of the caller's ABI (a 32-bit one for i386 callers). */
static void pr_rlim(struct st *s, uint64_t v, uint64_t infv, const char *inf)
{
	char num[24], sym[32];

	if (s->j && v == infv) {
		pr_sym(s, inf);
		return;
	}
	if (s->j || (v != infv && (v <= 1024 || v % 1024))) {
		pr_ulong(s, v);
		return;
	}
	snprintf(num, sizeof(num), "%llu", (unsigned long long)v);
	if (v == infv)
		snprintf(sym, sizeof(sym), "%s", inf);
	else
		snprintf(sym, sizeof(sym), "%llu*1024", (unsigned long long)(v / 1024));
	pr_symexpr(s, num, sym);
}

void ps_rlimit(struct st *s, int phase, uint64_t addr)
{
	uint64_t r[2];

	if (st_fetch(s, phase, addr, r, sizeof(r)))
		pr_rlimit(s, r, UINT64_MAX);
}

void pr_rlimit(struct st *s, const uint64_t r[2], uint64_t infv)
{
	const char *inf = s->sc->nr == 302 ? "RLIM64_INFINITY" : "RLIM_INFINITY";

	st_obj_begin(s);
	st_field(s, "rlim_cur");
	pr_rlim(s, r[0], infv, inf);
	st_field(s, "rlim_max");
	pr_rlim(s, r[1], infv, inf);
	st_obj_end(s);
}

void ps_rusage(struct st *s, int phase, uint64_t addr)
{
	static const char *const names[] = { "ru_maxrss", "ru_ixrss",
		"ru_idrss", "ru_isrss", "ru_minflt", "ru_majflt", "ru_nswap",
		"ru_inblock", "ru_oublock", "ru_msgsnd", "ru_msgrcv",
		"ru_nsignals", "ru_nvcsw", "ru_nivcsw" };
	struct rusage r;
	long v[14];

	if (!st_fetch(s, phase, addr, &r, sizeof(r)))
		return;
	st_obj_begin(s);
	st_field(s, "ru_utime");
	pr_tv_fields(s, &r.ru_utime);
	st_field(s, "ru_stime");
	pr_tv_fields(s, &r.ru_stime);
	if (!s->opt->verbose) {
		st_obj_end_cut(s);
		return;
	}
	/* The 14 longs after the two timevals, in the kernel's order. */
	memcpy(v, &r.ru_maxrss, sizeof(v));
	for (size_t i = 0; i < 14; i++)
		pr_long_field(s, names[i], v[i]);
	st_obj_end(s);
}

void pr_chars_field(struct st *s, const char *name, const void *v, size_t max)
{
	st_field(s, name);
	pr_quoted(s, v, strnlen(v, max), 0, 0, 0);
}

void ps_utsname(struct st *s, int phase, uint64_t addr)
{
	struct utsname u;
	size_t m = sizeof(u.sysname);

	if (!st_fetch(s, phase, addr, &u, sizeof(u)))
		return;
	st_obj_begin(s);
	pr_chars_field(s, "sysname", u.sysname, m);
	pr_chars_field(s, "nodename", u.nodename, m);
	if (!s->opt->verbose) {
		st_obj_end_cut(s);
		return;
	}
	pr_chars_field(s, "release", u.release, m);
	pr_chars_field(s, "version", u.version, m);
	pr_chars_field(s, "machine", u.machine, m);
	pr_chars_field(s, "domainname", u.domainname, m);
	st_obj_end(s);
}

void ps_sysinfo(struct st *s, int phase, uint64_t addr)
{
	struct sysinfo i;

	if (!st_fetch(s, phase, addr, &i, sizeof(i)))
		return;
	st_obj_begin(s);
	pr_long_field(s, "uptime", i.uptime);
	st_field(s, "loads");
	st_arr_begin(s);
	for (int k = 0; k < 3; k++) {
		st_elem(s);
		pr_ulong(s, i.loads[k]);
	}
	st_arr_end(s);
	pr_ulong_field(s, "totalram", i.totalram);
	pr_ulong_field(s, "freeram", i.freeram);
	pr_ulong_field(s, "sharedram", i.sharedram);
	pr_ulong_field(s, "bufferram", i.bufferram);
	pr_ulong_field(s, "totalswap", i.totalswap);
	pr_ulong_field(s, "freeswap", i.freeswap);
	pr_u32_field(s, "procs", i.procs);
	pr_ulong_field(s, "totalhigh", i.totalhigh);
	pr_ulong_field(s, "freehigh", i.freehigh);
	pr_u32_field(s, "mem_unit", i.mem_unit);
	st_obj_end(s);
}

void ps_tms(struct st *s, int phase, uint64_t addr)
{
	struct tms t;

	if (!st_fetch(s, phase, addr, &t, sizeof(t)))
		return;
	st_obj_begin(s);
	pr_long_field(s, "tms_utime", t.tms_utime);
	pr_long_field(s, "tms_stime", t.tms_stime);
	pr_long_field(s, "tms_cutime", t.tms_cutime);
	pr_long_field(s, "tms_cstime", t.tms_cstime);
	st_obj_end(s);
}


void ps_sched_param(struct st *s, int phase, uint64_t addr)
{
	int v;

	if (!st_fetch(s, phase, addr, &v, sizeof(v)))
		return;
	if (!s->j) {
		/* strace 6.1 shows the lone member bare: [0] */
		sb_printf(s->o, "[%d]", v);
		return;
	}
	st_obj_begin(s);
	st_field(s, "sched_priority");
	pr_int(s, (uint64_t)v);
	st_obj_end(s);
}


void ps_stack_t(struct st *s, int phase, uint64_t addr)
{
	stack_t ss;

	if (st_fetch(s, phase, addr, &ss, sizeof(ss)))
		pr_stack_t(s, &ss);
}

void pr_stack_t(struct st *s, const stack_t *p)
{
	stack_t ss = *p;

	st_obj_begin(s);
	st_field(s, "ss_sp");
	pr_addr(s, (uint64_t)(uintptr_t)ss.ss_sp);
	st_field(s, "ss_flags");
	if (ss.ss_flags != SS_ONSTACK && ss.ss_flags != SS_DISABLE)
		pr_hex(s, (unsigned)ss.ss_flags);
	else if (s->j)
		pr_sym(s, ss.ss_flags == SS_ONSTACK ? "SS_ONSTACK" : "SS_DISABLE");
	else /* 0x2 with -X raw, 0x2 / * SS_DISABLE * / with -X verbose */
		pr_symexpr(s, ss.ss_flags == SS_ONSTACK ? "0x1" : "0x2",
			   ss.ss_flags == SS_ONSTACK ? "SS_ONSTACK" : "SS_DISABLE");
	st_field(s, "ss_size");
	pr_ulong(s, ss.ss_size);
	st_obj_end(s);
}

/* A signal by name, or its number. */
static void pr_signum(struct st *s, int sig)
{
	char buf[16];
	const char *n = st_signame(sig, buf, sizeof(buf));

	if (n)
		pr_sym(s, n);
	else
		pr_int(s, (uint64_t)sig);
}

/* JSON: {"WEXITSTATUS":3}, {"WTERMSIG":"SIGKILL","WCOREDUMP":false}... */
static void pr_status_json(struct st *s, int v)
{
	st_obj_begin(s);
	if (WIFEXITED(v)) {
		st_field(s, "WEXITSTATUS");
		pr_int(s, (uint64_t)WEXITSTATUS(v));
	} else if (WIFSIGNALED(v)) {
		st_field(s, "WTERMSIG");
		pr_signum(s, WTERMSIG(v));
		st_field(s, "WCOREDUMP");
		st_jbool(s, WCOREDUMP(v));
	} else if (WIFSTOPPED(v)) {
		st_field(s, "WSTOPSIG");
		pr_signum(s, WSTOPSIG(v));
	} else if (WIFCONTINUED(v)) {
		st_field(s, "WIFCONTINUED");
		st_jbool(s, 1);
	} else {
		st_field(s, "status");
		pr_hex(s, (unsigned)v);
	}
	st_obj_end(s);
}

/* [{WIFEXITED(s) && WEXITSTATUS(s) == 3}] */
static void pr_status(struct st *s, int v)
{
	if (s->j) {
		pr_status_json(s, v);
		return;
	}
	sb_puts(s->o, "[{");
	if (WIFEXITED(v)) {
		sb_printf(s->o, "WIFEXITED(s) && WEXITSTATUS(s) == %d", WEXITSTATUS(v));
	} else if (WIFSIGNALED(v)) {
		sb_puts(s->o, "WIFSIGNALED(s) && WTERMSIG(s) == ");
		pr_signum(s, WTERMSIG(v));
		if (WCOREDUMP(v))
			sb_puts(s->o, " && WCOREDUMP(s)");
	} else if (WIFSTOPPED(v)) {
		sb_puts(s->o, "WIFSTOPPED(s) && WSTOPSIG(s) == ");
		pr_signum(s, WSTOPSIG(v));
	} else if (WIFCONTINUED(v)) {
		sb_puts(s->o, "WIFCONTINUED(s)");
	} else {
		sb_printf(s->o, "%#x", (unsigned)v);
	}
	sb_puts(s->o, "}]");
}

void ps_wait_status(struct st *s, int phase, uint64_t addr)
{
	int v;

	if (st_fetch(s, phase, addr, &v, sizeof(v)))
		pr_status(s, v);
}

/* The fields strace prints for the signal and code, as JSON members. */
static void ps_siginfo_json(struct st *s, const siginfo_t *si)
{
	const char *c = sonde_si_code_name(si->si_signo, si->si_code);

	st_obj_begin(s);
	if (!si->si_signo) {
		st_obj_end(s);
		return;
	}
	st_field(s, "si_signo");
	pr_signum(s, si->si_signo);
	st_field(s, "si_code");
	if (c)
		pr_sym(s, c);
	else
		pr_int(s, (uint64_t)si->si_code);
	if (si->si_signo == SIGCHLD && si->si_code > 0) {
		pr_int_field(s, "si_pid", si->si_pid);
		pr_u32_field(s, "si_uid", si->si_uid);
		st_field(s, "si_status");
		if (si->si_code == CLD_EXITED)
			pr_int(s, (uint64_t)si->si_status);
		else
			pr_sig(s, (uint64_t)si->si_status);
		pr_long_field(s, "si_utime", (long)si->si_utime);
		pr_long_field(s, "si_stime", (long)si->si_stime);
	} else if ((si->si_signo == SIGSEGV || si->si_signo == SIGBUS || si->si_signo == SIGILL ||
		    si->si_signo == SIGFPE || si->si_signo == SIGTRAP) && si->si_code > 0) {
		st_field(s, "si_addr");
		pr_addr(s, (uint64_t)(uintptr_t)si->si_addr);
	} else {
		pr_int_field(s, "si_pid", si->si_pid);
		pr_u32_field(s, "si_uid", si->si_uid);
	}
	st_obj_end(s);
}

/*
 * A siginfo in memory: the text as the signal lines print theirs
 * (libsonde's formatter, strace's field choice by signal and code);
 * its first 48 bytes are struct sonde_siginfo's layout.
 */
void ps_siginfo(struct st *s, int phase, uint64_t addr)
{
	ps_siginfo_named(s, phase, addr, 1);
}

void ps_siginfo_named(struct st *s, int phase, uint64_t addr, int pid_named)
{
	char buf[512], note[4 * SONDE_COMM_LEN + 3];
	struct sonde_siginfo k;
	siginfo_t si;

	if (!st_fetch(s, phase, addr, &si, sizeof(si)))
		return;
	if (s->j) {
		ps_siginfo_json(s, &si);
		return;
	}
	if (!si.si_signo) {
		sb_puts(s->o, "{}");
		return;
	}
	memcpy(&k, &si, sizeof(k));
	sonde_siginfo_format_pid(buf, sizeof(buf), &k, s->opt->xlat,
				 pid_named ? pids_note(s->opt, s->sc->hdr.tid, si.si_pid, s->sc->hdr.ts, note,
						       sizeof(note)) : NULL);
	sb_puts(s->o, buf);
}

/* [0 1]: the CPUs in a cpu_set_t of len bytes (JSON [0,1]). */
void ps_cpuset(struct st *s, int phase, uint64_t addr, uint64_t len)
{
	uint8_t b[128];
	size_t n;
	int first = 1;

	n = len < sizeof(b) ? (size_t)len : sizeof(b);
	if (!st_fetch(s, phase, addr, b, n))
		return;
	st_arr_begin(s);
	for (size_t i = 0; i < n * 8; i++) {
		if (!(b[i / 8] & (1u << (i % 8))))
			continue;
		if (s->j)
			st_juint(s, i);
		else
			sb_printf(s->o, first ? "%zu" : " %zu", i);
		first = 0;
	}
	st_arr_end(s);
}

