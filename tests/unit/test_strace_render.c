// SPDX-License-Identifier: GPL-2.0
/*
 * The strace renderer: strace -f -o line layout (pid, -a column 40),
 * timestamps, -T, -z/-Z, -e trace=, -y descriptor tables (open, dup,
 * fork inheritance, close-on-exec), -e write= hexdumps, exit lines, -i's
 * addresses, and the feed that groups chunked payload records with their
 * call.
 */
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>

#include "check.h"
#include "test_strace_util.h"
#include <sonde/payload.h>
#include <sonde/render.h>

static struct tcall T;
static char out[65536];

/* Renders calls into out through a memory stream. */
struct rr {
	FILE *f;
	struct sonde_strace *st;
};

static void rr_open(struct rr *r, struct sonde_strace_opts *o)
{
	memset(out, 0, sizeof(out));
	r->f = fmemopen(out, sizeof(out) - 1, "w");
	r->st = sonde_strace_new(o, r->f);
}

static const char *rr_close(struct rr *r)
{
	sonde_strace_flush(r->st);
	sonde_strace_free(r->st);
	fclose(r->f);
	return out;
}

static void rr_call(struct rr *r, struct tcall *t)
{
	t->call.sc = &t->sc;
	t->call.pl = t->pl;
	t->call.npl = t->npl;
	sonde_strace_call(r->st, &t->call);
}

TEST(line_layout)
{
	struct sonde_strace_opts o;
	struct rr r;

	sonde_strace_opts_init(&o);
	o.pid_prefix = 1;
	rr_open(&r, &o);
	tc_new(&T, SYS_brk, 0x55580f4c0000, 0, 0, 0, 0, 0, 0);
	T.sc.hdr.tid = 5112;
	rr_call(&r, &T);
	tc_new(&T, SYS_access, -2, 0x1000, 4, 0, 0, 0, 0);
	tc_str(&T, 0, 0x1000, "/etc/ld.so.preload");
	T.sc.hdr.tid = 5112;
	rr_call(&r, &T);
	tc_new(&T, SYS_exit_group, 0, 3, 0, 0, 0, 0, 0);
	T.sc.hdr.tid = 6111;
	T.sc.hdr.flags = SONDE_SC_NORETURN;
	rr_call(&r, &T);
	struct sonde_ev_exit ex = { .hdr = { .tid = 6111, .pid = 6111, .type = SONDE_REC_EXIT,
					     .size = sizeof(ex) }, .code = 3 << 8 };
	sonde_strace_record(r.st, &ex.hdr);
	ex.code = 9;
	sonde_strace_record(r.st, &ex.hdr);
	CHECK_EQ_STR(rr_close(&r),
		     "5112  brk(NULL)                         = 0x55580f4c0000\n"
		     "5112  access(\"/etc/ld.so.preload\", R_OK) = -1 ENOENT (No such file or directory)\n"
		     "6111  exit_group(3)                     = ?\n"
		     "6111  +++ exited with 3 +++\n"
		     "6111  +++ killed by SIGKILL +++\n");
}

TEST(timestamps_and_durations)
{
	struct sonde_strace_opts o;
	struct rr r;

	sonde_strace_opts_init(&o);
	o.tstamp = 3;
	o.show_time = 1;
	o.wall_offset_ns = 1795253963000000000LL - 1000000000LL;
	rr_open(&r, &o);
	tc_new(&T, SYS_close, 0, 3, 0, 0, 0, 0, 0);
	T.sc.hdr.ts = 1000000000ULL + 418954000ULL;
	T.sc.dur = 8000;
	rr_call(&r, &T);
	CHECK_EQ_STR(rr_close(&r), "1795253963.418954 close(3)              = 0 <0.000008>\n");

	sonde_strace_opts_init(&o);
	o.relative = 1;
	rr_open(&r, &o);
	T.sc.hdr.ts = 5000000000ULL;
	rr_call(&r, &T);
	T.sc.hdr.ts = 5002108000ULL;
	rr_call(&r, &T);
	CHECK_EQ_STR(rr_close(&r), "     0.000000 close(3)                  = 0\n"
				   "     0.002108 close(3)                  = 0\n");
}

