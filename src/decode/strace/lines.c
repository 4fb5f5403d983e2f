// SPDX-License-Identifier: GPL-2.0
/*
 * The strace lines that are not calls:
 *
 *   +++ exited with 0 +++             -qq, -e quiet=exit hide it
 *   +++ killed by SIGTERM +++         -e signal= decides, as strace
 *   --- SIGCHLD {si_signo=...} ---    -e signal=
 *   --- stopped by SIGSTOP ---        -e signal=
 *
 * and what starts every line, "PID<comm> TIMESTAMP [ NR] " (strace_pr_lead).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>

#include <sonde/signal.h>

#include "decode/strace/render_int.h"
#include "decode/strace/pidname.h"
#include "decode/strace/ffout.h"

static int sig_in_set(const struct sonde_strace *st, int sig)
{
	return sig > 0 && sig <= 64 && !((st->o.sig_hide >> (sig - 1)) & 1);
}

int room_for_one(void **v, size_t *cap, size_t n, size_t elem)
{
	size_t c = *cap ? 2 * *cap : 8;
	void *p;

	if (n < *cap)
		return 0;
	p = realloc(*v, c * elem);
	if (!p)
		return -ENOMEM;
	*v = p;
	*cap = c;
	return 0;
}

int strace_thread_add(struct sonde_strace *st, uint32_t tgid, uint32_t tid)
{
	if (room_for_one((void **)&st->threads, &st->capthreads, st->nthreads,
			 sizeof(*st->threads)))
		return -ENOMEM;
	st->threads[st->nthreads].tgid = tgid;
	st->threads[st->nthreads++].tid = tid;
	return 0;
}

static void thread_del(struct sonde_strace *st, uint32_t tid)
{
	for (size_t i = 0; i < st->nthreads; i++)
		if (st->threads[i].tid == tid) {
			st->threads[i] = st->threads[--st->nthreads];
			return;
		}
}

/* -i: the address of tid's last call, STRACE_IP_I386 if it was an
 * i386 one (the width strace prints for the task), or 0. */
static uint64_t task_ip(const struct sonde_strace *st, uint32_t tid)
{
	const struct sonde_task *t = st->o.show_ip ? sonde_tasks_find(st->tasks, tid) : NULL;

	return t ? t->ip : 0;
}

/* A line of tid's at ts starts: the open call line is cut first. */
static int line_begin(struct sonde_strace *st, uint32_t tid, uint64_t ts)
{
	int rc = split_cut_open(st);

	/* strace cannot read a dead task's registers: -i's "????", as
	 * wide as the task's addresses. */
	return rc ? rc
		  : strace_pr_lead(st, tid, ts, STRACE_NR_LAST, task_ip(st, tid) & STRACE_IP_I386);
}

/* "+++ exited with N +++" / "+++ killed by SIG +++" for e, stamped ts. */
static int pr_exit_line(struct sonde_strace *st, const struct sonde_ev_exit *e, uint64_t ts)
{
	char buf[16];
	int code = e->code;
	int rc;

	/* strace: -qq hides the exits; the deaths obey -e signal= only. */
	if (WIFSIGNALED(code) ? !sig_in_set(st, WTERMSIG(code)) : st->o.quiet & SONDE_QUIET_EXIT) {
		rc = attach_gone(st, e->hdr.tid);
		/* -qq: the stack of exit_group all the same, as strace */
		if (rc || !strace_stack_kept(st, e->hdr.tid))
			return rc;
		rc = split_cut_open(st);
		if (rc)
			return rc;
		st->line_tid = e->hdr.tid;
		strace_stack_exit(st, e->hdr.tid);
		return strace_emit(st);
	}
	rc = line_begin(st, e->hdr.tid, ts);
	if (rc)
		return rc;
	if (WIFSIGNALED(code)) {
		const char *n = st_signame(WTERMSIG(code), buf, sizeof(buf));

		if (n)
			sb_printf(&st->line, "+++ killed by %s%s +++\n", n,
				  WCOREDUMP(code) ? " (core dumped)" : "");
		else
			sb_printf(&st->line, "+++ killed by %d%s +++\n",
				  WTERMSIG(code), WCOREDUMP(code) ? " (core dumped)" : "");
	} else {
		sb_printf(&st->line, "+++ exited with %d +++\n", WEXITSTATUS(code));
	}
	strace_stack_exit(st, e->hdr.tid);
	rc = strace_emit(st);
	return rc ? rc : attach_gone(st, e->hdr.tid);
}

