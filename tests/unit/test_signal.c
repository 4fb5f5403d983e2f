// SPDX-License-Identifier: GPL-2.0
/*
 * Signal records: the siginfo formatter against lines strace 6.1 printed
 * on Debian 12 for the same signals, and the signal and signal_generate
 * records in the text, JSON, flight and strace renderers.
 */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <errno.h>
#include <unistd.h>
#include <linux/types.h>

#include <sonde/events.h>
#include <sonde/format.h>
#include <sonde/render.h>
#include <sonde/signal.h>
#include <sonde/strace.h>

#include "check.h"

static struct sonde_siginfo raw(const siginfo_t *s)
{
	struct sonde_siginfo r;

	memcpy(&r, s, sizeof(r));
	return r;
}

static siginfo_t si(int signo, int code)
{
	siginfo_t s;

	memset(&s, 0, sizeof(s));
	s.si_signo = signo;
	s.si_code = code;
	return s;
}

static void check_fmt(const siginfo_t *s, const char *want)
{
	struct sonde_siginfo r = raw(s);
	char buf[256];
	size_t n = sonde_siginfo_format(buf, sizeof(buf), &r);

	CHECK_EQ_STR(buf, want);
	CHECK_EQ_INT(n, strlen(want));
}

/* Each expected string is what strace -f printed for that signal. */
TEST(strace_forms)
{
	siginfo_t s = si(SIGCHLD, CLD_EXITED);

	s.si_pid = 13272;
	s.si_status = 3;
	check_fmt(&s, "{si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=13272, si_uid=0, "
		      "si_status=3, si_utime=0, si_stime=0}");
	s.si_code = CLD_KILLED;
	s.si_status = SIGKILL;
	check_fmt(&s, "{si_signo=SIGCHLD, si_code=CLD_KILLED, si_pid=13272, si_uid=0, "
		      "si_status=SIGKILL, si_utime=0, si_stime=0}");
	s = si(SIGUSR1, SI_USER);
	s.si_pid = 13271;
	check_fmt(&s, "{si_signo=SIGUSR1, si_code=SI_USER, si_pid=13271, si_uid=0}");
	s.si_code = SI_TKILL;
	check_fmt(&s, "{si_signo=SIGUSR1, si_code=SI_TKILL, si_pid=13271, si_uid=0}");
	s = si(34, SI_QUEUE);
	s.si_pid = 13271;
	s.si_value.sival_int = 42;
	check_fmt(&s, "{si_signo=SIGRT_2, si_code=SI_QUEUE, si_pid=13271, si_uid=0, si_int=42, "
		      "si_ptr=0x2a}");
	s = si(35, SI_QUEUE);
	s.si_pid = 27203;
	check_fmt(&s, "{si_signo=SIGRT_3, si_code=SI_QUEUE, si_pid=27203, si_uid=0}");
	s = si(SIGSEGV, SEGV_MAPERR);
	s.si_addr = (void *)0x10;
	check_fmt(&s, "{si_signo=SIGSEGV, si_code=SEGV_MAPERR, si_addr=0x10}");
	s = si(SIGALRM, SI_KERNEL);
	check_fmt(&s, "{si_signo=SIGALRM, si_code=SI_KERNEL}");
	s = si(SIGTRAP, SI_KERNEL);
	check_fmt(&s, "{si_signo=SIGTRAP, si_code=SI_KERNEL, si_addr=NULL}");
	s = si(SIGILL, ILL_ILLOPN);
	s.si_addr = (void *)0x555580c963b5;
	check_fmt(&s, "{si_signo=SIGILL, si_code=ILL_ILLOPN, si_addr=0x555580c963b5}");
	s = si(SIGIO, POLL_IN);
	s.si_band = 65;
	s.si_fd = 3;
	check_fmt(&s, "{si_signo=SIGIO, si_code=POLL_IN, si_band=65, si_fd=3}");
	s = si(SIGUSR1, SI_ASYNCNL);
	s.si_errno = 13;
	s.si_pid = 5;
	s.si_uid = 7;
	check_fmt(&s, "{si_signo=SIGUSR1, si_code=SI_ASYNCNL, si_errno=EACCES, si_pid=5, si_uid=7}");
	s = si(SIGSYS, 1);
	s.si_call_addr = (void *)0x7f0d6f073829;
	s.si_syscall = 39;
	s.si_arch = 0xc000003e;
	check_fmt(&s, "{si_signo=SIGSYS, si_code=SYS_SECCOMP, si_call_addr=0x7f0d6f073829, "
		      "si_syscall=__NR_getpid, si_arch=AUDIT_ARCH_X86_64}");
}

