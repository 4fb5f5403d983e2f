// SPDX-License-Identifier: GPL-2.0
/*
 * Trace reader: opening, the chunk table (from the footer index, or by
 * scanning chunk headers when the footer is missing or damaged), errors
 * and statistics. The merge itself is in merge.c.
 *
 * Every length, offset and count read from the file is checked against the
 * file size and the limits of layout.h before it is used.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/reader.h"
#include "format/xform.h"

void reader_error(struct sonde_reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
	r->has_err = 1;
}

int src_read(struct sonde_reader *r, uint64_t off, void *buf, size_t len)
{
	uint8_t *p = buf;

	if (off > r->size || len > r->size - off)
		return -EIO;
	if (r->mem) {
		memcpy(buf, r->mem + off, len);
		return 0;
	}
	while (len) {
		ssize_t n = pread(r->fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

const uint8_t *src_peek(struct sonde_reader *r, uint64_t off, size_t len)
{
	size_t n;

	if (off > r->size || len > r->size - off)
		return NULL;
	if (r->mem)
		return r->mem + off;
	if (off >= r->win_off && off + len <= r->win_off + r->win_len)
		return r->win + (off - r->win_off);
	n = r->size - off < SONDE_READER_WINDOW ? (size_t)(r->size - off) : SONDE_READER_WINDOW;
	if (src_read(r, off, r->win, n)) {
		r->win_len = 0;
		return NULL;
	}
	r->win_off = off;
	r->win_len = n;
	return r->win;
}

int chunk_hdr_check(const struct sonde_chunk_hdr *h, uint64_t off, uint64_t end, const char **why)
{
	if (h->magic != SONDE_CHUNK_MAGIC)
		return *why = "bad chunk magic", -EBADMSG;
	if (!sonde_crc_ok(h->hdr_crc, h, offsetof(struct sonde_chunk_hdr, hdr_crc)))
		return *why = "chunk header checksum mismatch", -EBADMSG;
	if (h->hdr_len < sizeof(*h) || h->hdr_len % 8 || h->hdr_len > SONDE_CHUNK_HDR_MAX)
		return *why = "invalid chunk header length", -EBADMSG;
	if (h->raw_len > SONDE_CHUNK_RAW_MAX || h->raw_len % 8 ||
	    (uint64_t)h->nrecords * SONDE_REC_MIN > h->raw_len)
		return *why = "invalid raw length or record count", -EBADMSG;
	if (h->enc_len > xform_bound(h->raw_len, h->nrecords))
		return *why = "invalid encoded length", -EBADMSG;
	if (h->comp_len > ZSTD_compressBound(h->enc_len))
		return *why = "invalid compressed length", -EBADMSG;
	if (h->min_ts > h->max_ts && h->nrecords)
		return *why = "time range is inverted", -EBADMSG;
	if (off > end || h->hdr_len + (uint64_t)h->comp_len > end - off)
		return *why = "chunk runs past the end of the file", -ENODATA;
	return 0;
}

static int pending_add(struct sonde_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int pending_add(struct sonde_reader *r, const char *fmt, ...)
{
	char **p, buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	p = realloc(r->pending, (r->npending + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	r->pending = p;
	p[r->npending] = strdup(buf);
	if (!p[r->npending])
		return -ENOMEM;
	r->npending++;
	r->st.bad_chunks++;
	return 0;
}

static int chunks_add(struct sonde_reader *r, size_t *cap, const struct rchunk *c)
{
	if (r->nchunks == *cap) {
		size_t ncap = *cap ? 2 * *cap : 64;
		struct rchunk *p = realloc(r->chunks, ncap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		r->chunks = p;
		*cap = ncap;
	}
	r->chunks[r->nchunks++] = *c;
	return 0;
}

/* Next 8-aligned offset after off where a valid chunk header (or the index)
 * starts, or end. Reads through the window, so garbage costs one pass. */
