/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The traced set: one bit per tgid in global data (layout drawn in
 * include/sonde/record_bpf.h). Testing a bit is two plain loads from .bss
 * and a shift: no helper call and no map lookup, which is all an untraced
 * task pays on every hook.
 */
#ifndef SONDE_BPF_TRACED_H
#define SONDE_BPF_TRACED_H

__u64 traced[SONDE_TRACED_WORDS];
__u64 ntraced;

/*
 * The mask keeps the index provably inside the array for the verifier; it
 * never changes a real value because tgids are < SONDE_PID_MAX.
 */
static __always_inline int tgid_traced(__u32 tgid)
{
	return (traced[(tgid >> 6) & (SONDE_TRACED_WORDS - 1)] >> (tgid & 63)) & 1;
}

/*
 * Atomic fetch-or/and (BPF_ATOMIC | BPF_FETCH, hence -mcpu=v3): two CPUs
 * may update bits of the same word at once (fork on one, exit on the
 * other), and user space updates the same words through the mmap.
 */
static __always_inline void tgid_add(__u32 tgid)
{
	__u64 bit = 1ULL << (tgid & 63);
	__u64 old = __sync_fetch_and_or(&traced[(tgid >> 6) & (SONDE_TRACED_WORDS - 1)], bit);

	if (!(old & bit))
		__sync_fetch_and_add(&ntraced, 1);
}

static __always_inline void tgid_del(__u32 tgid)
{
	__u64 bit = 1ULL << (tgid & 63);
	__u64 old = __sync_fetch_and_and(&traced[(tgid >> 6) & (SONDE_TRACED_WORDS - 1)], ~bit);

	if (old & bit)
		__sync_fetch_and_sub(&ntraced, 1);
}

#endif /* SONDE_BPF_TRACED_H */
