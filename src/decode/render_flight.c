// SPDX-License-Identifier: GPL-2.0
/*
 * The flight-recorder renderer, after the sample output of the kernel
 * flight recorder seed (Hitachi's SystemTap tracer):
 *
 *   hh:mm:ss.uuuuuu #CPU PID event
 *   11:14:12.226190 #2 8877 sendto() -->
 *   11:14:12.226200 #2 8877 sendto() <-- 828
 *   11:14:12.226213 #0 8862 TP09[n:-5] <-- TASK_INTERRUPTIBLE
 *   11:14:12.226213 #0 0 swapper/0[n:0] -->
 *   11:14:12.226338 #7 0 (RUNQ) #7 8883 TP09[n:-5]
 *
 * A syscall is one record (entry time + duration) but two lines, entry
 * "-->" and exit "<--": the exit line is held in a min-heap keyed by exit
 * time and released once the input reaches that time, so lines come out
 * in time order. The heap holds one entry per call in flight, i.e. about
 * one per thread. Both lines show the record's CPU, the one the call
 * exited on (the entry CPU is not recorded). [n:N] is the nice value (prio - 120); real-time tasks
 * show [rt:N] (99 - prio). The seed's "qlen:" is not recorded by sonde.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <sonde/analysis.h>
#include <sonde/format.h>
#include <sonde/render.h>
#include <sonde/signal.h>
#include <sonde/syscalls.h>

struct flight_exit {
	uint64_t ts;  /* exit time */
	uint64_t seq; /* input order, to keep ties stable */
	uint32_t tid, nr;
	int64_t ret;
	uint16_t cpu;
};

struct flight {
	struct flight_exit *heap;
	size_t n, cap;
	uint64_t seq;
};

static int flight_before(const struct flight_exit *a, const struct flight_exit *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq);
}

static int flight_push(struct flight *f, const struct flight_exit *x)
{
	size_t i;

	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 64;
		struct flight_exit *h = realloc(f->heap, cap * sizeof(*h));

		if (!h)
			return -ENOMEM;
		f->heap = h;
		f->cap = cap;
	}
	for (i = f->n++; i > 0; i = (i - 1) / 2) {
		if (!flight_before(x, &f->heap[(i - 1) / 2]))
			break;
		f->heap[i] = f->heap[(i - 1) / 2];
	}
	f->heap[i] = *x;
	return 0;
}

static struct flight_exit flight_pop(struct flight *f)
{
	struct flight_exit top = f->heap[0], last = f->heap[--f->n];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < f->n) {
		if (c + 1 < f->n && flight_before(&f->heap[c + 1], &f->heap[c]))
			c++;
		if (!flight_before(&f->heap[c], &last))
			break;
		f->heap[i] = f->heap[c];
		i = c;
	}
	if (f->n)
		f->heap[i] = last;
	return top;
}

static void flight_head(struct sonde_render *r, uint64_t ts, unsigned int cpu, uint32_t tid)
{
	sonde_render_tod(r, &r->line, ts, 1);
	sonde_line_printf(&r->line, " #%u %" PRIu32 " ", cpu, tid);
}

/* "comm[n:-5]": comm escaped only where needed to stay on one line. */
static void flight_task(struct sonde_line *l, const char *comm, int prio)
{
	size_t n = strnlen(comm, SONDE_COMM_LEN);

	for (size_t i = 0; i < n; i++) {
		unsigned char c = comm[i];

		if (c < ' ' || c == 0x7f || c == '\\')
			sonde_line_printf(l, "\\%o", c);
		else
			sonde_line_putc(l, c);
	}
	if (prio < 100)
		sonde_line_printf(l, "[rt:%d]", 99 - prio);
	else
		sonde_line_printf(l, "[n:%d]", prio - 120);
}

static int flight_emit_exit(struct sonde_render *r, const struct flight_exit *x)
{
	char buf[32];
	const char *ename;

	flight_head(r, x->ts, x->cpu, x->tid);
	sonde_line_printf(&r->line, "%s() <-- ", sonde_render_sc_name(r, x->nr, buf, sizeof(buf)));
	if (sonde_syscall_failed(x->ret) && (ename = sonde_errno_name((int)-x->ret)))
		sonde_line_printf(&r->line, "%" PRId64 " %s", x->ret, ename);
	else if (sonde_render_sc_ret_addr(r, x->nr))
		sonde_line_printf(&r->line, "%#" PRIx64, (uint64_t)x->ret);
	else
		sonde_line_printf(&r->line, "%" PRId64, x->ret);
	return sonde_render_emit(r);
}

