// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink message types are family ids the kernel hands out at
 * run time. strace names them by asking the kernel for its families
 * (CTRL_CMD_GETFAMILY); sonde does the same, once, in the network
 * namespace of the host that prints, as it names interfaces.
 */
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "decode/strace/strace_int.h"
#include "decode/strace/netlink_int.h"

#define GENL_MAX 256

static struct xlat_ent genl_ents[GENL_MAX];
static char genl_names[GENL_MAX][GENL_NAMSIZ];
static struct xlat genl_x = { genl_ents, 0, 0 };

/* One family of the dump: its id and name attributes. */
static void genl_add(const uint8_t *p, size_t len)
{
	uint16_t id = 0;
	const char *name = NULL;
	size_t nlen = 0;

	while (len >= NLA_HDRLEN && genl_x.n < GENL_MAX) {
		struct nlattr a;

		memcpy(&a, p, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || a.nla_len > len)
			break;
		if (a.nla_type == CTRL_ATTR_FAMILY_ID && a.nla_len >= NLA_HDRLEN + 2)
			memcpy(&id, p + NLA_HDRLEN, sizeof(id));
		if (a.nla_type == CTRL_ATTR_FAMILY_NAME) {
			name = (const char *)p + NLA_HDRLEN;
			nlen = a.nla_len - NLA_HDRLEN;
		}
		if ((size_t)NLA_ALIGN(a.nla_len) >= len)
			break;
		p += NLA_ALIGN(a.nla_len);
		len -= NLA_ALIGN(a.nla_len);
	}
	if (!name || !nlen || genl_x.n >= GENL_MAX)
		return;
	if (nlen >= GENL_NAMSIZ)
		nlen = GENL_NAMSIZ - 1;
	memcpy(genl_names[genl_x.n], name, nlen);
	genl_names[genl_x.n][nlen] = 0;
	genl_ents[genl_x.n].val = id;
	genl_ents[genl_x.n].name = genl_names[genl_x.n];
	genl_x.n++;
}

/* The messages of one reply; 0 when the dump is over. */
static int genl_reply(const uint8_t *b, size_t len)
{
	const size_t hdr = NLMSG_HDRLEN + GENL_HDRLEN;

	while (len >= NLMSG_HDRLEN) {
		struct nlmsghdr h;

		memcpy(&h, b, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > len ||
		    h.nlmsg_type == NLMSG_DONE || h.nlmsg_type == NLMSG_ERROR)
			return 0;
		if (h.nlmsg_len > hdr)
			genl_add(b + hdr, h.nlmsg_len - hdr);
		if ((size_t)NLMSG_ALIGN(h.nlmsg_len) >= len)
			break;
		b += NLMSG_ALIGN(h.nlmsg_len);
		len -= NLMSG_ALIGN(h.nlmsg_len);
	}
	return 1;
}

static void genl_load(void)
{
	struct {
		struct nlmsghdr h;
		struct genlmsghdr g;
	} req = { { sizeof(req), GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_DUMP, 1, 0 },
		  { CTRL_CMD_GETFAMILY, 1, 0 } };
	/* a kernel that stops answering must not stop the printing */
	static const struct timeval wait = { 1, 0 };
	static uint8_t buf[16384];
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	ssize_t n;

	if (fd < 0)
		return;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof(wait)) ||
	    send(fd, &req, sizeof(req), 0) != sizeof(req))
		goto out;
	do
		n = recv(fd, buf, sizeof(buf), 0);
	while (n > 0 && genl_reply(buf, (size_t)n));
out:
	close(fd);
}

const struct xlat *nl_genl_families(void)
{
	static int loaded;

	if (!loaded) {
		loaded = 1;
		genl_load();
	}
	return &genl_x;
}
