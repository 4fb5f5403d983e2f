// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics reports: strace -c style tables (plus the longest call) with
 * optional log2 histograms, and the same numbers as one JSON document.
 *
 *   % time     seconds  usecs/call   max usecs     calls    errors syscall
 *   ------ ----------- ----------- ----------- --------- --------- --------
 *    62.50    0.000050          25          40         2           read
 *   ------ ----------- ----------- ----------- --------- --------- --------
 *   100.00    0.000080          20          40         4         1 total
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <sonde/analysis.h>
#include <sonde/format.h>
#include <sonde/render.h>

static const char *const report_rule =
	"------ ----------- ----------- ----------- --------- --------- ----------------\n";

static void report_row(FILE *f, double pct, uint64_t total_ns, uint64_t timed, uint64_t max_ns,
		       uint64_t calls, uint64_t errors, const char *name)
{
	fprintf(f, "%6.2f %11.6f %11" PRIu64 " %11" PRIu64 " %9" PRIu64 " ", pct, total_ns / 1e9,
		timed ? total_ns / timed / 1000 : 0, max_ns / 1000, calls);
	/* strace -c leaves the errors column blank when there are none */
	if (errors)
		fprintf(f, "%9" PRIu64 " %s\n", errors, name);
	else
		fprintf(f, "%9s %s\n", "", name);
}

static const struct sonde_sc_stat **report_rows(const struct sonde_stats_group *g,
						const struct sonde_stats_report *o)
{
	const struct sonde_sc_stat **rows = malloc((g->nsc + 1) * sizeof(*rows));

	if (rows && sonde_stats_sorted(g, rows, o->sort, o->names)) {
		free(rows);
		rows = NULL;
	}
	return rows;
}

static int report_table(FILE *f, const struct sonde_stats_group *g,
			const struct sonde_stats_report *o)
{
	const struct sonde_sc_stat **rows = report_rows(g, o);
	uint64_t max = 0;
	char buf[32];

	if (!rows)
		return -ENOMEM;
	fprintf(f, "%% time     seconds  usecs/call   max usecs     calls    errors syscall\n%s",
		report_rule);
	for (size_t i = 0; i < g->nsc; i++) {
		const struct sonde_sc_stat *e = rows[i];

		report_row(f, g->total_ns ? 100.0 * e->total_ns / g->total_ns : 0, e->total_ns,
			   e->timed, e->max_ns, e->calls, e->errors,
			   sonde_sc_names_name(o->names, e->nr, buf, sizeof(buf)));
		if (e->max_ns > max)
			max = e->max_ns;
	}
	fputs(report_rule, f);
	report_row(f, 100.0, g->total_ns, g->timed, max, g->calls, g->errors, "total");
	for (size_t i = 0; o->hist && i < g->nsc; i++) {
		const struct sonde_sc_stat *e = rows[i];

		if (!e->timed)
			continue;
		fprintf(f, "\n%s: %" PRIu64 " calls returned, latency in ns\n",
			sonde_sc_names_name(o->names, e->nr, buf, sizeof(buf)), e->timed);
		sonde_hist_fprint(f, e->hist, "  ");
	}
	free(rows);
	return 0;
}

static const char *report_comm(const struct sonde_stats_report *o, uint32_t pid)
{
	const struct sonde_task *k = o->tasks ? sonde_tasks_find(o->tasks, pid) : NULL;

	return k && k->comm[0] ? k->comm : "?";
}

static int report_end(FILE *f, int rc)
{
	if (!rc && (fflush(f) || ferror(f)))
		rc = -EIO;
	return rc;
}

static double payload_dedup(const struct sonde_reader_payload_stats *p)
{
	uint64_t stored = p->blob_bytes + p->inline_bytes;

	return stored ? (double)p->bytes / (double)stored : 1.0;
}

/* Payload bytes captured vs stored once per distinct content. */
static void report_payload_text(FILE *f, const struct sonde_reader_payload_stats *p)
{
	if (!p || !p->records)
		return;
	fprintf(f,
		"\npayload: %" PRIu64 " records, %" PRIu64 " bytes captured, %" PRIu64
		" stored (%" PRIu64 " in %" PRIu64 " blobs, %" PRIu64 " inline), dedup %.2fx, %" PRIu64
		" bytes on disk%s\n",
		p->records, p->bytes, p->blob_bytes + p->inline_bytes, p->blob_bytes, p->blobs,
		p->inline_bytes, payload_dedup(p), p->file_bytes,
		p->missing ? " (some blobs missing: see the warnings)" : "");
}

static void report_payload_json(struct sonde_line *l, const struct sonde_reader_payload_stats *p)
{
	if (!p)
		return;
	sonde_line_printf(l,
			  ",\"payload\":{\"records\":%" PRIu64 ",\"bytes\":%" PRIu64
			  ",\"stored\":%" PRIu64 ",\"blob_bytes\":%" PRIu64 ",\"blobs\":%" PRIu64
			  ",\"inline_bytes\":%" PRIu64 ",\"dedup\":%.3f,\"file_bytes\":%" PRIu64
			  ",\"missing\":%" PRIu64 "}",
			  p->records, p->bytes, p->blob_bytes + p->inline_bytes, p->blob_bytes,
			  p->blobs, p->inline_bytes, payload_dedup(p), p->file_bytes, p->missing);
}

