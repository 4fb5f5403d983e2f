// SPDX-License-Identifier: GPL-2.0
/*
 * Per-syscall statistics, for the whole trace and per process.
 *
 * A group (the whole trace, or one pid) keeps its entries in an array in
 * first-seen order, reached through a direct index for the numbers the
 * in-kernel bitmap covers and by a linear scan for the rest (only a
 * damaged or foreign trace has those):
 *
 *   idx[SONDE_NR_SYSCALLS]  nr -> slot + 1 (0 = not seen)
 *   sc[nsc]                 struct sonde_sc_stat, hist inline
 *
 * Accounting rules (documented in sonde-stat(1)):
 *  - calls counts every syscall record, including the ones that never
 *    returned (exit_group, a successful execve, calls still blocked at the
 *    end): so the total equals the number of syscalls in the trace;
 *  - time is wall-clock time from entry to exit (like strace -c -w) and
 *    only calls that returned have one: averages divide by `timed`;
 *  - errors are returns in -4095..-1, the kernel-internal restart codes
 *    included.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sonde/analysis.h>

struct sonde_stats {
	unsigned int flags;
	struct sonde_stats_group total;
	struct sonde_stats_group *groups; /* per pid, sorted by pid */
	size_t ngroups, capgroups;
	uint64_t lost; /* events the trace says were lost while recording */
};

struct sonde_stats *sonde_stats_new(unsigned int flags)
{
	struct sonde_stats *s = calloc(1, sizeof(*s));

	if (s)
		s->flags = flags;
	return s;
}

static void stats_group_fini(struct sonde_stats_group *g)
{
	free(g->sc);
	free(g->idx);
}

void sonde_stats_free(struct sonde_stats *s)
{
	if (!s)
		return;
	stats_group_fini(&s->total);
	for (size_t i = 0; i < s->ngroups; i++)
		stats_group_fini(&s->groups[i]);
	free(s->groups);
	free(s);
}

static struct sonde_sc_stat *stats_slot(struct sonde_stats_group *g, uint32_t nr)
{
	struct sonde_sc_stat *e;

	if (!g->idx) {
		g->idx = calloc(SONDE_NR_SYSCALLS, sizeof(*g->idx));
		if (!g->idx)
			return NULL;
	}
	if (nr < SONDE_NR_SYSCALLS) {
		if (g->idx[nr])
			return &g->sc[g->idx[nr] - 1];
	} else {
		for (size_t i = 0; i < g->nsc; i++)
			if (g->sc[i].nr == nr)
				return &g->sc[i];
	}
	/* idx holds slot + 1 in 16 bits: beyond that, stop adding rows
	 * (only a hostile file has 65535 distinct syscall numbers). */
	if (g->nsc >= UINT16_MAX)
		return NULL;
	if (g->nsc == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 16;
		struct sonde_sc_stat *sc = realloc(g->sc, cap * sizeof(*sc));

		if (!sc)
			return NULL;
		g->sc = sc;
		g->cap = cap;
	}
	e = &g->sc[g->nsc++];
	memset(e, 0, sizeof(*e));
	e->nr = nr;
	e->min_ns = UINT64_MAX;
	if (nr < SONDE_NR_SYSCALLS)
		g->idx[nr] = g->nsc;
	return e;
}

static int stats_account(struct sonde_stats_group *g, const struct sonde_ev_syscall *e)
{
	struct sonde_sc_stat *st = stats_slot(g, e->nr);
	int returned = !(e->hdr.flags & (SONDE_SC_NORETURN | SONDE_SC_UNFINISHED));

	if (!st)
		return -ENOMEM;
	st->calls++;
	g->calls++;
	if (!returned)
		return 0;
	if (sonde_syscall_failed(e->ret)) {
		st->errors++;
		g->errors++;
	}
	st->timed++;
	g->timed++;
	st->total_ns += e->dur;
	g->total_ns += e->dur;
	if (e->dur < st->min_ns)
		st->min_ns = e->dur;
	if (e->dur > st->max_ns)
		st->max_ns = e->dur;
	st->hist[sonde_hist_bucket(e->dur)]++;
	return 0;
}

