// SPDX-License-Identifier: GPL-2.0
/*
 * The text renderer: strace -f -T lines for syscalls, decoded by the
 * strace decoders (include/sonde/strace.h) wherever they know the call,
 * with the user memory the trace captured (paths, buffers, structs; the
 * address where none was captured, as strace prints memory it cannot
 * read); other syscalls, and all of them with --raw, show their raw
 * arguments in hex for the syscall's arity (as strace -e raw=all).
 * "--- ... ---" / "+++ ... +++" lines for everything else:
 *
 *   [pid  1234] openat(AT_FDCWD, "/etc/passwd", O_RDONLY|O_CLOEXEC) = 3 <0.000012>
 *   [pid  1234] openat(AT_FDCWD, 0x7ffd1c, O_RDONLY) = -1 ENOENT (No such file or directory) <...>
 *   [pid  1234] syscall_0x1f4(0x1, 0x2, 0, 0, 0, 0) = -1 EINVAL (Invalid argument) <...>
 *   [pid  1234] exit_group(0)                 = ?
 *   [pid  1234] wait4(-1, 0x7ffd, 0, NULL <unfinished ...>
 *   [pid  1234] +++ exited with 0 +++
 *   --- lost 12 events on cpu 1 (ring buffer full) ---
 *
 * As in strace, " = " is aligned on column 40 when the call is short.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <sonde/analysis.h>
#include <sonde/format.h>
#include <sonde/render.h>
#include <sonde/signal.h>
#include <sonde/strace.h>
#include <sonde/syscalls.h>

#define TEXT_RESULT_COL 40

struct text_priv {
	struct sonde_strace_opts so; /* the decoders' options: -s, -v, -X, -x */
	struct sonde_line ret;	     /* the decoded return value */
	struct sonde_strace *fdp;    /* -y: descriptor tables, prints nothing */
	struct sonde_line scratch;   /* -y: what an undecoded call names */
};

static int text_open(struct sonde_render *r)
{
	struct text_priv *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	sonde_strace_opts_init(&p->so);
	if (r->opts.strsize)
		p->so.strsize = r->opts.strsize;
	p->so.verbose = !!r->opts.verbose;
	p->so.xlat = (uint8_t)r->opts.xlat;
	p->so.xstr = (uint8_t)r->opts.xstr;
	if (r->opts.fd_paths) {
		p->fdp = sonde_render_fd_tables(r);
		if (!p->fdp) {
			free(p);
			return -ENOMEM;
		}
	}
	r->priv = p;
	return 0;
}

static int text_close(struct sonde_render *r)
{
	struct text_priv *p = r->priv;

	sonde_line_free(&p->ret);
	sonde_line_free(&p->scratch);
	sonde_strace_free(p->fdp);
	free(p);
	r->priv = NULL;
	return 0;
}

static void text_ts(struct sonde_render *r, struct sonde_line *l, uint64_t ts)
{
	uint64_t base, d;
	int64_t wall;

	switch (r->opts.ts) {
	case SONDE_TS_NONE:
		return;
	case SONDE_TS_TOD:
	case SONDE_TS_TOD_US:
		sonde_render_tod(r, l, ts, r->opts.ts == SONDE_TS_TOD_US);
		break;
	case SONDE_TS_EPOCH:
		wall = sonde_ts_to_wall(r->meta, ts);
		if (!wall)
			wall = (int64_t)ts;
		sonde_line_printf(l, "%" PRId64 ".%06" PRId64, wall / 1000000000,
				  wall % 1000000000 / 1000);
		break;
	case SONDE_TS_DELTA:
	case SONDE_TS_START:
		base = r->opts.ts == SONDE_TS_DELTA ? r->prev_ts : r->first_ts;
		d = ts >= base ? ts - base : base - ts;
		sonde_line_printf(l, "%s%6" PRIu64 ".%06" PRIu64, ts >= base ? "" : "-",
				  d / 1000000000, d % 1000000000 / 1000);
		r->prev_ts = ts;
		break;
	}
	sonde_line_putc(l, ' ');
}

