/* SPDX-License-Identifier: GPL-2.0 */
/* sonde strace -c: strace's per-syscall summary table (strace_count.c). */
#ifndef SONDE_CLI_STRACE_COUNT_H
#define SONDE_CLI_STRACE_COUNT_H

#include <stdint.h>
#include <stdio.h>

#include <sonde/analysis.h>
#include <sonde/events.h>

/* One row per syscall number: SONDE_NR_SYSCALLS of them. */
struct strace_count {
	uint64_t calls, errors, ns, min_ns, max_ns;
};

/* Accounts one call (its duration: wall-clock latency, entry to exit). */
void strace_count_add(struct strace_count *v, const struct sonde_ev_syscall *sc);
/* strace -c's table, rows in -S's order (strace's: time). Returns 0 or
 * -ENOMEM. */
int strace_count_print(FILE *f, const struct strace_count *v, enum sonde_stats_sort by);

#endif
