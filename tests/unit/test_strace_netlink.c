// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink decoding (src/decode/strace/netlink.c) on captured memory that
 * cannot be trusted: the expected texts are strace 6.1's for the same
 * buffers (tests/integration/strace_netlink.sh compares whole runs); what
 * strace never sees (a capture shorter than the buffer, random bytes)
 * must print without reading past the capture (run under ASan by the
 * build-asan unit tests).
 */
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/if_addr.h>
#include <linux/types.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include <sonde/events.h>
#include <sonde/payload.h>
#include "check.h"
#include "test_strace_util.h"
#include "decode/strace/strace_int.h"

#define BUF 0x10000

static struct tcall T;
static struct fdtab *fds;
static char out[65536];

/* fd 3 of task 1000 is a netlink socket of proto (the socket's facts),
 * bound to port id portid (0: not bound). */
static void nl_socket_bound(int proto, uint32_t portid)
{
	struct sonde_sockinfo si;

	fdtab_free(fds);
	fds = fdtab_new();
	memset(&si, 0, sizeof(si));
	si.fd = 3;
	si.family = AF_NETLINK;
	si.type = SOCK_RAW;
	si.ino = 42;
	si.protocol = (uint16_t)proto;
	si.portid = portid;
	fdtab_open(fds, 1000, 3, "socket:[42]", 0);
	fdtab_sock(fds, 1000, &si, 0);
}

static void nl_socket(int proto)
{
	nl_socket_bound(proto, 1000);
}

static const char *fmt_opts(const struct sonde_strace_opts *o)
{
	struct strbuf a, r;

	T.call.sc = &T.sc;
	T.call.pl = T.pl;
	T.call.npl = T.npl;
	sb_init(&a);
	sb_init(&r);
	st_format_args(&a, o, &T.call, fds, &r, NULL, NULL, NULL);
	snprintf(out, sizeof(out), "%s = %s", a.s ? a.s : "", r.s ? r.s : "");
	sb_free(&a);
	sb_free(&r);
	return out;
}

static const char *fmt(void)
{
	struct sonde_strace_opts o;

	sonde_strace_opts_init(&o);
	return fmt_opts(&o);
}

/* sendto(3, buf, len) of which captured bytes were recorded. */
static void sendto_of(const void *buf, size_t len, size_t captured)
{
	tc_new(&T, SYS_sendto, (int64_t)len, 3, BUF, len, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, BUF, buf, captured);
}

struct getaddr {
	struct nlmsghdr h;
	struct ifaddrmsg ifa;
};

TEST(request)
{
	struct getaddr m = { { sizeof(m), RTM_GETADDR, NLM_F_REQUEST | NLM_F_DUMP, 1, 0 },
			     { .ifa_family = AF_INET } };

	nl_socket(NETLINK_ROUTE);
	sendto_of(&m, sizeof(m), sizeof(m));
	CHECK_EQ_STR(fmt(), "sendto(3, [{nlmsg_len=24, nlmsg_type=RTM_GETADDR, "
		     "nlmsg_flags=NLM_F_REQUEST|NLM_F_DUMP, nlmsg_seq=1, nlmsg_pid=0}, "
		     "{ifa_family=AF_INET, ifa_prefixlen=0, ifa_flags=0, "
		     "ifa_scope=RT_SCOPE_UNIVERSE, ifa_index=0}], 24, 0, NULL, 0) = 24");
}

/* A socket whose protocol is not known: the header is decoded, its
 * type and flags by the control table only, the payload in hex. */
TEST(unknown_protocol)
{
	struct getaddr m = { { sizeof(m), RTM_GETADDR, NLM_F_REQUEST | NLM_F_DUMP, 1, 0 },
			     { .ifa_family = AF_INET } };

	nl_socket(99);
	sendto_of(&m, sizeof(m), sizeof(m));
	CHECK_EQ_STR(fmt(), "sendto(3, [{nlmsg_len=24, nlmsg_type=0x16 /* NLMSG_??? */, "
		     "nlmsg_flags=NLM_F_REQUEST|0x300, nlmsg_seq=1, nlmsg_pid=0}, "
		     "\"\\x02\\x00\\x00\\x00\\x00\\x00\\x00\\x00\"], 24, 0, NULL, 0) = 24");
}

struct newaddr {
	struct nlmsghdr h;
	struct ifaddrmsg ifa;
	struct nlattr a;
	struct ifa_cacheinfo ci;
};

static const struct newaddr cacheinfo = {
	{ sizeof(struct newaddr), RTM_NEWADDR, 0, 1, 0 },
	{ .ifa_family = AF_INET, .ifa_prefixlen = 8, .ifa_index = 1 },
	{ sizeof(struct nlattr) + sizeof(struct ifa_cacheinfo), IFA_CACHEINFO },
	{ 0xffffffff, 300, 10, 20 },
};

/* A netlink socket not bound yet (its first sendto binds it): sock_diag
 * does not list it, strace knows no protocol and decodes the header
 * alone. */
