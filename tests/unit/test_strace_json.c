// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON sink of the strace decoders (sonde_strace_json): exact output
 * for every decoder family, and a sweep of every decoded syscall over
 * random arguments and memory that must give valid JSON with one key per
 * argument (no duplicate keys, nothing dropped).
 */
#include <fcntl.h>
#include <linux/futex.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>

#define SA_RESTORER 0x04000000 /* the kernel's, not in glibc's headers */

#include <sonde/render.h>
#include <sonde/syscalls.h>

#include "check.h"
#include "json_check.h"
#include "test_strace_util.h"

static struct tcall T;
static char out[65536];

/* "ARGS" or "ARGS | RESULT-MEMBERS" of the call in T, checked as JSON. */
static const char *tj_opts(unsigned int strsize)
{
	struct sonde_line a = { 0 }, r = { 0 };
	struct sonde_strace_opts o;
	struct jc j;
	const char *err;

	sonde_strace_opts_init(&o);
	o.strsize = strsize;
	T.call.sc = &T.sc;
	T.call.pl = T.pl;
	T.call.npl = T.npl;
	if (sonde_strace_json(&o, &T.call, &a, &r))
		snprintf(out, sizeof(out), "(not decoded)");
	else if (r.len)
		snprintf(out, sizeof(out), "%s | %s", a.buf, r.buf);
	else
		snprintf(out, sizeof(out), "%s", a.buf);
	if (a.buf && (err = json_check(&j, a.buf)))
		fprintf(stderr, "invalid JSON (%s): %s\n", err, a.buf);
	CHECK(!a.buf || !json_check(&j, a.buf));
	sonde_line_free(&a);
	sonde_line_free(&r);
	return out;
}

static const char *tj(void)
{
	return tj_opts(0);
}

