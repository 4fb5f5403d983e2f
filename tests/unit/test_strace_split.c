// SPDX-License-Identifier: GPL-2.0
/*
 * strace's "<unfinished ...>" / "<... NAME resumed>" split, replayed from
 * one record per call (entry time + duration): a call is cut when a line
 * of another task is printed between its entry and its exit, at the
 * place strace stops printing at entry (input arguments before, output
 * arguments after). Expected texts are strace 6.1's on this machine.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>

#include "check.h"
#include "test_strace_util.h"

static struct tcall T;
static char out[65536];
static FILE *f;

static struct sonde_strace *open_out(struct sonde_strace_opts *o)
{
	memset(out, 0, sizeof(out));
	f = fmemopen(out, sizeof(out) - 1, "w");
	return sonde_strace_new(o, f);
}

static const char *close_out(struct sonde_strace *st)
{
	CHECK_EQ_INT(sonde_strace_flush(st), 0);
	sonde_strace_free(st);
	fclose(f);
	return out;
}

/* A call of tid entering at ts (µs) and lasting dur (µs). */
static void call(struct sonde_strace *st, uint32_t tid, uint64_t ts, uint64_t dur)
{
	CHECK_EQ_INT(tc_feed(st, &T, tid, tid, ts, dur), 0);
}

static struct sonde_strace *opts_pid(struct sonde_strace_opts *o)
{
	sonde_strace_opts_init(o);
	o->pid_prefix = 1;
	return open_out(o);
}

/* read prints its fd at entry, the data and count at exit; write prints
 * everything at entry. */
TEST(read_cut_by_write)
{
	struct sonde_strace_opts o;
	struct sonde_strace *st = opts_pid(&o);

	tc_new(&T, SYS_read, 4, 3, 0x1000, 4, 0, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x1000, "data", 4);
	call(st, 100, 10, 50);
	tc_new(&T, SYS_write, 3, 1, 0x2000, 3, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x2000, "hi\n", 3);
	call(st, 200, 20, 1);
	tc_new(&T, SYS_close, 0, 3, 0, 0, 0, 0, 0);
	call(st, 100, 70, 1);
	CHECK_EQ_STR(close_out(st),
		     "100   read(3,  <unfinished ...>\n"
		     "200   write(1, \"hi\\n\", 3)               = 3\n"
		     "100   <... read resumed>\"data\", 4)      = 4\n"
		     "100   close(3)                          = 0\n");
}

/* A write cut: all its arguments before the cut, ")" after. */
TEST(write_cut_and_nested)
{
	struct sonde_strace_opts o;
	struct sonde_strace *st = opts_pid(&o);

	tc_new(&T, SYS_write, 2, 1, 0x2000, 2, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x2000, "1\n", 2);
	call(st, 100, 10, 100);
	tc_new(&T, SYS_wait4, 300, -1, 0, 0, 0, 0, 0);
	call(st, 200, 20, 200);
	tc_new(&T, SYS_getpid, 300, 0, 0, 0, 0, 0, 0);
	call(st, 300, 30, 1);
	/* The write returns while wait4's line is open: wait4 is cut too. */
	CHECK_EQ_STR(close_out(st),
		     "100   write(1, \"1\\n\", 2 <unfinished ...>\n"
		     "200   wait4(-1,  <unfinished ...>\n"
		     "300   getpid()                          = 300\n"
		     "100   <... write resumed>)              = 2\n"
		     "200   <... wait4 resumed>NULL, 0, NULL) = 300\n");
}

/* Without an intervening line a call is whole, however long it took;
 * a call -e trace= hides does not cut anything. */
TEST(whole_when_nothing_between)
{
	struct sonde_strace_opts o;
	struct sonde_strace *st;
	char err[128];

	sonde_strace_opts_init(&o);
	o.pid_prefix = 1;
	CHECK_EQ_INT(sonde_strace_opt(&o, 'e', "trace=read", err, sizeof(err)), 0);
	st = open_out(&o);
	tc_new(&T, SYS_read, 0, 3, 0x1000, 4, 0, 0, 0);
	call(st, 100, 10, 1000000);
	tc_new(&T, SYS_getpid, 200, 0, 0, 0, 0, 0, 0);
	call(st, 200, 20, 1);
	CHECK_EQ_STR(close_out(st), "100   read(3, \"\", 4)                    = 0\n");
}

