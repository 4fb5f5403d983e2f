// SPDX-License-Identifier: GPL-2.0
/*
 * Trace writer. The caller (a ring-buffer consumer) appends records into
 * one raw buffer per stream; a full buffer becomes a chunk job, which is
 * transformed (xform.c), compressed with zstd and written either inline or
 * by worker threads, so that with opts.threads > 0 the caller never waits
 * for zstd:
 *
 *   append() --> stream buffer --full--> queue --> worker: xform, zstd,
 *                                                  pwrite at the file end
 *
 * This file has the streams, the queue and its workers; wfile.c the file
 * side. A chunk is written with a single pwrite at the end of the last complete
 * chunk; when that fails (ENOSPC, EDQUOT, EIO) the file is cut back to the
 * last complete chunk and the error sticks: every later call returns it,
 * and the file stays readable up to there (as a truncated trace).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "format/blobs.h"
#include "format/wcomp.h"
#include "format/layout.h"
#include "format/meta.h"
#include "format/writer_int.h"
#include "format/xform.h"

/* The job's new blobs as PAYLOAD chunks; the records to store in *raw. */
static int chunk_blobs(struct sonde_writer *w, struct compressor *c, const struct chunk_job *j,
		       const uint8_t **raw, size_t *len, uint32_t *nrec, struct blob_stats *bs)
{
	struct blob_job *b = &c->bj;
	int err = blob_job_run(b, &w->blobs, j->ticket, j->raw, j->len);

	if (err)
		return err;
	for (size_t i = 0; i < b->nbufs; i++) {
		err = comp_plain(c, SONDE_CHUNK_PAYLOAD, b->bufs[i].n, j->min_ts, j->max_ts,
				 b->bufs[i].raw, b->bufs[i].len);
		if (err)
			return err;
	}
	*bs = b->st;
	/* References are far smaller than the bytes they replace; should
	 * they ever not fit a chunk, the records stay inline (the blobs
	 * written are then unreferenced, which is harmless). */
	if (b->out_len > w->chunk_bytes) {
		bs->inlined += bs->captured;
		return 0;
	}
	*raw = b->out;
	*len = b->out_len;
	*nrec = b->out_nrec;
	return 0;
}

/* Bulky payloads go to the blob store on the compression side; small ones
 * stay inline and are counted at append (in st_inline). */
static int payload_is_bulky(const struct sonde_ev_payload *p)
{
	return p->captured >= BLOB_INLINE_MAX && p->chunk;
}

static void payload_count(struct sonde_writer *w, struct chunk_job *j,
			  const struct sonde_ev_payload *p)
{
	if (payload_is_bulky(p))
		j->nbulky++;
	else
		__atomic_fetch_add(&w->st_inline, p->chunk, __ATOMIC_RELAXED);
}

/*
 * A chunk that is not in the file (its write, or an earlier one, failed):
 * its records are counted as lost, by type, so that the recorder's summary
 * says what the file holds. Only on that path: the records were checked
 * by append(), so their sizes walk the buffer.
 */
static void chunk_lost(struct sonde_writer *w, const struct chunk_job *j)
{
	pthread_mutex_lock(&w->io_lock);
	w->st.lost += j->nrecords;
	for (size_t off = 0; off < j->len;) {
		const struct sonde_hdr *h = (const void *)(j->raw + off);

		const struct sonde_ev_payload *p = (const void *)h;

		if (h->type < SONDE_REC_TYPE_MAX)
			w->st.lost_by_type[h->type]++;
		/* Bulky ones were never counted: out_stats() counts blobs written. */
		if (h->type == SONDE_REC_PAYLOAD && !payload_is_bulky(p))
			__atomic_fetch_sub(&w->st_inline, p->chunk, __ATOMIC_RELAXED);
		off += h->size;
	}
	pthread_mutex_unlock(&w->io_lock);
}