TEST(timer_and_clock_ticks)
{
	siginfo_t s;
	struct sonde_siginfo r;
	char buf[256];

	/* A POSIX timer's fields sit where si_pid and si_uid are. */
	s = si(SIGALRM, SI_TIMER);
	memset(&r, 0, sizeof(r));
	r.signo = SIGALRM;
	r.code = SI_TIMER;
	r.fields[1] = 7; /* si_value */
	sonde_siginfo_format(buf, sizeof(buf), &r);
	CHECK_EQ_STR(buf, "{si_signo=SIGALRM, si_code=SI_TIMER, si_timerid=0, si_overrun=0, "
			  "si_int=7, si_ptr=0x7}");
	/* strace: si_utime=35 /\* 0.35 s *\/ with 100 ticks per second */
	if (sysconf(_SC_CLK_TCK) == 100) {
		s = si(SIGCHLD, CLD_EXITED);
		s.si_pid = 27206;
		s.si_utime = 35;
		s.si_stime = 1;
		check_fmt(&s, "{si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=27206, si_uid=0, "
			      "si_status=0, si_utime=35 /* 0.35 s */, si_stime=1 /* 0.01 s */}");
	}
}

TEST(names_and_bounds)
{
	struct sonde_siginfo r = { .signo = 99, .code = 12345 };
	char b[16], small[8];
	size_t n;

	CHECK_EQ_STR(sonde_sig_name(32, b, sizeof(b)), "SIGRTMIN");
	CHECK_EQ_STR(sonde_sig_name(64, b, sizeof(b)), "SIGRT_32");
	CHECK(sonde_sig_name(65, b, sizeof(b)) == NULL);
	CHECK(sonde_sig_name(0, b, sizeof(b)) == NULL);
	CHECK_EQ_STR(sonde_si_code_name(SIGCHLD, 6), "CLD_CONTINUED");
	CHECK(sonde_si_code_name(SIGCHLD, 7) == NULL);
	CHECK(sonde_si_code_name(SIGUSR1, -1000) == NULL);
	CHECK_EQ_STR(sonde_sig_result_name(SONDE_SIG_IGNORED), "ignored");
	CHECK(sonde_sig_result_name(-1) == NULL);
	/* Hostile values: no name, numbers instead, and truncation. */
	n = sonde_siginfo_format(small, sizeof(small), &r);
	CHECK_EQ_STR(small, "{si_sig");
	CHECK(n > sizeof(small));
}

static char *render(const char *name, const struct sonde_hdr *const *recs, size_t n)
{
	struct sonde_render_opts o = { .ts = SONDE_TS_NONE };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sonde_render *r;

	CHECK_EQ_INT(sonde_render_open(&r, name, f, NULL, &o), 0);
	for (size_t i = 0; i < n; i++)
		CHECK_EQ_INT(sonde_render_record(r, recs[i]), 0);
	CHECK_EQ_INT(sonde_render_close(r), 0);
	fclose(f);
	return buf;
}

static struct sonde_ev_signal sigrec(int type, uint32_t tid, int signo, int code)
{
	struct sonde_ev_signal e;

	memset(&e, 0, sizeof(e));
	e.hdr.type = type;
	e.hdr.size = sizeof(e);
	e.hdr.ts = 1000000000ull + tid;
	e.hdr.pid = tid;
	e.hdr.tid = tid;
	e.si.signo = signo;
	e.si.code = code;
	return e;
}

TEST(renderers)
{
	struct sonde_ev_signal d = sigrec(SONDE_REC_SIGNAL, 100, SIGCHLD, CLD_EXITED);
	struct sonde_ev_signal g = sigrec(SONDE_REC_SIGGEN, 101, SIGTERM, SI_USER);
	const struct sonde_hdr *recs[] = { &d.hdr, &g.hdr };
	char *out;

	d.si.fields[0] = 200;  /* si_pid 200, si_uid 0 */
	d.si.fields[1] = 3;    /* si_status */
	d.handler = 0x401000;
	g.si.fields[0] = 100;
	g.sender_pid = 100;
	g.sender_tid = 102;
	g.result = SONDE_SIG_DELIVERED;
	g.hdr.flags = SONDE_SIG_GROUP | SONDE_SIG_EXITING;
	out = render("text", recs, 2);
	CHECK_EQ_STR(out, "[pid   100] --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, "
			  "si_pid=200, si_uid=0, si_status=3, si_utime=0, si_stime=0} ---\n"
			  "[pid   101] --- sent SIGTERM {si_signo=SIGTERM, si_code=SI_USER, "
			  "si_pid=100, si_uid=0} by 100/102 to the process: delivered, "
			  "process exiting ---\n");
	free(out);
	out = render("json", recs, 2);
	CHECK(out && strstr(out, "{\"type\":\"signal\",\"ts\":1000000100,\"cpu\":0,\"pid\":100,"
				 "\"tid\":100,\"signal\":\"SIGCHLD\",\"si_signo\":17,\"si_code\":1,"
				 "\"si_code_name\":\"CLD_EXITED\",\"si_pid\":200,\"si_uid\":0,"
				 "\"si_status\":3,\"si_utime\":0,\"si_stime\":0,"
				 "\"handler\":4198400,\"sa_flags\":0,\"noinfo\":false}\n"));
	CHECK(out && strstr(out, "\"type\":\"signal_generate\"") &&
	      strstr(out, "\"sender_pid\":100,\"sender_tid\":102,\"result\":\"delivered\","
			  "\"group\":true,\"exiting\":true}\n"));
	free(out);
	out = render("flight", recs, 2);
	CHECK(out && strstr(out, " #0 100 (SIGNAL) SIGCHLD code=CLD_EXITED\n") &&
	      strstr(out, " #0 101 (SIGSEND) SIGTERM code=SI_USER from 100/102 delivered\n"));
	free(out);
}