TEST(unbound_socket)
{
	nl_socket_bound(NETLINK_ROUTE, 0);
	sendto_of(&cacheinfo, sizeof(cacheinfo), sizeof(cacheinfo));
	CHECK_EQ_STR(fmt(), "sendto(3, [{nlmsg_len=44, nlmsg_type=0x14 /* NLMSG_??? */, "
		     "nlmsg_flags=0, nlmsg_seq=1, nlmsg_pid=0}, \"\\x02\\x08\\x00\\x00"
		     "\\x01\\x00\\x00\\x00\\x14\\x00\\x06\\x00\\xff\\xff\\xff\\xff"
		     "\\x2c\\x01\\x00\\x00\\x0a\\x00\\x00\\x00\\x14\\x00\\x00\\x00\"], "
		     "44, 0, NULL, 0) = 44");
}

/* strace 6.1 prints the infinite lifetime as a number in every -X
 * style. */
TEST(ifa_cacheinfo_verbose)
{
	struct sonde_strace_opts o;

	sonde_strace_opts_init(&o);
	o.xlat = SONDE_XLAT_VERBOSE;
	nl_socket(NETLINK_ROUTE);
	sendto_of(&cacheinfo, sizeof(cacheinfo), sizeof(cacheinfo));
	CHECK_EQ_STR(fmt_opts(&o), "sendto(3, [{nlmsg_len=44, nlmsg_type=0x14 /* RTM_NEWADDR */, "
		     "nlmsg_flags=0, nlmsg_seq=1, nlmsg_pid=0}, {ifa_family=0x2 /* AF_INET */, "
		     "ifa_prefixlen=8, ifa_flags=0, ifa_scope=0 /* RT_SCOPE_UNIVERSE */, "
		     "ifa_index=1 /* if_nametoindex(\"lo\") */}, [{nla_len=20, "
		     "nla_type=0x6 /* IFA_CACHEINFO */}, {ifa_prefered=4294967295, "
		     "ifa_valid=300, cstamp=10, tstamp=20}]], 44, 0, NULL, 0) = 44");
}

/* Not a netlink socket: the bytes, as for any socket. */
TEST(not_netlink)
{
	struct getaddr m = { { sizeof(m), RTM_GETADDR, 0, 0, 0 }, { 0 } };

	fdtab_free(fds);
	fds = fdtab_new();
	sendto_of(&m, 4, 4);
	CHECK_EQ_STR(fmt(), "sendto(3, \"\\30\\0\\0\\0\", 4, 0, NULL, 0) = 4");
}

/* The capture ends inside the message: what was captured is decoded,
 * the rest shows as the address strace would print for memory it could
 * not read. */
TEST(capture_cut)
{
	uint8_t b[200] = { 0 };
	struct nlmsghdr h = { sizeof(b), RTM_NEWLINK, 0, 1, 0 };
	struct nlattr a = { 100, IFLA_IFNAME };

	memcpy(b, &h, sizeof(h));
	memcpy(b + NLMSG_HDRLEN + sizeof(struct ifinfomsg), &a, sizeof(a));
	nl_socket(NETLINK_ROUTE);
	for (size_t cut = 0; cut <= sizeof(b); cut++) {
		sendto_of(b, sizeof(b), cut);
		fmt();
		CHECK(strstr(out, "sendto(3, ") == out);
		CHECK(strstr(out, "], 200, 0, NULL, 0) = 200") || strstr(out, ", 200, 0, NULL, 0) = 200"));
	}
	sendto_of(b, sizeof(b), 20);
	CHECK_EQ_STR(fmt(), "sendto(3, [{nlmsg_len=200, nlmsg_type=RTM_NEWLINK, nlmsg_flags=0, "
		     "nlmsg_seq=1, nlmsg_pid=0}, {ifi_family=AF_UNSPEC, 0x10011}], "
		     "200, 0, NULL, 0) = 200");
}

/* Random messages, lengths and captures, every option that changes the
 * printing: nothing read past the capture (ASan), a line always ends. */
TEST(random_bytes)
{
	static const int protos[] = { NETLINK_ROUTE, NETLINK_SOCK_DIAG, NETLINK_GENERIC };
	struct sonde_strace_opts o;
	uint8_t b[512];
	uint32_t x = 2463534242u;

	sonde_strace_opts_init(&o);
	for (int i = 0; i < 6000; i++) {
		size_t len, cut;

		for (size_t k = 0; k < sizeof(b); k++) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			b[k] = (uint8_t)x;
		}
		/* plausible lengths make the walk go deep */
		for (size_t k = 0; k + 4 <= sizeof(b); k += 4 + (x % 24)) {
			uint16_t l = (uint16_t)(4 + x % 64);

			memcpy(b + k, &l, sizeof(l));
		}
		len = x % sizeof(b);
		cut = (x >> 9) % (len + 1);
		nl_socket(protos[i % 3]);
		o.verbose = i & 1;
		o.strsize = i & 2 ? 4 : 32;
		o.xstr = (uint8_t)(i % 3);
		o.xlat = (i >> 2) % 3;
		sendto_of(b, len, (i & 4) ? len : cut);
		fmt_opts(&o);
		CHECK(strstr(out, " = ") != NULL);
	}
}

int main(void)
{
	RUN(request);
	RUN(unknown_protocol);
	RUN(not_netlink);
	RUN(unbound_socket);
	RUN(ifa_cacheinfo_verbose);
	RUN(capture_cut);
	RUN(random_bytes);
	fdtab_free(fds);
	CHECK_EXIT();
}
