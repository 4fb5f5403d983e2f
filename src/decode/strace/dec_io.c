// SPDX-License-Identifier: GPL-2.0
/*
 * Decoders of multiplexing (poll, select, epoll), socket and zero-copy
 * syscalls, and mmap.
 */
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "decode/strace/strace_int.h"

static void pr_pollfds(struct st *s, int phase, uint64_t a, uint64_t n,
		       int revents)
{
	struct pollfd p;
	unsigned int shown = 0;

	st_arr_begin(s);
	for (uint64_t i = 0; i < n; i++) {
		if (!st_peek(s, phase, a + i * sizeof(p), &p, sizeof(p)))
			break;
		if (revents && !p.revents)
			continue;
		st_elem(s);
		if (st_array_cut(s, shown++)) {
			sb_puts(s->o, "...");
			break;
		}
		st_obj_begin(s);
		st_field(s, "fd");
		pr_fd(s, p.fd);
		st_field(s, revents ? "revents" : "events");
		pr_flags(s, &x_poll, (uint16_t)(revents ? p.revents : p.events), "POLL???");
		st_obj_end(s);
	}
	st_arr_end(s);
}

/* n elements of esz bytes at a were captured in phase memory, and may
 * be shown (st_deref). */
int st_have_array(struct st *s, int phase, uint64_t a, uint64_t n, size_t esz)
{
	const struct sonde_payload *p;

	if (!a || n > 65536 || !st_deref(s))
		return 0;
	p = sonde_call_mem(s->c, phase, a, n * esz);
	return p && !(p->flags & SONDE_PLF_UNREADABLE);
}

/* " ([{fd=4, revents=POLLOUT}])" or " (Timeout)" after the return value;
 * JSON "result":{"revents":[{"fd":4,"revents":["POLLOUT"]}],"left":{...}}. */
static void poll_result(struct st *s, uint64_t a, uint64_t n,
			uint64_t left_ts)
{
	struct strbuf b;
	struct st t;

	if (!st_ok(s))
		return;
	if (s->ret == 0) {
		if (!s->j)
			sb_puts(&s->rv_aux, " (Timeout)");
		return;
	}
	if (!st_have_array(s, SONDE_PL_EXIT, a, n, sizeof(struct pollfd)))
		return;
	st_res_begin(s, &t, &b, "revents");
	sb_puts(&b, " (");
	pr_pollfds(&t, SONDE_PL_EXIT, a, n, 1);
	if (left_ts && sonde_call_mem(s->c, SONDE_PL_EXIT, left_ts, 16)) {
		sb_puts(&b, ", left ");
		st_jkey(&t, "left");
		ps_timespec(&t, SONDE_PL_EXIT, left_ts);
	}
	sb_putc(&b, ')');
	st_res_end(s, &t, &b);
}

void dec_poll(struct st *s)
{
	uint64_t a = st_arg(s, 0), n = (uint32_t)st_arg(s, 1);

	if (st_have_array(s, SONDE_PL_ENTRY, a, n, sizeof(struct pollfd)))
		pr_pollfds(s, SONDE_PL_ENTRY, a, n, 0);
	else
		pr_unfetched(s, SONDE_PL_ENTRY, a);
	st_sep(s);
	pr_uint(s, n);
	st_sep(s);
	pr_int(s, st_arg(s, 2));
	poll_result(s, a, n, 0);
}

void dec_ppoll(struct st *s)
{
	uint64_t a = st_arg(s, 0), n = (uint32_t)st_arg(s, 1);

	if (st_have_array(s, SONDE_PL_ENTRY, a, n, sizeof(struct pollfd)))
		pr_pollfds(s, SONDE_PL_ENTRY, a, n, 0);
	else
		pr_unfetched(s, SONDE_PL_ENTRY, a);
	st_sep(s);
	pr_uint(s, n);
	st_sep(s);
	ps_timespec(s, SONDE_PL_ENTRY, st_arg(s, 2));
	st_sep(s);
	pr_sigset(s, SONDE_PL_ENTRY, st_arg(s, 3), st_arg(s, 4));
	st_sep(s);
	pr_ulong(s, st_arg(s, 4));
	poll_result(s, a, n, st_arg(s, 2));
}

