/* SPDX-License-Identifier: GPL-2.0 */
/* Options shared by the commands that read a trace (print, stat): -p,
 * -e trace=, --events, --no-sched, -z/-Z, --since/--until. */
#ifndef SONDE_CLI_FILTER_OPTS_H
#define SONDE_CLI_FILTER_OPTS_H

#include <getopt.h>
#include <stdio.h>

#include <sonde/analysis.h>

enum {
	FOPT_EVENTS = 0x100,
	FOPT_NO_SCHED,
	FOPT_SINCE,
	FOPT_UNTIL,
	FOPT_FIRST_FREE, /* first value a command may use for its own options */
};

/* getopt_long entries for the shared options (end with a zero entry
 * when copied into a command's table: FILTER_LONGOPTS has none). */
#define FILTER_LONGOPTS                                                                    \
	{ "pid", required_argument, NULL, 'p' }, { "expr", required_argument, NULL, 'e' }, \
		{ "events", required_argument, NULL, FOPT_EVENTS },                        \
		{ "no-sched", no_argument, NULL, FOPT_NO_SCHED },                          \
		{ "failed-only", no_argument, NULL, 'Z' },                                 \
		{ "successful-only", no_argument, NULL, 'z' },                             \
		{ "since", required_argument, NULL, FOPT_SINCE },                          \
	{                                                                                  \
		"until", required_argument, NULL, FOPT_UNTIL                               \
	}
#define FILTER_SHORTOPTS ":p:e:zZ"

/* The help text of the shared options. */
#define FILTER_USAGE                                                                    \
	"  -p, --pid PID[,PID...]  only events of these processes or threads\n"         \
	"                          (a pid matches its threads, a tid only itself;\n"    \
	"                          lost-event records are always kept)\n"               \
	"  -e trace=SET            syscalls to keep, as strace: names, %file %desc\n"   \
	"                          %process %network %memory %signal %ipc %creds\n"     \
	"                          %clock %pure %stat %lstat %fstat %%stat %statfs\n"   \
	"                          %fstatfs %%statfs, /regex, numbers, ?name, all,\n"   \
	"                          none, leading ! to negate; NAME@64, @32, @x32:\n"    \
	"                          that personality's call only (x86-64, i386, x32);\n" \
	"                          only filters syscall records\n"                      \
	"  -e status=SET           syscalls that ended so, as strace: successful\n"     \
	"                          failed unfinished (no result) detached (blocked\n"  \
	"                          when recording stopped) unavailable all none, !\n"  \
	"  -Z, --failed-only       only syscalls that returned an error\n"              \
	"  -z, --successful-only   only syscalls that returned without error\n"         \
	"      --events LIST       record types to keep: syscall switch wakeup fork\n"  \
	"                          exec exit comm proc nspid signal signal_generate\n" \
	"                          lost, sched (switch,wakeup), process (fork,exec,\n"  \
	"                          exit,comm,proc,nspid), all; a\n"                     \
	"                          leading ! drops them instead (default: all)\n"       \
	"      --no-sched          same as --events '!sched'\n"                         \
	"      --since T, --until T  time window (inclusive); T is seconds after\n"     \
	"                          the first event (1.5, 250ms, 40us, 100ns),\n"        \
	"                          @NS (raw monotonic ns, the \"ts\" of --json),\n"     \
	"                          HH:MM:SS[.us] (local wall clock, as\n"               \
	"                          --format=flight prints it) or\n"                     \
	"                          YYYY-MM-DDTHH:MM:SS[.us]\n"

/* Handles one shared option: 1 if it was one, 0 if not, -1 on error
 * (message printed with cmd as prefix). */
int filter_opt(const char *cmd, int opt, const char *arg, struct sonde_scan_opts *o);

/* Opens path for reading as a trace; prints the reason and returns NULL
 * if it cannot. Warns when the file is truncated. */
struct sonde_reader *trace_open(const char *cmd, const char *path);

/* Final warnings after a scan: damaged chunks, unknown record types. */
void trace_scan_report(const char *cmd, const char *path, const struct sonde_scan_stats *st,
		       uint64_t skipped);

/* Output file for -o (stdout if path is NULL); NULL on error (printed),
 * also when path is the input trace itself. */
FILE *output_open(const char *cmd, const char *path, const char *input);
/* Closes it; returns 0 or prints the write error and returns -1. */
int output_close(const char *cmd, const char *path, FILE *f, int render_rc);

#endif
