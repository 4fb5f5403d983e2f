// SPDX-License-Identifier: GPL-2.0
/*
 * The strace text renderer: one line per call in strace's exact layout,
 *
 *   PID  TIMESTAMP name(args)   = ret <dur>
 *   | hexdump lines for -e read=/write=
 *   PID  +++ exited with 0 +++
 *
 * with " = " padded to the -a column (40), the prefix and timestamp
 * counted in that column as strace does. The renderer also keeps the
 * descriptor tables -y needs, fed by every call, shown or not.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <sonde/signal.h>
#include <sonde/render.h>
#include <sonde/payload.h>
#include <sonde/analysis.h>

#include "decode/strace/strace_int.h"
#include "decode/strace/render_int.h"
#include "decode/strace/pathtrace.h"
#include "decode/strace/ffout.h"
#include "decode/strace/pidname.h"


struct sonde_strace *sonde_strace_new(const struct sonde_strace_opts *o,
				      FILE *out)
{
	struct sonde_strace *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->o = *o;
	st->out = out;
	st->fds = fdtab_new();
	if (!st->fds) {
		free(st);
		return NULL;
	}
	fdtab_resolve_links(st->fds, o->resolve_links);
	st->o.pid_names = NULL;
	st->o.pid_ns = NULL;
	if (((o->show_nr || o->show_ip || o->decode_pids || o->pidns) &&
	     !(st->tasks = sonde_tasks_new())) ||
	    (o->stack_trace && !(st->ustack = sonde_ustack_new())) ||
	    (o->ff_prefix && !(st->ff = ffout_new(o->ff_prefix, o->append)))) {
		sonde_strace_free(st);
		return NULL;
	}
	if (o->decode_pids)
		st->o.pid_names = st->tasks;
	if (o->pidns)
		st->o.pid_ns = st->tasks;
	return st;
}

void sonde_strace_free(struct sonde_strace *st)
{
	if (!st)
		return;
	feed_free(&st->feed);
	fdtab_free(st->fds);
	sb_free(&st->line);
	sb_free(&st->otext);
	sb_free(&st->oret);
	sb_free(&st->odump);
	callq_free(&st->q);
	free(st->threads);
	free(st->leaders);
	free(st->detached);
	attach_free(st);
	sonde_tasks_free(st->tasks);
	strace_stack_free(st);
	ffout_free(st->ff);
	free(st);
}

int sonde_strace_set_fd(struct sonde_strace *st, uint32_t pid, int fd,
			const char *path)
{
	return fdtab_set(st->fds, pid, fd, path);
}

uint64_t sonde_strace_lines(const struct sonde_strace *st)
{
	return st->lines;
}

uint64_t sonde_strace_lines_noip(const struct sonde_strace *st)
{
	return st->noip;
}

uint64_t sonde_strace_lines_nostack(const struct sonde_strace *st)
{
	return st->nostack;
}

size_t sonde_strace_format(struct sonde_strace *st,
			   const struct sonde_strace_opts *o,
			   const struct sonde_call *c, char *buf, size_t len)
{
	struct strbuf a, r;
	size_t n;

	sb_init(&a);
	sb_init(&r);
	st_format_args(&a, o, c, st ? st->fds : NULL, &r, NULL, NULL, NULL);
	sb_puts(&a, " = ");
	if (r.s)
		sb_puts(&a, r.s);
	n = a.len;
	if (len)
		snprintf(buf, len, "%s", a.s ? a.s : "");
	sb_free(&a);
	sb_free(&r);
	return n;
}

/* The formatted arguments and return value into the caller's lines (oom:
 * formatting ran out of memory, the lines say so); frees a and r. */
static void lines_take(struct sonde_line *call, struct sonde_line *ret, struct strbuf *a,
		       struct strbuf *r, bool oom)
{
	if (oom)
		call->oom = 1;
	sonde_line_printf(call, "%s", a->s ? a->s : "");
	sonde_line_printf(ret, "%s", r->s ? r->s : "");
	sb_free(a);
	sb_free(r);
}

