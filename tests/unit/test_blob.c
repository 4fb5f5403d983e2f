// SPDX-License-Identifier: GPL-2.0
/*
 * The payload store (docs/format.md, "Payload store"): BLAKE2b against
 * known answers, content-defined cutting, and traces whose payloads go
 * through the writer's deduplication and come back from the reader byte
 * for byte: across streams and call sizes, with compression threads,
 * truncated, with a damaged blob chunk and with a blob missing.
 */
#include <fcntl.h>
#include <sys/stat.h>

#include "test_format_util.h"
#include <sonde/payload.h>
#include "format/blake2b.h"
#include "format/cdc.h"
#include "format/layout.h"

static void hex(char *s, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sprintf(s + 2 * i, "%02x", p[i]);
}

TEST(blake2b_vectors)
{
	static const char abc512[] =
		"ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
		"7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923";
	uint8_t out[64], big[1000], step[16];
	char s[129];
	struct blake2b st;

	/* RFC 7693, appendix A. */
	blake2b(out, 64, "abc", 3);
	hex(s, out, 64);
	CHECK_EQ_STR(s, abc512);
	/* BLAKE2b-128, as computed by Python's hashlib.blake2b(digest_size=16)
	 * and b2sum -l 128. */
	blake2b(out, 16, "abc", 3);
	hex(s, out, 16);
	CHECK_EQ_STR(s, "cf4ab791c62b8d2b2109c90275287816");
	blake2b(out, 16, "", 0);
	hex(s, out, 16);
	CHECK_EQ_STR(s, "cae66941d9efbd404e4d88758ea67670");
	for (int i = 0; i < 1000; i++)
		big[i] = (uint8_t)i;
	blake2b(out, 16, big, 128); /* exactly one block */
	hex(s, out, 16);
	CHECK_EQ_STR(s, "a74787004ef589e31149183900d0294a");
	blake2b(out, 16, big, 1000);
	hex(s, out, 16);
	CHECK_EQ_STR(s, "978a3f8b45508a42fe7f0f99caf2c423");
	/* Fed in uneven pieces: the same digest. */
	blake2b_init(&st, 16);
	for (size_t off = 0, k = 1; off < 1000; off += k, k = k * 3 % 257 + 1)
		blake2b_update(&st, big + off, off + k > 1000 ? 1000 - off : k);
	blake2b_final(&st, step);
	CHECK(!memcmp(step, out, 16));
}

/* Pieces of data as (offset, length) pairs. */
static size_t cut_all(const uint8_t *p, size_t n, uint32_t *len, size_t max)
{
	size_t k = 0;

	for (size_t off = 0; off < n && k < max; k++) {
		len[k] = (uint32_t)cdc_cut(p + off, n - off);
		off += len[k];
	}
	return k;
}

TEST(cdc_content_defined)
{
	enum { N = 1 << 20, SHIFT = 777 };
	uint8_t *a = malloc(N + SHIFT);
	uint32_t la[1024], lb[1024];
	uint64_t seed = 42, same = 0, total = 0;
	size_t na, nb, off;

	for (size_t i = 0; i < N + SHIFT; i++)
		a[i] = (uint8_t)tf_rand(&seed);
	na = cut_all(a + SHIFT, N, la, 1024);
	nb = cut_all(a, N + SHIFT, lb, 1024);
	CHECK(na > N / CDC_MAX && na < N / CDC_MIN);
	for (size_t i = 0; i + 1 < na; i++)
		CHECK(la[i] >= CDC_MIN && la[i] <= CDC_MAX);
	/* The same bytes shifted by SHIFT are cut at the same places once
	 * the first cut is behind: count bytes of pieces both share. */
	off = SHIFT;
	for (size_t i = 0, j = 0, pa = SHIFT, pb = 0; i < na && j < nb;) {
		if (pa == pb && la[i] == lb[j])
			same += la[i];
		if (pa + la[i] <= pb + lb[j])
			pa += la[i++];
		else
			pb += lb[j++];
	}
	for (size_t i = 0; i < na; i++)
		total += la[i];
	CHECK_EQ_INT(total, N);
	printf("# cdc: %zu pieces of 1 MiB (avg %zu), %.1f%% shared after a %d-byte shift\n", na,
	       (size_t)N / na, 100.0 * same / N, SHIFT);
	CHECK(same > N * 95 / 100);
	(void)off;
	free(a);
}

