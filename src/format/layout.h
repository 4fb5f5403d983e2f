/* SPDX-License-Identifier: GPL-2.0 */
/*
 * On-disk structures of the sonde trace file (docs/format.md has the full
 * description). Everything is little-endian and naturally aligned, so the
 * structures below are the bytes on disk; the static assertions pin that.
 *
 *   +----------------------+ 0
 *   | file header (24 B)   |  magic "SONDETRC", version, hdr_len, crc
 *   | TLV metadata ...     |
 *   +----------------------+ hdr_len (multiple of 8)
 *   | chunk header (64 B)  |  magic "SCHK", kind, stream, seq, ts range...
 *   | zstd frame, padded   |
 *   |   to 8 bytes         |
 *   | chunk ...            |
 *   +----------------------+ index_off
 *   | index (16 B + 48 B   |  one entry per chunk, in file order
 *   |   per chunk)         |
 *   +----------------------+ size - 32
 *   | trailer (32 B)       |  magic "SONDEEND", index_off/len, crcs
 *   +----------------------+ size
 */
#ifndef SONDE_FORMAT_LAYOUT_H
#define SONDE_FORMAT_LAYOUT_H

#include <stdint.h>
#include <zlib.h>

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the sonde trace format is little-endian; this host is not"
#endif

#define SONDE_FILE_MAGIC "SONDETRC"
#define SONDE_TRAILER_MAGIC "SONDEEND"
#define SONDE_CHUNK_MAGIC 0x4b484353u /* "SCHK" */
#define SONDE_INDEX_MAGIC 0x58444953u /* "SIDX" */

struct sonde_file_hdr {
	char magic[8];
	uint32_t version;
	uint32_t hdr_len; /* header + TLVs, multiple of 8 */
	uint32_t crc;	  /* crc32 of the hdr_len bytes, this field as 0 */
	uint32_t flags;	  /* 0; readers ignore unknown bits */
};

/* Metadata TLV: tag, length of the value, value padded to 8 bytes. */
struct sonde_tlv {
	uint16_t tag;
	uint16_t flags; /* 0 */
	uint32_t len;
};

enum sonde_tlv_tag {
	SONDE_TLV_END = 0,
	SONDE_TLV_HOST = 1,	 /* NUL-terminated string */
	SONDE_TLV_KERNEL = 2,	 /* NUL-terminated string */
	SONDE_TLV_MACHINE = 3,	 /* NUL-terminated string */
	SONDE_TLV_NCPUS = 4,	 /* u32 */
	SONDE_TLV_CLOCK_REF = 5, /* u64 monotonic ns, u64 realtime ns */
	SONDE_TLV_CMDLINE = 6,	 /* NUL-terminated string */
	SONDE_TLV_SYSCALLS = 7,	 /* u32 count, count NUL-terminated names */
};

/* codec values */
#define SONDE_CODEC_ZSTD 1
/* transform values: applied to the records before the codec */
#define SONDE_XFORM_NONE 0
#define SONDE_XFORM_COLUMNS 1  /* src/format/xform.c, read only */
#define SONDE_XFORM_COLUMNS2 2 /* src/format/xform.c, written */

struct sonde_chunk_hdr {
	uint32_t magic;
	uint16_t hdr_len; /* 64; larger = fields appended by a newer writer */
	uint16_t kind;	  /* enum sonde_chunk_kind */
	uint8_t codec;
	uint8_t transform;
	uint16_t flags; /* 0 */
	uint32_t stream;
	uint64_t seq; /* per stream, from 0 */
	uint64_t min_ts, max_ts;
	uint32_t nrecords;
	uint32_t raw_len;  /* bytes of records */
	uint32_t enc_len;  /* bytes after the transform, before the codec */
	uint32_t comp_len; /* bytes of payload that follow the header */
	uint32_t data_crc; /* crc32 of the comp_len payload bytes */
	uint32_t hdr_crc;  /* crc32 of the bytes before this field */
};

struct sonde_index_hdr {
	uint32_t magic;
	uint32_t entry_size; /* 48; larger = fields appended */
	uint64_t nentries;
};

