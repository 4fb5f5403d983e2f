// SPDX-License-Identifier: GPL-2.0
/*
 * The "columns" chunk transform. Records of fixed-size types are mostly
 * repetition (same pid, tid, type, args) plus a few noisy low bytes (time
 * stamps, durations). Stored verbatim, that noise is spread over 96-byte
 * records and zstd pays a match per record; gathered into columns it becomes
 * a few dense byte planes and long runs of zeros. Encoded layout:
 *
 *   tags     per record: varint type, varint size/8
 *   columns  for slot 0..15, for word j: the j-th 8-byte word of every
 *            record of that slot that has one, as 8 byte planes (all the
 *            low bytes, then all the second bytes, ...)
 *   tail     the words of each record beyond its slot's fixed words
 *            (exec/proc strings, fields of unknown types), verbatim, in
 *            record order
 *
 * A record's slot is its type (types >= 16 share slot 0) and it has
 * min(size/8, fixed_words[slot]) column words. Word 0 (hdr.ts) is stored as
 * the zigzag difference with the ts of the previous record of the chunk;
 * every other column word as the XOR with the same word of the previous
 * record of its slot (0 for the first), so repeated fields become zeros.
 * The table below is part of the format: changing it needs a new transform
 * id.
 *
 * Transform 2 (what the writer produces) predicts syscall records better;
 * transform 1 is still decoded. Differences, all for slot 1 (syscalls with
 * the full 12 words; shorter ones use bucket 0):
 *
 *   tag      a third varint after type and size/8: the record's bucket,
 *            nr & (NBUCKETS - 1)
 *   order    every column of slot 1 lists its values grouped by bucket
 *            (bucket 0 first, record order inside a bucket): read(fd,
 *            buf, n) next to the previous read, not to the write between
 *   words    ret, args and nr XOR the same word of the previous record of
 *            the same bucket; dur is stored as is (XOR with an unrelated
 *            duration only adds bits); pid/tid and type/size/cpu/flags
 *            XOR the previous record of the slot, as in transform 1
 *   ts       every record's ts is the zigzag difference with the previous
 *            record's end: its ts, plus its dur for a syscall. A syscall
 *            record is written at exit with its entry time, so this is the
 *            user-space gap between two calls, far smaller than the
 *            difference of two entry times
 *
 * On a tar | cat recording this takes syscall records from 8.6 to 5.9
 * bytes each at zstd level 3 (docs/format.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "format/layout.h"
#include "format/xform.h"

#define NSLOTS 16
#define MAXWORDS 12
#define NBUCKETS 512 /* transform 2: syscall numbers < 512 get their own */
#define SC_SLOT 1
#define SC_WORDS 12
#define SC_DUR 4 /* struct sonde_ev_syscall: ts pid/tid type.. ret dur args nr */
#define SC_NR 11

/* 8-byte words of the fixed part of each record type, events.h v1. */
static const uint8_t fixed_words[NSLOTS] = {
	[0] = 3,  [1] = 12, /* syscall */
	[2] = 10,	    /* switch */
	[3] = 5,	    /* wakeup */
	[4] = 7,	    /* fork */
	[5] = 7,	    /* exec */
	[6] = 4,	    /* exit */
	[7] = 5,	    /* comm */
	[8] = 5,	    /* lost */
	[9] = 6,	    /* proc */
	[10] = 3, [11] = 3, [12] = 3, [13] = 3, [14] = 3, [15] = 3,
};

struct layout {
	size_t cnt[NSLOTS][MAXWORDS];  /* values in each column */
	size_t off[NSLOTS][MAXWORDS];  /* where each column's planes start */
	size_t woff[NSLOTS][MAXWORDS]; /* where its words start in scratch */
	size_t pos[NSLOTS][MAXWORDS];  /* values written/read so far */
	size_t tail_off;
	/* transform 2, slot 1: values per bucket, then (bucket_place())
	 * the next position of each bucket inside its column */
	uint32_t bpos[SC_WORDS][NBUCKETS];
	/* The encoder's full syscall records (12 words) per bucket, and its
	 * slot 1 records shorter than that (encode_count()). */
	uint32_t nfull[NBUCKETS];
	size_t nshort;
};

