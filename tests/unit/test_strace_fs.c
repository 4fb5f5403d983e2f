// SPDX-License-Identifier: GPL-2.0
/* strace decoders of file and descriptor syscalls: exact strace 6.1 text. */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "check.h"
#include "test_strace_util.h"

static struct tcall T;

TEST(openat_flags_and_mode)
{
	tc_new(&T, SYS_openat, 3, (uint64_t)-100, 0x1000, O_RDONLY | O_CLOEXEC, 0, 0, 0);
	tc_str(&T, 1, 0x1000, "/etc/ld.so.cache");
	CHECK_EQ_STR(tc_fmt(&T), "openat(AT_FDCWD, \"/etc/ld.so.cache\", O_RDONLY|O_CLOEXEC) = 3");

	tc_new(&T, SYS_openat, 5, (uint64_t)-100, 0x1000,
	       O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0640, 0, 0);
	tc_str(&T, 1, 0x1000, "/tmp/ptest");
	CHECK_EQ_STR(tc_fmt(&T), "openat(AT_FDCWD, \"/tmp/ptest\", O_WRONLY|O_CREAT|O_TRUNC|O_APPEND, 0640) = 5");

	tc_new(&T, SYS_openat, 3, (uint64_t)-100, 0x1000,
	       O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_DIRECTORY, 0, 0, 0);
	tc_str(&T, 1, 0x1000, ".");
	CHECK_EQ_STR(tc_fmt(&T), "openat(AT_FDCWD, \".\", O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY) = 3");
}

TEST(errors)
{
	tc_new(&T, SYS_access, -2, 0x1000, R_OK, 0, 0, 0, 0);
	tc_str(&T, 0, 0x1000, "/etc/ld.so.preload");
	CHECK_EQ_STR(tc_fmt(&T), "access(\"/etc/ld.so.preload\", R_OK) = -1 ENOENT (No such file or directory)");
	tc_new(&T, SYS_write, -9, (uint64_t)-1, 0x2000, 0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "write(-1, \"\", 0) = -1 EBADF (Bad file descriptor)");
	/* No captured memory: the address, as strace prints unreadable memory. */
	tc_new(&T, SYS_write, 3, 1, 8, 3, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "write(1, 0x8, 3) = 3");
	tc_new(&T, SYS_write, -14, 1, 0x7ffd12345678, 3, 0, 0, 0);
	tc_unreadable(&T, SONDE_PL_ENTRY, 1, 0x7ffd12345678);
	CHECK_EQ_STR(tc_fmt(&T), "write(1, 0x7ffd12345678, 3) = -1 EFAULT (Bad address)");
	tc_new(&T, SYS_access, 0, 0, F_OK, 0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "access(NULL, F_OK) = 0");
}

TEST(strings_escaping_and_truncation)
{
	static const char b[] = "a\tb\n\001\0012x\"\\\377";

	tc_new(&T, SYS_write, 12, 1, 0x3000, 12, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x3000, b, 12);
	CHECK_EQ_STR(tc_fmt(&T), "write(1, \"a\\tb\\n\\1\\0012x\\\"\\\\\\377\\0\", 12) = 12");

	static const unsigned char elf[40] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 3,
		0, 0, 0, 0, 0, 0, 0, 0, 3, 0, '>', 0, 1, 0, 0, 0, 0x10, 't', 2 };
	tc_new(&T, SYS_read, 832, 3, 0x4000, 832, 0, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x4000, elf, sizeof(elf));
	CHECK_EQ_STR(tc_fmt(&T), "read(3, \"\\177ELF\\2\\1\\1\\3\\0\\0\\0\\0\\0\\0\\0\\0\\3\\0>\\0\\1\\0\\0\\0\\20t\\2\\0\\0\\0\\0\\0\"..., 832) = 832");

	tc_new(&T, SYS_read, 0, 3, 0x4000, 4096, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "read(3, \"\", 4096) = 0");
	tc_new(&T, SYS_read, -9, 3, 0x4000, 4096, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "read(3, 0x4000, 4096) = -1 EBADF (Bad file descriptor)");

	/* -s 5, -x and -xx */
	struct sonde_strace_opts o;
	sonde_strace_opts_init(&o);
	o.strsize = 5;
	tc_new(&T, SYS_write, 7, 1, 0x3000, 7, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x3000, "hello\n\001", 7);
	CHECK_EQ_STR(tc_fmt_opts(&T, &o), "write(1, \"hello\"..., 7) = 7");
	o.strsize = 32;
	o.xstr = 1;
	CHECK_EQ_STR(tc_fmt_opts(&T, &o), "write(1, \"\\x68\\x65\\x6c\\x6c\\x6f\\x0a\\x01\", 7) = 7");
	tc_new(&T, SYS_write, 6, 1, 0x3000, 6, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x3000, "hello\n", 6);
	CHECK_EQ_STR(tc_fmt_opts(&T, &o), "write(1, \"hello\\n\", 6) = 6");
	o.xstr = 2;
	CHECK_EQ_STR(tc_fmt_opts(&T, &o), "write(1, \"\\x68\\x65\\x6c\\x6c\\x6f\\x0a\", 6) = 6");
}