TEST(file)
{
	struct stat st = { 0 };
	/* clang-format off */
	static const uint8_t dents[] = {
		/* d_ino 2, d_off 1, reclen 24, DT_DIR, "." */
		2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 24, 0, 4, '.', 0, 0, 0, 0,
		/* d_ino 12, d_off 2, reclen 24, DT_REG, "a\xff" */
		12, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 24, 0, 8, 'a', 0xff, 0, 0, 0,
	};
	/* clang-format on */
	struct timespec ts[2] = { { 5, UTIME_NOW }, { 7, 8 } };
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 10, .l_len = 20 };

	tc_new(&T, SYS_openat, 3, (uint64_t)-100, 0x1000, O_RDONLY | O_CLOEXEC, 0, 0, 0);
	tc_str(&T, 1, 0x1000, "/etc/passwd");
	CHECK_EQ_STR(tj(),
		     "{\"dirfd\":\"AT_FDCWD\",\"pathname\":\"/etc/passwd\",\"flags\":[\"O_RDONLY\","
		     "\"O_CLOEXEC\"],\"mode\":0}");
	tc_new(&T, SYS_openat, 4, 5, 0x1000, O_WRONLY | O_CREAT | O_EXCL, 0640, 0, 0);
	tc_str(&T, 1, 0x1000, "x");
	CHECK_EQ_STR(
		tj(),
		"{\"dirfd\":5,\"pathname\":\"x\",\"flags\":[\"O_WRONLY\",\"O_CREAT\",\"O_EXCL\"],"
		"\"mode\":416}");
	/* not captured, and unreadable (EFAULT) */
	tc_new(&T, SYS_open, -14, 0x1000, O_RDONLY, 0, 0, 0, 0);
	CHECK_EQ_STR(
		tj(),
		"{\"pathname\":{\"addr\":\"0x1000\",\"unreadable\":false},\"flags\":[\"O_RDONLY\"],"
		"\"mode\":0}");
	tc_new(&T, SYS_open, -14, 0x1000, O_RDONLY, 0, 0, 0, 0);
	tc_unreadable(&T, SONDE_PL_ENTRY, 0, 0x1000);
	CHECK_EQ_STR(
		tj(),
		"{\"pathname\":{\"addr\":\"0x1000\",\"unreadable\":true},\"flags\":[\"O_RDONLY\"],"
		"\"mode\":0}");

	st.st_dev = makedev(8, 1);
	st.st_ino = 1234;
	st.st_mode = S_IFREG | 04755;
	st.st_nlink = 1;
	st.st_size = 42;
	st.st_blksize = 4096;
	st.st_blocks = 8;
	st.st_mtim.tv_sec = 1700000000;
	st.st_mtim.tv_nsec = 5;
	tc_new(&T, SYS_newfstatat, 0, (uint64_t)-100, 0x1000, 0x2000, AT_SYMLINK_NOFOLLOW, 0, 0);
	tc_str(&T, 1, 0x1000, "/bin/su");
	tc_mem(&T, SONDE_PL_EXIT, 2, 0x2000, &st, sizeof(st));
	CHECK_EQ_STR(
		tj(),
		"{\"dirfd\":\"AT_FDCWD\",\"pathname\":\"/bin/"
		"su\",\"statbuf\":{\"st_dev\":{\"major\":8,"
		"\"minor\":1},\"st_ino\":1234,\"st_mode\":\"S_IFREG|S_ISUID|0755\",\"st_nlink\":1,"
		"\"st_uid\":0,\"st_gid\":0,\"st_blksize\":4096,\"st_blocks\":8,\"st_size\":42,"
		"\"st_atime\":0,\"st_atime_nsec\":0,\"st_mtime\":1700000000,\"st_mtime_nsec\":5,"
		"\"st_ctime\":0,\"st_ctime_nsec\":0},\"flag\":[\"AT_SYMLINK_NOFOLLOW\"]}");

	tc_new(&T, SYS_getdents64, sizeof(dents), 3, 0x3000, 32768, 0, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x3000, dents, sizeof(dents));
	CHECK_EQ_STR(
		tj(),
		"{\"fd\":3,\"dirent\":[{\"d_ino\":2,\"d_off\":1,\"d_reclen\":24,\"d_type\":\"DT_"
		"DIR\","
		"\"d_name\":\".\"},{\"d_ino\":12,\"d_off\":2,\"d_reclen\":24,\"d_type\":\"DT_REG\","
		"\"d_name\":\"a\\udcff\"}],\"count\":32768}");

	tc_new(&T, SYS_readlinkat, 4, (uint64_t)-100, 0x1000, 0x2000, 4096, 0, 0);
	tc_str(&T, 1, 0x1000, "/proc/self/exe");
	tc_mem(&T, SONDE_PL_EXIT, 2, 0x2000, "/bin", 4);
	CHECK_EQ_STR(tj(),
		     "{\"dirfd\":\"AT_FDCWD\",\"pathname\":\"/proc/self/exe\",\"buf\":\"/bin\","
		     "\"bufsiz\":4096}");

	tc_new(&T, SYS_utimensat, 0, 3, 0, 0x2000, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 2, 0x2000, ts, sizeof(ts));
	CHECK_EQ_STR(tj(), "{\"dirfd\":3,\"pathname\":null,\"utimes\":[{\"tv_sec\":5,\"tv_nsec\":"
			   "\"UTIME_NOW\"},"
			   "{\"tv_sec\":7,\"tv_nsec\":8}],\"flags\":[]}");

	tc_new(&T, SYS_mknodat, 0, (uint64_t)-100, 0x1000, S_IFCHR | 0600, makedev(1, 3), 0, 0);
	tc_str(&T, 1, 0x1000, "null");
	CHECK_EQ_STR(tj(),
		     "{\"dirfd\":\"AT_FDCWD\",\"pathname\":\"null\",\"mode\":\"S_IFCHR|0600\","
		     "\"dev\":{\"major\":1,\"minor\":3}}");

	/* fcntl: what the call returns besides its value goes in "result" */
	tc_new(&T, SYS_fcntl, O_RDWR | 0100000 /* the kernel's O_LARGEFILE */, 3, F_GETFL, 0, 0, 0,
	       0);
	CHECK_EQ_STR(tj(), "{\"fd\":3,\"cmd\":\"F_GETFL\",\"arg\":0} | "
			   "\"flags\":[\"O_RDWR\",\"O_LARGEFILE\"]");
	tc_new(&T, SYS_fcntl, 0, 3, F_SETLKW, 0x2000, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 2, 0x2000, &fl, sizeof(fl));
	CHECK_EQ_STR(tj(), "{\"fd\":3,\"cmd\":\"F_SETLKW\",\"arg\":{\"l_type\":\"F_WRLCK\",\"l_"
			   "whence\":\"SEEK_SET\","
			   "\"l_start\":10,\"l_len\":20}}");
}

