// SPDX-License-Identifier: GPL-2.0
/*
 * The writer's compressors: one per compression thread (and one for
 * inline use), each with a zstd context for events (after the columns
 * transform) and one for the payload store, and a growable output that
 * collects the chunks of one job.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <sonde/format.h>
#include "format/wcomp.h"
#include "format/xform.h"

int comp_init(struct compressor *c, size_t chunk_bytes, int level, int payload_level)
{
	size_t nrec = chunk_bytes / SONDE_REC_MIN;

	c->chunk_bytes = chunk_bytes;
	c->enc_cap = xform_bound(chunk_bytes, nrec);
	c->out_cap = sizeof(struct sonde_chunk_hdr) + ZSTD_compressBound(c->enc_cap) + 8;
	c->scratch = malloc(chunk_bytes);
	c->xf = xform_state_new();
	c->enc = malloc(c->enc_cap);
	c->out = malloc(c->out_cap);
	c->cctx = ZSTD_createCCtx();
	c->bcctx = ZSTD_createCCtx();
	if (!c->scratch || !c->xf || !c->enc || !c->out || !c->cctx || !c->bcctx)
		return -ENOMEM;
	ZSTD_CCtx_setParameter(c->cctx, ZSTD_c_compressionLevel, level);
	ZSTD_CCtx_setParameter(c->bcctx, ZSTD_c_compressionLevel, payload_level);
	/* zstd's own content checksum catches a bad decompression too. */
	ZSTD_CCtx_setParameter(c->cctx, ZSTD_c_checksumFlag, 1);
	ZSTD_CCtx_setParameter(c->bcctx, ZSTD_c_checksumFlag, 1);
	return 0;
}

void mem_prefault(void *p, size_t len)
{
	uintptr_t a = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
	uintptr_t e = ((uintptr_t)p + len) & ~(uintptr_t)4095;

	if (e > a)
		madvise((void *)a, e - a, MADV_POPULATE_WRITE);
}

/*
 * A worker's transform buffers (scratch and output: 18 MiB with 8 MiB
 * chunks) are first touched by the first full chunk, in the middle of the
 * recording or in the flush after it: `perf record` of `sonde record -s 0`
 * of the tar benchmark put 11 % of all samples (tar's and cat's included)
 * in the page faults of xform_encode. Faulted in here, from
 * sonde_writer_open, they cost before the command starts. Compressing the
 * zeroed scratch once makes zstd size and clear its workspace for a full
 * chunk as well. The zstd output buffer is left to fault in as used: a
 * chunk of records compresses to a small part of its worst case.
 */
void comp_prefault(struct compressor *c)
{
	mem_prefault(c->scratch, c->chunk_bytes);
	mem_prefault(c->enc, c->enc_cap);
	ZSTD_compress2(c->cctx, c->out, c->out_cap, c->scratch, c->chunk_bytes);
}

void comp_free(struct compressor *c)
{
	free(c->scratch);
	xform_state_free(c->xf);
	free(c->enc);
	free(c->out);
	free(c->ch);
	blob_job_free(&c->bj);
	ZSTD_freeCCtx(c->cctx);
	ZSTD_freeCCtx(c->bcctx);
}

/* Room for n more bytes and one more chunk in the output. */
int comp_reserve(struct compressor *c, size_t n)
{
	if (c->out_len + n > c->out_cap) {
		size_t cap = 2 * c->out_cap > c->out_len + n ? 2 * c->out_cap : c->out_len + n;
		uint8_t *p = realloc(c->out, cap);

		if (!p)
			return -ENOMEM;
		c->out = p;
		c->out_cap = cap;
	}
	if (c->nch == c->ch_cap) {
		size_t cap = c->ch_cap ? 2 * c->ch_cap : 8;
		struct out_chunk *p = realloc(c->ch, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		c->ch = p;
		c->ch_cap = cap;
	}
	return 0;
}

/* Seals the header of the chunk just compressed at the output's end. */
void comp_seal(struct compressor *c, struct sonde_chunk_hdr *h, size_t n)
{
	uint8_t *at = c->out + c->out_len;
	size_t total = sonde_align8(sizeof(*h) + n);

	h->comp_len = (uint32_t)n;
	h->data_crc = sonde_crc32(at + sizeof(*h), n);
	h->hdr_crc = sonde_crc32(h, offsetof(struct sonde_chunk_hdr, hdr_crc));
	memcpy(at, h, sizeof(*h));
	memset(at + sizeof(*h) + n, 0, total - sizeof(*h) - n);
	c->ch[c->nch++] = (struct out_chunk){ .off = c->out_len, .total = total, .h = *h };
	c->out_len += total;
}

/* Compresses raw bytes without a transform (blobs, blob index) as one
 * chunk of the blob stream; its seq is set when written. */
int comp_plain(struct compressor *c, uint16_t kind, uint32_t nrecords, uint64_t min_ts,
	       uint64_t max_ts, const uint8_t *raw, size_t len)
{
	struct sonde_chunk_hdr h = {
		.magic = SONDE_CHUNK_MAGIC,
		.hdr_len = sizeof(h),
		.kind = kind,
		.codec = SONDE_CODEC_ZSTD,
		.transform = SONDE_XFORM_NONE,
		.stream = SONDE_STREAM_BLOBS,
		.min_ts = min_ts,
		.max_ts = max_ts,
		.nrecords = nrecords,
		.raw_len = (uint32_t)len,
		.enc_len = (uint32_t)len,
	};
	size_t room = ZSTD_compressBound(len), n;

	if (comp_reserve(c, sizeof(h) + room + 8))
		return -ENOMEM;
	n = ZSTD_compress2(c->bcctx, c->out + c->out_len + sizeof(h), room, raw, len);
	if (ZSTD_isError(n))
		return -EIO; /* only a bug: the output has compressBound room */
	comp_seal(c, &h, n);
	return 0;
}
