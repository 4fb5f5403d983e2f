// SPDX-License-Identifier: GPL-2.0
/*
 * Payload store, reader side: finding blobs by content hash and putting
 * the bytes of PLREF records back.
 *
 * The blob table is built on first use: from the BLOBINDEX chunks of the
 * footer when the file has a valid one, else (truncated file, damaged
 * index) by decompressing every PAYLOAD chunk and walking its entries.
 * Blob bytes come from a small cache of decompressed PAYLOAD chunks:
 * references mostly point at blobs stored shortly before them. Each blob
 * is checked against its hash the first time it is used, so damage that
 * got past the checksums, or a hostile file, can never hand a decoder
 * bytes other than the ones hashed at record time.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/blake2b.h"
#include "format/reader.h"
#include <sonde/payload.h>

#define CACHE_CHUNKS 8
#define INFL_BYTES (sizeof(struct sonde_ev_payload) + SONDE_PLREF_SPAN_MAX)

struct rblob {
	uint8_t hash[SONDE_BLOB_HASH_LEN];
	uint32_t chunk; /* index in r->chunks */
	uint32_t off;	/* entry offset in the chunk's raw bytes */
	uint32_t len;
	uint8_t state; /* 0 unchecked, 1 hash verified, 2 bad */
};

struct bcache {
	uint8_t *raw;
	size_t len;
	uint32_t chunk;
	uint64_t used; /* LRU clock; 0 = empty */
};

struct rblobs {
	struct rblob *v;
	size_t n, cap;
	uint32_t *tab; /* open addressing: blob index + 1; 0 = free */
	size_t tcap;
	struct bcache cache[CACHE_CHUNKS];
	uint64_t clock;
	uint64_t file_bytes;
};

static uint64_t hash_key(const uint8_t *hash)
{
	uint64_t k;

	memcpy(&k, hash, sizeof(k));
	return k;
}

static struct rblob *blob_find(struct rblobs *b, const uint8_t *hash)
{
	if (!b->tcap)
		return NULL;
	for (size_t i = hash_key(hash) & (b->tcap - 1);; i = (i + 1) & (b->tcap - 1)) {
		uint32_t k = b->tab[i];

		if (!k)
			return NULL;
		if (!memcmp(b->v[k - 1].hash, hash, SONDE_BLOB_HASH_LEN))
			return &b->v[k - 1];
	}
}

/* Builds the hash table over b->v; the first copy of a hash wins. */
static int blobs_hash(struct rblobs *b)
{
	size_t cap = 16;

	while (cap < 2 * b->n)
		cap *= 2;
	free(b->tab);
	b->tab = calloc(cap, sizeof(*b->tab));
	if (!b->tab)
		return -ENOMEM;
	b->tcap = cap;
	for (size_t i = 0; i < b->n; i++) {
		size_t j = hash_key(b->v[i].hash) & (cap - 1);

		for (; b->tab[j]; j = (j + 1) & (cap - 1))
			if (!memcmp(b->v[b->tab[j] - 1].hash, b->v[i].hash, SONDE_BLOB_HASH_LEN))
				break;
		if (!b->tab[j])
			b->tab[j] = (uint32_t)i + 1;
	}
	return 0;
}

static int blobs_add(struct rblobs *b, const uint8_t *hash, uint32_t chunk, uint32_t off,
		     uint32_t len)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 1024;
		struct rblob *p;

		if (cap > UINT32_MAX - 1)
			return -ENOMEM;
		p = realloc(b->v, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		b->v = p;
		b->cap = cap;
	}
	b->v[b->n] = (struct rblob){ .chunk = chunk, .off = off, .len = len };
	memcpy(b->v[b->n].hash, hash, SONDE_BLOB_HASH_LEN);
	b->n++;
	return 0;
}

