// SPDX-License-Identifier: GPL-2.0
/*
 * siginfo the way strace 6.1 prints it. Which fields appear depends on
 * where the signal came from:
 *
 *   si_code <= 0 (sent by a process: kill, tgkill, sigqueue, timers)
 *     SI_USER, SI_TKILL   si_pid, si_uid
 *     SI_TIMER            si_timerid, si_overrun, si_int, si_ptr
 *     others (SI_QUEUE)   si_pid, si_uid, and si_int, si_ptr if si_ptr != 0
 *   si_code > 0 (sent by the kernel), by signal
 *     SIGCHLD             si_pid, si_uid, si_status (a number for
 *                         CLD_EXITED, else a signal), si_utime, si_stime
 *     SIGILL SIGFPE SIGSEGV SIGBUS SIGTRAP      si_addr
 *     SIGPOLL (POLL_IN, POLL_OUT, POLL_MSG)     si_band, si_fd
 *     SIGSYS              si_call_addr, si_syscall, si_arch
 *     others              si_pid, si_uid if either is set; si_int,
 *                         si_ptr if si_ptr != 0
 *
 * preceded by si_signo, si_code and (when not 0) si_errno. Checked
 * against strace 6.1 on Debian 12 for each branch (tests/unit/
 * test_siginfo.c holds the lines it printed). The fields are listed once
 * (siginfo_fields) and written out as text or as JSON.
 */
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sonde/signal.h>
#include <sonde/syscalls.h>

_Static_assert(offsetof(siginfo_t, si_pid) == 16, "siginfo union at offset 16");
_Static_assert(sizeof(struct sonde_siginfo) == 48, "kernel_siginfo is 48 bytes");

#define AUDIT_ARCH_X86_64 0xc000003eu
#define AUDIT_ARCH_I386 0x40000003u

const char *sonde_sig_name(int sig, char *buf, size_t len)
{
	if (sig == 32)
		return "SIGRTMIN";
	if (sig > 32 && sig <= 64) {
		snprintf(buf, len, "SIGRT_%d", sig - 32);
		return buf;
	}
	return sonde_signal_name(sig);
}

#define N(x) [x] = #x
static const char *const si_generic_neg[] = {
	/* -code */
	[1] = "SI_QUEUE", [2] = "SI_TIMER", [3] = "SI_MESGQ", [4] = "SI_ASYNCIO",
	[5] = "SI_SIGIO", [6] = "SI_TKILL", [7] = "SI_DETHREAD", [60] = "SI_ASYNCNL",
};
static const char *const cld_codes[] = { N(CLD_EXITED),	 N(CLD_KILLED),	 N(CLD_DUMPED),
					 N(CLD_TRAPPED), N(CLD_STOPPED), N(CLD_CONTINUED) };
static const char *const segv_codes[] = {
	N(SEGV_MAPERR), N(SEGV_ACCERR), [3] = "SEGV_BNDERR", [4] = "SEGV_PKUERR",
	[5] = "SEGV_ACCADI", [6] = "SEGV_ADIDERR", [7] = "SEGV_ADIPERR",
	[8] = "SEGV_MTEAERR", [9] = "SEGV_MTESERR",
};
static const char *const bus_codes[] = { N(BUS_ADRALN), N(BUS_ADRERR), N(BUS_OBJERR),
					 N(BUS_MCEERR_AR), N(BUS_MCEERR_AO) };
static const char *const ill_codes[] = {
	N(ILL_ILLOPC), N(ILL_ILLOPN), N(ILL_ILLADR), N(ILL_ILLTRP), N(ILL_PRVOPC),
	N(ILL_PRVREG), N(ILL_COPROC), N(ILL_BADSTK), [9] = "ILL_BADIADDR",
};
static const char *const fpe_codes[] = {
	N(FPE_INTDIV), N(FPE_INTOVF), N(FPE_FLTDIV), N(FPE_FLTOVF), N(FPE_FLTUND),
	N(FPE_FLTRES), N(FPE_FLTINV), N(FPE_FLTSUB), [14] = "FPE_FLTUNK", [15] = "FPE_CONDTRAP",
};
static const char *const trap_codes[] = { N(TRAP_BRKPT), N(TRAP_TRACE), [3] = "TRAP_BRANCH",
					  [4] = "TRAP_HWBKPT", [5] = "TRAP_UNK", [6] = "TRAP_PERF" };
static const char *const poll_codes[] = { N(POLL_IN),  N(POLL_OUT), N(POLL_MSG),
					  N(POLL_ERR), N(POLL_PRI), N(POLL_HUP) };
static const char *const sys_codes[] = { [1] = "SYS_SECCOMP", [2] = "SYS_USER_DISPATCH" };
#undef N

#define LOOKUP(t, i) ((i) >= 0 && (size_t)(i) < sizeof(t) / sizeof((t)[0]) ? (t)[i] : NULL)