int sonde_strace_text(const struct sonde_strace_opts *o, const struct sonde_call *c,
		      struct sonde_line *call, struct sonde_line *ret)
{
	struct strbuf a, r;

	if (!sonde_strace_is_decoded(c->sc->nr))
		return -ENOENT;
	sb_init(&a);
	sb_init(&r);
	st_format_args(&a, o, c, NULL, &r, NULL, NULL, NULL);
	lines_take(call, ret, &a, &r, a.oom || r.oom);
	return 0;
}

int sonde_strace_json(const struct sonde_strace_opts *o, const struct sonde_call *c,
		      struct sonde_line *args, struct sonde_line *res)
{
	struct sonde_strace_opts jo = *o;

	jo.verbose = 1;
	jo.xlat = SONDE_XLAT_ABBREV;
	jo.xstr = 0;
	jo.decode_fds = 0;
	if (!jo.strsize)
		jo.strsize = UINT32_MAX;
	return st_format_json(args, res, &jo, c) ? -ENOENT : 0;
}

/* A string argument's bytes, NUL-terminated in tmp, for the fd tables. */
static const char *arg_string(const struct sonde_call *c, uint64_t addr,
			      char *tmp, size_t len)
{
	const struct sonde_payload *p = sonde_call_mem(c, SONDE_PL_ENTRY, addr, 0);
	size_t n;

	if (!addr || !p || (p->flags & SONDE_PLF_UNREADABLE))
		return NULL;
	n = p->captured - (addr - p->addr);
	if (n >= len)
		n = len - 1;
	if (n)
		memcpy(tmp, p->data + (addr - p->addr), n);
	tmp[n] = 0;
	return tmp;
}

/*
 * The path the kernel recorded for a descriptor received with SCM_RIGHTS
 * (bpf/scm.h): its components leaf first, NUL-terminated, joined here
 * root first. -1 when there is none.
 */
static int fdpath_of(const struct sonde_call *c, uint64_t addr, char *out, size_t len)
{
	for (unsigned int i = 0; i < c->npl; i++) {
		const struct sonde_payload *p = &c->pl[i];

		if (p->phase != SONDE_PL_FDPATH || p->addr != addr ||
		    (p->flags & SONDE_PLF_UNREADABLE))
			continue;
		if (sonde_path_components(p->data, p->captured, out, len))
			return -1;
		if (p->returned == 1)
			snprintf(out + strlen(out), len - strlen(out), " (deleted)");
		return strlen(out) + 1 < len ? 0 : -1;
	}
	return -1;
}

/*
 * What the kernel said the new descriptors are (socket:[N], pipe:[N]);
 * descriptors received with SCM_RIGHTS (addr: where their number is in
 * the cmsg) also by their path, close-on-exec under MSG_CMSG_CLOEXEC.
 */
static void track_fdinfo(struct sonde_strace *st, const struct sonde_call *c)
{
	const struct sonde_ev_syscall *sc = c->sc;
	int recv = sc->nr == __NR_recvmsg || sc->nr == __NR_recvmmsg;
	uint64_t flags = sc->args[sc->nr == __NR_recvmsg ? 2 : 3];

	for (unsigned int i = 0; i < c->npl; i++) {
		const struct sonde_payload *p = &c->pl[i];

		if (p->phase != SONDE_PL_FDINFO || (p->flags & SONDE_PLF_UNREADABLE))
			continue;
		for (uint32_t off = 0; off + sizeof(struct sonde_fdinfo) <= p->captured;
		     off += sizeof(struct sonde_fdinfo)) {
			struct sonde_fdinfo fi;
			char name[4200];
			int named;

			memcpy(&fi, p->data + off, sizeof(fi));
			/* A new descriptor is never negative: in a hostile
			 * file -100 would name the working directory. */
			if (fi.fd < 0)
				continue;
			named = !sonde_fdinfo_name(&fi, name, sizeof(name)) ||
				(recv && !fdpath_of(c, p->addr, name, sizeof(name)));
			if (recv && p->addr)
				fdtab_open(st->fds, sc->hdr.tid, fi.fd, named ? name : NULL,
					   !!(flags & MSG_CMSG_CLOEXEC));
			else if (named)
				fdtab_name(st->fds, sc->hdr.tid, fi.fd, name);
		}
	}
}

