// SPDX-License-Identifier: GPL-2.0
/*
 * sonde strace -c: calls, errors and time per syscall, printed as strace
 * -c prints them, sorted as -S asks, in the columns -U lists. The time is
 * the call's duration in the recording, from its entry to its exit, less
 * -O's overhead: wall-clock latency, what strace -c -w shows (strace -c
 * alone shows the system CPU time the tracee spent in the call, which the
 * recording does not measure). The rows are sorted by libsonde, as sonde
 * stat's, with strace -c's ties.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sonde/syscalls.h>

#include "cli/strace_count.h"

/* strace's default -U: every column but the shortest and longest. */
static const uint8_t default_cols[] = {
	STRACE_COL_PERCENT, STRACE_COL_TOTAL,  STRACE_COL_AVG,
	STRACE_COL_CALLS,   STRACE_COL_ERRORS, STRACE_COL_NAME,
};

/* A row of the table: one syscall's, or the total. */
struct count_row {
	const struct sonde_sc_stat *s;
	const char *name;
	uint64_t tot_ns; /* of the whole table, for % time */
	int total;
};

/*
 * A column: the names -U knows it by (strace 6.1's, checked one by one
 * against it), its heading and width, and how a row fills its cell.
 * Cells are right-aligned to the width and one space apart; the syscall
 * name is left-aligned to 16, and not padded when it is the last column.
 */
struct count_col {
	const char *names[6];
	const char *head;
	int width;
	void (*cell)(FILE *f, int width, const struct count_row *r);
};

static void cell_percent(FILE *f, int width, const struct count_row *r)
{
	double p = r->total    ? 100.0
		   : r->tot_ns ? 100.0 * (double)r->s->total_ns / (double)r->tot_ns
			       : 0.0;

	fprintf(f, "%*.2f", width, p);
}

static void cell_secs(FILE *f, int width, uint64_t ns)
{
	fprintf(f, "%*.6f", width, (double)ns / 1e9);
}

static void cell_total(FILE *f, int width, const struct count_row *r)
{
	cell_secs(f, width, r->s->total_ns);
}

static void cell_min(FILE *f, int width, const struct count_row *r)
{
	cell_secs(f, width, r->s->min_ns);
}

static void cell_max(FILE *f, int width, const struct count_row *r)
{
	cell_secs(f, width, r->s->max_ns);
}

static void cell_avg(FILE *f, int width, const struct count_row *r)
{
	const struct sonde_sc_stat *s = r->s;

	fprintf(f, "%*llu", width,
		(unsigned long long)(s->calls ? s->total_ns / 1000 / s->calls : 0));
}

static void cell_calls(FILE *f, int width, const struct count_row *r)
{
	fprintf(f, "%*llu", width, (unsigned long long)r->s->calls);
}

/* strace leaves the cell blank when there were none. */
static void cell_errors(FILE *f, int width, const struct count_row *r)
{
	if (r->s->errors)
		fprintf(f, "%*llu", width, (unsigned long long)r->s->errors);
	else
		fprintf(f, "%*s", width, "");
}

static const struct count_col cols[STRACE_COL_N] = {
	[STRACE_COL_PERCENT] = { .names = { "time-percent", "time_percent", "time" },
				 .head = "% time",
				 .width = 6,
				 .cell = cell_percent },
	[STRACE_COL_TOTAL] = { .names = { "total-time", "total_time", "time-total", "time_total" },
			       .head = "seconds",
			       .width = 11,
			       .cell = cell_total },
	[STRACE_COL_MIN] = { .names = { "min-time", "min_time", "shortest", "time-min",
					"time_min" },
			     .head = "shortest",
			     .width = 8,
			     .cell = cell_min },
	[STRACE_COL_MAX] = { .names = { "max-time", "max_time", "longest", "time-max", "time_max" },
			     .head = "longest",
			     .width = 8,
			     .cell = cell_max },
	[STRACE_COL_AVG] = { .names = { "avg-time", "avg_time", "time-avg", "time_avg" },
			     .head = "usecs/call",
			     .width = 11,
			     .cell = cell_avg },
	[STRACE_COL_CALLS] = { .names = { "calls", "count" },
			       .head = "calls",
			       .width = 9,
			       .cell = cell_calls },
	[STRACE_COL_ERRORS] = { .names = { "errors", "error" },
				.head = "errors",
				.width = 9,
				.cell = cell_errors },
	[STRACE_COL_NAME] = { .names = { "name", "syscall", "syscall-name", "syscall_name" },
			      .head = "syscall",
			      .width = 16 },
};

