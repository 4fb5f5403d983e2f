/* SPDX-License-Identifier: GPL-2.0 */
/*
 * io_submit's iocbs (SONDE_CAP_IOCB), for strace's decoding: the array
 * of iocb pointers, each struct iocb (64 bytes), and what it points to
 * that strace shows: a pwrite's buffer, a pwritev's iovec and buffers, a
 * preadv's iovec (its buffers print as addresses). The first
 * SONDE_CAP_IOCB_MAX iocbs only.
 *
 * Call frames: sys_enter, cap_item, cap_iocb, cap_iov, cap_iov_one
 * (bpf_loop callback), cap_bytes, cap_chunk (bpf_loop callback): 7.
 */
#ifndef SONDE_BPF_AIO_H
#define SONDE_BPF_AIO_H

/* struct iocb members (linux/aio_abi.h, little-endian) and opcodes. */
#define IOCB_OPCODE 16
#define IOCB_BUF 24
#define IOCB_NBYTES 32
#define IOCB_PWRITE 1
#define IOCB_PREADV 7
#define IOCB_PWRITEV 8

__noinline int cap_iocb(struct cap_call *c, __u32 arg, __u64 addr)
{
	__u64 cb[8] = {};
	__u16 op;

	if (!c || !addr || bpf_probe_read_user(cb, sizeof(cb), (void *)addr))
		return 0;
	cap_len(c, arg, addr, sizeof(cb), sizeof(cb), sizeof(cb));
	op = (__u16)cb[IOCB_OPCODE / 8];
	if (op == IOCB_PWRITE)
		cap_len(c, arg, cb[IOCB_BUF / 8], cb[IOCB_NBYTES / 8], cb[IOCB_NBYTES / 8],
			cb[IOCB_NBYTES / 8]);
	else if (op == IOCB_PWRITEV)
		cap_iov(c, arg, cb[IOCB_BUF / 8], cb[IOCB_NBYTES / 8], 0);
	else if (op == IOCB_PREADV)
		cap_len(c, arg, cb[IOCB_BUF / 8], cb[IOCB_NBYTES / 8] * 16,
			cb[IOCB_NBYTES / 8] * 16, cb[IOCB_NBYTES / 8] > 64 ? 64 * 16 : cb[IOCB_NBYTES / 8] * 16);
	return 0;
}

/* The pointer array, then each iocb; a plain bounded loop, as cap_mmsg. */
static __always_inline void cap_iocbs(struct cap_call *c, __u32 arg, __u64 addr, __u64 n)
{
	if (!addr || (__s64)n <= 0)
		return;
	if (n > SONDE_CAP_IOCB_MAX)
		n = SONDE_CAP_IOCB_MAX;
	cap_len(c, arg, addr, n * 8, n * 8, n * 8);
	for (__u32 i = 0; i < SONDE_CAP_IOCB_MAX && i < n; i++)
		cap_iocb(c, arg, cap_u64(addr + i * 8));
}

#endif