/* Decompresses chunk i into a fresh buffer; NULL (reported) if damaged. */
static uint8_t *chunk_raw(struct sonde_reader *r, size_t i, size_t *len)
{
	struct rchunk *c = &r->chunks[i];
	struct sonde_chunk_hdr h;
	const char *why = c->bad ? "" : chunk_read_hdr(r, c, &h);
	uint8_t *raw = NULL;

	if (!why && h.transform != SONDE_XFORM_NONE)
		why = "a payload store chunk must not be transformed";
	if (!why) {
		raw = malloc(h.raw_len ? h.raw_len : 1);
		why = raw ? chunk_decode(r, c, &h, raw) : "out of memory";
	}
	if (why) {
		free(raw);
		if (!c->bad) {
			c->bad = 1;
			r->st.bad_chunks++;
			reader_error(r, "payload chunk at offset %llu (seq %llu) is corrupt: %s",
				     (unsigned long long)c->offset, (unsigned long long)c->seq,
				     why);
		}
		return NULL;
	}
	*len = h.raw_len;
	return raw;
}

/* Walks the blob entries of a PAYLOAD chunk's raw bytes: each fits, the
 * count agrees with the header. fn (may be NULL) sees each entry. */
static int entries_walk(struct rblobs *b, const uint8_t *raw, size_t len, uint32_t nrec,
			uint32_t chunk)
{
	size_t off = 0;
	uint32_t n = 0;

	while (off < len) {
		struct sonde_blob_hdr h;

		if (len - off < sizeof(h))
			return -EBADMSG;
		memcpy(&h, raw + off, sizeof(h));
		if (h.len > SONDE_BLOB_MAX || sonde_align8(h.len) > len - off - sizeof(h))
			return -EBADMSG;
		if (b && blobs_add(b, h.hash, chunk, (uint32_t)off, h.len))
			return -ENOMEM;
		off += sizeof(h) + sonde_align8(h.len);
		n++;
	}
	return n == nrec ? 0 : -EBADMSG;
}

/* No usable blob index: every PAYLOAD chunk is opened and walked. */
static int blobs_scan(struct sonde_reader *r, struct rblobs *b)
{
	for (size_t i = 0; i < r->nchunks; i++) {
		size_t len, n0 = b->n;
		uint8_t *raw;
		int e;

		if (r->chunks[i].kind != SONDE_CHUNK_PAYLOAD)
			continue;
		raw = chunk_raw(r, i, &len);
		if (!raw)
			continue;
		e = entries_walk(b, raw, len, r->chunks[i].nrecords, (uint32_t)i);
		free(raw);
		if (e == -ENOMEM)
			return e;
		if (e) {
			b->n = n0;
			r->chunks[i].bad = 1;
			r->st.bad_chunks++;
			reader_error(r, "payload chunk at offset %llu: malformed blob entries",
				     (unsigned long long)r->chunks[i].offset);
		}
	}
	return 0;
}

static int off_cmp(const void *a, const void *b)
{
	const struct rchunk *x = *(const struct rchunk *const *)a;
	const struct rchunk *y = *(const struct rchunk *const *)b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* The PAYLOAD chunk at file offset off, by binary search; -1 if none. */
static long payload_at(struct sonde_reader *r, struct rchunk **by_off, size_t n, uint64_t off)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (by_off[mid]->offset < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == n || by_off[lo]->offset != off)
		return -1;
	return by_off[lo] - r->chunks;
}

/* Loads one BLOBINDEX chunk; -EBADMSG if anything in it is off. */
static int index_chunk(struct sonde_reader *r, struct rblobs *b, size_t i, struct rchunk **by_off,
		       size_t npay)
{
	struct sonde_blobidx_entry e;
	size_t len;
	uint8_t *raw = chunk_raw(r, i, &len);
	int rc = 0;

	if (!raw)
		return -EBADMSG;
	if (len != (size_t)r->chunks[i].nrecords * sizeof(e))
		rc = -EBADMSG;
	for (size_t off = 0; !rc && off < len; off += sizeof(e)) {
		long c;

		memcpy(&e, raw + off, sizeof(e));
		c = payload_at(r, by_off, npay, e.chunk_off);
		if (c < 0 || e.len > SONDE_BLOB_MAX || e.off % 8)
			rc = -EBADMSG;
		else
			rc = blobs_add(b, e.hash, (uint32_t)c, e.off, e.len);
	}
	free(raw);
	return rc;
}

