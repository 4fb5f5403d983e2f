// SPDX-License-Identifier: GPL-2.0
/*
 * The renderer table and what every renderer shares: syscall names and
 * arities resolved once per trace (scnames.c), the task table, wall-clock
 * conversion, exit statuses and task states.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sonde/analysis.h>
#include <sonde/format.h>
#include <sonde/render.h>
#include <sonde/stack.h>
#include <sonde/strace.h>
#include <sonde/syscalls.h>

static const struct sonde_renderer *const renderers[] = {
	&sonde_render_text,
	&sonde_render_flight,
	&sonde_render_json,
	NULL,
};

const struct sonde_renderer *sonde_renderer_find(const char *name)
{
	for (size_t i = 0; renderers[i]; i++)
		if (!strcmp(renderers[i]->name, name))
			return renderers[i];
	return NULL;
}

const struct sonde_renderer *const *sonde_renderers(void)
{
	return renderers;
}

/* The public part first, so a struct sonde_render * is also one of these. */
struct render_core {
	struct sonde_render pub;
	struct sonde_sc_names *names;
	struct sonde_calls *calls; /* syscall + payload grouping */
	int write_error;
};

static int render_dispatch(struct sonde_render *r, const struct sonde_hdr *rec,
			   const struct sonde_call *c)
{
	struct render_core *core = (struct render_core *)r;
	int rc;

	if (!sonde_rec_fits(rec)) {
		r->skipped++;
		return 0;
	}
	sonde_tasks_update(r->tasks, rec);
	if (r->ustack && (rc = sonde_ustack_record(r->ustack, rec))) {
		core->write_error = rc;
		return rc;
	}
	if (c && r->opts.shown && !sonde_filter_match(r->opts.shown, rec)) {
		rc = r->ops->hidden ? r->ops->hidden(r, c) : 0;
		if (rc)
			core->write_error = rc;
		return rc;
	}
	if (!r->started) {
		r->started = 1;
		r->first_ts = rec->ts;
		r->prev_ts = rec->ts;
	}
	rc = c && r->ops->call ? r->ops->call(r, c) : r->ops->record(r, rec);
	if (rc)
		core->write_error = rc;
	return rc;
}

static int render_call(void *ctx, const struct sonde_call *c)
{
	return render_dispatch(ctx, &c->sc->hdr, c);
}

static int render_rec(void *ctx, const struct sonde_hdr *rec)
{
	return render_dispatch(ctx, rec, NULL);
}

static int render_signal(void *ctx, const struct sonde_hdr *rec, const struct sonde_payload *pl,
			 unsigned int npl)
{
	struct sonde_render *r = ctx;
	int rc;

	r->sig_pl = pl;
	r->sig_npl = npl;
	rc = render_dispatch(ctx, rec, NULL);
	r->sig_pl = NULL;
	r->sig_npl = 0;
	return rc;
}

int sonde_render_open(struct sonde_render **rp, const char *name, FILE *out,
		      const struct sonde_meta *meta, const struct sonde_render_opts *opts)
{
	const struct sonde_renderer *ops = sonde_renderer_find(name);
	struct render_core *c;
	int rc;

	*rp = NULL;
	if (!ops)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->pub.ops = ops;
	c->pub.out = out;
	c->pub.meta = meta;
	if (opts)
		c->pub.opts = *opts;
	c->pub.tasks = sonde_tasks_new();
	c->names = sonde_sc_names_new(meta);
	c->calls = sonde_calls_new(render_call, render_rec, &c->pub);
	if (c->calls)
		sonde_calls_on_signal(c->calls, render_signal);
	if (c->pub.opts.stack)
		c->pub.ustack = sonde_ustack_new();
	rc = c->pub.tasks && c->names && c->calls && (c->pub.ustack || !c->pub.opts.stack) ? 0
											 : -ENOMEM;
	if (!rc && ops->open)
		rc = ops->open(&c->pub);
	if (rc) {
		sonde_ustack_free(c->pub.ustack);
		sonde_calls_free(c->calls);
		sonde_sc_names_free(c->names);
		sonde_tasks_free(c->pub.tasks);
		free(c);
		return rc;
	}
	*rp = &c->pub;
	return 0;
}

/* Records wait in the grouping while their timestamp is the current one
 * (a call's payloads share its entry time), then reach the renderer. */
struct sonde_strace *sonde_render_fd_tables(const struct sonde_render *r)
{
	struct sonde_strace_opts yo;

	sonde_strace_opts_init(&yo);
	yo.decode_fds = (uint8_t)r->opts.fd_paths;
	yo.resolve_links = !r->meta || sonde_meta_this_host(r->meta);
	return sonde_strace_new(&yo, NULL);
}

int sonde_render_record(struct sonde_render *r, const struct sonde_hdr *rec)
{
	return sonde_calls_feed(((struct render_core *)r)->calls, rec);
}

void sonde_render_set_origin(struct sonde_render *r, uint64_t ts)
{
	r->started = 1;
	r->first_ts = ts;
	r->prev_ts = ts;
}

int sonde_render_flush(struct sonde_render *r)
{
	return sonde_calls_flush(((struct render_core *)r)->calls);
}

int sonde_render_advance(struct sonde_render *r, uint64_t t)
{
	return sonde_calls_advance(((struct render_core *)r)->calls, t);
}

int sonde_render_close(struct sonde_render *r)
{
	struct render_core *c = (struct render_core *)r;
	int rc = 0;

	if (!r)
		return 0;
	rc = sonde_calls_flush(c->calls);
	if (r->ops->close) {
		int e = r->ops->close(r);

		rc = rc ? rc : e;
	}
	if (!rc)
		rc = c->write_error;
	if (fflush(r->out) || ferror(r->out))
		rc = rc ? rc : -EIO;
	sonde_line_free(&r->line);
	sonde_tasks_free(r->tasks);
	sonde_ustack_free(r->ustack);
	sonde_sc_names_free(c->names);
	sonde_calls_free(c->calls);
	free(c);
	return rc;
}