const char *sonde_si_code_name(int signo, int code)
{
	if (code == SI_USER)
		return "SI_USER";
	if (code == SI_KERNEL)
		return "SI_KERNEL";
	if (code < 0)
		return code > -61 ? LOOKUP(si_generic_neg, -code) : NULL;
	switch (signo) {
	case SIGCHLD: return LOOKUP(cld_codes, code);
	case SIGSEGV: return LOOKUP(segv_codes, code);
	case SIGBUS: return LOOKUP(bus_codes, code);
	case SIGILL: return LOOKUP(ill_codes, code);
	case SIGFPE: return LOOKUP(fpe_codes, code);
	case SIGTRAP: return LOOKUP(trap_codes, code);
	case SIGPOLL: return LOOKUP(poll_codes, code);
	case SIGSYS: return LOOKUP(sys_codes, code);
	}
	return NULL;
}

const char *sonde_sig_result_name(int result)
{
	static const char *const names[] = { "delivered", "ignored", "already_pending",
					     "overflow_fail", "lose_info" };

	return LOOKUP(names, result);
}

/* How a field's value is written. */
enum fkind { F_INT, F_PID, F_UINT, F_HEX, F_LONG, F_PTR, F_SIG, F_CLOCK, F_ERRNO, F_SYSCALL, F_ARCH };

struct field {
	const char *name;
	enum fkind kind;
	int64_t v;
};

#define MAX_FIELDS 8

static unsigned int add(struct field *f, unsigned int n, const char *name, enum fkind k,
			int64_t v)
{
	f[n].name = name;
	f[n].kind = k;
	f[n].v = v;
	return n + 1;
}

static unsigned int f_source(struct field *f, unsigned int n, const siginfo_t *s)
{
	n = add(f, n, "si_pid", F_PID, s->si_pid);
	return add(f, n, "si_uid", F_UINT, s->si_uid);
}

static unsigned int f_value(struct field *f, unsigned int n, const siginfo_t *s)
{
	n = add(f, n, "si_int", F_INT, s->si_int);
	return add(f, n, "si_ptr", F_PTR, (int64_t)(uintptr_t)s->si_ptr);
}

/* The fields after si_signo and si_code (see the table at the top). */
static unsigned int siginfo_fields(const struct sonde_siginfo *raw, struct field *f)
{
	siginfo_t s;
	unsigned int n = 0;

	memset(&s, 0, sizeof(s));
	memcpy(&s, raw, sizeof(*raw));
	if (s.si_errno)
		n = add(f, n, "si_errno", F_ERRNO, s.si_errno);
	if (s.si_code <= 0) {
		if (s.si_code == SI_TIMER) {
			n = add(f, n, "si_timerid", F_HEX, (uint32_t)s.si_timerid);
			n = add(f, n, "si_overrun", F_INT, s.si_overrun);
			return f_value(f, n, &s);
		}
		n = f_source(f, n, &s);
		if (s.si_code != SI_USER && s.si_code != SI_TKILL && s.si_ptr)
			n = f_value(f, n, &s);
		return n;
	}
	switch (s.si_signo) {
	case SIGCHLD:
		n = f_source(f, n, &s);
		n = add(f, n, "si_status", s.si_code == CLD_EXITED ? F_INT : F_SIG, s.si_status);
		n = add(f, n, "si_utime", F_CLOCK, s.si_utime);
		return add(f, n, "si_stime", F_CLOCK, s.si_stime);
	case SIGILL:
	case SIGFPE:
	case SIGSEGV:
	case SIGBUS:
	case SIGTRAP:
		return add(f, n, "si_addr", F_PTR, (int64_t)(uintptr_t)s.si_addr);
	case SIGPOLL:
		if (s.si_code == POLL_IN || s.si_code == POLL_OUT || s.si_code == POLL_MSG) {
			n = add(f, n, "si_band", F_LONG, s.si_band);
			n = add(f, n, "si_fd", F_INT, s.si_fd);
		}
		return n;
	case SIGSYS:
		n = add(f, n, "si_call_addr", F_PTR, (int64_t)(uintptr_t)s.si_call_addr);
		n = add(f, n, "si_syscall", F_SYSCALL, s.si_syscall);
		return add(f, n, "si_arch", F_ARCH, s.si_arch);
	}
	if (s.si_pid || s.si_uid)
		n = f_source(f, n, &s);
	if (s.si_ptr)
		n = f_value(f, n, &s);
	return n;
}

