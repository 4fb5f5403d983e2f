/* SPDX-License-Identifier: GPL-2.0 */
/* sonde strace's state, shared by cmd_strace.c and strace_json.c. */
#ifndef SONDE_CLI_STRACE_CLI_H
#define SONDE_CLI_STRACE_CLI_H

#include <stdio.h>
#include <sys/types.h>

#include <sonde/analysis.h>
#include <sonde/live.h>
#include <sonde/record.h>
#include <sonde/render.h>
#include <sonde/strace.h>
#include "cli/strace_count.h"
#include "cli/strace_launch.h"

#define MAX_PIDS 256

struct strace_cli {
	struct sonde_strace_opts so;
	struct sonde_record_opts ro;
	pid_t pids[MAX_PIDS];
	size_t npids;
	const char *out_path;
	int out_piped; /* -o |CMD or -o !CMD */
	const char *trace_file;
	size_t live_bytes; /* --live-buffer */
	int follow, count, count_and_print;
	struct strace_count_opts cnt;	/* -S, -U, -O */
	int json;			/* --json */
	int strsize_set;		/* -s given: cuts JSON strings too */
	struct sonde_render_opts ropts; /* --json: --payload, -s */
	struct strace_launch launch;	/* -E, -u */
	int daemon;			/* -D count: enum sonde_daemonize */
};

/*
 * The live output: the recorder's live sink (include/sonde/live.h) hands
 * records over in time order on its printer thread; they go through the
 * strace feed as they would reading a trace file, and each batch ends with
 * a flush, so lines appear within the sink's reorder window (0.1 s).
 */
struct live_out {
	struct strace_cli *c;
	const struct sonde_live_sink *sink;
	struct sonde_strace *st;     /* text */
	struct strace_count *counts; /* text -c */
	struct sonde_render *render; /* --json */
	struct sonde_filter filter;  /* --json: -e trace=, -z, -Z */
	struct sonde_filter shown;   /* --json -y: the same, in the renderer */
	struct sonde_stats *stats;   /* --json -c */
	uint32_t first_tid;
	int werr; /* errno of the failed write */
};

/* strace_json.c: --json's live output (the objects of `sonde print
 * --json`), and -c --json's report. Each returns 0 or -errno. */
int live_json_init(struct live_out *lo, FILE *out);
int live_json_record(struct live_out *lo, const struct sonde_hdr *h);
int live_json_flush(struct live_out *lo);
int live_json_report(struct live_out *lo, FILE *out);

#endif /* SONDE_CLI_STRACE_CLI_H */
