// SPDX-License-Identifier: GPL-2.0
/*
 * sonde strace -c: calls, errors and time per syscall, printed as strace
 * -c prints them, sorted as -S asks. The time is the call's duration in
 * the recording, from its entry to its exit: wall-clock latency, what
 * strace -c -w shows (strace -c alone shows the system CPU time the
 * tracee spent in the call, which the recording does not measure). The
 * rows are sorted by libsonde, as sonde stat's, with strace -c's ties.
 */
#include <errno.h>
#include <stdlib.h>

#include <sonde/syscalls.h>

#include "cli/strace_count.h"

/* strace counts a call when it returns: exit, exit_group and calls
 * still blocked at the end are not in its table. */
void strace_count_add(struct strace_count *v, const struct sonde_ev_syscall *sc)
{
	struct strace_count *c;

	if (sc->nr >= SONDE_NR_SYSCALLS || (sc->hdr.flags & (SONDE_SC_NORETURN | SONDE_SC_UNFINISHED)))
		return;
	c = &v[sc->nr];
	if (!c->calls || sc->dur < c->min_ns)
		c->min_ns = sc->dur;
	if (sc->dur > c->max_ns)
		c->max_ns = sc->dur;
	c->calls++;
	c->errors += sonde_syscall_failed(sc->ret);
	c->ns += sc->dur;
}

static const char *count_name(unsigned int nr)
{
	const char *n = sonde_syscall_name(nr);

	return n ? n : "?";
}

int strace_count_print(FILE *f, const struct strace_count *v, enum sonde_stats_sort by)
{
	const char *line = "------ ----------- ----------- --------- --------- ----------------\n";
	/* The built-in table, as count_name: the sort's unnamed are the "?". */
	struct sonde_sc_names *names = sonde_sc_names_new(NULL);
	const struct sonde_sc_stat **rows = NULL;
	struct sonde_sc_stat *sc = NULL;
	uint64_t tot_ns = 0, tot_calls = 0, tot_err = 0;
	char te[24] = "";
	size_t n = 0;
	int e = -ENOMEM;

	for (unsigned int i = 0; i < SONDE_NR_SYSCALLS; i++)
		n += v[i].calls != 0;
	sc = malloc((n + 1) * sizeof(*sc));
	rows = malloc((n + 1) * sizeof(*rows));
	if (!names || !sc || !rows)
		goto out;
	n = 0;
	for (unsigned int i = 0; i < SONDE_NR_SYSCALLS; i++) {
		const struct strace_count *c = &v[i];

		if (!c->calls)
			continue;
		/* Every call counted returned: each has a duration. */
		sc[n] = (struct sonde_sc_stat){ .nr = i,
						.calls = c->calls,
						.errors = c->errors,
						.timed = c->calls,
						.total_ns = c->ns,
						.min_ns = c->min_ns,
						.max_ns = c->max_ns };
		rows[n] = &sc[n];
		n++;
		tot_ns += c->ns;
		tot_calls += c->calls;
		tot_err += c->errors;
	}
	e = sonde_stats_sort_rows(rows, n, by, SONDE_TIES_STRACE, names);
	if (e)
		goto out;
	fprintf(f, "%% time     seconds  usecs/call     calls    errors syscall\n%s", line);
	for (size_t k = 0; k < n; k++) {
		const struct sonde_sc_stat *c = rows[k];
		char err[24] = "";

		if (c->errors)
			snprintf(err, sizeof(err), "%llu", (unsigned long long)c->errors);
		fprintf(f, "%6.2f %11.6f %11llu %9llu %9s %s\n",
			tot_ns ? 100.0 * (double)c->total_ns / (double)tot_ns : 0.0,
			(double)c->total_ns / 1e9,
			(unsigned long long)(c->total_ns / 1000 / c->calls),
			(unsigned long long)c->calls, err, count_name(c->nr));
	}
	if (tot_err)
		snprintf(te, sizeof(te), "%llu", (unsigned long long)tot_err);
	fprintf(f, "%s%6.2f %11.6f %11llu %9llu %9s total\n", line, 100.0, (double)tot_ns / 1e9,
		(unsigned long long)(tot_calls ? tot_ns / 1000 / tot_calls : 0),
		(unsigned long long)tot_calls, te);
out:
	free(rows);
	free(sc);
	sonde_sc_names_free(names);
	return e;
}
