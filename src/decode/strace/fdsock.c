// SPDX-License-Identifier: GPL-2.0
/*
 * Names of descriptors from what the kernel recorded about them
 * (bpf/fdinfo.h): -y's "socket:[INO]", "pipe:[INO]", "anon_inode:[eventfd]"
 * from the file's file system and dentry (struct sonde_fdinfo), and -yy's
 * names of sockets from their struct sock (struct sonde_sockinfo), in the
 * form strace builds from sock_diag replies:
 *
 *   TCP:[127.0.0.1:80]  TCP:[127.0.0.1:80->127.0.0.1:5555]
 *   TCPv6:[[::1]:80->[::1]:5555]  UDP:[0.0.0.0:53]
 *   UNIX-STREAM:[12->13]  UNIX-STREAM:[12,"/run/x.sock"]  UNIX:[14,@"abs"]
 *   NETLINK:[ROUTE:4242]
 *
 * and PROTO:[INO] when sock_diag would not find the socket (an inet
 * socket not bound yet, a netlink socket without a port id) or strace
 * does not ask it (raw, packet... sockets).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/magic.h>
#include <linux/types.h>

#include <sonde/events.h>
#include <sonde/payload.h>
#include <sonde/strace.h>

/* pidfs (6.9+): its files still read as anon_inode:[pidfd]. */
#define SONDE_PID_FS_MAGIC 0x50494446

int sonde_fdinfo_name(const struct sonde_fdinfo *fi, char *buf, size_t len)
{
	char name[SONDE_FDINFO_NAME + 1];

	memcpy(name, fi->name, SONDE_FDINFO_NAME);
	name[SONDE_FDINFO_NAME] = 0;
	switch (fi->magic) {
	case SOCKFS_MAGIC:
		snprintf(buf, len, "socket:[%llu]", (unsigned long long)fi->ino);
		return 0;
	case PIPEFS_MAGIC:
		snprintf(buf, len, "pipe:[%llu]", (unsigned long long)fi->ino);
		return 0;
	case ANON_INODE_FS_MAGIC:
		snprintf(buf, len, "anon_inode:%s", name);
		return 0;
	case SONDE_PID_FS_MAGIC:
		snprintf(buf, len, "anon_inode:[pidfd]");
		return 0;
	}
	return -ENOENT;
}

static const char *const netlink_names[] = {
	[0] = "ROUTE",	       [1] = "UNUSED",	       [2] = "USERSOCK",   [3] = "FIREWALL",
	[4] = "SOCK_DIAG",     [5] = "NFLOG",	       [6] = "XFRM",	   [7] = "SELINUX",
	[8] = "ISCSI",	       [9] = "AUDIT",	       [10] = "FIB_LOOKUP", [11] = "CONNECTOR",
	[12] = "NETFILTER",    [13] = "IP6_FW",	       [14] = "DNRTMSG",   [15] = "KOBJECT_UEVENT",
	[16] = "GENERIC",      [18] = "SCSITRANSPORT", [19] = "ECRYPTFS",  [20] = "RDMA",
	[21] = "CRYPTO",       [22] = "SMC",
};

/* Appends at *off, never past len. */
static void put(char *buf, size_t len, size_t *off, const char *fmt, const char *s, unsigned int v)
{
	int n;

	if (*off >= len)
		return;
	n = s ? snprintf(buf + *off, len - *off, fmt, s, v) : snprintf(buf + *off, len - *off, fmt, v);
	if (n > 0)
		*off += (size_t)n;
}

/* A path as strace quotes it: "..." with \", \\ and octal escapes. */
static void put_quoted(char *buf, size_t len, size_t *off, const char *p, size_t n)
{
	put(buf, len, off, "%s", "\"", 0);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		char one[2] = { (char)c, 0 };

		if (c == '"' || c == '\\')
			put(buf, len, off, "\\%s", one, 0);
		else if (c >= ' ' && c < 0x7f)
			put(buf, len, off, "%s", one, 0);
		else
			put(buf, len, off, "\\%03o", NULL, c);
	}
	put(buf, len, off, "%s", "\"", 0);
}

