// SPDX-License-Identifier: GPL-2.0
/* strace decoders of socket and multiplexing syscalls: strace 6.1 text. */
#include <arpa/inet.h>
#include <linux/if_arp.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>

#include "check.h"
#include "test_strace_util.h"

static struct tcall T;

TEST(sockets)
{
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(1) };
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6, .sin6_port = htons(80) };
	struct sockaddr_un un = { .sun_family = AF_UNIX, .sun_path = "/tmp/nonexist.sock" };
	int one = 1;

	in.sin_addr.s_addr = htonl(0x7f000001);
	in6.sin6_addr.s6_addr[15] = 1;
	tc_new(&T, SYS_socket, 6, AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "socket(AF_INET, SOCK_STREAM|SOCK_CLOEXEC, IPPROTO_IP) = 6");
	tc_new(&T, SYS_socket, 7, AF_UNIX, SOCK_DGRAM, 0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "socket(AF_UNIX, SOCK_DGRAM, 0) = 7");
	tc_new(&T, SYS_socket, 3, AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "socket(AF_UNIX, SOCK_STREAM|SOCK_CLOEXEC|SOCK_NONBLOCK, 0) = 3");
	tc_new(&T, SYS_connect, -111, 6, 0x1000, sizeof(in), 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, &in, sizeof(in));
	CHECK_EQ_STR(tc_fmt(&T), "connect(6, {sa_family=AF_INET, sin_port=htons(1), sin_addr=inet_addr(\"127.0.0.1\")}, 16) = -1 ECONNREFUSED (Connection refused)");
	tc_new(&T, SYS_connect, -2, 7, 0x1000, sizeof(un), 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, &un, sizeof(un));
	CHECK_EQ_STR(tc_fmt(&T), "connect(7, {sa_family=AF_UNIX, sun_path=\"/tmp/nonexist.sock\"}, 110) = -1 ENOENT (No such file or directory)");
	tc_new(&T, SYS_connect, -111, 8, 0x1000, sizeof(in6), 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, &in6, sizeof(in6));
	CHECK_EQ_STR(tc_fmt(&T), "connect(8, {sa_family=AF_INET6, sin6_port=htons(80), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, \"::1\", &sin6_addr), sin6_scope_id=0}, 28) = -1 ECONNREFUSED (Connection refused)");
	tc_new(&T, SYS_setsockopt, 0, 6, SOL_SOCKET, SO_REUSEADDR, 0x1000, 4, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 3, 0x1000, &one, 4);
	CHECK_EQ_STR(tc_fmt(&T), "setsockopt(6, SOL_SOCKET, SO_REUSEADDR, [1], 4) = 0");

	/* getsockname with an in/out length: [128 => 2] */
	int in_len = 128, out_len = 2;
	uint16_t fam = AF_UNIX;
	tc_new(&T, SYS_getsockname, 0, 6, 0x1000, 0x2000, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 2, 0x2000, &in_len, 4);
	tc_mem(&T, SONDE_PL_EXIT, 2, 0x2000, &out_len, 4);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x1000, &fam, 2);
	CHECK_EQ_STR(tc_fmt(&T), "getsockname(6, {sa_family=AF_UNIX}, [128 => 2]) = 0");
	int fds[2] = { 6, 7 };
	tc_new(&T, SYS_socketpair, 0, AF_UNIX, SOCK_STREAM, 0, 0x1000, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 3, 0x1000, fds, 8);
	CHECK_EQ_STR(tc_fmt(&T), "socketpair(AF_UNIX, SOCK_STREAM, 0, [6, 7]) = 0");
	tc_new(&T, SYS_recvfrom, 1, 6, 0x1000, 8, MSG_DONTWAIT, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x1000, "x", 1);
	CHECK_EQ_STR(tc_fmt(&T), "recvfrom(6, \"x\", 8, MSG_DONTWAIT, NULL, NULL) = 1");
}

/* Addresses strace decodes by family: a netlink socket's groups as
 * "%#08x", a packet socket's struct sockaddr_ll; a packet socket's
 * protocol in network order. */
