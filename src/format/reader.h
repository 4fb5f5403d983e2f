/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reader internals shared by reader.c (opening, footer index, scanning)
 * and merge.c (loading chunks, merging streams).
 */
#ifndef SONDE_FORMAT_READER_H
#define SONDE_FORMAT_READER_H

#include <stdint.h>
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_d_forceIgnoreChecksum */
#endif
#include <zstd.h>

#include <sonde/format.h>
#include "format/layout.h"
#include "format/meta.h"
#include "format/xform.h"

/* Bytes of loaded chunks beyond which the merge stops waiting for older
 * records and reports that order is no longer guaranteed. */
#define SONDE_READER_HOLD_MAX (512ull << 20)
/* Read window used when scanning for chunk headers. */
#define SONDE_READER_WINDOW (1u << 20)

/* One chunk of the file, from the footer index or from scanning. */
struct rchunk {
	uint64_t offset;
	uint64_t seq, min_ts, max_ts;
	uint32_t stream, nrecords, comp_len;
	uint16_t kind;
	uint8_t bad;	  /* found corrupt: skipped */
	uint8_t from_idx; /* must match its header (index entry) */
};

/* A record of a loaded chunk: sorted by (ts, idx) before merging. */
struct recref {
	uint64_t ts;
	uint32_t off, idx;
};

struct loaded {
	const struct rchunk *c;
	uint8_t *raw;
	struct recref *recs;
	uint32_t n, pos;
	size_t bytes;
};

struct sonde_reader {
	/* Source: a file (fd) or memory (mem). */
	int fd;
	const uint8_t *mem;
	uint64_t size;
	uint8_t *win; /* read window over the file */
	uint64_t win_off;
	size_t win_len;

	struct meta_store meta;
	uint64_t data_start, data_end; /* where chunks may lie */
	int truncated;

	struct rchunk *chunks; /* sorted by (min_ts, stream, seq) */
	size_t nchunks, next;

	char **pending; /* problems found at open, returned by next() */
	size_t npending, pending_pos;

	struct loaded **heap;
	size_t nheap, heap_cap;
	struct loaded *retired; /* exhausted; freed on the next call */
	uint64_t held;
	uint64_t seek_ts;
	int relaxed;

	ZSTD_DCtx *dctx;
	uint8_t *comp, *enc, *scratch;
	struct xform_state *xf; /* the chunk transform's tables */
	size_t comp_cap, enc_cap, scratch_cap;

	char err[512];
	int has_err;
	struct sonde_reader_stats st;

	/* Payload store (rblobs.c): built on first use. */
	struct rblobs *blobs;
	uint8_t *infl;			/* the last PLREF record, inflated */
	const struct sonde_hdr *pl_held; /* returned after its error was */
	struct sonde_reader_payload_stats pst;
};

/* Reads len bytes at off; 0 or -EIO (short file, read error). */
int src_read(struct sonde_reader *r, uint64_t off, void *buf, size_t len);
/* A pointer to len (<= 4096) bytes at off, valid until the next call. */
const uint8_t *src_peek(struct sonde_reader *r, uint64_t off, size_t len);

/* Validates a chunk header read at off (checksum, lengths within [off,
 * end)); 0, or -EBADMSG with *why, or -ENODATA when the header is sound
 * but its payload runs past end (a truncated chunk). */
int chunk_hdr_check(const struct sonde_chunk_hdr *h, uint64_t off, uint64_t end, const char **why);

/* Reads and checks the header of c against what the table says; NULL or
 * why it is unusable. */
const char *chunk_read_hdr(struct sonde_reader *r, const struct rchunk *c,
			   struct sonde_chunk_hdr *h);
/* Checks, decompresses and decodes c's payload into raw (raw_len bytes). */
const char *chunk_decode(struct sonde_reader *r, const struct rchunk *c,
			 const struct sonde_chunk_hdr *h, uint8_t *raw);

/* rblobs.c: a PLREF record becomes the PAYLOAD record it stands for, in
 * r->infl. Returns 0, or -EBADMSG when a blob is missing or damaged: the
 * record is then flagged SONDE_PLR_MISSING, without data, and the error
 * names the blob. */
int rblobs_inflate(struct sonde_reader *r, const struct sonde_hdr *ref,
		   const struct sonde_hdr **out);
void rblobs_free(struct sonde_reader *r);

void reader_error(struct sonde_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void merge_reset(struct sonde_reader *r);

#endif