/* The descriptors of an fd_set's bits, as [3 4] (JSON [3,4]). */
static void pr_fdset_bits(struct st *s, const uint8_t *b, int nfds)
{
	int first = 1;

	st_arr_begin(s);
	for (int fd = 0; fd < nfds; fd++) {
		if (!(b[fd / 8] & (1u << (fd % 8))))
			continue;
		if (!first && !s->j)
			sb_putc(s->o, ' ');
		first = 0;
		pr_fd(s, fd);
	}
	st_arr_end(s);
}

/* An fd_set argument: its descriptors, or its address. */
static void pr_fdset(struct st *s, int phase, uint64_t a, int nfds)
{
	uint8_t b[128];
	size_t len = nfds > 0 ? ((size_t)nfds + 63) / 64 * 8 : 0;

	if (!a)
		pr_addr(s, 0);
	else if (len > sizeof(b) || !st_peek(s, phase, a, b, len))
		pr_unfetched(s, phase, a);
	else
		pr_fdset_bits(s, b, nfds);
}

static void select_common(struct st *s, int ts_kind)
{
	int nfds = (int)st_arg(s, 0);
	static const char *const names[] = { "in", "out", "except" };
	struct strbuf b;
	struct st t;
	int any = 0;

	pr_int(s, (uint64_t)nfds);
	for (int i = 1; i <= 3; i++) {
		st_sep(s);
		pr_fdset(s, SONDE_PL_ENTRY, st_arg(s, i), nfds);
	}
	st_sep(s);
	if (ts_kind)
		ps_timespec(s, SONDE_PL_ENTRY, st_arg(s, 4));
	else
		ps_timeval(s, SONDE_PL_ENTRY, st_arg(s, 4));
	if (ts_kind) {
		st_sep(s);
		pr_kernel_sigset(s, st_arg(s, 5));
	}
	if (!st_ok(s))
		return;
	if (!s->ret) {
		if (!s->j)
			sb_puts(&s->rv_aux, " (Timeout)");
		return;
	}
	st_res_begin(s, &t, &b, NULL);
	sb_puts(&b, " (");
	for (int i = 1; i <= 3; i++) {
		uint64_t a = st_arg(s, i);
		size_t len = nfds > 0 ? ((size_t)nfds + 63) / 64 * 8 : 0;
		uint8_t tmp[128];

		/* strace lists the ready descriptors whatever -e verbose=
		 * says; only "left" goes by it */
		if (!a || len > sizeof(tmp) ||
		    !st_read(s, SONDE_PL_EXIT, a, tmp, len))
			continue;
		int empty = 1;
		for (size_t k = 0; k < len; k++)
			empty &= !tmp[k];
		if (empty)
			continue;
		sb_printf(&b, "%s%s ", any ? ", " : "", names[i - 1]);
		st_jkey(&t, names[i - 1]);
		pr_fdset_bits(&t, tmp, nfds);
		any = 1;
	}
	if (st_arg(s, 4) &&
	    sonde_call_mem(s->c, SONDE_PL_EXIT, st_arg(s, 4), 16) && any) {
		sb_puts(&b, ", left ");
		st_jkey(&t, "left");
		if (ts_kind)
			ps_timespec(&t, SONDE_PL_EXIT, st_arg(s, 4));
		else
			ps_timeval(&t, SONDE_PL_EXIT, st_arg(s, 4));
	}
	sb_putc(&b, ')');
	if (!any && b.s)
		b.s[b.len = 0] = 0;
	st_res_end(s, &t, &b);
}

/*
 * The { const sigset_t *sigmask; size_t sigsetsize } pselect6 and
 * io_pgetevents read at entry: {sigmask=[INT], sigsetsize=8}.
 */