int sonde_stats_report_text(FILE *f, const struct sonde_stats *s,
			    const struct sonde_stats_report *o)
{
	struct sonde_line l = { 0 };
	int rc = report_table(f, sonde_stats_total(s), o);

	for (size_t i = 0; !rc && i < sonde_stats_ngroups(s); i++) {
		const struct sonde_stats_group *g = sonde_stats_group(s, i);
		const char *comm = report_comm(o, g->pid);

		sonde_line_reset(&l);
		sonde_line_cstr(&l, comm, strlen(comm));
		if (l.oom) {
			rc = -ENOMEM;
			break;
		}
		fprintf(f, "\npid %" PRIu32 " %s:\n", g->pid, l.buf);
		rc = report_table(f, g, o);
	}
	sonde_line_free(&l);
	if (!rc)
		report_payload_text(f, o->payload);
	return report_end(f, rc);
}

/* Non-empty buckets as [{"lo":N,"hi":N,"count":N}]: values in [lo, hi). */
static void report_json_hist(struct sonde_line *l, const uint64_t *hist)
{
	int first = 1;

	sonde_line_printf(l, ",\"hist\":[");
	for (unsigned int k = 0; k < SONDE_HIST_BUCKETS; k++) {
		if (!hist[k])
			continue;
		sonde_line_printf(l,
				  "%s{\"lo\":%" PRIu64 ",\"hi\":%" PRIu64 ",\"count\":%" PRIu64 "}",
				  first ? "" : ",", k ? (uint64_t)1 << (k - 1) : 0,
				  k == 0    ? 1
				  : k == 64 ? UINT64_MAX
					    : (uint64_t)1 << k,
				  hist[k]);
		first = 0;
	}
	sonde_line_putc(l, ']');
}

static int report_json_group(struct sonde_line *l, const struct sonde_stats_group *g,
			     const struct sonde_stats_report *o)
{
	const struct sonde_sc_stat **rows = report_rows(g, o);
	char buf[32];

	if (!rows)
		return -ENOMEM;
	sonde_line_printf(l,
			  "\"calls\":%" PRIu64 ",\"errors\":%" PRIu64 ",\"returned\":%" PRIu64
			  ",\"time_ns\":%" PRIu64 ",\"syscalls\":[",
			  g->calls, g->errors, g->timed, g->total_ns);
	for (size_t i = 0; i < g->nsc; i++) {
		const struct sonde_sc_stat *e = rows[i];
		const char *name = sonde_sc_names_name(o->names, e->nr, buf, sizeof(buf));

		sonde_line_printf(l, "%s{\"name\":\"%s\"", i ? "," : "", name);
		sonde_line_printf(l,
				  ",\"nr\":%" PRIu32 ",\"calls\":%" PRIu64 ",\"errors\":%" PRIu64
				  ",\"returned\":%" PRIu64 ",\"time_ns\":%" PRIu64
				  ",\"avg_ns\":%" PRIu64 ",\"min_ns\":%" PRIu64
				  ",\"max_ns\":%" PRIu64 ",\"percent\":%.4f",
				  e->nr, e->calls, e->errors, e->timed, e->total_ns,
				  e->timed ? e->total_ns / e->timed : 0, e->timed ? e->min_ns : 0,
				  e->max_ns, g->total_ns ? 100.0 * e->total_ns / g->total_ns : 0);
		report_json_hist(l, e->hist);
		sonde_line_putc(l, '}');
	}
	sonde_line_putc(l, ']');
	free(rows);
	return 0;
}

int sonde_stats_report_json(FILE *f, const struct sonde_stats *s,
			    const struct sonde_stats_report *o)
{
	struct sonde_line l = { 0 };
	int rc;

	sonde_line_printf(&l, "{\"total\":{");
	rc = report_json_group(&l, sonde_stats_total(s), o);
	sonde_line_printf(&l, "},\"processes\":[");
	for (size_t i = 0; !rc && i < sonde_stats_ngroups(s); i++) {
		const struct sonde_stats_group *g = sonde_stats_group(s, i);
		const char *comm = report_comm(o, g->pid);

		sonde_line_printf(&l, "%s{\"pid\":%" PRIu32 ",\"comm\":", i ? "," : "", g->pid);
		sonde_line_json_str(&l, comm, strlen(comm));
		sonde_line_putc(&l, ',');
		rc = report_json_group(&l, g, o);
		sonde_line_putc(&l, '}');
	}
	sonde_line_putc(&l, ']');
	report_payload_json(&l, o->payload);
	sonde_line_printf(&l, ",\"lost\":%" PRIu64 "}", sonde_stats_lost(s));
	if (!rc && l.oom)
		rc = -ENOMEM;
	if (!rc)
		fprintf(f, "%s\n", l.buf);
	sonde_line_free(&l);
	return report_end(f, rc);
}