/* A bounded appender: len is what was needed, only cap bytes are kept. */
struct out {
	char *buf;
	size_t cap, len;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->len < o->cap ? o->buf + o->len : NULL,
		      o->len < o->cap ? o->cap - o->len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

/* strace's clock_t: ticks, then the seconds in a comment when not 0. */
static void put_clock(struct out *o, uint64_t v)
{
	long tck = sysconf(_SC_CLK_TCK);
	unsigned int prec = 0;
	uint64_t scale = 1;

	put(o, "%llu", (unsigned long long)v);
	if (!v || tck <= 0)
		return;
	/* decimals = ceil(log10(tck - 1)), at most 9 */
	while (scale < (uint64_t)(tck - 1) && prec < 9) {
		scale *= 10;
		prec++;
	}
	put(o, " /* %llu.%0*llu s */", (unsigned long long)(v / tck), (int)prec,
	    (unsigned long long)(((v % tck) * scale + tck / 2) / tck));
}

/* A named value in strace's -X style (0 abbrev, 1 raw, 2 verbose,
 * enum sonde_xlat_style): SIGKILL, 9, 9 /\* SIGKILL *\/. */
static void put_named(struct out *o, int xlat, const char *num, const char *name)
{
	if (!name || xlat == 1)
		put(o, "%s", num);
	else if (xlat == 2)
		put(o, "%s /* %s */", num, name);
	else
		put(o, "%s", name);
}

static void put_value(struct out *o, const struct field *f, int xlat, const char *after_pid)
{
	char b[16], num[16];
	const char *n;

	switch (f->kind) {
	case F_INT: put(o, "%d", (int)f->v); return;
	case F_PID: put(o, "%d%s", (int)f->v, after_pid ? after_pid : ""); return;
	case F_UINT: put(o, "%u", (unsigned int)f->v); return;
	case F_HEX: put(o, f->v ? "%#x" : "%u", (unsigned int)f->v); return;
	case F_LONG: put(o, "%lld", (long long)f->v); return;
	case F_PTR:
		if (f->v)
			put(o, "%#llx", (unsigned long long)f->v);
		else
			put(o, "NULL");
		return;
	case F_CLOCK: put_clock(o, (uint64_t)f->v); return;
	case F_SIG:
		snprintf(num, sizeof(num), "%d", (int)f->v);
		put_named(o, xlat, num, sonde_sig_name((int)f->v, b, sizeof(b)));
		return;
	case F_ERRNO: n = sonde_errno_name((int)f->v); break;
	case F_SYSCALL:
		n = sonde_syscall_name((unsigned int)f->v);
		if (n) {
			put(o, "__NR_%s", n);
			return;
		}
		break;
	case F_ARCH:
		n = (uint32_t)f->v == AUDIT_ARCH_X86_64 ? "AUDIT_ARCH_X86_64"
		    : (uint32_t)f->v == AUDIT_ARCH_I386 ? "AUDIT_ARCH_I386"
							: NULL;
		if (!n) {
			put(o, "%#x /* AUDIT_ARCH_??? */", (unsigned int)f->v);
			return;
		}
		break;
	default: n = NULL;
	}
	if (n)
		put(o, "%s", n);
	else
		put(o, "%d", (int)f->v);
}

static void put_head(struct out *o, const struct sonde_siginfo *si, int xlat)
{
	char b[16], num[16];

	snprintf(num, sizeof(num), "%d", si->signo);
	put(o, "{si_signo=");
	put_named(o, xlat, num, sonde_sig_name(si->signo, b, sizeof(b)));
	snprintf(num, sizeof(num), si->code ? "%#x" : "0", (unsigned int)si->code);
	put(o, ", si_code=");
	put_named(o, xlat, num, sonde_si_code_name(si->signo, si->code));
}

size_t sonde_siginfo_format(char *buf, size_t len, const struct sonde_siginfo *si)
{
	return sonde_siginfo_format_x(buf, len, si, 0);
}

size_t sonde_siginfo_format_x(char *buf, size_t len, const struct sonde_siginfo *si, int xlat)
{
	return sonde_siginfo_format_pid(buf, len, si, xlat, NULL);
}

size_t sonde_siginfo_format_pid(char *buf, size_t len, const struct sonde_siginfo *si, int xlat,
				const char *after_pid)
{
	struct out o = { buf, len, 0 };
	struct field f[MAX_FIELDS];
	unsigned int n = siginfo_fields(si, f);

	if (len)
		buf[0] = 0;
	put_head(&o, si, xlat);
	for (unsigned int i = 0; i < n; i++) {
		put(&o, ", %s=", f[i].name);
		put_value(&o, &f[i], xlat, after_pid);
	}
	put(&o, "}");
	return o.len;
}

size_t sonde_siginfo_json(char *buf, size_t len, const struct sonde_siginfo *si)
{
	struct out o = { buf, len, 0 };
	struct field f[MAX_FIELDS];
	unsigned int n = siginfo_fields(si, f);
	const char *c = sonde_si_code_name(si->signo, si->code);

	if (len)
		buf[0] = 0;
	put(&o, ",\"si_signo\":%d,\"si_code\":%d", si->signo, si->code);
	if (c)
		put(&o, ",\"si_code_name\":\"%s\"", c);
	for (unsigned int i = 0; i < n; i++) {
		switch (f[i].kind) {
		case F_SIG:
		case F_ERRNO:
		case F_INT:
		case F_PID:
		case F_LONG:
		case F_CLOCK:
			put(&o, ",\"%s\":%lld", f[i].name, (long long)f[i].v);
			break;
		default:
			put(&o, ",\"%s\":%llu", f[i].name,
			    (unsigned long long)(f[i].kind == F_PTR ? (uint64_t)f[i].v
								     : (uint32_t)f[i].v));
		}
	}
	return o.len;
}