/* The pid's group, inserted in pid order on first sight. */
static struct sonde_stats_group *stats_group(struct sonde_stats *s, uint32_t pid)
{
	size_t lo = 0, hi = s->ngroups;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->groups[mid].pid == pid)
			return &s->groups[mid];
		if (s->groups[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (s->ngroups == s->capgroups) {
		size_t cap = s->capgroups ? s->capgroups * 2 : 16;
		struct sonde_stats_group *g = realloc(s->groups, cap * sizeof(*g));

		if (!g)
			return NULL;
		s->groups = g;
		s->capgroups = cap;
	}
	memmove(&s->groups[lo + 1], &s->groups[lo], (s->ngroups - lo) * sizeof(*s->groups));
	s->ngroups++;
	memset(&s->groups[lo], 0, sizeof(s->groups[lo]));
	s->groups[lo].pid = pid;
	return &s->groups[lo];
}

int sonde_stats_add(struct sonde_stats *s, const struct sonde_hdr *rec)
{
	const struct sonde_ev_syscall *e = (const void *)rec;
	struct sonde_stats_group *g;
	int rc;

	if (rec->type == SONDE_REC_LOST && sonde_rec_fits(rec))
		s->lost += ((const struct sonde_ev_lost *)rec)->count;
	if (rec->type != SONDE_REC_SYSCALL || !sonde_rec_fits(rec))
		return 0;
	rc = stats_account(&s->total, e);
	if (rc || !(s->flags & SONDE_STATS_PER_PROCESS))
		return rc;
	g = stats_group(s, rec->pid);
	return g ? stats_account(g, e) : -ENOMEM;
}

uint64_t sonde_stats_lost(const struct sonde_stats *s)
{
	return s->lost;
}

const struct sonde_stats_group *sonde_stats_total(const struct sonde_stats *s)
{
	return &s->total;
}

size_t sonde_stats_ngroups(const struct sonde_stats *s)
{
	return s->ngroups;
}

const struct sonde_stats_group *sonde_stats_group(const struct sonde_stats *s, size_t i)
{
	return i < s->ngroups ? &s->groups[i] : NULL;
}

struct sort_ctx {
	enum sonde_stats_sort by;
	enum sonde_stats_ties ties;
	const struct sonde_sc_names *names;
};

/* Named calls sort by name; unnamed ones are left to the tie-break and
 * come after the named ones, or before them for strace -c, whose table
 * names them "?", which sorts before every syscall name. */
static int cmp_names(const struct sort_ctx *c, uint32_t a, uint32_t b)
{
	char ba[32], bb[32];
	const char *na = sonde_sc_names_name(c->names, a, ba, sizeof(ba));
	const char *nb = sonde_sc_names_name(c->names, b, bb, sizeof(bb));
	int ua = na == ba, ub = nb == bb;

	if (ua != ub)
		return c->ties == SONDE_TIES_STRACE ? ub - ua : ua - ub;
	return ua ? 0 : strcmp(na, nb);
}

static uint64_t stat_avg(const struct sonde_sc_stat *a)
{
	return a->timed ? a->total_ns / a->timed : 0;
}

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a < b ? 1 : a > b ? -1 : 0;
}

static int stats_cmp(const struct sonde_sc_stat *a, const struct sonde_sc_stat *b,
		     const struct sort_ctx *c)
{
	int r = 0;

	switch (c->by) {
	case SONDE_SORT_TIME:
		r = cmp_u64_desc(a->total_ns, b->total_ns);
		break;
	case SONDE_SORT_CALLS:
		r = cmp_u64_desc(a->calls, b->calls);
		break;
	case SONDE_SORT_ERRORS:
		r = cmp_u64_desc(a->errors, b->errors);
		break;
	case SONDE_SORT_AVG:
		r = cmp_u64_desc(stat_avg(a), stat_avg(b));
		break;
	case SONDE_SORT_MAX:
		r = cmp_u64_desc(a->max_ns, b->max_ns);
		break;
	case SONDE_SORT_NAME:
		r = cmp_names(c, a->nr, b->nr);
		break;
	case SONDE_SORT_MIN:
		r = cmp_u64_desc(a->timed ? a->min_ns : 0, b->timed ? b->min_ns : 0);
		break;
	case SONDE_SORT_NR:
		r = a->nr < b->nr ? -1 : a->nr > b->nr;
		break;
	}
	/* Ties: more calls first (not for strace -c, whose table goes by
	 * number), then by number, so output is stable. */
	if (!r && c->ties == SONDE_TIES_STAT)
		r = cmp_u64_desc(a->calls, b->calls);
	if (!r)
		r = a->nr < b->nr ? -1 : a->nr > b->nr;
	return r;
}

