/* SPDX-License-Identifier: GPL-2.0 */
/*
 * -Y (--decode-pids=comm): the command names strace prints after pids,
 * "1234<bash>", learnt from the trace (pidname.c).
 *
 * strace reads /proc/PID/comm whenever it prints a pid, so a pid gets the
 * name its process has then, and none once /proc has no entry for it (a
 * child reaped, a thread gone). Process groups and sessions never get
 * one. The name at the start of a line is different: strace keeps one
 * per task, read when it first sees the task and again after each
 * successful execve and prctl(PR_SET_NAME) (not after a write to
 * /proc/PID/comm). The trace has every fact these need: the fork, exec
 * and rename records, and the calls that reap.
 */
#ifndef SONDE_STRACE_PIDNAME_H
#define SONDE_STRACE_PIDNAME_H

#include <stdint.h>

#include <sonde/analysis.h>

struct strbuf;

/* Learns from a fork, exec, comm (rename), proc or exit record. */
void pids_record(struct sonde_tasks *t, const struct sonde_hdr *rec);
/*
 * A call, in entry order; traced: -e trace= and -P select it; exec_path:
 * the file a successful execve(at) ran, when known. The kernel names the
 * task after its base name, but says so only after the call's entry,
 * where it is decoded: it is the name from then on (a vfork's parent,
 * which the exec releases, prints it).
 *
 * strace reads
 * the task's name again as an execve, execveat or prctl(PR_SET_NAME)
 * returns, but only when the task's previous traced call did not fail:
 * it tests the error before it has read the call's own (strace 6.1's
 * syscall_exiting_decode). So the name of a program found by a PATH
 * search, after failed execve attempts, never reaches the prefix; sonde
 * prints the same. A refresh the call makes takes the name its exec or
 * rename record gives, or the task's name now if it failed.
 */
void pids_call(struct sonde_tasks *t, const struct sonde_ev_syscall *sc, int traced,
	       const char *exec_path);
/* A wait that returns at ts reaps pid: from then on strace no longer
 * finds it in /proc. */
void pids_reaped(struct sonde_tasks *t, uint32_t pid, uint64_t ts);
/*
 * The name strace prints after pid at time now (the call's entry) in an
 * argument, a result or a struct, into buf (SONDE_COMM_LEN + 1 bytes), or
 * NULL when it prints none. Calls are decoded in entry order, so a wait
 * that reaps pid may already be known: it counts from its return on. A
 * pid the trace never named is looked up in /proc when from_proc
 * (printing live, as the calls happen).
 */
const char *pids_name(const struct sonde_tasks *t, int pid, int from_proc, uint64_t now, char *buf);
/* The name at the start of tid's lines, or NULL when unknown. */
const char *pids_lead(const struct sonde_tasks *t, uint32_t tid);
/* The same as a string, "<name>" into out (NULL when none), for the
 * printers that take one (siginfo's si_pid). */
struct sonde_strace_opts;
const char *pids_note(const struct sonde_strace_opts *o, uint32_t tid, int pid, uint64_t now,
		      char *out, size_t len);
/*
 * A pid that task tid's call passed or got, as the initial namespace
 * numbers it (pid itself for a task there), or 0: none, or, for a task
 * in another namespace, one the trace does not know or that is gone.
 */
uint32_t pids_global(const struct sonde_strace_opts *o, uint32_t tid, int pid, uint64_t now);
/* What follows pid: -Y's "<name>" and --decode-pids=pidns's
 * " / * N in strace's PID NS * /" (for a tracee in another namespace). */
void pids_decorate(struct strbuf *b, const struct sonde_strace_opts *o, uint32_t tid, int pid,
		   uint64_t now);
/* Around what pr_pid_child could not print yet, right after a child's
 * id: the name and translation the line gets when it is printed (never
 * in decoded text: strings are escaped). */
#define PIDS_LATE_NAME '\001'
#define PIDS_LATE_END '\002'
/* Puts in line what the markers stand for. */
void pids_fill_line(struct strbuf *line, const struct sonde_strace_opts *o);
/* "<name>" as strace prints it: '<', '>' and unprintable bytes escaped. */
void sb_comm(struct strbuf *b, const char *name);

#endif
