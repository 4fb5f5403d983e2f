/* SPDX-License-Identifier: GPL-2.0 */
/* The strace renderer's state, shared by render.c and split.c. */
#ifndef SONDE_STRACE_RENDER_INT_H
#define SONDE_STRACE_RENDER_INT_H

#include <stdio.h>

#include <sonde/analysis.h>
#include <sonde/stack.h>

#include "decode/strace/strace_int.h"
#include "decode/strace/callq.h"
#include "decode/strace/feed.h"

/*
 * strace prints a call's line in two steps, the arguments known at entry
 * when the call enters and the rest when it returns; when another task's
 * line comes in between, the first half ends with " <unfinished ...>" and
 * the second is printed later as "<... NAME resumed>REST = RET". A trace
 * holds one record per call (entry time + duration), so the renderer
 * replays that: the calls come in entry order, the latest one is the open
 * line (o*), printed whole at its exit unless another line must be
 * printed first, which cuts it: its first half goes out, the rest waits
 * in q for its exit time.
 *
 *   entry A ─ open=A ─ entry B ─┬─ "A(x,  <unfinished ...>"   q: A
 *                               └─ open=B ─ exit B ─ "B(...) = 0"
 *                                           exit A ─ "<... A resumed>y) = 1"
 */
struct sonde_strace {
	struct sonde_strace_opts o;
	struct feed feed;
	FILE *out;
	struct fdtab *fds;
	uint64_t lines;
	uint64_t noip; /* -i: call lines whose address is unknown */
	uint64_t last_ts;
	/* The tasks strace would trace now, by tid (attach.c): nlive LIVE,
	 * nready READY (announced at the next line) */
	struct st_attach *attach;
	size_t nattach, capattach, nlive, nready;
	struct ffout *ff;  /* -ff: the files per task, or NULL */
	uint32_t line_tid; /* whose line is in line (for -ff) */
	struct strbuf line;
	/* The open line. */
	int open;
	uint64_t open_ts, open_end;
	uint32_t open_tid, open_nr;
	uint64_t open_ip;   /* -i: its instruction pointer (strace_pr_lead) */
	uint32_t open_rtid; /* the thread it returns in (execve: can differ) */
	size_t open_cut; /* where otext's entering half ends */
	int open_detached; /* -b execve: ends " <detached ...>" or, cut, never resumes */
	char open_lead[SONDE_COMM_LEN + 1]; /* -Y: its task's name at entry */
	struct strbuf otext, oret, odump;
	struct callq q; /* the returning halves of cut lines */
	/* Threads made by CLONE_THREAD forks and alive: each enters a group
	 * stop ("--- stopped by SIGSTOP ---" per thread, lines.c). */
	struct st_thread {
		uint32_t tgid, tid;
	} *threads;
	size_t nthreads, capthreads;
	/* Exits of group leaders whose threads live on: strace hears of a
	 * leader's death only with its group's (lines.c). */
	struct sonde_ev_exit *leaders;
	size_t nleaders, capleaders;
	/* -n: each task's last call, which numbers its other lines; -Y:
	 * the tasks' names (o.pid_names points here) */
	struct sonde_tasks *tasks;
	/* -k: the address spaces and unwinder; the stacks of exit and
	 * exit_group, printed after their task's exit line (stackpr.c) */
	struct sonde_ustack *ustack;
	struct strace_exit_stack {
		uint32_t tid;
		char *text;
	} *exit_stacks;
	size_t nexit_stacks;
	uint64_t nostack; /* -k: call lines without a recorded stack */
	uint32_t launch_tid; /* -k: the command sonde started, until its execve */
	/* -b execve (detach.c): the processes no longer shown, and the
	 * command sonde started until its first execve */
	uint32_t *detached;
	size_t ndetached, capdetached;
	uint32_t b_launch_tid;
};

/* detach.c: -b execve. Is rec of a process no longer shown (a fork of one
 * adds its child)? 1, 0, or -ENOMEM. */
int detach_drops(struct sonde_strace *st, const struct sonde_hdr *rec);
/* Does call sc leave its process (an execve or execveat, -b execve)? It
 * is then added; 1, 0, or -ENOMEM. */
int detach_at(struct sonde_strace *st, const struct sonde_ev_syscall *sc);

static inline const char *sb_str(const struct strbuf *b)
{
	return b->s ? b->s : "";
}

static inline void sb_reset(struct strbuf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = 0;
}

/*
 * render.c: what starts every line of tid's at ts: "PID  " or "[pid N] ",
 * the -t/-r timestamp and -n's "[NR] ", where nr is the line's call, or
 * STRACE_NR_LAST for a line that is none (signal, exit), which strace
 * numbers with the task's last call. 0 or -ENOMEM. strace_emit writes
 * st->line out.
 */
#define STRACE_NR_LAST UINT32_MAX
/* ip: -i's "[IP] " (0: unknown, "[????????????????] "); with
 * STRACE_IP_I386 an i386 call's, 8 digits as strace prints it. */