/* Groups whose leader's exit line waits at once: more only in a hostile
 * trace (each release scans them), whose lines then print unordered. */
#define LEADERS_MAX 4096

static int leader_defer(struct sonde_strace *st, const struct sonde_ev_exit *e)
{
	if (st->nleaders == LEADERS_MAX)
		return pr_exit_line(st, e, e->hdr.ts);
	if (room_for_one((void **)&st->leaders, &st->capleaders, st->nleaders,
			 sizeof(*st->leaders)))
		return -ENOMEM;
	st->leaders[st->nleaders++] = *e;
	return 0;
}

/* "+++ superseded by execve in pid TID +++": thread tid exec'd, and the
 * kernel gave it the leader's pid. */
static int pr_superseded(struct sonde_strace *st, const struct sonde_ev_exit *e, uint64_t ts,
			 uint32_t tid)
{
	int rc;

	if (st->o.quiet & SONDE_QUIET_SUPERSEDED)
		return attach_gone(st, tid);
	rc = line_begin(st, e->hdr.tid, ts);
	if (rc)
		return rc;
	sb_printf(&st->line, "+++ superseded by execve in pid %u +++\n", tid);
	rc = strace_emit(st);
	/* The thread that exec'd goes on as the leader, under its pid. */
	return rc ? rc : attach_gone(st, tid);
}

/* Their lines are stamped when strace would print them: with the event
 * that ended the group (or the execve), not their own exit. */
int strace_leaders_release(struct sonde_strace *st, uint32_t tgid, uint64_t ts, uint32_t by_tid)
{
	uint64_t at;
	int rc = 0;

	for (size_t i = 0; i < st->nleaders;) {
		struct sonde_ev_exit e = st->leaders[i];

		if (tgid && e.hdr.pid != tgid) {
			i++;
			continue;
		}
		st->leaders[i] = st->leaders[--st->nleaders];
		at = ts == UINT64_MAX ? e.hdr.ts : ts;
		if (!rc)
			rc = by_tid ? pr_superseded(st, &e, at, by_tid) : pr_exit_line(st, &e, at);
	}
	return rc;
}

/*
 * The kernel tells a ptracer of a group leader's death only once its
 * other threads are gone (it delays the leader's wait notification), so
 * strace prints the leader's exit line after theirs: a leader's exit that
 * does not end its group waits for the exit that does (or for the execve
 * by which another thread takes its place).
 */
int strace_pr_exit(struct sonde_strace *st, const struct sonde_ev_exit *e)
{
	int rc;

	fdtab_exit(st->fds, e->hdr.tid);
	thread_del(st, e->hdr.tid);
	if (st->o.summary_only)
		return 0;
	/* A group exit: the leader's line says the process's status */
	if ((e->hdr.flags & SONDE_EXIT_GROUP_CODE) && e->hdr.tid != e->hdr.pid)
		for (size_t i = 0; i < st->nleaders; i++)
			if (st->leaders[i].hdr.pid == e->hdr.pid)
				st->leaders[i].code = e->group_code;
	/* A thread strace does not trace: no line, but its group may end */
	if (e->hdr.flags & (SONDE_EXIT_NOT_SHOWN | SONDE_EXIT_WORKER))
		return e->hdr.flags & SONDE_EXIT_GROUP_DEAD
			       ? strace_leaders_release(st, e->hdr.pid, e->hdr.ts, 0)
			       : 0;
	if (e->hdr.tid == e->hdr.pid && !(e->hdr.flags & SONDE_EXIT_GROUP_DEAD))
		return leader_defer(st, e);
	rc = pr_exit_line(st, e, e->hdr.ts);
	if (!rc && (e->hdr.flags & SONDE_EXIT_GROUP_DEAD))
		rc = strace_leaders_release(st, e->hdr.pid, e->hdr.ts, 0);
	return rc;
}