TEST(io)
{
	static const uint8_t bin[] = { 'o', 'k', '\n', 0, 0xff, 0xc3, 0xa9, '"' };
	struct iovec iov[2] = { { (void *)0x5000, 3 }, { (void *)0x6000, 4 } };

	/* bytes that are not UTF-8 become \udcXX, NULs \u0000: lossless */
	tc_new(&T, SYS_write, 8, 1, 0x3000, 8, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x3000, bin, sizeof(bin));
	CHECK_EQ_STR(tj(), "{\"fd\":1,\"buf\":\"ok\\n\\u0000\\udcffé\\\"\",\"count\":8}");
	/* -s 2 cuts strings and buffers, and says so */
	CHECK_EQ_STR(tj_opts(2),
		     "{\"fd\":1,\"buf\":{\"data\":\"ok\",\"truncated\":true,\"length\":8},\"count\":8}");
	/* so does the snaplen: 3 bytes of 4096 captured */
	tc_new(&T, SYS_write, 4096, 1, 0x3000, 4096, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x3000, "abc", 3);
	CHECK_EQ_STR(tj(), "{\"fd\":1,\"buf\":{\"data\":\"abc\",\"truncated\":true,"
			   "\"length\":4096},\"count\":4096}");
	/* a string -s cuts has a known length; a path the capture cut before
	 * its NUL does not */
	tc_new(&T, SYS_memfd_create, 3, 0x3000, 0, 0, 0, 0, 0);
	tc_str(&T, 0, 0x3000, "sonde-buffer");
	CHECK_EQ_STR(tj_opts(5), "{\"uname\":{\"data\":\"sonde\",\"truncated\":true,\"length\":12},"
				 "\"flags\":[]}");
	tc_new(&T, SYS_unlink, 0, 0x3000, 0, 0, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 0, 0x3000, "/tmp/lon", 8);
	T.pl[0].flags = SONDE_PLF_STRING;
	CHECK_EQ_STR(tj(), "{\"pathname\":{\"data\":\"/tmp/lon\",\"truncated\":true}}");
	/* a read returns only what it produced */
	tc_new(&T, SYS_read, 3, 0, 0x3000, 4096, 0, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x3000, "abc", 3);
	CHECK_EQ_STR(tj(), "{\"fd\":0,\"buf\":\"abc\",\"count\":4096}");
	tc_new(&T, SYS_read, -9, 99, 0x3000, 4096, 0, 0, 0);
	CHECK_EQ_STR(tj(), "{\"fd\":99,\"buf\":\"0x3000\",\"count\":4096}");
	tc_new(&T, SYS_pread64, 2, 3, 0x3000, 2, 1 << 20, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x3000, "hi", 2);
	CHECK_EQ_STR(tj(), "{\"fd\":3,\"buf\":\"hi\",\"count\":2,\"pos\":1048576}");
	tc_new(&T, SYS_writev, 7, 1, 0x4000, 2, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x4000, iov, sizeof(iov));
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x5000, "abc", 3);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x6000, "defg", 4);
	CHECK_EQ_STR(
		tj(),
		"{\"fd\":1,\"vec\":[{\"iov_base\":\"abc\",\"iov_len\":3},{\"iov_base\":\"defg\","
		"\"iov_len\":4}],\"vlen\":2}");
	tc_new(&T, SYS_lseek, 100, 3, 100, SEEK_SET, 0, 0, 0);
	CHECK_EQ_STR(tj(), "{\"fd\":3,\"offset\":100,\"whence\":\"SEEK_SET\"}");
	tc_new(&T, SYS_mmap, 0x7f0000000000, 0, 8192, PROT_READ | PROT_WRITE,
	       MAP_PRIVATE | MAP_ANONYMOUS, (uint64_t)-1, 0);
	CHECK_EQ_STR(tj(), "{\"addr\":null,\"len\":8192,\"prot\":[\"PROT_READ\",\"PROT_WRITE\"],"
			   "\"flags\":[\"MAP_PRIVATE\","
			   "\"MAP_ANONYMOUS\"],\"fd\":-1,\"off\":0}");
}

