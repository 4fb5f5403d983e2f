/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Payload store, writer side (blobs.c): the writer-wide table of stored
 * blobs, and the per-compressor pass that turns a chunk's payload records
 * into references plus new blobs. Reader side: rblobs.c.
 */
#ifndef SONDE_FORMAT_BLOBS_H
#define SONDE_FORMAT_BLOBS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <sonde/format.h>
#include <sonde/payload.h>

/* Payloads smaller than this stay inline: a 20-byte reference plus a
 * blob header would cost about what the bytes do. */
#define BLOB_INLINE_MAX 256u
/* Raw bytes of blob entries per PAYLOAD chunk: what a reader decompresses
 * to get one blob, so kept well below the events chunk size. */
#define BLOB_CHUNK_BYTES (1u << 20)
/* Stored blobs remembered for deduplication (24 bytes each); when full the
 * table starts over, so memory stays bounded on endless recordings. */
#define BLOB_TABLE_MAX (1u << 22)

struct blob_slot {
	uint8_t hash[SONDE_BLOB_HASH_LEN];
	uint64_t ticket1; /* ticket of the chunk that stores it, + 1; 0 = free */
};

/* Which blobs are in the file (or in a chunk about to be written before
 * any chunk that could reference them). */
struct blob_table {
	pthread_mutex_t lock;
	struct blob_slot *slot;
	size_t cap, n;
};

struct blob_stats {
	uint64_t captured; /* payload data bytes seen */
	uint64_t inlined;  /* of which kept inline */
	uint64_t stored;   /* bytes of new blobs */
	uint64_t blobs;	   /* new blobs */
	uint64_t refs;	   /* extents written */
};

/* One raw PAYLOAD chunk being filled. */
struct blob_buf {
	uint8_t *raw;
	size_t len;
	uint32_t n;
};

/* A blob stored by this job: where its entry is (for the footer index). */
struct blob_new {
	uint8_t hash[SONDE_BLOB_HASH_LEN];
	uint32_t buf; /* index into blob_job.bufs */
	uint32_t off; /* of its entry in that buffer */
	uint32_t len;
};

/* A payload (or the part of it inside this chunk) being reassembled. */
struct blob_piece {
	const struct sonde_ev_payload *first;
	const uint8_t *data; /* first record's data while single */
	uint64_t start, len;
	int active, single;
};

/*
 * Recently hashed pieces of one compressor, so that a repeat costs a probe
 * key (blob_probe_key) and a memcmp instead of BLAKE2b: a direct-mapped
 * table keyed by it, over a ring of the pieces' bytes (byte equality, not
 * the key, decides). Misses just compute BLAKE2b.
 */
#define BLOB_RECENT_BYTES (32u << 20)
#define BLOB_RECENT_SLOTS (1u << 15)

struct blob_recent_slot {
	uint64_t fast;
	uint64_t pos; /* absolute ring position of the bytes */
	uint32_t len; /* 0 = empty */
	uint8_t hash[SONDE_BLOB_HASH_LEN];
};

struct blob_recent {
	uint8_t *ring; /* BLOB_RECENT_BYTES */
	uint64_t end;  /* absolute position after the last bytes put */
	struct blob_recent_slot *slot;
	uint64_t hits, misses;
};

/*
 * Recent whole payloads of one compressor with the extents they were cut
 * into: a payload that repeats one byte for byte (cat, cp and dd write the
 * buffer they just read; a file read twice) is resolved with one probe key
 * and a memcmp, without cutting or hashing its pieces again. Same shape as
 * blob_recent: direct-mapped by the probe key over a ring of the bytes.
 */
#define BLOB_WHOLE_BYTES (16u << 20)
#define BLOB_WHOLE_SLOTS (1u << 12)
/* Longer payloads are not remembered: they would flush the ring. */
#define BLOB_WHOLE_MAX (BLOB_WHOLE_BYTES / 8)

struct blob_whole_slot {
	uint64_t fast;
	uint64_t pos; /* absolute ring position of the bytes */
	uint32_t len; /* 0 = empty */
	uint32_t next; /* extents */
	struct sonde_plref_ext *ext;
	size_t ext_cap;
};

struct blob_whole {
	uint8_t *ring; /* BLOB_WHOLE_BYTES */
	uint64_t end;
	struct blob_whole_slot *slot;
	uint64_t hits, misses;
};

/* Per-compressor work area, reused from chunk to chunk. */
struct blob_job {
	uint8_t *out;
	size_t out_len, out_cap;
	uint32_t out_nrec;
	uint8_t *gather;
	size_t gather_cap;
	struct blob_buf *bufs;
	size_t nbufs, bufs_init, bufs_cap; /* used, initialised, allocated */
	struct blob_new *nw;
	size_t nnew, new_cap;
	struct sonde_plref_ext *ext;
	size_t next, ext_cap;
	struct blob_piece cur;
	struct blob_recent recent;
	struct blob_whole whole;
	struct blob_stats st;
	int err;
};

/* blobcache.c */
uint64_t blob_probe_key(const uint8_t *p, size_t n);
struct blob_recent_slot *blob_recent_find(struct blob_recent *r, uint64_t fast,
					  const uint8_t *data, uint32_t len);
void blob_recent_put(struct blob_recent *r, uint64_t fast, const uint8_t *data, uint32_t len,
		     const uint8_t *hash);
void blob_recent_free(struct blob_recent *r);
/* 1 and the extents of data in ext[0..*n) if data repeats a recent payload. */
int blob_whole_get(struct blob_whole *w, uint64_t fast, const uint8_t *data, uint32_t len,
		   struct sonde_plref_ext **ext, size_t *cap, size_t *n);
void blob_whole_put(struct blob_whole *w, uint64_t fast, const uint8_t *data, uint32_t len,
		    const struct sonde_plref_ext *ext, size_t n);
void blob_whole_free(struct blob_whole *w);

int blob_table_init(struct blob_table *t);
void blob_table_free(struct blob_table *t);

void blob_job_free(struct blob_job *b);
/* Rewrites the records in[0..len): payload records of BLOB_INLINE_MAX
 * bytes or more become PLREF records in b->out, their bytes new blobs in
 * b->bufs (unless the table already has them from a chunk with a ticket
 * no later than this one). Returns 0 or -ENOMEM. */
int blob_job_run(struct blob_job *b, struct blob_table *t, uint64_t ticket, const uint8_t *in,
		 size_t len);

#endif
