// SPDX-License-Identifier: GPL-2.0
/*
 * Loading chunks and merging streams in timestamp order.
 *
 * Records inside a chunk are in production order and hdr.ts is not
 * monotonic (a syscall record carries its entry time but is written at
 * exit), so each loaded chunk's records are sorted by (ts, production
 * index). Chunks are loaded in order of their min ts; a heap holds the
 * loaded chunks keyed by their next record. The smallest record held can be
 * returned once its ts is below the min ts of every chunk not loaded yet:
 * no unread record can come before it. Ties: stream, then chunk sequence,
 * then production order. Memory is bounded by the chunks whose time ranges
 * overlap, plus SONDE_READER_HOLD_MAX as a safety net against files whose
 * chunks all overlap.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "format/reader.h"
#include "format/xform.h"
#include <sonde/payload.h>

static void loaded_free(struct loaded *l)
{
	if (!l)
		return;
	free(l->raw);
	free(l->recs);
	free(l);
}

void merge_reset(struct sonde_reader *r)
{
	for (size_t i = 0; i < r->nheap; i++)
		loaded_free(r->heap[i]);
	r->nheap = 0;
	loaded_free(r->retired);
	r->retired = NULL;
	r->held = 0;
	r->next = 0;
}

/* Heap order: (ts, stream, seq, production index). */
static int loaded_less(const struct loaded *a, const struct loaded *b)
{
	const struct recref *x = &a->recs[a->pos], *y = &b->recs[b->pos];

	if (x->ts != y->ts)
		return x->ts < y->ts;
	if (a->c->stream != b->c->stream)
		return a->c->stream < b->c->stream;
	if (a->c->seq != b->c->seq)
		return a->c->seq < b->c->seq;
	if (a->c != b->c)
		return a->c->offset < b->c->offset;
	return x->idx < y->idx;
}