TEST(long_path_not_cut_by_s)
{
	char path[300];

	memset(path, 'p', sizeof(path) - 1);
	path[0] = '/';
	path[sizeof(path) - 1] = 0;
	tc_new(&T, SYS_unlink, -2, 0x1000, 0, 0, 0, 0, 0);
	tc_str(&T, 0, 0x1000, path);
	const char *s = tc_fmt(&T);
	CHECK(strstr(s, path) != NULL);
	CHECK(strstr(s, "\"...") == NULL);
}

TEST(stat_family)
{
	struct stat st = { 0 };

	st.st_mode = S_IFREG | 0644;
	st.st_size = 41719;
	tc_new(&T, SYS_newfstatat, 0, 3, 0x1000, 0x2000, AT_EMPTY_PATH, 0, 0);
	tc_str(&T, 1, 0x1000, "");
	tc_mem(&T, SONDE_PL_EXIT, 2, 0x2000, &st, sizeof(st));
	CHECK_EQ_STR(tc_fmt(&T), "newfstatat(3, \"\", {st_mode=S_IFREG|0644, st_size=41719, ...}, AT_EMPTY_PATH) = 0");

	st.st_mode = S_IFCHR | 0666;
	st.st_rdev = makedev(1, 3);
	tc_new(&T, SYS_newfstatat, 0, (uint64_t)-100, 0x1000, 0x2000, 0, 0, 0);
	tc_str(&T, 1, 0x1000, "/dev/null");
	tc_mem(&T, SONDE_PL_EXIT, 2, 0x2000, &st, sizeof(st));
	CHECK_EQ_STR(tc_fmt(&T), "newfstatat(AT_FDCWD, \"/dev/null\", {st_mode=S_IFCHR|0666, st_rdev=makedev(0x1, 0x3), ...}, 0) = 0");

	st.st_mode = S_IFDIR | S_ISVTX | 0777;
	st.st_size = 4096;
	tc_new(&T, SYS_newfstatat, 0, (uint64_t)-100, 0x1000, 0x2000, 0, 0, 0);
	tc_str(&T, 1, 0x1000, "/tmp");
	tc_mem(&T, SONDE_PL_EXIT, 2, 0x2000, &st, sizeof(st));
	CHECK_EQ_STR(tc_fmt(&T), "newfstatat(AT_FDCWD, \"/tmp\", {st_mode=S_IFDIR|S_ISVTX|0777, st_size=4096, ...}, 0) = 0");

	/* Failed: the out struct is an address. */
	tc_new(&T, SYS_newfstatat, -2, (uint64_t)-100, 0x1000, 0x7ffc1881d520, 0, 0, 0);
	tc_str(&T, 1, 0x1000, "/usr/local/sbin/ls");
	CHECK_EQ_STR(tc_fmt(&T), "newfstatat(AT_FDCWD, \"/usr/local/sbin/ls\", 0x7ffc1881d520, 0) = -1 ENOENT (No such file or directory)");

	/* -v */
	struct sonde_strace_opts o;
	sonde_strace_opts_init(&o);
	o.verbose = 1;
	setenv("TZ", "UTC", 1);
	memset(&st, 0, sizeof(st));
	st.st_dev = makedev(0xfe, 0);
	st.st_ino = 409609;
	st.st_mode = S_IFREG | 0644;
	st.st_nlink = 1;
	st.st_blksize = 4096;
	st.st_blocks = 88;
	st.st_size = 41719;
	st.st_atim.tv_sec = 1795252997;
	st.st_atim.tv_nsec = 339542667;
	st.st_mtim.tv_sec = 1777320873;
	st.st_ctim.tv_sec = 1777320873;
	tc_new(&T, SYS_fstat, 0, 3, 0x2000, 0, 0, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x2000, &st, sizeof(st));
	CHECK_EQ_STR(tc_fmt_opts(&T, &o), "fstat(3, {st_dev=makedev(0xfe, 0), st_ino=409609, st_mode=S_IFREG|0644, st_nlink=1, st_uid=0, st_gid=0, st_blksize=4096, st_blocks=88, st_size=41719, st_atime=1795252997 /* 2026-11-21T09:23:17.339542667+0000 */, st_atime_nsec=339542667, st_mtime=1777320873 /* 2026-04-27T20:14:33+0000 */, st_mtime_nsec=0, st_ctime=1777320873 /* 2026-04-27T20:14:33+0000 */, st_ctime_nsec=0}) = 0");
}