/*
 * The kernel's SA_IMMUTABLE (include/linux/signal_types.h), set on a
 * signal it forces to kill (a seccomp filter's SECCOMP_RET_KILL_*, a
 * fatal fault it cannot deliver): get_signal skips the ptrace stop for
 * it, so strace shows no line for its delivery, only the death.
 */
#define KSA_IMMUTABLE 0x00800000

/*
 * strace prints a signal when its tracee stops to take it. Without ptrace
 * the kernel drops an ignored signal when it is sent, and turns a fatal
 * default action into a group-wide SIGKILL then: those two show in the
 * trace as sent signals (bpf/signal.h), the rest as deliveries. SIGKILL
 * never stops a tracee.
 */
static int sig_shown(const struct sonde_strace *st, const struct sonde_ev_signal *e)
{
	int sig = e->si.signo;

	if (st->o.summary_only || sig == SIGKILL || !sig_in_set(st, sig))
		return 0;
	if (e->hdr.type == SONDE_REC_SIGNAL)
		return !(e->sa_flags & KSA_IMMUTABLE);
	if (e->result == SONDE_SIG_IGNORED)
		return !(e->hdr.flags & SONDE_SIG_EXITING);
	return e->result == SONDE_SIG_DELIVERED && (e->hdr.flags & SONDE_SIG_EXITING);
}

/*
 * A stop signal delivered with the default action stops the thread group
 * (the kernel's get_signal: do_signal_stop right after the signal_deliver
 * tracepoint), and strace, seeing each of its tracees enter the
 * group-stop, says "--- stopped by SIGSTOP ---" for the thread that took
 * the signal, after the signal's own line, then for the group's other
 * threads (the ones the trace saw made; strace's order among those is
 * the order they happen to stop in). SIGTSTP,
 * SIGTTIN and SIGTTOU do not stop a process of an orphaned process group,
 * which the record cannot tell: sonde assumes the group is not orphaned.
 */
static int sig_stops(const struct sonde_ev_signal *e)
{
	int sig = e->si.signo;

	return e->hdr.type == SONDE_REC_SIGNAL && e->handler == 0 /* SIG_DFL */ &&
	       (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU);
}

/* ip: -i's, where the thread stopped (strace_pr_lead). */
static int pr_stopped(struct sonde_strace *st, uint32_t tid, uint64_t ts, const char *name,
		      uint64_t ip)
{
	if (strace_pr_lead(st, tid, ts, STRACE_NR_LAST, ip))
		return -ENOMEM;
	sb_printf(&st->line, "--- stopped by %s ---\n", name ? name : "?");
	return strace_emit(st);
}

/*
 * -i: where the task took the signal. A delivery record has it; a
 * signal the kernel dropped or turned into SIGKILL as it was sent (the
 * generation record, signal.h) is shown where strace would have stopped
 * the task: as it leaves the call it is in or has just made, the
 * address of its last call. A task running user code when signalled
 * takes it elsewhere, which only a delivery record knows.
 */
static uint64_t sig_ip(struct sonde_strace *st, const struct sonde_ev_signal *e)
{
	uint64_t last = task_ip(st, e->hdr.tid);

	if (e->hdr.type == SONDE_REC_SIGNAL)
		return e->ip ? e->ip | (last & STRACE_IP_I386) : 0;
	return last;
}