static int col_lookup(const char *name, size_t len)
{
	for (int c = 0; c < STRACE_COL_N; c++)
		for (const char *const *n = cols[c].names; *n; n++)
			if (strlen(*n) == len && !memcmp(*n, name, len))
				return c;
	return -1;
}

int strace_count_cols_parse(struct strace_count_opts *o, const char *spec, char *err, size_t errlen)
{
	unsigned int seen = 0;
	const char *p = spec;

	o->ncols = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		int c = col_lookup(p, len);

		if (c < 0 || seen & (1u << c)) {
			snprintf(err, errlen, "%s column '%.*s'", c < 0 ? "unknown" : "repeated",
				 (int)len, p);
			return -EINVAL;
		}
		seen |= 1u << c;
		o->col[o->ncols++] = (uint8_t)c;
		if (!p[len])
			break;
		p += len + 1;
	}
	if (!(seen & (1u << STRACE_COL_NAME)))
		o->col[o->ncols++] = STRACE_COL_NAME;
	return 0;
}

uint64_t strace_count_time(const struct sonde_ev_syscall *sc, uint64_t overhead_ns)
{
	return sc->dur > overhead_ns ? sc->dur - overhead_ns : 0;
}

/* The row of a recorded call (struct strace_count), or -1: x32 and
 * invalid numbers have none, as they have no name. */
static int count_slot(const struct sonde_ev_syscall *sc)
{
	if (sc->nr < SONDE_NR_SYSCALLS)
		return (int)sc->nr + (sc->hdr.flags & SONDE_SC_COMPAT ? SONDE_NR_SYSCALLS : 0);
	if (sc->nr - SONDE_NR_I386 < SONDE_NR_I386_LEN)
		return (int)(2 * SONDE_NR_SYSCALLS + sc->nr - SONDE_NR_I386);
	return -1;
}

/* The recorded number of row i, which names it. */
static uint32_t count_nr(unsigned int i)
{
	if (i < 2 * SONDE_NR_SYSCALLS)
		return i % SONDE_NR_SYSCALLS;
	return SONDE_NR_I386 + i - 2 * SONDE_NR_SYSCALLS;
}

/* strace counts a call when it returns: exit, exit_group, calls still
 * blocked at the end and those their task's death cut short are not in
 * its table. */
void strace_count_add(struct strace_count *v, const struct sonde_ev_syscall *sc,
		      uint64_t overhead_ns)
{
	uint64_t t = strace_count_time(sc, overhead_ns);
	int slot = count_slot(sc);
	struct strace_count *c;

	if (slot < 0 || (sc->hdr.flags & SONDE_SC_NO_RESULT))
		return;
	c = &v[slot];
	if (!c->calls || t < c->min_ns)
		c->min_ns = t;
	if (t > c->max_ns)
		c->max_ns = t;
	c->calls++;
	c->errors += sonde_syscall_failed(sc->ret);
	c->ns += t;
}

static const char *count_name(unsigned int nr)
{
	const char *n = sonde_syscall_name(nr);

	return n ? n : "?";
}

static void print_line(FILE *f, const uint8_t *col, unsigned int n, const struct count_row *r)
{
	for (unsigned int i = 0; i < n; i++) {
		const struct count_col *c = &cols[col[i]];
		const char *sep = i ? " " : "";

		if (!r) {
			fprintf(f, "%s%.*s", sep, c->width, "----------------");
		} else if (col[i] == STRACE_COL_NAME) {
			fprintf(f, "%s%-*s", sep, i + 1 < n ? c->width : 0, r->name);
		} else {
			fputs(sep, f);
			if (r->s)
				c->cell(f, c->width, r);
			else
				fprintf(f, "%*s", c->width, c->head);
		}
	}
	fputc('\n', f);
}