static uint64_t scan_resync(struct sonde_reader *r, uint64_t off, uint64_t end)
{
	for (off += 8; off + sizeof(struct sonde_chunk_hdr) <= end; off += 8) {
		const uint8_t *p = src_peek(r, off, sizeof(struct sonde_chunk_hdr));
		struct sonde_chunk_hdr h;
		const char *why;
		uint32_t magic;

		if (!p)
			break;
		memcpy(&magic, p, 4);
		if (magic == SONDE_INDEX_MAGIC)
			return off;
		if (magic != SONDE_CHUNK_MAGIC)
			continue;
		memcpy(&h, p, sizeof(h));
		if (chunk_hdr_check(&h, off, end, &why) != -EBADMSG)
			return off;
	}
	return end;
}

/* Builds the chunk table by walking chunk headers from the start. */
static int scan_chunks(struct sonde_reader *r, uint64_t end)
{
	uint64_t off = r->data_start;
	size_t cap = 0;
	int err;

	while (end - off >= sizeof(struct sonde_chunk_hdr)) {
		const uint8_t *p = src_peek(r, off, sizeof(struct sonde_chunk_hdr));
		struct sonde_chunk_hdr h;
		const char *why = "read error";
		uint64_t next;
		uint32_t magic;

		if (!p)
			return pending_add(r, "cannot read the file at offset %llu",
					   (unsigned long long)off);
		memcpy(&h, p, sizeof(h));
		memcpy(&magic, p, 4);
		if (magic == SONDE_INDEX_MAGIC)
			return 0; /* the index of a file whose trailer is damaged */
		err = chunk_hdr_check(&h, off, end, &why);
		if (err == -ENODATA) {
			reader_error(r,
				     "trace truncated: the chunk at offset %llu (stream %u, "
				     "seq %llu) is incomplete, %llu bytes missing",
				     (unsigned long long)off, h.stream, (unsigned long long)h.seq,
				     (unsigned long long)(h.hdr_len + (uint64_t)h.comp_len -
							  (end - off)));
			r->truncated = 1;
			return 0;
		}
		if (err) {
			next = scan_resync(r, off, end);
			err = pending_add(r,
					  "bytes %llu..%llu of the file are not a valid "
					  "chunk (%s); skipped",
					  (unsigned long long)off, (unsigned long long)next, why);
			if (err)
				return err;
			off = next;
			continue;
		}
		if (chunks_add(r, &cap,
			       &(struct rchunk){ .offset = off,
						 .seq = h.seq,
						 .min_ts = h.min_ts,
						 .max_ts = h.max_ts,
						 .stream = h.stream,
						 .nrecords = h.nrecords,
						 .comp_len = h.comp_len,
						 .kind = h.kind }))
			return -ENOMEM;
		off = sonde_align8(off + h.hdr_len + h.comp_len);
		if (off > end)
			off = end;
	}
	if (off < end) {
		reader_error(r,
			     "trace truncated: %llu stray bytes at the end (an "
			     "incomplete chunk header)",
			     (unsigned long long)(end - off));
		r->truncated = 1;
	}
	return 0;
}

/* Checks one index entry against the file and the previous entry. */
static int index_entry_ok(const struct sonde_index_entry *e, uint64_t prev_end, uint64_t index_off)
{
	if (e->offset % 8 || e->offset < prev_end || e->offset > index_off)
		return 0;
	if (sizeof(struct sonde_chunk_hdr) + (uint64_t)e->comp_len > index_off - e->offset)
		return 0;
	if ((uint64_t)e->nrecords * SONDE_REC_MIN > SONDE_CHUNK_RAW_MAX)
		return 0;
	return e->min_ts <= e->max_ts || !e->nrecords;
}

