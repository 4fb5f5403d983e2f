// SPDX-License-Identifier: GPL-2.0
/*
 * sonde strace -c: calls, errors and time per syscall, printed as strace
 * -c prints them, sorted as -S asks. The time is the call's duration in
 * the recording, from its entry to its exit: wall-clock latency, what
 * strace -c -w shows (strace -c alone shows the system CPU time the
 * tracee spent in the call, which the recording does not measure).
 */
#include <stdlib.h>
#include <string.h>

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

struct count_sort {
	const struct strace_count *v;
	enum sonde_stats_sort by;
};

static int desc(uint64_t a, uint64_t b)
{
	return a < b ? 1 : a > b ? -1 : 0;
}

static const char *count_name(unsigned int nr)
{
	const char *n = sonde_syscall_name(nr);

	return n ? n : "?";
}

static int count_cmp(const void *a, const void *b, void *arg)
{
	const struct count_sort *s = arg;
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;
	const struct strace_count *p = &s->v[x], *q = &s->v[y];
	int r = 0;

	switch (s->by) {
	case SONDE_SORT_TIME:
		r = desc(p->ns, q->ns);
		break;
	case SONDE_SORT_CALLS:
		r = desc(p->calls, q->calls);
		break;
	case SONDE_SORT_ERRORS:
		r = desc(p->errors, q->errors);
		break;
	case SONDE_SORT_AVG:
		r = desc(p->ns / p->calls, q->ns / q->calls);
		break;
	case SONDE_SORT_MAX:
		r = desc(p->max_ns, q->max_ns);
		break;
	case SONDE_SORT_MIN:
		r = desc(p->min_ns, q->min_ns);
		break;
	case SONDE_SORT_NAME:
		r = strcmp(count_name(x), count_name(y));
		break;
	case SONDE_SORT_NR:
		break;
	}
	/* Ties (and -S nothing) in syscall number order. */
	return r ? r : x < y ? -1 : x > y;
}

void strace_count_print(FILE *f, const struct strace_count *v, enum sonde_stats_sort by)
{
	unsigned int idx[SONDE_NR_SYSCALLS], n = 0;
	uint64_t tot_ns = 0, tot_calls = 0, tot_err = 0;
	const char *line = "------ ----------- ----------- --------- --------- ----------------\n";
	struct count_sort s = { v, by };
	char te[24] = "";

	for (unsigned int i = 0; i < SONDE_NR_SYSCALLS; i++)
		if (v[i].calls) {
			idx[n++] = i;
			tot_ns += v[i].ns;
			tot_calls += v[i].calls;
			tot_err += v[i].errors;
		}
	qsort_r(idx, n, sizeof(idx[0]), count_cmp, &s);
	fprintf(f, "%% time     seconds  usecs/call     calls    errors syscall\n%s", line);
	for (unsigned int k = 0; k < n; k++) {
		const struct strace_count *c = &v[idx[k]];
		char e[24] = "";

		if (c->errors)
			snprintf(e, sizeof(e), "%llu", (unsigned long long)c->errors);
		fprintf(f, "%6.2f %11.6f %11llu %9llu %9s %s\n",
			tot_ns ? 100.0 * (double)c->ns / (double)tot_ns : 0.0,
			(double)c->ns / 1e9,
			(unsigned long long)(c->ns / 1000 / c->calls),
			(unsigned long long)c->calls, e, count_name(idx[k]));
	}
	if (tot_err)
		snprintf(te, sizeof(te), "%llu", (unsigned long long)tot_err);
	fprintf(f, "%s%6.2f %11.6f %11llu %9llu %9s total\n", line, 100.0, (double)tot_ns / 1e9,
		(unsigned long long)(tot_calls ? tot_ns / 1000 / tot_calls : 0),
		(unsigned long long)tot_calls, te);
}