/* Transforms, compresses and writes one chunk, after its new blobs. */
static void chunk_emit(struct sonde_writer *w, struct compressor *c, const struct chunk_job *j)
{
	struct sonde_chunk_hdr h = {
		.magic = SONDE_CHUNK_MAGIC,
		.hdr_len = sizeof(h),
		.kind = SONDE_CHUNK_EVENTS,
		.codec = SONDE_CODEC_ZSTD,
		.transform = SONDE_XFORM_COLUMNS2,
		.stream = j->stream,
		.seq = j->seq,
		.min_ts = j->min_ts,
		.max_ts = j->max_ts,
	};
	struct blob_stats bs = { 0 };
	const uint8_t *raw = j->raw;
	size_t len = j->len, enc_len, n, room;
	uint32_t nrec = j->nrecords;
	int err = 0;

	c->out_len = 0;
	c->nch = 0;
	c->bj.nnew = 0;
	if (j->nbulky)
		err = chunk_blobs(w, c, j, &raw, &len, &nrec, &bs);
	if (err)
		goto fail;
	enc_len = xform_encode(raw, len, c->enc, c->scratch, c->xf);
	room = ZSTD_compressBound(enc_len);
	err = comp_reserve(c, sizeof(h) + room + 8);
	if (err)
		goto fail;
	n = ZSTD_compress2(c->cctx, c->out + c->out_len + sizeof(h), room, c->enc, enc_len);
	if (ZSTD_isError(n)) {
		/* Only a bug can get here: the output has compressBound room. */
		err = -EIO;
		goto fail;
	}
	h.nrecords = nrec;
	h.raw_len = (uint32_t)len;
	h.enc_len = (uint32_t)enc_len;
	comp_seal(c, &h, n);
fail:
	if (wfile_chunk_write(w, j->ticket, c, err, err ? NULL : &bs))
		chunk_lost(w, j);
}

/* Returns a job to the free list (keeping w->free_keep) under w->lock. */
static void job_put_locked(struct sonde_writer *w, struct chunk_job *j)
{
	if (w->nfree >= w->free_keep) {
		free(j);
		return;
	}
	j->next = w->free_jobs;
	w->free_jobs = j;
	w->nfree++;
}

/*
 * Pacing: while the queue is less than half full the workers run at nice
 * 19, on the CPU time the traced programs leave, and a burst of payloads
 * waits in the queue (hashing and compressing it costs more CPU than
 * capturing it; competing for the CPUs would slow the programs down by
 * that much). From half full on they run at nice 0, so the queue does not
 * fill: a full queue blocks append(), the rings then fill and payloads are
 * shed. They also run at nice 0 while a flush waits (the end of a
 * recording: its backlog must not starve behind other programs).
 * Returning to nice 0 needs CAP_SYS_NICE (or RLIMIT_NICE): without it the
 * workers never lower their priority.
 */
static void worker_pace(int want, int *nice_now)
{
	if (want != *nice_now && !setpriority(PRIO_PROCESS, (id_t)gettid(), want))
		*nice_now = want;
}

static int writer_can_renice(void)
{
	struct rlimit r;

	if (!geteuid())
		return 1;
	return !getrlimit(RLIMIT_NICE, &r) && r.rlim_cur >= 20;
}