struct sonde_index_entry {
	uint64_t offset; /* of the chunk header */
	uint64_t seq;
	uint64_t min_ts, max_ts;
	uint32_t stream;
	uint32_t nrecords;
	uint16_t kind;
	uint16_t _pad;
	uint32_t comp_len;
};

struct sonde_trailer {
	char magic[8];
	uint64_t index_off;
	uint64_t index_len;
	uint32_t index_crc; /* crc32 of the index_len bytes */
	uint32_t crc;	    /* crc32 of the 28 bytes before */
};

/*
 * Payload store (docs/format.md). A PAYLOAD chunk holds blob entries, each
 * a header then the blob's bytes padded to 8:
 *
 *   0           16    20      24
 *   +-----------+-----+-------+--------------------+
 *   | hash[16]  | len | flags | len bytes, pad to 8 |
 *   +-----------+-----+-------+--------------------+
 *
 * A BLOBINDEX chunk (written at close, before the footer) lists every
 * blob of the file: hash, offset of its PAYLOAD chunk, offset of its entry
 * in that chunk's raw bytes, length.
 */
struct sonde_blob_hdr {
	uint8_t hash[16]; /* BLAKE2b-128 of the len bytes */
	uint32_t len;
	uint32_t flags; /* 0 */
};

struct sonde_blobidx_entry {
	uint8_t hash[16];
	uint64_t chunk_off; /* of the PAYLOAD chunk header */
	uint32_t off;	    /* of the entry in the chunk's raw bytes */
	uint32_t len;
};

/* Stream id of the PAYLOAD and BLOBINDEX chunks. */
#define SONDE_STREAM_BLOBS 0xffffff00u
/* Largest blob; a writer cuts payloads into pieces of at most this. */
#define SONDE_BLOB_MAX (64u << 10)

_Static_assert(sizeof(struct sonde_blob_hdr) == 24, "blob header layout");
_Static_assert(sizeof(struct sonde_blobidx_entry) == 32, "blob index entry layout");
_Static_assert(sizeof(struct sonde_file_hdr) == 24, "file header layout");
_Static_assert(sizeof(struct sonde_tlv) == 8, "tlv layout");
_Static_assert(sizeof(struct sonde_chunk_hdr) == 64, "chunk header layout");
_Static_assert(sizeof(struct sonde_index_hdr) == 16, "index header layout");
_Static_assert(sizeof(struct sonde_index_entry) == 48, "index entry layout");
_Static_assert(sizeof(struct sonde_trailer) == 32, "trailer layout");

/*
 * Limits. The writer never exceeds them; the reader rejects anything
 * beyond them before allocating, so hostile files cannot make it allocate
 * absurd amounts.
 */
#define SONDE_HDR_MAX (16u << 20)	/* header + TLVs */
#define SONDE_STR_MAX (1u << 20)	/* one metadata string */
#define SONDE_SYSCALLS_MAX 65536u	/* entries in the syscall table */
#define SONDE_CHUNK_RAW_MAX (16u << 20) /* records bytes per chunk */
#define SONDE_CHUNK_MIN (64u << 10)	/* smallest chunk_bytes accepted */
#define SONDE_CHUNK_DEFAULT (1u << 20)	/* default chunk_bytes */
#define SONDE_CHUNK_HDR_MAX 4096u	/* chunk header with extensions */
#define SONDE_REC_MIN sizeof(struct sonde_hdr)

static inline uint32_t sonde_crc32(const void *p, size_t n)
{
	return (uint32_t)crc32_z(0, p, n);
}

/*
 * Readers verify checksums through this. Fuzzing builds (tests/fuzz/run.sh)
 * accept any checksum so that mutated inputs reach the decoders behind it,
 * which must stand on their own against hostile bytes.
 */
static inline int sonde_crc_ok(uint32_t want, const void *p, size_t n)
{
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
	(void)want;
	(void)p;
	(void)n;
	return 1;
#else
	return sonde_crc32(p, n) == want;
#endif
}

static inline uint64_t sonde_align8(uint64_t n)
{
	return (n + 7) & ~(uint64_t)7;
}

#endif
