/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sonde trace file: writer and reader (libsonde, src/format/).
 * The byte layout is specified in docs/format.md.
 *
 * A file is a header (metadata), then chunks, then a footer index. Each
 * chunk holds the records of one stream (one CPU, or a user-space stream)
 * in the order they were produced, compressed with zstd, with a sequence
 * number, the time range [min ts, max ts] of its records and their count.
 * The reader merges all streams in timestamp order.
 */
#ifndef SONDE_FORMAT_H
#define SONDE_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include <sonde/events.h>

#define SONDE_FORMAT_VERSION 1

/* Metadata stored in the file header. Strings are owned by the caller
 * (writer) or by the reader (valid until sonde_reader_close). */
struct sonde_meta {
	uint32_t version;     /* format version of the file */
	const char *host;     /* uname nodename */
	const char *kernel;   /* uname release */
	const char *machine;  /* uname machine, e.g. x86_64 */
	uint32_t ncpus;       /* possible CPUs = number of CPU streams */
	uint64_t mono_ref_ns; /* CLOCK_MONOTONIC at the reference instant */
	uint64_t wall_ref_ns; /* CLOCK_REALTIME at the same instant */
	const char *cmdline;  /* the sonde command line that recorded */
	uint32_t nsyscalls;   /* entries in syscall_names */
	const char *const *syscall_names; /* by number; NULL = unused nr */
};

/*
 * Streams are u32 ids: 0..ncpus-1 carry the records produced on each CPU;
 * higher ids are user-space streams. Every chunk has a kind; readers merge
 * SONDE_CHUNK_EVENTS chunks and skip kinds they do not know.
 */
enum sonde_chunk_kind {
	SONDE_CHUNK_EVENTS = 0,  /* records of one stream, struct sonde_hdr first */
	SONDE_CHUNK_PAYLOAD = 1, /* blobs of the payload store, keyed by content hash */
	SONDE_CHUNK_BLOBINDEX = 2, /* footer: where every blob is */
};

struct sonde_writer_opts {
	size_t chunk_bytes;  /* raw bytes per chunk before compression; 0 = default */
	int zstd_level;      /* 0 = default */
	int threads;         /* compression threads; 0 = compress inline */
	int payload_level;   /* zstd level of the payload store; 0 = default (1) */
	/* Chunk buffers allocated and faulted in by open() and kept for the
	 * whole run (at most the queue's length, 512 MiB of chunks): a
	 * recorder opens the writer before the traced program starts, so
	 * these chunks cost no page zeroing while the program runs. */
	unsigned int prefault_chunks;
};

struct sonde_writer;

/* Creates path (mode 0600, truncating) and writes the header. Returns 0 or
 * -errno; on error *err names the problem. */
int sonde_writer_open(struct sonde_writer **w, const char *path,
		      const struct sonde_meta *meta,
		      const struct sonde_writer_opts *opts, char *err,
		      size_t errlen);
/* Appends one record (hdr.size bytes) to stream `stream` (a CPU number).
 * Records of one stream must be appended in production order. Returns 0 or
 * -errno (e.g. -ENOSPC: the disk is full; complete chunks stay readable;
 * -EINVAL: the record fails sonde_rec_check(), or is a PLREF, which only
 * the writer makes). Payload records of SONDE_REC_PAYLOAD go to the
 * deduplicated payload store (docs/format.md). With opts.threads > 0,
 * compression and writing happen on worker threads; append only blocks when
 * the full chunks waiting for them exceed both 32 and 512 MiB (back
 * pressure). append, flush and
 * close must be called from one thread at a time; stats from any thread. */
int sonde_writer_append(struct sonde_writer *w, unsigned int stream,
			const struct sonde_hdr *rec);
/* Compresses and writes every partial chunk so the file is readable up to
 * here (used on a timer and at exit): after it returns, a crash of the
 * recorder (SIGKILL) loses nothing appended before; close() also fsyncs. */
int sonde_writer_flush(struct sonde_writer *w);
/* Hands every partial chunk to the compression threads without waiting
 * for them: the periodic form of flush(), which never stalls the caller
 * behind a long compression queue (with threads = 0 it is flush()). A
 * crash then loses at most what the queue held. */
int sonde_writer_submit(struct sonde_writer *w);
/* Flushes, writes the footer index and closes. Frees w in all cases. */
int sonde_writer_close(struct sonde_writer *w);
/* The write error that stopped the file (-errno, sticky: every later
 * append returns it), or 0. Any thread. */