/* Loads the chunk table from the index; 1 if there is no usable footer. */
static int footer_load(struct sonde_reader *r)
{
	struct sonde_trailer t;
	struct sonde_index_hdr ih;
	uint8_t *buf;
	uint64_t n, prev_end = r->data_start;
	size_t cap = 0;

	if (r->size - r->data_start < sizeof(t) + sizeof(ih) ||
	    src_read(r, r->size - sizeof(t), &t, sizeof(t)))
		return 1;
	if (memcmp(t.magic, SONDE_TRAILER_MAGIC, 8))
		return 1;
	if (!sonde_crc_ok(t.crc, &t, offsetof(struct sonde_trailer, crc))) {
		reader_error(r, "trace footer damaged (trailer checksum); chunks found by "
				"scanning");
		return 1;
	}
	if (t.index_off < r->data_start || t.index_off > r->size || t.index_off % 8 ||
	    t.index_len < sizeof(ih) || t.index_len > r->size ||
	    t.index_off + t.index_len != r->size - sizeof(t)) {
		reader_error(r, "trace footer damaged (index bounds); chunks found by scanning");
		return 1;
	}
	buf = malloc(t.index_len);
	if (!buf || src_read(r, t.index_off, buf, t.index_len) ||
	    !sonde_crc_ok(t.index_crc, buf, t.index_len))
		goto bad;
	memcpy(&ih, buf, sizeof(ih));
	if (ih.magic != SONDE_INDEX_MAGIC || ih.entry_size < sizeof(struct sonde_index_entry) ||
	    ih.entry_size > SONDE_CHUNK_HDR_MAX)
		goto bad;
	n = (t.index_len - sizeof(ih)) / ih.entry_size;
	if (n != ih.nentries || sizeof(ih) + n * ih.entry_size != t.index_len)
		goto bad;
	for (uint64_t i = 0; i < n; i++) {
		struct sonde_index_entry e;
		struct rchunk c;

		memcpy(&e, buf + sizeof(ih) + i * ih.entry_size, sizeof(e));
		if (!index_entry_ok(&e, prev_end, t.index_off))
			goto bad;
		prev_end = sonde_align8(e.offset + sizeof(struct sonde_chunk_hdr) + e.comp_len);
		c = (struct rchunk){ .offset = e.offset,
				     .seq = e.seq,
				     .min_ts = e.min_ts,
				     .max_ts = e.max_ts,
				     .stream = e.stream,
				     .nrecords = e.nrecords,
				     .comp_len = e.comp_len,
				     .kind = e.kind,
				     .from_idx = 1 };
		if (chunks_add(r, &cap, &c))
			goto bad;
	}
	free(buf);
	r->data_end = t.index_off;
	return 0;
bad:
	free(buf);
	free(r->chunks);
	r->chunks = NULL;
	r->nchunks = 0;
	reader_error(r, "trace footer damaged (index); chunks found by scanning");
	return 1;
}