/* The heading (names only: r->s NULL), then the dashes. */
static void print_head(FILE *f, const uint8_t *col, unsigned int n)
{
	struct count_row h = { .name = cols[STRACE_COL_NAME].head };

	print_line(f, col, n, &h);
	print_line(f, col, n, NULL);
}

/* The rows in -S's order, between the dashes, then the total. */
static void print_rows(FILE *f, const struct strace_count_opts *o,
		       const struct sonde_sc_stat *const *rows, size_t n,
		       const struct sonde_sc_stat *tot)
{
	const uint8_t *col = o->ncols ? o->col : default_cols;
	unsigned int ncols = o->ncols ? o->ncols : sizeof(default_cols);
	struct count_row r = { .tot_ns = tot->total_ns };

	print_head(f, col, ncols);
	for (size_t k = 0; k < n; k++) {
		r.s = rows[k];
		r.name = count_name(rows[k]->nr);
		print_line(f, col, ncols, &r);
	}
	print_line(f, col, ncols, NULL);
	r.s = tot;
	r.name = "total";
	r.total = 1;
	print_line(f, col, ncols, &r);
}

/* The rows [lo, hi) of v counted, as sonde_sc_stat rows in sc (n of them),
 * and their total. */
static size_t count_rows(const struct strace_count *v, unsigned int lo, unsigned int hi,
			 struct sonde_sc_stat *sc, struct sonde_sc_stat *tot)
{
	size_t n = 0;

	*tot = (struct sonde_sc_stat){ 0 };
	for (unsigned int i = lo; i < hi; i++) {
		const struct strace_count *c = &v[i];

		if (!c->calls)
			continue;
		/* Every call counted returned: each has a duration. */
		sc[n++] = (struct sonde_sc_stat){ .nr = count_nr(i),
						  .calls = c->calls,
						  .errors = c->errors,
						  .timed = c->calls,
						  .total_ns = c->ns,
						  .min_ns = c->min_ns,
						  .max_ns = c->max_ns };
		if (!tot->calls || c->min_ns < tot->min_ns)
			tot->min_ns = c->min_ns;
		if (c->max_ns > tot->max_ns)
			tot->max_ns = c->max_ns;
		tot->total_ns += c->ns;
		tot->calls += c->calls;
		tot->errors += c->errors;
	}
	return n;
}

/* One personality's table, rows [lo, hi) of v; sc and rows hold them. */
static int count_table(FILE *f, const struct strace_count *v, unsigned int lo, unsigned int hi,
		       const struct strace_count_opts *o, struct sonde_sc_stat *sc,
		       const struct sonde_sc_stat **rows, const struct sonde_sc_names *names)
{
	struct sonde_sc_stat tot;
	size_t n = count_rows(v, lo, hi, sc, &tot);
	int e;

	for (size_t k = 0; k < n; k++)
		rows[k] = &sc[k];
	e = sonde_stats_sort_rows(rows, n, o->sort, SONDE_TIES_STRACE, names);
	/* As strace: no table at all for a personality with no call. */
	if (e || !n)
		return e;
	if (lo)
		fputs("System call usage summary for 32 bit mode:\n", f);
	print_rows(f, o, rows, n, &tot);
	return 0;
}

int strace_count_print(FILE *f, const struct strace_count *v, const struct strace_count_opts *o)
{
	/* The built-in table, as count_name: the sort's unnamed are the "?". */
	struct sonde_sc_names *names = sonde_sc_names_new(NULL);
	const struct sonde_sc_stat **rows = malloc(STRACE_COUNT_LEN * sizeof(*rows));
	struct sonde_sc_stat *sc = malloc(STRACE_COUNT_LEN * sizeof(*sc));
	int e = -ENOMEM;

	/* x86-64's table, then the i386 one's (strace's order). */
	if (names && sc && rows)
		e = count_table(f, v, 0, SONDE_NR_SYSCALLS, o, sc, rows, names);
	if (!e)
		e = count_table(f, v, SONDE_NR_SYSCALLS, STRACE_COUNT_LEN, o, sc, rows, names);
	free(rows);
	free(sc);
	sonde_sc_names_free(names);
	return e;
}
