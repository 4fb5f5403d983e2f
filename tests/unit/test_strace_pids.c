// SPDX-License-Identifier: GPL-2.0
/*
 * -Y (--decode-pids=comm) in the cases tests/fixtures/strace_x_pids.c
 * cannot make happen on purpose: an execve cut by another task's line
 * (strace names the returning half after the new program), a pid once
 * the wait that reaps it has returned, a thread that exited; and
 * --decode-pids=pidns's translations. Expected texts follow strace 6.1's
 * rules (decode/strace/pidname.h).
 */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>

#include "check.h"
#include "test_strace_util.h"

static struct tcall T;
static char out[65536];
static FILE *f;

static struct sonde_strace *open_y(void)
{
	struct sonde_strace_opts o;

	sonde_strace_opts_init(&o);
	o.pid_prefix = 1;
	o.decode_pids = 1;
	memset(out, 0, sizeof(out));
	f = fmemopen(out, sizeof(out) - 1, "w");
	return sonde_strace_new(&o, f);
}

static const char *close_out(struct sonde_strace *st)
{
	CHECK_EQ_INT(sonde_strace_flush(st), 0);
	sonde_strace_free(st);
	fclose(f);
	return out;
}

/* A call of tid entering at ts (µs) and lasting dur (µs). */
static void call(struct sonde_strace *st, uint32_t tid, uint32_t pid, uint64_t ts, uint64_t dur)
{
	CHECK_EQ_INT(tc_feed(st, &T, tid, pid, ts, dur), 0);
}

static void hdr(struct sonde_hdr *h, unsigned int type, size_t size, uint32_t tid, uint32_t pid,
		uint64_t ts)
{
	h->type = (uint16_t)type;
	h->size = (uint16_t)size;
	h->tid = tid;
	h->pid = pid;
	h->ts = ts * 1000;
}

/* A process that was there when recording began, named comm. */
static void proc(struct sonde_strace *st, uint32_t pid, const char *comm)
{
	struct sonde_ev_proc p;

	memset(&p, 0, sizeof(p));
	hdr(&p.hdr, SONDE_REC_PROC, sizeof(p), pid, pid, 1);
	memcpy(p.comm, comm, strnlen(comm, sizeof(p.comm) - 1));
	CHECK_EQ_INT(sonde_strace_record(st, &p.hdr), 0);
}

static void fork_rec(struct sonde_strace *st, uint32_t parent, uint32_t child, uint64_t flags,
		     uint64_t ts)
{
	struct sonde_ev_fork e;

	memset(&e, 0, sizeof(e));
	hdr(&e.hdr, SONDE_REC_FORK, sizeof(e), parent, parent, ts);
	e.child_tid = child;
	e.child_pid = flags & CLONE_THREAD ? parent : child;
	e.clone_flags = flags;
	strcpy(e.child_comm, "sh");
	CHECK_EQ_INT(sonde_strace_record(st, &e.hdr), 0);
}

static void exit_rec(struct sonde_strace *st, uint32_t tid, uint32_t pid, uint64_t ts)
{
	struct sonde_ev_exit e;

	memset(&e, 0, sizeof(e));
	hdr(&e.hdr, SONDE_REC_EXIT, sizeof(e), tid, pid, ts);
	if (tid == pid)
		e.hdr.flags = SONDE_EXIT_GROUP_DEAD;
	CHECK_EQ_INT(sonde_strace_record(st, &e.hdr), 0);
}

/*
 * strace prints an execve's entering half under the old name and, when
 * another line cut it, the returning half under the new one: it reads the
 * name again as the call returns.
 */