static int rchunk_cmp(const void *a, const void *b)
{
	const struct rchunk *x = a, *y = b;

	if (x->min_ts != y->min_ts)
		return x->min_ts < y->min_ts ? -1 : 1;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static int reader_build_index(struct sonde_reader *r)
{
	int err = 0;

	if (footer_load(r)) {
		/* No footer, or a damaged one (footer_load said which). */
		r->truncated = 1;
		r->data_end = r->size;
		err = scan_chunks(r, r->size);
		if (!err && !r->has_err)
			reader_error(r,
				     "trace truncated: no footer (the recorder was killed "
				     "or the disk filled up); all %zu complete chunks are "
				     "readable",
				     r->nchunks);
	}
	if (err)
		return err;
	if (r->nchunks)
		qsort(r->chunks, r->nchunks, sizeof(*r->chunks), rchunk_cmp);
	r->st.first_ts = UINT64_MAX;
	for (size_t i = 0; i < r->nchunks; i++) {
		const struct rchunk *c = &r->chunks[i];

		if (c->kind != SONDE_CHUNK_EVENTS || !c->nrecords)
			continue;
		r->st.chunks++;
		if (c->min_ts < r->st.first_ts)
			r->st.first_ts = c->min_ts;
		if (c->max_ts > r->st.last_ts)
			r->st.last_ts = c->max_ts;
	}
	if (r->st.first_ts == UINT64_MAX)
		r->st.first_ts = 0;
	return 0;
}

static int reader_header(struct sonde_reader *r, char *err, size_t errlen)
{
	uint8_t fixed[sizeof(struct sonde_file_hdr)], *buf;
	long hdr_len;

	if (r->size < sizeof(fixed) || src_read(r, 0, fixed, sizeof(fixed))) {
		if (r->size >= 8 && src_read(r, 0, fixed, 8) == 0 &&
		    !memcmp(fixed, SONDE_FILE_MAGIC, 8)) {
			snprintf(err, errlen, "trace truncated inside its header");
			return -EBADMSG;
		}
		snprintf(err, errlen, "not a sonde trace (%s)",
			 r->size ? "too short" : "empty file");
		return -EINVAL;
	}
	hdr_len = meta_check_fixed(fixed, r->size, err, errlen);
	if (hdr_len < 0)
		return (int)hdr_len;
	buf = malloc((size_t)hdr_len);
	if (!buf) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (src_read(r, 0, buf, (size_t)hdr_len)) {
		free(buf);
		snprintf(err, errlen, "cannot read the trace header");
		return -EIO;
	}
	r->data_start = (uint64_t)hdr_len;
	return meta_decode(&r->meta, buf, (size_t)hdr_len, err, errlen);
}

static int reader_init(struct sonde_reader *r, char *err, size_t errlen)
{
	int e;

	r->dctx = ZSTD_createDCtx();
	if (!r->mem)
		r->win = malloc(SONDE_READER_WINDOW);
	if (!r->dctx || (!r->mem && !r->win)) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
	ZSTD_DCtx_setParameter(r->dctx, ZSTD_d_forceIgnoreChecksum, ZSTD_d_ignoreChecksum);
#endif
	r->st.file_bytes = r->size;
	e = reader_header(r, err, errlen);
	if (e)
		return e;
	e = reader_build_index(r);
	if (e)
		snprintf(err, errlen, "out of memory while indexing the trace");
	return e;
}

static int reader_finish_open(struct sonde_reader *r, struct sonde_reader **rp, char *err,
			      size_t errlen)
{
	int e = reader_init(r, err, errlen);

	if (e) {
		sonde_reader_close(r);
		return e;
	}
	*rp = r;
	return 0;
}

int sonde_reader_open(struct sonde_reader **rp, const char *path, char *err, size_t errlen)
{
	struct sonde_reader *r;
	struct stat st;
	int fd, e;

	*rp = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		e = -errno;
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return e;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s is not a regular file", path);
		close(fd);
		return -EINVAL;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		close(fd);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	r->fd = fd;
	r->size = (uint64_t)st.st_size;
	return reader_finish_open(r, rp, err, errlen);
}

int sonde_reader_open_mem(struct sonde_reader **rp, const void *data, size_t len, char *err,
			  size_t errlen)
{
	struct sonde_reader *r = calloc(1, sizeof(*r));

	*rp = NULL;
	if (!r) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	r->fd = -1;
	r->mem = data ? data : (const uint8_t *)"";
	r->size = data ? len : 0;
	return reader_finish_open(r, rp, err, errlen);
}

void sonde_reader_close(struct sonde_reader *r)
{
	if (!r)
		return;
	merge_reset(r);
	rblobs_free(r);
	free(r->heap);
	for (size_t i = 0; i < r->npending; i++)
		free(r->pending[i]);
	free(r->pending);
	free(r->chunks);
	free(r->comp);
	free(r->enc);
	free(r->scratch);
	xform_state_free(r->xf);
	free(r->win);
	ZSTD_freeDCtx(r->dctx);
	meta_free(&r->meta);
	if (r->fd >= 0)
		close(r->fd);
	free(r);
}

const struct sonde_meta *sonde_reader_meta(const struct sonde_reader *r)
{
	return &r->meta.meta;
}

int sonde_reader_truncated(const struct sonde_reader *r)
{
	return r->truncated;
}

const char *sonde_reader_error(const struct sonde_reader *r)
{
	return r->has_err ? r->err : NULL;
}

void sonde_reader_stats(const struct sonde_reader *r, struct sonde_reader_stats *st)
{
	*st = r->st;
}