/*
 * -yy: what the kernel said the call's sockets are named and bound to,
 * when it returned. Calls are printed in the order they entered: a
 * recvmsg entered before the sendto that bound the socket it receives
 * is printed before it, with facts read after it (fdtab_detail's when).
 */
static void track_sockinfo(struct sonde_strace *st, const struct sonde_call *c)
{
	for (unsigned int i = 0; i < c->npl; i++) {
		const struct sonde_payload *p = &c->pl[i];

		if (p->phase != SONDE_PL_SOCKINFO || (p->flags & SONDE_PLF_UNREADABLE))
			continue;
		for (uint32_t off = 0; off + sizeof(struct sonde_sockinfo) <= p->captured;
		     off += sizeof(struct sonde_sockinfo)) {
			struct sonde_sockinfo si;

			memcpy(&si, p->data + off, sizeof(si));
			fdtab_sock(st->fds, c->sc->hdr.tid, &si, c->sc->hdr.ts + c->sc->dur);
		}
	}
}

/* CLONE_PIDFD: the kernel stored the pidfd at clone's parent_tid, or
 * where clone3's cl_args.pidfd points. */
static void track_pidfd(const struct sonde_call *c, struct fdtab_call *f)
{
	const struct sonde_ev_syscall *sc = c->sc;
	const struct sonde_payload *p;
	uint64_t at = sc->args[2];

	if (sc->nr == __NR_clone3) {
		p = sonde_call_mem(c, SONDE_PL_ENTRY, sc->args[0], 16);
		if (!p || (p->flags & SONDE_PLF_UNREADABLE) || !(f->aux & CLONE_PIDFD))
			return;
		memcpy(&at, p->data + (sc->args[0] - p->addr) + 8, 8);
	} else if (sc->nr != __NR_clone || !(sc->args[0] & CLONE_PIDFD)) {
		return;
	}
	p = sonde_call_mem(c, SONDE_PL_EXIT, at, 4);
	if (!p || (p->flags & SONDE_PLF_UNREADABLE))
		return;
	memcpy(&f->pidfd, p->data + (at - p->addr), 4);
	f->have_pidfd = 1;
}

/* The child a wait reaped: wait4's value, waitid's si_pid (WNOWAIT
 * leaves it waitable). */
static void track_reaped(const struct sonde_call *c, struct fdtab_call *f)
{
	const struct sonde_ev_syscall *sc = c->sc;
	const struct sonde_payload *p;

	if (sc->nr == __NR_wait4 && sc->ret > 0) {
		f->reaped = (int)sc->ret;
	} else if (sc->nr == __NR_waitid && !sc->ret && !(sc->args[3] & WNOWAIT)) {
		p = sonde_call_mem(c, SONDE_PL_EXIT, sc->args[2], 20);
		if (p && !(p->flags & SONDE_PLF_UNREADABLE))
			memcpy(&f->reaped, p->data + (sc->args[2] - p->addr) + 16, 4);
	}
}