TEST(execve_cut_names_each_half)
{
	struct sonde_strace *st = open_y();
	struct sonde_ev_exec x;

	proc(st, 100, "sh");
	fork_rec(st, 100, 200, SIGCHLD, 5);
	tc_new(&T, SYS_execve, 0, 0x1000, 0, 0, 0, 0, 0);
	tc_str(&T, 0, 0x1000, "/bin/sleep");
	call(st, 200, 200, 10, 50);
	tc_new(&T, SYS_getpid, 100, 0, 0, 0, 0, 0, 0);
	call(st, 100, 100, 20, 1);
	memset(&x, 0, sizeof(x));
	hdr(&x.hdr, SONDE_REC_EXEC, sizeof(x), 200, 200, 30);
	x.old_tid = 200;
	strcpy(x.comm, "sleep");
	CHECK_EQ_INT(sonde_strace_record(st, &x.hdr), 0);
	tc_new(&T, SYS_getppid, 100, 0, 0, 0, 0, 0, 0);
	call(st, 200, 200, 70, 1);
	CHECK_EQ_STR(close_out(st), "200<sh> execve(\"/bin/sleep\", NULL, NULL <unfinished ...>\n"
				    "100<sh> getpid()                        = 100<sh>\n"
				    "200<sleep> <... execve resumed>)        = 0\n"
				    "200<sleep> getppid()                    = 100<sh>\n");
}

/*
 * A child is named until the wait that reaps it returns (strace finds it
 * in /proc, a zombie, until then), and never after; a thread until it
 * exits. Calls are decoded in entry order, so the wait is known before
 * the child's last calls: its return is what counts.
 */
TEST(reaped_child_and_exited_thread)
{
	struct sonde_strace *st = open_y();

	proc(st, 100, "sh");
	fork_rec(st, 100, 300, SIGCHLD, 5);
	tc_new(&T, SYS_wait4, 300, 300, 0, 0, 0, 0, 0);
	call(st, 100, 100, 10, 100);
	tc_new(&T, SYS_getpid, 300, 0, 0, 0, 0, 0, 0);
	call(st, 300, 300, 20, 1);
	exit_rec(st, 300, 300, 50);
	tc_new(&T, SYS_kill, 0, 300, 0, 0, 0, 0, 0);
	call(st, 100, 100, 200, 1);
	fork_rec(st, 100, 101, CLONE_VM | CLONE_THREAD | CLONE_SIGHAND, 205);
	tc_new(&T, SYS_gettid, 101, 0, 0, 0, 0, 0, 0);
	call(st, 101, 100, 206, 1);
	exit_rec(st, 101, 100, 210);
	tc_new(&T, SYS_tgkill, 0, 100, 101, 0, 0, 0, 0);
	call(st, 100, 100, 220, 1);
	tc_new(&T, SYS_kill, 0, (uint64_t)-100, 0, 0, 0, 0, 0);
	call(st, 100, 100, 230, 1);
	CHECK_EQ_STR(close_out(st), "100<sh> wait4(300<sh>,  <unfinished ...>\n"
				    "300<sh> getpid()                        = 300<sh>\n"
				    "300<sh> +++ exited with 0 +++\n"
				    "100<sh> <... wait4 resumed>NULL, 0, NULL) = 300\n"
				    "100<sh> kill(300, 0)                    = 0\n"
				    "101<sh> gettid()                        = 101<sh>\n"
				    "101<sh> +++ exited with 0 +++\n"
				    "100<sh> tgkill(100<sh>, 101, 0)         = 0\n"
				    "100<sh> kill(-100, 0)                   = 0\n");
}

/* No -Y: prefixes keep strace's padding, pids stay bare. */
TEST(without_y_nothing_changes)
{
	struct sonde_strace_opts o;
	struct sonde_strace *st;

	sonde_strace_opts_init(&o);
	o.pid_prefix = 1;
	memset(out, 0, sizeof(out));
	f = fmemopen(out, sizeof(out) - 1, "w");
	st = sonde_strace_new(&o, f);
	proc(st, 100, "sh");
	tc_new(&T, SYS_getpid, 100, 0, 0, 0, 0, 0, 0);
	call(st, 100, 100, 10, 1);
	CHECK_EQ_STR(close_out(st), "100   getpid()                          = 100\n");
}