int sonde_writer_error(const struct sonde_writer *w);

struct sonde_writer_stats {
	uint64_t records;    /* appended: in the file, or lost below */
	/* Appended records whose chunk could not be written (the file is cut
	 * back to its last complete chunk), in all and by type; complete
	 * once close() or flush() returned. */
	uint64_t lost;
	uint64_t lost_by_type[SONDE_REC_TYPE_MAX];
	uint64_t raw_bytes;  /* record bytes appended */
	uint64_t file_bytes; /* bytes written to the file so far */
	uint64_t chunks;
	/* Payload store (complete once close() or flush() returned): */
	uint64_t payload_bytes;  /* payload data bytes appended (captured) */
	uint64_t payload_stored; /* stored: new blobs + small payloads inline */
	uint64_t payload_blobs;  /* distinct blobs stored */
	uint64_t payload_refs;   /* blob references written */
	uint64_t payload_file_bytes; /* PAYLOAD chunks on disk (compressed) */
};
void sonde_writer_stats(const struct sonde_writer *w,
			struct sonde_writer_stats *st);

struct sonde_reader;

/* Opens a trace. Returns 0 or -errno with *err naming the problem (not a
 * sonde trace, unsupported version, header corrupt...). A truncated file
 * (no footer) opens fine: see sonde_reader_truncated(). */
int sonde_reader_open(struct sonde_reader **r, const char *path, char *err,
		      size_t errlen);
/* The same on a trace held in memory (data must outlive the reader), e.g.
 * for fuzzing. */
int sonde_reader_open_mem(struct sonde_reader **r, const void *data,
			  size_t len, char *err, size_t errlen);
void sonde_reader_close(struct sonde_reader *r);
const struct sonde_meta *sonde_reader_meta(const struct sonde_reader *r);
/* The trace was recorded on this host (same uname nodename and kernel
 * release): its paths name this file system (-y resolves links there). */
int sonde_meta_this_host(const struct sonde_meta *m);

/* Next record in timestamp order (ties: stream, then production order).
 * Returns 1 with *rec valid until the next call, 0 at the end, or -errno
 * on a damaged chunk (the error is reported by sonde_reader_error() and the
 * next call continues with the following chunk). */
int sonde_reader_next(struct sonde_reader *r, const struct sonde_hdr **rec);
/* Positions the reader at the first record with ts >= ts. */
int sonde_reader_seek(struct sonde_reader *r, uint64_t ts);

/* True when the file has no valid footer (recorder killed, disk full):
 * every complete chunk is still returned. */
int sonde_reader_truncated(const struct sonde_reader *r);
/* Human-readable description of the last problem, or NULL. */
const char *sonde_reader_error(const struct sonde_reader *r);

struct sonde_reader_stats {
	uint64_t chunks;     /* readable chunks */
	uint64_t bad_chunks; /* chunks skipped as corrupt */
	uint64_t records;    /* records returned so far */
	uint64_t file_bytes;
	uint64_t first_ts, last_ts;
};
void sonde_reader_stats(const struct sonde_reader *r,
			struct sonde_reader_stats *st);

/*
 * The payload store of a trace: payload bytes are stored once per distinct
 * content (docs/format.md) and put back by sonde_reader_next(), which
 * returns SONDE_REC_PAYLOAD records with their data. Counts of returned
 * records grow as the trace is read; the blob counts are the file's.
 */
struct sonde_reader_payload_stats {
	uint64_t records;	 /* payload records returned so far */
	uint64_t bytes;		 /* their data bytes (what was captured) */
	uint64_t inline_bytes;	 /* of which stored inline (small payloads) */
	uint64_t missing;	 /* records whose blobs were missing/damaged */
	uint64_t blobs;		 /* distinct blobs in the file */
	uint64_t blob_bytes;	 /* their bytes */
	uint64_t file_bytes;	 /* PAYLOAD chunks on disk (compressed) */
};
/* Indexes the blob store if not done yet; 0 or -ENOMEM. */
int sonde_reader_payload_stats(struct sonde_reader *r, struct sonde_reader_payload_stats *st);

/* Validates one record's header against the bytes available; used by the
 * reader on every record so hostile files cannot make it read out of
 * bounds. Returns 0 or -EINVAL. */
int sonde_rec_check(const struct sonde_hdr *rec, size_t avail);

#endif /* SONDE_FORMAT_H */