TEST(net)
{
	struct sockaddr_in in = { .sin_family = AF_INET,
				  .sin_port = htons(80),
				  .sin_addr = { htonl(0x7f000001) } };
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6, .sin6_port = htons(443) };
	struct sockaddr_un un = { .sun_family = AF_UNIX, .sun_path = "/run/x.sock" };
	struct sockaddr_un abs = { .sun_family = AF_UNIX, .sun_path = "\0abs" };
	struct pollfd pfd[2] = { { 3, POLLIN, 0 }, { 4, POLLOUT, 0 } };
	struct pollfd rfd[2] = { { 3, POLLIN, 0 }, { 4, POLLOUT, POLLOUT } };
	int len_in = 128, len_out = 16, one = 1;

	in6.sin6_addr.s6_addr[15] = 1;
	tc_new(&T, SYS_connect, 0, 3, 0x1000, sizeof(in), 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, &in, sizeof(in));
	CHECK_EQ_STR(tj(), "{\"fd\":3,\"uservaddr\":{\"family\":\"AF_INET\",\"port\":80,\"addr\":"
			   "\"127.0.0.1\"},"
			   "\"addrlen\":16}");
	tc_new(&T, SYS_connect, 0, 3, 0x1000, sizeof(in6), 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, &in6, sizeof(in6));
	CHECK_EQ_STR(tj(),
		     "{\"fd\":3,\"uservaddr\":{\"family\":\"AF_INET6\",\"port\":443,\"flowinfo\":0,"
		     "\"addr\":\"::1\",\"scope_id\":0},\"addrlen\":28}");
	tc_new(&T, SYS_bind, 0, 3, 0x1000, 2 + 12, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, &un, 2 + 12);
	CHECK_EQ_STR(tj(),
		     "{\"fd\":3,\"umyaddr\":{\"family\":\"AF_UNIX\",\"path\":\"/run/x.sock\"},"
		     "\"addrlen\":14}");
	tc_new(&T, SYS_bind, 0, 3, 0x1000, 2 + 4, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, &abs, 2 + 4);
	CHECK_EQ_STR(
		tj(),
		"{\"fd\":3,\"umyaddr\":{\"family\":\"AF_UNIX\",\"path\":\"abs\",\"abstract\":true},"
		"\"addrlen\":6}");
	tc_new(&T, SYS_socket, 3, AF_INET, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP, 0, 0, 0);
	CHECK_EQ_STR(tj(), "{\"family\":\"AF_INET\",\"type\":[\"SOCK_STREAM\",\"SOCK_CLOEXEC\"],"
			   "\"protocol\":\"IPPROTO_TCP\"}");
	/* accept4: the address and its in/out length */
	tc_new(&T, SYS_accept4, 5, 3, 0x1000, 0x2000, SOCK_NONBLOCK, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 2, 0x2000, &len_in, 4);
	tc_mem(&T, SONDE_PL_EXIT, 2, 0x2000, &len_out, 4);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x1000, &in, sizeof(in));
	CHECK_EQ_STR(tj(),
		     "{\"fd\":3,\"upeer_sockaddr\":{\"family\":\"AF_INET\",\"port\":80,\"addr\":"
		     "\"127.0.0.1\"},"
		     "\"upeer_addrlen\":{\"in\":128,\"out\":16},\"flags\":[\"SOCK_NONBLOCK\"]}");
	tc_new(&T, SYS_setsockopt, 0, 3, SOL_SOCKET, SO_REUSEADDR, 0x1000, 4, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 3, 0x1000, &one, 4);
	CHECK_EQ_STR(tj(),
		     "{\"fd\":3,\"level\":\"SOL_SOCKET\",\"optname\":\"SO_REUSEADDR\",\"optval\":1,"
		     "\"optlen\":4}");
	/* poll: the events in, what happened in "result" */
	tc_new(&T, SYS_poll, 1, 0x1000, 2, 1000, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 0, 0x1000, pfd, sizeof(pfd));
	tc_mem(&T, SONDE_PL_EXIT, 0, 0x1000, rfd, sizeof(rfd));
	CHECK_EQ_STR(tj(), "{\"ufds\":[{\"fd\":3,\"events\":[\"POLLIN\"]},{\"fd\":4,\"events\":["
			   "\"POLLOUT\"]}],"
			   "\"nfds\":2,\"timeout_msecs\":1000} | "
			   "\"revents\":[{\"fd\":4,\"revents\":[\"POLLOUT\"]}]");
}