TEST(filters)
{
	struct sonde_strace_opts o;
	struct rr r;
	char err[128];

	sonde_strace_opts_init(&o);
	CHECK_EQ_INT(sonde_strace_opt(&o, 'e', "trace=close", err, sizeof(err)), 0);
	CHECK_EQ_INT(sonde_strace_opt(&o, 'Z', NULL, err, sizeof(err)), 0);
	rr_open(&r, &o);
	tc_new(&T, SYS_close, 0, 3, 0, 0, 0, 0, 0);
	rr_call(&r, &T);
	tc_new(&T, SYS_close, -9, 99, 0, 0, 0, 0, 0);
	rr_call(&r, &T);
	tc_new(&T, SYS_dup, -9, 99, 0, 0, 0, 0, 0);
	rr_call(&r, &T);
	CHECK_EQ_STR(rr_close(&r), "close(99)                               = -1 EBADF (Bad file descriptor)\n");
	CHECK(sonde_strace_opt(&o, 'X', "bogus", err, sizeof(err)) < 0);
	CHECK(sonde_strace_opt(&o, 'e', "read=x", err, sizeof(err)) < 0);
	CHECK(sonde_strace_opt(&o, 's', "-3", err, sizeof(err)) < 0);
}

TEST(decode_fds)
{
	struct sonde_strace_opts o;
	struct rr r;

	sonde_strace_opts_init(&o);
	o.decode_fds = 1;
	rr_open(&r, &o);
	sonde_strace_set_fd(r.st, 0, 1, "/dev/null");
	sonde_strace_set_fd(r.st, 0, -100, "/tmp");
	tc_new(&T, SYS_openat, 3, (uint64_t)-100, 0x1000, O_RDONLY | O_CLOEXEC, 0, 0, 0);
	tc_str(&T, 1, 0x1000, "sub/../x");
	rr_call(&r, &T);
	tc_new(&T, SYS_dup2, 7, 3, 7, 0, 0, 0, 0);
	rr_call(&r, &T);
	/* A fork: the child inherits 3 and 7 (and 1 from the template). */
	struct sonde_ev_fork f = { .hdr = { .tid = 1000, .pid = 1000, .type = SONDE_REC_FORK,
					    .size = sizeof(f) }, .child_pid = 2000, .child_tid = 2000,
				   .clone_flags = 17 };
	sonde_strace_record(r.st, &f.hdr);
	tc_new(&T, SYS_execve, 0, 0, 0, 0, 0, 0, 0);
	T.sc.hdr.tid = 2000;
	rr_call(&r, &T);
	/* After exec 3 (close-on-exec) is gone, 7 (dup2 clears it) stays. */
	tc_new(&T, SYS_close, 0, 3, 0, 0, 0, 0, 0);
	T.sc.hdr.tid = 2000;
	rr_call(&r, &T);
	tc_new(&T, SYS_write, 1, 7, 0x1000, 1, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, "a", 1);
	T.sc.hdr.tid = 2000;
	rr_call(&r, &T);
	tc_new(&T, SYS_write, 1, 1, 0x1000, 1, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, "b", 1);
	T.sc.hdr.tid = 2000;
	rr_call(&r, &T);
	CHECK_EQ_STR(rr_close(&r),
		     "openat(AT_FDCWD</tmp>, \"sub/../x\", O_RDONLY|O_CLOEXEC) = 3</tmp/x>\n"
		     "dup2(3</tmp/x>, 7)                      = 7</tmp/x>\n"
		     "execve(NULL, NULL, NULL)                = 0\n"
		     "close(3)                                = 0\n"
		     "write(7</tmp/x>, \"a\", 1)                = 1\n"
		     "write(1</dev/null>, \"b\", 1)             = 1\n");
}

struct held_fd {
	int fd;
	const char *path;
	int cloexec;
};

/* A PROC record with descriptors, as the recorder writes it. */
static void mk_proc(uint8_t *buf, uint32_t pid, uint16_t flags, const struct held_fd *fds, int n)
{
	struct sonde_ev_proc *p = (void *)buf;
	size_t off = SONDE_REC_ALIGN(sizeof(*p) + 3);

	memset(buf, 0, 1024);
	p->hdr.type = SONDE_REC_PROC;
	p->hdr.pid = p->hdr.tid = pid;
	p->hdr.flags = flags | SONDE_PROC_FDS;
	p->cmdline_len = 3;
	memcpy(p + 1, "sh\0", 3);
	for (int i = 0; i < n; i++) {
		struct sonde_proc_fd *e = (void *)(buf + off);

		e->fd = fds[i].fd;
		e->path_len = (uint16_t)strlen(fds[i].path);
		e->flags = fds[i].cloexec ? SONDE_PROC_FD_CLOEXEC : 0;
		memcpy(e + 1, fds[i].path, e->path_len);
		off += SONDE_REC_ALIGN(sizeof(*e) + e->path_len);
	}
	p->hdr.size = (uint16_t)off;
}