static int is_inet_diag(const char *proto)
{
	return !strcmp(proto, "TCP") || !strcmp(proto, "UDP") || !strcmp(proto, "TCPv6") ||
	       !strcmp(proto, "UDPv6");
}

static void inet_name(const struct sonde_sockinfo *si, const char *proto, char *buf, size_t len,
		      size_t *off)
{
	static const uint8_t zero[16];
	int v6 = si->family == AF_INET6;
	char l[INET6_ADDRSTRLEN], r[INET6_ADDRSTRLEN];

	inet_ntop(si->family, si->laddr, l, sizeof(l));
	inet_ntop(si->family, si->raddr, r, sizeof(r));
	put(buf, len, off, "%s:[", proto, 0);
	put(buf, len, off, v6 ? "[%s]" : "%s", l, 0);
	put(buf, len, off, ":%u", NULL, si->lport);
	if (si->rport || memcmp(si->raddr, zero, v6 ? 16 : 4)) {
		put(buf, len, off, v6 ? "->[%s]" : "->%s", r, 0);
		put(buf, len, off, ":%u", NULL, si->rport);
	}
	put(buf, len, off, "%s", "]", 0);
}

/* The socket's protocol name, "socket" when the kernel gave none. */
static void proto_name(const struct sonde_sockinfo *si, char *proto)
{
	memcpy(proto, si->proto, SONDE_SOCK_PROTO);
	proto[SONDE_SOCK_PROTO] = 0;
	if (!proto[0])
		snprintf(proto, SONDE_SOCK_PROTO + 1, "socket");
}

static int inet_found(const struct sonde_sockinfo *si, const char *proto)
{
	return (si->family == AF_INET || si->family == AF_INET6) && is_inet_diag(proto) &&
	       si->lport;
}

int sonde_sockinfo_found(const struct sonde_sockinfo *si)
{
	char proto[SONDE_SOCK_PROTO + 1];

	proto_name(si, proto);
	if (si->family == AF_UNIX)
		return si->peer_ino || si->path_len;
	return inet_found(si, proto) || (si->family == AF_NETLINK && si->portid);
}

void sonde_sockinfo_name(const struct sonde_sockinfo *si, char *buf, size_t len)
{
	char proto[SONDE_SOCK_PROTO + 1];
	size_t off = 0;

	proto_name(si, proto);
	if (len)
		buf[0] = 0;
	if (inet_found(si, proto)) {
		inet_name(si, proto, buf, len, &off);
		return;
	}
	if (si->family == AF_NETLINK && si->portid) {
		const char *nl = si->protocol < sizeof(netlink_names) / sizeof(netlink_names[0])
					 ? netlink_names[si->protocol]
					 : NULL;

		put(buf, len, &off, "%s:[", proto, 0);
		if (nl)
			put(buf, len, &off, "%s", nl, 0);
		else
			put(buf, len, &off, "%u", NULL, si->protocol);
		put(buf, len, &off, ":%u]", NULL, si->portid);
		return;
	}
	put(buf, len, &off, "%s:[", proto, 0);
	snprintf(buf + (off < len ? off : len), off < len ? len - off : 0, "%" PRIu64,
		 (uint64_t)si->ino);
	off = strlen(buf);
	if (si->family == AF_UNIX) {
		size_t n = si->path_len < SONDE_SOCK_PATH ? si->path_len : SONDE_SOCK_PATH;

		if (si->peer_ino) {
			put(buf, len, &off, "%s", "->", 0);
			snprintf(buf + (off < len ? off : len), off < len ? len - off : 0,
				 "%" PRIu64, (uint64_t)si->peer_ino);
			off = strlen(buf);
		}
		if (n && si->path[0] == 0) {
			put(buf, len, &off, "%s", ",@", 0);
			put_quoted(buf, len, &off, si->path + 1, n - 1);
		} else if (n) {
			put(buf, len, &off, "%s", ",", 0);
			put_quoted(buf, len, &off, si->path, strnlen(si->path, n));
		}
	}
	put(buf, len, &off, "%s", "]", 0);
}