TEST(msghdr)
{
	struct {
		struct cmsghdr h;
		int fd;
	} __attribute__((aligned(8))) cm = { { CMSG_LEN(sizeof(int)), SOL_SOCKET, SCM_RIGHTS }, 7 };
	struct iovec iov = { (void *)0x5000, 5 };
	struct msghdr m = { .msg_iov = (void *)0x4000,
			    .msg_iovlen = 1,
			    .msg_control = (void *)0x6000,
			    .msg_controllen = sizeof(cm) };

	tc_new(&T, SYS_sendmsg, 5, 3, 0x3000, MSG_NOSIGNAL, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x3000, &m, sizeof(m));
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x4000, &iov, sizeof(iov));
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x5000, "hello", 5);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x6000, &cm, sizeof(cm));
	CHECK_EQ_STR(tj(), "{\"fd\":3,\"msg\":{\"msg_name\":null,\"msg_namelen\":0,\"msg_iov\":[{"
			   "\"iov_base\":\"hello\","
			   "\"iov_len\":5}],\"msg_iovlen\":1,\"msg_control\":[{\"cmsg_len\":20,"
			   "\"cmsg_level\":\"SOL_SOCKET\","
			   "\"cmsg_type\":\"SCM_RIGHTS\",\"cmsg_data\":[7]}],\"msg_controllen\":24,"
			   "\"msg_flags\":[]},\"flags\":[\"MSG_NOSIGNAL\"]}");
}

