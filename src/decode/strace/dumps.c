// SPDX-License-Identifier: GPL-2.0
/*
 * -e read=FD / -e write=FD: the hexdump strace prints after a call of the
 * data it moved, from the call's captured payloads:
 *
 *   readv(3, [...], 2) = 12
 *    * 4 bytes in buffer 0                  (vectors: each buffer's share)
 *    | 00000  68 65 6c 6c                       hell             |
 *   sendmmsg(3, [...], 1, 0) = 1
 *    = 1 buffers in vector 0                (each message sent)
 *    * 5 bytes in buffer 0
 *    | 00000  68 65 6c 6c 6f                    hello            |
 */
#include <string.h>
#include <sys/syscall.h>

#include "decode/strace/strace_int.h"
#include "decode/strace/render_int.h"

static int fd_in(const uint64_t *set, int fd)
{
	return fd >= 0 && fd < SONDE_STRACE_MAX_DUMP_FD && (set[fd / 64] >> (fd % 64)) & 1;
}

/* Full data of a buffer at addr, as much as was captured, up to len. */
static void dump_buf(struct strbuf *b, const struct sonde_call *c, int phase, uint64_t addr,
		     uint64_t len)
{
	const struct sonde_payload *p = sonde_call_mem(c, phase, addr, 1);
	uint64_t n;

	if (!p || (p->flags & SONDE_PLF_UNREADABLE) || !len)
		return;
	n = p->captured - (addr - p->addr);
	if (n > len)
		n = len;
	pr_hexdump(b, p->data + (addr - p->addr), (size_t)n);
}

/* n bytes at addr from the call's payloads, those at exit first if
 * exit_first; 0 when they were not captured. */
static int mem_copy(const struct sonde_call *c, uint64_t addr, void *out, size_t n, int exit_first)
{
	const struct sonde_payload *p =
		sonde_call_mem(c, exit_first ? SONDE_PL_EXIT : SONDE_PL_ENTRY, addr, n);

	if (!p)
		p = sonde_call_mem(c, exit_first ? SONDE_PL_ENTRY : SONDE_PL_EXIT, addr, n);
	if (!p || (p->flags & SONDE_PLF_UNREADABLE))
		return 0;
	memcpy(out, p->data + (addr - p->addr), n);
	return 1;
}

/* Two words (i386: 32-bit ones) at addr; 0 when not captured. */
static int words_at(const struct sonde_call *c, uint64_t addr, uint64_t *a, uint64_t *b)
{
	size_t w = c->sc->hdr.flags & SONDE_SC_COMPAT ? 4 : 8;

	*a = *b = 0; /* little-endian: the low bytes of each */
	return mem_copy(c, addr, a, w, 0) && mem_copy(c, addr + w, b, w, 0);
}

/* strace's dump of a vector: each buffer's share of the len bytes moved,
 * " * N bytes in buffer I" first, up to the first empty one. */
static void dump_iov(struct strbuf *b, const struct sonde_call *c, int phase, uint64_t addr,
		     uint64_t cnt, uint64_t len)
{
	for (uint64_t i = 0; i < cnt && i < 1024; i++) {
		uint64_t base, n;

		if (!words_at(c, addr + i * (c->sc->hdr.flags & SONDE_SC_COMPAT ? 8 : 16), &base,
			      &n))
			return;
		if (n > len)
			n = len;
		if (!n)
			return;
		len -= n;
		sb_printf(b, " * %llu bytes in buffer %llu\n", (unsigned long long)n,
			  (unsigned long long)i);
		dump_buf(b, c, phase, base, n);
	}
}

/* The msg_iov and msg_iovlen of the struct msghdr at addr: the words at
 * 16 (x86-64), at 8 (i386); 0 when not captured. */
static int msg_vec(const struct sonde_call *c, uint64_t addr, uint64_t *iov, uint64_t *cnt)
{
	return words_at(c, addr + (c->sc->hdr.flags & SONDE_SC_COMPAT ? 8 : 16), iov, cnt);
}

/* sendmsg, recvmsg: the vector of the struct msghdr at addr. */
static void dump_msg(struct strbuf *b, const struct sonde_call *c, int phase, uint64_t addr,
		     uint64_t len)
{
	uint64_t iov, cnt;

	if (msg_vec(c, addr, &iov, &cnt))
		dump_iov(b, c, phase, iov, cnt, len);
}

/* sendmmsg, recvmmsg: each of the n messages moved, " = N buffers in
 * vector I" and its vector's dump up to its msg_len (set at exit). */
static void dump_mmsg(struct strbuf *b, const struct sonde_call *c, int phase, uint64_t addr,
		      uint64_t n)
{
	int i386 = !!(c->sc->hdr.flags & SONDE_SC_COMPAT);
	/* struct mmsghdr: a msghdr, then msg_len; 64 bytes (i386: 32) */
	uint64_t size = i386 ? 32 : 64, len_at = i386 ? 28 : 56;

	for (uint64_t i = 0; i < n && i < 1024; i++) {
		uint64_t m = addr + i * size, iov, cnt;
		uint32_t len;

		if (!msg_vec(c, m, &iov, &cnt) || !mem_copy(c, m + len_at, &len, sizeof(len), 1))
			return;
		sb_printf(b, " = %llu buffers in vector %llu\n", (unsigned long long)cnt,
			  (unsigned long long)i);
		dump_iov(b, c, phase, iov, cnt, len);
	}
}

/* -e read=/write=: strace dumps what the call transferred, after it. */
void strace_pr_dumps(struct sonde_strace *st, const struct sonde_call *c, struct strbuf *b)
{
	const struct sonde_ev_syscall *sc = c->sc;
	int fd = (int)sc->args[0];
	uint64_t n = (uint64_t)sc->ret;

	if (sc->ret <= 0 || (sc->hdr.flags & SONDE_SC_NORETURN))
		return;
	switch (sc->nr) {
	case __NR_read:
	case __NR_pread64:
	case __NR_recvfrom:
		if (fd_in(st->o.dump_read, fd))
			dump_buf(b, c, SONDE_PL_EXIT, sc->args[1], n);
		break;
	case __NR_readv:
	case __NR_preadv:
	case __NR_preadv2:
		if (fd_in(st->o.dump_read, fd))
			dump_iov(b, c, SONDE_PL_EXIT, sc->args[1], sc->args[2], n);
		break;
	case __NR_recvmsg:
		if (fd_in(st->o.dump_read, fd))
			dump_msg(b, c, SONDE_PL_EXIT, sc->args[1], n);
		break;
	case __NR_recvmmsg:
		if (fd_in(st->o.dump_read, fd))
			dump_mmsg(b, c, SONDE_PL_EXIT, sc->args[1], n);
		break;
	case __NR_write:
	case __NR_pwrite64:
	case __NR_sendto:
		if (fd_in(st->o.dump_write, fd))
			dump_buf(b, c, SONDE_PL_ENTRY, sc->args[1], n);
		break;
	case __NR_writev:
	case __NR_pwritev:
	case __NR_pwritev2:
		if (fd_in(st->o.dump_write, fd))
			dump_iov(b, c, SONDE_PL_ENTRY, sc->args[1], sc->args[2], n);
		break;
	case __NR_sendmsg:
		if (fd_in(st->o.dump_write, fd))
			dump_msg(b, c, SONDE_PL_ENTRY, sc->args[1], n);
		break;
	case __NR_sendmmsg:
		if (fd_in(st->o.dump_write, fd))
			dump_mmsg(b, c, SONDE_PL_ENTRY, sc->args[1], n);
		break;
	}
}
