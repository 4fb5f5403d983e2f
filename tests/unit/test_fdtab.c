// SPDX-License-Identifier: GPL-2.0
/*
 * The offline descriptor tables of -y/-yy (src/decode/strace/fdtab.c,
 * fdpath.c): socket facts looked up as they were at a line's time,
 * descriptors named by received facts, lexical paths.
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <linux/types.h>

#include <sonde/events.h>
#include <sonde/payload.h>
#include "check.h"
#include "decode/strace/fdtab.h"
#include "decode/strace/fdpath.h"

static struct sonde_sockinfo udp(int fd, uint64_t ino, uint16_t lport)
{
	struct sonde_sockinfo si;

	memset(&si, 0, sizeof(si));
	si.fd = fd;
	si.family = AF_INET;
	si.type = SOCK_DGRAM;
	si.ino = ino;
	si.lport = lport;
	strcpy(si.proto, "UDP");
	return si;
}

/* A UDP socket made at 10, bound by a send that returned at 30: lines
 * before 30 show its inode, later ones its port; a line before anything
 * was said of it shows the first facts. */
TEST(sock_facts_by_time)
{
	struct fdtab *t = fdtab_new();
	struct sonde_sockinfo si = udp(3, 77, 0);
	char buf[128];

	CHECK(t != NULL);
	CHECK_EQ_INT(fdtab_open(t, 100, 3, "socket:[77]", 0), 0);
	CHECK_EQ_INT(fdtab_sock(t, 100, &si, 10), 0);
	si = udp(3, 77, 4242);
	CHECK_EQ_INT(fdtab_sock(t, 100, &si, 30), 0);
	CHECK_EQ_STR(fdtab_detail(t, 100, 3, 5, buf, sizeof(buf)), "UDP:[77]");
	CHECK_EQ_STR(fdtab_detail(t, 100, 3, 20, buf, sizeof(buf)), "UDP:[77]");
	CHECK_EQ_STR(fdtab_detail(t, 100, 3, 30, buf, sizeof(buf)), "UDP:[0.0.0.0:4242]");
	CHECK_EQ_STR(fdtab_detail(t, 100, 3, 99, buf, sizeof(buf)), "UDP:[0.0.0.0:4242]");
	fdtab_free(t);
}

/* strace caches a socket's name once sock_diag found it (slot
 * inode & 1023): a UDP socket printed while bound keeps that name after
 * it connects (python's sendto then connect); one first printed
 * connected shows its endpoints; a socket found in the same slot takes
 * the slot over. */
TEST(sock_name_cached_as_strace)
{
	struct fdtab *t = fdtab_new();
	struct sonde_sockinfo si = udp(3, 77, 4242);
	char buf[128];

	CHECK_EQ_INT(fdtab_open(t, 100, 3, "socket:[77]", 0), 0);
	CHECK_EQ_INT(fdtab_sock(t, 100, &si, 10), 0);
	si.rport = 53;
	si.raddr[0] = 127;
	si.raddr[3] = 1;
	CHECK_EQ_INT(fdtab_sock(t, 100, &si, 30), 0);
	CHECK_EQ_STR(fdtab_detail(t, 100, 3, 20, buf, sizeof(buf)), "UDP:[0.0.0.0:4242]");
	CHECK_EQ_STR(fdtab_detail(t, 100, 3, 40, buf, sizeof(buf)), "UDP:[0.0.0.0:4242]");
	si = udp(4, 77 + 1024, 0);
	CHECK_EQ_INT(fdtab_open(t, 100, 4, "socket:[1101]", 0), 0);
	CHECK_EQ_INT(fdtab_sock(t, 100, &si, 10), 0);
	CHECK_EQ_STR(fdtab_detail(t, 100, 4, 40, buf, sizeof(buf)), "UDP:[1101]");
	CHECK_EQ_STR(fdtab_detail(t, 100, 3, 40, buf, sizeof(buf)), "UDP:[0.0.0.0:4242]");
	si.lport = 5353;
	CHECK_EQ_INT(fdtab_sock(t, 100, &si, 50), 0);
	CHECK_EQ_STR(fdtab_detail(t, 100, 4, 60, buf, sizeof(buf)), "UDP:[0.0.0.0:5353]");
	CHECK_EQ_STR(fdtab_detail(t, 100, 3, 60, buf, sizeof(buf)),
		     "UDP:[0.0.0.0:4242->127.0.0.1:53]");
	fdtab_free(t);
}