static struct sonde_fdinfo mk_fi(int fd, uint32_t magic, uint64_t ino, const char *name)
{
	struct sonde_fdinfo fi = { .fd = fd, .magic = magic, .ino = ino };

	snprintf(fi.name, sizeof(fi.name), "%s", name);
	return fi;
}

/* -y from the kernel's descriptor facts and the recorder's listing of
 * what a process held when recording began. */
TEST(decode_fds_kernel)
{
	static const struct held_fd held[] = {
		{ -100, "/work", 0 }, { 0, "pipe:[11]", 0 }, { 1, "/dev/pts/0", 0 },
		{ 5, "socket:[9]", 1 },
	};
	struct sonde_fdinfo fi[2];
	struct sonde_strace_opts o;
	struct sonde_line m = { 0 };
	struct sonde_strace *tr;
	uint8_t proc[1024];
	struct rr r;
	int pfd[2] = { 4, 6 };

	sonde_strace_opts_init(&o);
	o.decode_fds = 1;
	rr_open(&r, &o);
	/* The template (sonde strace's own descriptors) is replaced. */
	sonde_strace_set_fd(r.st, 0, 2, "/dev/null");
	mk_proc(proc, 1000, SONDE_PROC_LAUNCHED, held, 4);
	sonde_strace_record(r.st, (struct sonde_hdr *)proc);
	tc_new(&T, SYS_socket, 3, 1, 1, 0, 0, 0, 0);
	fi[0] = mk_fi(3, 0x534F434B, 77, "");
	tc_mem(&T, SONDE_PL_FDINFO, 0, 0, fi, sizeof(fi[0]));
	rr_call(&r, &T);
	tc_new(&T, SYS_pipe2, 0, 0x2000, 0, 0, 0, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 0, 0x2000, pfd, sizeof(pfd));
	fi[0] = mk_fi(4, 0x50495045, 88, "");
	fi[1] = mk_fi(6, 0x50495045, 88, "");
	tc_mem(&T, SONDE_PL_FDINFO, 0, 0, fi, sizeof(fi));
	rr_call(&r, &T);
	tc_new(&T, SYS_eventfd2, 7, 0, 0, 0, 0, 0, 0);
	fi[0] = mk_fi(7, 0x09041934, 5, "[eventfd]");
	tc_mem(&T, SONDE_PL_FDINFO, 0, 0, fi, sizeof(fi[0]));
	rr_call(&r, &T);
	tc_new(&T, SYS_close, 0, 0, 0, 0, 0, 0, 0);
	rr_call(&r, &T);
	tc_new(&T, SYS_fsync, 0, 1, 0, 0, 0, 0, 0);
	rr_call(&r, &T);
	tc_new(&T, SYS_fsync, -9, 2, 0, 0, 0, 0, 0);
	rr_call(&r, &T);
	/* A thread first seen now shares its process's table. */
	tc_new(&T, SYS_fsync, 0, 7, 0, 0, 0, 0, 0);
	T.sc.hdr.tid = 1001;
	rr_call(&r, &T);
	/* execve drops the close-on-exec socket 5, keeps the rest. */
	tc_new(&T, SYS_fsync, 0, 5, 0, 0, 0, 0, 0);
	rr_call(&r, &T);
	tc_new(&T, SYS_execve, 0, 0, 0, 0, 0, 0, 0);
	rr_call(&r, &T);
	tc_new(&T, SYS_fsync, -9, 5, 0, 0, 0, 0, 0);
	rr_call(&r, &T);
	CHECK_EQ_STR(rr_close(&r),
		     "socket(AF_UNIX, SOCK_STREAM, 0)         = 3<socket:[77]>\n"
		     "pipe2([4<pipe:[88]>, 6<pipe:[88]>], 0)  = 0\n"
		     "eventfd2(0, 0)                          = 7<anon_inode:[eventfd]>\n"
		     "close(0<pipe:[11]>)                     = 0\n"
		     "fsync(1</dev/pts/0>)                    = 0\n"
		     "fsync(2)                                = -1 EBADF (Bad file descriptor)\n"
		     "fsync(7<anon_inode:[eventfd]>)          = 0\n"
		     "fsync(5<socket:[9]>)                    = 0\n"
		     "execve(NULL, NULL, NULL)                = 0\n"
		     "fsync(5)                                = -1 EBADF (Bad file descriptor)\n");

	/* The tracker of print --json -y: prints nothing, names by number. */
	tr = sonde_strace_new(&o, NULL);
	mk_proc(proc, 1000, 0, held, 4);
	CHECK(sonde_strace_record(tr, (struct sonde_hdr *)proc) == 0);
	tc_new(&T, SYS_dup2, 9, 0, 9, 0, 0, 0, 0);
	T.call.sc = &T.sc;
	CHECK(sonde_strace_fd_paths(tr, &T.call, &m) == 0);
	CHECK_EQ_STR(m.buf, "\"0\":\"pipe:[11]\",\"9\":\"pipe:[11]\"");
	sonde_line_free(&m);
	sonde_strace_free(tr);
}

