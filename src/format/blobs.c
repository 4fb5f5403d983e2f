// SPDX-License-Identifier: GPL-2.0
/*
 * Payload store, writer side. Runs on the writer's compression threads
 * (or inline when it has none), never on the thread that appends records.
 *
 * For each chunk of records, payload records carrying BLOB_INLINE_MAX or
 * more bytes are reassembled (a payload arrives as consecutive records of
 * at most 16 KiB in one CPU stream; records of other types may sit in
 * between), cut into content-defined pieces (cdc.c), and each piece is
 * hashed (BLAKE2b-128). A piece whose hash the table already knows is only
 * referenced; a new one is added to the chunk's blob buffers, which the
 * writer compresses into PAYLOAD chunks and writes *before* the events
 * chunk, in the same write:
 *
 *   file: ... | PAYLOAD chunk(s): new blobs | EVENTS chunk: PLREF records | ...
 *
 * Ordering: chunks reach the file in ticket order. A hash claimed by the
 * chunk with ticket t may be referenced by chunks with tickets >= t only;
 * a chunk with an earlier ticket that meets it (another worker got there
 * first) stores its own copy. So no reference ever precedes its blob in
 * the file, whatever the number of threads, and a crash (which only loses
 * the end of the file) never leaves a reference without its blob.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "format/blake2b.h"
#include "format/blobs.h"
#include "format/cdc.h"
#include "format/layout.h"

#define TABLE_MIN (1u << 16)
/* A payload is reassembled up to the largest snaplen, then cut. */
#define GATHER_MAX (SONDE_SNAPLEN_MAX + SONDE_PL_CHUNK)

int blob_table_init(struct blob_table *t)
{
	memset(t, 0, sizeof(*t));
	pthread_mutex_init(&t->lock, NULL);
	t->slot = calloc(TABLE_MIN, sizeof(*t->slot));
	t->cap = TABLE_MIN;
	return t->slot ? 0 : -ENOMEM;
}

void blob_table_free(struct blob_table *t)
{
	free(t->slot);
	t->slot = NULL;
	pthread_mutex_destroy(&t->lock);
}

static uint64_t slot_key(const uint8_t *hash)
{
	uint64_t k;

	memcpy(&k, hash, sizeof(k)); /* a hash: already uniform */
	return k;
}

static struct blob_slot *table_find(struct blob_slot *s, size_t cap, const uint8_t *hash)
{
	size_t i = slot_key(hash) & (cap - 1);

	while (s[i].ticket1 && memcmp(s[i].hash, hash, SONDE_BLOB_HASH_LEN))
		i = (i + 1) & (cap - 1);
	return &s[i];
}

/* Doubles the table, or empties it at BLOB_TABLE_MAX (later repeats of
 * forgotten blobs are stored again: correct, only less compact). */
static int table_grow(struct blob_table *t)
{
	size_t cap = t->cap * 2;
	struct blob_slot *s;

	if (cap > BLOB_TABLE_MAX) {
		memset(t->slot, 0, t->cap * sizeof(*t->slot));
		t->n = 0;
		return 0;
	}
	s = calloc(cap, sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < t->cap; i++)
		if (t->slot[i].ticket1)
			*table_find(s, cap, t->slot[i].hash) = t->slot[i];
	free(t->slot);
	t->slot = s;
	t->cap = cap;
	return 0;
}

/* 1: reference it (stored by a chunk with ticket <= ticket); 0: store it
 * (now claimed by ticket); -ENOMEM. */
static int table_claim(struct blob_table *t, const uint8_t *hash, uint64_t ticket)
{
	struct blob_slot *s;
	int rc = 0;

	pthread_mutex_lock(&t->lock);
	s = table_find(t->slot, t->cap, hash);
	if (s->ticket1) {
		if (s->ticket1 - 1 <= ticket)
			rc = 1;
		else
			s->ticket1 = ticket + 1;
		goto out;
	}
	if ((t->n + 1) * 10 > t->cap * 7) {
		rc = table_grow(t);
		if (rc)
			goto out;
		s = table_find(t->slot, t->cap, hash);
	}
	memcpy(s->hash, hash, SONDE_BLOB_HASH_LEN);
	s->ticket1 = ticket + 1;
	t->n++;
out:
	pthread_mutex_unlock(&t->lock);
	return rc;
}

static int grow(void **buf, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*buf, n * elem);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*cap = n;
	return 0;
}

static void *out_room(struct blob_job *b, size_t n)
{
	void *p;

	if (grow((void **)&b->out, &b->out_cap, b->out_len + n, 1)) {
		b->err = -ENOMEM;
		return NULL;
	}
	p = b->out + b->out_len;
	b->out_len += n;
	b->out_nrec++;
	return p;
}