/* Lines are formatted out of time order (a call's exit half with its
 * entry, calls in entry order): what a later line found serves no
 * earlier one (fd_scm: a receiver's recvmsg, entered first, names the
 * socket bound later; the sender's socket() still shows its inode). */
TEST(sock_name_cache_in_time)
{
	struct fdtab *t = fdtab_new();
	struct sonde_sockinfo si = udp(3, 90, 0);
	char buf[128];

	CHECK_EQ_INT(fdtab_open(t, 100, 3, "socket:[90]", 0), 0);
	CHECK_EQ_INT(fdtab_sock(t, 100, &si, 10), 0);
	si.lport = 5000;
	CHECK_EQ_INT(fdtab_sock(t, 100, &si, 30), 0);
	CHECK_EQ_STR(fdtab_detail(t, 100, 3, 50, buf, sizeof(buf)), "UDP:[0.0.0.0:5000]");
	CHECK_EQ_STR(fdtab_detail(t, 100, 3, 10, buf, sizeof(buf)), "UDP:[90]");
	CHECK_EQ_STR(fdtab_detail(t, 100, 3, 20, buf, sizeof(buf)), "UDP:[90]");
	CHECK_EQ_STR(fdtab_detail(t, 100, 3, 40, buf, sizeof(buf)), "UDP:[0.0.0.0:5000]");
	fdtab_free(t);
}

/* Facts of a socket the tables did not hold (received, inherited) name
 * its descriptor; the same socket in another process shares them. */
TEST(sock_facts_name_unknown_fd)
{
	struct fdtab *t = fdtab_new();
	struct sonde_sockinfo si = udp(9, 88, 5000);
	char buf[128];

	CHECK_EQ_INT(fdtab_sock(t, 200, &si, 50), 0);
	CHECK_EQ_STR(fdtab_path(t, 200, 9), "socket:[88]");
	CHECK_EQ_STR(fdtab_detail(t, 200, 9, 60, buf, sizeof(buf)), "UDP:[0.0.0.0:5000]");
	CHECK_EQ_INT(fdtab_open(t, 300, 4, "socket:[88]", 0), 0);
	CHECK_EQ_STR(fdtab_detail(t, 300, 4, 60, buf, sizeof(buf)), "UDP:[0.0.0.0:5000]");
	fdtab_free(t);
}

/* A UNIX client learns its peer when accept() names it, from then on. */
TEST(unix_peer_from_accept)
{
	struct fdtab *t = fdtab_new();
	struct sonde_sockinfo c, a;
	char buf[128];

	memset(&c, 0, sizeof(c));
	c.fd = 4;
	c.family = AF_UNIX;
	c.ino = 10;
	strcpy(c.proto, "UNIX-STREAM");
	a = c;
	a.fd = 5;
	a.ino = 11;
	a.peer_ino = 10;
	CHECK_EQ_INT(fdtab_sock(t, 1, &c, 100), 0);
	CHECK_EQ_INT(fdtab_sock(t, 1, &a, 200), 0);
	CHECK_EQ_STR(fdtab_detail(t, 1, 4, 150, buf, sizeof(buf)), "UNIX-STREAM:[10]");
	CHECK_EQ_STR(fdtab_detail(t, 1, 4, 250, buf, sizeof(buf)), "UNIX-STREAM:[10->11]");
	CHECK_EQ_STR(fdtab_detail(t, 1, 5, 250, buf, sizeof(buf)), "UNIX-STREAM:[11->10]");
	fdtab_free(t);
}