static void text_prefix(struct sonde_render *r, const struct sonde_hdr *rec)
{
	text_ts(r, &r->line, rec->ts);
	sonde_line_printf(&r->line, "[pid %5" PRIu32 "] ", rec->tid);
}

static void text_dur(struct sonde_render *r, uint64_t dur)
{
	if (!r->opts.no_dur)
		sonde_line_printf(&r->line, " <%" PRIu64 ".%06" PRIu64 ">", dur / 1000000000,
				  dur % 1000000000 / 1000);
}

/* "= 3", "= 0x7f12...", "= -1 ENOENT (...)", "= ? ERESTARTSYS (...)" */
static void text_ret(struct sonde_render *r, const struct sonde_ev_syscall *e)
{
	struct sonde_line *l = &r->line;
	char buf[64];

	if (sonde_syscall_failed(e->ret)) {
		int err = (int)-e->ret;
		const char *name = sonde_errno_name(err);

		sonde_line_printf(l, "= %s ", sonde_errno_is_restart(err) ? "?" : "-1");
		if (name)
			sonde_line_printf(l, "%s ", name);
		else
			sonde_line_printf(l, "errno %d ", err);
		sonde_line_printf(l, "(%s)", sonde_errno_text(err, buf, sizeof(buf)));
	} else if (sonde_render_sc_ret_addr(r, e->nr)) {
		sonde_line_printf(l, "= %#" PRIx64, (uint64_t)e->ret);
	} else {
		sonde_line_printf(l, "= %" PRId64, (int64_t)e->ret);
	}
}

/* A call -p or --comm found blocked: its time starts at the attach; one a
 * seccomp filter answered: the kernel never ran it. */
static int text_emit_call(struct sonde_render *r, const struct sonde_hdr *rec)
{
	if (rec->flags & SONDE_SC_ATTACHED)
		sonde_line_printf(&r->line, " (entered before recording began)");
	if (rec->flags & SONDE_SC_POKED)
		sonde_line_printf(&r->line, " (memory written by -e inject)");
	if (rec->flags & SONDE_SC_INJECTED)
		sonde_line_printf(&r->line, " (result injected)");
	else if (rec->flags & SONDE_SC_NO_ENTRY)
		sonde_line_printf(&r->line, " (answered by seccomp, never entered)");
	if (rec->flags & SONDE_SC_DELAYED)
		sonde_line_printf(&r->line, " (delayed by -e inject)");
	return sonde_render_emit(r);
}

static int text_syscall(struct sonde_render *r, const struct sonde_hdr *rec)
{
	const struct sonde_ev_syscall *e = (const void *)rec;
	struct sonde_line *l = &r->line;
	unsigned int nargs = sonde_render_sc_nargs(r, e->nr);
	char buf[32];

	text_prefix(r, rec);
	sonde_line_printf(l, "%s(", sonde_render_sc_name(r, e->nr, buf, sizeof(buf)));
	for (unsigned int i = 0; i < nargs && i < 6; i++)
		sonde_line_printf(l, "%s%#" PRIx64, i ? ", " : "", (uint64_t)e->args[i]);
	if (rec->flags & SONDE_SC_UNFINISHED) {
		sonde_line_printf(l, " <unfinished ...>");
		return text_emit_call(r, &e->hdr);
	}
	sonde_line_putc(l, ')');
	sonde_line_tab(l, TEXT_RESULT_COL);
	if (rec->flags & (SONDE_SC_NORETURN | SONDE_SC_KILLED)) {
		sonde_line_printf(l, "= ?");
		return text_emit_call(r, &e->hdr);
	}
	text_ret(r, e);
	text_dur(r, e->dur);
	return text_emit_call(r, &e->hdr);
}

