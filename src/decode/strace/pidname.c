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

/* The task table -Y or pidns keep, or NULL. */
static const struct sonde_tasks *pid_table(const struct sonde_strace_opts *o)
{
	return o->pid_names ? o->pid_names : o->pid_ns;
}

uint32_t pids_global(const struct sonde_strace_opts *o, uint32_t tid, int pid, uint64_t now)
{
	const struct sonde_tasks *t = pid_table(o);
	const struct sonde_task *k;
	uint32_t g;

	if (pid <= 0)
		return 0;
	if (!t)
		return (uint32_t)pid;
	g = sonde_tasks_ns_global(t, tid, (uint32_t)pid);
	if (g == (uint32_t)pid)
		return g;
	/* strace finds a tracee's pid in /proc's NSpid lines: not once
	 * the task is gone */
	k = g ? sonde_tasks_find(t, g) : NULL;
	return k && !(k->gone_at && k->gone_at <= now) ? g : 0;
}

void pids_decorate(struct strbuf *b, const struct sonde_strace_opts *o, uint32_t tid, int pid,
		   uint64_t now)
{
	uint32_t g = pids_global(o, tid, pid, now);
	char buf[SONDE_COMM_LEN + 1];
	const char *n;

	if (!g)
		return;
	n = o->pid_names ? pids_name(o->pid_names, (int)g, o->pids_proc, now, buf) : NULL;
	if (n)
		sb_comm(b, n);
	if (o->pid_ns && g != (uint32_t)pid)
		sb_printf(b, " /* %u in strace's PID NS */", g);
}

void pr_pid_name(struct st *s, int pid)
{
	if (!s->j)
		pids_decorate(s->o, s->opt, s->sc->hdr.tid, pid, s->sc->hdr.ts);
}

const char *pids_note(const struct sonde_strace_opts *o, uint32_t tid, int pid, uint64_t now,
		      char *out, size_t len)
{
	struct strbuf b;

	if (!len)
		return NULL;
	sb_init(&b);
	pids_decorate(&b, o, tid, pid, now);
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
		return st_read(s, SONDE_PL_ENTRY, st_arg(s, 0), &flags, sizeof(flags)) &&
		       (flags & CLONE_VFORK);
	}
	return 0;
}

/* The task's namespace is not the initial one. */
static int in_child_ns(const struct sonde_tasks *t, uint32_t tid)
{
	const struct sonde_task *k = t ? sonde_tasks_find(t, tid) : NULL;

	return k && k->ns_inum;
}

/*
 * A child's id: -Y names it, pidns translates it. Both may have to wait
 * for the line's printing: a vfork returns once the child has exec'd,
 * and strace names it after the new program, which the trace says after
 * the call's entry, where it is decoded; and a child in another pid
 * namespace is numbered there by a record of its fork, inside the call.
 * Then a marker stands for them (pids_fill_line): PIDS_LATE_NAME, 'n'
 * (name and translation) or 't' (translation), the caller's tid, ',',
 * the id as printed, PIDS_LATE_END.
 */
void pr_pid_child(struct st *s, uint64_t v)
{
	const struct sonde_tasks *t = pid_table(s->opt);
	const struct sonde_task *k;
	int late_name;

	pr_int(s, v);
	if (s->j || !t || (int)v <= 0)
		return;
	late_name = s->opt->pid_names && vforks(s);
	/* a new process has its parent's name until it execs */
	k = s->opt->pid_names && !late_name ? sonde_tasks_find(t, s->sc->hdr.tid) : NULL;
	if (k && k->comm[0])
		sb_comm(s->o, k->comm);
	if (late_name || (s->opt->pid_ns && in_child_ns(t, s->sc->hdr.tid)))
		sb_printf(s->o, "%c%c%u,%d%c", PIDS_LATE_NAME, late_name ? 'n' : 't',
			  s->sc->hdr.tid, (int)v, PIDS_LATE_END);
}

/* What a marker of pr_pid_child's stands for, now. */
static void late_fill(struct strbuf *b, const struct sonde_strace_opts *o, const char *m)
{
	const struct sonde_tasks *t = pid_table(o);
	char buf[SONDE_COMM_LEN + 1];
	unsigned int tid = 0;
	const char *n;
	uint32_t g;
	int pid = 0;

	if (!t || sscanf(m + 2, "%u,%d", &tid, &pid) != 2 || pid <= 0)
		return;
	g = sonde_tasks_ns_global(t, tid, (uint32_t)pid);
	n = m[1] == 'n' && g ? pids_name(t, (int)g, o->pids_proc, UINT64_MAX, buf) : NULL;
	if (n)
		sb_comm(b, n);
	if (o->pid_ns && g && g != (uint32_t)pid)
		sb_printf(b, " /* %u in strace's PID NS */", g);
}

void pids_fill_line(struct strbuf *line, const struct sonde_strace_opts *o)
{
	char *m = line->s ? memchr(line->s, PIDS_LATE_NAME, line->len) : NULL;
	const char *end;
	struct strbuf b;

	if (!m)
		return;
	sb_init(&b);
	sb_putn(&b, line->s, (size_t)(m - line->s));
	late_fill(&b, o, m);
	end = strchr(m + 1, PIDS_LATE_END);
	sb_puts(&b, end ? end + 1 : "");
	pids_fill_line(&b, o);
	if (b.oom) {
		line->oom = 1;
		sb_free(&b);
		return;
	}
	sb_free(line);
	*line = b;
}

void pr_pgid(struct st *s, uint64_t v)
{
	uint32_t g;

	pr_int(s, v);
	if (s->j || !s->opt->pid_ns || (int64_t)v <= 0)
		return;
	g = pids_global(s->opt, s->sc->hdr.tid, (int)v, s->sc->hdr.ts);
	if (g && g != v)
		sb_printf(s->o, " /* %u in strace's PID NS */", g);
}
