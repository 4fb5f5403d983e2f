// SPDX-License-Identifier: GPL-2.0
/*
 * The writer's file side (writer.c has the rest): compressed chunks are
 * appended in submission order whichever worker produced them, each with
 * one pwrite at the end of the last complete chunk; the chunk index and
 * the blob index grow as they go and end up in the footer. A failed write
 * cuts the file back to its last complete chunk, so that readers see a
 * truncated trace rather than a damaged one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/writer_int.h"

int wfile_write_all(int fd, const uint8_t *p, size_t len, uint64_t off)
{
	while (len) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/* Best effort: if even this fails, readers still find the last complete
 * chunk by scanning and report the rest as a truncated chunk. */
static void file_cut(int fd, uint64_t off)
{
	if (ftruncate(fd, (off_t)off) < 0)
		return;
}

static int index_add(struct sonde_writer *w, const struct sonde_chunk_hdr *h, uint64_t off)
{
	if (w->nindex == w->index_cap) {
		size_t cap = w->index_cap ? 2 * w->index_cap : 256;
		struct sonde_index_entry *p = realloc(w->index, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		w->index = p;
		w->index_cap = cap;
	}
	w->index[w->nindex++] = (struct sonde_index_entry){
		.offset = off,
		.seq = h->seq,
		.min_ts = h->min_ts,
		.max_ts = h->max_ts,
		.stream = h->stream,
		.nrecords = h->nrecords,
		.kind = h->kind,
		.comp_len = h->comp_len,
	};
	return 0;
}

/* Places the blobs this output stores in the footer's blob index. */
static int bidx_add(struct sonde_writer *w, const struct compressor *c, uint64_t base)
{
	const struct blob_job *b = &c->bj;

	if (w->nbidx + b->nnew > w->bidx_cap) {
		size_t cap = w->bidx_cap ? w->bidx_cap : 1024;
		struct sonde_blobidx_entry *p;

		while (cap < w->nbidx + b->nnew)
			cap *= 2;
		p = realloc(w->bidx, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		w->bidx = p;
		w->bidx_cap = cap;
	}
	for (size_t i = 0; i < b->nnew; i++) {
		struct sonde_blobidx_entry *e = &w->bidx[w->nbidx++];

		memcpy(e->hash, b->nw[i].hash, sizeof(e->hash));
		/* Blob buffer i became the output's chunk i. */
		e->chunk_off = base + c->ch[b->nw[i].buf].off;
		e->off = b->nw[i].off;
		e->len = b->nw[i].len;
	}
	return 0;
}

/* Numbers the output's blob-stream chunks and indexes all its chunks. */
static int out_index(struct sonde_writer *w, struct compressor *c)
{
	for (size_t i = 0; i < c->nch; i++) {
		struct sonde_chunk_hdr *h = &c->ch[i].h;

		if (h->stream == SONDE_STREAM_BLOBS) {
			h->seq = w->blob_seq++;
			h->hdr_crc = sonde_crc32(h, offsetof(struct sonde_chunk_hdr, hdr_crc));
			memcpy(c->out + c->ch[i].off, h, sizeof(*h));
		}
		if (index_add(w, h, w->off + c->ch[i].off))
			return -ENOMEM;
	}
	return bidx_add(w, c, w->off);
}

static void out_stats(struct sonde_writer *w, const struct compressor *c,
		      const struct blob_stats *bs)
{
	for (size_t i = 0; i < c->nch; i++)
		if (c->ch[i].h.kind == SONDE_CHUNK_PAYLOAD)
			w->st.payload_file_bytes += c->ch[i].total;
	w->st.chunks += c->nch;
	if (!bs)
		return;
	w->st.payload_bytes += bs->captured;
	w->st.payload_stored += bs->stored + bs->inlined;
	w->st.payload_blobs += bs->blobs;
	w->st.payload_refs += bs->refs;
}

/* Appends a compressor's output (chunks, padded) at the file end when its
 * turn comes; err records a failure instead. */
int wfile_chunk_write(struct sonde_writer *w, uint64_t ticket, struct compressor *c, int err,
		       const struct blob_stats *bs)
{
	size_t nindex, nbidx;
	uint64_t blob_seq;

	pthread_mutex_lock(&w->io_lock);
	while (w->write_ticket != ticket)
		pthread_cond_wait(&w->io_turn, &w->io_lock);
	if (err && !w->err)
		__atomic_store_n(&w->err, err, __ATOMIC_RELEASE);
	if (w->err)
		goto out;
	nindex = w->nindex;
	nbidx = w->nbidx;
	blob_seq = w->blob_seq;
	err = out_index(w, c);
	if (!err)
		err = wfile_write_all(w->fd, c->out, c->out_len, w->off);
	if (err) {
		w->nindex = nindex;
		w->nbidx = nbidx;
		w->blob_seq = blob_seq;
		/* Cut a partial chunk so the file ends on a complete one. */
		file_cut(w->fd, w->off);
		__atomic_store_n(&w->err, err, __ATOMIC_RELEASE);
		goto out;
	}
	w->off += c->out_len;
	w->st.file_bytes = w->off;
	out_stats(w, c, bs);
out:
	err = w->err;
	w->write_ticket++;
	pthread_cond_broadcast(&w->io_turn);
	pthread_mutex_unlock(&w->io_lock);
	return err;
}

/* BLOBINDEX chunks: where every blob of the file is, so readers find a
 * blob without decompressing every PAYLOAD chunk. Written after the last
 * chunk that can reference a blob, just before the footer. */
int wfile_blob_index(struct sonde_writer *w)
{
	const size_t per = BLOB_CHUNK_BYTES / sizeof(*w->bidx);
	struct compressor *c = &w->inline_comp;

	for (size_t i = 0; i < w->nbidx; i += per) {
		size_t n = w->nbidx - i < per ? w->nbidx - i : per;
		int err;

		c->out_len = 0;
		c->nch = 0;
		c->bj.nnew = 0;
		err = comp_plain(c, SONDE_CHUNK_BLOBINDEX, (uint32_t)n, 0, 0,
				 (const uint8_t *)&w->bidx[i], n * sizeof(*w->bidx));
		wfile_chunk_write(w, w->next_ticket++, c, err, NULL);
		err = __atomic_load_n(&w->err, __ATOMIC_ACQUIRE);
		if (err)
			return err;
	}
	return 0;
}

/* Footer: the index of every chunk, then the trailer pointing at it. */
int wfile_footer(struct sonde_writer *w)
{
	struct sonde_index_hdr ih = { .magic = SONDE_INDEX_MAGIC,
				      .entry_size = sizeof(struct sonde_index_entry),
				      .nentries = w->nindex };
	size_t ilen = sizeof(ih) + w->nindex * sizeof(*w->index);
	struct sonde_trailer t = { .magic = SONDE_TRAILER_MAGIC,
				   .index_off = w->off,
				   .index_len = ilen };
	uint8_t *buf = malloc(ilen + sizeof(t));
	int err;

	if (!buf)
		return -ENOMEM;
	memcpy(buf, &ih, sizeof(ih));
	if (w->nindex)
		memcpy(buf + sizeof(ih), w->index, w->nindex * sizeof(*w->index));
	t.index_crc = sonde_crc32(buf, ilen);
	t.crc = sonde_crc32(&t, offsetof(struct sonde_trailer, crc));
	memcpy(buf + ilen, &t, sizeof(t));
	err = wfile_write_all(w->fd, buf, ilen + sizeof(t), w->off);
	free(buf);
	if (err) {
		/* A partial footer would look like garbage: leave none. */
		file_cut(w->fd, w->off);
		return err;
	}
	w->st.file_bytes = w->off + ilen + sizeof(t);
	return 0;
}

/*
 * Creates path 0600 as a new inode: an existing regular file or symlink is
 * unlinked first, so neither its mode nor its other links survive.
 * Anything else (device, FIFO, directory) is refused rather than removed.
 */
int wfile_create(const char *path, char *err, size_t errlen)
{
	for (int tries = 0; tries < 3; tries++) {
		struct stat st;
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

		if (fd >= 0) {
			if (fchmod(fd, 0600) == 0)
				return fd;
			snprintf(err, errlen, "cannot set mode 0600 on %s: %s", path,
				 strerror(errno));
			close(fd);
			return -EPERM;
		}
		if (errno != EEXIST)
			break;
		if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
			snprintf(err, errlen,
				 "%s exists and is not a regular file; choose another output",
				 path);
			return -EEXIST;
		}
		if (unlink(path) && errno != ENOENT)
			break;
	}
	snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
	return -errno;
}