static void track_fds(struct sonde_strace *st, const struct sonde_call *c)
{
	const struct sonde_ev_syscall *sc = c->sc;
	struct fdtab_call f = { .tid = sc->hdr.tid, .pid = sc->hdr.pid, .nr = sc->nr,
				.ret = sc->ret };
	char p0[4096], p1[4096];

	for (int i = 0; i < 6; i++)
		f.args[i] = sc->args[i];

	if (sc->hdr.flags & (SONDE_SC_NORETURN | SONDE_SC_UNFINISHED))
		return;
	f.path0 = arg_string(c, sc->args[0], p0, sizeof(p0));
	f.path1 = arg_string(c, sc->args[1], p1, sizeof(p1));
	if (sc->nr == __NR_openat2 || sc->nr == __NR_clone3) {
		const struct sonde_payload *p = sonde_call_mem(
			c, SONDE_PL_ENTRY, sc->args[sc->nr == __NR_openat2 ? 2 : 0], 8);

		if (p && !(p->flags & SONDE_PLF_UNREADABLE))
			memcpy(&f.aux, p->data + (sc->args[sc->nr == __NR_openat2 ? 2 : 0] - p->addr), 8);
	}
	track_pidfd(c, &f);
	track_reaped(c, &f);
	/* the pid the wait returned, as its caller's namespace numbers it */
	if (f.reaped > 0 && (st->o.pid_names || st->o.pid_ns))
		pids_reaped(st->tasks,
			    sonde_tasks_ns_global(st->tasks, sc->hdr.tid, (uint32_t)f.reaped),
			    sc->hdr.ts + sc->dur);
	if (sc->nr == __NR_pipe || sc->nr == __NR_pipe2 || sc->nr == __NR_socketpair) {
		uint64_t a = sc->args[sc->nr == __NR_socketpair ? 3 : 0];
		const struct sonde_payload *p = sonde_call_mem(c, SONDE_PL_EXIT, a, 8);

		if (p && !(p->flags & SONDE_PLF_UNREADABLE)) {
			memcpy(f.fds, p->data + (a - p->addr), 8);
			f.have_fds = 1;
		}
	}
	fdtab_apply(st->fds, &f);
	track_fdinfo(st, c);
	track_sockinfo(st, c);
}

struct track_ctx {
	struct sonde_strace *st;
	const struct sonde_call *c;
};

static void track_mid(void *arg)
{
	struct track_ctx *t = arg;

	track_fds(t->st, t->c);
}

static int creates_fd_args(uint32_t nr)
{
	return nr == __NR_pipe || nr == __NR_pipe2 || nr == __NR_socketpair ||
	       nr == __NR_clone || nr == __NR_clone3 || /* CLONE_PIDFD */
	       nr == __NR_recvmsg || nr == __NR_recvmmsg; /* SCM_RIGHTS */
}

/* -e trace= and -P: the calls traced (and counted by -c). -P looks at
 * the descriptor tables before the call is applied to them. */
static int selected(struct sonde_strace *st, const struct sonde_call *c)
{
	if (st->o.filter_on && !sonde_sc_set_has_call(&st->o.trace, c->sc))
		return 0;
	return !st->o.paths || pathtrace_match(st->o.paths, st->fds, c);
}

/* -z, -Z, -e status=: which of the calls traced are printed. */
static int shown(const struct sonde_strace *st, const struct sonde_ev_syscall *sc)
{
	unsigned int cls = sonde_syscall_status(sc);
	int as_u32;

	if (st->o.summary_only)
		return 0;
	/* modify_ldt's errors come as u32 numbers (st_ret_errno) */
	if (cls == SONDE_STATUS_SUCCESSFUL && st_ret_errno(sc, &st->o, &as_u32))
		cls = SONDE_STATUS_FAILED;
	return !st->o.status || (st->o.status & cls);
}

/* -Y: the name the task has as it enters the call, for the line's
 * entering half (the open line's, st->open_lead). */
static void track_lead(struct sonde_strace *st, const struct sonde_call *c)
{
	const char *lead = st->o.pid_names ? pids_lead(st->tasks, c->entry_tid ? c->entry_tid
									     : c->sc->hdr.tid)
					   : NULL;

	snprintf(st->open_lead, sizeof(st->open_lead), "%s", lead ? lead : "");
}