/* Prediction state carried from record to record. */
struct predict {
	uint64_t prev[NSLOTS][MAXWORDS]; /* last word of each slot's column */
	uint64_t bucket[NBUCKETS][SC_WORDS]; /* transform 2: last of a bucket */
	uint64_t end;			     /* ts (+ dur) of the last record */
};

/* ~75 KiB: allocated once per compressor/reader, not on a thread's stack. */
struct xform_state {
	struct layout l;
	struct predict p;
};

static unsigned int rec_slot(unsigned int type)
{
	return type < NSLOTS ? type : 0;
}

static unsigned int rec_words(unsigned int slot, unsigned int size)
{
	unsigned int n = size / 8;

	return n < fixed_words[slot] ? n : fixed_words[slot];
}

/* hdr.type and hdr.size, at offsets 16 and 18 of every record */
static unsigned int load16(const uint8_t *p)
{
	return (unsigned int)p[0] | (unsigned int)p[1] << 8;
}

static uint64_t load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static void store64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static uint64_t zigzag(uint64_t d)
{
	return (d << 1) ^ (uint64_t)((int64_t)d >> 63);
}

static uint64_t unzigzag(uint64_t z)
{
	return (z >> 1) ^ (uint64_t) - (int64_t)(z & 1);
}

static uint8_t *varint_put(uint8_t *p, unsigned int v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* Reads a varint of at most 3 bytes (values < 2^21); NULL if malformed. */
static const uint8_t *varint_get(const uint8_t *p, const uint8_t *end, unsigned int *v)
{
	unsigned int r = 0;

	for (int i = 0; i < 3 && p < end; i++) {
		r |= (unsigned int)(*p & 0x7f) << (7 * i);
		if (!(*p++ & 0x80)) {
			*v = r;
			return p;
		}
	}
	return NULL;
}

size_t xform_bound(size_t raw_len, size_t nrec)
{
	/* A tag is at most 3 + 2 + 2 bytes (type < 2^16, size/8 < 2^13,
	 * bucket < 2^9). */
	return raw_len + 7 * nrec;
}

/* Places the columns after the tags, then the tail; and the columns'
 * words one after the other in the scratch array. */
static size_t layout_place(struct layout *l, size_t base)
{
	size_t w = 0;

	for (int s = 0; s < NSLOTS; s++) {
		for (int j = 0; j < MAXWORDS; j++) {
			l->off[s][j] = base;
			l->woff[s][j] = w;
			l->pos[s][j] = 0;
			base += 8 * l->cnt[s][j];
			w += l->cnt[s][j];
		}
	}
	l->tail_off = base;
	return base;
}

/* Turns slot 1's per-bucket counts into each bucket's first position. */
static void bucket_place(struct layout *l)
{
	for (int j = 0; j < SC_WORDS; j++) {
		uint32_t at = 0;

		for (int b = 0; b < NBUCKETS; b++) {
			uint32_t n = l->bpos[j][b];

			l->bpos[j][b] = at;
			at += n;
		}
	}
}

/* Transform 2's bucket of a record: its syscall number's, or 0. */
static unsigned int rec_bucket(const uint8_t *rec, unsigned int slot, unsigned int k)
{
	return slot == SC_SLOT && k == SC_WORDS ? load64(rec + 8 * SC_NR) & (NBUCKETS - 1) : 0;
}

/* Where the j-th word of a record of this slot (and bucket) goes in
 * scratch, advancing the column's cursor. */
static size_t word_at(struct layout *l, int v2, unsigned int slot, unsigned int b, unsigned int j)
{
	if (v2 && slot == SC_SLOT)
		return l->woff[slot][j] + l->bpos[j][b]++;
	return l->woff[slot][j] + l->pos[slot][j]++;
}

/*
 * The context a word is XORed with (NULL: stored as is). Word 0, the ts,
 * is handled by the callers.
 */
static uint64_t *word_ctx(struct predict *p, int v2, unsigned int slot, unsigned int b,
			  unsigned int j)
{
	if (!v2 || slot != SC_SLOT || j < 3)
		return &p->prev[slot][j];
	return j == SC_DUR ? NULL : &p->bucket[b][j];
}

/* The end of a record as transform 2 predicts the next ts from. */
static uint64_t rec_end(const uint8_t *rec, int v2, unsigned int slot, unsigned int k)
{
	uint64_t ts = load64(rec);

	if (v2 && slot == SC_SLOT && k > SC_DUR)
		ts += load64(rec + 8 * SC_DUR);
	return ts;
}

/*
 * Transposes an 8x8 byte matrix held as 8 little-endian words (byte c of
 * a[r] is element [r][c]) by swapping ever smaller off-diagonal blocks:
 * 4x4, then 2x2, then single bytes. It is its own inverse.
 */
#define SWAP_BLOCKS(a, i, k, shift, mask)                              \
	do {                                                           \
		uint64_t t_ = (((a)[i] >> (shift)) ^ (a)[k]) & (mask); \
		(a)[i] ^= t_ << (shift);                               \
		(a)[k] ^= t_;                                          \
	} while (0)

static inline __attribute__((always_inline)) void transpose8(uint64_t a[8])
{
	const uint64_t m32 = 0x00000000ffffffffull, m16 = 0x0000ffff0000ffffull,
		       m8 = 0x00ff00ff00ff00ffull;

	SWAP_BLOCKS(a, 0, 4, 32, m32);
	SWAP_BLOCKS(a, 1, 5, 32, m32);
	SWAP_BLOCKS(a, 2, 6, 32, m32);
	SWAP_BLOCKS(a, 3, 7, 32, m32);
	SWAP_BLOCKS(a, 0, 2, 16, m16);
	SWAP_BLOCKS(a, 1, 3, 16, m16);
	SWAP_BLOCKS(a, 4, 6, 16, m16);
	SWAP_BLOCKS(a, 5, 7, 16, m16);
	SWAP_BLOCKS(a, 0, 1, 8, m8);
	SWAP_BLOCKS(a, 2, 3, 8, m8);
	SWAP_BLOCKS(a, 4, 5, 8, m8);
	SWAP_BLOCKS(a, 6, 7, 8, m8);
}

/* cnt words -> 8 byte planes of cnt bytes each, 8 words at a time. */
static void planes_put(uint8_t *dst, const uint64_t *w, size_t cnt)
{
	size_t i = 0;

	for (; i + 8 <= cnt; i += 8) {
		uint64_t a[8];

		memcpy(a, w + i, sizeof(a));
		transpose8(a);
		for (int b = 0; b < 8; b++)
			store64(dst + b * cnt + i, a[b]);
	}
	for (; i < cnt; i++)
		for (int b = 0; b < 8; b++)
			dst[b * cnt + i] = (uint8_t)(w[i] >> (8 * b));
}

/* The inverse of planes_put(). */
static void planes_get(uint64_t *w, const uint8_t *src, size_t cnt)
{
	size_t i = 0;

	for (; i + 8 <= cnt; i += 8) {
		uint64_t a[8];

		for (int b = 0; b < 8; b++)
			a[b] = load64(src + b * cnt + i);
		transpose8(a);
		memcpy(w + i, a, sizeof(a));
	}
	for (; i < cnt; i++) {
		w[i] = 0;
		for (int b = 0; b < 8; b++)
			w[i] |= (uint64_t)src[b * cnt + i] << (8 * b);
	}
}

/*
 * First pass: the tags, and how many values each column gets. A full
 * syscall record puts one value in each of slot 1's twelve columns, at its
 * bucket: counted once in nfull and added to every column afterwards.
 */
static size_t encode_count(struct layout *l, const uint8_t *raw, size_t raw_len, uint8_t *out)
{
	uint8_t *p = out;
	size_t nfull = 0;

	for (size_t off = 0; off < raw_len;) {
		unsigned int type, size, slot, k, b;

		type = load16(raw + off + 16);
		size = load16(raw + off + 18);
		slot = rec_slot(type);
		k = rec_words(slot, size);
		b = rec_bucket(raw + off, slot, k);
		if (slot == SC_SLOT && k == SC_WORDS) {
			l->nfull[b]++;
			nfull++;
		} else {
			l->nshort += slot == SC_SLOT;
			for (unsigned int j = 0; j < k; j++) {
				l->cnt[slot][j]++;
				if (slot == SC_SLOT)
					l->bpos[j][b]++;
			}
		}
		p = varint_put(p, type);
		p = varint_put(p, size / 8);
		if (slot == SC_SLOT && size / 8 >= SC_WORDS)
			p = varint_put(p, b);
		off += size;
	}
	for (unsigned int j = 0; j < SC_WORDS; j++) {
		l->cnt[SC_SLOT][j] += nfull;
		for (unsigned int b = 0; b < NBUCKETS; b++)
			l->bpos[j][b] += l->nfull[b];
	}
	return (size_t)(p - out);
}

/* One word of a record as the generic path encodes it. */
static void encode_word(struct layout *l, struct predict *pr, const uint8_t *rec,
			unsigned int slot, unsigned int b, unsigned int j, uint64_t *scratch)
{
	uint64_t v = load64(rec + 8 * j), e, *ctx;

	if (j == 0) {
		e = zigzag(v - pr->end);
	} else {
		ctx = word_ctx(pr, 1, slot, b, j);
		e = ctx ? v ^ *ctx : v;
		if (ctx)
			*ctx = v;
	}
	scratch[word_at(l, 1, slot, b, j)] = e;
}

/*
 * A full syscall record (nearly every record), as encode_word() would
 * write its twelve words, when the chunk has no shorter slot 1 record:
 * then every column of slot 1 holds the same records in the same order,
 * so one position (next[b], the bucket's) serves all twelve, and the
 * columns are nsc values apart in scratch (layout_place()).
 */
static void encode_syscall(struct predict *pr, const uint8_t *rec, uint64_t *col0, size_t nsc,
			   uint32_t *next, unsigned int b)
{
	uint64_t w[SC_WORDS], *bc = pr->bucket[b], *dst = col0 + next[b]++;

	memcpy(w, rec, sizeof(w));
	dst[0] = zigzag(w[0] - pr->end);
	dst[nsc] = w[1] ^ pr->prev[SC_SLOT][1];
	dst[2 * nsc] = w[2] ^ pr->prev[SC_SLOT][2];
	pr->prev[SC_SLOT][1] = w[1];
	pr->prev[SC_SLOT][2] = w[2];
	for (unsigned int j = 3; j < SC_WORDS; j++) {
		dst[j * nsc] = j == SC_DUR ? w[j] : w[j] ^ bc[j];
		bc[j] = w[j];
	}
	pr->end = w[0] + w[SC_DUR];
}

size_t xform_encode(const uint8_t *raw, size_t raw_len, uint8_t *out, uint64_t *scratch,
		    struct xform_state *st)
{
	struct layout *l = &st->l;
	struct predict *pr = &st->p;
	uint64_t *col0;
	size_t off, tail, nsc;
	int fast;

	memset(l, 0, sizeof(*l));
	memset(pr, 0, sizeof(*pr));
	tail = layout_place(l, encode_count(l, raw, raw_len, out));
	bucket_place(l);
	/* The fast path's cursors: column 0's bucket starts, reused. */
	fast = !l->nshort;
	col0 = scratch + l->woff[SC_SLOT][0];
	nsc = l->cnt[SC_SLOT][0];
	for (off = 0; off < raw_len;) {
		const uint8_t *rec = raw + off;
		unsigned int size = load16(rec + 18);
		unsigned int slot = rec_slot(load16(rec + 16));
		unsigned int k = rec_words(slot, size);
		unsigned int b = rec_bucket(rec, slot, k);

		if (fast && slot == SC_SLOT) {
			encode_syscall(pr, rec, col0, nsc, l->bpos[0], b);
		} else {
			for (unsigned int j = 0; j < k; j++)
				encode_word(l, pr, rec, slot, b, j, scratch);
			pr->end = rec_end(rec, 1, slot, k);
		}
		memcpy(out + tail, rec + 8 * k, size - 8 * k);
		tail += size - 8 * k;
		off += size;
	}
	for (int s = 0; s < NSLOTS; s++)
		for (int j = 0; j < MAXWORDS; j++)
			planes_put(out + l->off[s][j], scratch + l->woff[s][j], l->cnt[s][j]);
	return tail;
}

/* Reads one record's tag: type, size in words, transform 2's bucket. */
static const uint8_t *tag_get(const uint8_t *p, const uint8_t *end, int v2, unsigned int *type,
			      unsigned int *words, unsigned int *bucket)
{
	p = varint_get(p, end, type);
	if (p)
		p = varint_get(p, end, words);
	*bucket = 0;
	if (p && v2 && rec_slot(*type) == SC_SLOT && *words >= SC_WORDS)
		p = varint_get(p, end, bucket);
	return p;
}

/* Reads the tags and checks that they describe exactly raw_len bytes and
 * that columns and tail fill exactly enc_len bytes. */
static int decode_layout(struct layout *l, int v2, const uint8_t *enc, size_t enc_len,
			 size_t nrec, size_t raw_len, size_t *tags_end, const char **why)
{
	const uint8_t *p = enc, *end = enc + enc_len;
	size_t total = 0, tail_len = 0;

	for (size_t i = 0; i < nrec; i++) {
		unsigned int type, words, slot, k, b;

		p = tag_get(p, end, v2, &type, &words, &b);
		if (!p || type > 0xffff || words > 0xffff / 8 || b >= NBUCKETS) {
			*why = "transform: malformed record tag";
			return -EBADMSG;
		}
		if (words < 3) {
			*why = "transform: record shorter than its header";
			return -EBADMSG;
		}
		slot = rec_slot(type);
		k = rec_words(slot, words * 8);
		for (unsigned int j = 0; j < k; j++) {
			l->cnt[slot][j]++;
			if (slot == SC_SLOT)
				l->bpos[j][b]++;
		}
		tail_len += 8 * (words - k);
		total += 8 * (size_t)words;
	}
	if (total != raw_len) {
		*why = "transform: record sizes do not add up to the chunk's raw length";
		return -EBADMSG;
	}
	*tags_end = (size_t)(p - enc);
	if (layout_place(l, *tags_end) + tail_len != enc_len) {
		*why = "transform: encoded length does not match the record tags";
		return -EBADMSG;
	}
	bucket_place(l);
	return 0;
}

/* Rebuilds the records from the tags and the decoded columns. */
static int decode_records(struct xform_state *st, int v2, const uint8_t *enc, size_t tags_end,
			  size_t nrec, uint8_t *raw, const uint64_t *scratch, const char **why)
{
	struct layout *l = &st->l;
	struct predict *pr = &st->p;
	size_t tail = l->tail_off, off = 0;
	const uint8_t *p = enc;

	for (size_t i = 0; i < nrec; i++) {
		unsigned int type = 0, words = 0, slot, k, b = 0;

		/* Already validated by decode_layout(). */
		p = tag_get(p, enc + tags_end, v2, &type, &words, &b);
		slot = rec_slot(type);
		k = rec_words(slot, words * 8);
		for (unsigned int j = 0; j < k; j++) {
			uint64_t e = scratch[word_at(l, v2, slot, b, j)], *ctx;

			if (j == 0) {
				e = pr->end + unzigzag(e);
			} else {
				ctx = word_ctx(pr, v2, slot, b, j);
				if (ctx)
					e = *ctx ^= e;
			}
			store64(raw + off + 8 * j, e);
		}
		pr->end = rec_end(raw + off, v2, slot, k);
		/* hdr.type and hdr.size came through the columns (k >= 3): they
		 * must agree with the tag, or the records would be misparsed. */
		if (load16(raw + off + 16) != type || load16(raw + off + 18) != words * 8) {
			*why = "transform: a record's type or size disagrees with its tag";
			return -EBADMSG;
		}
		memcpy(raw + off + 8 * k, enc + tail, 8 * (words - k));
		tail += 8 * (words - k);
		off += 8 * (size_t)words;
	}
	return 0;
}

int xform_decode(int id, const uint8_t *enc, size_t enc_len, size_t nrec, uint8_t *raw,
		 size_t raw_len, uint64_t *scratch, struct xform_state *st, const char **why)
{
	int v2 = id == SONDE_XFORM_COLUMNS2, err;
	struct layout *l = &st->l;
	size_t tags_end;

	memset(l, 0, sizeof(*l));
	memset(&st->p, 0, sizeof(st->p));
	err = decode_layout(l, v2, enc, enc_len, nrec, raw_len, &tags_end, why);
	if (err)
		return err;
	for (int s = 0; s < NSLOTS; s++)
		for (int j = 0; j < MAXWORDS; j++)
			planes_get(scratch + l->woff[s][j], enc + l->off[s][j], l->cnt[s][j]);
	return decode_records(st, v2, enc, tags_end, nrec, raw, scratch, why);
}

struct xform_state *xform_state_new(void)
{
	return calloc(1, sizeof(struct xform_state));
}

void xform_state_free(struct xform_state *st)
{
	free(st);
}