static char *strace_lines(const char *sigopt, const struct sonde_hdr *const *recs, size_t n)
{
	struct sonde_strace_opts o;
	struct sonde_strace *st;
	char *buf = NULL, err[128];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	sonde_strace_opts_init(&o);
	o.pid_prefix = 1;
	if (sigopt)
		CHECK_EQ_INT(sonde_strace_opt(&o, 'e', sigopt, err, sizeof(err)), 0);
	st = sonde_strace_new(&o, f);
	for (size_t i = 0; i < n; i++)
		CHECK_EQ_INT(sonde_strace_feed(st, recs[i]), 0);
	CHECK_EQ_INT(sonde_strace_flush(st), 0);
	sonde_strace_free(st);
	fclose(f);
	return buf;
}

/*
 * What a ptracer would have seen: deliveries; signals the kernel dropped
 * as ignored at send time; a fatal default action (sent, group exiting);
 * never SIGKILL, nor a send that was simply queued (its delivery shows).
 */
TEST(strace_shows_what_ptrace_sees)
{
	struct sonde_ev_signal ign = sigrec(SONDE_REC_SIGGEN, 10, SIGCHLD, CLD_EXITED);
	struct sonde_ev_signal queued = sigrec(SONDE_REC_SIGGEN, 11, SIGUSR1, SI_USER);
	struct sonde_ev_signal dlv = sigrec(SONDE_REC_SIGNAL, 12, SIGUSR1, SI_USER);
	struct sonde_ev_signal fatal = sigrec(SONDE_REC_SIGGEN, 13, SIGTERM, SI_USER);
	struct sonde_ev_signal kill = sigrec(SONDE_REC_SIGNAL, 14, SIGKILL, SI_USER);
	struct sonde_ev_signal dying = sigrec(SONDE_REC_SIGGEN, 15, SIGUSR2, SI_USER);
	const struct sonde_hdr *recs[] = { &ign.hdr, &queued.hdr, &dlv.hdr,
					   &fatal.hdr, &kill.hdr, &dying.hdr };
	char *out;

	ign.result = SONDE_SIG_IGNORED;
	ign.si.fields[0] = 99;
	fatal.hdr.flags = SONDE_SIG_EXITING | SONDE_SIG_GROUP;
	kill.hdr.flags = SONDE_SIG_NOINFO;
	dying.result = SONDE_SIG_IGNORED;
	dying.hdr.flags = SONDE_SIG_EXITING;
	out = strace_lines(NULL, recs, 6);
	CHECK_EQ_STR(out, "10    --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=99, "
			  "si_uid=0, si_status=0, si_utime=0, si_stime=0} ---\n"
			  "12    --- SIGUSR1 {si_signo=SIGUSR1, si_code=SI_USER, si_pid=0, "
			  "si_uid=0} ---\n"
			  "13    --- SIGTERM {si_signo=SIGTERM, si_code=SI_USER, si_pid=0, "
			  "si_uid=0} ---\n");
	free(out);
	out = strace_lines("signal=!SIGCHLD,15", recs, 6);
	CHECK_EQ_STR(out, "12    --- SIGUSR1 {si_signo=SIGUSR1, si_code=SI_USER, si_pid=0, "
			  "si_uid=0} ---\n");
	free(out);
	out = strace_lines("signal=none", recs, 6);
	CHECK_EQ_STR(out, "");
	free(out);
}

TEST(strace_signal_option_errors)
{
	struct sonde_strace_opts o;
	char err[128];

	sonde_strace_opts_init(&o);
	CHECK_EQ_INT(sonde_strace_opt(&o, 'e', "signal=SIGNOPE", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "SIGNOPE") != NULL);
	CHECK_EQ_INT(sonde_strace_opt(&o, 'e', "signal=65", err, sizeof(err)), -EINVAL);
	CHECK_EQ_INT(sonde_strace_opt(&o, 'e', "signal=usr1,SIGRT_2", err, sizeof(err)), 0);
	CHECK_EQ_INT((o.sig_hide >> (SIGUSR1 - 1)) & 1, 0);
	CHECK_EQ_INT((o.sig_hide >> (34 - 1)) & 1, 0);
	CHECK_EQ_INT((o.sig_hide >> (SIGCHLD - 1)) & 1, 1);
}

int main(void)
{
	RUN(strace_forms);
	RUN(timer_and_clock_ticks);
	RUN(names_and_bounds);
	RUN(renderers);
	RUN(strace_shows_what_ptrace_sees);
	RUN(strace_signal_option_errors);
	return check_any_failed_;
}
