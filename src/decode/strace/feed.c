// SPDX-License-Identifier: GPL-2.0
/*
 * Feeding a trace to the renderer. The reader returns records in time
 * order; a call's payload records carry the call's entry time and tid, as
 * does its syscall record, so they arrive together (in any order, when
 * entry and exit ran on different CPUs). Records are therefore held while
 * their timestamp is the current one, then the group is rendered: chunks
 * of each payload reassembled, payloads handed to the call of their tid.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decode/strace/strace_int.h"
#include "decode/strace/feed.h"
#include <sonde/payload.h>

struct pl_build {
	struct sonde_payload p;
	uint32_t tid;
	uint8_t *buf;
	uint32_t size; /* bytes allocated at buf */
};

void feed_init(struct feed *f)
{
	memset(f, 0, sizeof(*f));
}

static void group_clear(struct feed *f)
{
	for (size_t i = 0; i < f->nrec; i++)
		free(f->recs[i]);
	f->nrec = 0;
}

void feed_free(struct feed *f)
{
	group_clear(f);
	free(f->recs);
	memset(f, 0, sizeof(*f));
}

/* The payload a chunk belongs to, created on its first chunk. */
static struct pl_build *pl_get(struct pl_build *v, size_t *n, size_t cap,
			       const struct sonde_ev_payload *r)
{
	for (size_t i = 0; i < *n; i++) {
		struct pl_build *b = &v[i];

		if (b->tid == r->hdr.tid && b->p.addr == r->addr &&
		    b->p.phase == r->phase && b->p.arg == r->arg)
			return b;
	}
	if (*n >= cap)
		return NULL;
	v[*n].tid = r->hdr.tid;
	/* Never NULL, even for an empty string: decoders may memchr it. */
	v[*n].buf = calloc(1, r->captured ? r->captured : 1);
	if (!v[*n].buf)
		return NULL;
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

#define GROUP_PAYLOADS 512

/* A payload record whose lengths can be trusted: a hostile file must not
 * make the reassembly allocate more than the largest snaplen. */
static int pl_valid(const struct sonde_hdr *h)
{
	const struct sonde_ev_payload *r = (const void *)h;

	return h->type == SONDE_REC_PAYLOAD && h->size >= sizeof(*r) &&
	       r->captured <= SONDE_SNAPLEN_MAX;
}

static int group_render(struct feed *f, const struct feed_sink *k)
{
	/* A group has at most one payload per record: sized to it, not to the
	 * cap (two 512-entry callocs per call were a tenth of live printing). */
	size_t cap = f->nrec < GROUP_PAYLOADS ? f->nrec : GROUP_PAYLOADS;
	struct pl_build *pls = calloc(cap, sizeof(*pls));
	struct sonde_payload *mine = calloc(cap, sizeof(*mine));
	size_t npl = 0;
	int rc = 0;

	if (!pls || !mine) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < f->nrec; i++) {
		const struct sonde_ev_payload *r = (const void *)f->recs[i];
		struct pl_build *b;

		if (!pl_valid(&r->hdr))
			continue;
		b = pl_get(pls, &npl, cap, r);
		if (b)
			pl_add_chunk(b, r);
	}
	for (size_t i = 0; i < f->nrec; i++) {
		const struct sonde_hdr *h = f->recs[i];
		struct sonde_call c = { 0 };
		int e;

		/* Malformed payload records go on as records: the consumer
		 * counts them with the records it cannot show. */
		if (pl_valid(h))
			continue;
		if (h->type != SONDE_REC_SYSCALL || h->size < sizeof(struct sonde_ev_syscall)) {
			e = k->record(k->ctx, h);
			rc = rc ? rc : (e == -EIO ? e : 0);
			continue;
		}
		c.sc = (const void *)h;
		c.pl = mine;
		for (size_t k = 0; k < npl; k++)
			if (pls[k].tid == h->tid)
				mine[c.npl++] = pls[k].p;
		e = k->call(k->ctx, &c);
		if (e && !rc)
			rc = e;
	}
out:
	for (size_t k = 0; k < npl; k++)
		free(pls[k].buf);
	free(pls);
	free(mine);
	group_clear(f);
	return rc;
}

int feed_record(struct feed *f, const struct feed_sink *k, const struct sonde_hdr *rec)
{
	int rc = 0;
	void *copy;

	if (f->nrec && rec->ts != f->ts)
		rc = group_render(f, k);
	if (f->nrec == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 64;
		void **n = realloc(f->recs, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		f->recs = n;
		f->cap = cap;
	}
	copy = malloc(rec->size);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, rec, rec->size);
	f->recs[f->nrec++] = copy;
	f->ts = rec->ts;
	return rc;
}

int feed_flush(struct feed *f, const struct feed_sink *k)
{
	return f->nrec ? group_render(f, k) : 0;
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

int sonde_calls_feed(struct sonde_calls *g, const struct sonde_hdr *rec)
{
	return feed_record(&g->feed, &g->sink, rec);
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