/* A syscall the decoders know: strace's own text for it. */
static int text_call(struct sonde_render *r, const struct sonde_call *c)
{
	const struct sonde_ev_syscall *e = c->sc;
	struct text_priv *p = r->priv;
	struct sonde_line *l = &r->line;

	if (r->opts.raw || !sonde_render_sc_decoded(r, e->nr)) {
		/* -y: the tables follow every call, shown decoded or not. */
		sonde_line_reset(&p->scratch);
		if (p->fdp && sonde_strace_fd_paths(p->fdp, c, &p->scratch))
			l->oom = 1;
		return text_syscall(r, &e->hdr);
	}
	text_prefix(r, &e->hdr);
	sonde_line_reset(&p->ret);
	if (p->fdp)
		sonde_strace_text_fds(p->fdp, &p->so, c, l, &p->ret);
	else
		sonde_strace_text(&p->so, c, l, &p->ret);
	if (p->ret.oom)
		l->oom = 1;
	if (e->hdr.flags & SONDE_SC_UNFINISHED) {
		/* "wait4(-1, 0x7ffd, 0, NULL <unfinished ...>" as strace */
		if (l->len && l->buf[l->len - 1] == ')')
			l->buf[--l->len] = '\0';
		sonde_line_printf(l, " <unfinished ...>");
		return text_emit_call(r, &e->hdr);
	}
	sonde_line_tab(l, TEXT_RESULT_COL);
	sonde_line_printf(l, "= %s", p->ret.buf ? p->ret.buf : "");
	if (!(e->hdr.flags & (SONDE_SC_NORETURN | SONDE_SC_KILLED)))
		text_dur(r, e->dur);
	return text_emit_call(r, &e->hdr);
}

/* -y: a call the filters hide still opens and closes descriptors. */
static int text_hidden(struct sonde_render *r, const struct sonde_call *c)
{
	struct text_priv *p = r->priv;

	if (!p->fdp)
		return 0;
	sonde_line_reset(&p->scratch);
	return sonde_strace_fd_paths(p->fdp, c, &p->scratch);
}

static void text_comm(struct sonde_line *l, const char *comm)
{
	sonde_line_cstr(l, comm, strnlen(comm, SONDE_COMM_LEN));
}

static int text_switch(struct sonde_render *r, const struct sonde_hdr *rec)
{
	const struct sonde_ev_switch *e = (const void *)rec;
	struct sonde_line *l = &r->line;

	text_prefix(r, rec);
	sonde_line_printf(l, "--- sched_switch cpu=%u ", rec->cpu);
	text_comm(l, e->prev_comm);
	sonde_line_printf(l, " prio=%d state=", e->prev_prio);
	sonde_render_task_state(l, e->prev_state, 1);
	sonde_line_printf(l, " => ");
	text_comm(l, e->next_comm);
	sonde_line_printf(l, " pid=%" PRIu32 " tid=%" PRIu32 " prio=%d ---", e->next_pid,
			  e->next_tid, e->next_prio);
	return sonde_render_emit(r);
}

static int text_wakeup(struct sonde_render *r, const struct sonde_hdr *rec)
{
	const struct sonde_ev_wakeup *e = (const void *)rec;

	text_prefix(r, rec);
	sonde_line_printf(&r->line, "--- %s prio=%d target_cpu=%" PRIu32 " waker=%" PRIu32 " ---",
			  rec->flags & SONDE_WAKEUP_NEW ? "sched_wakeup_new" : "sched_wakeup",
			  e->prio, e->target_cpu, e->waker_tid);
	return sonde_render_emit(r);
}

static int text_fork(struct sonde_render *r, const struct sonde_hdr *rec)
{
	const struct sonde_ev_fork *e = (const void *)rec;
	struct sonde_line *l = &r->line;

	text_prefix(r, rec);
	if (e->child_pid == rec->pid)
		sonde_line_printf(l, "--- new thread tid=%" PRIu32, e->child_tid);
	else
		sonde_line_printf(l, "--- new process pid=%" PRIu32, e->child_pid);
	sonde_line_printf(l, " flags=%#" PRIx64 " comm=", (uint64_t)e->clone_flags);
	text_comm(l, e->child_comm);
	sonde_line_printf(l, " ---");
	return sonde_render_emit(r);
}

/* Appends ["a", "b"] from n bytes of NUL-separated strings. */
static void text_argv(struct sonde_line *l, const char *p, size_t n)
{
	size_t i = 0;
	int first = 1;

	sonde_line_putc(l, '[');
	while (i < n) {
		size_t k = strnlen(p + i, n - i);

		sonde_line_printf(l, "%s", first ? "" : ", ");
		sonde_line_cstr(l, p + i, k);
		first = 0;
		i += k + 1;
	}
	sonde_line_putc(l, ']');
}