void pr_kernel_sigset(struct st *s, uint64_t addr)
{
	uint64_t sm[2];

	if (!st_fetch(s, SONDE_PL_ENTRY, addr, sm, sizeof(sm)))
		return;
	st_obj_begin(s);
	st_field(s, "sigmask");
	pr_sigset(s, SONDE_PL_ENTRY, sm[0], sm[1]);
	pr_ulong_field(s, "sigsetsize", sm[1]);
	st_obj_end(s);
}

void dec_select(struct st *s)
{
	select_common(s, 0);
}

void dec_pselect6(struct st *s)
{
	select_common(s, 1);
}

/* struct epoll_event is packed on x86-64: 4 bytes events, 8 bytes data. */
#define EPOLL_EV_SIZE 12

void ps_epoll_event(struct st *s, const void *ev)
{
	uint32_t e;
	uint64_t d;

	memcpy(&e, ev, 4);
	memcpy(&d, (const char *)ev + 4, 8);
	st_obj_begin(s);
	st_field(s, "events");
	pr_flags(s, &x_epoll_events, e, "EPOLL???");
	st_field(s, "data");
	st_obj_begin(s);
	st_field(s, "u32");
	pr_uint(s, (uint32_t)d);
	st_field(s, "u64");
	pr_ulong(s, d);
	st_obj_end(s);
	st_obj_end(s);
}

void dec_epoll_ctl(struct st *s)
{
	uint8_t ev[EPOLL_EV_SIZE];

	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	pr_xval(s, &x_epoll_ctl, (uint32_t)st_arg(s, 1), "EPOLL_CTL_???");
	st_sep(s);
	pr_fd(s, (int)st_arg(s, 2));
	st_sep(s);
	/* The kernel ignores the event of EPOLL_CTL_DEL: strace shows
	 * only its address. */
	if ((uint32_t)st_arg(s, 1) == EPOLL_CTL_DEL)
		pr_addr(s, st_arg(s, 3));
	else if (st_fetch(s, SONDE_PL_ENTRY, st_arg(s, 3), ev, sizeof(ev)))
		ps_epoll_event(s, ev);
}

static void pr_epoll_events(struct st *s, uint64_t a)
{
	uint8_t ev[EPOLL_EV_SIZE];

	if (!st_ok(s) || !st_have_array(s, SONDE_PL_EXIT, a, (uint64_t)s->ret,
					EPOLL_EV_SIZE)) {
		if (st_ok(s) && s->ret == 0) {
			st_arr_begin(s);
			st_arr_end(s);
		} else if (st_ok(s)) {
			pr_unfetched(s, SONDE_PL_EXIT, a);
		} else {
			pr_addr(s, a);
		}
		return;
	}
	st_arr_begin(s);
	for (int64_t i = 0; i < s->ret; i++) {
		st_elem(s);
		if (st_array_cut(s, (uint64_t)i)) {
			sb_puts(s->o, "...");
			break;
		}
		st_peek(s, SONDE_PL_EXIT, a + (uint64_t)i * EPOLL_EV_SIZE, ev,
			sizeof(ev));
		ps_epoll_event(s, ev);
	}
	st_arr_end(s);
}

void dec_epoll_wait(struct st *s)
{
	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	st_entry_end(s);
	pr_epoll_events(s, st_arg(s, 1));
	st_sep(s);
	pr_int(s, st_arg(s, 2));
	st_sep(s);
	pr_int(s, st_arg(s, 3));
}

void dec_epoll_pwait(struct st *s)
{
	dec_epoll_wait(s);
	st_sep(s);
	pr_sigset(s, SONDE_PL_ENTRY, st_arg(s, 4), st_arg(s, 5));
	st_sep(s);
	pr_ulong(s, st_arg(s, 5));
}

