// SPDX-License-Identifier: GPL-2.0
/*
 * sonde strace --json: the records go through `sonde print`'s filters and
 * JSON renderer as they arrive; -c --json counts them for `sonde stat
 * --json`'s report.
 */
#include <errno.h>
#include <string.h>

#include "cli/strace_cli.h"

/* -c --json: the call into the report, its time less -O's overhead. */
static int live_json_count(struct live_out *lo, const struct sonde_hdr *h)
{
	struct sonde_ev_syscall sc;

	if (!lo->c->cnt.overhead_ns || h->size < sizeof(sc))
		return sonde_stats_add(lo->stats, h);
	memcpy(&sc, h, sizeof(sc));
	sc.hdr.size = sizeof(sc);
	sc.dur = strace_count_time(&sc, lo->c->cnt.overhead_ns);
	return sonde_stats_add(lo->stats, &sc.hdr);
}

/*
 * --json: the records go through the filters `sonde print` applies for
 * the same options and into the JSON renderer, which groups each syscall
 * with its payloads as it does reading a trace file: the objects are
 * those of `sonde print --json` for the same records.
 */
int live_json_record(struct live_out *lo, const struct sonde_hdr *h)
{
	const struct strace_cli *c = lo->c;
	int e;

	if (!sonde_filter_match(&lo->filter, h))
		return 0;
	if (c->count && h->type == SONDE_REC_SYSCALL &&
	    (!c->ropts.shown || sonde_filter_match(c->ropts.shown, h)) && live_json_count(lo, h))
		return -ENOMEM;
	if (c->count && !c->count_and_print)
		return 0;
	e = sonde_render_record(lo->render, h);
	if (e == -EIO)
		lo->werr = errno;
	return e;
}

int live_json_flush(struct live_out *lo)
{
	int e = sonde_render_advance(lo->render, lo->sink->horizon);

	if (!e && fflush(lo->render->out))
		e = -EIO;
	if (e == -EIO)
		lo->werr = errno;
	return e;
}

/* --json: the renderer, print's filters for -e trace=, -z and -Z, and
 * the statistics of -c. Returns 0 or -errno. */
int live_json_init(struct live_out *lo, FILE *out)
{
	const struct sonde_strace_opts *so = &lo->c->so;

	sonde_filter_init(&lo->filter);
	lo->filter.has_sc = so->filter_on;
	lo->filter.sc = so->trace;
	lo->filter.status = so->status;
	if (lo->c->ropts.fd_paths) {
		/* -y names descriptors from every call: the renderer sees them
		 * all and applies -e trace=, -z and -Z itself, as strace. */
		lo->shown = lo->filter;
		lo->filter.has_sc = 0;
		lo->filter.status = SONDE_STATUS_ANY;
		lo->c->ropts.shown = &lo->shown;
	}
	if (lo->c->count && !(lo->stats = sonde_stats_new(0)))
		return -ENOMEM;
	return sonde_render_open(&lo->render, "json", out, NULL, &lo->c->ropts);
}

/* -c --json: `sonde stat --json`'s report of the calls counted. */
int live_json_report(struct live_out *lo, FILE *out)
{
	struct sonde_stats_report rep = { .sort = lo->c->cnt.sort };

	struct sonde_sc_names *names = sonde_sc_names_new(NULL);
	int e;

	if (!names)
		return -ENOMEM;
	rep.names = names;
	e = sonde_stats_report_json(out, lo->stats, &rep);
	if (e == -EIO)
		lo->werr = errno;
	sonde_sc_names_free(names);
	return e;
}
