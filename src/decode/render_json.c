// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON renderer: NDJSON, one object per record. Every object starts
 * with the same keys:
 *
 *   {"type":"syscall","ts":NS,"cpu":N,"pid":N,"tid":N, ...}
 *
 * ts is the trace's CLOCK_MONOTONIC time in ns (for a syscall, its entry
 * time). Per type:
 *   syscall  name, nr, args (raw values, the syscall's arity), ret, dur,
 *            noreturn, unfinished, and errno (name) + errno_nr when ret
 *            is an error; where the strace decoders know the call, argv:
 *            the decoded arguments by name ({"dirfd":"AT_FDCWD",
 *            "pathname":"/etc/passwd","flags":["O_RDONLY"],"mode":0},
 *            see sonde_strace_json) and result: what the call returned
 *            besides its value (poll's revents, fcntl's flags...), when
 *            any; with --payload, payload: the captured memory, one
 *            object per argument ({"arg":1,"name":"buf","phase":"exit",
 *            "addr":"0x...","requested":N,"returned":N,"captured":N,
 *            "unreadable":false,"encoding":"hex","data":"..."}; the
 *            kernel's descriptor facts have "phase":"fdinfo", its socket
 *            facts "sockinfo", KVM_RUN's exit reason "kvm"); with -y,
 *            fd_paths: what each descriptor the call names referred to,
 *            by number, as strace -y shows it ({"3":"/etc/passwd",
 *            "4":"socket:[1234]"}); ip: the call's user instruction
 *            pointer ("0x7f..."), in traces recorded with --ip
 *   switch   prev_comm, prev_prio, prev_state (raw), prev_state_name,
 *            next_pid, next_tid, next_comm, next_prio
 *   wakeup   prio, target_cpu, waker_pid, waker_tid, new
 *   fork     child_pid, child_tid, child_comm, clone_flags, thread
 *   exec     filename, argv, argc, argv_truncated, old_tid, comm
 *   exit     status (raw wait status), code or signal + signal_name,
 *            core_dumped, group_dead
 *   nspid    ns_inum, level, ns_tid, ns_pid: a task outside the initial
 *            pid namespace, its ids there (events.h)
 *   comm     comm;  proc  ppid, comm, cmdline, launched (the command sonde
 *            started, before its execve), cwd, fds ([{"fd":0,"path":
 *            "pipe:[123]","cloexec":false}]), fds_more (the list goes on in
 *            the next proc record of the pid), fds_continued (this one
 *            continues the previous);  lost  count, kind (ring,
 *            writer, or live: not shown by `sonde strace --json`, which
 *            could not keep up)
 *   signal   signal (name), si_signo, si_code, si_code_name and the
 *            siginfo fields strace prints (si_pid, si_status, si_addr...),
 *            handler, sa_flags, noinfo, ip (where the signal struck,
 *            when the trace has it);  signal_generate: the same plus
 *            sender_pid, sender_tid, result, group, exiting
 * Strings are JSON-escaped; bytes that are not UTF-8 come out as \udcXX
 * (see sonde_line_json_str) so that no byte of argv is lost.
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
#include <sonde/payload.h>
#include <sys/syscall.h>

struct json_priv {
	struct sonde_strace_opts so; /* the decoders' options: -s */
	struct sonde_line res;	     /* members of "result" */
	struct sonde_strace *fdp;    /* -y: descriptor tables, prints nothing */
	struct sonde_line fdm;	     /* members of "fd_paths" */
};

static int json_open(struct sonde_render *r)
{
	struct json_priv *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	sonde_strace_opts_init(&p->so);
	/* JSON strings are whole unless -s says otherwise. */
	p->so.strsize = r->opts.strsize;
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

static int json_close(struct sonde_render *r)
{
	struct json_priv *p = r->priv;

	sonde_line_free(&p->res);
	sonde_line_free(&p->fdm);
	sonde_strace_free(p->fdp);
	free(p);
	r->priv = NULL;
	return 0;
}

static void json_head(struct sonde_render *r, const struct sonde_hdr *rec)
{
	sonde_line_printf(&r->line,
			  "{\"type\":\"%s\",\"ts\":%" PRIu64 ",\"cpu\":%u,"
			  "\"pid\":%" PRIu32 ",\"tid\":%" PRIu32,
			  sonde_rec_type_name(rec->type), (uint64_t)rec->ts, rec->cpu, rec->pid,
			  rec->tid);
}

static void json_key_str(struct sonde_line *l, const char *key, const char *s, size_t max)
{
	sonde_line_printf(l, ",\"%s\":", key);
	sonde_line_json_str(l, s, strnlen(s, max));
}

static const char *json_bool(int v)
{
	return v ? "true" : "false";
}

static void json_syscall(struct sonde_render *r, const struct sonde_hdr *rec)
{
	const struct sonde_ev_syscall *e = (const void *)rec;
	struct sonde_line *l = &r->line;
	unsigned int nargs = sonde_render_sc_nargs(r, e->nr);
	char buf[32];
	const char *ename;

	json_key_str(l, "name", sonde_render_sc_name(r, e->nr, buf, sizeof(buf)), 64);
	sonde_line_printf(l, ",\"nr\":%" PRIu32 ",\"args\":[", e->nr);
	for (unsigned int i = 0; i < nargs && i < 6; i++)
		sonde_line_printf(l, "%s%" PRIu64, i ? "," : "", (uint64_t)e->args[i]);
	sonde_line_printf(l, "],\"ret\":%" PRId64 ",\"dur\":%" PRIu64, (int64_t)e->ret,
			  (uint64_t)e->dur);
	if (!(rec->flags & SONDE_SC_NO_RESULT) && sonde_syscall_failed(e->ret)) {
		if ((ename = sonde_errno_name((int)-e->ret)))
			sonde_line_printf(l, ",\"errno\":\"%s\"", ename);
		sonde_line_printf(l, ",\"errno_nr\":%d", (int)-e->ret);
	}
	sonde_line_printf(l, ",\"noreturn\":%s,\"unfinished\":%s",
			  json_bool(rec->flags & SONDE_SC_NORETURN),
			  json_bool(rec->flags & SONDE_SC_UNFINISHED));
	/* -p/--comm found it blocked: ts is the attach, not the entry */
	if (rec->flags & SONDE_SC_ATTACHED)
		sonde_line_printf(l, ",\"entered_before_start\":true");
	/* -e inject: what the supervisor did to it (events.h) */
	if (rec->flags & SONDE_SC_INJECTED)
		sonde_line_printf(l, ",\"injected\":true");
	if (rec->flags & SONDE_SC_POKED)
		sonde_line_printf(l, ",\"poked\":true");
	if (rec->flags & SONDE_SC_DELAYED)
		sonde_line_printf(l, ",\"delayed\":true");
	/* a seccomp filter answered it: the kernel never ran it (events.h) */
	if (rec->flags & SONDE_SC_NO_ENTRY)
		sonde_line_printf(l, ",\"no_entry\":true");
	/* its task died before it returned to user space: ret is the kernel's */
	if (rec->flags & SONDE_SC_KILLED)
		sonde_line_printf(l, ",\"killed\":true");
	/* the kernel ran it from its i386 table (events.h) */
	if (rec->flags & SONDE_SC_COMPAT)
		sonde_line_printf(l, ",\"i386\":true");
}

static void json_hex(struct sonde_line *l, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sonde_line_printf(l, "%02x", p[i]);
}

static void json_base64(struct sonde_line *l, const uint8_t *p, size_t n)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;
		size_t k = n - i < 3 ? n - i : 3;

		if (k > 1)
			v |= (uint32_t)p[i + 1] << 8;
		if (k > 2)
			v |= p[i + 2];
		sonde_line_putc(l, b64[v >> 18]);
		sonde_line_putc(l, b64[(v >> 12) & 63]);
		sonde_line_putc(l, k > 1 ? b64[(v >> 6) & 63] : '=');
		sonde_line_putc(l, k > 2 ? b64[v & 63] : '=');
	}
}

/* ,"payload":[{...}, ...]: every piece of memory captured for the call,
 * entry before exit, by argument (not the execve argv strings taken from
 * the exec record: the trace holds those as unreadable). */
static void json_payload(struct sonde_render *r, const struct sonde_call *c)
{
	struct sonde_line *l = &r->line;
	int hex = r->opts.payload == SONDE_PAYLOAD_HEX;
	const char *name;
	int first = 1;

	sonde_line_printf(l, ",\"payload\":[");
	for (unsigned int i = 0; i < c->npl; i++) {
		const struct sonde_payload *p = &c->pl[i];
		int unreadable = !!(p->flags & SONDE_PLF_UNREADABLE);

		/* Not the call's memory: the address, the stack (-k's) */
		if ((p->flags & SONDE_PLF_EXEC) || p->phase == SONDE_PL_IP ||
		    p->phase == SONDE_PL_REGS || p->phase == SONDE_PL_STACK)
			continue;
		sonde_line_printf(l, "%s{\"arg\":%u", first ? "" : ",", p->arg);
		first = 0;
		name = sonde_render_sc_decoded(r, c->sc->nr)
			       ? sonde_strace_arg_name(c->sc->nr, p->arg)
			       : NULL;
		if (name)
			json_key_str(l, "name", name, 64);
		sonde_line_printf(l,
				  ",\"phase\":\"%s\",\"addr\":\"%#" PRIx64
				  "\",\"requested\":%" PRIu32 ",\"returned\":%" PRIu32
				  ",\"captured\":%" PRIu32
				  ",\"unreadable\":%s,\"encoding\":\"%s\",\"data\":\"",
				  p->phase == SONDE_PL_FDPATH ? "fdpath"
				  : p->phase == SONDE_PL_SOCKINFO ? "sockinfo"
				  : p->phase == SONDE_PL_FDINFO ? "fdinfo"
				  : p->phase == SONDE_PL_KVM ? "kvm"
				  : p->phase == SONDE_PL_EXIT ? "exit"
							      : "entry",
				  (uint64_t)p->addr,
				  p->requested, p->returned, unreadable ? 0 : p->captured,
				  json_bool(unreadable), hex ? "hex" : "base64");
		if (!unreadable && p->captured) {
			if (hex)
				json_hex(l, p->data, p->captured);
			else
				json_base64(l, p->data, p->captured);
		}
		sonde_line_printf(l, "\"}");
	}
	sonde_line_putc(l, ']');
}

/* -y: a call the filters hide still opens and closes descriptors. */
static int json_hidden(struct sonde_render *r, const struct sonde_call *c)
{
	struct json_priv *p = r->priv;

	if (!p->fdp)
		return 0;
	sonde_line_reset(&p->fdm);
	return sonde_strace_fd_paths(p->fdp, c, &p->fdm);
}

/* A syscall with its captured memory: the raw fields, then what the
 * decoders make of it. */
static int json_call(struct sonde_render *r, const struct sonde_call *c)
{
	struct json_priv *p = r->priv;
	struct sonde_line *l = &r->line;
	const struct sonde_hdr *rec = &c->sc->hdr;

	json_head(r, rec);
	json_syscall(r, rec);
	if (sonde_call_ip(c))
		sonde_line_printf(l, ",\"ip\":\"%#" PRIx64 "\"", sonde_call_ip(c));
	/* -k: where the call returned to user space (exit, exit_group:
	 * where they were made); an execve's from before the exec too */
	if (sonde_render_json_stack(r, "stack", rec->pid, rec->tid, c->pl, c->npl,
				    SONDE_USTACK_EXIT) ||
	    ((c->sc->nr == __NR_execve || c->sc->nr == __NR_execveat) &&
	     sonde_render_json_stack(r, "stack_before_exec", rec->pid, rec->tid, c->pl, c->npl,
				     SONDE_USTACK_ENTRY)))
		l->oom = 1;
	if (sonde_render_sc_decoded(r, c->sc->nr)) {
		sonde_line_printf(l, ",\"argv\":");
		sonde_line_reset(&p->res);
		sonde_strace_json(&p->so, c, l, &p->res);
		if (p->res.oom)
			l->oom = 1;
		if (p->res.len)
			sonde_line_printf(l, ",\"result\":{%s}", p->res.buf);
	}
	if (p->fdp) {
		sonde_line_reset(&p->fdm);
		if (sonde_strace_fd_paths(p->fdp, c, &p->fdm))
			l->oom = 1;
		if (p->fdm.len)
			sonde_line_printf(l, ",\"fd_paths\":{%s}", p->fdm.buf);
	}
	if (r->opts.payload)
		json_payload(r, c);
	sonde_line_putc(l, '}');
	return sonde_render_emit(r);
}

static void json_switch(struct sonde_render *r, const struct sonde_hdr *rec)
{
	const struct sonde_ev_switch *e = (const void *)rec;
	struct sonde_line *l = &r->line;

	json_key_str(l, "prev_comm", e->prev_comm, SONDE_COMM_LEN);
	sonde_line_printf(l, ",\"prev_prio\":%d,\"prev_state\":%" PRIu32 ",\"prev_state_name\":\"",
			  e->prev_prio, e->prev_state);
	sonde_render_task_state(l, e->prev_state, 0);
	sonde_line_printf(l, "\",\"next_pid\":%" PRIu32 ",\"next_tid\":%" PRIu32, e->next_pid,
			  e->next_tid);
	json_key_str(l, "next_comm", e->next_comm, SONDE_COMM_LEN);
	sonde_line_printf(l, ",\"next_prio\":%d", e->next_prio);
}

static void json_wakeup(struct sonde_render *r, const struct sonde_hdr *rec)
{
	const struct sonde_ev_wakeup *e = (const void *)rec;

	sonde_line_printf(&r->line,
			  ",\"prio\":%d,\"target_cpu\":%" PRIu32 ",\"waker_pid\":%" PRIu32
			  ",\"waker_tid\":%" PRIu32 ",\"new\":%s",
			  e->prio, e->target_cpu, e->waker_pid, e->waker_tid,
			  json_bool(rec->flags & SONDE_WAKEUP_NEW));
}

static void json_fork(struct sonde_render *r, const struct sonde_hdr *rec)
{
	const struct sonde_ev_fork *e = (const void *)rec;
	struct sonde_line *l = &r->line;

	sonde_line_printf(l, ",\"child_pid\":%" PRIu32 ",\"child_tid\":%" PRIu32, e->child_pid,
			  e->child_tid);
	json_key_str(l, "child_comm", e->child_comm, SONDE_COMM_LEN);
	sonde_line_printf(l, ",\"clone_flags\":%" PRIu64 ",\"thread\":%s", (uint64_t)e->clone_flags,
			  json_bool(e->child_pid == rec->pid));
}

/* "key":["a","b"] from n bytes of NUL-separated strings. */
static void json_argv(struct sonde_line *l, const char *key, const char *p, size_t n)
{
	size_t i = 0;

	sonde_line_printf(l, ",\"%s\":[", key);
	while (i < n) {
		size_t k = strnlen(p + i, n - i);

		if (i)
			sonde_line_putc(l, ',');
		sonde_line_json_str(l, p + i, k);
		i += k + 1;
	}
	sonde_line_putc(l, ']');
}

static void json_exec(struct sonde_render *r, const struct sonde_hdr *rec)
{
	const struct sonde_ev_exec *e = (const void *)rec;
	const char *data = (const char *)(e + 1);
	struct sonde_line *l = &r->line;

	json_key_str(l, "filename", data, e->filename_len);
	json_argv(l, "argv", data + e->filename_len, e->argv_len);
	sonde_line_printf(l,
			  ",\"argc\":%" PRIu32 ",\"argv_truncated\":%s"
			  ",\"old_tid\":%" PRIu32,
			  e->argc, json_bool(rec->flags & SONDE_EXEC_ARGV_TRUNC), e->old_tid);
	json_key_str(l, "comm", e->comm, SONDE_COMM_LEN);
}

static void json_exit(struct sonde_render *r, const struct sonde_hdr *rec)
{
	int32_t code = ((const struct sonde_ev_exit *)rec)->code;
	struct sonde_line *l = &r->line;
	int sig = code & 0x7f;
	const char *name = sonde_signal_name(sig);

	sonde_line_printf(l, ",\"status\":%" PRId32, code);
	if (!sig)
		sonde_line_printf(l, ",\"code\":%d", (code >> 8) & 0xff);
	else
		sonde_line_printf(l, ",\"signal\":%d,\"signal_name\":\"%s\"", sig,
				  name ? name : "");
	sonde_line_printf(l, ",\"core_dumped\":%s,\"group_dead\":%s,\"worker\":%s",
			  json_bool(sig && (code & 0x80)),
			  json_bool(rec->flags & SONDE_EXIT_GROUP_DEAD),
			  json_bool(rec->flags & SONDE_EXIT_WORKER));
	/* the process's status after a group exit (events.h) */
	if (rec->flags & SONDE_EXIT_GROUP_CODE)
		sonde_line_printf(l, ",\"group_status\":%" PRId32,
				  ((const struct sonde_ev_exit *)rec)->group_code);
}

/* ,"launched":B,"cwd":"/x","fds":[{"fd":0,"path":"/dev/pts/0","cloexec":false}],
 * "fds_more":B,"fds_continued":B: what the process held when recording
 * began. */
static void json_proc_fds(struct sonde_line *l, const struct sonde_hdr *rec)
{
	const char *path;
	unsigned int fl;
	size_t off = 0, len;
	int fd, n = 0;

	sonde_line_printf(l, ",\"launched\":%s", json_bool(rec->flags & SONDE_PROC_LAUNCHED));
	if (!(rec->flags & SONDE_PROC_FDS))
		return;
	while (sonde_proc_fd_next(rec, &off, &fd, &path, &len, &fl)) {
		if (fd == -100) {
			json_key_str(l, "cwd", path, len);
			continue;
		}
		sonde_line_printf(l, "%s{\"fd\":%d", n++ ? "," : ",\"fds\":[", fd);
		json_key_str(l, "path", path, len);
		sonde_line_printf(l, ",\"cloexec\":%s}", json_bool(fl & SONDE_PROC_FD_CLOEXEC));
	}
	sonde_line_printf(l, "%s,\"fds_more\":%s,\"fds_continued\":%s", n ? "]" : ",\"fds\":[]",
			  json_bool(rec->flags & SONDE_PROC_FDS_MORE),
			  json_bool(rec->flags & SONDE_PROC_FDS_CONT));
}

static void json_other(struct sonde_render *r, const struct sonde_hdr *rec)
{
	struct sonde_line *l = &r->line;

	switch (rec->type) {
	case SONDE_REC_COMM:
		json_key_str(l, "comm", ((const struct sonde_ev_comm *)rec)->comm, SONDE_COMM_LEN);
		break;
	case SONDE_REC_PROC: {
		const struct sonde_ev_proc *e = (const void *)rec;

		sonde_line_printf(l, ",\"ppid\":%" PRIu32, e->ppid);
		json_key_str(l, "comm", e->comm, SONDE_COMM_LEN);
		json_argv(l, "cmdline", (const char *)(e + 1), e->cmdline_len);
		json_proc_fds(l, rec);
		break;
	}
	case SONDE_REC_NSPID: {
		const struct sonde_ev_nspid *e = (const void *)rec;

		sonde_line_printf(l,
				  ",\"ns_inum\":%" PRIu64 ",\"level\":%" PRIu32
				  ",\"ns_tid\":%" PRIu32 ",\"ns_pid\":%" PRIu32,
				  (uint64_t)e->ns_inum, e->level, e->ns_tid, e->ns_pid);
		break;
	}
	case SONDE_REC_IMAGE: {
		const struct sonde_ev_image *e = (const void *)rec;
		char path[SONDE_IMAGE_PATH_MAX + 1];

		if (sonde_image_path(rec, path, sizeof(path)))
			path[0] = 0;
		json_key_str(l, "path", path, sizeof(path));
		sonde_line_printf(l,
				  ",\"start\":\"%#" PRIx64 "\",\"end\":\"%#" PRIx64
				  "\",\"offset\":%" PRIu64 ",\"executable\":%s,\"program\":%s,\"cut\":%s",
				  (uint64_t)e->start, (uint64_t)e->end, (uint64_t)e->pgoff,
				  json_bool(rec->flags & SONDE_IMAGE_X),
				  json_bool(rec->flags & SONDE_IMAGE_EXEC),
				  json_bool(rec->flags & SONDE_IMAGE_TRUNC));
		break;
	}
	case SONDE_REC_LOST: {
		const struct sonde_ev_lost *e = (const void *)rec;

		sonde_line_printf(l, ",\"count\":%" PRIu64 ",\"kind\":\"%s\"", (uint64_t)e->count,
				  e->kind == SONDE_LOST_RING	 ? "ring"
				  : e->kind == SONDE_LOST_WRITER ? "writer"
				  : e->kind == SONDE_LOST_LIVE	 ? "live"
								 : "unknown");
		break;
	}
	}
}

/* Both signal types: the siginfo fields strace prints, then the action
 * (handler: 0 SIG_DFL, 1 SIG_IGN, else its address) and, for sent
 * signals, the sender and the kernel's verdict. */
static void json_signal(struct sonde_render *r, const struct sonde_hdr *rec)
{
	const struct sonde_ev_signal *e = (const void *)rec;
	struct sonde_line *l = &r->line;
	const char *n;
	char b[16], si[512];

	n = sonde_sig_name(e->si.signo, b, sizeof(b));
	json_key_str(l, "signal", n ? n : "", 16);
	sonde_siginfo_json(si, sizeof(si), &e->si);
	sonde_line_printf(l, "%s,\"handler\":%" PRIu64 ",\"sa_flags\":%" PRIu64, si,
			  (uint64_t)e->handler, (uint64_t)e->sa_flags);
	if (rec->type == SONDE_REC_SIGNAL) {
		sonde_line_printf(l, ",\"noinfo\":%s", json_bool(rec->flags & (SONDE_SIG_NOINFO |
										SONDE_SIG_PRIV)));
		if (e->ip)
			sonde_line_printf(l, ",\"ip\":\"%#" PRIx64 "\"", (uint64_t)e->ip);
		if (sonde_render_json_stack(r, "stack", rec->pid, rec->tid, r->sig_pl, r->sig_npl,
					    SONDE_USTACK_EXIT))
			l->oom = 1;
		return;
	}
	n = sonde_sig_result_name(e->result);
	sonde_line_printf(l,
			  ",\"sender_pid\":%" PRIu32 ",\"sender_tid\":%" PRIu32
			  ",\"result\":\"%s\",\"group\":%s,\"exiting\":%s",
			  e->sender_pid, e->sender_tid, n ? n : "unknown",
			  json_bool(rec->flags & SONDE_SIG_GROUP),
			  json_bool(rec->flags & SONDE_SIG_EXITING));
}

static void (*const json_by_type[SONDE_REC_TYPE_MAX])(struct sonde_render *,
						      const struct sonde_hdr *) = {
	[SONDE_REC_SYSCALL] = json_syscall, [SONDE_REC_SWITCH] = json_switch,
	[SONDE_REC_WAKEUP] = json_wakeup,   [SONDE_REC_FORK] = json_fork,
	[SONDE_REC_EXEC] = json_exec,	    [SONDE_REC_EXIT] = json_exit,
	[SONDE_REC_COMM] = json_other,	    [SONDE_REC_LOST] = json_other,
	[SONDE_REC_PROC] = json_other,	    [SONDE_REC_SIGNAL] = json_signal,
	[SONDE_REC_SIGGEN] = json_signal,   [SONDE_REC_NSPID] = json_other,
	[SONDE_REC_IMAGE] = json_other,
};

static int json_record(struct sonde_render *r, const struct sonde_hdr *rec)
{
	struct json_priv *p = r->priv;

	if (p->fdp)
		sonde_strace_record(p->fdp, rec);
	json_head(r, rec);
	json_by_type[rec->type](r, rec);
	sonde_line_putc(&r->line, '}');
	return sonde_render_emit(r);
}

const struct sonde_renderer sonde_render_json = {
	.name = "json",
	.summary = "NDJSON, one object per event",
	.open = json_open,
	.record = json_record,
	.call = json_call,
	.hidden = json_hidden,
	.close = json_close,
};