TEST(statx)
{
	struct statx sx = { 0 };

	sx.stx_mask = STATX_BASIC_STATS | 0x1000;
	sx.stx_mode = S_IFREG | 0755;
	sx.stx_size = 3;
	tc_new(&T, SYS_statx, 0, (uint64_t)-100, 0x1000,
	       AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
	       STATX_MODE | STATX_NLINK | STATX_UID | STATX_GID | STATX_MTIME | STATX_SIZE,
	       0x2000, 0);
	tc_str(&T, 1, 0x1000, "/etc/hostname");
	tc_mem(&T, SONDE_PL_EXIT, 4, 0x2000, &sx, sizeof(sx));
	CHECK_EQ_STR(tc_fmt(&T), "statx(AT_FDCWD, \"/etc/hostname\", AT_STATX_SYNC_AS_STAT|AT_SYMLINK_NOFOLLOW|AT_NO_AUTOMOUNT, STATX_MODE|STATX_NLINK|STATX_UID|STATX_GID|STATX_MTIME|STATX_SIZE, {stx_mask=STATX_BASIC_STATS|STATX_MNT_ID, stx_attributes=0, stx_mode=S_IFREG|0755, stx_size=3, ...}) = 0");
}

TEST(fcntl_forms)
{
	tc_new(&T, SYS_fcntl, 0x8401, 5, F_GETFL, 0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "fcntl(5, F_GETFL) = 0x8401 (flags O_WRONLY|O_APPEND|O_LARGEFILE)");
	tc_new(&T, SYS_fcntl, 0, 5, F_SETFD, FD_CLOEXEC, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "fcntl(5, F_SETFD, FD_CLOEXEC) = 0");
	tc_new(&T, SYS_fcntl, 1, 5, F_GETFD, 0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "fcntl(5, F_GETFD) = 0x1 (flags FD_CLOEXEC)");
	tc_new(&T, SYS_fcntl, 11, 5, F_DUPFD_CLOEXEC, 10, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "fcntl(5, F_DUPFD_CLOEXEC, 10) = 11");
	tc_new(&T, SYS_fcntl, 0, 3, F_SETFL, O_RDWR | O_NONBLOCK, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "fcntl(3, F_SETFL, O_RDWR|O_NONBLOCK) = 0");
	tc_new(&T, SYS_fcntl, -22, 3, 0x4000, 7, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "fcntl(3, 0x4000 /* F_??? */, 0x7) = -1 EINVAL (Invalid argument)");
	tc_new(&T, SYS_fcntl, 0, 3, F_SETFL, O_ASYNC | O_NONBLOCK, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "fcntl(3, F_SETFL, O_RDONLY|O_NONBLOCK|FASYNC) = 0");
	tc_new(&T, SYS_fcntl, 0x18800, 3, F_GETFL, 0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "fcntl(3, F_GETFL) = 0x18800 (flags O_RDONLY|O_NONBLOCK|O_LARGEFILE|O_DIRECTORY)");
}

