// SPDX-License-Identifier: GPL-2.0
/*
 * The payload store's caches of recent content (blobs.h): pieces already
 * hashed (blob_recent: skip BLAKE2b) and whole payloads already cut
 * (blob_whole: skip the cutting and the hashing). Both are direct-mapped
 * tables keyed by a 64-bit probe key over a ring holding the bytes, and
 * byte equality (memcmp), never the fast hash, decides a hit: a traced
 * program cannot make two contents share an entry. A miss only costs the
 * work the cache would have saved; a failed allocation runs without it.
 */
#include <stdlib.h>
#include <string.h>

#include "format/blobs.h"

/* Four multiply-rotate lanes (the round of xxHash's XXH64). */
static uint64_t fast_hash(const uint8_t *p, size_t n)
{
	const uint64_t p1 = 0x9e3779b185ebca87ull, p2 = 0xc2b2ae3d27d4eb4full;
	uint64_t v[4] = { p1 + p2, p2, 0, -p1 }, h, x;
	size_t i = 0;

	for (; i + 32 <= n; i += 32)
		for (int l = 0; l < 4; l++) {
			memcpy(&x, p + i + 8 * l, 8);
			v[l] += x * p2;
			v[l] = ((v[l] << 31) | (v[l] >> 33)) * p1;
		}
	h = ((v[0] << 1) | (v[0] >> 63)) + ((v[1] << 7) | (v[1] >> 57)) +
	    ((v[2] << 12) | (v[2] >> 52)) + ((v[3] << 18) | (v[3] >> 46)) + n;
	for (; i < n; i++)
		h = ((h ^ p[i]) * p1) ^ (h >> 29);
	h ^= h >> 33;
	h *= p2;
	return h ^ (h >> 29);
}

/*
 * The key the caches look content up by. It only picks the candidate that
 * memcmp then confirms, so it need not read every byte: up to 1 KiB it
 * hashes all, above that the length and three 256-byte samples (head,
 * middle, tail). Contents that differ only elsewhere share a key, and the
 * memcmp tells them apart, at a cost below that of hashing all the bytes
 * (which made a tenth of the writer's time, as much as cutting them).
 */
uint64_t blob_probe_key(const uint8_t *p, size_t n)
{
	uint64_t h;

	if (n <= 1024)
		return fast_hash(p, n);
	h = fast_hash(p, 256);
	h ^= fast_hash(p + n / 2 - 128, 256) * 0x9e3779b97f4a7c15ull;
	h ^= fast_hash(p + n - 256, 256) * 0xc2b2ae3d27d4eb4full;
	return h ^ n;
}

/*
 * Copies len bytes into a ring of size bytes whose absolute end is *end;
 * returns their absolute position. Entries never wrap around the ring's
 * end, so each is contiguous.
 */
static uint64_t ring_put(uint8_t *ring, uint64_t size, uint64_t *end, const uint8_t *data,
			 uint32_t len)
{
	uint64_t at = *end;

	if (at % size + len > size)
		at += size - at % size;
	memcpy(ring + at % size, data, len);
	*end = at + len;
	return at;
}

/* The entry at pos (len bytes) is intact and equal to data. */
static int ring_same(const uint8_t *ring, uint64_t size, uint64_t end, uint64_t pos,
		     const uint8_t *data, uint32_t len)
{
	/* Bytes older than one ring length have been overwritten. */
	if (pos + size < end)
		return 0;
	return !memcmp(ring + pos % size, data, len);
}

struct blob_recent_slot *blob_recent_find(struct blob_recent *r, uint64_t fast,
					  const uint8_t *data, uint32_t len)
{
	struct blob_recent_slot *s;

	if (!r->slot)
		return NULL;
	s = &r->slot[fast & (BLOB_RECENT_SLOTS - 1)];
	if (s->len != len || s->fast != fast ||
	    !ring_same(r->ring, BLOB_RECENT_BYTES, r->end, s->pos, data, len))
		return NULL;
	return s;
}

void blob_recent_put(struct blob_recent *r, uint64_t fast, const uint8_t *data, uint32_t len,
		     const uint8_t *hash)
{
	struct blob_recent_slot *s;

	if (!r->slot) {
		r->slot = calloc(BLOB_RECENT_SLOTS, sizeof(*r->slot));
		r->ring = malloc(BLOB_RECENT_BYTES);
		if (!r->slot || !r->ring) {
			blob_recent_free(r);
			return;
		}
	}
	s = &r->slot[fast & (BLOB_RECENT_SLOTS - 1)];
	s->pos = ring_put(r->ring, BLOB_RECENT_BYTES, &r->end, data, len);
	s->fast = fast;
	s->len = len;
	memcpy(s->hash, hash, SONDE_BLOB_HASH_LEN);
}

void blob_recent_free(struct blob_recent *r)
{
	free(r->slot);
	free(r->ring);
	r->slot = NULL;
	r->ring = NULL;
}

int blob_whole_get(struct blob_whole *w, uint64_t fast, const uint8_t *data, uint32_t len,
		   struct sonde_plref_ext **ext, size_t *cap, size_t *n)
{
	struct blob_whole_slot *s;

	if (!w->slot)
		return 0;
	s = &w->slot[fast & (BLOB_WHOLE_SLOTS - 1)];
	if (s->len != len || s->fast != fast ||
	    !ring_same(w->ring, BLOB_WHOLE_BYTES, w->end, s->pos, data, len)) {
		w->misses++;
		return 0;
	}
	if (*cap < s->next) {
		struct sonde_plref_ext *e = realloc(*ext, s->next * sizeof(*e));

		if (!e)
			return 0;
		*ext = e;
		*cap = s->next;
	}
	memcpy(*ext, s->ext, s->next * sizeof(**ext));
	*n = s->next;
	w->hits++;
	return 1;
}

void blob_whole_put(struct blob_whole *w, uint64_t fast, const uint8_t *data, uint32_t len,
		    const struct sonde_plref_ext *ext, size_t n)
{
	struct blob_whole_slot *s;

	if (!w->slot) {
		w->slot = calloc(BLOB_WHOLE_SLOTS, sizeof(*w->slot));
		w->ring = malloc(BLOB_WHOLE_BYTES);
		if (!w->slot || !w->ring) {
			blob_whole_free(w);
			return;
		}
	}
	s = &w->slot[fast & (BLOB_WHOLE_SLOTS - 1)];
	if (s->ext_cap < n) {
		struct sonde_plref_ext *e = realloc(s->ext, n * sizeof(*e));

		if (!e) {
			s->len = 0;
			return;
		}
		s->ext = e;
		s->ext_cap = n;
	}
	memcpy(s->ext, ext, n * sizeof(*ext));
	s->next = (uint32_t)n;
	s->pos = ring_put(w->ring, BLOB_WHOLE_BYTES, &w->end, data, len);
	s->fast = fast;
	s->len = len;
}

void blob_whole_free(struct blob_whole *w)
{
	if (w->slot)
		for (size_t i = 0; i < BLOB_WHOLE_SLOTS; i++)
			free(w->slot[i].ext);
	free(w->slot);
	free(w->ring);
	w->slot = NULL;
	w->ring = NULL;
}
