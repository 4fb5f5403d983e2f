// SPDX-License-Identifier: GPL-2.0
/*
 * Seeds for fuzz_netlink: well-formed rtnetlink and sock_diag messages
 * (a link request with attributes, an error acknowledgement echoing it,
 * an inet_diag request), so that mutations start deep in the decoders.
 * Writes one file per seed into the directory given.
 */
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

static int put(const char *dir, const char *name, unsigned char sel, const void *p, size_t n)
{
	char path[4096];
	FILE *f;
	unsigned char hdr[2] = { sel, 255 };

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f)
		return 1;
	fwrite(hdr, 1, 2, f);
	fwrite(p, 1, n, f);
	return fclose(f) != 0;
}

int main(int argc, char **argv)
{
	struct {
		struct nlmsghdr h;
		struct ifinfomsg ifi;
		struct nlattr a;
		char name[4];
	} link = { { sizeof(link), RTM_GETLINK, NLM_F_REQUEST, 1, 0 },
		   { .ifi_family = AF_UNSPEC }, { 7, IFLA_IFNAME }, "lo" };
	struct {
		struct nlmsghdr h;
		int err;
		struct nlmsghdr echo;
		struct nlattr a;
		char msg[4];
	} ack = { { sizeof(ack), NLMSG_ERROR, 0, 1, 0 }, -19,
		  { 32, RTM_GETLINK, NLM_F_REQUEST, 1, 0 }, { 8, 1 }, "bad" };
	struct {
		struct nlmsghdr h;
		struct inet_diag_req_v2 r;
	} diag = { { sizeof(diag), SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP, 1, 0 },
		   { .sdiag_family = AF_INET, .sdiag_protocol = 6, .idiag_states = 0xfff } };

	if (argc != 2)
		return 1;
	return put(argv[1], "link", 0, &link, sizeof(link)) |
	       put(argv[1], "ack", 0, &ack, sizeof(ack)) |
	       put(argv[1], "diag", 1, &diag, sizeof(diag));
}