TEST(descriptors_and_dirs)
{
	int fds[2] = { 3, 4 };

	tc_new(&T, SYS_pipe2, 0, 0x1000, O_CLOEXEC, 0, 0, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 0, 0x1000, fds, sizeof(fds));
	CHECK_EQ_STR(tc_fmt(&T), "pipe2([3, 4], O_CLOEXEC) = 0");
	tc_new(&T, SYS_dup2, 20, 5, 20, 0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "dup2(5, 20) = 20");
	tc_new(&T, SYS_dup3, 21, 5, 21, O_CLOEXEC, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "dup3(5, 21, O_CLOEXEC) = 21");
	tc_new(&T, SYS_lseek, 16, 5, 5, SEEK_CUR, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "lseek(5, 5, SEEK_CUR) = 16");
	tc_new(&T, SYS_mkdir, 0, 0x1000, 0755, 0, 0, 0, 0);
	tc_str(&T, 0, 0x1000, "/tmp/ptestd");
	CHECK_EQ_STR(tc_fmt(&T), "mkdir(\"/tmp/ptestd\", 0755) = 0");
	tc_new(&T, SYS_umask, 022, 022, 0, 0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "umask(022) = 022");
	tc_new(&T, SYS_chmod, -2, 0x1000, 04755, 0, 0, 0, 0);
	tc_str(&T, 0, 0x1000, "/nonexist");
	CHECK_EQ_STR(tc_fmt(&T), "chmod(\"/nonexist\", 04755) = -1 ENOENT (No such file or directory)");
	tc_new(&T, SYS_access, 0, 0x1000, R_OK | X_OK, 0, 0, 0, 0);
	tc_str(&T, 0, 0x1000, "/");
	CHECK_EQ_STR(tc_fmt(&T), "access(\"/\", R_OK|X_OK) = 0");
	tc_new(&T, SYS_mknodat, 0, (uint64_t)-100, 0x1000, S_IFCHR | 0600, makedev(1, 3), 0, 0);
	tc_str(&T, 1, 0x1000, "/tmp/n");
	CHECK_EQ_STR(tc_fmt(&T), "mknodat(AT_FDCWD, \"/tmp/n\", S_IFCHR|0600, makedev(0x1, 0x3)) = 0");
	tc_new(&T, SYS_readlink, 11, 0x1000, 0x2000, 4096, 0, 0, 0);
	tc_str(&T, 0, 0x1000, "/proc/self/exe");
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x2000, "/usr/bin/ls", 11);
	CHECK_EQ_STR(tc_fmt(&T), "readlink(\"/proc/self/exe\", \"/usr/bin/ls\", 4096) = 11");
	tc_new(&T, SYS_getcwd, 5, 0x2000, 4096, 0, 0, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 0, 0x2000, "/tmp", 5);
	CHECK_EQ_STR(tc_fmt(&T), "getcwd(\"/tmp\", 4096) = 5");
}

/* Two dirent64 records: "." and "sc". */
static size_t mk_dirents(uint8_t *b)
{
	size_t off = 0;
	const char *names[] = { ".", "sc" };
	uint8_t types[] = { 4, 4 };

	for (int i = 0; i < 2; i++) {
		uint64_t ino = 100 + i, doff = 1000 + i;
		uint16_t reclen = 24;

		memset(b + off, 0, reclen);
		memcpy(b + off, &ino, 8);
		memcpy(b + off + 8, &doff, 8);
		memcpy(b + off + 16, &reclen, 2);
		b[off + 18] = types[i];
		memcpy(b + off + 19, names[i], strlen(names[i]));
		off += reclen;
	}
	return off;
}

TEST(getdents64)
{
	uint8_t b[64];
	size_t n = mk_dirents(b);
	struct sonde_strace_opts o;

	tc_new(&T, SYS_getdents64, (int64_t)n, 3, 0x55d0, 32768, 0, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x55d0, b, n);
	CHECK_EQ_STR(tc_fmt(&T), "getdents64(3, 0x55d0 /* 2 entries */, 32768) = 48");
	sonde_strace_opts_init(&o);
	o.verbose = 1;
	CHECK_EQ_STR(tc_fmt_opts(&T, &o), "getdents64(3, [{d_ino=100, d_off=1000, d_reclen=24, d_type=DT_DIR, d_name=\".\"}, {d_ino=101, d_off=1001, d_reclen=24, d_type=DT_DIR, d_name=\"sc\"}], 32768) = 48");
	tc_new(&T, SYS_getdents64, 0, 3, 0x55d0, 32768, 0, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x55d0, b, 0);
	CHECK_EQ_STR(tc_fmt(&T), "getdents64(3, 0x55d0 /* 0 entries */, 32768) = 0");
}