TEST(sockaddr_families)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK, .nl_groups = 0x11 };
	struct sockaddr_ll ll = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_IP),
				  .sll_ifindex = 0, .sll_hatype = ARPHRD_LOOPBACK,
				  .sll_pkttype = PACKET_OUTGOING, .sll_halen = 2,
				  .sll_addr = { 0, 0xab } };

	tc_new(&T, SYS_bind, 0, 3, 0x1000, sizeof(nl), 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, &nl, sizeof(nl));
	CHECK_EQ_STR(tc_fmt(&T), "bind(3, {sa_family=AF_NETLINK, nl_pid=0, nl_groups=0x000011}, 12) = 0");
	tc_new(&T, SYS_bind, 0, 3, 0x1000, sizeof(ll), 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, &ll, sizeof(ll));
	CHECK_EQ_STR(tc_fmt(&T), "bind(3, {sa_family=AF_PACKET, sll_protocol=htons(ETH_P_IP), "
		     "sll_ifindex=0, sll_hatype=ARPHRD_LOOPBACK, sll_pkttype=PACKET_OUTGOING, "
		     "sll_halen=2, sll_addr=[00, 0xab]}, 20) = 0");
	tc_new(&T, SYS_socket, 4, AF_PACKET, SOCK_RAW, htons(ETH_P_ALL), 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL)) = 4");
}

TEST(msghdr)
{
	uint64_t iov[2] = { 0x3000, 3 };
	struct { uint64_t name; uint32_t namelen, pad; uint64_t iov, iovlen, control, controllen;
		 int32_t flags, pad2; } m = { 0, 0, 0, 0x2000, 1, 0, 0, 0, 0 };

	tc_new(&T, SYS_sendmsg, 3, 7, 0x1000, 0, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, &m, 56);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x2000, iov, 16);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x3000, "abc", 3);
	CHECK_EQ_STR(tc_fmt(&T), "sendmsg(7, {msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base=\"abc\", iov_len=3}], msg_iovlen=1, msg_controllen=0, msg_flags=0}, 0) = 3");
	iov[1] = 8;
	tc_new(&T, SYS_recvmsg, 3, 6, 0x1000, 0, 0, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x1000, &m, 56);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x2000, iov, 16);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x3000, "abc", 3);
	CHECK_EQ_STR(tc_fmt(&T), "recvmsg(6, {msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base=\"abc\", iov_len=8}], msg_iovlen=1, msg_controllen=0, msg_flags=0}, 0) = 3");
}