TEST(paths_lexical)
{
	char out[64];

	CHECK_EQ_INT(fdpath_resolve(NULL, "/a/./b/../c", out, sizeof(out)), 0);
	CHECK_EQ_STR(out, "/a/c");
	CHECK_EQ_INT(fdpath_resolve("/home/x", "../y//z", out, sizeof(out)), 0);
	CHECK_EQ_STR(out, "/home/y/z");
	CHECK_EQ_INT(fdpath_resolve(NULL, "rel", out, sizeof(out)), -1);
	CHECK_EQ_INT(fdpath_resolve("/", "..", out, sizeof(out)), 0);
	CHECK_EQ_STR(out, "/");
	CHECK_EQ_INT(fdpath_resolve(NULL, NULL, out, sizeof(out)), -1);
}

/* find | xargs: a descriptor opened on /proc/self/fd is the opener's */
TEST(proc_self)
{
	struct fdtab *t = fdtab_new();
	struct fdtab_call c = { .tid = 12, .pid = 10, .nr = __NR_openat, .ret = 3,
				.args = { (uint64_t)-100 }, .path1 = "/proc/self/fd" };
	char out[64] = "/proc/thread-self/fdinfo";

	fdtab_apply(t, &c);
	CHECK(fdtab_path(t, 12, 3) != NULL);
	if (fdtab_path(t, 12, 3))
		CHECK_EQ_STR(fdtab_path(t, 12, 3), "/proc/10/fd");
	fdpath_proc_self(out, sizeof(out), 10, 12);
	CHECK_EQ_STR(out, "/proc/10/task/12/fdinfo");
	strcpy(out, "/proc/selfish");
	fdpath_proc_self(out, sizeof(out), 10, 12);
	CHECK_EQ_STR(out, "/proc/selfish");
	fdtab_free(t);
}

/* A hostile trace's task forking itself (clone returning its own pid, a
 * fork record naming one task twice) leaves its tables as they were:
 * they were freed and then shared before; tid 0 is nobody (both found by
 * fuzz_strace and fuzz_reader). */
TEST(fork_self)
{
	struct fdtab *t = fdtab_new();

	CHECK(t != NULL);
	CHECK_EQ_INT(fdtab_open(t, 7, 3, "/etc/passwd", 0), 0);
	CHECK_EQ_INT(fdtab_fork(t, 8, 8, 0x400 | 0x200), 0); /* CLONE_FILES|CLONE_FS */
	CHECK_EQ_INT(fdtab_fork(t, 7, 7, 0x400 | 0x200), 0);
	CHECK_EQ_INT(fdtab_fork(t, 7, 7, 0), 0);
	CHECK(fdtab_path(t, 7, 3) != NULL);
	if (fdtab_path(t, 7, 3))
		CHECK_EQ_STR(fdtab_path(t, 7, 3), "/etc/passwd");
	CHECK_EQ_INT(fdtab_fork(t, 7, 9, 0x400), 0);
	CHECK(fdtab_path(t, 9, 3) != NULL);
	/* tid 0, a free slot's mark: nothing to do (the copy made for it was
	 * leaked, and a lookup of it found a slot without tables) */
	CHECK_EQ_INT(fdtab_fork(t, 7, 0, 0), 0);
	CHECK_EQ_INT(fdtab_fork(t, 0, 7, 0), 0);
	CHECK_EQ_INT(fdtab_reset(t, 0), 0);
	CHECK(fdtab_path(t, 0, 3) == NULL);
	fdtab_exit(t, 0);
	fdtab_free(t);
}

int main(void)
{
	RUN(sock_facts_by_time);
	RUN(sock_name_cached_as_strace);
	RUN(sock_name_cache_in_time);
	RUN(sock_facts_name_unknown_fd);
	RUN(unix_peer_from_accept);
	RUN(paths_lexical);
	RUN(fork_self);
	RUN(proc_self);
	CHECK_EXIT();
}
