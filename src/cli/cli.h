/* SPDX-License-Identifier: GPL-2.0 */
/* sonde subcommands. Each lives in src/cli/cmd_NAME.c and is listed in the
 * table in main.c. */
#ifndef SONDE_CLI_H
#define SONDE_CLI_H

#include <stdio.h>

struct sonde_cmd {
	const char *name;
	const char *summary; /* one line for `sonde help` */
	const char *usage;   /* full text for `sonde help NAME` / --help */
	int (*run)(int argc, char **argv); /* argv[0] is the command name */
};

extern const struct sonde_cmd cmd_record;
extern const struct sonde_cmd cmd_print;
extern const struct sonde_cmd cmd_stat;
extern const struct sonde_cmd cmd_strace;
extern const struct sonde_cmd cmd_script;
/* `sonde help strace` (strace_usage.c). */
extern const char strace_usage[];

struct sonde_reader;
struct sonde_scan_opts;
struct sonde_strace_opts;
/* sonde print --strace: the trace through the strace decoders (cmd_strace.c),
 * as strace -f -o prints with the options o (its clock reference and pid
 * prefix are set here); returns 0 or -errno. */
int strace_print_scan(struct sonde_reader *r, struct sonde_scan_opts *scan,
		      const struct sonde_strace_opts *o, FILE *out, const char *file);

/* strace's "Requested path "X" resolved into "Y"" notes of -P, on stderr
 * as "sonde CMD: ...", unless -qqq or -e quiet=path-resolution. */
void strace_report_paths(const struct sonde_strace_opts *so, const char *cmd);

/* A byte count with an optional K/M/G suffix (and B or iB), at most
 * 1 TiB: 0, or -1 if arg is none. */
int cli_parse_bytes(const char *arg, unsigned long long *out);

/* Prints "sonde CMD: message" to stderr (printf-style). */
void cli_err(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Reports the option getopt_long just rejected: opt is what it returned,
 * ':' (missing argument; optstrings start with ':') or '?'. */
void cli_bad_option(const char *cmd, char **argv, int opt);

#endif