/* recvmsg: the struct the kernel wrote back, a failed call's name length. */
TEST(msghdr_out)
{
	uint64_t iov[2] = { 0x3000, 8 };
	struct { uint64_t name; uint32_t namelen, pad; uint64_t iov, iovlen, control, controllen;
		 int32_t flags, pad2; } in = { 0x4000, 128, 0, 0x2000, 1, 0x5000, 256, MSG_EOR, 0 },
		out = in;
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(7) };
	struct { struct cmsghdr h; struct in_pktinfo pi; } cm = {
		{ .cmsg_len = 28, .cmsg_level = SOL_IP, .cmsg_type = IP_PKTINFO }, { 0 } };

	sin.sin_addr.s_addr = htonl(0x7f000001);
	cm.pi.ipi_addr.s_addr = htonl(0x7f000001);
	out.namelen = sizeof(sin);
	out.controllen = 32;
	out.flags = MSG_TRUNC;
	tc_new(&T, SYS_recvmsg, 1, 6, 0x1000, 0, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, &in, 56);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x1000, &out, 56);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x2000, iov, 16);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x3000, "a", 1);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x4000, &sin, sizeof(sin));
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x5000, &cm, 32);
	CHECK_EQ_STR(tc_fmt(&T), "recvmsg(6, {msg_name={sa_family=AF_INET, sin_port=htons(7), sin_addr=inet_addr(\"127.0.0.1\")}, msg_namelen=128 => 16, msg_iov=[{iov_base=\"a\", iov_len=8}], msg_iovlen=1, msg_control=[{cmsg_len=28, cmsg_level=SOL_IP, cmsg_type=IP_PKTINFO, cmsg_data={ipi_ifindex=0, ipi_spec_dst=inet_addr(\"0.0.0.0\"), ipi_addr=inet_addr(\"127.0.0.1\")}}], msg_controllen=32, msg_flags=MSG_TRUNC}, 0) = 1");

	tc_new(&T, SYS_recvmsg, -11, 6, 0x1000, 0, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, &in, 56);
	CHECK_EQ_STR(tc_fmt(&T), "recvmsg(6, {msg_namelen=128}, 0) = -1 EAGAIN (Resource temporarily unavailable)");

	/* a failed readv: the vector, buffers as addresses */
	uint64_t v[4] = { 0x3000, 4, 1, 4 };
	tc_new(&T, SYS_readv, -9, -1, 0x2000, 2, 0, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x2000, v, sizeof(v));
	CHECK_EQ_STR(tc_fmt(&T), "readv(-1, [{iov_base=0x3000, iov_len=4}, {iov_base=0x1, iov_len=4}], 2) = -1 EBADF (Bad file descriptor)");

	/* recvmmsg: the time left, no message asked for */
	struct timespec to = { 1, 0 }, left = { 0, 5 };
	uint8_t mm[64] = { 0 };
	tc_new(&T, SYS_recvmmsg, 0, 6, 0x1000, 0, 0, 0x6000, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 4, 0x6000, &to, sizeof(to));
	CHECK_EQ_STR(tc_fmt(&T), "recvmmsg(6, [], 0, 0, {tv_sec=1, tv_nsec=0}) = 0 (Timeout)");
	tc_new(&T, SYS_recvmmsg, 1, 6, 0x1000, 1, 0, 0x6000, 0);
	memcpy(mm, &in, 56);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, mm, sizeof(mm));
	memcpy(mm, &out, 56);
	mm[56] = 1; /* msg_len */
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x1000, mm, sizeof(mm));
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x2000, iov, 16);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x3000, "a", 1);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x4000, &sin, sizeof(sin));
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x5000, &cm, 32);
	tc_mem(&T, SONDE_PL_ENTRY, 4, 0x6000, &to, sizeof(to));
	tc_mem(&T, SONDE_PL_EXIT, 4, 0x6000, &left, sizeof(left));
	CHECK(strstr(tc_fmt(&T), "msg_namelen=128 => 16") != NULL);
	CHECK(strstr(tc_fmt(&T), "{tv_sec=1, tv_nsec=0}) = 1 (left {tv_sec=0, tv_nsec=5})") != NULL);
}

TEST(netlink_sockopt)
{
	int one = 1;
	uint32_t groups[2] = { 1, 0 }, in = 16, out = 8;

	tc_new(&T, SYS_setsockopt, 0, 3, SOL_NETLINK, NETLINK_EXT_ACK, 0x1000, 4, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 3, 0x1000, &one, 4);
	CHECK_EQ_STR(tc_fmt(&T), "setsockopt(3, SOL_NETLINK, NETLINK_EXT_ACK, [1], 4) = 0");
	tc_new(&T, SYS_setsockopt, 0, 3, SOL_NETLINK, NETLINK_CAP_ACK, 0x1000, 2, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 3, 0x1000, &one, 2);
	CHECK_EQ_STR(tc_fmt(&T), "setsockopt(3, SOL_NETLINK, NETLINK_CAP_ACK, 0x1000, 2) = 0");
	tc_new(&T, SYS_setsockopt, -92, 3, SOL_NETLINK, 99, 0x1000, 4, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 3, 0x1000, &one, 4);
	CHECK_EQ_STR(tc_fmt(&T), "setsockopt(3, SOL_NETLINK, 0x63 /* NETLINK_??? */, [1], 4) = -1 ENOPROTOOPT (Protocol not available)");
	tc_new(&T, SYS_getsockopt, 0, 3, SOL_NETLINK, NETLINK_LIST_MEMBERSHIPS, 0x1000, 0x2000, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 4, 0x2000, &in, 4);
	tc_mem(&T, SONDE_PL_EXIT, 4, 0x2000, &out, 4);
	tc_mem(&T, SONDE_PL_EXIT, 3, 0x1000, groups, sizeof(groups));
	CHECK_EQ_STR(tc_fmt(&T), "getsockopt(3, SOL_NETLINK, NETLINK_LIST_MEMBERSHIPS, [1, 0], [16 => 8]) = 0");
}

