// SPDX-License-Identifier: GPL-2.0
/*
 * sonde stat: strace -c for a recorded trace, plus the maximum latency of
 * each syscall, per-process tables and log2 latency histograms. The
 * numbers come from src/analysis/stats.c; this file only lays them out.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sonde/analysis.h>
#include <sonde/format.h>
#include <sonde/render.h>

#include "cli/cli.h"
#include "cli/filter_opts.h"

#define STAT_USAGE                                                             \
	"usage: sonde stat [options] FILE\n"                                   \
	"\n"                                                                   \
	"Summarise the syscalls of a trace like 'strace -c': for each syscall\n" \
	"the share of time, total seconds, microseconds per call, the longest\n" \
	"call, calls and errors, sorted by time, with a total line.\n"         \
	"\n"                                                                   \
	"  -P, --per-process       also one table per process (pid and command)\n" \
	"  -H, --hist              log2 latency histogram of every syscall\n"   \
	"      --json              one JSON document (tables and histograms)\n" \
	"  -S, --sort KEY          time (default), calls, errors, avg, max, name, nr\n" \
	"  -o, --output FILE       write to FILE instead of standard output\n" \
	"\n"                                                                   \
	"Filters:\n" FILTER_USAGE                                              \
	"\n"                                                                   \
	"Time is wall-clock time from entry to exit of each call (what strace\n" \
	"-c -w measures). Calls that never returned (exit_group, a successful\n" \
	"execve, calls still blocked at the end) count as calls but have no\n"  \
	"time: averages divide by the calls that returned. Errors are returns\n" \
	"between -4095 and -1.\n"                                              \
	"\n"                                                                   \
	"See sonde-stat(1).\n"

enum {
	OPT_JSON = FOPT_FIRST_FREE,
};

static const struct option stat_longopts[] = {
	FILTER_LONGOPTS,
	{ "per-process", no_argument, NULL, 'P' },
	{ "hist", no_argument, NULL, 'H' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "sort", required_argument, NULL, 'S' },
	{ "output", required_argument, NULL, 'o' },
	{ 0 },
};

struct stat_args {
	int per_process, hist, json;
	enum sonde_stats_sort sort;
	const char *output, *file;
	struct sonde_scan_opts scan;
};

static int stat_parse(int argc, char **argv, struct stat_args *a)
{
	int opt, rc;

	sonde_scan_opts_init(&a->scan);
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, FILTER_SHORTOPTS "PHS:o:",
				  stat_longopts, NULL)) != -1) {
		rc = filter_opt("stat", opt, optarg, &a->scan);
		if (rc < 0)
			return -1;
		if (rc)
			continue;
		switch (opt) {
		case 'P':
			a->per_process = 1;
			break;
		case 'H':
			a->hist = 1;
			break;
		case OPT_JSON:
			a->json = 1;
			break;
		case 'S':
			rc = sonde_stats_sort_lookup(optarg);
			if (rc < 0) {
				cli_err("stat", "unknown sort key '%s': use time, "
						"calls, errors, avg, max, name or nr",
					optarg);
				return -1;
			}
			a->sort = rc;
			break;
		case 'o':
			a->output = optarg;
			break;
		default:
			cli_bad_option("stat", argv, opt);
			return -1;
		}
	}
	if (optind == argc) {
		cli_err("stat", "no trace file given; usage: sonde stat "
				"[options] FILE");
		return -1;
	}
	if (optind != argc - 1) {
		cli_err("stat", "more than one trace file given ('%s', '%s'); "
				"stat takes one FILE",
			argv[optind], argv[optind + 1]);
		return -1;
	}
	a->file = argv[optind];
	return 0;
}

struct stat_ctx {
	struct sonde_stats *stats;
	struct sonde_tasks *tasks;
	struct sonde_render *names; /* only for syscall names */
	int rc;
};

static int stat_one(void *ctx, const struct sonde_hdr *rec)
{
	struct stat_ctx *c = ctx;

	sonde_tasks_update(c->tasks, rec);
	c->rc = sonde_stats_add(c->stats, rec);
	return c->rc;
}

static void stat_warn(void *ctx, const char *msg)
{
	cli_err("stat", "warning: %s: %s", (const char *)ctx, msg);
}

/* Syscall name for sorting and printing. Unnamed numbers are formatted
 * ("syscall_0x1c3") into one of two buffers used in turn: the sort holds
 * two names at a time, printing one. */
static const char *stat_name(void *ctx, uint32_t nr)
{
	static char buf[2][32];
	static int which;

	which ^= 1;
	return sonde_render_sc_name(ctx, nr, buf[which], sizeof(buf[which]));
}