/* Writes every held exit line that happened at or before ts. */
static int flight_release(struct sonde_render *r, uint64_t ts)
{
	struct flight *f = r->priv;
	int rc = 0;

	while (f->n && f->heap[0].ts <= ts && !rc) {
		struct flight_exit x = flight_pop(f);

		rc = flight_emit_exit(r, &x);
	}
	return rc;
}

static int flight_syscall(struct sonde_render *r, const struct sonde_hdr *rec)
{
	const struct sonde_ev_syscall *e = (const void *)rec;
	struct flight *f = r->priv;
	char buf[32];
	struct flight_exit x;

	flight_head(r, rec->ts, rec->cpu, rec->tid);
	sonde_line_printf(&r->line, "%s() -->", sonde_render_sc_name(r, e->nr, buf, sizeof(buf)));
	if (rec->flags & SONDE_SC_UNFINISHED)
		sonde_line_printf(&r->line, " (unfinished)");
	if (rec->flags & (SONDE_SC_NORETURN | SONDE_SC_UNFINISHED))
		return sonde_render_emit(r);
	x = (struct flight_exit){ .ts = rec->ts + e->dur,
				  .seq = f->seq++,
				  .tid = rec->tid,
				  .nr = e->nr,
				  .ret = e->ret,
				  .cpu = rec->cpu };
	if (x.ts < rec->ts) /* dur wrapped around: a damaged record */
		x.ts = rec->ts;
	if (flight_push(f, &x))
		return -ENOMEM;
	return sonde_render_emit(r);
}

static int flight_switch(struct sonde_render *r, const struct sonde_hdr *rec)
{
	const struct sonde_ev_switch *e = (const void *)rec;
	int rc;

	flight_head(r, rec->ts, rec->cpu, rec->tid);
	flight_task(&r->line, e->prev_comm, e->prev_prio);
	sonde_line_printf(&r->line, " <-- ");
	sonde_render_task_state(&r->line, e->prev_state, 0);
	rc = sonde_render_emit(r);
	if (rc)
		return rc;
	flight_head(r, rec->ts, rec->cpu, e->next_tid);
	flight_task(&r->line, e->next_comm, e->next_prio);
	sonde_line_printf(&r->line, " -->");
	return sonde_render_emit(r);
}

static int flight_wakeup(struct sonde_render *r, const struct sonde_hdr *rec)
{
	const struct sonde_ev_wakeup *e = (const void *)rec;
	const struct sonde_task *t = sonde_tasks_find(r->tasks, rec->tid);

	flight_head(r, rec->ts, rec->cpu, e->waker_tid);
	sonde_line_printf(&r->line, "(RUNQ%s) #%" PRIu32 " %" PRIu32 " ",
			  rec->flags & SONDE_WAKEUP_NEW ? " NEW" : "", e->target_cpu, rec->tid);
	flight_task(&r->line, t && t->comm[0] ? t->comm : "?", e->prio);
	return sonde_render_emit(r);
}

/* (SIGNAL) SIGCHLD code=CLD_EXITED;  (SIGSEND) SIGTERM from 1234/1234 ignored */
static void flight_signal(struct sonde_line *l, const struct sonde_ev_signal *e)
{
	const char *n, *c = sonde_si_code_name(e->si.signo, e->si.code);
	char b[16];

	n = sonde_sig_name(e->si.signo, b, sizeof(b));
	sonde_line_printf(l, "(%s) ", e->hdr.type == SONDE_REC_SIGNAL ? "SIGNAL" : "SIGSEND");
	if (n)
		sonde_line_printf(l, "%s", n);
	else
		sonde_line_printf(l, "%d", e->si.signo);
	if (c)
		sonde_line_printf(l, " code=%s", c);
	else
		sonde_line_printf(l, " code=%d", e->si.code);
	if (e->hdr.type == SONDE_REC_SIGGEN) {
		n = sonde_sig_result_name(e->result);
		sonde_line_printf(l, " from %" PRIu32 "/%" PRIu32 " %s", e->sender_pid,
				  e->sender_tid, n ? n : "?");
	}
}

