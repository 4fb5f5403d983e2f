// SPDX-License-Identifier: GPL-2.0
/*
 * Feeding a trace to the renderer. The reader returns records in time
 * order; a call's payload records carry the call's entry time and tid, as
 * does its syscall record, so they arrive together (in any order, when
 * entry and exit ran on different CPUs). Records are therefore held while
 * their timestamp is the current one, then the group is rendered: chunks
 * of each payload reassembled, payloads handed to the call of their tid.
 * A group with a successful execve also waits for the exec record of the
 * call (execargv.h), which may come after other records: those wait too.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "decode/strace/strace_int.h"
#include "decode/strace/feed.h"
#include "decode/strace/execargv.h"
#include <sonde/payload.h>

struct pl_build {
	struct sonde_payload p;
	uint32_t tid, pid;
	uint16_t nr;
	uint8_t *buf;
	uint32_t size; /* bytes allocated at buf */
};

void feed_init(struct feed *f)
{
	memset(f, 0, sizeof(*f));
}

static void recs_free(void **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
}

void feed_free(struct feed *f)
{
	recs_free(f->recs, f->nrec);
	free(f->recs);
	recs_free(f->held, f->nheld);
	free(f->held);
	recs_free(f->later, f->nlater);
	free(f->later);
	for (unsigned int i = 0; i < FEED_EXECS; i++)
		free(f->execs[i]);
	free(f->last);
	memset(f, 0, sizeof(*f));
}

/*
 * The payloads of a group by (tid, address, phase, argument): open
 * addressing over indexes + 1, twice as many slots as payloads at most. An
 * execve carries up to 2 * SONDE_STRV_MAX strings: a linear search for
 * each chunk's payload made printing one quadratic in its arguments.
 */
#define PL_INDEX_LOCAL 64

struct pl_index {
	uint32_t *slot;
	size_t mask;
	uint32_t local[PL_INDEX_LOCAL]; /* most calls: no allocation */
};

static int pl_index_init(struct pl_index *x, size_t cap)
{
	size_t n = PL_INDEX_LOCAL;

	while (n < 2 * cap)
		n *= 2;
	x->mask = n - 1;
	if (n == PL_INDEX_LOCAL) {
		memset(x->local, 0, sizeof(x->local));
		x->slot = x->local;
		return 0;
	}
	x->slot = calloc(n, sizeof(*x->slot));
	return x->slot ? 0 : -ENOMEM;
}

static void pl_index_free(struct pl_index *x)
{
	if (x->slot != x->local)
		free(x->slot);
}

static size_t pl_hash(const struct sonde_ev_payload *r)
{
	uint64_t k = r->addr ^ ((uint64_t)r->hdr.tid << 32) ^ ((uint64_t)r->phase << 8) ^ r->arg;

	return (size_t)((k * 0x9e3779b97f4a7c15ull) >> 20);
}

/* The payload a chunk belongs to, created on its first chunk. */
static struct pl_build *pl_get(struct pl_build *v, size_t *n, size_t cap,
			       struct pl_index *x, const struct sonde_ev_payload *r)
{
	size_t h = pl_hash(r) & x->mask;

	for (; x->slot[h]; h = (h + 1) & x->mask) {
		struct pl_build *b = &v[x->slot[h] - 1];

		if (b->tid == r->hdr.tid && b->p.addr == r->addr &&
		    b->p.phase == r->phase && b->p.arg == r->arg)
			return b;
	}
	if (*n >= cap)
		return NULL;
	v[*n].tid = r->hdr.tid;
	v[*n].pid = r->hdr.pid;
	v[*n].nr = r->nr;
	/* Never NULL, even for an empty string: decoders may memchr it. */
	v[*n].buf = calloc(1, r->captured ? r->captured : 1);
	if (!v[*n].buf)
		return NULL;
	x->slot[h] = (uint32_t)*n + 1;
	v[*n].size = r->captured ? r->captured : 1;
	v[*n].p.addr = r->addr;
	v[*n].p.data = v[*n].buf;
	v[*n].p.requested = r->requested;
	v[*n].p.returned = r->returned;
	v[*n].p.captured = 0;
	v[*n].p.arg = r->arg;
	v[*n].p.phase = r->phase;
	/* SONDE_PLR_* and SONDE_PLF_* share their bits; a payload shed, or
	 * whose blob the trace lost, is as good as unreadable to a decoder:
	 * it prints the address. */
	v[*n].p.flags = r->flags & (SONDE_PLF_UNREADABLE | SONDE_PLF_STRING | SONDE_PLF_NUL);
	if (r->flags & (SONDE_PLR_SHED | SONDE_PLR_MISSING))
		v[*n].p.flags |= SONDE_PLF_UNREADABLE;
	return &v[(*n)++];
}