/* -e inject's notes after the result, as strace words them. */
static void pr_tampered(struct strbuf *b, uint16_t flags)
{
	if (flags & SONDE_SC_POKED)
		sb_printf(b, " (INJECTED: args%s)", flags & SONDE_SC_INJECTED ? ", retval" : "");
	else if (flags & SONDE_SC_INJECTED)
		sb_puts(b, " (INJECTED)");
	if (flags & SONDE_SC_DELAYED)
		sb_puts(b, " (DELAYED)");
}

/* -Y: the file an execve or execveat ran (its path argument; not a
 * descriptor's, AT_EMPTY_PATH), or NULL. */
static const char *exec_path(const struct sonde_call *c, char *buf, size_t len)
{
	const struct sonde_ev_syscall *sc = c->sc;
	const char *p;

	if (sc->nr == __NR_execve)
		return arg_string(c, sc->args[0], buf, len);
	if (sc->nr != __NR_execveat)
		return NULL;
	p = arg_string(c, sc->args[1], buf, len);
	return p && *p ? p : NULL;
}

int sonde_strace_call(struct sonde_strace *st, const struct sonde_call *c)
{
	const struct sonde_ev_syscall *sc = c->sc;
	char path[4096];
	struct track_ctx tc = { st, c };
	int rc = split_release(st, sc->hdr.ts), r, det;

	r = detach_drops(st, &sc->hdr);
	if (r)
		return r < 0 ? r : rc;
	det = detach_at(st, sc);
	if (det < 0)
		return det;
	fdtab_thread(st->fds, sc->hdr.pid, sc->hdr.tid);
	r = selected(st, c);
	if (st->o.pid_names)
		pids_call(st->tasks, sc, r, exec_path(c, path, sizeof(path)));
	if (r && st->o.on_call && !det) /* strace never sees it return */
		st->o.on_call(st->o.on_call_ctx, sc);
	if (!r || !shown(st, sc)) {
		track_fds(st, c);
		r = strace_note_call(st, sc->hdr.tid, sc->nr, sonde_call_ip(c));
		return rc ? rc : r;
	}
	r = split_cut_open(st);
	rc = rc ? rc : r;
	track_lead(st, c);
	sb_reset(&st->otext);
	sb_reset(&st->oret);
	sb_reset(&st->odump);
	/* Their arguments name the new descriptors, which -y shows already
	 * decorated ([3<pipe:[N]>, 4<pipe:[N]>]). */
	if (creates_fd_args(sc->nr)) {
		track_fds(st, c);
		st_format_split(&st->otext, &st->o, c, st->fds, &st->oret, NULL, NULL, NULL,
				&st->open_cut);
	} else {
		st_format_split(&st->otext, &st->o, c, st->fds, &st->oret, track_mid, &tc, NULL,
				&st->open_cut);
	}
	st->open_ip = sonde_call_ip(c);
	if (st->open_ip && (sc->hdr.flags & SONDE_SC_COMPAT))
		st->open_ip |= STRACE_IP_I386;
	if (sc->hdr.flags & SONDE_SC_UNFINISHED) {
		r = split_unfinished(st, sc, st->open_ip);
		return rc ? rc : r;
	}
	if (sc->hdr.flags & SONDE_SC_KILLED)
		split_killed(st);
	else
		pr_tampered(&st->oret, sc->hdr.flags);
	if (!(sc->hdr.flags & (SONDE_SC_KILLED | SONDE_SC_NORETURN)) && st->o.show_time) {
		sb_printf(&st->oret, " <%llu", (unsigned long long)(sc->dur / 1000000000));
		sb_fraction(&st->oret, sc->dur, st->o.dur_digits);
		sb_putc(&st->oret, '>');
	}
	if (!(sc->hdr.flags & SONDE_SC_KILLED)) {
		strace_pr_dumps(st, c, &st->odump);
		r = strace_pr_stack(st, c, &st->odump);
		if (r)
			return r;
	}
	if (st->otext.oom || st->oret.oom || st->odump.oom)
		return -ENOMEM;
	st->open = 1;
	/* -b execve: strace lets it go at the exec (its return, here) */
	st->open_detached = det;
	st->open_ts = sc->hdr.ts;
	st->open_end = sc->hdr.ts + sc->dur;
	st->open_tid = c->entry_tid ? c->entry_tid : sc->hdr.tid;
	st->open_rtid = sc->hdr.tid;
	st->open_nr = sc->nr;
	if (st->ff) {
		r = split_close_open(st);
		rc = rc ? rc : r;
	}
	return rc;
}