/* From the footer's BLOBINDEX chunks; nonzero if there are none or one
 * is damaged (the caller scans instead). */
static int blobs_index(struct sonde_reader *r, struct rblobs *b)
{
	struct rchunk **by_off = malloc((r->nchunks ? r->nchunks : 1) * sizeof(*by_off));
	size_t npay = 0, nidx = 0;
	int rc = 0;

	if (!by_off)
		return -ENOMEM;
	for (size_t i = 0; i < r->nchunks; i++)
		if (r->chunks[i].kind == SONDE_CHUNK_PAYLOAD)
			by_off[npay++] = &r->chunks[i];
	qsort(by_off, npay, sizeof(*by_off), off_cmp);
	for (size_t i = 0; i < r->nchunks && !rc; i++)
		if (r->chunks[i].kind == SONDE_CHUNK_BLOBINDEX) {
			nidx++;
			rc = index_chunk(r, b, i, by_off, npay);
		}
	free(by_off);
	if (rc == -ENOMEM)
		return rc;
	if (rc || (npay && !nidx)) {
		b->n = 0;
		if (rc)
			reader_error(r, "payload blob index damaged; blobs found by scanning");
		return 1;
	}
	return 0;
}

static struct rblobs *blobs_get(struct sonde_reader *r)
{
	struct rblobs *b = r->blobs;
	int rc = 0;

	if (b)
		return b;
	b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	for (size_t i = 0; i < r->nchunks; i++)
		if (r->chunks[i].kind == SONDE_CHUNK_PAYLOAD)
			b->file_bytes += sonde_align8(sizeof(struct sonde_chunk_hdr) +
						      (uint64_t)r->chunks[i].comp_len);
	if (r->truncated || (rc = blobs_index(r, b)) > 0)
		rc = blobs_scan(r, b);
	if (rc || blobs_hash(b)) {
		free(b->v);
		free(b->tab);
		free(b);
		return NULL;
	}
	r->blobs = b;
	return b;
}

/* The cached raw bytes of chunk i, loading it (LRU) if needed. */
static const struct bcache *cache_get(struct sonde_reader *r, struct rblobs *b, uint32_t i)
{
	struct bcache *victim = &b->cache[0];

	for (int k = 0; k < CACHE_CHUNKS; k++) {
		struct bcache *c = &b->cache[k];

		if (c->used && c->chunk == i) {
			c->used = ++b->clock;
			return c;
		}
		if (c->used < victim->used)
			victim = c;
	}
	free(victim->raw);
	victim->used = 0;
	victim->raw = chunk_raw(r, i, &victim->len);
	if (!victim->raw)
		return NULL;
	if (entries_walk(NULL, victim->raw, victim->len, r->chunks[i].nrecords, i)) {
		free(victim->raw);
		victim->raw = NULL;
		return NULL;
	}
	victim->chunk = i;
	victim->used = ++b->clock;
	return victim;
}

/* The bytes of blob x (len bytes), or NULL with *why. */
static const uint8_t *blob_bytes(struct sonde_reader *r, struct rblobs *b, struct rblob *x,
				 const char **why)
{
	const struct bcache *c;
	struct sonde_blob_hdr h;
	uint8_t sum[SONDE_BLOB_HASH_LEN];

	if (x->state == 2)
		return *why = "it failed its hash check", NULL;
	c = cache_get(r, b, x->chunk);
	if (!c)
		return *why = "its payload chunk is damaged", NULL;
	if (x->off > c->len || c->len - x->off < sizeof(h))
		return *why = "the blob index points outside its chunk", NULL;
	memcpy(&h, c->raw + x->off, sizeof(h));
	if (h.len != x->len || memcmp(h.hash, x->hash, sizeof(h.hash)) ||
	    sonde_align8(h.len) > c->len - x->off - sizeof(h))
		return *why = "the blob index disagrees with its chunk", NULL;
	if (!x->state) {
		blake2b(sum, sizeof(sum), c->raw + x->off + sizeof(h), h.len);
		x->state = memcmp(sum, x->hash, sizeof(sum)) ? 2 : 1;
		if (x->state == 2)
			return *why = "it failed its hash check", NULL;
	}
	return c->raw + x->off + sizeof(h);
}