static const char *const stat_rule =
	"------ ----------- ----------- ----------- --------- --------- ----------------\n";

static void stat_row(FILE *f, double pct, uint64_t total_ns, uint64_t timed,
		     uint64_t max_ns, uint64_t calls, uint64_t errors,
		     const char *name)
{
	fprintf(f, "%6.2f %11.6f %11" PRIu64 " %11" PRIu64 " %9" PRIu64 " ",
		pct, total_ns / 1e9, timed ? total_ns / timed / 1000 : 0,
		max_ns / 1000, calls);
	if (errors)
		fprintf(f, "%9" PRIu64 " %s\n", errors, name);
	else
		fprintf(f, "%9s %s\n", "", name);
}

static int stat_table(FILE *f, const struct sonde_stats_group *g,
		      const struct stat_args *a, struct sonde_render *names)
{
	const struct sonde_sc_stat **rows = malloc((g->nsc + 1) * sizeof(*rows));
	uint64_t max = 0;

	if (!rows || sonde_stats_sorted(g, rows, a->sort, stat_name, names)) {
		free(rows);
		return -ENOMEM;
	}
	fprintf(f, "%% time     seconds  usecs/call   max usecs     calls    errors syscall\n%s",
		stat_rule);
	for (size_t i = 0; i < g->nsc; i++) {
		const struct sonde_sc_stat *e = rows[i];

		stat_row(f, g->total_ns ? 100.0 * e->total_ns / g->total_ns : 0,
			 e->total_ns, e->timed, e->max_ns, e->calls, e->errors,
			 stat_name(names, e->nr));
		if (e->max_ns > max)
			max = e->max_ns;
	}
	fputs(stat_rule, f);
	stat_row(f, 100.0, g->total_ns, g->timed, max, g->calls, g->errors,
		 "total");
	if (a->hist)
		for (size_t i = 0; i < g->nsc; i++) {
			const struct sonde_sc_stat *e = rows[i];

			if (!e->timed)
				continue;
			fprintf(f, "\n%s: %" PRIu64 " calls returned, latency in ns\n",
				stat_name(names, e->nr), e->timed);
			sonde_hist_fprint(f, e->hist, "  ");
		}
	free(rows);
	return 0;
}

static const char *stat_comm(const struct sonde_tasks *t, uint32_t pid)
{
	const struct sonde_task *k = sonde_tasks_find(t, pid);

	return k && k->comm[0] ? k->comm : "?";
}

static int stat_text(FILE *f, const struct stat_args *a, struct stat_ctx *c)
{
	struct sonde_line l = { 0 };
	int rc = stat_table(f, sonde_stats_total(c->stats), a, c->names);

	for (size_t i = 0; !rc && i < sonde_stats_ngroups(c->stats); i++) {
		const struct sonde_stats_group *g = sonde_stats_group(c->stats, i);
		const char *comm = stat_comm(c->tasks, g->pid);

		sonde_line_reset(&l);
		sonde_line_cstr(&l, comm, strlen(comm));
		fprintf(f, "\npid %" PRIu32 " %s:\n", g->pid, l.buf ? l.buf : "");
		rc = stat_table(f, g, a, c->names);
	}
	sonde_line_free(&l);
	return rc;
}

static void stat_json_hist(struct sonde_line *l, const uint64_t *hist)
{
	int first = 1;

	sonde_line_printf(l, ",\"hist\":[");
	for (unsigned int k = 0; k < SONDE_HIST_BUCKETS; k++) {
		if (!hist[k])
			continue;
		sonde_line_printf(l, "%s{\"lo\":%" PRIu64 ",\"hi\":%" PRIu64
				     ",\"count\":%" PRIu64 "}",
				  first ? "" : ",",
				  k ? (uint64_t)1 << (k - 1) : 0,
				  k == 0 ? 1 : k == 64 ? UINT64_MAX : (uint64_t)1 << k,
				  hist[k]);
		first = 0;
	}
	sonde_line_putc(l, ']');
}