/*
 * Two payloads of a call with the same address, phase and argument: an
 * entry read recorded as unreadable, then the same memory read again
 * once resident (capture.bpf.h's retry), or a hostile file. The bytes
 * win over the marker; the buffer grows to the larger announced size
 * (pl_valid bounds it) so no chunk is ever written past it.
 */
static int pl_grow(struct pl_build *b, const struct sonde_ev_payload *r)
{
	uint8_t *nb = realloc(b->buf, r->captured);

	if (!nb)
		return -1;
	memset(nb + b->size, 0, r->captured - b->size);
	b->buf = nb;
	b->p.data = nb;
	b->size = r->captured;
	b->p.requested = r->requested;
	b->p.returned = r->returned;
	return 0;
}

static void pl_add_chunk(struct pl_build *b, const struct sonde_ev_payload *r)
{
	const uint8_t *data = (const uint8_t *)(r + 1);
	uint32_t room = r->hdr.size - (uint32_t)sizeof(*r);
	uint32_t n = r->chunk < room ? r->chunk : room;

	if (!b->buf || (r->captured > b->size && pl_grow(b, r)))
		return;
	if (r->offset >= r->captured || n > r->captured - r->offset)
		return;
	if (n && (b->p.flags & SONDE_PLF_UNREADABLE) &&
	    !(r->flags & (SONDE_PLR_UNREADABLE | SONDE_PLR_SHED | SONDE_PLR_MISSING)))
		b->p.flags = r->flags & (SONDE_PLF_STRING | SONDE_PLF_NUL);
	memcpy(b->buf + r->offset, data, n);
	/* Contiguous bytes from the start are what decoders may read. */
	if (r->offset <= b->p.captured && r->offset + n > b->p.captured)
		b->p.captured = r->offset + n;
}

/* Payloads of one group kept: enough for the most one call has, an
 * execve's path and two arrays of SONDE_STRV_MAX strings (and a retry of
 * each at exit when it failed); more would be a hostile file. */
#define GROUP_PAYLOADS (4 * (SONDE_STRV_MAX + 2))

/* A payload record whose lengths can be trusted: a hostile file must not
 * make the reassembly allocate more than the largest snaplen. */
static int pl_valid(const struct sonde_hdr *h)
{
	const struct sonde_ev_payload *r = (const void *)h;

	return h->type == SONDE_REC_PAYLOAD && h->size >= sizeof(*r) &&
	       r->captured <= SONDE_SNAPLEN_MAX;
}

/* The exec record the call produced, among the latest ones. */
static const struct sonde_hdr *exec_find(const struct feed *f, const struct sonde_ev_syscall *sc)
{
	for (unsigned int i = 0; i < FEED_EXECS; i++)
		if (f->execs[i] && execargv_match(sc, f->execs[i]))
			return f->execs[i];
	return NULL;
}