/*
 * A workload in the spirit of tar | cat: data read in 9728-byte calls
 * (stream 0), written after a 512-byte header in 10240-byte calls
 * (stream 1), then read and written again in 65536-byte calls (stream 2),
 * each call also with a small path payload kept inline.
 */
#define DATA_LEN (600 << 10)
#define MAX_CALLS 512

struct call {
	uint64_t ts;
	uint32_t tid, len;
	const uint8_t *data;
};

struct work {
	uint8_t *data, *stream; /* data; header + data */
	struct call calls[MAX_CALLS];
	size_t ncalls;
	uint64_t captured;
};

/* Appends one payload the way bpf/capture.bpf.h emits it: records of at
 * most SONDE_PL_CHUNK bytes with their offsets. */
static int put_payload(struct sonde_writer *w, unsigned int stream, uint64_t ts, uint32_t tid,
		       uint8_t arg, uint8_t flags, const uint8_t *data, uint32_t len)
{
	static uint8_t buf[sizeof(struct sonde_ev_payload) + SONDE_PL_CHUNK];
	struct sonde_ev_payload *p = (void *)buf;

	for (uint32_t off = 0; off < len; off += SONDE_PL_CHUNK) {
		uint32_t n = len - off < SONDE_PL_CHUNK ? len - off : SONDE_PL_CHUNK;
		int e;

		memset(buf, 0, sizeof(*p) + sonde_align8(n));
		tf_hdr(&p->hdr, SONDE_REC_PAYLOAD, (uint16_t)sonde_align8(sizeof(*p) + n), ts, tid,
		       (uint16_t)stream);
		p->addr = 0x7f0000000000ull + arg;
		p->requested = p->returned = p->captured = len;
		p->offset = off;
		p->chunk = n;
		p->nr = 1;
		p->arg = arg;
		p->phase = 1;
		p->flags = flags;
		memcpy(buf + sizeof(*p), data + off, n);
		e = sonde_writer_append(w, stream, &p->hdr);
		if (e)
			return e;
	}
	return 0;
}

static const char path[] = "/usr/include/linux/some/header/file.h";

static void work_call(struct work *wk, struct sonde_writer *w, unsigned int stream, uint32_t tid,
		      const uint8_t *data, uint32_t len)
{
	struct call *c = &wk->calls[wk->ncalls];
	struct sonde_ev_syscall sc;

	if (wk->ncalls == MAX_CALLS)
		abort();
	*c = (struct call){ .ts = 1000 + 10 * wk->ncalls++, .tid = tid, .len = len, .data = data };
	CHECK_EQ_INT(put_payload(w, stream, c->ts, tid, 0, SONDE_PLR_STRING | SONDE_PLR_NUL,
				 (const uint8_t *)path, sizeof(path) - 1),
		     0);
	CHECK_EQ_INT(put_payload(w, stream, c->ts, tid, 1, 0, data, len), 0);
	tf_syscall(&sc, c->ts, tid, 1, wk->ncalls);
	CHECK_EQ_INT(sonde_writer_append(w, stream, &sc.hdr), 0);
	wk->captured += len + sizeof(path) - 1;
}

static void work_calls(struct work *wk, struct sonde_writer *w, unsigned int stream, uint32_t tid,
		       const uint8_t *data, size_t len, uint32_t call)
{
	for (size_t off = 0; off < len; off += call)
		work_call(wk, w, stream, tid, data + off,
			  (uint32_t)(len - off < call ? len - off : call));
}

static void work_init(struct work *wk)
{
	uint64_t seed = 7;

	memset(wk, 0, sizeof(*wk));
	wk->stream = malloc(DATA_LEN + 512);
	if (!wk->stream)
		abort();
	wk->data = wk->stream + 512;
	/* Text-like bytes: compressible, but no long repeats. */
	for (size_t i = 0; i < DATA_LEN + 512; i++)
		wk->stream[i] = (uint8_t)("etaoin shrdlu\n{};()"[tf_rand(&seed) % 19]);
}

static void work_write(struct work *wk, const char *path_, const struct sonde_writer_opts *o,
		       struct sonde_writer_stats *st)
{
	struct sonde_meta m = tf_meta();
	struct sonde_writer *w;
	char err[256];

