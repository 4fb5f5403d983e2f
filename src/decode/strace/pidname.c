// SPDX-License-Identifier: GPL-2.0
/*
 * -Y: the names after pids (pidname.h), kept in the renderer's task table
 * (sonde_tasks: comm is the name the task has now, lead the one its
 * lines start with).
 */
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "decode/strace/strace_int.h"
#include "decode/strace/pidname.h"

static void name_copy(char *dst, const char *src)
{
	memcpy(dst, src, SONDE_COMM_LEN);
	dst[SONDE_COMM_LEN] = '\0';
}

static void lead_set(struct sonde_tasks *t, uint32_t tid, const char *comm)
{
	struct sonde_task *k = sonde_tasks_get(t, tid);

	if (k && comm[0])
		name_copy(k->lead, comm);
}

/* The command sonde started: named, before its execve, after the
 * recorder's child, which is what the recorder is called too (its
 * parent, the pid the command's getppid() returns). */
static void pids_launched(struct sonde_tasks *t, const struct sonde_ev_proc *e)
{
	struct sonde_task *k = sonde_tasks_get(t, e->hdr.tid);

	if (!k)
		return;
	if (!k->comm[0])
		name_copy(k->comm, e->comm);
	if (!k->lead[0])
		name_copy(k->lead, e->comm);
	k = e->ppid ? sonde_tasks_get(t, e->ppid) : NULL;
	if (k && !k->comm[0])
		name_copy(k->comm, e->comm);
}

void pids_record(struct sonde_tasks *t, const struct sonde_hdr *rec)
{
	struct sonde_task *k;

	if (!sonde_rec_fits(rec))
		return;
	sonde_tasks_update(t, rec);
	switch (rec->type) {
	case SONDE_REC_FORK: {
		const struct sonde_ev_fork *e = (const void *)rec;

		/* A pid used again is a new task. */
		k = sonde_tasks_get(t, e->child_tid);
		if (k)
			k->gone_at = 0;
		lead_set(t, e->child_tid, e->child_comm);
		break;
	}
	case SONDE_REC_EXEC: {
		const struct sonde_ev_exec *e = (const void *)rec;

		k = sonde_tasks_get(t, rec->tid);
		if (k && k->refresh_end >= rec->ts)
			lead_set(t, rec->tid, e->comm);
		/* A thread that exec'd took the group's pid: its own is gone. */
		if (e->old_tid != rec->tid && (k = sonde_tasks_get(t, e->old_tid)))
			k->gone_at = rec->ts;
		break;
	}
	case SONDE_REC_COMM:
		k = sonde_tasks_get(t, rec->tid);
		if (k && k->refresh_end >= rec->ts)
			name_copy(k->lead, ((const struct sonde_ev_comm *)rec)->comm);
		break;
	case SONDE_REC_PROC: {
		const struct sonde_ev_proc *e = (const void *)rec;

		if (rec->flags & SONDE_PROC_LAUNCHED)
			pids_launched(t, e);
		else if (!(rec->flags & SONDE_PROC_FDS_CONT))
			lead_set(t, rec->tid, e->comm);
		break;
	}
	case SONDE_REC_EXIT:
		/* A thread is released when it exits; a process stays in
		 * /proc, a zombie, until it is reaped. */
		if (rec->tid != rec->pid && (k = sonde_tasks_get(t, rec->tid)))
			k->gone_at = rec->ts;
		break;
	}
}

static int renames(const struct sonde_ev_syscall *sc)
{
	return sc->nr == __NR_execve || sc->nr == __NR_execveat ||
	       (sc->nr == __NR_prctl && sc->args[0] == PR_SET_NAME);
}

void pids_call(struct sonde_tasks *t, const struct sonde_ev_syscall *sc, int traced,
	       const char *exec_path)
{
	struct sonde_task *k = sonde_tasks_get(t, sc->hdr.tid);
	int failed = sonde_syscall_status(sc) == SONDE_STATUS_FAILED;
	const char *base;

	if (!k)
		return;
	if (exec_path && !failed) {
		base = strrchr(exec_path, '/');
		snprintf(k->comm, sizeof(k->comm), "%s", base ? base + 1 : exec_path);
	}
	if (renames(sc) && !k->last_failed) {
		if (!failed)
			k->refresh_end = sc->hdr.ts + sc->dur;
		else if (k->comm[0])
			name_copy(k->lead, k->comm);
	}
	if (traced && !(sc->hdr.flags & SONDE_SC_NO_RESULT))
		k->last_failed = (uint8_t)failed;
}