static uint64_t *last_slot(uint64_t *tab, size_t cap, uint32_t tid)
{
	size_t i = (tid * 2654435761u) & (cap - 1);

	while (tab[i] && (uint32_t)(tab[i] >> 32) != tid)
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

/* Doubles the table of last calls (a power of two, at most half full). */
static int last_grow(struct feed *f)
{
	size_t cap = f->caplast ? f->caplast * 2 : 64;
	uint64_t *tab = calloc(cap, sizeof(*tab));

	if (!tab)
		return -ENOMEM;
	for (size_t i = 0; i < f->caplast; i++)
		if (f->last[i])
			*last_slot(tab, cap, (uint32_t)(f->last[i] >> 32)) = f->last[i];
	free(f->last);
	f->last = tab;
	f->caplast = cap;
	return 0;
}

/* Notes that tid made call nr; returns 1 + its call before, or 0. */
static uint32_t last_swap(struct feed *f, uint32_t tid, uint32_t nr)
{
	uint64_t *s;
	uint32_t prev;

	if (2 * (f->nlast + 1) > f->caplast && last_grow(f))
		return 0;
	s = last_slot(f->last, f->caplast, tid);
	prev = (uint32_t)*s;
	f->nlast += !*s;
	*s = (uint64_t)tid << 32 | (nr + 1u);
	return prev;
}

/*
 * Hands c to the sink, with the path and argv strings of a successful
 * execve the trace could not read taken from its exec record: those go
 * first, so that lookups find them before the unreadable markers.
 */
static int call_emit(const struct feed *f, const struct feed_sink *k, struct sonde_call *c)
{
	const struct sonde_hdr *ex = execargv_wanted(c->sc) ? exec_find(f, c->sc) : NULL;
	const struct sonde_ev_exec *e = (const void *)ex;
	struct sonde_payload *v;
	unsigned int n, cap;
	int rc;

	if (ex && e->old_tid != c->sc->hdr.tid)
		c->entry_tid = e->old_tid;
	if (!ex || !e->argc)
		return k->call(k->ctx, c);
	/* The path, then at most one string per byte of the record's argv. */
	cap = 1 + (e->argc < SONDE_EXEC_DATA_MAX ? e->argc : SONDE_EXEC_DATA_MAX);
	v = malloc(((size_t)cap + c->npl) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	n = execargv_fill(c, ex, v, cap);
	if (c->npl)
		memcpy(v + n, c->pl, c->npl * sizeof(*v));
	c->pl = v;
	c->npl += n;
	rc = k->call(k->ctx, c);
	free(v);
	return rc;
}

/*
 * A thread other than the leader that execs becomes the leader: its
 * execve's payloads, read at entry, carry the thread's tid, the syscall
 * record written at exit the leader's (same process, same entry time).
 * b is such a payload of c when no call of the group has b's tid.
 */
static int exec_leader_payload(void **recs, size_t nrec, const struct pl_build *b,
			       const struct sonde_ev_syscall *sc)
{
	if ((sc->nr != __NR_execve && sc->nr != __NR_execveat) || b->nr != sc->nr ||
	    b->pid != sc->hdr.pid || sc->hdr.tid != sc->hdr.pid)
		return 0;
	for (size_t i = 0; i < nrec; i++) {
		const struct sonde_hdr *h = recs[i];

		if (h->type == SONDE_REC_SYSCALL && h->tid == b->tid)
			return 0;
	}
	return 1;
}

static int group_render(struct feed *f, void **recs, size_t nrec, const struct feed_sink *k)
{
	/* A group has at most one payload per record: sized to it, not to the
	 * cap (two 512-entry callocs per call were a tenth of live printing). */
	size_t cap = nrec < GROUP_PAYLOADS ? nrec : GROUP_PAYLOADS;
	struct pl_build *pls = calloc(cap, sizeof(*pls));
	struct sonde_payload *mine = calloc(cap, sizeof(*mine));
	struct pl_index idx = { .slot = NULL };
	size_t npl = 0;
	int rc = 0;

	if (!pls || !mine || pl_index_init(&idx, cap)) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nrec; i++) {
		const struct sonde_ev_payload *r = (const void *)recs[i];
		struct pl_build *b;

		if (!pl_valid(&r->hdr))
			continue;
		b = pl_get(pls, &npl, cap, &idx, r);
		if (b)
			pl_add_chunk(b, r);
	}
	for (size_t i = 0; i < nrec; i++) {
		const struct sonde_hdr *h = recs[i];
		struct sonde_call c = { 0 };
		int e;

		/* Malformed payload records go on as records: the consumer
		 * counts them with the records it cannot show. */
		if (pl_valid(h))
			continue;
		if (h->type == SONDE_REC_SIGNAL && k->signal) {
			unsigned int n = 0;

			for (size_t j = 0; j < npl; j++)
				if (pls[j].tid == h->tid)
					mine[n++] = pls[j].p;
			e = k->signal(k->ctx, h, mine, n);
			rc = rc ? rc : (e == -EIO ? e : 0);
			continue;
		}
		if (h->type != SONDE_REC_SYSCALL || h->size < sizeof(struct sonde_ev_syscall)) {
			e = k->record(k->ctx, h);
			rc = rc ? rc : (e == -EIO ? e : 0);
			continue;
		}
		c.sc = (const void *)h;
		c.pl = mine;
		for (size_t k = 0; k < npl; k++)
			if (pls[k].tid == h->tid || exec_leader_payload(recs, nrec, &pls[k], c.sc))
				mine[c.npl++] = pls[k].p;
		c.prev_call = last_swap(f, h->tid, c.sc->nr);
		e = call_emit(f, k, &c);
		if (e && !rc)
			rc = e;
	}
out:
	for (size_t k = 0; k < npl; k++)
		free(pls[k].buf);
	if (idx.slot)
		pl_index_free(&idx);
	free(pls);
	free(mine);
	recs_free(recs, nrec);
	return rc;
}

static int list_add(void ***v, size_t *n, size_t *cap, const struct sonde_hdr *rec)
{
	void *copy;

	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		void **nv = realloc(*v, c * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = c;
	}
	copy = malloc(rec->size);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, rec, rec->size);
	(*v)[(*n)++] = copy;
	return 0;
}

