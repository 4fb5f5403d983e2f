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

#include "cli/cli.h"
#include "cli/filter_opts.h"

#define STAT_USAGE                                                                      \
	"usage: sonde stat [options] FILE\n"                                            \
	"\n"                                                                            \
	"Summarise the syscalls of a trace like 'strace -c': for each syscall\n"        \
	"the share of time, total seconds, microseconds per call, the longest\n"        \
	"call, calls and errors, sorted by time, with a total line.\n"                  \
	"\n"                                                                            \
	"  -P, --per-process       also one table per process (pid and command)\n"      \
	"  -H, --hist              log2 latency histogram of every syscall\n"           \
	"      --json              one JSON document (tables and histograms)\n"         \
	"  -S, --sort KEY          time (default), calls, errors, avg, max, min,\n"     \
	"                          name, nr, or strace -S's names (time-total,\n"     \
	"                          count, avg-time, max-time, min-time, syscall,\n"   \
	"                          nothing...)\n"                                     \
	"  -o, --output FILE       write to FILE instead of standard output\n"          \
	"\n"                                                                            \
	"Filters:\n" FILTER_USAGE "\n"                                                  \
	"Time is wall-clock time from entry to exit of each call (what strace\n"        \
	"-c -w measures). Calls that never returned (exit_group, a successful\n"        \
	"execve, calls still blocked at the end) count as calls but have no\n"          \
	"time: averages divide by the calls that returned. Errors are returns\n"        \
	"between -4095 and -1.\n"                                                       \
	"\n"                                                                            \
	"A trace with captured payloads ends with a 'payload:' line: bytes\n"           \
	"captured, bytes stored once per distinct content, dedup ratio.\n"              \
	"\n"                                                                            \
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
	while ((opt = getopt_long(argc, argv, FILTER_SHORTOPTS "PHS:o:", stat_longopts, NULL)) !=
	       -1) {
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
				cli_err("stat",
					"unknown sort key '%s': use time, "
					"calls, errors, avg, max, min, name or nr",
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
		cli_err("stat",
			"more than one trace file given ('%s', '%s'); "
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
	int rc;
};

static int stat_one(void *ctx, const struct sonde_hdr *rec)
{
	struct stat_ctx *c = ctx;

	c->rc = sonde_stats_add(c->stats, rec);
	return c->rc;
}

static void stat_warn(void *ctx, const char *msg)
{
	cli_err("stat", "warning: %s: %s", (const char *)ctx, msg);
}

static int stat_run(int argc, char **argv)
{
	struct stat_args a = { 0 };
	struct stat_ctx c = { 0 };
	struct sonde_stats_report rep = { 0 };
	struct sonde_reader_payload_stats ps;
	struct sonde_scan_stats st;
	struct sonde_reader *r;
	FILE *out;
	int rc = 1;

	if (stat_parse(argc, argv, &a))
		return 2;
	r = trace_open("stat", a.file);
	if (!r)
		return 1;
	c.stats = sonde_stats_new(a.per_process ? SONDE_STATS_PER_PROCESS : 0);
	c.tasks = sonde_tasks_new();
	rep.names = sonde_sc_names_new(sonde_reader_meta(r));
	if (!c.stats || !c.tasks || !rep.names) {
		cli_err("stat", "out of memory");
		goto out;
	}
	a.scan.tasks = c.tasks;
	a.scan.fn = stat_one;
	a.scan.ctx = &c;
	a.scan.warn = stat_warn;
	a.scan.warn_ctx = (void *)a.file;
	sonde_scan(r, &a.scan, &st);
	if (c.rc) {
		cli_err("stat", "out of memory while counting");
		goto out;
	}
	out = output_open("stat", a.output, a.file);
	if (!out)
		goto out;
	rep.sort = a.sort;
	rep.hist = a.hist;
	rep.tasks = c.tasks;
	if (!sonde_reader_payload_stats(r, &ps))
		rep.payload = &ps;
	rc = a.json ? sonde_stats_report_json(out, c.stats, &rep)
		    : sonde_stats_report_text(out, c.stats, &rep);
	rc = output_close("stat", a.output, out, rc) ? 1 : 0;
	trace_scan_report("stat", a.file, &st, 0);
	if (sonde_stats_lost(c.stats))
		cli_err("stat",
			"warning: %s: %" PRIu64 " events were lost while recording; "
			"the counts miss them (a larger --ring-size keeps them)",
			a.file, sonde_stats_lost(c.stats));
out:
	sonde_sc_names_free((struct sonde_sc_names *)rep.names);
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