/* "--- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, ...} ---" */
int strace_pr_signal(struct sonde_strace *st, const struct sonde_ev_signal *e,
		     const struct sonde_payload *pl, unsigned int npl)
{
	char name[16], si[320], note[4 * SONDE_COMM_LEN + 3];
	const char *n;
	int rc;

	if (!sig_shown(st, e))
		return 0;
	rc = split_settle_tid(st, e->hdr.tid);
	if (!rc)
		rc = split_cut_open(st);
	if (rc)
		return rc;
	if (strace_pr_lead(st, e->hdr.tid, e->hdr.ts, STRACE_NR_LAST, sig_ip(st, e)))
		return -ENOMEM;
	n = sonde_sig_name(e->si.signo, name, sizeof(name));
	/* -Y: the task takes the signal once its call returned, so a child
	 * that call reaped is gone from /proc by then (now: at any time). */
	sonde_siginfo_format_pid(si, sizeof(si), &e->si, st->o.xlat,
				 pids_note(&st->o, e->hdr.tid, (int)(uint32_t)e->si.fields[0], UINT64_MAX, note,
					   sizeof(note)));
	sb_printf(&st->line, "--- %s %s ---\n", n ? n : "?", si);
	rc = strace_emit(st);
	if (!rc)
		rc = strace_pr_signal_stack(st, &e->hdr, pl, npl);
	if (rc || !sig_stops(e))
		return rc;
	rc = pr_stopped(st, e->hdr.tid, e->hdr.ts, n, sig_ip(st, e));
	/* Without -f (no pid prefix) strace traces the one thread. */
	if (rc || !st->o.pid_prefix)
		return rc;
	/* The leader is not in the list: threads are, from their fork.
	 * -i: where each stops is not recorded; a thread blocked in a
	 * call stops as it leaves it, at the address of its last call. */
	if (!rc && e->hdr.tid != e->hdr.pid)
		rc = pr_stopped(st, e->hdr.pid, e->hdr.ts, n, task_ip(st, e->hdr.pid));
	for (size_t i = 0; !rc && i < st->nthreads; i++)
		if (st->threads[i].tgid == e->hdr.pid && st->threads[i].tid != e->hdr.tid)
			rc = pr_stopped(st, st->threads[i].tid, e->hdr.ts, n,
					task_ip(st, st->threads[i].tid));
	return rc;
}

/* -Y: strace prints the pid unpadded when a name follows it. */
static void strace_pr_prefix(struct sonde_strace *st, uint32_t tid, const char *lead)
{
	st->line_tid = tid;
	attach_line(st, tid);
	if (lead && !lead[0])
		lead = NULL;
	if (st->o.pid_names && !lead)
		lead = pids_lead(st->tasks, tid);
	else if (!st->o.pid_names)
		lead = NULL;
	if (st->o.pid_prefix == 1) {
		sb_printf(&st->line, lead ? "%u" : "%-5u", tid);
		if (lead)
			sb_comm(&st->line, lead);
		sb_putc(&st->line, ' ');
	} else if (st->o.pid_prefix == 2 && attach_many(st)) {
		sb_printf(&st->line, "[pid %5u", tid);
		if (lead)
			sb_comm(&st->line, lead);
		sb_puts(&st->line, "] ");
	}
}

void sb_fraction(struct strbuf *b, uint64_t ns, unsigned int digits)
{
	uint64_t scale = 1;

	if (!digits)
		return;
	for (unsigned int i = digits; i < 9; i++)
		scale *= 10;
	sb_printf(b, ".%0*llu", (int)digits, (unsigned long long)(ns % 1000000000 / scale));
}

/* -r, then -t's time of day or epoch seconds, each with its precision
 * (--relative-timestamps=, --absolute-timestamps=). */