#define STRACE_IP_I386 (1ull << 63)
int strace_pr_lead(struct sonde_strace *st, uint32_t tid, uint64_t ts, uint32_t nr, uint64_t ip);
/* The same, the -Y name given (NULL: the task's now): the entering half
 * of a call shows the name the task had when it entered (open_lead). */
int strace_pr_lead_as(struct sonde_strace *st, uint32_t tid, uint64_t ts, uint32_t nr, uint64_t ip,
		      const char *lead);
int strace_emit(struct sonde_strace *st);
/* ".123456": the first digits of the fraction of a second in ns (none
 * for 0 digits), as strace's precisions print it. */
void sb_fraction(struct strbuf *b, uint64_t ns, unsigned int digits);
/* -n, -i: tid entered call nr at ip, shown or not; 0 or -ENOMEM. */
int strace_note_call(struct sonde_strace *st, uint32_t tid, uint32_t nr, uint64_t ip);

/* lines.c: "+++ exited with N +++", "--- SIGCHLD {...} ---". */
int strace_pr_exit(struct sonde_strace *st, const struct sonde_ev_exit *e);
int strace_pr_signal(struct sonde_strace *st, const struct sonde_ev_signal *e,
		     const struct sonde_payload *pl, unsigned int npl);
/* Room for one more of the n elements of size elem at *v (capacity
 * *cap), the array doubled when full; 0 or -ENOMEM. */
int room_for_one(void **v, size_t *cap, size_t n, size_t elem);
/* A thread of tgid was made (CLONE_THREAD); 0 or -ENOMEM. */
int strace_thread_add(struct sonde_strace *st, uint32_t tgid, uint32_t tid);
/* The group leaders' exit lines held back (tgid's, or every group's when
 * tgid is 0), stamped ts; by_tid: thread by_tid exec'd and took the
 * group's pid, so the leader was superseded (strace's line for that). */
int strace_leaders_release(struct sonde_strace *st, uint32_t tgid, uint64_t ts,
			   uint32_t by_tid);

/* dumps.c: -e read=/write=: the hexdump of what c moved, into b. */
void strace_pr_dumps(struct sonde_strace *st, const struct sonde_call *c, struct strbuf *b);

/* attach.c, -f to standard error (pid_prefix 2): the tasks traced as
 * the output goes, for "[pid N] " and "Process N attached". */
int attach_on(const struct sonde_strace *st);
/* The command sonde started: traced from the start. 0 or -ENOMEM. */
int attach_add(struct sonde_strace *st, uint32_t tid);
/* A FORK record: child is traced once the parent's call returned. */
int attach_fork(struct sonde_strace *st, uint32_t parent, uint32_t child);
/* tid's call nr has returned (its line printed, or not shown). */
void attach_returned(struct sonde_strace *st, uint32_t tid, uint32_t nr);
/* A line of tid's starts: the tasks due, announced first into st->line. */
void attach_line(struct sonde_strace *st, uint32_t tid);
/* More than one task traced: "[pid N] " prefixes. */
int attach_many(const struct sonde_strace *st);
/* tid's exit line was printed (or hidden): tid is traced no more. */
int attach_gone(struct sonde_strace *st, uint32_t tid);
void attach_free(struct sonde_strace *st);

/* split.c: the open line and the cut ones (see above). */
/* Another line is due: the open line's entering half goes out. */
int split_cut_open(struct sonde_strace *st);
/* The open line, printed whole now (-ff: a task's file has no other
 * task's lines to cut it). */
int split_close_open(struct sonde_strace *st);
/* Prints, in exit order, the calls that returned by time t. */
int split_release(struct sonde_strace *st, uint64_t t);
/* tid's call in progress, if any, is printed now (a signal follows it). */
int split_settle_tid(struct sonde_strace *st, uint32_t tid);
/* A call still blocked when recording stopped (its text in otext). */
int split_unfinished(struct sonde_strace *st, const struct sonde_ev_syscall *sc, uint64_t ip);
/* The call just formatted never returned to its program (SONDE_SC_KILLED):
 * its text becomes what strace prints for a return it never saw. */
void split_killed(struct sonde_strace *st);

/* stackpr.c, -k: c's stack lines into sb (or, for exit and exit_group,
 * kept for the task's exit line); 0 or -ENOMEM. */
int strace_pr_stack(struct sonde_strace *st, const struct sonde_call *c, struct strbuf *sb);
/* sonde_strace_record, with the payloads of a delivered signal: its
 * stack (-k). */
int strace_record(struct sonde_strace *st, const struct sonde_hdr *rec,
		  const struct sonde_payload *pl, unsigned int npl);
/* The stack a delivered signal interrupted (pl: its payloads), after
 * the signal's line. */
int strace_pr_signal_stack(struct sonde_strace *st, const struct sonde_hdr *rec,
			   const struct sonde_payload *pl, unsigned int npl);
/* Is a stack kept for tid's exit line? */
int strace_stack_kept(const struct sonde_strace *st, uint32_t tid);
/* Appends tid's kept stack, if any, to st->line. */
void strace_stack_exit(struct sonde_strace *st, uint32_t tid);
void strace_stack_free(struct sonde_strace *st);

#endif