static struct sonde_sockinfo mk_si(uint16_t family, const char *proto, uint64_t ino)
{
	struct sonde_sockinfo si = { .family = family, .ino = ino };

	snprintf(si.proto, sizeof(si.proto), "%s", proto);
	return si;
}

/* -yy names in strace's forms. */
TEST(sockinfo_names)
{
	struct sonde_sockinfo si;
	char b[256];

	si = mk_si(2, "TCP", 41);
	sonde_sockinfo_name(&si, b, sizeof(b));
	CHECK_EQ_STR(b, "TCP:[41]"); /* not bound: sock_diag would not find it */
	memcpy(si.laddr, "\177\0\0\1", 4);
	memcpy(si.raddr, "\177\0\0\1", 4);
	si.lport = 80;
	sonde_sockinfo_name(&si, b, sizeof(b));
	CHECK_EQ_STR(b, "TCP:[127.0.0.1:80->127.0.0.1:0]");
	si.rport = 5555;
	sonde_sockinfo_name(&si, b, sizeof(b));
	CHECK_EQ_STR(b, "TCP:[127.0.0.1:80->127.0.0.1:5555]");
	si = mk_si(10, "TCPv6", 42);
	si.laddr[15] = 1;
	si.lport = 8080;
	sonde_sockinfo_name(&si, b, sizeof(b));
	CHECK_EQ_STR(b, "TCPv6:[[::1]:8080]");
	si = mk_si(2, "PING", 43);
	si.lport = 7;
	sonde_sockinfo_name(&si, b, sizeof(b));
	CHECK_EQ_STR(b, "PING:[43]"); /* strace does not ask sock_diag */
	si = mk_si(1, "UNIX-STREAM", 44);
	si.peer_ino = 45;
	memcpy(si.path, "/run/a\"b\0", 9);
	si.path_len = 9;
	sonde_sockinfo_name(&si, b, sizeof(b));
	CHECK_EQ_STR(b, "UNIX-STREAM:[44->45,\"/run/a\\\"b\"]");
	si = mk_si(1, "UNIX", 46);
	memcpy(si.path, "\0abs", 4);
	si.path_len = 4;
	sonde_sockinfo_name(&si, b, sizeof(b));
	CHECK_EQ_STR(b, "UNIX:[46,@\"abs\"]");
	si = mk_si(16, "NETLINK", 47);
	sonde_sockinfo_name(&si, b, sizeof(b));
	CHECK_EQ_STR(b, "NETLINK:[47]");
	si.portid = 4242;
	sonde_sockinfo_name(&si, b, sizeof(b));
	CHECK_EQ_STR(b, "NETLINK:[ROUTE:4242]");
	si.protocol = 99;
	sonde_sockinfo_name(&si, b, sizeof(b));
	CHECK_EQ_STR(b, "NETLINK:[99:4242]");
	si = mk_si(2, "", 48);
	sonde_sockinfo_name(&si, b, 6); /* cut, still terminated */
	CHECK_EQ_STR(b, "socke");
}

TEST(hexdump)
{
	struct sonde_strace_opts o;
	struct rr r;
	char err[64];

	sonde_strace_opts_init(&o);
	sonde_strace_opt(&o, 'e', "write=1", err, sizeof(err));
	rr_open(&r, &o);
	tc_new(&T, SYS_write, 22, 1, 0x1000, 22, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, "0123456789abcdef\001\002xyz\n", 22);
	rr_call(&r, &T);
	CHECK_EQ_STR(rr_close(&r),
		     "write(1, \"0123456789abcdef\\1\\2xyz\\n\", 22) = 22\n"
		     " | 00000  30 31 32 33 34 35 36 37  38 39 61 62 63 64 65 66  0123456789abcdef |\n"
		     " | 00010  01 02 78 79 7a 0a                                 ..xyz.           |\n");
}

