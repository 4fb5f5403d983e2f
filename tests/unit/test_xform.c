// SPDX-License-Identifier: GPL-2.0
/*
 * The chunk transforms (src/format/xform.c): transform 2 round trips every
 * shape of record; transform 1 chunks written by older versions still
 * decode (checked against a reference encoder written here from
 * docs/format.md); grouping by syscall turns repeated arguments into
 * zero columns; malformed tags are refused.
 */
#include <errno.h>
#include <stdlib.h>

#include <linux/types.h>
#include <sonde/events.h>

#include "check.h"
#include "format/layout.h"
#include "format/xform.h"

#define MAXRAW 65536

static uint8_t raw[MAXRAW], dec[MAXRAW], enc[MAXRAW * 2];
static uint64_t scratch[MAXRAW / 8];

static size_t add(size_t off, uint16_t type, uint16_t size, uint64_t ts, uint32_t tid)
{
	struct sonde_hdr *h = (struct sonde_hdr *)(raw + off);

	memset(raw + off, 0, size);
	*h = (struct sonde_hdr){ .ts = ts, .pid = 100, .tid = tid, .type = type, .size = size };
	for (unsigned int i = sizeof(*h); i < size; i++)
		raw[off + i] = (uint8_t)(i * 7 + ts);
	return off + size;
}

static size_t add_syscall(size_t off, uint32_t nr, uint64_t ts, uint64_t dur, int64_t ret,
			  uint64_t a0)
{
	struct sonde_ev_syscall r = {
		.hdr = { .ts = ts, .pid = 100, .tid = 101, .type = SONDE_REC_SYSCALL,
			 .size = sizeof(r) },
		.ret = ret, .dur = dur, .args = { a0, 0x7ffd0000, 64, 0, 0, 0 }, .nr = nr,
	};

	memcpy(raw + off, &r, sizeof(r));
	return off + sizeof(r);
}

/*
 * A chunk with every shape the decoder must handle. Without short_sc, no
 * syscall record is shorter than struct sonde_ev_syscall (the encoder's
 * fast path, xform.c's encode_syscall) and some are longer (a tail).
 */
static size_t mixed_chunk(size_t *nrec, int short_sc)
{
	size_t off = 0, n = 0;
	uint64_t ts = 1000;

	for (int i = 0; i < 60; i++, n++, ts += 900) {
		switch (i % 6) {
		case 0: off = add_syscall(off, 0, ts, 300, 64, 3); break;
		case 1: off = add_syscall(off, 1, ts, 250, 64, 4); break;
		case 2: off = add_syscall(off, 257 + 512 * (i % 4), ts, 2000, -2, 0xffffff9c); break;
		case 3: off = add(off, SONDE_REC_SWITCH, 80, ts - 500, 101); break; /* out of order */
		case 4: off = add(off, SONDE_REC_EXEC, 72 + 8 * (i % 3), ts, 101); break; /* tails */
		case 5: /* i % 12 is 5 or 11: a syscall record short or with a tail, or an unknown type */
			if (i % 12 == 11)
				off = add(off, 40, 24, ts, 102);
			else
				off = add(off, SONDE_REC_SYSCALL, short_sc ? 24 : 112, ts, 102);
			break;
		}
	}
	*nrec = n;
	return off;
}

static void v2_round_trip(int short_sc)
{
	struct xform_state *st = xform_state_new();
	const char *why = NULL;
	size_t nrec, len = mixed_chunk(&nrec, short_sc), n;

	CHECK(st != NULL);
	n = xform_encode(raw, len, enc, scratch, st);
	CHECK(n <= xform_bound(len, nrec));
	CHECK_EQ_INT(xform_decode(SONDE_XFORM_COLUMNS2, enc, n, nrec, dec, len, scratch, st, &why),
		     0);
	CHECK(memcmp(raw, dec, len) == 0);
	/* The same bytes read as transform 1 do not add up: the bucket varints
	 * are taken for record tags. */
	CHECK_EQ_INT(xform_decode(SONDE_XFORM_COLUMNS, enc, n, nrec, dec, len, scratch, st, &why),
		     -EBADMSG);
	xform_state_free(st);
}

TEST(v2_round_trip_short_syscalls)
{
	v2_round_trip(1);
}

TEST(v2_round_trip_full_syscalls)
{
	v2_round_trip(0);
}