static int text_exec(struct sonde_render *r, const struct sonde_hdr *rec)
{
	const struct sonde_ev_exec *e = (const void *)rec;
	const char *data = (const char *)(e + 1);
	struct sonde_line *l = &r->line;

	text_prefix(r, rec);
	sonde_line_printf(l, "--- exec ");
	sonde_line_cstr(l, data, strnlen(data, e->filename_len));
	sonde_line_putc(l, ' ');
	text_argv(l, data + e->filename_len, e->argv_len);
	if (rec->flags & SONDE_EXEC_ARGV_TRUNC)
		sonde_line_printf(l, " (argv truncated, argc %" PRIu32 ")", e->argc);
	if (e->old_tid != rec->tid)
		sonde_line_printf(l, " (by thread %" PRIu32 ")", e->old_tid);
	sonde_line_printf(l, " ---");
	return sonde_render_emit(r);
}

static int text_exit(struct sonde_render *r, const struct sonde_hdr *rec)
{
	text_prefix(r, rec);
	sonde_line_printf(&r->line, "+++ ");
	sonde_render_exit_status(&r->line, ((const struct sonde_ev_exit *)rec)->code);
	sonde_line_printf(&r->line, " +++");
	return sonde_render_emit(r);
}

static int text_comm_rec(struct sonde_render *r, const struct sonde_hdr *rec)
{
	text_prefix(r, rec);
	sonde_line_printf(&r->line, "--- comm ");
	text_comm(&r->line, ((const struct sonde_ev_comm *)rec)->comm);
	sonde_line_printf(&r->line, " ---");
	return sonde_render_emit(r);
}

/* "--- pid namespace 4026532641 (level 1): tid 1 pid 1 ---" */
static int text_nspid(struct sonde_render *r, const struct sonde_hdr *rec)
{
	const struct sonde_ev_nspid *e = (const void *)rec;

	text_prefix(r, rec);
	sonde_line_printf(&r->line,
			  "--- pid namespace %" PRIu64 " (level %" PRIu32 "): tid %" PRIu32
			  " pid %" PRIu32 " ---",
			  (uint64_t)e->ns_inum, e->level, e->ns_tid, e->ns_pid);
	return sonde_render_emit(r);
}

/* "--- image /usr/lib/.../libc.so.6 0x7f..-0x7f.. at 0x26000 ---" */
static int text_image(struct sonde_render *r, const struct sonde_hdr *rec)
{
	const struct sonde_ev_image *e = (const void *)rec;
	char path[SONDE_IMAGE_PATH_MAX + 1];

	if (sonde_image_path(rec, path, sizeof(path)))
		snprintf(path, sizeof(path), "?");
	text_prefix(r, rec);
	sonde_line_printf(&r->line, "--- %s %s%s %#" PRIx64 "-%#" PRIx64 " %s at %#" PRIx64 " ---",
			  rec->flags & SONDE_IMAGE_EXEC ? "program" : "mapped", path,
			  rec->flags & SONDE_IMAGE_TRUNC ? " (cut)" : "", (uint64_t)e->start,
			  (uint64_t)e->end, rec->flags & SONDE_IMAGE_X ? "exec" : "noexec",
			  (uint64_t)e->pgoff);
	return sonde_render_emit(r);
}

static int text_proc(struct sonde_render *r, const struct sonde_hdr *rec)
{
	const struct sonde_ev_proc *e = (const void *)rec;
	struct sonde_line *l = &r->line;

	/* The command's descriptors before its execve, or more of a
	 * process's descriptors: not a process. */
	if (rec->flags & (SONDE_PROC_LAUNCHED | SONDE_PROC_FDS_CONT))
		return 0;
	text_prefix(r, rec);
	sonde_line_printf(l, "--- process ppid=%" PRIu32 " comm=", e->ppid);
	text_comm(l, e->comm);
	sonde_line_printf(l, " cmdline=");
	text_argv(l, (const char *)(e + 1), e->cmdline_len);
	sonde_line_printf(l, " ---");
	return sonde_render_emit(r);
}

