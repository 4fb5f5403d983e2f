/* SPDX-License-Identifier: GPL-2.0 */
/* sonde strace -c: strace's per-syscall summary table (strace_count.c). */
#ifndef SONDE_CLI_STRACE_COUNT_H
#define SONDE_CLI_STRACE_COUNT_H

#include <stdint.h>
#include <stdio.h>

#include <sonde/analysis.h>
#include <sonde/events.h>

/*
 * One row per syscall, STRACE_COUNT_LEN of them: the x86-64 numbers, then
 * the i386 calls, which strace counts in a table of their own: those
 * recorded as their x86-64 twin, by its number, then the SONDE_NR_I386
 * range.
 */
struct strace_count {
	uint64_t calls, errors, ns, min_ns, max_ns;
};
#define STRACE_COUNT_LEN (2 * SONDE_NR_SYSCALLS + SONDE_NR_I386_LEN)

/* The table's columns (-U), strace's. */
enum strace_col {
	STRACE_COL_PERCENT,
	STRACE_COL_TOTAL,
	STRACE_COL_MIN,
	STRACE_COL_MAX,
	STRACE_COL_AVG,
	STRACE_COL_CALLS,
	STRACE_COL_ERRORS,
	STRACE_COL_NAME,
	STRACE_COL_N,
};

/* What the table shows and how its times are taken. */
struct strace_count_opts {
	enum sonde_stats_sort sort; /* -S */
	uint8_t col[STRACE_COL_N];  /* -U, in order; n = 0: strace's default */
	unsigned int ncols;
	uint64_t overhead_ns; /* -O: taken off each call's time */
};

/* -U COLUMNS: comma-separated names (strace's and their aliases); the
 * syscall name is appended when not listed. Returns 0, or -EINVAL with
 * the offending column in err. */
int strace_count_cols_parse(struct strace_count_opts *o, const char *spec, char *err,
			    size_t errlen);
/* A call's time as -c counts it: its duration less -O's overhead, never
 * below zero. */
uint64_t strace_count_time(const struct sonde_ev_syscall *sc, uint64_t overhead_ns);
/* Accounts one call (its duration: wall-clock latency, entry to exit). */
void strace_count_add(struct strace_count *v, const struct sonde_ev_syscall *sc,
		      uint64_t overhead_ns);
/* strace -c's table, rows in -S's order (strace's: time), columns as -U
 * lists them. Returns 0 or -ENOMEM. */
int strace_count_print(FILE *f, const struct strace_count *v, const struct strace_count_opts *o);

#endif