/* What a process held when recording began (attached, or the command
 * sonde started), replacing what the table guessed for it. */
static int track_proc(struct sonde_strace *st, const struct sonde_hdr *rec)
{
	char path[4097];
	const char *p;
	unsigned int fl;
	size_t off = 0, len;
	int fd, e;

	if (rec->flags & SONDE_PROC_LAUNCHED) {
		st->launch_tid = st->b_launch_tid = rec->tid;
		if (attach_add(st, rec->tid))
			return -ENOMEM;
	}
	if (!(rec->flags & SONDE_PROC_FDS))
		return 0;
	/* A continuation adds to the list of the record before. */
	e = rec->flags & SONDE_PROC_FDS_CONT ? 0 : fdtab_reset(st->fds, rec->tid);
	while (!e && sonde_proc_fd_next(rec, &off, &fd, &p, &len, &fl)) {
		if (len >= sizeof(path))
			continue;
		memcpy(path, p, len);
		path[len] = 0;
		e = fdtab_open(st->fds, rec->tid, fd, path, !!(fl & SONDE_PROC_FD_CLOEXEC));
	}
	return e;
}

/* What the pid names (-Y, pidns) and the address spaces (-k) learn from
 * every record, shown or not. */
static int learn_record(struct sonde_strace *st, const struct sonde_hdr *rec)
{
	if (st->o.pid_names || st->o.pid_ns)
		pids_record(st->tasks, rec);
	return st->ustack ? sonde_ustack_record(st->ustack, rec) : 0;
}

/* A tracker (no output): only what the descriptor tables learn from. */
static int track_record(struct sonde_strace *st, const struct sonde_hdr *rec)
{
	int rc = split_release(st, rec->ts);

	if (rc)
		return rc;
	rc = learn_record(st, rec);
	if (rc)
		return rc;
	switch (rec->type) {
	case SONDE_REC_PROC:
		return track_proc(st, rec);
	case SONDE_REC_FORK:
		if (rec->size < sizeof(struct sonde_ev_fork))
			return -EINVAL;
		return fdtab_fork(st->fds, rec->tid, ((const struct sonde_ev_fork *)rec)->child_tid,
				  ((const struct sonde_ev_fork *)rec)->clone_flags);
	case SONDE_REC_EXIT:
		fdtab_exit(st->fds, rec->tid);
		return 0;
	}
	return 0;
}

/* Formats c with st's descriptor tables in o's style and applies the call
 * to them: arguments before its effect, what it returns after. */
static int track_format(struct sonde_strace *st, const struct sonde_strace_opts *o,
			const struct sonde_call *c, struct strbuf *a, struct strbuf *r,
			struct sonde_line *members)
{
	struct track_ctx tc = { st, c };

	fdtab_thread(st->fds, c->sc->hdr.pid, c->sc->hdr.tid);
	if (creates_fd_args(c->sc->nr)) {
		track_fds(st, c);
		st_format_args(a, o, c, st->fds, r, NULL, NULL, members);
	} else {
		st_format_args(a, o, c, st->fds, r, track_mid, &tc, members);
	}
	return a->oom || r->oom || (members && members->oom) ? -ENOMEM : 0;
}