/* The same with a struct timespec for the timeout. */
void dec_epoll_pwait2(struct st *s)
{
	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	st_entry_end(s);
	pr_epoll_events(s, st_arg(s, 1));
	st_sep(s);
	pr_int(s, st_arg(s, 2));
	st_sep(s);
	ps_timespec(s, SONDE_PL_ENTRY, st_arg(s, 3));
	st_sep(s);
	pr_sigset(s, SONDE_PL_ENTRY, st_arg(s, 4), st_arg(s, 5));
	st_sep(s);
	pr_ulong(s, st_arg(s, 5));
}

static void pr_sock_type(struct st *s, uint32_t v)
{
	struct st_cap c;
	struct st *t = st_cap_begin(s, &c);

	pr_xval(t, &x_sock_type, v & 0xf, "SOCK_???");
	if (v & ~0xfu) {
		/* SOCK_CLOEXEC, 0x80000 /\* SOCK_CLOEXEC *\/ (-X), an unnamed
		 * remainder 0x60 /\* SOCK_??? *\/ */
		sb_putc(t->o, '|');
		pr_flags(t, &x_sock_flags, v & ~0xfu, "SOCK_???");
	}
	st_cap_flags(s, &c);
}

static void pr_sock_proto(struct st *s, int fam, uint32_t proto)
{
	if (fam == AF_INET || fam == AF_INET6)
		pr_xval(s, &x_ipproto, proto, "IPPROTO_???");
	else if (fam == AF_NETLINK)
		pr_xval(s, &x_nl_protocols, proto, "NETLINK_???");
	else if (fam == AF_PACKET)
		pr_eth_proto(s, (uint16_t)proto);
	else
		pr_uint(s, proto);
}

void dec_socket(struct st *s)
{
	int fam = (int)st_arg(s, 0);

	pr_xval(s, &x_sock_family, (uint32_t)fam, "AF_???");
	st_sep(s);
	pr_sock_type(s, (uint32_t)st_arg(s, 1));
	st_sep(s);
	pr_sock_proto(s, fam, (uint32_t)st_arg(s, 2));
	s->rkind = R_FD;
}

void dec_socketpair(struct st *s)
{
	int fam = (int)st_arg(s, 0);

	pr_xval(s, &x_sock_family, (uint32_t)fam, "AF_???");
	st_sep(s);
	pr_sock_type(s, (uint32_t)st_arg(s, 1));
	st_sep(s);
	pr_sock_proto(s, fam, (uint32_t)st_arg(s, 2));
	st_sep(s);
	st_entry_end(s);
	if (st_ok(s))
		ps_fdpair(s, SONDE_PL_EXIT, st_arg(s, 3));
	else
		pr_addr(s, st_arg(s, 3));
}

/* An output sockaddr and its in/out length: addr, [128 => 16]. */
static void pr_sockaddr_out(struct st *s, uint64_t a, uint64_t lenp)
{
	int in = 0, out = 0;
	int have_in = st_peek(s, SONDE_PL_ENTRY, lenp, &in, sizeof(in));
	int have_out = st_ok(s) && st_peek(s, SONDE_PL_EXIT, lenp, &out, sizeof(out));

	if (!a) {
		pr_addr(s, 0);
	} else if (have_out) {
		int n = out < in || !have_in ? out : in;

		pr_sockaddr(s, SONDE_PL_EXIT, a, (uint64_t)n);
	} else {
		pr_addr(s, a);
	}
	st_sep(s);
	pr_inout(s, have_in, in, have_out, out, lenp);
}

void dec_accept(struct st *s)
{
	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	st_entry_end(s);
	pr_sockaddr_out(s, st_arg(s, 1), st_arg(s, 2));
	s->rkind = R_FD;
}

void dec_accept4(struct st *s)
{
	dec_accept(s);
	st_sep(s);
	pr_flags(s, &x_sock_flags, (uint32_t)st_arg(s, 3), "SOCK_???");
}

void dec_getsockname(struct st *s)
{
	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	st_entry_end(s);
	pr_sockaddr_out(s, st_arg(s, 1), st_arg(s, 2));
}

/*
 * The buffer of sendto, recvfrom: netlink messages on a netlink socket
 * (strace asks the kernel what the descriptor is; sonde knows it from
 * the socket's facts), else bytes.
 */