TEST(iovec)
{
	uint64_t iov[4] = { 0x1000, 5, 0x2000, 6 };

	tc_new(&T, SYS_writev, 11, 5, 0x3000, 2, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x3000, iov, sizeof(iov));
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, "hello", 5);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x2000, "world\n", 6);
	CHECK_EQ_STR(tc_fmt(&T), "writev(5, [{iov_base=\"hello\", iov_len=5}, {iov_base=\"world\\n\", iov_len=6}], 2) = 11");
	/* readv: only the bytes read are shown. */
	tc_new(&T, SYS_readv, 7, 5, 0x3000, 2, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x3000, iov, sizeof(iov));
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x1000, "hello", 5);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x2000, "wo", 2);
	CHECK_EQ_STR(tc_fmt(&T), "readv(5, [{iov_base=\"hello\", iov_len=5}, {iov_base=\"wo\", iov_len=6}], 2) = 7");
}

TEST(ioctl)
{
	tc_new(&T, SYS_ioctl, -25, 1, 0x5401, 0x7fffe5e3a3f0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "ioctl(1, TCGETS, 0x7fffe5e3a3f0) = -1 ENOTTY (Inappropriate ioctl for device)");
	uint16_t ws[4] = { 24, 80, 0, 0 };
	tc_new(&T, SYS_ioctl, 0, 1, 0x5413, 0x1000, 0, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 2, 0x1000, ws, sizeof(ws));
	CHECK_EQ_STR(tc_fmt(&T), "ioctl(1, TIOCGWINSZ, {ws_row=24, ws_col=80, ws_xpixel=0, ws_ypixel=0}) = 0");
	tc_new(&T, SYS_ioctl, 0, 3, 0x5451, 0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "ioctl(3, FIOCLEX) = 0");
	tc_new(&T, SYS_ioctl, -25, 0, 0x12345678, 0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "ioctl(0, _IOC(_IOC_NONE, 0x56, 0x78, 0x1234), 0) = -1 ENOTTY (Inappropriate ioctl for device)");
	int zero = 0;
	tc_new(&T, SYS_ioctl, 0, 4, 0x80045430, 0x1000, 0, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 2, 0x1000, &zero, 4);
	CHECK_EQ_STR(tc_fmt(&T), "ioctl(4, TIOCGPTN, [0]) = 0");
	/* TCGETS on a fresh pty, as strace 6.1 prints it. */
	uint32_t tio[9] = { 0x500, 0x5, 0xbf, 0x8a3b };
	tc_new(&T, SYS_ioctl, 0, 5, 0x5401, 0x1000, 0, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 2, 0x1000, tio, 36);
	CHECK_EQ_STR(tc_fmt(&T), "ioctl(5, TCGETS, {c_iflag=ICRNL|IXON, c_oflag=NL0|CR0|TAB0|BS0|VT0|FF0|OPOST|ONLCR, c_cflag=B38400|CS8|CREAD, c_lflag=ISIG|ICANON|ECHO|ECHOE|ECHOK|IEXTEN|ECHOCTL|ECHOKE, ...}) = 0");
	/* -v: c_cc by name, as strace -v prints a terminal's (stty, a pty) */
	{
		static const uint8_t cc[] = { 3, 0x1c, 0x7f, 0x15, 4, 0, 1, 0, 0x11, 0x13,
					      0x1a, 0, 0x12, 0xf, 0x17, 0x16, 0, 0, 0 };
		struct sonde_strace_opts o;

		memcpy((uint8_t *)tio + 17, cc, sizeof(cc));
		tc_new(&T, SYS_ioctl, 0, 0, 0x5401, 0x1000, 0, 0, 0);
		tc_mem(&T, SONDE_PL_EXIT, 2, 0x1000, tio, 36);
		sonde_strace_opts_init(&o);
		o.verbose = 1;
		CHECK_EQ_STR(tc_fmt_opts(&T, &o), "ioctl(0, TCGETS, {c_iflag=ICRNL|IXON, c_oflag=NL0|CR0|TAB0|BS0|VT0|FF0|OPOST|ONLCR, c_cflag=B38400|CS8|CREAD, c_lflag=ISIG|ICANON|ECHO|ECHOE|ECHOK|IEXTEN|ECHOCTL|ECHOKE, c_line=N_TTY, c_cc=[[VINTR]=0x3, [VQUIT]=0x1c, [VERASE]=0x7f, [VKILL]=0x15, [VEOF]=0x4, [VTIME]=0, [VMIN]=0x1, [VSWTC]=0, [VSTART]=0x11, [VSTOP]=0x13, [VSUSP]=0x1a, [VEOL]=0, [VREPRINT]=0x12, [VDISCARD]=0xf, [VWERASE]=0x17, [VLNEXT]=0x16, [VEOL2]=0, [17]=0, [18]=0]}) = 0");
	}
}