	CHECK_EQ_INT(sonde_writer_open(&w, path_, &m, o, err, sizeof(err)), 0);
	work_calls(wk, w, 0, 10, wk->data, DATA_LEN, 9728);
	work_calls(wk, w, 1, 11, wk->stream, DATA_LEN + 512, 10240);
	work_calls(wk, w, 2, 21, wk->stream, DATA_LEN + 512, 65536);
	work_calls(wk, w, 2, 22, wk->stream, DATA_LEN + 512, 65536);
	CHECK_EQ_INT(sonde_writer_flush(w), 0);
	sonde_writer_stats(w, st);
	CHECK_EQ_INT(sonde_writer_close(w), 0);
}

static const struct call *call_find(const struct work *wk, uint64_t ts)
{
	size_t i = (ts - 1000) / 10;

	return ts >= 1000 && i < wk->ncalls && wk->calls[i].ts == ts ? &wk->calls[i] : NULL;
}

/* What reading the trace back gave, payload by payload. */
struct verdict {
	size_t good, bad, missing, strings, errors;
	char lasterr[512];
};

static struct verdict work_verify(const struct work *wk, const char *path_, int *truncated)
{
	uint8_t *got = calloc(wk->ncalls, 1);
	struct verdict v = { 0 };
	const struct sonde_hdr *h;
	struct sonde_reader *r;
	char err[256];
	int n;

	if (sonde_reader_open(&r, path_, err, sizeof(err))) {
		fprintf(stderr, "open: %s\n", err);
		v.bad = 1;
		free(got);
		return v;
	}
	*truncated = sonde_reader_truncated(r);
	while ((n = sonde_reader_next(r, &h)) != 0) {
		const struct sonde_ev_payload *p = (const void *)h;
		const struct call *c;

		if (n < 0) {
			v.errors++;
			snprintf(v.lasterr, sizeof(v.lasterr), "%s", sonde_reader_error(r));
			continue;
		}
		CHECK(h->type != SONDE_REC_PLREF);
		if (h->type != SONDE_REC_PAYLOAD)
			continue;
		CHECK_EQ_INT(sonde_rec_check(h, h->size), 0);
		c = call_find(wk, h->ts);
		if (p->flags & SONDE_PLR_MISSING) {
			v.missing++;
			continue;
		}
		if (p->arg == 0) {
			v.strings += p->chunk == sizeof(path) - 1 &&
				     !memcmp(p + 1, path, sizeof(path) - 1);
			continue;
		}
		if (c && p->captured == c->len && p->offset + (uint64_t)p->chunk <= c->len &&
		    !memcmp(p + 1, c->data + p->offset, p->chunk))
			v.good += p->chunk;
		else
			v.bad++;
	}
	sonde_reader_close(r);
	free(got);
	return v;
}

static uint64_t work_data(const struct work *wk)
{
	uint64_t n = 0;

	for (size_t i = 0; i < wk->ncalls; i++)
		n += wk->calls[i].len;
	return n;
}

static void store_roundtrip(const struct sonde_writer_opts *o, const char *name)
{
	struct sonde_writer_stats st;
	struct verdict v;
	struct work wk;
	int trunc = -1;

	work_init(&wk);
	work_write(&wk, tf_path(name), o, &st);
	CHECK_EQ_INT(st.payload_bytes, wk.captured);
	printf("# %s: %llu payload bytes captured, %llu stored in %llu blobs (dedup %.2fx), "
	       "%llu on disk\n",
	       name, (unsigned long long)st.payload_bytes, (unsigned long long)st.payload_stored,
	       (unsigned long long)st.payload_blobs, (double)st.payload_bytes / st.payload_stored,
	       (unsigned long long)st.payload_file_bytes);
	/* 4 copies of the data went in, the last two identical call for
	 * call, the first two cut at 9728 and 10240 bytes and shifted by
	 * 512: pieces that straddle a call boundary on either side repeat,
	 * the others are stored once (about 1.9x here; real tar | cat, whose
	 * reads and writes align better, dedups over 4x). */
	CHECK(st.payload_stored * 7 < st.payload_bytes * 4);
	v = work_verify(&wk, tf_path(name), &trunc);
	CHECK_EQ_INT(trunc, 0);
	CHECK_EQ_INT(v.errors, 0);
	CHECK_EQ_INT(v.bad, 0);
	CHECK_EQ_INT(v.missing, 0);
	CHECK_EQ_INT(v.good, work_data(&wk));
	CHECK_EQ_INT(v.strings, wk.ncalls);
	free(wk.stream);
}