static void pr_sockbuf(struct st *s, int phase, uint64_t a, uint64_t len)
{
	int proto = st_netlink_proto(s, (int)st_arg(s, 0));

	if (proto != ST_NL_NONE)
		pr_netlink(s, phase, a, len, proto);
	else
		pr_buf(s, phase, a, len, 0);
}

void dec_sendto(struct st *s)
{
	static const struct st_arg to = { K_SADDRI, 5, NULL, NULL };

	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	pr_sockbuf(s, SONDE_PL_ENTRY, st_arg(s, 1), st_arg(s, 2));
	st_sep(s);
	pr_ulong(s, st_arg(s, 2));
	st_sep(s);
	pr_flags(s, &x_msg_flags, (uint32_t)st_arg(s, 3), "MSG_???");
	st_sep(s);
	st_print_arg(s, &to, 4);
	st_sep(s);
	pr_uint(s, (uint32_t)st_arg(s, 5));
}

void dec_recvfrom(struct st *s)
{
	uint64_t n = (uint64_t)s->ret;
	int proto = st_netlink_proto(s, (int)st_arg(s, 0));

	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	st_entry_end(s);
	/* MSG_TRUNC returns the message's length, more than was written */
	if (st_ok(s) && proto != ST_NL_NONE)
		pr_netlink(s, SONDE_PL_EXIT, st_arg(s, 1), n < st_arg(s, 2) ? n : st_arg(s, 2),
			   proto);
	else if (st_ok(s))
		pr_buf(s, SONDE_PL_EXIT, st_arg(s, 1), n, 0);
	else
		pr_addr(s, st_arg(s, 1));
	st_sep(s);
	pr_ulong(s, st_arg(s, 2));
	st_sep(s);
	pr_flags(s, &x_msg_flags, (uint32_t)st_arg(s, 3), "MSG_???");
	st_sep(s);
	pr_sockaddr_out(s, st_arg(s, 4), st_arg(s, 5));
}

void dec_mmap(struct st *s)
{
	pr_mmap(s, st_arg(s, 5));
}

/* mmap's arguments with the file offset in bytes (mmap2's are pages). */
void pr_mmap(struct st *s, uint64_t off)
{
	uint32_t f = (uint32_t)st_arg(s, 3);
	struct st_cap c;
	struct st *t;

	pr_addr(s, st_arg(s, 0));
	st_sep(s);
	pr_ulong(s, st_arg(s, 1));
	st_sep(s);
	pr_flags(s, &x_prot, (uint32_t)st_arg(s, 2), "PROT_???");
	st_sep(s);
	t = st_cap_begin(s, &c);
	if (t->opt->xlat == SONDE_XLAT_RAW) {
		sb_printf(t->o, "%#x", f);
	} else {
		/* MAP_PRIVATE|MAP_ANONYMOUS, -X verbose inside a comment */
		if (t->opt->xlat == SONDE_XLAT_VERBOSE)
			sb_printf(t->o, "%#x /* ", f);
		sb_puts(t->o, xlat_name(&x_map_type, f & 0xf) ?: "");
		if (!xlat_name(&x_map_type, f & 0xf))
			sb_printf(t->o, "%#x /* MAP_??? */", f & 0xf);
		if (f & ~0xfu) {
			sb_putc(t->o, '|');
			sb_flags(t->o, &x_map_flags, f & ~0xfu);
		}
		if (t->opt->xlat == SONDE_XLAT_VERBOSE)
			sb_puts(t->o, " */");
	}
	st_cap_flags(s, &c);
	st_sep(s);
	pr_fd(s, (int)st_arg(s, 4));
	st_sep(s);
	pr_hex(s, off);
	s->rkind = R_HEX;
}

/*
 * A loff_t pointer updated by the call: [0] => [1234] when strace shows
 * the value at exit too (sendfile, when it moved data), else [0], read at
 * entry (splice, copy_file_range); JSON has both.
 */