/* Keeps a copy of an exec record (the oldest goes), once. */
static int exec_keep(struct feed *f, const struct sonde_hdr *rec)
{
	unsigned int slot = f->nexec % FEED_EXECS;
	void *copy;

	for (unsigned int i = 0; i < FEED_EXECS; i++) {
		const struct sonde_hdr *h = f->execs[i];

		if (h && h->ts == rec->ts && h->tid == rec->tid)
			return 0;
	}
	copy = malloc(rec->size);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, rec, rec->size);
	free(f->execs[slot]);
	f->execs[slot] = copy;
	f->nexec++;
	return 0;
}

/* Every successful execve of the held group has its exec record. */
static int hold_complete(const struct feed *f)
{
	for (size_t i = 0; i < f->nheld; i++) {
		const struct sonde_ev_syscall *sc = f->held[i];

		if (sc->hdr.type == SONDE_REC_SYSCALL && sc->hdr.size >= sizeof(*sc) &&
		    execargv_wanted(sc) && !exec_find(f, sc))
			return 0;
	}
	return 1;
}

/*
 * The current group is complete: rendered, or held when it has a
 * successful execve whose exec record has not come yet.
 */
static int group_done(struct feed *f, const struct feed_sink *k)
{
	void **recs = f->recs;
	size_t n = f->nrec;
	uint64_t until = 0;

	for (size_t i = 0; i < n; i++) {
		const struct sonde_ev_syscall *sc = recs[i];
		uint64_t end;

		if (sc->hdr.type != SONDE_REC_SYSCALL || sc->hdr.size < sizeof(*sc) ||
		    !execargv_wanted(sc) || exec_find(f, sc))
			continue;
		end = sc->dur > UINT64_MAX - sc->hdr.ts ? UINT64_MAX : sc->hdr.ts + sc->dur;
		until = end > until ? end : until;
	}
	f->nrec = 0;
	if (!until)
		return group_render(f, recs, n, k);
	/* The group's array becomes the held one; the next group gets a new. */
	f->held = recs;
	f->nheld = n;
	f->from = f->ts;
	f->until = until;
	f->recs = NULL;
	f->cap = 0;
	return 0;
}

static int feed_in(struct feed *f, const struct feed_sink *k, const struct sonde_hdr *rec);

/* Renders the held group, then takes the records that waited behind it
 * again, in order (one of them may start another wait). */
