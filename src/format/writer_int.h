/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace writer's state, shared by writer.c (streams, the chunk queue,
 * its worker threads) and wfile.c (the file side: ordered chunk writes,
 * the chunk and blob indexes, the footer, creating the file 0600).
 */
#ifndef SONDE_FORMAT_WRITER_INT_H
#define SONDE_FORMAT_WRITER_INT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "sonde/format.h"
#include "format/blobs.h"
#include "format/layout.h"
#include "format/wcomp.h"

#define WRITER_MAX_THREADS 8
/* Full chunks waiting for a worker before append() blocks: 32, or more
 * small ones up to WRITER_QUEUE_BYTES, so that a burst of payload data
 * (hashed and compressed at a few hundred MB/s) waits in memory rather
 * than filling the kernel's rings, where payloads would be shed. */
#define WRITER_MAX_QUEUED 32
#define WRITER_QUEUE_BYTES (512u << 20)
/* Chunk buffers kept for reuse (more if opts.prefault_chunks asks): a
 * fresh buffer costs page faults, 1-10 us a page on a VM whose free pages
 * go back to the host (bench/README.md, "Page allocation"). */
#define WRITER_FREE_KEEP 16
/* Stream ids below this are looked up directly, others by a linear scan. */
#define WRITER_DIRECT_STREAMS 1024
#define WRITER_DEFAULT_LEVEL 3
/* Blobs are mostly unique file data: a fast level keeps the compression
 * threads ahead of the capture. */
#define WRITER_DEFAULT_PAYLOAD_LEVEL 1
/* Workers' nice value while the queue is less than half full. */
#define WRITER_NICE_IDLE 19

struct chunk_job {
	struct chunk_job *next;
	uint32_t stream;
	uint32_t nrecords;
	uint64_t seq;
	uint64_t min_ts, max_ts;
	uint64_t ticket; /* submission order = order in the file */
	uint32_t nbulky; /* payload records for the blob store */
	size_t len;	 /* raw bytes used */
	uint8_t raw[];
};

struct wstream {
	uint32_t id;
	uint64_t next_seq;
	struct chunk_job *cur; /* being filled, or NULL */
};

struct sonde_writer {
	int fd;
	size_t chunk_bytes;
	int level;

	struct wstream *direct[WRITER_DIRECT_STREAMS];
	struct wstream **others;
	size_t nothers;

	/* Queue of full chunks and free buffers; lock protects all of it. */
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	struct chunk_job *qhead, **qtail;
	unsigned int pending; /* queued or being compressed */
	unsigned int max_queued;
	struct chunk_job *free_jobs;
	unsigned int nfree;
	unsigned int free_keep; /* buffers kept on the free list, at least WRITER_FREE_KEEP */
	int stop;
	int can_renice; /* may return from WRITER_NICE_IDLE to 0 */
	unsigned int draining; /* flushes waiting for the queue to empty */
	struct writer_worker {
		struct sonde_writer *w;
		pthread_t thread;
		struct compressor c;
	} workers[WRITER_MAX_THREADS];
	int nthreads;
	struct compressor inline_comp;

	/* The file end and index; io_lock protects them and err. Chunks are
	 * written in submission order (tickets), whichever worker compressed
	 * them, so a failed write only ever loses the end of a stream. */
	pthread_mutex_t io_lock;
	pthread_cond_t io_turn;
	uint64_t next_ticket, write_ticket;
	uint64_t off;
	int err; /* sticky -errno, read without io_lock by append() */
	struct sonde_index_entry *index;
	size_t nindex, index_cap;
	struct sonde_writer_stats st; /* records/raw_bytes: appender only */

	/* Payload store: blobs known (any thread), where each one is (for
	 * the footer), and the blob stream's next chunk number (io_lock). */
	struct blob_table blobs;
	uint64_t st_inline; /* bytes of small payloads, kept inline (appender) */
	int payload_level;
	uint64_t blob_seq;
	struct sonde_blobidx_entry *bidx;
	size_t nbidx, bidx_cap;
};

/* wfile.c */
int wfile_write_all(int fd, const uint8_t *p, size_t len, uint64_t off);
/* Writes compressor c's output (or records err) in ticket order; 0 when
 * it is in the file, else the (sticky) error. */
int wfile_chunk_write(struct sonde_writer *w, uint64_t ticket, struct compressor *c, int err,
		       const struct blob_stats *bs);
int wfile_blob_index(struct sonde_writer *w);
int wfile_footer(struct sonde_writer *w);
int wfile_create(const char *path, char *err, size_t errlen);

#endif /* SONDE_FORMAT_WRITER_INT_H */