void pids_reaped(struct sonde_tasks *t, uint32_t pid, uint64_t ts)
{
	struct sonde_task *k = sonde_tasks_get(t, pid);

	if (k)
		k->gone_at = ts;
}

/* /proc/PID/comm up to its newline, as strace reads it. */
static const char *proc_comm(int pid, char *buf)
{
	char path[32];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	n = read(fd, buf, SONDE_COMM_LEN);
	close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

const char *pids_name(const struct sonde_tasks *t, int pid, int from_proc, uint64_t now, char *buf)
{
	const struct sonde_task *k;

	if (pid <= 0)
		return NULL;
	k = sonde_tasks_find(t, (uint32_t)pid);
	if (k && k->comm[0])
		return k->gone_at && k->gone_at <= now ? NULL : k->comm;
	return from_proc ? proc_comm(pid, buf) : NULL;
}

const char *pids_lead(const struct sonde_tasks *t, uint32_t tid)
{
	const struct sonde_task *k = sonde_tasks_find(t, tid);

	if (!k)
		return NULL;
	return k->lead[0] ? k->lead : k->comm[0] ? k->comm : NULL;
}

void sb_comm(struct strbuf *b, const char *name)
{
	/* strace reads the name up to its newline */
	size_t n = strcspn(name, "\n");

	sb_putc(b, '<');
	sb_escape(b, (const uint8_t *)name, n, 1, 0, 1);
	sb_putc(b, '>');
}

void pr_pid_name(struct st *s, int pid)
{
	char buf[SONDE_COMM_LEN + 1];
	const char *n;

	if (s->j || !s->opt->pid_names)
		return;
	n = pids_name(s->opt->pid_names, pid, s->opt->pids_proc, s->sc->hdr.ts, buf);
	if (n)
		sb_comm(s->o, n);
}

const char *pids_note(const struct sonde_strace_opts *o, int pid, uint64_t now, char *out,
		      size_t len)
{
	char buf[SONDE_COMM_LEN + 1];
	const char *n = o->pid_names ? pids_name(o->pid_names, pid, o->pids_proc, now, buf) : NULL;
	struct strbuf b;

	if (!n || !len)
		return NULL;
	sb_init(&b);
	sb_comm(&b, n);
	snprintf(out, len, "%s", b.s && !b.oom ? b.s : "");
	sb_free(&b);
	return out[0] ? out : NULL;
}

void pr_pid(struct st *s, uint64_t v)
{
	pr_int(s, v);
	pr_pid_name(s, (int)v);
}

/* The call suspends its caller until the child exec'd or exited. */
static int vforks(const struct st *s)
{
	uint64_t flags;

	switch (s->sc->nr) {
	case __NR_vfork:
		return 1;
	case __NR_clone:
		return !!(st_arg(s, 0) & CLONE_VFORK);
	case __NR_clone3:
		return st_peek(s, SONDE_PL_ENTRY, st_arg(s, 0), &flags, sizeof(flags)) &&
		       (flags & CLONE_VFORK);
	}
	return 0;
}

void pr_pid_child(struct st *s, uint64_t v)
{
	const struct sonde_task *k;

	pr_int(s, v);
	if (s->j || !s->opt->pid_names || (int)v <= 0)
		return;
	/* A vfork returns once the child has exec'd: strace names it after
	 * the new program, which the trace says after the call's entry,
	 * where it is decoded. The name goes in when the line is printed
	 * (pids_fill_line). */
	if (vforks(s)) {
		sb_putc(s->o, PIDS_LATE_NAME);
		return;
	}
	k = sonde_tasks_find(s->opt->pid_names, s->sc->hdr.tid);
	if (k && k->comm[0])
		sb_comm(s->o, k->comm);
}

void pids_fill_line(struct strbuf *line, const struct sonde_tasks *t, int from_proc)
{
	char *m = line->s ? memchr(line->s, PIDS_LATE_NAME, line->len) : NULL;
	char buf[SONDE_COMM_LEN + 1];
	struct strbuf b;
	const char *n;
	size_t at;

	if (!m)
		return;
	sb_init(&b);
	sb_putn(&b, line->s, (size_t)(m - line->s));
	at = b.len;
	while (at > 0 && b.s[at - 1] >= '0' && b.s[at - 1] <= '9')
		at--;
	n = pids_name(t, atoi(b.s + at), from_proc, UINT64_MAX, buf);
	if (n)
		sb_comm(&b, n);
	sb_puts(&b, m + 1);
	pids_fill_line(&b, t, from_proc);
	if (b.oom) {
		line->oom = 1;
		sb_free(&b);
		return;
	}
	sb_free(line);
	*line = b;
}
