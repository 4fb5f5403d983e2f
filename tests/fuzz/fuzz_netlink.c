// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the strace netlink decoders (src/decode/strace/
 * netlink.c, nl_route.c, nl_diag.c): arbitrary bytes as the buffer of a
 * sendto and of a recvfrom on a netlink socket, captured whole or cut
 * short. The first two bytes choose the socket's protocol, the options
 * (-v, -s, -x, -X) and where the capture ends. Captured memory is
 * hostile input: any read past it, crash or UBSan report is a bug.
 */
#include <linux/netlink.h>
#include <linux/types.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include <sonde/events.h>
#include <sonde/payload.h>
#include "../unit/test_strace_util.h"
#include "decode/strace/strace_int.h"

#define BUF 0x10000

static struct tcall T;

static struct fdtab *nl_fds(int proto)
{
	static const int protos[] = { NETLINK_ROUTE, NETLINK_SOCK_DIAG, NETLINK_GENERIC };
	struct fdtab *t = fdtab_new();
	struct sonde_sockinfo si;

	if (!t)
		return NULL;
	memset(&si, 0, sizeof(si));
	si.fd = 3;
	si.family = AF_NETLINK;
	si.ino = 7;
	si.protocol = (uint16_t)protos[proto % 3];
	fdtab_open(t, 1000, 3, "socket:[7]", 0);
	fdtab_sock(t, 1000, &si, 0);
	return t;
}

static void run(struct fdtab *t, const struct sonde_strace_opts *o)
{
	struct strbuf a, r;

	T.call.sc = &T.sc;
	T.call.pl = T.pl;
	T.call.npl = T.npl;
	sb_init(&a);
	sb_init(&r);
	st_format_args(&a, o, &T.call, t, &r, NULL, NULL, NULL);
	sb_free(&a);
	sb_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sonde_strace_opts o;
	struct fdtab *t;
	size_t len, cut;

	if (size < 2 || size - 2 > TC_MEM)
		return 0;
	len = size - 2;
	cut = len * data[1] / 255;
	t = nl_fds(data[0]);
	if (!t)
		return 0;
	sonde_strace_opts_init(&o);
	o.verbose = data[0] >> 2 & 1;
	o.strsize = data[0] & 8 ? 4 : 32;
	o.xstr = (uint8_t)(data[0] >> 4 & 3) % 3;
	o.xlat = (data[0] >> 6) % 3;
	tc_new(&T, SYS_sendto, (int64_t)len, 3, BUF, len, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, BUF, data + 2, cut);
	run(t, &o);
	tc_new(&T, SYS_recvfrom, (int64_t)len, 3, BUF, len, 0, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 1, BUF, data + 2, len);
	run(t, &o);
	fdtab_free(t);
	return 0;
}