static void *worker_main(void *arg)
{
	struct writer_worker *wk = arg;
	struct sonde_writer *w = wk->w;
	int nice_now = getpriority(PRIO_PROCESS, (id_t)gettid()), want;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		struct chunk_job *j;

		while (!w->qhead && !w->stop)
			pthread_cond_wait(&w->work, &w->lock);
		if (!w->qhead)
			break;
		j = w->qhead;
		w->qhead = j->next;
		if (!w->qhead)
			w->qtail = &w->qhead;
		want = w->can_renice && !w->draining && w->pending * 2 < w->max_queued
			       ? WRITER_NICE_IDLE
			       : 0;
		pthread_mutex_unlock(&w->lock);
		worker_pace(want, &nice_now);
		chunk_emit(w, &wk->c, j);
		pthread_mutex_lock(&w->lock);
		job_put_locked(w, j);
		w->pending--;
		pthread_cond_broadcast(&w->done);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/*
 * A new chunk buffer, faulted in with one call rather than one page fault
 * per 4 KiB as append() fills it: under a burst of payloads the appender
 * (the thread draining the rings) spent more time in page faults than in
 * copying.
 */
static struct chunk_job *job_alloc(struct sonde_writer *w)
{
	struct chunk_job *j = malloc(sizeof(*j) + w->chunk_bytes);

	if (j)
		mem_prefault(j, sizeof(*j) + w->chunk_bytes);
	return j;
}

/*
 * opts.prefault_chunks: buffers made ready on the free list at open, and
 * kept there for the whole run: the burst that needs them once (payload
 * capture of a file copy) tends to come again.
 */
static int writer_prefault(struct sonde_writer *w, unsigned int n)
{
	if (n > w->max_queued)
		n = w->max_queued;
	if (n > w->free_keep)
		w->free_keep = n;
	for (unsigned int i = 0; i < n; i++) {
		struct chunk_job *j = job_alloc(w);

		if (!j)
			return -ENOMEM;
		job_put_locked(w, j);
	}
	return 0;
}

/* A buffer for a new chunk; waits while too many chunks are queued. */
static struct chunk_job *job_get(struct sonde_writer *w, uint32_t stream)
{
	struct chunk_job *j;

	pthread_mutex_lock(&w->lock);
	while (w->pending >= w->max_queued)
		pthread_cond_wait(&w->done, &w->lock);
	j = w->free_jobs;
	if (j) {
		w->free_jobs = j->next;
		w->nfree--;
	}
	pthread_mutex_unlock(&w->lock);
	if (!j && !(j = job_alloc(w)))
		return NULL;
	j->next = NULL;
	j->stream = stream;
	j->nrecords = 0;
	j->nbulky = 0;
	j->len = 0;
	j->min_ts = UINT64_MAX;
	j->max_ts = 0;
	return j;
}

/* Hands the stream's current buffer over as a chunk. */
static void stream_submit(struct sonde_writer *w, struct wstream *s)
{
	struct chunk_job *j = s->cur;

	s->cur = NULL;
	j->seq = s->next_seq++;
	j->ticket = w->next_ticket++;
	if (!w->nthreads) {
		chunk_emit(w, &w->inline_comp, j);
		pthread_mutex_lock(&w->lock);
		job_put_locked(w, j);
		pthread_mutex_unlock(&w->lock);
		return;
	}
	pthread_mutex_lock(&w->lock);
	*w->qtail = j;
	w->qtail = &j->next;
	w->pending++;
	pthread_cond_signal(&w->work);
	pthread_mutex_unlock(&w->lock);
}

static struct wstream *stream_get(struct sonde_writer *w, uint32_t id)
{
	struct wstream *s, **slot = NULL;

	if (id < WRITER_DIRECT_STREAMS) {
		slot = &w->direct[id];
		if (*slot)
			return *slot;
	} else {
		for (size_t i = 0; i < w->nothers; i++)
			if (w->others[i]->id == id)
				return w->others[i];
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->id = id;
	if (!slot) {
		struct wstream **p = realloc(w->others, (w->nothers + 1) * sizeof(*p));

		if (!p) {
			free(s);
			return NULL;
		}
		w->others = p;
		slot = &w->others[w->nothers++];
	}
	*slot = s;
	return s;
}


int sonde_writer_append(struct sonde_writer *w, unsigned int stream, const struct sonde_hdr *rec)
{
	int err = __atomic_load_n(&w->err, __ATOMIC_ACQUIRE);
	struct wstream *s;
	struct chunk_job *j;

	if (err)
		return err;
	/* References to the payload store are the writer's own. */
	if (sonde_rec_check(rec, rec->size) || rec->type == SONDE_REC_PLREF)
		return -EINVAL;
	s = stream_get(w, stream);
	if (!s)
		return -ENOMEM;
	if (s->cur && s->cur->len + rec->size > w->chunk_bytes) {
		stream_submit(w, s);
		err = __atomic_load_n(&w->err, __ATOMIC_ACQUIRE);
		if (err)
			return err;
	}
	if (!s->cur) {
		s->cur = job_get(w, stream);
		if (!s->cur)
			return -ENOMEM;
	}
	j = s->cur;
	if (rec->type == SONDE_REC_PAYLOAD)
		payload_count(w, j, (const void *)rec);
	memcpy(j->raw + j->len, rec, rec->size);
	j->len += rec->size;
	j->nrecords++;
	if (rec->ts < j->min_ts)
		j->min_ts = rec->ts;
	if (rec->ts > j->max_ts)
		j->max_ts = rec->ts;
	/* Relaxed stores: sonde_writer_stats() may read from another thread. */
	__atomic_store_n(&w->st.records, w->st.records + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&w->st.raw_bytes, w->st.raw_bytes + rec->size, __ATOMIC_RELAXED);
	return 0;
}

static void streams_for_each(struct sonde_writer *w,
			     void (*fn)(struct sonde_writer *, struct wstream *))
{
	for (size_t i = 0; i < WRITER_DIRECT_STREAMS; i++)
		if (w->direct[i])
			fn(w, w->direct[i]);
	for (size_t i = 0; i < w->nothers; i++)
		fn(w, w->others[i]);
}

static void stream_flush(struct sonde_writer *w, struct wstream *s)
{
	if (s->cur && s->cur->len)
		stream_submit(w, s);
}

int sonde_writer_submit(struct sonde_writer *w)
{
	streams_for_each(w, stream_flush);
	return __atomic_load_n(&w->err, __ATOMIC_ACQUIRE);
}

int sonde_writer_flush(struct sonde_writer *w)
{
	streams_for_each(w, stream_flush);
	pthread_mutex_lock(&w->lock);
	w->draining++;
	while (w->pending)
		pthread_cond_wait(&w->done, &w->lock);
	w->draining--;
	pthread_mutex_unlock(&w->lock);
	return __atomic_load_n(&w->err, __ATOMIC_ACQUIRE);
}

void sonde_writer_stats(const struct sonde_writer *w, struct sonde_writer_stats *st)
{
	struct sonde_writer *mw = (struct sonde_writer *)w;
	uint64_t inl;

	pthread_mutex_lock(&mw->io_lock);
	st->file_bytes = w->st.file_bytes;
	st->chunks = w->st.chunks;
	st->payload_bytes = w->st.payload_bytes;
	st->payload_stored = w->st.payload_stored;
	st->payload_blobs = w->st.payload_blobs;
	st->payload_refs = w->st.payload_refs;
	st->payload_file_bytes = w->st.payload_file_bytes;
	st->lost = w->st.lost;
	memcpy(st->lost_by_type, w->st.lost_by_type, sizeof(st->lost_by_type));
	pthread_mutex_unlock(&mw->io_lock);
	st->records = __atomic_load_n(&w->st.records, __ATOMIC_RELAXED);
	st->raw_bytes = __atomic_load_n(&w->st.raw_bytes, __ATOMIC_RELAXED);
	inl = __atomic_load_n(&w->st_inline, __ATOMIC_RELAXED);
	st->payload_bytes += inl;
	st->payload_stored += inl;
}

int sonde_writer_error(const struct sonde_writer *w)
{
	return __atomic_load_n(&w->err, __ATOMIC_ACQUIRE);
}

static void stream_free(struct sonde_writer *w, struct wstream *s)
{
	(void)w;
	free(s->cur);
	free(s);
}

static void writer_free(struct sonde_writer *w)
{
	pthread_mutex_lock(&w->lock);
	w->stop = 1;
	pthread_cond_broadcast(&w->work);
	pthread_mutex_unlock(&w->lock);
	for (int i = 0; i < w->nthreads; i++) {
		pthread_join(w->workers[i].thread, NULL);
		comp_free(&w->workers[i].c);
	}
	streams_for_each(w, stream_free);
	while (w->free_jobs) {
		struct chunk_job *j = w->free_jobs;

		w->free_jobs = j->next;
		free(j);
	}
	comp_free(&w->inline_comp);
	blob_table_free(&w->blobs);
	free(w->bidx);
	free(w->others);
	free(w->index);
	if (w->fd >= 0)
		close(w->fd);
	pthread_mutex_destroy(&w->lock);
	pthread_mutex_destroy(&w->io_lock);
	pthread_cond_destroy(&w->work);
	pthread_cond_destroy(&w->done);
	pthread_cond_destroy(&w->io_turn);
	free(w);
}

int sonde_writer_close(struct sonde_writer *w)
{
	int err;

	if (!w)
		return 0;
	err = sonde_writer_flush(w);
	if (!err)
		err = wfile_blob_index(w);
	if (!err)
		err = wfile_footer(w);
	if (!err && fdatasync(w->fd))
		err = -errno;
	if (close(w->fd) && !err)
		err = -errno;
	w->fd = -1;
	writer_free(w);
	return err;
}

static int writer_setup(struct sonde_writer *w, const struct sonde_writer_opts *o)
{
	size_t cb = o && o->chunk_bytes ? o->chunk_bytes : SONDE_CHUNK_DEFAULT;

	if (cb < SONDE_CHUNK_MIN)
		cb = SONDE_CHUNK_MIN;
	if (cb > SONDE_CHUNK_RAW_MAX)
		cb = SONDE_CHUNK_RAW_MAX;
	w->chunk_bytes = cb;
	w->max_queued = WRITER_QUEUE_BYTES / cb > WRITER_MAX_QUEUED ? WRITER_QUEUE_BYTES / cb
								    : WRITER_MAX_QUEUED;
	w->free_keep = WRITER_FREE_KEEP;
	w->level = o && o->zstd_level ? o->zstd_level : WRITER_DEFAULT_LEVEL;
	w->payload_level = o && o->payload_level ? o->payload_level : WRITER_DEFAULT_PAYLOAD_LEVEL;
	w->qtail = &w->qhead;
	w->can_renice = writer_can_renice();
	pthread_mutex_init(&w->lock, NULL);
	pthread_mutex_init(&w->io_lock, NULL);
	pthread_cond_init(&w->io_turn, NULL);
	pthread_cond_init(&w->work, NULL);
	pthread_cond_init(&w->done, NULL);
	if (blob_table_init(&w->blobs) || writer_prefault(w, o ? o->prefault_chunks : 0))
		return -ENOMEM;
	return comp_init(&w->inline_comp, cb, w->level, w->payload_level);
}

/* Each worker's compressor is made ready here, faulted in (wcomp.c). */
static int writer_start_threads(struct sonde_writer *w, int n)
{
	if (n > WRITER_MAX_THREADS)
		n = WRITER_MAX_THREADS;
	for (; w->nthreads < n; w->nthreads++) {
		struct writer_worker *wk = &w->workers[w->nthreads];

		wk->w = w;
		if (comp_init(&wk->c, w->chunk_bytes, w->level, w->payload_level)) {
			comp_free(&wk->c);
			return -ENOMEM;
		}
		comp_prefault(&wk->c);
		if (pthread_create(&wk->thread, NULL, worker_main, wk)) {
			comp_free(&wk->c);
			return w->nthreads ? 0 : -EAGAIN;
		}
	}
	return 0;
}

int sonde_writer_open(struct sonde_writer **wp, const char *path, const struct sonde_meta *meta,
		      const struct sonde_writer_opts *opts, char *err, size_t errlen)
{
	struct sonde_writer *w = calloc(1, sizeof(*w));
	uint8_t *hdr = NULL;
	size_t hdr_len;
	int e;

	*wp = NULL;
	if (!w) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	w->fd = -1;
	e = writer_setup(w, opts);
	if (e) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	e = meta_encode(meta, &hdr, &hdr_len, err, errlen);
	if (e)
		goto fail;
	w->fd = wfile_create(path, err, errlen);
	if (w->fd < 0) {
		e = w->fd;
		goto fail;
	}
	e = wfile_write_all(w->fd, hdr, hdr_len, 0);
	if (e) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-e));
		goto fail;
	}
	w->off = w->st.file_bytes = hdr_len;
	e = writer_start_threads(w, opts ? opts->threads : 0);
	if (e) {
		snprintf(err, errlen, "cannot start compression threads: %s", strerror(-e));
		goto fail;
	}
	free(hdr);
	*wp = w;
	return 0;
fail:
	free(hdr);
	writer_free(w);
	return e;
}