/* Appends a new blob to the current PAYLOAD buffer (a new one when full). */
static int blob_store(struct blob_job *b, const uint8_t *hash, const uint8_t *data, uint32_t len)
{
	size_t need = sizeof(struct sonde_blob_hdr) + sonde_align8(len);
	struct sonde_blob_hdr h = { .len = len };
	struct blob_buf *bb = b->nbufs ? &b->bufs[b->nbufs - 1] : NULL;

	if (!bb || bb->len + need > BLOB_CHUNK_BYTES) {
		/* Buffers keep their allocation from job to job. */
		if (b->nbufs == b->bufs_init) {
			if (grow((void **)&b->bufs, &b->bufs_cap, b->nbufs + 1, sizeof(*b->bufs)))
				return -ENOMEM;
			memset(&b->bufs[b->bufs_init++], 0, sizeof(*b->bufs));
		}
		bb = &b->bufs[b->nbufs];
		if (!bb->raw)
			bb->raw = malloc(BLOB_CHUNK_BYTES);
		if (!bb->raw)
			return -ENOMEM;
		bb->len = 0;
		bb->n = 0;
		b->nbufs++;
	}
	if (grow((void **)&b->nw, &b->new_cap, b->nnew + 1, sizeof(*b->nw)))
		return -ENOMEM;
	memcpy(h.hash, hash, sizeof(h.hash));
	b->nw[b->nnew++] = (struct blob_new){ .buf = (uint32_t)(b->nbufs - 1),
					      .off = (uint32_t)bb->len,
					      .len = len };
	memcpy(b->nw[b->nnew - 1].hash, hash, SONDE_BLOB_HASH_LEN);
	memcpy(bb->raw + bb->len, &h, sizeof(h));
	memcpy(bb->raw + bb->len + sizeof(h), data, len);
	memset(bb->raw + bb->len + sizeof(h) + len, 0, need - sizeof(h) - len);
	bb->len += need;
	bb->n++;
	b->st.stored += len;
	b->st.blobs++;
	return 0;
}

/* The BLAKE2b-128 of a piece, from the recent pieces when it repeats one. */
static void piece_digest(struct blob_job *b, const uint8_t *data, uint32_t len, uint8_t *hash)
{
	uint64_t fast = blob_probe_key(data, len);
	struct blob_recent_slot *s = blob_recent_find(&b->recent, fast, data, len);

	if (s) {
		memcpy(hash, s->hash, SONDE_BLOB_HASH_LEN);
		b->recent.hits++;
		return;
	}
	blake2b(hash, SONDE_BLOB_HASH_LEN, data, len);
	b->recent.misses++;
	blob_recent_put(&b->recent, fast, data, len, hash);
}

/* Cuts data into pieces and lists them (hash, length) in b->ext. */
static int piece_cut(struct blob_job *b, const uint8_t *data, size_t len)
{
	b->next = 0;
	for (size_t off = 0, k; off < len; off += k) {
		struct sonde_plref_ext *x;

		k = cdc_cut(data + off, len - off);
		if (grow((void **)&b->ext, &b->ext_cap, b->next + 1, sizeof(*b->ext)))
			return -ENOMEM;
		x = &b->ext[b->next++];
		piece_digest(b, data + off, (uint32_t)k, x->hash);
		x->len = (uint32_t)k;
	}
	return 0;
}

/* Claims the pieces listed in b->ext; stores those new to the table. */
static int piece_claim(struct blob_job *b, struct blob_table *t, uint64_t ticket,
		       const uint8_t *data)
{
	size_t off = 0;

	for (size_t i = 0; i < b->next; off += b->ext[i++].len) {
		const struct sonde_plref_ext *x = &b->ext[i];
		int rc = table_claim(t, x->hash, ticket);

		if (rc < 0)
			return rc;
		if (!rc && blob_store(b, x->hash, data + off, x->len))
			return -ENOMEM;
	}
	return 0;
}

/* Lists the pieces of data in b->ext: a repeated payload's from the
 * whole-payload cache, else cut and hashed (and then remembered). */
static int piece_hash(struct blob_job *b, struct blob_table *t, uint64_t ticket,
		      const uint8_t *data, size_t len)
{
	uint64_t fast = 0;
	int rc;

	if (len <= BLOB_WHOLE_MAX) {
		fast = blob_probe_key(data, len);
		if (blob_whole_get(&b->whole, fast, data, (uint32_t)len, &b->ext, &b->ext_cap,
				   &b->next))
			return piece_claim(b, t, ticket, data);
	}
	rc = piece_cut(b, data, len);
	if (rc)
		return rc;
	if (len <= BLOB_WHOLE_MAX)
		blob_whole_put(&b->whole, fast, data, (uint32_t)len, b->ext, b->next);
	return piece_claim(b, t, ticket, data);
}