TEST(store_roundtrip_dedup)
{
	store_roundtrip(&(struct sonde_writer_opts){ 0 }, "inline.trace");
}

/* Several threads race for the same blobs on 64 KiB chunks: every
 * reference still resolves (no reference precedes its blob). */
TEST(store_threads)
{
	store_roundtrip(&(struct sonde_writer_opts){ .threads = 3, .chunk_bytes = 64 << 10 },
			"threads.trace");
}

/* Offset of the first chunk of a kind, walking chunk headers. */
static uint64_t chunk_find(const uint8_t *f, size_t len, uint16_t kind, uint32_t *comp_len)
{
	const struct sonde_file_hdr *fh = (const void *)f;
	uint64_t off = fh->hdr_len;

	while (off + sizeof(struct sonde_chunk_hdr) <= len) {
		struct sonde_chunk_hdr h;

		memcpy(&h, f + off, sizeof(h));
		if (h.magic != SONDE_CHUNK_MAGIC)
			break;
		if (h.kind == kind) {
			*comp_len = h.comp_len;
			return off;
		}
		off = sonde_align8(off + h.hdr_len + h.comp_len);
	}
	return 0;
}

static void file_put(const char *p, const uint8_t *buf, size_t len)
{
	FILE *f = fopen(p, "wb");

	CHECK(f && fwrite(buf, 1, len, f) == len);
	if (f)
		fclose(f);
}

/* The footer cut off, as a killed recorder leaves it: the blob index is
 * rebuilt by scanning the PAYLOAD chunks. */
TEST(store_truncated)
{
	struct sonde_writer_stats st;
	struct sonde_trailer t;
	struct verdict v;
	struct work wk;
	uint8_t *f;
	size_t len;
	int trunc = 0;

	work_init(&wk);
	work_write(&wk, tf_path("full.trace"), &(struct sonde_writer_opts){ 0 }, &st);
	f = tf_slurp(tf_path("full.trace"), &len);
	CHECK(f != NULL);
	if (!f)
		return;
	memcpy(&t, f + len - sizeof(t), sizeof(t));
	file_put(tf_path("cut.trace"), f, t.index_off);
	v = work_verify(&wk, tf_path("cut.trace"), &trunc);
	CHECK_EQ_INT(trunc, 1);
	CHECK_EQ_INT(v.bad, 0);
	CHECK_EQ_INT(v.missing, 0);
	CHECK_EQ_INT(v.good, work_data(&wk));
	free(f);
	free(wk.stream);
}

/* A byte flipped inside the first PAYLOAD chunk: that chunk is reported
 * corrupt, the payloads that need its blobs come back flagged missing,
 * with an error naming the blob; all others are intact. */
static void damaged(int kill_header)
{
	struct sonde_writer_stats st;
	struct sonde_trailer t;
	struct verdict v;
	struct work wk;
	uint32_t comp = 0;
	uint64_t off;
	uint8_t *f;
	size_t len;
	int trunc;

	work_init(&wk);
	work_write(&wk, tf_path("d.trace"), &(struct sonde_writer_opts){ 0 }, &st);
	f = tf_slurp(tf_path("d.trace"), &len);
	CHECK(f != NULL);
	if (!f)
		return;
	off = chunk_find(f, len, SONDE_CHUNK_PAYLOAD, &comp);
	CHECK(off != 0 && comp > 64);
	if (kill_header) {
		/* Gone: the header is garbage, and without the footer nothing
		 * else says a chunk was there. */
		memset(f + off, 0, sizeof(struct sonde_chunk_hdr));
		memcpy(&t, f + len - sizeof(t), sizeof(t));
		len = t.index_off;
	} else {
		f[off + sizeof(struct sonde_chunk_hdr) + comp / 2] ^= 0x40;
	}
	file_put(tf_path("d2.trace"), f, len);
	v = work_verify(&wk, tf_path("d2.trace"), &trunc);
	printf("# %s: %zu payloads missing, %zu errors, last: %s\n",
	       kill_header ? "missing" : "corrupt", v.missing, v.errors, v.lasterr);
	CHECK(v.missing > 0);
	CHECK(v.errors >= v.missing);
	CHECK(strstr(v.lasterr, "blob") != NULL);
	CHECK(strstr(v.lasterr, kill_header ? "not in the trace" : "damaged") != NULL);
	CHECK_EQ_INT(v.bad, 0);
	CHECK(v.good > 0 && v.good < work_data(&wk));
	CHECK_EQ_INT(v.strings, wk.ncalls);
	free(f);
	free(wk.stream);
}