int sonde_strace_fd_paths(struct sonde_strace *st, const struct sonde_call *c,
			  struct sonde_line *members)
{
	struct strbuf a, r;
	int e;

	sb_init(&a);
	sb_init(&r);
	e = track_format(st, &st->o, c, &a, &r, members);
	sb_free(&a);
	sb_free(&r);
	return e;
}

int sonde_strace_text_fds(struct sonde_strace *st, const struct sonde_strace_opts *o,
			  const struct sonde_call *c, struct sonde_line *call,
			  struct sonde_line *ret)
{
	struct sonde_strace_opts yo = *o;
	struct strbuf a, r;
	int e;

	if (!sonde_strace_is_decoded(c->sc->nr))
		return -ENOENT;
	yo.decode_fds = st->o.decode_fds;
	yo.resolve_links = st->o.resolve_links;
	sb_init(&a);
	sb_init(&r);
	e = track_format(st, &yo, c, &a, &r, NULL);
	lines_take(call, ret, &a, &r, e != 0);
	return 0;
}

int sonde_strace_record(struct sonde_strace *st, const struct sonde_hdr *rec)
{
	return strace_record(st, rec, NULL, 0);
}

int strace_record(struct sonde_strace *st, const struct sonde_hdr *rec,
		  const struct sonde_payload *pl, unsigned int npl)
{
	int rc;

	if (!st->out)
		return track_record(st, rec);
	rc = split_release(st, rec->ts);
	if (rc)
		return rc;
	rc = learn_record(st, rec);
	if (!rc)
		rc = detach_drops(st, rec);
	if (rc)
		return rc < 0 ? rc : 0;
	switch (rec->type) {
	case SONDE_REC_PROC:
		return track_proc(st, rec);
	case SONDE_REC_FORK: {
		const struct sonde_ev_fork *f = (const void *)rec;

		if (rec->size < sizeof(*f))
			return -EINVAL;
		if ((f->clone_flags & CLONE_THREAD) && (rc = strace_thread_add(st, rec->pid, f->child_tid)))
			return rc;
		if ((rc = attach_fork(st, rec->tid, f->child_tid)))
			return rc;
		return fdtab_fork(st->fds, rec->tid, f->child_tid, f->clone_flags);
	}
	case SONDE_REC_EXIT:
		if (rec->size < sizeof(struct sonde_ev_exit))
			return -EINVAL;
		return strace_pr_exit(st, (const void *)rec);
	case SONDE_REC_EXEC:
		if (rec->size >= sizeof(struct sonde_ev_exec) &&
		    ((const struct sonde_ev_exec *)rec)->old_tid != rec->pid)
			return strace_leaders_release(st, rec->pid, rec->ts,
						      ((const struct sonde_ev_exec *)rec)->old_tid);
		return 0;
	case SONDE_REC_SIGNAL:
	case SONDE_REC_SIGGEN:
		if (rec->size < sizeof(struct sonde_ev_signal))
			return -EINVAL;
		return strace_pr_signal(st, (const void *)rec, pl, npl);
	case SONDE_REC_LOST: {
		const struct sonde_ev_lost *l = (const void *)rec;

		if (rec->size < sizeof(*l))
			return -EINVAL;
		/* No strace equivalent: say it rather than leave a silent hole
		 * (-c: sonde strace says it at the end). */
		if (st->o.summary_only)
			return 0;
		rc = split_cut_open(st);
		if (rc)
			return rc;
		if (l->kind == SONDE_LOST_LIVE)
			sb_printf(&st->line,
				  "+++ sonde: %llu events not shown: the output could not keep up +++\n",
				  (unsigned long long)l->count);
		else
			sb_printf(&st->line, "+++ sonde: %llu events lost on cpu %u +++\n",
				  (unsigned long long)l->count, rec->cpu);
		return strace_emit(st);
	}
	}
	return 0;
}