static int flight_other(struct sonde_render *r, const struct sonde_hdr *rec)
{
	struct sonde_line *l = &r->line;
	const char *data;

	flight_head(r, rec->ts, rec->cpu, rec->tid);
	switch (rec->type) {
	case SONDE_REC_FORK: {
		const struct sonde_ev_fork *e = (const void *)rec;

		sonde_line_printf(l, "(FORK) %" PRIu32 "/%" PRIu32 " ", e->child_pid, e->child_tid);
		flight_task(l, e->child_comm, 120);
		sonde_line_printf(l, " flags=%#" PRIx64, (uint64_t)e->clone_flags);
		break;
	}
	case SONDE_REC_EXEC: {
		const struct sonde_ev_exec *e = (const void *)rec;

		data = (const char *)(e + 1);
		sonde_line_printf(l, "(EXEC) ");
		sonde_line_cstr(l, data, strnlen(data, e->filename_len));
		break;
	}
	case SONDE_REC_EXIT:
		sonde_line_printf(l, "(EXIT) ");
		sonde_render_exit_status(l, ((const struct sonde_ev_exit *)rec)->code);
		break;
	case SONDE_REC_COMM:
		sonde_line_printf(l, "(COMM) ");
		flight_task(l, ((const struct sonde_ev_comm *)rec)->comm, 120);
		break;
	case SONDE_REC_PROC:
		sonde_line_printf(l, "(PROC) ppid %" PRIu32 " ",
				  ((const struct sonde_ev_proc *)rec)->ppid);
		flight_task(l, ((const struct sonde_ev_proc *)rec)->comm, 120);
		break;
	case SONDE_REC_NSPID: {
		const struct sonde_ev_nspid *e = (const void *)rec;

		sonde_line_printf(l, "(NSPID) ns %" PRIu64 " tid %" PRIu32 " pid %" PRIu32,
				  (uint64_t)e->ns_inum, e->ns_tid, e->ns_pid);
		break;
	}
	case SONDE_REC_IMAGE: {
		const struct sonde_ev_image *e = (const void *)rec;
		char path[SONDE_IMAGE_PATH_MAX + 1];

		if (sonde_image_path(rec, path, sizeof(path)))
			snprintf(path, sizeof(path), "?");
		sonde_line_printf(l, "(IMAGE) %#" PRIx64 " %s", (uint64_t)e->start, path);
		break;
	}
	case SONDE_REC_LOST:
		sonde_line_printf(l, "(LOST) %" PRIu64 " events",
				  (uint64_t)((const struct sonde_ev_lost *)rec)->count);
		break;
	case SONDE_REC_SIGNAL:
	case SONDE_REC_SIGGEN:
		flight_signal(l, (const struct sonde_ev_signal *)rec);
		break;
	}
	return sonde_render_emit(r);
}

static int flight_open(struct sonde_render *r)
{
	r->priv = calloc(1, sizeof(struct flight));
	return r->priv ? 0 : -ENOMEM;
}

static int flight_record(struct sonde_render *r, const struct sonde_hdr *rec)
{
	int rc = flight_release(r, rec->ts);

	if (rc)
		return rc;
	/* The command's descriptors before its execve, or more of a
	 * process's descriptors: not a process. */
	if (rec->type == SONDE_REC_PROC && (rec->flags & (SONDE_PROC_LAUNCHED | SONDE_PROC_FDS_CONT)))
		return 0;
	switch (rec->type) {
	case SONDE_REC_SYSCALL:
		return flight_syscall(r, rec);
	case SONDE_REC_SWITCH:
		return flight_switch(r, rec);
	case SONDE_REC_WAKEUP:
		return flight_wakeup(r, rec);
	default:
		return flight_other(r, rec);
	}
}

static int flight_close(struct sonde_render *r)
{
	struct flight *f = r->priv;
	int rc = flight_release(r, UINT64_MAX);

	free(f->heap);
	free(f);
	r->priv = NULL;
	return rc;
}

const struct sonde_renderer sonde_render_flight = {
	.name = "flight",
	.summary = "flight-recorder lines: hh:mm:ss.uuuuuu #CPU PID event",
	.open = flight_open,
	.record = flight_record,
	.close = flight_close,
};