TEST(store_corrupt_blob_chunk)
{
	damaged(0);
}

TEST(store_missing_blob)
{
	damaged(1);
}

/* The reader's view of the store agrees with the writer's. */
TEST(store_reader_stats)
{
	struct sonde_reader_payload_stats ps;
	struct sonde_writer_stats st;
	const struct sonde_hdr *h;
	struct sonde_reader *r;
	struct work wk;
	char err[256];

	work_init(&wk);
	work_write(&wk, tf_path("s.trace"), &(struct sonde_writer_opts){ 0 }, &st);
	CHECK_EQ_INT(sonde_reader_open(&r, tf_path("s.trace"), err, sizeof(err)), 0);
	while (sonde_reader_next(r, &h) > 0)
		;
	CHECK_EQ_INT(sonde_reader_payload_stats(r, &ps), 0);
	CHECK_EQ_INT(ps.bytes, st.payload_bytes);
	CHECK_EQ_INT(ps.blobs, st.payload_blobs);
	CHECK_EQ_INT(ps.blob_bytes + ps.inline_bytes, st.payload_stored);
	CHECK_EQ_INT(ps.file_bytes, st.payload_file_bytes);
	CHECK_EQ_INT(ps.missing, 0);
	sonde_reader_close(r);
	free(wk.stream);
}

/*
 * Payloads of one length that agree on the bytes the caches' probe key
 * samples (head, middle, tail) but differ elsewhere, alternating, so that
 * every lookup after the first finds a candidate with the same key: each
 * must still read back as its own bytes (memcmp decides, not the key).
 */
TEST(store_probe_key_twins)
{
	enum { LEN = 60000, TWINS = 4 };
	struct sonde_writer_stats st;
	struct sonde_meta m = tf_meta();
	struct sonde_writer *w;
	struct verdict v;
	struct work wk;
	uint8_t *twin[TWINS];
	char err[256];
	int trunc = -1;

	work_init(&wk);
	for (int i = 0; i < TWINS; i++) {
		twin[i] = malloc(LEN);
		if (!twin[i])
			abort();
		memcpy(twin[i], wk.data, LEN);
		/* Outside the samples: [0,256), [LEN/2-128,LEN/2+128), [LEN-256,LEN) */
		twin[i][1000] = (uint8_t)('A' + i);
		twin[i][LEN / 2 + 5000] = (uint8_t)('a' + i);
	}
	CHECK_EQ_INT(sonde_writer_open(&w, tf_path("twins.trace"), &m, NULL, err, sizeof(err)), 0);
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < TWINS; i++)
			work_call(&wk, w, 0, 10, twin[i], LEN);
	CHECK_EQ_INT(sonde_writer_flush(w), 0);
	sonde_writer_stats(w, &st);
	CHECK_EQ_INT(sonde_writer_close(w), 0);
	v = work_verify(&wk, tf_path("twins.trace"), &trunc);
	CHECK_EQ_INT(v.errors, 0);
	CHECK_EQ_INT(v.bad, 0);
	CHECK_EQ_INT(v.missing, 0);
	CHECK_EQ_INT(v.good, work_data(&wk));
	/* The twins' common pieces are stored once: well under 2 copies. */
	CHECK(st.payload_stored < 2 * LEN);
	for (int i = 0; i < TWINS; i++)
		free(twin[i]);
	free(wk.stream);
}

int main(void)
{
	RUN(blake2b_vectors);
	RUN(cdc_content_defined);
	RUN(store_roundtrip_dedup);
	RUN(store_threads);
	RUN(store_probe_key_twins);
	RUN(store_truncated);
	RUN(store_corrupt_blob_chunk);
	RUN(store_missing_blob);
	RUN(store_reader_stats);
	tf_cleanup();
	CHECK_EXIT();
}