TEST(proc)
{
	static const uint64_t argv[] = { 0x2000, 0x2100, 0 };
	static const uint64_t envp[] = { 0x2200, 0 };
	int status = 3 << 8, killed = SIGKILL | 0x80;
	uint64_t act[4] = { 0x401000, SA_RESTORER | SA_RESTART, 0x402000, 1ULL << (SIGCHLD - 1) };
	uint64_t mask = (1ULL << (SIGINT - 1)) | (1ULL << (SIGTERM - 1));
	struct rlimit rl = { 8192 * 1024, RLIM_INFINITY };
	struct timespec t = { 1, 500 };

	tc_new(&T, SYS_execve, 0, 0x1000, 0x1800, 0x1900, 0, 0, 0);
	tc_str(&T, 0, 0x1000, "/bin/ls");
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1800, argv, sizeof(argv));
	tc_mem(&T, SONDE_PL_ENTRY, 2, 0x1900, envp, sizeof(envp));
	tc_str(&T, 1, 0x2000, "ls");
	tc_str(&T, 1, 0x2100, "-l");
	tc_str(&T, 2, 0x2200, "HOME=/root");
	CHECK_EQ_STR(
		tj(),
		"{\"pathname\":\"/bin/ls\",\"argv\":[\"ls\",\"-l\"],\"envp\":[\"HOME=/root\"]}");
	tc_new(&T, SYS_clone, 1234, CLONE_VM | CLONE_FS | CLONE_SETTLS | SIGCHLD, 0x7000, 0, 0,
	       0x8000, 0);
	CHECK_EQ_STR(
		tj(),
		"{\"newsp\":\"0x7000\",\"clone_flags\":[\"CLONE_VM\",\"CLONE_FS\",\"CLONE_SETTLS\","
		"\"SIGCHLD\"],\"tls\":\"0x8000\",\"parent_tidptr\":0,\"child_tidptr\":0}");
	tc_new(&T, SYS_wait4, 1234, (uint64_t)-1, 0x1000, WNOHANG, 0, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x1000, &status, sizeof(status));
	CHECK_EQ_STR(tj(),
		     "{\"upid\":-1,\"stat_addr\":{\"WEXITSTATUS\":3},\"options\":[\"WNOHANG\"],"
		     "\"ru\":null}");
	tc_new(&T, SYS_wait4, 1235, (uint64_t)-1, 0x1000, 0, 0, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x1000, &killed, sizeof(killed));
	CHECK_EQ_STR(tj(),
		     "{\"upid\":-1,\"stat_addr\":{\"WTERMSIG\":\"SIGKILL\",\"WCOREDUMP\":true},"
		     "\"options\":[],\"ru\":null}");
	tc_new(&T, SYS_rt_sigaction, 0, SIGCHLD, 0x1000, 0, 8, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, act, sizeof(act));
	CHECK_EQ_STR(tj(),
		     "{\"sig\":\"SIGCHLD\",\"act\":{\"sa_handler\":\"0x401000\",\"sa_mask\":["
		     "\"SIGCHLD\"],"
		     "\"sa_flags\":[\"SA_RESTORER\",\"SA_RESTART\"],\"sa_restorer\":\"0x402000\"},"
		     "\"oact\":null,\"sigsetsize\":8}");
	tc_new(&T, SYS_rt_sigprocmask, 0, SIG_BLOCK, 0x1000, 0x2000, 8, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, &mask, 8);
	tc_mem(&T, SONDE_PL_EXIT, 2, 0x2000, &mask, 8);
	CHECK_EQ_STR(
		tj(),
		"{\"how\":\"SIG_BLOCK\",\"nset\":[\"SIGINT\",\"SIGTERM\"],\"oset\":[\"SIGINT\","
		"\"SIGTERM\"],\"sigsetsize\":8}");
	tc_new(&T, SYS_prlimit64, 0, 0, RLIMIT_STACK, 0, 0x1000, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 3, 0x1000, &rl, sizeof(rl));
	CHECK_EQ_STR(tj(), "{\"pid\":0,\"resource\":\"RLIMIT_STACK\",\"new_rlim\":null,\"old_"
			   "rlim\":{\"rlim_cur\":8388608,"
			   "\"rlim_max\":\"RLIM64_INFINITY\"}}");
	tc_new(&T, SYS_kill, 0, 1234, SIGTERM, 0, 0, 0, 0);
	CHECK_EQ_STR(tj(), "{\"pid\":1234,\"sig\":\"SIGTERM\"}");
	/* futex prints the arguments its operation uses, others stay raw */
	tc_new(&T, SYS_futex, 0, 0x1000, FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG, 2, 0x2000, 0,
	       FUTEX_BITSET_MATCH_ANY);
	tc_mem(&T, SONDE_PL_ENTRY, 3, 0x2000, &t, sizeof(t));
	CHECK_EQ_STR(tj(),
		     "{\"uaddr\":\"0x1000\",\"op\":[\"FUTEX_WAIT_BITSET_PRIVATE\"],\"val\":2,"
		     "\"utime\":{\"tv_sec\":1,\"tv_nsec\":500},\"val3\":\"FUTEX_BITSET_MATCH_ANY\","
		     "\"uaddr2\":0}");
	tc_new(&T, SYS_futex, 1, 0x1000, FUTEX_WAKE_OP | FUTEX_PRIVATE_FLAG, 1, 1, 0x3000,
	       FUTEX_OP(FUTEX_OP_ADD, 1, FUTEX_OP_CMP_GT, 0));
	CHECK_EQ_STR(
		tj(),
		"{\"uaddr\":\"0x1000\",\"op\":[\"FUTEX_WAKE_OP_PRIVATE\"],\"val\":1,\"utime\":1,"
		"\"uaddr2\":\"0x3000\",\"val3\":{\"op\":\"FUTEX_OP_ADD\",\"oparg\":1,\"cmp\":"
		"\"FUTEX_OP_CMP_GT\","
		"\"cmparg\":0,\"oparg_shift\":false}}");
	tc_new(&T, SYS_clock_gettime, 0, CLOCK_MONOTONIC, 0x1000, 0, 0, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x1000, &t, sizeof(t));
	CHECK_EQ_STR(tj(),
		     "{\"which_clock\":\"CLOCK_MONOTONIC\",\"tp\":{\"tv_sec\":1,\"tv_nsec\":500}}");
	tc_new(&T, SYS_setuid, 0, (uint64_t)-1, 0, 0, 0, 0, 0);
	CHECK_EQ_STR(tj(), "{\"uid\":-1}");
}

