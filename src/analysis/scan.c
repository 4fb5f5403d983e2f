// SPDX-License-Identifier: GPL-2.0
/*
 * One pass over a trace: filters, the --since/--until window (resolved
 * against the first record, then a seek), damaged chunks reported and
 * skipped. print, stat and the script language's offline mode share it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <sonde/analysis.h>
#include <sonde/format.h>

void sonde_scan_opts_init(struct sonde_scan_opts *o)
{
	memset(o, 0, sizeof(*o));
	sonde_filter_init(&o->filter);
}

static void scan_warn(const struct sonde_scan_opts *o, struct sonde_reader *r, int rc)
{
	char msg[512];
	const char *why = sonde_reader_error(r);

	snprintf(msg, sizeof(msg), "damaged chunk skipped: %s", why ? why : strerror(-rc));
	if (o->warn)
		o->warn(o->warn_ctx, msg);
}

int sonde_scan(struct sonde_reader *r, const struct sonde_scan_opts *o, struct sonde_scan_stats *st)
{
	const struct sonde_meta *meta = sonde_reader_meta(r);
	struct sonde_filter f = o->filter;
	const struct sonde_hdr *rec;
	int rc, first = 1;

	memset(st, 0, sizeof(*st));
	for (;;) {
		rc = sonde_reader_next(r, &rec);
		if (rc == 0)
			break;
		if (rc < 0) {
			st->bad_chunks++;
			scan_warn(o, r, rc);
			continue;
		}
		st->records++;
		if (first) {
			first = 0;
			st->first_ts = rec->ts;
			if (o->has_since)
				f.since = sonde_time_arg_resolve(&o->since, meta, rec->ts);
			if (o->has_until)
				f.until = sonde_time_arg_resolve(&o->until, meta, rec->ts);
			/* Skip ahead through the footer index rather than
			 * decompress everything before the window. */
			if (f.since > rec->ts && sonde_reader_seek(r, f.since) == 0)
				continue;
		}
		/* Records come in time order: nothing after `until` passes. */
		if (rec->ts > f.until)
			break;
		if (o->tasks)
			sonde_tasks_update(o->tasks, rec);
		if (!sonde_filter_match(&f, rec))
			continue;
		st->matched++;
		rc = o->fn(o->ctx, rec);
		if (rc)
			return rc;
	}
	return 0;
}