/* Transform 1 as docs/format.md defines it, for records of up to 12 fixed
 * words and no tails (enough for a chunk of syscall and wakeup records). */
static size_t v1_reference_encode(const uint8_t *r, size_t len, size_t nrec, uint8_t *out)
{
	static const unsigned int words[16] = { [1] = 12, [3] = 5 };
	static uint64_t col[16][12][64];
	size_t cnt[16][12] = { { 0 } }, o = 0;
	uint64_t prev[16][12] = { { 0 } }, prev_ts = 0;

	for (size_t off = 0; off < len;) {
		const struct sonde_hdr *h = (const void *)(r + off);

		out[o++] = (uint8_t)h->type;
		out[o++] = (uint8_t)(h->size / 8);
		for (unsigned int j = 0; j < words[h->type]; j++) {
			uint64_t v, e;

			memcpy(&v, r + off + 8 * j, 8);
			if (j == 0) {
				e = v - prev_ts;
				e = (e << 1) ^ (uint64_t)((int64_t)e >> 63);
				prev_ts = v;
			} else {
				e = v ^ prev[h->type][j];
				prev[h->type][j] = v;
			}
			col[h->type][j][cnt[h->type][j]++] = e;
		}
		off += h->size;
	}
	for (int s = 0; s < 16; s++)
		for (int j = 0; j < 12; j++)
			for (int b = 0; b < 8; b++)
				for (size_t i = 0; i < cnt[s][j]; i++)
					out[o++] = (uint8_t)(col[s][j][i] >> (8 * b));
	(void)nrec;
	return o;
}

TEST(v1_still_decodes)
{
	struct xform_state *st = xform_state_new();
	size_t off = 0, nrec = 0, n;
	const char *why = NULL;

	for (int i = 0; i < 40; i++, nrec++)
		off = i % 4 == 3 ? add(off, SONDE_REC_WAKEUP, 40, 5000 + 100 * i, 7)
				 : add_syscall(off, (uint32_t)(i % 3), 5000 + 100 * i, 40, i, 3);
	n = v1_reference_encode(raw, off, nrec, enc);
	CHECK_EQ_INT(xform_decode(SONDE_XFORM_COLUMNS, enc, n, nrec, dec, off, scratch, st, &why),
		     0);
	CHECK(memcmp(raw, dec, off) == 0);
	xform_state_free(st);
}

/*
 * Interleaved read/write/openat with constant arguments: in transform 2
 * every argument column is zero after the first record of each syscall,
 * and the time stamps are the gaps between calls.
 */
TEST(v2_groups_by_syscall)
{
	struct xform_state *st = xform_state_new();
	size_t off = 0, nrec = 0, n, zeros = 0;
	uint64_t ts = 10000;

	for (int i = 0; i < 300; i++, nrec++) {
		static const uint32_t nr[3] = { 0, 1, 257 };
		static const uint64_t fd[3] = { 3, 4, 0xffffff9c };

		off = add_syscall(off, nr[i % 3], ts, 200, i % 3 == 2 ? 5 : 64, fd[i % 3]);
		ts += 200 + 30; /* 30 ns in user space between calls */
	}
	n = xform_encode(raw, off, enc, scratch, st);
	for (size_t i = 0; i < n; i++)
		zeros += enc[i] == 0;
	/* Non-zero bytes: tags (type, size, bucket: at most 4 bytes), the
	 * first record of each syscall, ts gaps (30 -> zigzag 60) and
	 * durations (200), one byte each. Transform 1 would add the changing
	 * fd, ret and nr of every record (5+ bytes each). */
	CHECK(n - zeros <= 4 * nrec + 3 * 96 + 2 * nrec);
	xform_state_free(st);
}

TEST(malformed_bucket)
{
	struct xform_state *st = xform_state_new();
	const char *why = NULL;
	uint8_t bad[16] = { 1, 12, 0x80, 0x04 }; /* bucket 512 */

	CHECK_EQ_INT(xform_decode(SONDE_XFORM_COLUMNS2, bad, sizeof(bad), 1, dec, 96, scratch, st,
				  &why),
		     -EBADMSG);
	CHECK(why && strstr(why, "tag"));
	xform_state_free(st);
}

int main(void)
{
	RUN(v2_round_trip_short_syscalls);
	RUN(v2_round_trip_full_syscalls);
	RUN(v1_still_decodes);
	RUN(v2_groups_by_syscall);
	RUN(malformed_bucket);
	return check_any_failed_;
}