/* A payload record with its data, as the recorder writes it. */
static size_t mk_payload(uint8_t *buf, uint32_t tid, uint64_t ts, uint64_t addr,
			 const char *data, uint32_t len, uint32_t off, uint32_t total,
			 uint8_t phase, uint8_t arg)
{
	struct sonde_ev_payload *p = (void *)buf;

	memset(p, 0, sizeof(*p));
	p->hdr.type = SONDE_REC_PAYLOAD;
	p->hdr.tid = p->hdr.pid = tid;
	p->hdr.ts = ts;
	p->hdr.size = (uint16_t)((sizeof(*p) + len + 7) & ~7u);
	p->addr = addr;
	p->requested = p->returned = p->captured = total;
	p->offset = off;
	p->chunk = len;
	p->phase = phase;
	p->arg = arg;
	memcpy(p + 1, data, len);
	return p->hdr.size;
}

TEST(feed_groups_and_chunks)
{
	struct sonde_strace_opts o;
	struct rr r;
	uint8_t b1[256], b2[256];

	sonde_strace_opts_init(&o);
	o.strsize = 64;
	rr_open(&r, &o);
	/* The exit payload arrives in two chunks, one before and one after
	 * the syscall record (different CPU streams, same entry time). */
	mk_payload(b1, 1000, 77, 0x5000, "hello ", 6, 0, 11, SONDE_PL_EXIT, 1);
	mk_payload(b2, 1000, 77, 0x5000, "world", 5, 6, 11, SONDE_PL_EXIT, 1);
	tc_new(&T, SYS_read, 11, 3, 0x5000, 100, 0, 0, 0);
	T.sc.hdr.ts = 77;
	T.sc.hdr.type = SONDE_REC_SYSCALL;
	sonde_strace_feed(r.st, (const struct sonde_hdr *)b1);
	sonde_strace_feed(r.st, &T.sc.hdr);
	sonde_strace_feed(r.st, (const struct sonde_hdr *)b2);
	/* An empty string payload (newfstatat(3, "")) has no data bytes. */
	mk_payload(b1, 1000, 78, 0x6000, "", 0, 0, 0, SONDE_PL_ENTRY, 1);
	((struct sonde_ev_payload *)b1)->flags = SONDE_PLR_STRING | SONDE_PLR_NUL;
	tc_new(&T, SYS_unlink, -2, 0x6000, 0, 0, 0, 0, 0);
	T.sc.hdr.ts = 78;
	T.sc.hdr.type = SONDE_REC_SYSCALL;
	sonde_strace_feed(r.st, (const struct sonde_hdr *)b1);
	sonde_strace_feed(r.st, &T.sc.hdr);
	sonde_strace_flush(r.st);
	CHECK_EQ_STR(rr_close(&r), "read(3, \"hello world\", 100)             = 11\n"
				   "unlink(\"\")                              = -1 ENOENT (No such file or directory)\n");
}

/* An unreadable marker, then the same memory read once resident, in one
 * call: the bytes win and the buffer grows to hold them. */
TEST(feed_marker_then_bytes)
{
	struct sonde_strace_opts o;
	struct rr r;
	uint8_t b1[256], b2[256];

	sonde_strace_opts_init(&o);
	rr_open(&r, &o);
	mk_payload(b1, 1000, 90, 0x7000, "", 0, 0, 0, SONDE_PL_ENTRY, 0);
	((struct sonde_ev_payload *)b1)->flags = SONDE_PLR_UNREADABLE;
	mk_payload(b2, 1000, 90, 0x7000, "/a/long/enough/path", 19, 0, 19, SONDE_PL_ENTRY, 0);
	((struct sonde_ev_payload *)b2)->flags = SONDE_PLR_STRING | SONDE_PLR_NUL;
	tc_new(&T, SYS_unlink, 0, 0x7000, 0, 0, 0, 0, 0);
	T.sc.hdr.ts = 90;
	sonde_strace_feed(r.st, (const struct sonde_hdr *)b1);
	sonde_strace_feed(r.st, (const struct sonde_hdr *)b2);
	sonde_strace_feed(r.st, &T.sc.hdr);
	sonde_strace_flush(r.st);
	CHECK_EQ_STR(rr_close(&r), "unlink(\"/a/long/enough/path\")           = 0\n");
}