static int text_lost(struct sonde_render *r, const struct sonde_hdr *rec)
{
	const struct sonde_ev_lost *e = (const void *)rec;

	text_ts(r, &r->line, rec->ts);
	sonde_line_printf(&r->line, "--- lost %" PRIu64 " events on cpu %u%s ---",
			  (uint64_t)e->count, rec->cpu,
			  e->kind == SONDE_LOST_RING	 ? " (ring buffer full)"
			  : e->kind == SONDE_LOST_WRITER ? " (could not be written)"
							 : "");
	return sonde_render_emit(r);
}

/* strace's "--- SIGCHLD {si_signo=SIGCHLD, ...} ---" */
static void text_siginfo(struct sonde_line *l, const struct sonde_ev_signal *e, int xlat)
{
	char b[16], si[256];
	const char *n = sonde_sig_name(e->si.signo, b, sizeof(b));

	sonde_siginfo_format_x(si, sizeof(si), &e->si, xlat);
	if (n)
		sonde_line_printf(l, "%s %s", n, si);
	else
		sonde_line_printf(l, "%d %s", e->si.signo, si);
}

static int text_signal(struct sonde_render *r, const struct sonde_hdr *rec)
{
	text_prefix(r, rec);
	sonde_line_printf(&r->line, "--- ");
	text_siginfo(&r->line, (const void *)rec, r->opts.xlat);
	/* The run-down of a dying group: the kernel passes no siginfo. */
	if (rec->flags & (SONDE_SIG_NOINFO | SONDE_SIG_PRIV))
		sonde_line_printf(&r->line, " (no siginfo)");
	sonde_line_printf(&r->line, " ---");
	return sonde_render_emit(r);
}

/* "--- sent SIGTERM {...} by 1234/1234: delivered ---" */
static int text_siggen(struct sonde_render *r, const struct sonde_hdr *rec)
{
	const struct sonde_ev_signal *e = (const void *)rec;
	const char *res = sonde_sig_result_name(e->result);

	text_prefix(r, rec);
	sonde_line_printf(&r->line, "--- sent ");
	text_siginfo(&r->line, e, r->opts.xlat);
	sonde_line_printf(&r->line, " by %" PRIu32 "/%" PRIu32 "%s: %s%s ---", e->sender_pid,
			  e->sender_tid, rec->flags & SONDE_SIG_GROUP ? " to the process" : "",
			  res ? res : "?", rec->flags & SONDE_SIG_EXITING ? ", process exiting" : "");
	return sonde_render_emit(r);
}

static int (*const text_by_type[SONDE_REC_TYPE_MAX])(struct sonde_render *,
						     const struct sonde_hdr *) = {
	[SONDE_REC_SYSCALL] = text_syscall, [SONDE_REC_SWITCH] = text_switch,
	[SONDE_REC_WAKEUP] = text_wakeup,   [SONDE_REC_FORK] = text_fork,
	[SONDE_REC_EXEC] = text_exec,	    [SONDE_REC_EXIT] = text_exit,
	[SONDE_REC_COMM] = text_comm_rec,   [SONDE_REC_LOST] = text_lost,
	[SONDE_REC_PROC] = text_proc,	    [SONDE_REC_SIGNAL] = text_signal,
	[SONDE_REC_SIGGEN] = text_siggen,   [SONDE_REC_NSPID] = text_nspid,
	[SONDE_REC_IMAGE] = text_image,
};

static int text_record(struct sonde_render *r, const struct sonde_hdr *rec)
{
	struct text_priv *p = r->priv;

	/* -y: forks share or copy tables, exits drop them, proc records
	 * say what a process held when recording began. */
	if (p->fdp)
		sonde_strace_record(p->fdp, rec);
	return text_by_type[rec->type](r, rec);
}

const struct sonde_renderer sonde_render_text = {
	.name = "text",
	.summary = "strace-like lines, arguments decoded (raw hex for the rest)",
	.open = text_open,
	.record = text_record,
	.call = text_call,
	.hidden = text_hidden,
	.close = text_close,
};