static void strace_pr_tstamp(struct sonde_strace *st, uint64_t ts)
{
	int64_t wall = (int64_t)ts + st->o.wall_offset_ns;
	time_t sec = (time_t)(wall / 1000000000);
	struct tm tm;
	char b[32];

	if (st->o.relative) {
		uint64_t d = st->last_ts && ts > st->last_ts ? ts - st->last_ts : 0;

		sb_printf(&st->line, "%6llu", (unsigned long long)(d / 1000000000));
		sb_fraction(&st->line, d, st->o.rel_digits);
		sb_putc(&st->line, ' ');
		st->last_ts = ts;
	}
	if (!st->o.tstamp)
		return;
	if (st->o.tstamp >= 3) {
		sb_printf(&st->line, "%lld", (long long)sec);
	} else {
		localtime_r(&sec, &tm);
		strftime(b, sizeof(b), "%H:%M:%S", &tm);
		sb_puts(&st->line, b);
	}
	sb_fraction(&st->line, (uint64_t)wall,
		    st->o.ts_long ? st->o.ts_digits : st->o.tstamp > 1 ? 6 : 0);
	sb_putc(&st->line, ' ');
}

/* -n, -i: tid entered call nr at ip, shown or not (strace numbers a
 * task's signal and exit lines with its last call, which -e trace= may
 * hide). */
int strace_note_call(struct sonde_strace *st, uint32_t tid, uint32_t nr, uint64_t ip)
{
	struct sonde_task *t;

	if (!st->o.show_nr && !st->o.show_ip)
		return 0;
	t = sonde_tasks_get(st->tasks, tid);
	if (!t)
		return -ENOMEM;
	t->nr = nr;
	t->ip = ip;
	return 0;
}

int strace_pr_lead(struct sonde_strace *st, uint32_t tid, uint64_t ts, uint32_t nr, uint64_t ip)
{
	return strace_pr_lead_as(st, tid, ts, nr, ip, NULL);
}

/* -i: "[00007f0e2c3d4a37] ", or question marks where strace could not
 * read the registers (a task that is gone, a trace without them). */
static void strace_pr_ip(struct sonde_strace *st, uint64_t ip)
{
	int w = ip & STRACE_IP_I386 ? 8 : 16;

	ip &= ~STRACE_IP_I386;
	if (ip)
		sb_printf(&st->line, "[%0*llx] ", w, (unsigned long long)ip);
	else
		sb_printf(&st->line, "[%.*s] ", w, "????????????????");
}

int strace_pr_lead_as(struct sonde_strace *st, uint32_t tid, uint64_t ts, uint32_t nr, uint64_t ip,
		      const char *lead)
{
	const struct sonde_task *t;

	strace_pr_prefix(st, tid, lead);
	strace_pr_tstamp(st, ts);
	if (nr != STRACE_NR_LAST && strace_note_call(st, tid, nr, ip))
		return -ENOMEM;
	if (st->o.show_nr) {
		t = nr == STRACE_NR_LAST ? sonde_tasks_find(st->tasks, tid) : NULL;
		sb_printf(&st->line, "[%4u] ", nr != STRACE_NR_LAST ? nr : t ? t->nr : 0);
	}
	if (st->o.show_ip)
		strace_pr_ip(st, ip);
	st->noip += st->o.show_ip && !(ip & ~STRACE_IP_I386) && nr != STRACE_NR_LAST;
	return 0;
}

int strace_emit(struct sonde_strace *st)
{
	/* -ff: a line of no task (sonde's own notes) goes to the main output. */
	FILE *f = st->ff && st->line_tid ? ffout_file(st->ff, st->line_tid) : st->out;

	st->line_tid = 0;
	if (st->o.pid_names || st->o.pid_ns)
		pids_fill_line(&st->line, &st->o);
	if (st->line.oom)
		return -ENOMEM;
	if (!f)
		return -EIO; /* errno says why the file could not be opened */
	if (st->line.len && fwrite(st->line.s, 1, st->line.len, f) != st->line.len)
		return -EIO;
	st->lines++;
	st->line.len = 0;
	if (st->line.s)
		st->line.s[0] = 0;
	return 0;
}