static void pr_off_inout(struct st *s, uint64_t a, int text_out)
{
	int64_t in, out;
	int have_out;

	if (!a) {
		pr_addr(s, 0);
		return;
	}
	if (!st_peek(s, SONDE_PL_ENTRY, a, &in, sizeof(in))) {
		pr_unfetched(s, SONDE_PL_ENTRY, a);
		return;
	}
	have_out = st_ok(s) && st_peek(s, SONDE_PL_EXIT, a, &out, sizeof(out));
	if (s->j) {
		pr_inout(s, 1, in, have_out, out, a);
		return;
	}
	sb_printf(s->o, "[%lld]", (long long)in);
	if (have_out && text_out)
		sb_printf(s->o, " => [%lld]", (long long)out);
}

void dec_sendfile(struct st *s)
{
	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	pr_fd(s, (int)st_arg(s, 1));
	st_sep(s);
	/* strace reads the offset back only when bytes were sent */
	pr_off_inout(s, st_arg(s, 2), s->ret != 0);
	st_sep(s);
	pr_ulong(s, st_arg(s, 3));
}

void dec_copy_file_range(struct st *s)
{
	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	pr_off_inout(s, st_arg(s, 1), 0);
	st_sep(s);
	pr_fd(s, (int)st_arg(s, 2));
	st_sep(s);
	pr_off_inout(s, st_arg(s, 3), 0);
	st_sep(s);
	pr_ulong(s, st_arg(s, 4));
	st_sep(s);
	pr_uint(s, st_arg(s, 5));
}

void dec_splice(struct st *s)
{
	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	pr_off_inout(s, st_arg(s, 1), 0);
	st_sep(s);
	pr_fd(s, (int)st_arg(s, 2));
	st_sep(s);
	pr_off_inout(s, st_arg(s, 3), 0);
	st_sep(s);
	pr_ulong(s, st_arg(s, 4));
	st_sep(s);
	pr_flags(s, &x_splice, (uint32_t)st_arg(s, 5), "SPLICE_F_???");
}

/* shmget/semget/msgget: key, [size/nsems,] IPC_CREAT|0600. */
static void pr_ipc_key(struct st *s, uint64_t k)
{
	if ((int)k == IPC_PRIVATE && s->j)
		pr_sym(s, "IPC_PRIVATE");
	else if ((int)k == IPC_PRIVATE)
		pr_symexpr(s, "0", "IPC_PRIVATE");
	else
		pr_hex(s, (unsigned int)k);
}

static void pr_ipc_flags(struct st *s, uint32_t f)
{
	struct st_cap c;
	struct st *t = st_cap_begin(s, &c);

	if (f & ~0777u) {
		pr_flags(t, &x_ipc_flags, f & ~0777u, "IPC_???");
		sb_putc(t->o, '|');
	}
	sb_printf(t->o, "%#03o", f & 0777);
	st_cap_flags(s, &c);
}

void dec_shmget(struct st *s)
{
	pr_ipc_key(s, st_arg(s, 0));
	st_sep(s);
	pr_ulong(s, st_arg(s, 1));
	st_sep(s);
	pr_ipc_flags(s, (uint32_t)st_arg(s, 2));
}

void dec_ipcget2(struct st *s)
{
	pr_ipc_key(s, st_arg(s, 0));
	st_sep(s);
	pr_ipc_flags(s, (uint32_t)st_arg(s, 1));
}

void dec_semget(struct st *s)
{
	pr_ipc_key(s, st_arg(s, 0));
	st_sep(s);
	pr_int(s, st_arg(s, 1));
	st_sep(s);
	pr_ipc_flags(s, (uint32_t)st_arg(s, 2));
}

void dec_shmat(struct st *s)
{
	pr_int(s, st_arg(s, 0));
	st_sep(s);
	pr_addr(s, st_arg(s, 1));
	st_sep(s);
	pr_flags(s, &x_shm_flags, (uint32_t)st_arg(s, 2), "SHM_???");
	s->rkind = R_HEX;
}
