// SPDX-License-Identifier: GPL-2.0
/*
 * Damaged traces: truncated at many offsets, bit flips in chunk headers and
 * payloads (with and without the footer), random bytes, a full disk. The
 * reader must return every intact chunk, name what is wrong and never
 * crash, hang or allocate absurd amounts.
 */
#include <stdint.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "format/layout.h"
#include "test_format_util.h"

#define DMG_STREAMS 3
#define DMG_RECORDS 24000

/* Chunks of the reference trace, from its footer index. */
static struct sonde_index_entry *ref_idx;
static size_t ref_nidx, ref_size, ref_index_off;
static uint8_t *ref;

/* Noisy records so that chunks stay large after compression. */
static int ref_build(void)
{
	struct sonde_writer_opts o = { .chunk_bytes = 64 << 10 };
	struct sonde_meta m = tf_meta();
	const char *path = tf_path("ref.sonde");
	struct sonde_trailer t;
	struct sonde_writer *w;
	uint64_t seed = 99, ts[DMG_STREAMS] = { 0 };
	char err[256];

	if (sonde_writer_open(&w, path, &m, &o, err, sizeof(err)))
		return -1;
	for (uint32_t i = 0; i < DMG_RECORDS; i++) {
		uint32_t s = i % DMG_STREAMS;
		struct sonde_ev_syscall e;

		ts[s] += 1 + tf_rand(&seed) % 1000;
		tf_syscall(&e, ts[s], 10 + s, (uint32_t)(tf_rand(&seed) % 300), i);
		e.args[1] = tf_rand(&seed);
		e.args[2] = tf_rand(&seed) & 0xffff;
		if (sonde_writer_append(w, s, &e.hdr))
			return -1;
	}
	if (sonde_writer_close(w))
		return -1;
	ref = tf_slurp(path, &ref_size);
	if (!ref || ref_size < sizeof(t))
		return -1;
	memcpy(&t, ref + ref_size - sizeof(t), sizeof(t));
	ref_index_off = t.index_off;
	ref_nidx = (t.index_len - sizeof(struct sonde_index_hdr)) / sizeof(*ref_idx);
	ref_idx = (struct sonde_index_entry *)(ref + t.index_off + sizeof(struct sonde_index_hdr));
	return ref_nidx > 10 ? 0 : -1;
}

/* Records expected when the file is cut at len: chunks wholly inside. */
static size_t records_within(size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < ref_nidx; i++)
		if (ref_idx[i].offset + sizeof(struct sonde_chunk_hdr) + ref_idx[i].comp_len <= len)
			n += ref_idx[i].nrecords;
	return n;
}

static void check_cut(size_t len, int *fails)
{
	struct sonde_reader *r;
	struct tf_read t;
	char err[256];
	int e = sonde_reader_open_mem(&r, ref, len, err, sizeof(err));
	int bad = 0;

	if (len < ref_idx[0].offset) {
		/* Inside the header: refused, with a reason. */
		bad = e == 0 || !err[0];
		sonde_reader_close(r);
		goto out;
	}
	if (e)
		bad = 1;
	if (!r)
		goto out;
	tf_read_all(r, &t, 4 * DMG_RECORDS);
	bad |= t.nerrors != 0 || !t.sorted;
	bad |= t.nrecs != (len == ref_size ? DMG_RECORDS : records_within(len));
	bad |= sonde_reader_truncated(r) != (len != ref_size);
	bad |= len != ref_size && !sonde_reader_error(r);
	tf_read_free(&t);
	sonde_reader_close(r);
out:
	if (bad && (*fails)++ < 5)
		fprintf(stderr, "cut at %zu of %zu: wrong result (open %d: %s)\n", len, ref_size, e,
			e ? err : "ok");
}

/* Cut at every chunk boundary and +-1, at 400 spread offsets, and in the
 * footer. */
TEST(truncated)
{
	int fails = 0;

	for (size_t i = 0; i < ref_nidx; i++) {
		size_t end =
			ref_idx[i].offset + sizeof(struct sonde_chunk_hdr) + ref_idx[i].comp_len;

		for (size_t d = 0; d < 3; d++) {
			check_cut(ref_idx[i].offset + d - 1, &fails);
			check_cut(end + d - 1, &fails);
		}
	}
	for (size_t k = 0; k <= 400; k++)
		check_cut(ref_size * k / 400, &fails);
	for (size_t len = ref_index_off; len <= ref_size; len += 7)
		check_cut(len, &fails);
	check_cut(ref_size, &fails);
	CHECK_EQ_INT(fails, 0);
}