/* -T and -ttt: the resumed line carries the exit time and the duration;
 * a call still blocked when recording stopped shows its entering half. */
TEST(times_and_unfinished)
{
	struct sonde_strace_opts o;
	struct sonde_strace *st;

	sonde_strace_opts_init(&o);
	o.pid_prefix = 1;
	o.tstamp = 3;
	o.show_time = 1;
	st = open_out(&o);
	tc_new(&T, SYS_nanosleep, 0, 0x1000, 0, 0, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 0, 0x1000, (uint64_t[]){ 1, 0 }, 16);
	call(st, 100, 1000000, 1000000);
	tc_new(&T, SYS_read, 0, 5, 0x1000, 4, 0, 0, 0);
	T.sc.hdr.flags = SONDE_SC_UNFINISHED;
	call(st, 200, 1500000, 0);
	CHECK_EQ_STR(close_out(st),
		     "100   1.000000 nanosleep({tv_sec=1, tv_nsec=0},  <unfinished ...>\n"
		     "200   1.500000 read(5,  <detached ...>\n"
		     "100   2.000000 <... nanosleep resumed>NULL) = 0 <1.000000>\n");
}

/* An exit line of another task cuts an open call. */
TEST(exit_line_cuts)
{
	struct sonde_strace_opts o;
	struct sonde_strace *st = opts_pid(&o);
	struct sonde_ev_exit ex = { .hdr = { .tid = 200, .pid = 200, .type = SONDE_REC_EXIT,
					     .size = sizeof(ex), .ts = 20000,
					     .flags = SONDE_EXIT_GROUP_DEAD } };

	tc_new(&T, SYS_futex, 0, 0x7000, 128, 2, 0, 0, 0);
	call(st, 100, 10, 100);
	CHECK_EQ_INT(sonde_strace_record(st, &ex.hdr), 0);
	CHECK_EQ_STR(close_out(st),
		     "100   futex(0x7000, FUTEX_WAIT_PRIVATE, 2, NULL <unfinished ...>\n"
		     "200   +++ exited with 0 +++\n"
		     "100   <... futex resumed>)              = 0\n");
}

/* A signal is recorded when sent; the task it interrupts shows its call's
 * line (whole or resumed) before the signal, as a ptracer sees it. */
TEST(signal_after_the_call_it_interrupts)
{
	struct sonde_strace_opts o;
	struct sonde_strace *st = opts_pid(&o);
	struct sonde_ev_signal sig = { .hdr = { .tid = 100, .pid = 100, .type = SONDE_REC_SIGNAL,
						.size = sizeof(sig), .ts = 30000 },
				       .si = { .signo = SIGINT, .code = SI_KERNEL } };

	tc_new(&T, SYS_pause, -514, 0, 0, 0, 0, 0, 0);
	call(st, 100, 10, 100);
	CHECK_EQ_INT(sonde_strace_record(st, &sig.hdr), 0);
	tc_new(&T, SYS_wait4, -514, -1, 0, 0, 0, 0, 0);
	call(st, 200, 200, 100);
	tc_new(&T, SYS_getpid, 300, 0, 0, 0, 0, 0, 0);
	call(st, 300, 210, 1);
	sig.hdr.tid = sig.hdr.pid = 200;
	sig.hdr.ts = 220000;
	CHECK_EQ_INT(sonde_strace_record(st, &sig.hdr), 0);
	CHECK_EQ_STR(close_out(st),
		     "100   pause()                           = ? ERESTARTNOHAND (To be restarted if no handler)\n"
		     "100   --- SIGINT {si_signo=SIGINT, si_code=SI_KERNEL} ---\n"
		     "200   wait4(-1,  <unfinished ...>\n"
		     "300   getpid()                          = 300\n"
		     "200   <... wait4 resumed>NULL, 0, NULL) = ? ERESTARTNOHAND (To be restarted if no handler)\n"
		     "200   --- SIGINT {si_signo=SIGINT, si_code=SI_KERNEL} ---\n");
}

/* A call of thread tid of process pid, as call(). */
static void call_in(struct sonde_strace *st, uint32_t pid, uint32_t tid, uint64_t ts,
		    uint64_t dur)
{
	call(st, tid, ts, dur);
	T.sc.hdr.pid = pid;
}