const char *sonde_render_sc_name(const struct sonde_render *r, uint32_t nr, char *buf, size_t len)
{
	return sonde_sc_names_name(((const struct render_core *)r)->names, nr, buf, len);
}

unsigned int sonde_render_sc_nargs(const struct sonde_render *r, uint32_t nr)
{
	return sonde_sc_names_nargs(((const struct render_core *)r)->names, nr);
}

int sonde_render_sc_ret_addr(const struct sonde_render *r, uint32_t nr)
{
	return sonde_sc_names_ret_addr(((const struct render_core *)r)->names, nr);
}

int sonde_render_sc_decoded(const struct sonde_render *r, uint32_t nr)
{
	const char *builtin = sonde_syscall_name(nr);
	char buf[32];

	return builtin && sonde_strace_is_decoded(nr) &&
	       !strcmp(builtin, sonde_render_sc_name(r, nr, buf, sizeof(buf)));
}

int sonde_render_emit(struct sonde_render *r)
{
	int rc = 0;

	if (r->line.oom)
		rc = -ENOMEM;
	else if (fwrite(r->line.buf ? r->line.buf : "", 1, r->line.len, r->out) != r->line.len ||
		 putc('\n', r->out) == EOF)
		rc = -EIO;
	sonde_line_reset(&r->line);
	return rc;
}

void sonde_render_tod(const struct sonde_render *r, struct sonde_line *l, uint64_t ts, int us)
{
	int64_t wall = sonde_ts_to_wall(r->meta, ts), ns;
	time_t sec;
	struct tm tm;

	if (!wall) {
		/* No clock reference in the trace: monotonic seconds. */
		sonde_line_printf(l, "%" PRIu64 ".%06" PRIu64, ts / 1000000000,
				  ts % 1000000000 / 1000);
		return;
	}
	sec = (time_t)(wall / 1000000000);
	ns = wall % 1000000000;
	if (ns < 0) { /* before 1970: floor, not truncation */
		sec--;
		ns += 1000000000;
	}
	if (r->opts.utc)
		gmtime_r(&sec, &tm);
	else
		localtime_r(&sec, &tm);
	sonde_line_printf(l, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
	if (us)
		sonde_line_printf(l, ".%06" PRId64, ns / 1000);
}

void sonde_render_exit_status(struct sonde_line *l, int32_t code)
{
	int sig = code & 0x7f;
	const char *name;

	if (!sig) {
		sonde_line_printf(l, "exited with %d", (code >> 8) & 0xff);
		return;
	}
	name = sonde_signal_name(sig);
	if (name)
		sonde_line_printf(l, "killed by %s", name);
	else
		sonde_line_printf(l, "killed by signal %d", sig);
	if (code & 0x80)
		sonde_line_printf(l, " (core dumped)");
}

/* include/linux/sched.h, Linux 6.18: the bits of task_struct.__state. */
static const struct {
	uint32_t bit;
	const char *name;
	char letter; /* ps(1)/ftrace letter; modifier bits have none */
} task_states[] = {
	{ 0x0001, "TASK_INTERRUPTIBLE", 'S' },	{ 0x0002, "TASK_UNINTERRUPTIBLE", 'D' },
	{ 0x0004, "TASK_STOPPED", 'T' },	{ 0x0008, "TASK_TRACED", 't' },
	{ 0x0010, "EXIT_DEAD", 'X' },		{ 0x0020, "EXIT_ZOMBIE", 'Z' },
	{ 0x0040, "TASK_PARKED", 'P' },		{ 0x0080, "TASK_DEAD", 'x' },
	{ 0x0100, "TASK_WAKEKILL", 0 },		{ 0x0200, "TASK_WAKING", 0 },
	{ 0x0400, "TASK_NOLOAD", 0 },		{ 0x0800, "TASK_NEW", 0 },
	{ 0x1000, "TASK_RTLOCK_WAIT", 0 },	{ 0x2000, "TASK_FREEZABLE", 0 },
	{ 0x4000, "TASK_FREEZABLE_UNSAFE", 0 }, { 0x8000, "TASK_FROZEN", 0 },
};
#define TASK_UNINT_NOLOAD 0x0402 /* TASK_IDLE: 'I' in ps and ftrace */

void sonde_render_task_state(struct sonde_line *l, uint32_t state, int letters)
{
	uint32_t rest = state;
	int any = 0;

	if (!state) {
		sonde_line_printf(l, "%s", letters ? "R" : "TASK_RUNNING");
		return;
	}
	if (letters && (state & TASK_UNINT_NOLOAD) == TASK_UNINT_NOLOAD) {
		sonde_line_putc(l, 'I');
		rest &= ~TASK_UNINT_NOLOAD;
		any = 1;
	}
	for (size_t i = 0; i < sizeof(task_states) / sizeof(task_states[0]); i++) {
		if (!(rest & task_states[i].bit))
			continue;
		if (letters && !task_states[i].letter)
			continue;
		if (!letters && any)
			sonde_line_putc(l, '|');
		if (letters)
			sonde_line_putc(l, task_states[i].letter);
		else
			sonde_line_printf(l, "%s", task_states[i].name);
		rest &= ~task_states[i].bit;
		any = 1;
	}
	if (!letters && rest)
		sonde_line_printf(l, "%s%#x", any ? "|" : "", rest);
	else if (letters && !any)
		sonde_line_putc(l, '?');
}