static int stat_json_group(struct sonde_line *l, const struct sonde_stats_group *g,
			   const struct stat_args *a, struct sonde_render *names)
{
	const struct sonde_sc_stat **rows = malloc((g->nsc + 1) * sizeof(*rows));

	if (!rows || sonde_stats_sorted(g, rows, a->sort, stat_name, names)) {
		free(rows);
		return -ENOMEM;
	}
	sonde_line_printf(l, "\"calls\":%" PRIu64 ",\"errors\":%" PRIu64
			     ",\"returned\":%" PRIu64 ",\"time_ns\":%" PRIu64
			     ",\"syscalls\":[",
			  g->calls, g->errors, g->timed, g->total_ns);
	for (size_t i = 0; i < g->nsc; i++) {
		const struct sonde_sc_stat *e = rows[i];
		const char *name = stat_name(names, e->nr);

		sonde_line_printf(l, "%s{\"name\":", i ? "," : "");
		sonde_line_json_str(l, name, strlen(name));
		sonde_line_printf(l, ",\"nr\":%" PRIu32 ",\"calls\":%" PRIu64
				     ",\"errors\":%" PRIu64 ",\"returned\":%" PRIu64
				     ",\"time_ns\":%" PRIu64 ",\"avg_ns\":%" PRIu64
				     ",\"min_ns\":%" PRIu64 ",\"max_ns\":%" PRIu64
				     ",\"percent\":%.4f",
				  e->nr, e->calls, e->errors, e->timed, e->total_ns,
				  e->timed ? e->total_ns / e->timed : 0,
				  e->timed ? e->min_ns : 0, e->max_ns,
				  g->total_ns ? 100.0 * e->total_ns / g->total_ns : 0);
		stat_json_hist(l, e->hist);
		sonde_line_putc(l, '}');
	}
	sonde_line_putc(l, ']');
	free(rows);
	return 0;
}

static int stat_json(FILE *f, const struct stat_args *a, struct stat_ctx *c)
{
	struct sonde_line l = { 0 };
	int rc;

	sonde_line_printf(&l, "{\"total\":{");
	rc = stat_json_group(&l, sonde_stats_total(c->stats), a, c->names);
	sonde_line_printf(&l, "}");
	if (a->per_process) {
		sonde_line_printf(&l, ",\"processes\":[");
		for (size_t i = 0; !rc && i < sonde_stats_ngroups(c->stats); i++) {
			const struct sonde_stats_group *g =
				sonde_stats_group(c->stats, i);
			const char *comm = stat_comm(c->tasks, g->pid);

			sonde_line_printf(&l, "%s{\"pid\":%" PRIu32 ",\"comm\":",
					  i ? "," : "", g->pid);
			sonde_line_json_str(&l, comm, strlen(comm));
			sonde_line_putc(&l, ',');
			rc = stat_json_group(&l, g, a, c->names);
			sonde_line_putc(&l, '}');
		}
		sonde_line_putc(&l, ']');
	}
	sonde_line_putc(&l, '}');
	if (!rc && l.oom)
		rc = -ENOMEM;
	if (!rc && l.buf)
		fprintf(f, "%s\n", l.buf);
	sonde_line_free(&l);
	return rc;
}

static int stat_run(int argc, char **argv)
{
	struct stat_args a = { 0 };
	struct stat_ctx c = { 0 };
	struct sonde_scan_stats st;
	struct sonde_reader *r;
	FILE *out = NULL;
	int rc = 1;

	if (stat_parse(argc, argv, &a))
		return 2;
	r = trace_open("stat", a.file);
	if (!r)
		return 1;
	c.stats = sonde_stats_new(a.per_process ? SONDE_STATS_PER_PROCESS : 0);
	c.tasks = sonde_tasks_new();
	if (!c.stats || !c.tasks ||
	    sonde_render_open(&c.names, "text", stdout, sonde_reader_meta(r), NULL)) {
		cli_err("stat", "out of memory");
		goto out;
	}
	a.scan.fn = stat_one;
	a.scan.ctx = &c;
	a.scan.warn = stat_warn;
	a.scan.warn_ctx = (void *)a.file;
	sonde_scan(r, &a.scan, &st);
	if (c.rc) {
		cli_err("stat", "out of memory while counting");
		goto out;
	}
	out = output_open("stat", a.output);
	if (!out)
		goto out;
	rc = a.json ? stat_json(out, &a, &c) : stat_text(out, &a, &c);
	rc = output_close("stat", a.output, out, rc) ? 1 : 0;
	trace_scan_report("stat", a.file, &st, 0);
out:
	sonde_render_close(c.names);
	sonde_tasks_free(c.tasks);
	sonde_stats_free(c.stats);
	sonde_reader_close(r);
	return rc;
}

const struct sonde_cmd cmd_stat = {
	.name = "stat",
	.summary = "per-syscall statistics of a trace (strace -c), histograms",
	.usage = STAT_USAGE,
	.run = stat_run,
};