/* Merge sort (stable, O(n log n) even on a hostile trace with thousands
 * of distinct numbers; qsort has no context argument in C11). */
static void stats_msort(const struct sonde_sc_stat **a, const struct sonde_sc_stat **tmp, size_t n,
			const struct sort_ctx *c)
{
	size_t mid = n / 2, i = 0, j = mid, k = 0;

	if (n < 2)
		return;
	stats_msort(a, tmp, mid, c);
	stats_msort(a + mid, tmp, n - mid, c);
	while (i < mid && j < n)
		tmp[k++] = stats_cmp(a[j], a[i], c) < 0 ? a[j++] : a[i++];
	while (i < mid)
		tmp[k++] = a[i++];
	while (j < n)
		tmp[k++] = a[j++];
	memcpy(a, tmp, n * sizeof(*a));
}

int sonde_stats_sort_rows(const struct sonde_sc_stat **rows, size_t n, enum sonde_stats_sort by,
			  enum sonde_stats_ties ties, const struct sonde_sc_names *names)
{
	struct sort_ctx c = { .by = by, .ties = ties, .names = names };
	const struct sonde_sc_stat **tmp = malloc((n + 1) * sizeof(*tmp));

	if (!tmp)
		return -ENOMEM;
	stats_msort(rows, tmp, n, &c);
	free(tmp);
	return 0;
}

int sonde_stats_sorted(const struct sonde_stats_group *g, const struct sonde_sc_stat **rows,
		       enum sonde_stats_sort by, const struct sonde_sc_names *names)
{
	for (size_t i = 0; i < g->nsc; i++)
		rows[i] = &g->sc[i];
	return sonde_stats_sort_rows(rows, g->nsc, by, SONDE_TIES_STAT, names);
}

int sonde_stats_sort_lookup(const char *name)
{
	/* sonde's names, then strace's -S names and their aliases. */
	static const struct {
		const char *name;
		enum sonde_stats_sort key;
	} keys[] = {
		{ "time", SONDE_SORT_TIME },	   { "calls", SONDE_SORT_CALLS },
		{ "errors", SONDE_SORT_ERRORS },   { "avg", SONDE_SORT_AVG },
		{ "max", SONDE_SORT_MAX },	   { "min", SONDE_SORT_MIN },
		{ "name", SONDE_SORT_NAME },	   { "nr", SONDE_SORT_NR },
		{ "time-percent", SONDE_SORT_TIME }, { "time-total", SONDE_SORT_TIME },
		{ "total-time", SONDE_SORT_TIME }, { "min-time", SONDE_SORT_MIN },
		{ "shortest", SONDE_SORT_MIN },	   { "time-min", SONDE_SORT_MIN },
		{ "max-time", SONDE_SORT_MAX },	   { "longest", SONDE_SORT_MAX },
		{ "time-max", SONDE_SORT_MAX },	   { "avg-time", SONDE_SORT_AVG },
		{ "time-avg", SONDE_SORT_AVG },	   { "count", SONDE_SORT_CALLS },
		{ "error", SONDE_SORT_ERRORS },	   { "syscall", SONDE_SORT_NAME },
		{ "syscall-name", SONDE_SORT_NAME }, { "nothing", SONDE_SORT_NR },
		{ "none", SONDE_SORT_NR },
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(keys[i].name, name))
			return (int)keys[i].key;
	return -1;
}