/* Flips one bit at offset off and checks that exactly the chunk holding it
 * is reported and skipped. With footer = 0 the footer is cut away first, so
 * the chunks are found by scanning. */
static void check_flip(size_t chunk, size_t off, int footer, int *fails)
{
	size_t len = footer ? ref_size : ref_index_off, bit = off * 7 % 8;
	uint8_t *buf = malloc(ref_size);
	struct sonde_reader *r;
	struct tf_read t;
	char err[256];
	int bad = 0;

	memcpy(buf, ref, ref_size);
	buf[off] ^= (uint8_t)(1u << bit);
	if (sonde_reader_open_mem(&r, buf, len, err, sizeof(err))) {
		bad = 1;
		goto out;
	}
	tf_read_all(r, &t, 4 * DMG_RECORDS);
	bad |= t.nerrors != 1 || !t.sorted;
	bad |= t.nrecs != DMG_RECORDS - ref_idx[chunk].nrecords;
	/* The error names the chunk's offset (or the damaged range). */
	char where[32];
	snprintf(where, sizeof(where), "%llu", (unsigned long long)ref_idx[chunk].offset);
	bad |= !strstr(t.lasterr, where);
	for (size_t i = 0; i < t.nrecs; i++) /* ids of intact chunks only */
		bad |= t.ids[i] >= DMG_RECORDS;
	if (bad && (*fails)++ < 5)
		fprintf(stderr,
			"flip at %zu (chunk %zu, footer %d): %zu records, %zu errors, "
			"last: %s\n",
			off, chunk, footer, t.nrecs, t.nerrors, t.lasterr);
	tf_read_free(&t);
	sonde_reader_close(r);
out:
	if (bad && *fails == 0)
		(*fails)++;
	free(buf);
}

TEST(corrupt_chunks)
{
	uint64_t seed = 5;
	int fails = 0;

	for (size_t c = 0; c < ref_nidx; c++) {
		const struct sonde_index_entry *e = &ref_idx[c];

		for (int footer = 0; footer < 2; footer++) {
			for (int k = 0; k < 4; k++) {
				/* Header bytes, then payload bytes. */
				check_flip(c, e->offset + tf_rand(&seed) % 64, footer, &fails);
				check_flip(c, e->offset + 64 + tf_rand(&seed) % e->comp_len, footer,
					   &fails);
			}
		}
	}
	CHECK_EQ_INT(fails, 0);
}

/* A chunk of a kind this reader does not know is skipped silently. */
TEST(unknown_chunk_kind)
{
	uint8_t *buf = malloc(ref_size);
	const struct sonde_index_entry *e = &ref_idx[2];
	struct sonde_chunk_hdr h;
	struct sonde_reader *r;
	struct tf_read t;
	char err[256];

	memcpy(buf, ref, ref_size);
	memcpy(&h, buf + e->offset, sizeof(h));
	h.kind = SONDE_CHUNK_PAYLOAD;
	h.hdr_crc = sonde_crc32(&h, offsetof(struct sonde_chunk_hdr, hdr_crc));
	memcpy(buf + e->offset, &h, sizeof(h));
	/* Without the footer: the index would disagree with the header. */
	CHECK_EQ_INT(sonde_reader_open_mem(&r, buf, ref_index_off, err, sizeof(err)), 0);
	if (r) {
		tf_read_all(r, &t, 4 * DMG_RECORDS);
		CHECK_EQ_INT(t.nerrors, 0);
		CHECK_EQ_INT(t.nrecs, DMG_RECORDS - e->nrecords);
		tf_read_free(&t);
		sonde_reader_close(r);
	}
	free(buf);
}

/* The reader survives random bytes: alone, after a valid header, and
 * overwriting parts of a valid trace. Sanitizers catch the rest. */