TEST(undecoded_syscalls_have_no_argv)
{
	tc_new(&T, 400, 0, 1, 2, 3, 4, 5, 6);
	CHECK_EQ_STR(tj(), "(not decoded)");
}

/* xorshift64 */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Every decoded syscall, 200 times: arguments that are small numbers,
 * flags or one of four addresses, memory of random bytes (some of it
 * unreadable) at those addresses at entry and exit, success or failure.
 * The JSON must be valid, with no key twice and exactly one key per
 * argument of the syscall's arity.
 */
TEST(every_decoder_gives_valid_json)
{
	static const uint64_t addrs[] = { 0x10000, 0x20000, 0x30000, 0x40000 };
	uint64_t seed = 0x2545f4914f6cdd1dULL;
	unsigned int n = 0;

	for (unsigned int nr = 0; nr < SONDE_NR_SYSCALLS; nr++) {
		if (!sonde_strace_is_decoded(nr))
			continue;
		n++;
		for (int k = 0; k < 200; k++) {
			struct sonde_line a = { 0 }, r = { 0 };
			struct sonde_strace_opts o;
			uint64_t args[6];
			struct jc j;
			const char *err;

			for (int i = 0; i < 6; i++) {
				uint64_t v = rnd(&seed);

				args[i] = v % 3 == 0   ? addrs[v % 4]
					  : v % 3 == 1 ? v % 70
						       : v >> (v % 64);
			}
			tc_new(&T, nr,
			       (k % 4) ? (int64_t)(rnd(&seed) % 512) : -(int64_t)(1 + k % 40),
			       args[0], args[1], args[2], args[3], args[4], args[5]);
			for (int m = 0; m < 8; m++) {
				uint8_t b[TC_MEM];
				size_t len = rnd(&seed) % TC_MEM;

				for (size_t i = 0; i < len; i++)
					b[i] = (uint8_t)rnd(&seed);
				if (rnd(&seed) % 8 == 0)
					tc_unreadable(&T, m & 1, m / 2, addrs[m / 2]);
				else
					tc_mem(&T, m & 1, m / 2, addrs[m / 2], b, len);
			}
			T.call.sc = &T.sc;
			T.call.pl = T.pl;
			T.call.npl = T.npl;
			sonde_strace_opts_init(&o);
			o.strsize = 0;
			CHECK_EQ_INT(sonde_strace_json(&o, &T.call, &a, &r), 0);
			err = json_check(&j, a.buf ? a.buf : "");
			/* rt_sigreturn has no argument; strace shows its frame */
			if (err || (j.top_keys != sonde_syscall_nargs(nr) &&
				    !(nr == SYS_rt_sigreturn && j.top_keys == 1))) {
				fprintf(stderr, "%s: %s, %u keys for %u arguments: %s\n",
					sonde_syscall_name(nr), err ? err : "valid", j.top_keys,
					sonde_syscall_nargs(nr), a.buf);
				check_failed_ = 1;
			}
			/* the result members, in braces, are an object too */
			if (r.len) {
				char *obj = malloc(r.len + 3);

				sprintf(obj, "{%s}", r.buf);
				if ((err = json_check(&j, obj))) {
					fprintf(stderr, "%s result: %s: %s\n",
						sonde_syscall_name(nr), err, obj);
					check_failed_ = 1;
				}
				free(obj);
			}
			sonde_line_free(&a);
			sonde_line_free(&r);
			if (check_failed_)
				return;
		}
	}
	CHECK_EQ_INT(n, sonde_strace_decoded_count());
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	RUN(file);
	RUN(io);
	RUN(net);
	RUN(msghdr);
	RUN(proc);
	RUN(undecoded_syscalls_have_no_argv);
	RUN(every_decoder_gives_valid_json);
	CHECK_EXIT();
}