static void heap_down(struct sonde_reader *r, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct loaded *t;

		if (l < r->nheap && loaded_less(r->heap[l], r->heap[m]))
			m = l;
		if (l + 1 < r->nheap && loaded_less(r->heap[l + 1], r->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		t = r->heap[i];
		r->heap[i] = r->heap[m];
		r->heap[m] = t;
		i = m;
	}
}

static int heap_push(struct sonde_reader *r, struct loaded *l)
{
	size_t i;

	if (r->nheap == r->heap_cap) {
		size_t cap = r->heap_cap ? 2 * r->heap_cap : 16;
		struct loaded **p = realloc(r->heap, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		r->heap = p;
		r->heap_cap = cap;
	}
	i = r->nheap++;
	r->heap[i] = l;
	while (i && loaded_less(r->heap[i], r->heap[(i - 1) / 2])) {
		struct loaded *t = r->heap[i];

		r->heap[i] = r->heap[(i - 1) / 2];
		r->heap[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
	return 0;
}

static int recref_cmp(const void *a, const void *b)
{
	const struct recref *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int grow(uint8_t **buf, size_t *cap, size_t need)
{
	uint8_t *p;

	if (need <= *cap)
		return 0;
	p = realloc(*buf, need);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*cap = need;
	return 0;
}

/* Reads and checks the header of c against what the table says. */
const char *chunk_read_hdr(struct sonde_reader *r, const struct rchunk *c,
			   struct sonde_chunk_hdr *h)
{
	const char *why = NULL;

	if (src_read(r, c->offset, h, sizeof(*h)))
		return "cannot read the chunk header";
	if (chunk_hdr_check(h, c->offset, r->data_end, &why))
		return why;
	if (c->from_idx && (h->stream != c->stream || h->seq != c->seq || h->min_ts != c->min_ts ||
			    h->max_ts != c->max_ts || h->nrecords != c->nrecords ||
			    h->kind != c->kind || h->comp_len != c->comp_len))
		return "chunk header disagrees with the footer index";
	if (h->codec != SONDE_CODEC_ZSTD)
		return "unknown compression codec";
	if (h->transform != SONDE_XFORM_NONE && h->transform != SONDE_XFORM_COLUMNS &&
	    h->transform != SONDE_XFORM_COLUMNS2)
		return "unknown record transform";
	if (h->transform == SONDE_XFORM_NONE && h->enc_len != h->raw_len)
		return "encoded length differs from raw length";
	return NULL;
}

/* Payload -> records in raw (raw_len bytes). */
const char *chunk_decode(struct sonde_reader *r, const struct rchunk *c,
			 const struct sonde_chunk_hdr *h, uint8_t *raw)
{
	const char *why = "out of memory";
	unsigned long long fsize;
	size_t n;

	if (grow(&r->comp, &r->comp_cap, h->comp_len ? h->comp_len : 1) ||
	    grow(&r->enc, &r->enc_cap, h->enc_len ? h->enc_len : 1) ||
	    grow(&r->scratch, &r->scratch_cap, h->raw_len ? h->raw_len : 1))
		return why;
	if (src_read(r, c->offset + h->hdr_len, r->comp, h->comp_len))
		return "cannot read the chunk payload";
	if (!sonde_crc_ok(h->data_crc, r->comp, h->comp_len))
		return "payload checksum mismatch";
	fsize = ZSTD_getFrameContentSize(r->comp, h->comp_len);
	if (fsize != h->enc_len)
		return "zstd frame size disagrees with the chunk header";
	n = ZSTD_decompressDCtx(r->dctx, r->enc, h->enc_len, r->comp, h->comp_len);
	if (ZSTD_isError(n))
		return ZSTD_getErrorName(n);
	if (n != h->enc_len)
		return "zstd frame decompressed to the wrong size";
	if (h->transform == SONDE_XFORM_NONE) {
		memcpy(raw, r->enc, h->raw_len);
		return NULL;
	}
	if (!r->xf && !(r->xf = xform_state_new()))
		return why;
	if (xform_decode(h->transform, r->enc, h->enc_len, h->nrecords, raw, h->raw_len,
			 (uint64_t *)r->scratch, r->xf, &why))
		return why;
	return NULL;
}

/* Validates every record and sorts them into l->recs. */
static const char *chunk_index_records(struct loaded *l, const struct sonde_chunk_hdr *h)
{
	size_t off = 0, sorted = 1;
	uint32_t i;

	l->recs = malloc((h->nrecords ? h->nrecords : 1) * sizeof(*l->recs));
	if (!l->recs)
		return "out of memory";
	for (i = 0; off < h->raw_len; i++) {
		const struct sonde_hdr *rec = (const void *)(l->raw + off);

		if (i == h->nrecords)
			return "more records than the header counts";
		if (sonde_rec_check(rec, h->raw_len - off))
			return "malformed record";
		if (rec->ts < h->min_ts || rec->ts > h->max_ts)
			return "record time stamp outside the chunk's time range";
		l->recs[i] = (struct recref){ .ts = rec->ts, .off = (uint32_t)off, .idx = i };
		if (i && rec->ts < l->recs[i - 1].ts)
			sorted = 0;
		off += rec->size;
	}
	if (i != h->nrecords)
		return "fewer records than the header counts";
	if (!sorted)
		qsort(l->recs, i, sizeof(*l->recs), recref_cmp);
	l->n = i;
	return NULL;
}

static const char *chunk_load(struct sonde_reader *r, const struct rchunk *c, struct loaded **out)
{
	struct sonde_chunk_hdr h;
	struct loaded *l;
	const char *why = chunk_read_hdr(r, c, &h);

	if (why)
		return why;
	l = calloc(1, sizeof(*l));
	if (!l)
		return "out of memory";
	l->c = c;
	l->raw = malloc(h.raw_len ? h.raw_len : 1);
	why = l->raw ? chunk_decode(r, c, &h, l->raw) : "out of memory";
	if (!why)
		why = chunk_index_records(l, &h);
	if (why) {
		loaded_free(l);
		return why;
	}
	l->bytes = h.raw_len + (size_t)l->n * sizeof(*l->recs);
	*out = l;
	return NULL;
}

/* The next chunk to load, skipping bad ones, other kinds and, after a seek,
 * chunks that end before the seek point. */
static struct rchunk *next_chunk(struct sonde_reader *r)
{
	for (; r->next < r->nchunks; r->next++) {
		struct rchunk *c = &r->chunks[r->next];

		if (c->bad || c->kind != SONDE_CHUNK_EVENTS || !c->nrecords ||
		    c->max_ts < r->seek_ts)
			continue;
		return c;
	}
	return NULL;
}

/* Loads c into the heap; -EBADMSG (reported once) if it is corrupt. */
static int merge_load(struct sonde_reader *r, struct rchunk *c)
{
	struct loaded *l = NULL;
	const char *why;

	r->next++;
	why = chunk_load(r, c, &l);
	if (why) {
		c->bad = 1;
		r->st.chunks--;
		r->st.bad_chunks++;
		reader_error(r,
			     "chunk at offset %llu (stream %u, seq %llu) is corrupt: %s; "
			     "skipped",
			     (unsigned long long)c->offset, c->stream, (unsigned long long)c->seq,
			     why);
		return -EBADMSG;
	}
	if (heap_push(r, l)) {
		loaded_free(l);
		reader_error(r, "out of memory while merging the trace");
		return -ENOMEM;
	}
	r->held += l->bytes;
	return 0;
}

/* Pops the smallest record held. */
static const struct sonde_hdr *merge_pop(struct sonde_reader *r)
{
	struct loaded *l = r->heap[0];
	const struct sonde_hdr *rec = (const void *)(l->raw + l->recs[l->pos].off);

	if (++l->pos < l->n) {
		heap_down(r, 0);
		return rec;
	}
	/* Exhausted: keep it alive until the caller is done with rec. */
	r->heap[0] = r->heap[--r->nheap];
	heap_down(r, 0);
	r->held -= l->bytes;
	loaded_free(r->retired); /* its record, if any, was skipped by a seek */
	r->retired = l;
	return rec;
}

/* Puts the bytes of a payload reference back (rblobs.c) and counts
 * payloads; a missing blob is reported now, its flagged record next. */
static int merge_payload(struct sonde_reader *r, const struct sonde_hdr **rec)
{
	const struct sonde_ev_payload *p;
	int inl = (*rec)->type == SONDE_REC_PAYLOAD, e;

	if (!inl) {
		e = rblobs_inflate(r, *rec, rec);
		if (e == -EBADMSG) {
			r->pl_held = *rec;
			return e;
		}
		if (e)
			return e;
	}
	p = (const void *)*rec;
	r->pst.records++;
	r->pst.bytes += p->chunk;
	if (inl)
		r->pst.inline_bytes += p->chunk;
	return 1;
}

int sonde_reader_next(struct sonde_reader *r, const struct sonde_hdr **rec)
{
	if (r->pl_held) {
		*rec = r->pl_held;
		r->pl_held = NULL;
		r->pst.records++;
		r->st.records++;
		return 1;
	}
	loaded_free(r->retired);
	r->retired = NULL;
	if (r->pending_pos < r->npending) {
		reader_error(r, "%s", r->pending[r->pending_pos++]);
		return -EBADMSG;
	}
	for (;;) {
		struct rchunk *c = next_chunk(r);
		const struct loaded *top = r->nheap ? r->heap[0] : NULL;
		int err;

		if (top && c && top->recs[top->pos].ts >= c->min_ts &&
		    r->held > SONDE_READER_HOLD_MAX && !r->relaxed) {
			r->relaxed = 1;
			reader_error(r, "chunks overlap in time by more than 512 MiB; records "
					"from here on may be out of time order");
		}
		if (top &&
		    (!c || top->recs[top->pos].ts < c->min_ts || r->held > SONDE_READER_HOLD_MAX)) {
			*rec = merge_pop(r);
			if ((*rec)->ts < r->seek_ts)
				continue;
			if ((*rec)->type == SONDE_REC_PAYLOAD || (*rec)->type == SONDE_REC_PLREF) {
				err = merge_payload(r, rec);
				if (err <= 0)
					return err;
			}
			r->st.records++;
			return 1;
		}
		if (!c)
			return 0;
		err = merge_load(r, c);
		if (err)
			return err;
	}
}

int sonde_reader_seek(struct sonde_reader *r, uint64_t ts)
{
	merge_reset(r);
	r->pl_held = NULL;
	r->seek_ts = ts;
	return 0;
}