TEST(random_bytes)
{
	uint64_t seed = 1234;
	uint8_t *buf = malloc(ref_size);
	int weird = 0;

	for (int iter = 0; iter < 600; iter++) {
		size_t len = tf_rand(&seed) % ref_size, start = 0, end = len;
		struct sonde_reader *r;
		struct tf_read t;
		char err[256];

		memcpy(buf, ref, ref_size);
		if (iter % 3 == 1) /* a valid header, then noise */
			start = ref_idx[0].offset;
		if (iter % 3 == 2) { /* a 4 KiB hole of noise in a valid trace */
			start = tf_rand(&seed) % ref_size;
			end = start + 4096 < ref_size ? start + 4096 : ref_size;
			len = ref_size;
		}
		for (size_t i = start; i < end; i++)
			buf[i] = (uint8_t)tf_rand(&seed);
		if (sonde_reader_open_mem(&r, buf, len, err, sizeof(err))) {
			weird |= !err[0];
			continue;
		}
		tf_read_all(r, &t, 4 * DMG_RECORDS);
		weird |= t.nrecs > DMG_RECORDS;
		tf_read_free(&t);
		sonde_reader_close(r);
	}
	CHECK_EQ_INT(weird, 0);
	free(buf);
}

/* Fill a 256 KiB tmpfs: the error comes back, complete chunks stay
 * readable, the reader says the file is truncated. */
static void disk_full(int threads)
{
	struct sonde_writer_opts o = { .threads = threads, .chunk_bytes = 64 << 10 };
	struct sonde_meta m = tf_meta();
	struct sonde_writer_stats ws;
	struct sonde_reader *r;
	struct sonde_writer *w;
	const char *dir = tf_path("full"), *path = tf_path("full/t.sonde");
	uint64_t seed = 3;
	struct tf_read t;
	char err[256];
	uint32_t i;
	int e = 0, e2;

	CHECK_EQ_INT(mkdir(dir, 0700), 0);
	if (mount("sonde-test", dir, "tmpfs", 0, "size=256k")) {
		perror("mount tmpfs");
		CHECK(0);
		return;
	}
	CHECK_EQ_INT(sonde_writer_open(&w, path, &m, &o, err, sizeof(err)), 0);
	for (i = 0; i < 10000000 && !e; i++) {
		struct sonde_ev_syscall s;

		tf_syscall(&s, 1000 + i, 1, 0, i);
		s.args[1] = tf_rand(&seed); /* incompressible */
		s.args[2] = tf_rand(&seed);
		e = sonde_writer_append(w, 0, &s.hdr);
	}
	if (!e)
		e = sonde_writer_flush(w);
	sonde_writer_stats(w, &ws);
	e2 = sonde_writer_close(w);
	CHECK(e == -ENOSPC);
	CHECK(e2 == -ENOSPC);
	CHECK(ws.chunks > 0);
	CHECK_EQ_INT(sonde_reader_open(&r, path, err, sizeof(err)), 0);
	if (r) {
		struct sonde_reader_stats rs;

		CHECK(sonde_reader_truncated(r));
		tf_read_all(r, &t, 10000000);
		sonde_reader_stats(r, &rs);
		CHECK_EQ_INT(t.nerrors, 0);
		CHECK_EQ_INT(rs.chunks, ws.chunks);
		CHECK(t.nrecs > 0);
		for (size_t k = 0; k < t.nrecs; k++) /* a prefix of what was appended */
			if (t.ids[k] != k) {
				CHECK_EQ_INT(t.ids[k], k);
				break;
			}
		printf("# disk full (threads %d): error after %u records, %zu readable in %llu "
		       "chunks\n",
		       threads, i, t.nrecs, (unsigned long long)ws.chunks);
		tf_read_free(&t);
		sonde_reader_close(r);
	}
	CHECK_EQ_INT(umount(dir), 0);
	rmdir(dir);
}

TEST(disk_full_inline)
{
	disk_full(0);
}

TEST(disk_full_threads)
{
	disk_full(2);
}

int main(void)
{
	int ok = ref_build() == 0;

	printf("%s - build reference trace\n", ok ? "ok" : "not ok");
	if (!ok)
		return 1;
	RUN(truncated);
	RUN(corrupt_chunks);
	RUN(unknown_chunk_kind);
	RUN(random_bytes);
	if (geteuid() == 0) {
		RUN(disk_full_inline);
		RUN(disk_full_threads);
	} else {
		printf("ok - disk_full # skipped, not root\n");
	}
	free(ref);
	tf_cleanup();
	CHECK_EXIT();
}