static void hash_hex(char *s, const uint8_t *hash)
{
	for (int i = 0; i < SONDE_BLOB_HASH_LEN; i++)
		sprintf(s + 2 * i, "%02x", hash[i]);
}

int rblobs_inflate(struct sonde_reader *r, const struct sonde_hdr *rec,
		   const struct sonde_hdr **out)
{
	const struct sonde_ev_plref *ref = (const void *)rec;
	const struct sonde_plref_ext *x = (const void *)(ref + 1);
	struct sonde_ev_payload *p;
	struct rblobs *b;
	uint32_t pos = 0;

	if (!r->infl) {
		r->infl = malloc(INFL_BYTES);
		if (!r->infl)
			return -ENOMEM;
	}
	p = (struct sonde_ev_payload *)r->infl;
	*p = ref->p;
	p->hdr.type = SONDE_REC_PAYLOAD;
	*out = &p->hdr;
	b = blobs_get(r);
	for (uint32_t i = 0; i < ref->nblobs; i++) {
		struct sonde_plref_ext e;
		const char *why = "it is not in the trace";
		const uint8_t *data = NULL;
		struct rblob *bl;
		char hex[2 * SONDE_BLOB_HASH_LEN + 1];

		memcpy(&e, &x[i], sizeof(e));
		bl = b ? blob_find(b, e.hash) : NULL;
		if (!b)
			why = "out of memory indexing the payload store";
		if (bl && bl->len != e.len)
			why = "its length differs from the reference";
		else if (bl)
			data = blob_bytes(r, b, bl, &why);
		if (data) {
			memcpy(r->infl + sizeof(*p) + pos, data, e.len);
			pos += e.len;
			continue;
		}
		hash_hex(hex, e.hash);
		reader_error(r,
			     "payload of tid %u at ts %llu (bytes %u..%u): blob %s (%u bytes) "
			     "unavailable: %s; the payload is marked missing",
			     rec->tid, (unsigned long long)rec->ts, ref->p.offset,
			     ref->p.offset + ref->p.chunk, hex, e.len, why);
		p->flags |= SONDE_PLR_MISSING;
		p->chunk = 0;
		p->hdr.size = sizeof(*p);
		r->pst.missing++;
		return -EBADMSG;
	}
	p->hdr.size = (uint16_t)sonde_align8(sizeof(*p) + pos);
	memset(r->infl + sizeof(*p) + pos, 0, p->hdr.size - sizeof(*p) - pos);
	return 0;
}

int sonde_reader_payload_stats(struct sonde_reader *r, struct sonde_reader_payload_stats *st)
{
	struct rblobs *b = blobs_get(r);

	*st = r->pst;
	if (!b)
		return -ENOMEM;
	st->blobs = 0;
	st->blob_bytes = 0;
	/* Distinct hashes: a blob stored twice (two writer threads raced
	 * for it) counts once. */
	for (size_t i = 0; i < b->tcap; i++)
		if (b->tab[i]) {
			st->blobs++;
			st->blob_bytes += b->v[b->tab[i] - 1].len;
		}
	st->file_bytes = b->file_bytes;
	return 0;
}

void rblobs_free(struct sonde_reader *r)
{
	struct rblobs *b = r->blobs;

	free(r->infl);
	r->infl = NULL;
	if (!b)
		return;
	for (int k = 0; k < CACHE_CHUNKS; k++)
		free(b->cache[k].raw);
	free(b->v);
	free(b->tab);
	free(b);
	r->blobs = NULL;
}
