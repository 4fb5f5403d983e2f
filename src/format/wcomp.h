/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A compressing thread's scratch space and output (wcomp.c): the writer
 * (writer.c) fills the output with the chunks of one job, new PAYLOAD
 * chunks first, and writes it with one pwrite.
 */
#ifndef SONDE_FORMAT_WCOMP_H
#define SONDE_FORMAT_WCOMP_H

#include <stddef.h>
#include <stdint.h>
#include <zstd.h>

#include "format/blobs.h"
#include "format/layout.h"
#include "format/xform.h"

/* A chunk placed in a compressor's output, header not yet final (the
 * sequence number of blob-stream chunks is assigned at write time). */
struct out_chunk {
	size_t off, total; /* in the output; total includes padding */
	struct sonde_chunk_hdr h;
};

/* Per compressing thread scratch space. The output of one job is
 * written with one pwrite: its new PAYLOAD chunks, then its EVENTS chunk. */
struct compressor {
	ZSTD_CCtx *cctx, *bcctx; /* events, blobs */
	uint64_t *scratch;	 /* chunk_bytes, for the transform */
	size_t chunk_bytes;
	struct xform_state *xf;	 /* the transform's tables */
	uint8_t *enc, *out;
	size_t enc_cap, out_cap, out_len;
	struct out_chunk *ch;
	size_t nch, ch_cap;
	struct blob_job bj;
};

int comp_init(struct compressor *c, size_t chunk_bytes, int level, int payload_level);
/* Faults in the compressor's buffers and zstd's workspace now, before
 * the traced command starts, rather than as the first chunks go through
 * (comp_prefault in wcomp.c says why). */
void comp_prefault(struct compressor *c);
/* MADV_POPULATE_WRITE of the whole pages in [p, p + len). Best effort:
 * without it (Linux < 5.14) the pages fault in when first written. */
void mem_prefault(void *p, size_t len);
void comp_free(struct compressor *c);
/* Room for n more bytes and one more chunk in the output; 0 or -ENOMEM. */
int comp_reserve(struct compressor *c, size_t n);
/* Seals the header of the chunk just compressed (n bytes) at the output's
 * end: checksums, padding, the chunk's place in the output. */
void comp_seal(struct compressor *c, struct sonde_chunk_hdr *h, size_t n);
/* Compresses raw bytes without a transform (blobs, blob index) as one
 * chunk of the blob stream; its seq is set when written. */
int comp_plain(struct compressor *c, uint16_t kind, uint32_t nrecords, uint64_t min_ts,
	       uint64_t max_ts, const uint8_t *raw, size_t len);

#endif