static void exit_of(struct sonde_strace *st, uint32_t pid, uint32_t tid, uint64_t ts,
		    uint16_t flags)
{
	struct sonde_ev_exit ex = { .hdr = { .tid = tid, .pid = pid, .type = SONDE_REC_EXIT,
					     .size = sizeof(ex), .ts = ts * 1000,
					     .flags = flags } };

	CHECK_EQ_INT(sonde_strace_record(st, &ex.hdr), 0);
}

/* Calls whose task died on the way out (SONDE_SC_KILLED): strace never
 * sees them return. The entering half, " <unfinished ...>" when output
 * arguments were due at exit, then ") = ?"; cut or whole. strace 6.1 on
 * this machine, for threads in pause, read and epoll_wait when another
 * called exit_group, and for cat killed by SIGKILL in read. */
TEST(killed_calls)
{
	struct sonde_strace_opts o;
	struct sonde_strace *st = opts_pid(&o);

	tc_new(&T, SYS_pause, -514, 0, 0, 0, 0, 0, 0);
	T.sc.hdr.flags = SONDE_SC_KILLED;
	call(st, 100, 10, 100);
	tc_new(&T, SYS_read, -512, 3, 0x1000, 64, 0, 0, 0);
	T.sc.hdr.flags = SONDE_SC_KILLED;
	call(st, 200, 20, 100);
	tc_new(&T, SYS_exit_group, 0, 0, 0, 0, 0, 0, 0);
	T.sc.hdr.flags = SONDE_SC_NORETURN;
	call(st, 300, 30, 0);
	tc_new(&T, SYS_read, -512, 0, 0x1000, 64, 0, 0, 0);
	T.sc.hdr.flags = SONDE_SC_KILLED;
	call(st, 400, 1000, 10);
	CHECK_EQ_STR(close_out(st),
		     "100   pause( <unfinished ...>\n"
		     "200   read(3,  <unfinished ...>\n"
		     "300   exit_group(0)                     = ?\n"
		     "100   <... pause resumed>)              = ?\n"
		     "200   <... read resumed> <unfinished ...>) = ?\n"
		     "400   read(0,  <unfinished ...>)        = ?\n");
}

/*
 * The kernel tells a ptracer of a group leader's death once its other
 * threads are gone: strace prints the leader's exit line last. A thread
 * that execs takes the leader's pid: the leader was "superseded", and the
 * call entered in the thread's pid returns in the leader's.
 */
TEST(leader_exit_waits_for_its_group)
{
	struct sonde_strace_opts o;
	struct sonde_strace *st = opts_pid(&o);
	struct sonde_ev_exec ev = { .hdr = { .tid = 100, .pid = 100, .type = SONDE_REC_EXEC,
					     .size = sizeof(ev), .ts = 85000 },
				    .old_tid = 102 };

	exit_of(st, 100, 100, 10, 0);
	exit_of(st, 100, 101, 20, SONDE_EXIT_GROUP_DEAD);
	tc_new(&T, SYS_execve, 0, 0, 0, 0, 0, 0, 0);
	T.call.entry_tid = 102;
	call_in(st, 100, 100, 50, 100);
	exit_of(st, 100, 100, 80, 0);
	CHECK_EQ_INT(sonde_strace_record(st, &ev.hdr), 0);
	exit_of(st, 200, 200, 300, 0);
	CHECK_EQ_STR(close_out(st),
		     "101   +++ exited with 0 +++\n"
		     "100   +++ exited with 0 +++\n"
		     "102   execve(NULL, NULL, NULL <unfinished ...>\n"
		     "100   +++ superseded by execve in pid 102 +++\n"
		     "100   <... execve resumed>)             = 0\n"
		     "200   +++ exited with 0 +++\n");
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	RUN(read_cut_by_write);
	RUN(write_cut_and_nested);
	RUN(whole_when_nothing_between);
	RUN(times_and_unfinished);
	RUN(exit_line_cuts);
	RUN(signal_after_the_call_it_interrupts);
	RUN(killed_calls);
	RUN(leader_exit_waits_for_its_group);
	CHECK_EXIT();
}