TEST(undecoded_raw_args)
{
	/* A known syscall without a decoder: its arguments in hex, as many
	 * as it takes (strace -e raw=nfsservctl). */
	tc_new(&T, 180, -38, 1, 0x20, 3, 4, 5, 6);
	CHECK_EQ_STR(tc_fmt(&T), "nfsservctl(0x1, 0x20, 0x3) = -1 ENOSYS (Function not implemented)");
	/* An unknown number: all six registers. */
	tc_new(&T, 999, -38, 1, 0x20, 0, 4, 5, 6);
	CHECK_EQ_STR(tc_fmt(&T), "syscall_0x3e7(0x1, 0x20, 0, 0x4, 0x5, 0x6) = -1 ENOSYS (Function not implemented)");
	CHECK(sonde_strace_decoded_count() >= 150);
}

TEST(newer_than_strace_61)
{
	/* Named, with as many raw arguments as they take... */
	tc_new(&T, 451, -9, (uint32_t)-1, 0, 0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "cachestat(0xffffffff, 0, 0, 0) = -1 EBADF (Bad file descriptor)");
	/* ... or decoded as later strace versions print them. */
	tc_new(&T, 452, -2, (uint64_t)-100, 0x1000, 0644, 0x100, 0, 0);
	tc_str(&T, 1, 0x1000, "/nonexistent");
	CHECK_EQ_STR(tc_fmt(&T), "fchmodat2(AT_FDCWD, \"/nonexistent\", 0644, AT_SYMLINK_NOFOLLOW) = "
				 "-1 ENOENT (No such file or directory)");
	tc_new(&T, 462, 0, 0x7f0000000000, 4096, 0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "mseal(0x7f0000000000, 4096, 0) = 0");
}

/* sendfile's offset: " => [new]" only when bytes were sent (shutil's
 * copy loop ends with a sendfile returning 0). */
TEST(sendfile_offset)
{
	int64_t in = 100, out = 200;

	tc_new(&T, SYS_sendfile, 100, 4, 3, 0x1000, 8388608, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 2, 0x1000, &in, 8);
	tc_mem(&T, SONDE_PL_EXIT, 2, 0x1000, &out, 8);
	CHECK_EQ_STR(tc_fmt(&T), "sendfile(4, 3, [100] => [200], 8388608) = 100");
	tc_new(&T, SYS_sendfile, 0, 4, 3, 0x1000, 8388608, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 2, 0x1000, &in, 8);
	tc_mem(&T, SONDE_PL_EXIT, 2, 0x1000, &in, 8);
	CHECK_EQ_STR(tc_fmt(&T), "sendfile(4, 3, [100], 8388608) = 0");
}

int main(void)
{
	RUN(openat_flags_and_mode);
	RUN(errors);
	RUN(strings_escaping_and_truncation);
	RUN(long_path_not_cut_by_s);
	RUN(stat_family);
	RUN(statx);
	RUN(fcntl_forms);
	RUN(descriptors_and_dirs);
	RUN(getdents64);
	RUN(iovec);
	RUN(ioctl);
	RUN(undecoded_raw_args);
	RUN(newer_than_strace_61);
	RUN(sendfile_offset);
	CHECK_EXIT();
}