/* Writes the PLREF records of the current piece: each covers whole
 * extents and at most SONDE_PLREF_SPAN_MAX bytes. */
static void piece_refs(struct blob_job *b)
{
	uint64_t at = b->cur.start;

	for (size_t i = 0, j; i < b->next; i = j) {
		uint32_t span = 0, size;
		struct sonde_ev_plref *r;

		for (j = i; j < b->next && span + b->ext[j].len <= SONDE_PLREF_SPAN_MAX; j++)
			span += b->ext[j].len;
		size = (uint32_t)sonde_align8(sizeof(*r) + (j - i) * sizeof(*b->ext));
		r = out_room(b, size);
		if (!r)
			return;
		memset(r, 0, size);
		memcpy(&r->p, b->cur.first, sizeof(r->p));
		r->p.hdr.type = SONDE_REC_PLREF;
		r->p.hdr.size = (uint16_t)size;
		r->p.offset = (uint32_t)at;
		r->p.chunk = span;
		r->nblobs = (uint32_t)(j - i);
		memcpy(r + 1, &b->ext[i], (j - i) * sizeof(*b->ext));
		at += span;
	}
}

static void piece_finish(struct blob_job *b, struct blob_table *t, uint64_t ticket)
{
	const uint8_t *data = b->cur.single ? b->cur.data : b->gather;
	int rc;

	if (!b->cur.active)
		return;
	b->cur.active = 0;
	rc = piece_hash(b, t, ticket, data, b->cur.len);
	if (rc) {
		b->err = rc;
		return;
	}
	b->st.captured += b->cur.len;
	b->st.refs += b->next;
	piece_refs(b);
}

static int piece_continues(const struct blob_piece *c, const struct sonde_ev_payload *p)
{
	const struct sonde_ev_payload *f = c->first;

	return f->hdr.tid == p->hdr.tid && f->hdr.ts == p->hdr.ts && f->addr == p->addr &&
	       f->arg == p->arg && f->phase == p->phase && f->nr == p->nr &&
	       f->captured == p->captured && f->flags == p->flags &&
	       (uint64_t)p->offset == c->start + c->len && c->len + p->chunk <= GATHER_MAX;
}

static void piece_add(struct blob_job *b, struct blob_table *t, uint64_t ticket,
		      const struct sonde_ev_payload *p)
{
	const uint8_t *data = (const uint8_t *)(p + 1);
	struct blob_piece *c = &b->cur;

	if (c->active && !piece_continues(c, p))
		piece_finish(b, t, ticket);
	if (!c->active) {
		*c = (struct blob_piece){
			.first = p,
			.data = data,
			.start = p->offset,
			.len = p->chunk,
			.active = 1,
			.single = 1,
		};
	} else {
		if (grow((void **)&b->gather, &b->gather_cap, c->len + p->chunk, 1)) {
			b->err = -ENOMEM;
			return;
		}
		if (c->single)
			memcpy(b->gather, c->data, c->len);
		c->single = 0;
		memcpy(b->gather + c->len, data, p->chunk);
		c->len += p->chunk;
	}
	if ((uint64_t)p->offset + p->chunk >= p->captured)
		piece_finish(b, t, ticket);
}

/* Payload records worth storing out of line. */
static int is_bulky(const struct sonde_hdr *h)
{
	const struct sonde_ev_payload *p = (const void *)h;

	return h->type == SONDE_REC_PAYLOAD && h->size >= sizeof(*p) && p->chunk &&
	       p->captured >= BLOB_INLINE_MAX && sizeof(*p) + (size_t)p->chunk <= h->size;
}

int blob_job_run(struct blob_job *b, struct blob_table *t, uint64_t ticket, const uint8_t *in,
		 size_t len)
{
	b->out_len = 0;
	b->out_nrec = 0;
	b->nbufs = 0;
	b->nnew = 0;
	b->err = 0;
	b->cur.active = 0;
	memset(&b->st, 0, sizeof(b->st));
	for (size_t off = 0; off + sizeof(struct sonde_hdr) <= len && !b->err;) {
		const struct sonde_hdr *h = (const void *)(in + off);

		if (is_bulky(h)) {
			piece_add(b, t, ticket, (const void *)h);
		} else {
			void *o = out_room(b, h->size);

			/* Small payloads were counted by the appender. */
			if (o)
				memcpy(o, h, h->size);
		}
		off += h->size;
	}
	if (!b->err)
		piece_finish(b, t, ticket);
	return b->err;
}

void blob_job_free(struct blob_job *b)
{
	for (size_t i = 0; i < b->bufs_init; i++)
		free(b->bufs[i].raw);
	free(b->bufs);
	free(b->out);
	free(b->gather);
	free(b->nw);
	free(b->ext);
	blob_recent_free(&b->recent);
	blob_whole_free(&b->whole);
	memset(b, 0, sizeof(*b));
}