TEST(poll_select_epoll)
{
	struct pollfd in[2] = { { 3, POLLIN, 0 }, { 4, POLLOUT, 0 } };
	struct pollfd out[2] = { { 3, POLLIN, 0 }, { 4, POLLOUT, POLLOUT } };

	tc_new(&T, SYS_poll, 1, 0x1000, 2, 0, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 0, 0x1000, in, sizeof(in));
	tc_mem(&T, SONDE_PL_EXIT, 0, 0x1000, out, sizeof(out));
	CHECK_EQ_STR(tc_fmt(&T), "poll([{fd=3, events=POLLIN}, {fd=4, events=POLLOUT}], 2, 0) = 1 ([{fd=4, revents=POLLOUT}])");
	tc_new(&T, SYS_poll, 0, 0x1000, 1, 0, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 0, 0x1000, in, sizeof(in[0]));
	CHECK_EQ_STR(tc_fmt(&T), "poll([{fd=3, events=POLLIN}], 1, 0) = 0 (Timeout)");

	uint64_t set = 1 << 6, ts[2] = { 0, 0 };
	tc_new(&T, SYS_pselect6, 1, 7, 0x1000, 0, 0, 0x2000, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, &set, 8);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x1000, &set, 8);
	tc_mem(&T, SONDE_PL_ENTRY, 4, 0x2000, ts, 16);
	tc_mem(&T, SONDE_PL_EXIT, 4, 0x2000, ts, 16);
	CHECK_EQ_STR(tc_fmt(&T), "pselect6(7, [6], NULL, NULL, {tv_sec=0, tv_nsec=0}, NULL) = 1 (in [6], left {tv_sec=0, tv_nsec=0})");

	uint8_t ev[12] = { EPOLLIN, 0, 0, 0x80, 7 };
	tc_new(&T, SYS_epoll_ctl, 0, 9, EPOLL_CTL_ADD, 3, 0x1000, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 3, 0x1000, ev, sizeof(ev));
	CHECK_EQ_STR(tc_fmt(&T), "epoll_ctl(9, EPOLL_CTL_ADD, 3, {events=EPOLLIN|EPOLLET, data={u32=7, u64=7}}) = 0");
	tc_new(&T, SYS_epoll_wait, 0, 9, 0x1000, 1, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "epoll_wait(9, [], 1, 0) = 0");
	tc_new(&T, SYS_epoll_create1, 9, EPOLL_CLOEXEC, 0, 0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "epoll_create1(EPOLL_CLOEXEC) = 9");
}

/* xargs polls 64 closed descriptors: 32 revents and "...", longer than
 * any fixed buffer for what follows the return value. */
TEST(poll_long_result)
{
	struct pollfd in[64], out[64];
	char want[4096];
	size_t n;

	for (int i = 0; i < 64; i++) {
		in[i] = (struct pollfd){ 64 + i, POLLIN | POLLOUT, 0 };
		out[i] = (struct pollfd){ 64 + i, POLLIN | POLLOUT, POLLNVAL };
	}
	tc_new(&T, SYS_poll, 64, 0x1000, 64, 0, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 0, 0x1000, in, sizeof(in));
	tc_mem(&T, SONDE_PL_EXIT, 0, 0x1000, out, sizeof(out));
	n = (size_t)snprintf(want, sizeof(want), "poll([");
	for (int i = 0; i < 32; i++)
		n += (size_t)snprintf(want + n, sizeof(want) - n,
				      "{fd=%d, events=POLLIN|POLLOUT}, ", 64 + i);
	n += (size_t)snprintf(want + n, sizeof(want) - n, "...], 64, 0) = 64 ([");
	for (int i = 0; i < 32; i++)
		n += (size_t)snprintf(want + n, sizeof(want) - n,
				      "{fd=%d, revents=POLLNVAL}, ", 64 + i);
	snprintf(want + n, sizeof(want) - n, "...])");
	CHECK_EQ_STR(tc_fmt(&T), want);
}

int main(void)
{
	RUN(sockets);
	RUN(sockaddr_families);
	RUN(msghdr);
	RUN(msghdr_out);
	RUN(netlink_sockopt);
	RUN(poll_select_epoll);
	RUN(poll_long_result);
	CHECK_EXIT();
}