static int hold_release(struct feed *f, const struct feed_sink *k)
{
	void **later = f->later, **grp = f->held;
	size_t nlater = f->nlater, ngrp = f->nheld;
	int rc, e;

	f->held = NULL;
	f->nheld = 0;
	f->later = NULL;
	f->nlater = f->caplater = 0;
	f->later_bytes = 0;
	rc = group_render(f, grp, ngrp, k);
	free(grp);
	for (size_t i = 0; i < nlater; i++) {
		e = feed_in(f, k, later[i]);
		rc = rc ? rc : e;
	}
	recs_free(later, nlater);
	free(later);
	return rc;
}

static int feed_in(struct feed *f, const struct feed_sink *k, const struct sonde_hdr *rec)
{
	int rc = 0, e;

	while (f->held) {
		/* A call of a damaged file may claim to last for ever: what
		 * waits behind it is bounded. */
		if (rec->ts <= f->until && !hold_complete(f) &&
		    f->later_bytes < FEED_HOLD_MAX_BYTES) {
			f->later_bytes += rec->size;
			return list_add(&f->later, &f->nlater, &f->caplater, rec);
		}
		e = hold_release(f, k);
		rc = rc ? rc : e;
	}
	if (f->nrec && rec->ts != f->ts)
		rc = group_done(f, k);
	/* Held now: rec waits behind the group. */
	if (f->held) {
		f->later_bytes += rec->size;
		e = list_add(&f->later, &f->nlater, &f->caplater, rec);
		return e ? e : rc;
	}
	e = list_add(&f->recs, &f->nrec, &f->cap, rec);
	if (e)
		return e;
	f->ts = rec->ts;
	return rc;
}

int feed_record(struct feed *f, const struct feed_sink *k, const struct sonde_hdr *rec)
{
	if (rec->type == SONDE_REC_EXEC && exec_keep(f, rec))
		return -ENOMEM;
	return feed_in(f, k, rec);
}

int feed_advance(struct feed *f, const struct feed_sink *k, uint64_t t)
{
	int rc = 0, e;

	for (;;) {
		if (f->held) {
			/* Its exec record, if any, came before t. */
			if (t != UINT64_MAX && t <= f->until && !hold_complete(f))
				break;
			e = hold_release(f, k);
		} else if (f->nrec) {
			e = group_done(f, k);
		} else {
			break;
		}
		rc = rc ? rc : e;
	}
	return rc;
}

int feed_flush(struct feed *f, const struct feed_sink *k)
{
	return feed_advance(f, k, UINT64_MAX);
}

uint64_t feed_horizon(const struct feed *f, uint64_t t)
{
	return f->held && f->from < t ? f->from : t;
}

/* The grouping for other renderers (sonde_calls_*, strace.h). */
struct sonde_calls {
	struct feed feed;
	struct feed_sink sink;
};

struct sonde_calls *sonde_calls_new(int (*call)(void *ctx, const struct sonde_call *c),
				    int (*record)(void *ctx, const struct sonde_hdr *rec),
				    void *ctx)
{
	struct sonde_calls *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	feed_init(&g->feed);
	g->sink.call = call;
	g->sink.record = record;
	g->sink.ctx = ctx;
	return g;
}

void sonde_calls_on_signal(struct sonde_calls *g,
			   int (*fn)(void *ctx, const struct sonde_hdr *rec,
				     const struct sonde_payload *pl, unsigned int npl))
{
	g->sink.signal = fn;
}

int sonde_calls_feed(struct sonde_calls *g, const struct sonde_hdr *rec)
{
	return feed_record(&g->feed, &g->sink, rec);
}

int sonde_calls_advance(struct sonde_calls *g, uint64_t t)
{
	return feed_advance(&g->feed, &g->sink, t);
}

int sonde_calls_flush(struct sonde_calls *g)
{
	return feed_flush(&g->feed, &g->sink);
}

void sonde_calls_free(struct sonde_calls *g)
{
	if (!g)
		return;
	feed_free(&g->feed);
	free(g);
}
