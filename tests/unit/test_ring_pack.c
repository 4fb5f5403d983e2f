// SPDX-License-Identifier: GPL-2.0
/*
 * Packed syscall records (include/sonde/ring_pack.h): the packer the BPF
 * program runs, fed batches of records the way sys_exit feeds it, and the
 * consumer's unpacker (src/record/rec_pack.c) must give back every field
 * of every record; sizes must be what the loop's records cost; records
 * whose size does not add up are refused.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "record/rec_pack.h"

/* A batch as the kernel fills it: records appended until the next might
 * not fit, prev reset when it is written out. */
struct batch {
	struct sonde_pack_prev prev;
	_Alignas(8) uint8_t recs[SONDE_BATCH_BYTES];
	size_t len;
};

static size_t batch_add(struct batch *b, const struct sonde_ev_syscall *r)
{
	size_t size = sonde_sc_pack(&b->prev, (void *)(b->recs + b->len), r->hdr.pid, r->hdr.tid,
				    r->nr, r->hdr.ts, r->dur, r->ret, r->args, r->hdr.flags);

	b->len += size;
	return size;
}

static int same(const struct sonde_ev_syscall *a, const struct sonde_ev_syscall *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* Unpacks the batch and compares it with want[0..n). */
static void batch_check(const struct batch *b, const struct sonde_ev_syscall *want, size_t n)
{
	struct sonde_pack_prev prev;
	struct sonde_ev_syscall got;
	size_t off = 0, i = 0;

	memset(&prev, 0, sizeof(prev));
	while (off < b->len) {
		const struct sonde_ring_sc *p = (const void *)(b->recs + off);

		CHECK_EQ_INT(p->type, SONDE_RING_SC);
		CHECK(p->size % 8 == 0 && p->size <= SONDE_BATCH_REC_MAX);
		CHECK_EQ_INT(rec_unpack_sc(&prev, p, b->len - off, 3, &got), 0);
		CHECK(i < n && same(&got, &want[i]));
		off += p->size;
		i++;
	}
	CHECK_EQ_INT(i, n);
}

/* Appends r as sys_exit would: a batch without room for the largest
 * record is written out (here: checked against want) and starts empty. */
static void batch_push(struct batch *b, struct sonde_ev_syscall *want, size_t *n,
		       const struct sonde_ev_syscall *r)
{
	if (b->len + SONDE_BATCH_REC_MAX > SONDE_BATCH_BYTES) {
		batch_check(b, want, *n);
		memset(b, 0, sizeof(*b));
		*n = 0;
	}
	want[(*n)++] = *r;
	batch_add(b, r);
}

static struct sonde_ev_syscall sc(uint32_t pid, uint32_t tid, uint32_t nr, uint64_t ts,
				  uint64_t dur, int64_t ret)
{
	struct sonde_ev_syscall r;

	memset(&r, 0, sizeof(r));
	r.hdr.ts = ts;
	r.hdr.pid = pid;
	r.hdr.tid = tid;
	r.hdr.type = SONDE_REC_SYSCALL;
	r.hdr.size = sizeof(r);
	r.hdr.cpu = 3;
	r.ret = ret;
	r.dur = dur;
	r.nr = nr;
	return r;
}

/* bench/loop's calls: after the batch's first, 32 bytes each. */
TEST(loop_records_are_small)
{
	struct sonde_ev_syscall want[27];
	struct batch b;
	size_t size;

	memset(&b, 0, sizeof(b));
	for (int i = 0; i < 27; i++) {
		want[i] = sc(700, 700, i % 2, 65622465191920ull + 280 * i, 110, 64);
		want[i].args[0] = 3 + i % 2;
		want[i].args[1] = 0x7ffe6110fc40;
		want[i].args[2] = 64;
		want[i].args[3] = 0x22;
		size = batch_add(&b, &want[i]);
		CHECK_EQ_INT(size, i ? 32 : 24 + 24 + 8 + 4 * 8);
	}
	CHECK(b.len <= SONDE_BATCH_BYTES);
	batch_check(&b, want, 27);
}

/* Every field that can leave the 32-bit form does, alone and together. */
TEST(wide_fields)
{
	static const struct {
		uint64_t ts, dur;
		int64_t ret;
	} c[] = {
		{ 1000000000ull, 5, 0 },
		{ 1000000100ull, 5, 0x7f1234567000 }, /* mmap's address */
		{ 1000000200ull, 5, INT32_MIN },      /* still 32 bits */
		{ 1000000300ull, 5, (int64_t)INT32_MIN - 1 },
		{ 1000000400ull, 0xffffffffull, -4095 }, /* still 32 bits */
		{ 1000000500ull, 0x100000000ull, -4 },	 /* a 4.3 s call */
		{ 9000000000ull, 5, 0 },		 /* 8 s later */
		{ 9000000000ull - 0x80000000ull, 5, 0 }, /* an earlier entry */
		{ 9000000000ull, 0, 0 },
		{ 9000000000ull, 0, INT64_MAX },
		{ 0, 0, INT64_MIN },
	};
	struct sonde_ev_syscall want[sizeof(c) / sizeof(c[0])];
	struct batch b;
	size_t n = sizeof(c) / sizeof(c[0]);

	memset(&b, 0, sizeof(b));
	for (size_t i = 0; i < n; i++) {
		want[i] = sc(1, 2, 9, c[i].ts, c[i].dur, c[i].ret);
		batch_add(&b, &want[i]);
	}
	batch_check(&b, want, n);
}

/* Threads and processes taking turns, flags, every argument mask. */
TEST(tasks_flags_and_args)
{
	struct sonde_ev_syscall want[64];
	uint64_t ts = 5000000000ull;
	struct batch b;
	size_t n = 0;

	memset(&b, 0, sizeof(b));
	for (unsigned int mask = 0; mask < 64; mask++) {
		struct sonde_ev_syscall r = sc(100 + mask % 3, 200 + mask % 5, mask * 7, ts += 1000,
					       mask, -(int64_t)mask);

		for (int a = 0; a < 6; a++)
			r.args[a] = mask & (1 << a) ? 0xfeedull << a : 0;
		r.hdr.flags = mask & 0xf;
		batch_push(&b, want, &n, &r);
	}
	batch_check(&b, want, n);
}

/* Random records, many batches: what goes in comes out. */
TEST(random_round_trip)
{
	struct sonde_ev_syscall want[SONDE_BATCH_BYTES / 24];
	uint64_t ts = 1ull << 40;
	struct batch b;
	size_t n = 0;

	srandom(12);
	memset(&b, 0, sizeof(b));
	for (int i = 0; i < 20000; i++) {
		struct sonde_ev_syscall r =
			sc(random() % 4, random() % 6, random() % 460, ts += random() % 100000,
			   random() % 3000, random() % 2 ? random() % 9000 - 4500 : random());

		for (int a = 0; a < 6; a++)
			r.args[a] =
				random() % 3 ? (uint64_t)(random() % 4) : (uint64_t)random() << 20;
		if (random() % 50 == 0)
			r.dur = (uint64_t)random() << 12;
		batch_push(&b, want, &n, &r);
	}
	batch_check(&b, want, n);
}

/* A size that does not match what the record announces, or that runs
 * past the batch, is refused. */
TEST(bad_sizes_refused)
{
	struct sonde_ev_syscall r = sc(1, 1, 0, 1000, 10, 0), got;
	struct sonde_pack_prev prev;
	struct batch b;
	struct sonde_ring_sc *p = (void *)b.recs;
	size_t size;

	memset(&b, 0, sizeof(b));
	r.args[0] = 1;
	size = batch_add(&b, &r);
	memset(&prev, 0, sizeof(prev));
	CHECK_EQ_INT(rec_unpack_sc(&prev, p, size - 8, 0, &got), -EINVAL);
	CHECK_EQ_INT(rec_unpack_sc(&prev, p, 16, 0, &got), -EINVAL);
	p->size += 8;
	CHECK_EQ_INT(rec_unpack_sc(&prev, p, sizeof(b.recs), 0, &got), -EINVAL);
	p->size -= 8;
	p->have |= 1 << 5;
	CHECK_EQ_INT(rec_unpack_sc(&prev, p, sizeof(b.recs), 0, &got), -EINVAL);
	p->have &= ~(1 << 5);
	CHECK_EQ_INT(rec_unpack_sc(&prev, p, sizeof(b.recs), 3, &got), 0);
	CHECK(same(&got, &r));
}

int main(void)
{
	RUN(loop_records_are_small);
	RUN(wide_fields);
	RUN(tasks_flags_and_args);
	RUN(random_round_trip);
	RUN(bad_sizes_refused);
	CHECK_EXIT();
}