static void nspid_rec(struct sonde_strace *st, uint32_t tid, uint32_t pid, uint32_t ns_tid,
		      uint32_t ns_pid, uint64_t ts)
{
	struct sonde_ev_nspid e;

	memset(&e, 0, sizeof(e));
	hdr(&e.hdr, SONDE_REC_NSPID, sizeof(e), tid, pid, ts);
	e.ns_inum = 4026532177ull;
	e.ns_tid = ns_tid;
	e.ns_pid = ns_pid;
	e.level = 1;
	CHECK_EQ_INT(sonde_strace_record(st, &e.hdr), 0);
}

/*
 * --decode-pids=pidns: a tracee in another pid namespace (nspid records)
 * gets its namespace's pids, followed by the initial namespace's; with
 * -Y named after that task. A pid outside the namespace (the parent's:
 * 0) or of a task reaped is left alone; a task of the initial namespace
 * prints as before; a pid used again by a task of the initial namespace
 * forgets the namespace.
 */
TEST(pidns_translation)
{
	struct sonde_strace_opts o;
	struct sonde_strace *st;

	sonde_strace_opts_init(&o);
	o.pid_prefix = 1;
	o.decode_pids = 1;
	o.pidns = 1;
	memset(out, 0, sizeof(out));
	f = fmemopen(out, sizeof(out) - 1, "w");
	st = sonde_strace_new(&o, f);
	proc(st, 100, "unshare");
	fork_rec(st, 100, 4242, 0, 5);
	nspid_rec(st, 4242, 4242, 1, 1, 5);
	fork_rec(st, 4242, 4243, 0, 6);
	nspid_rec(st, 4243, 4243, 2, 2, 6);
	tc_new(&T, SYS_getpid, 1, 0, 0, 0, 0, 0, 0);
	call(st, 4242, 4242, 10, 1);
	tc_new(&T, SYS_getppid, 0, 0, 0, 0, 0, 0, 0);
	call(st, 4242, 4242, 12, 1);
	tc_new(&T, SYS_kill, 0, 2, 0, 0, 0, 0, 0);
	call(st, 4242, 4242, 14, 1);
	tc_new(&T, SYS_getpgrp, 1, 0, 0, 0, 0, 0, 0);
	call(st, 4242, 4242, 16, 1);
	tc_new(&T, SYS_getpid, 100, 0, 0, 0, 0, 0, 0);
	call(st, 100, 100, 18, 1);
	exit_rec(st, 4243, 4243, 20);
	tc_new(&T, SYS_wait4, 2, 2, 0, 0, 0, 0, 0);
	call(st, 4242, 4242, 22, 1);
	tc_new(&T, SYS_kill, -3, 2, 0, 0, 0, 0, 0);
	call(st, 4242, 4242, 30, 1);
	/* 4243 again, a process of the initial namespace */
	fork_rec(st, 100, 4243, 0, 40);
	tc_new(&T, SYS_getpid, 4243, 0, 0, 0, 0, 0, 0);
	call(st, 4243, 4243, 42, 1);
	CHECK_EQ_STR(
		close_out(st),
		"4242<sh> getpid()                       = 1<sh> /* 4242 in strace's PID NS */\n"
		"4242<sh> getppid()                      = 0\n"
		"4242<sh> kill(2<sh> /* 4243 in strace's PID NS */, 0) = 0\n"
		"4242<sh> getpgrp()                      = 1 /* 4242 in strace's PID NS */\n"
		"100<unshare> getpid()                   = 100<unshare>\n"
		"4243<sh> +++ exited with 0 +++\n"
		"4242<sh> wait4(2<sh> /* 4243 in strace's PID NS */, NULL, 0, NULL) = 2\n"
		"4242<sh> kill(2, 0)                     = -1 ESRCH (No such process)\n"
		"4243<sh> getpid()                       = 4243<sh>\n");
}

int main(void)
{
	RUN(execve_cut_names_each_half);
	RUN(reaped_child_and_exited_thread);
	RUN(without_y_nothing_changes);
	RUN(pidns_translation);
	CHECK_EXIT();
}