/* A signal record of tid at ts (ns): delivered with ip, or (SIGGEN) dropped
 * as ignored. */
static struct sonde_ev_signal sig_at(int type, uint32_t tid, uint64_t ts, int signo, uint64_t ip)
{
	struct sonde_ev_signal e;

	memset(&e, 0, sizeof(e));
	e.hdr.type = type;
	e.hdr.size = sizeof(e);
	e.hdr.ts = ts;
	e.hdr.pid = e.hdr.tid = tid;
	e.si.signo = signo;
	e.si.code = 0x80; /* SI_KERNEL: no fields */
	if (type == SONDE_REC_SIGNAL)
		e.ip = ip;
	else
		e.result = SONDE_SIG_IGNORED;
	return e;
}

/*
 * -i: "[IP] " after -n's number. A call's from its phase-5 payload, 8
 * digits for an i386 call, question marks without one (counted); a
 * delivered signal's from its record, a dropped one's the task's last
 * call's (a hidden call counts); exit lines question marks, as wide as
 * the task's addresses.
 */
TEST(instruction_pointer)
{
	struct sonde_ev_signal sig;
	struct sonde_ev_exit ex = { .hdr = { .tid = 7,
					     .pid = 7,
					     .type = SONDE_REC_EXIT,
					     .size = sizeof(ex),
					     .ts = 90000 } };
	struct sonde_strace_opts o;
	struct rr r;

	sonde_strace_opts_init(&o);
	o.pid_prefix = 1;
	o.show_ip = 1;
	o.show_nr = 1;
	CHECK_EQ_INT(sonde_strace_opt(&o, 'e', "trace=!getppid", NULL, 0), 0);
	rr_open(&r, &o);
	tc_new(&T, SYS_getpid, 5, 0, 0, 0, 0, 0, 0);
	tc_feed(r.st, &T, 5, 5, 1, 1);
	T.pl[0] = (struct sonde_payload){ .addr = 0x7f0e2c3d4a37, .phase = SONDE_PL_IP };
	T.npl = 1;
	tc_feed(r.st, &T, 5, 5, 2, 1);
	sig = sig_at(SONDE_REC_SIGNAL, 5, 4000, SIGALRM, 0x7f0e2c3d4000);
	sonde_strace_record(r.st, &sig.hdr);
	/* hidden by -e trace=, still the task's last call */
	tc_new(&T, SYS_getppid, 1, 0, 0, 0, 0, 0, 0);
	T.pl[0] = (struct sonde_payload){ .addr = 0x7f0e2c3d5000, .phase = SONDE_PL_IP };
	T.npl = 1;
	tc_feed(r.st, &T, 5, 5, 5, 1);
	sig = sig_at(SONDE_REC_SIGGEN, 5, 7000, SIGUSR2, 0);
	sonde_strace_record(r.st, &sig.hdr);
	tc_new(&T, SYS_getpid, 7, 0, 0, 0, 0, 0, 0);
	T.sc.hdr.flags = SONDE_SC_COMPAT;
	T.pl[0] = (struct sonde_payload){ .addr = 0x8049025, .phase = SONDE_PL_IP };
	T.npl = 1;
	tc_feed(r.st, &T, 7, 7, 8, 1);
	sonde_strace_record(r.st, &ex.hdr);
	CHECK_EQ_INT(sonde_strace_flush(r.st), 0);
	CHECK_EQ_INT(sonde_strace_lines_noip(r.st), 1);
	CHECK_EQ_STR(rr_close(&r), "5     [  39] [????????????????] getpid() = 5\n"
				   "5     [  39] [00007f0e2c3d4a37] getpid() = 5\n"
				   "5     [  39] [00007f0e2c3d4000] --- SIGALRM {si_signo=SIGALRM, "
				   "si_code=SI_KERNEL} ---\n"
				   "5     [ 110] [00007f0e2c3d5000] --- SIGUSR2 {si_signo=SIGUSR2, "
				   "si_code=SI_KERNEL} ---\n"
				   "7     [  39] [08049025] getpid()        = 7\n"
				   "7     [  39] [????????] +++ exited with 0 +++\n");
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	RUN(line_layout);
	RUN(timestamps_and_durations);
	RUN(filters);
	RUN(decode_fds);
	RUN(decode_fds_kernel);
	RUN(sockinfo_names);
	RUN(hexdump);
	RUN(feed_groups_and_chunks);
	RUN(feed_marker_then_bytes);
	RUN(instruction_pointer);
	CHECK_EXIT();
}
