/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Packed syscall records, the ring's transport form of struct
 * sonde_ev_syscall inside a batch. The packer is here, not in bpf/, so the
 * unit tests run the very code the BPF program runs (tests/unit/
 * test_ring_pack.c) against the consumer's unpacker
 * (src/record/rec_pack.c). Like record_bpf.h this compiles under clang
 * -target bpf and the host compiler and includes neither's types.
 */
#ifndef SONDE_RING_PACK_H
#define SONDE_RING_PACK_H

#include <sonde/record_bpf.h>

/*
 * A syscall record inside a batch (record_bpf.h), packed against the
 * batch's previous one: 32 bytes instead of the 96 of struct
 * sonde_ev_syscall on the syscall loop. Why: a record's bytes are written
 * into ring memory that is not in cache, inside the traced call, and read
 * again by the consumer; see bench/README.md, session 12, for what the
 * smaller record saves. The consumer unpacks it (rec_unpack_sc) before
 * anything else sees it: trace files never hold it.
 *
 *   0       4       8       12      16     18     20     22     23    24
 *   +-------+-------+-------+-------+------+------+------+------+-----+---------+
 *   | end   | dur   | nr    | ret   | type | size | flags| have | pad | more[]  |
 *   +-------+-------+-------+-------+------+------+------+------+-----+---------+
 *
 * type and size sit where struct sonde_hdr has them, so the batch's
 * records are walked alike. end is the exit time minus the previous packed
 * record's (prev.end); the entry time is end - dur. more[] holds, in this
 * order, the words have announces:
 *   SONDE_PK_WIDE   end, dur, ret as 64-bit words (the 32-bit fields are
 *                   then 0): the first record of a batch, a gap of
 *                   2^31 ns or more, a duration of 2^32 ns or more, a
 *                   return value beyond 32 bits;
 *   SONDE_PK_TASK   pid | tid << 32, when they differ from prev.pid/tid;
 *   bit i < 6       args[i], when it differs from prev.args[i].
 */
#define SONDE_RING_SC 0xba7d
#define SONDE_PK_ARGS 0x3f
#define SONDE_PK_TASK 0x40
#define SONDE_PK_WIDE 0x80

struct sonde_ring_sc {
	__s32 end;
	__u32 dur;
	__u32 nr;
	__s32 ret;
	__u16 type;
	__u16 size;
	__u16 flags;
	__u8 have;
	__u8 _pad;
	__u64 more[];
};

/* The largest packed record, WIDE with the task and every argument,
 * fits a batch's record room. */
_Static_assert(sizeof(struct sonde_ring_sc) + 8 * (3 + 1 + 6) <= SONDE_BATCH_REC_MAX,
	       "a packed syscall record fits SONDE_BATCH_REC_MAX");

/*
 * Packs a syscall record into p (room for SONDE_BATCH_REC_MAX bytes)
 * against prev, updates prev, and returns the packed size.
 */
static inline __attribute__((always_inline)) __u32
sonde_sc_pack(struct sonde_pack_prev *prev, struct sonde_ring_sc *p, __u32 pid, __u32 tid, __u32 nr,
	      __u64 ts, __u64 dur, __s64 ret, const __u64 *args, __u16 flags)
{
	__u64 end = ts + dur, *w = p->more;
	__s64 gap = (__s64)(end - prev->end);
	__u8 have = 0;

	p->type = SONDE_RING_SC;
	p->flags = flags;
	p->nr = nr;
	p->_pad = 0;
	/* prev->end is 0 in an empty batch: its first record is WIDE. */
	if (prev->end && gap == (__s32)gap && dur == (__u32)dur && ret == (__s32)ret) {
		p->end = (__s32)gap;
		p->dur = (__u32)dur;
		p->ret = (__s32)ret;
	} else {
		p->end = 0;
		p->dur = 0;
		p->ret = 0;
		w[0] = end;
		w[1] = dur;
		w[2] = (__u64)ret;
		w += 3;
		have = SONDE_PK_WIDE;
	}
	prev->end = end;
	if (tid != prev->tid || pid != prev->pid) {
		*w++ = (__u64)tid << 32 | pid;
		prev->tid = tid;
		prev->pid = pid;
		have |= SONDE_PK_TASK;
	}
	for (int i = 0; i < 6; i++) {
		if (args[i] != prev->args[i]) {
			*w++ = args[i];
			prev->args[i] = args[i];
			have |= 1 << i;
		}
	}
	p->have = have;
	p->size = (__u16)((char *)w - (char *)p);
	return p->size;
}

#endif /* SONDE_RING_PACK_H */
