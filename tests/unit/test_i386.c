// SPDX-License-Identifier: GPL-2.0
/*
 * i386 calls (events.h, SONDE_SC_COMPAT): how they are numbered, named and
 * selected, and the decoders of dec_i386.c for the cases the fixture
 * (tests/fixtures/i386_calls.S, compared with strace 6.1 by
 * tests/integration/strace_i386.sh) cannot produce: a failed _llseek, a
 * file offset, an infinite limit, a lock command, a reaped child. The
 * expected text follows strace 6.1's output for a 32-bit process.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include <sonde/syscalls.h>

#include "check.h"
#include "test_strace_util.h"

#define I386(n) (SONDE_NR_I386 + (n))

static struct tcall T;

static void tc_i386(unsigned int n)
{
	T.sc.nr = sonde_syscall_i386_nr(n);
	T.sc.hdr.flags |= SONDE_SC_COMPAT;
}

TEST(numbers_and_names)
{
	/* the same call under the same name: recorded as the x86-64 one */
	CHECK_EQ_INT(sonde_syscall_i386_nr(3), 0);     /* read */
	CHECK_EQ_INT(sonde_syscall_i386_nr(295), 257); /* openat */
	CHECK_EQ_INT(sonde_syscall_i386_nr(252), 231); /* exit_group */
	CHECK_EQ_INT(sonde_syscall_i386_nr(383), 332); /* statx */
	CHECK_EQ_INT(sonde_syscall_i386_nr(435), 435); /* clone3 */
	/* another layout, or another name: its own number */
	CHECK_EQ_INT(sonde_syscall_i386_nr(197), I386(197)); /* fstat64 */
	CHECK_EQ_INT(sonde_syscall_i386_nr(106), 4);	     /* stat: its decoder reads 64 bytes */
	CHECK_EQ_INT(sonde_syscall_i386_nr(141), I386(141)); /* getdents: 32-bit d_ino */
	CHECK_EQ_INT(sonde_syscall_i386_nr(120), 56);	     /* clone: its decoder swaps */
	CHECK_EQ_INT(sonde_syscall_i386_nr(11), 59);	     /* execve: 32-bit argv */
	CHECK_EQ_INT(sonde_syscall_i386_nr(199), I386(199)); /* getuid32 */
	CHECK_EQ_INT(sonde_syscall_i386_nr(600), I386(600)); /* past the table */
	CHECK_EQ_STR(sonde_syscall_name(I386(192)), "mmap2");
	CHECK_EQ_STR(sonde_syscall_name(I386(140)), "_llseek");
	CHECK_EQ_STR(sonde_syscall_name(I386(102)), "socketcall");
	CHECK_EQ_STR(sonde_syscall_name(I386(403)), "clock_gettime64");
	CHECK_EQ_STR(sonde_syscall_name(I386(462)), "mseal"); /* shared numbers */
	CHECK(sonde_syscall_name(I386(222)) == NULL);	      /* hole */
	CHECK(sonde_syscall_name(I386(600)) == NULL);
	CHECK_EQ_INT(sonde_syscall_nargs(I386(192)), 6);
	CHECK_EQ_INT(sonde_syscall_nargs(I386(140)), 5);
	CHECK_EQ_INT(sonde_syscall_classes(I386(197)), SONDE_SCC_DESC | SONDE_SCC_FSTAT);
	/* decoded as a twin of another name, not for another layout */
	CHECK_EQ_INT(sonde_syscall_i386_twin(I386(199)), 102); /* getuid */
	CHECK_EQ_INT(sonde_syscall_i386_twin(I386(403)), 228); /* clock_gettime */
	CHECK_EQ_INT(sonde_syscall_i386_twin(I386(197)), -1);
	CHECK_EQ_INT(sonde_syscall_i386_twin(5), -1);
}

/* Is the call recorded as nr, an i386 one if i386, in the set expr? */
static int set_has_as(const char *expr, uint32_t nr, int i386)
{
	struct sonde_sc_set s;
	char err[256];

	if (sonde_sc_set_parse(&s, expr, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", expr, err);
		return -1;
	}
	return sonde_sc_set_has(&s, nr, i386);
}

static int set_has(const char *expr, uint32_t nr)
{
	return set_has_as(expr, nr, nr - SONDE_NR_I386 < SONDE_NR_I386_LEN);
}

TEST(trace_sets)
{
	CHECK_EQ_INT(set_has("fstat64", I386(197)), 1);
	CHECK_EQ_INT(set_has("fstat64", 5), 0);
	CHECK_EQ_INT(set_has("fstat", I386(197)), 0);
	/* both tables' calls of one name */
	CHECK_EQ_INT(set_has("getdents", 78), 1);
	CHECK_EQ_INT(set_has("getdents", I386(141)), 1);
	CHECK_EQ_INT(set_has("%fstat", I386(197)), 1);
	CHECK_EQ_INT(set_has("%fstat", I386(195)), 0);
	CHECK_EQ_INT(set_has("%stat", I386(195)), 1); /* stat64 */
	CHECK_EQ_INT(set_has("/^_llseek$", I386(140)), 1);
	CHECK_EQ_INT(set_has("!mmap2", I386(192)), 0);
	CHECK_EQ_INT(set_has("!mmap2", I386(197)), 1);
	CHECK_EQ_INT(set_has("all", I386(102)), 1);
	CHECK_EQ_INT(set_has("none", I386(102)), 0);
	CHECK_EQ_INT(set_has("getuid32", I386(199)), 1);
	CHECK_EQ_INT(set_has("getuid32", 102), 0);
	CHECK_EQ_INT(set_has("%process", I386(7)), 1); /* waitpid */
}

#define X32(n) (SONDE_NR_X32 + (n))

/*
 * Personality suffixes, as strace 6.1 takes them (observed on
 * tests/fixtures/i386_int80.S and x32 numbers): i386 read (3) is recorded
 * as x86-64 read (0), with SONDE_SC_COMPAT, yet read@64 is not read@32.
 */
TEST(personality_suffixes)
{
	CHECK_EQ_INT(set_has_as("read@64", 0, 0), 1);
	CHECK_EQ_INT(set_has_as("read@64", 0, 1), 0);
	CHECK_EQ_INT(set_has_as("read@32", 0, 1), 1);
	CHECK_EQ_INT(set_has_as("read@32", 0, 0), 0);
	CHECK_EQ_INT(set_has_as("read", 0, 1), 1);
	CHECK_EQ_INT(set_has_as("read", X32(0), 0), 1);
	CHECK_EQ_INT(set_has_as("read@x32", X32(0), 0), 1);
	CHECK_EQ_INT(set_has_as("read@x32", 0, 0), 0);
	CHECK_EQ_INT(set_has_as("!read@64", 0, 1), 1);
	CHECK_EQ_INT(set_has_as("!read@64", 0, 0), 0);
	CHECK_EQ_INT(set_has_as("?nosuch@64,read@32", 0, 1), 1);
	CHECK_EQ_INT(set_has("fstat64@32", I386(197)), 1);
	CHECK_EQ_INT(set_has("%fstat@64", I386(197)), 0);
	CHECK_EQ_INT(set_has("%fstat@32", I386(197)), 1);
	CHECK_EQ_INT(set_has_as("fstat@32", 5, 1), 1); /* i386 108, as its twin */
	CHECK_EQ_INT(set_has_as("fstat@32", 5, 0), 0);
	CHECK_EQ_INT(set_has_as("file@64", 2, 0), 1); /* a historic class */
	CHECK_EQ_INT(set_has_as("file@64", 2, 1), 0);
	CHECK_EQ_INT(set_has("/stat@32", I386(197)), 1);
	CHECK_EQ_INT(set_has_as("/^fstat$@64", 5, 1), 0);
	/* numbers: call N of each personality (i386 5 is open) */
	CHECK_EQ_INT(set_has_as("5@64", 5, 0), 1);
	CHECK_EQ_INT(set_has_as("5@64", 2, 1), 0);
	CHECK_EQ_INT(set_has_as("5", 2, 1), 1);
	CHECK_EQ_INT(set_has_as("5", X32(5), 0), 1);
	CHECK_EQ_INT(set_has("197@32", I386(197)), 1);
	CHECK_EQ_INT(set_has_as("20", 39, 1), 1); /* i386 getpid */
	CHECK_EQ_INT(set_has_as("all@64", 0, 0), 1);
	CHECK_EQ_INT(set_has("all@64", I386(197)), 0);
	CHECK_EQ_INT(set_has("all@32", I386(197)), 1);
	CHECK_EQ_INT(set_has_as("all@32", 0, 0), 0);
	CHECK_EQ_INT(set_has_as("all@x32", X32(13), 0), 1);
	/* x32: the x86-64 calls of the same numbers, "NAME#64" for those it
	 * lacks, its own from 512 */
	CHECK_EQ_INT(set_has("rt_sigaction@x32", X32(512)), 1);
	CHECK_EQ_INT(set_has("rt_sigaction@x32", X32(13)), 0);
	CHECK_EQ_INT(set_has("rt_sigaction#64@x32", X32(13)), 1);
	CHECK_EQ_INT(set_has("13@x32", X32(13)), 1);
	CHECK_EQ_INT(set_has("%signal@x32", X32(13)), 1);
	CHECK_EQ_INT(set_has("%signal@x32", X32(512)), 1);
	CHECK_EQ_INT(set_has("?fstat64@x32,getpid", X32(39)), 1);
	CHECK_EQ_INT(set_has("getpid@64", X32(39)), 0);
}

/* What strace 6.1 refuses ("invalid system call", "incorrect
 * personality designator"), and what it lets pass. */
TEST(personality_suffix_errors)
{
	static const char *const bad[] = {
		"fstat64@64", "fstat64@x32",  "newfstatat@32", "open@",	  "open@16",
		"open@X32",   "getpid@64@32", "@64",	       "none@64", "getpid,none",
		"400@64",     "548@x32",      "?open@16",      "%all",	  "foo@32",
		"470",	      "-1",
	};
	static const char *const good[] = { "?fstat64@64", "?foo@32", "400",  "512",  "547@x32",
					    "file@64",	   "all@x32", "none", "!none" };
	struct sonde_sc_set s;
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!sonde_sc_set_parse(&s, bad[i], err, sizeof(err))) {
			fprintf(stderr, "'%s' taken\n", bad[i]);
			check_failed_ = 1;
		}
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		if (sonde_sc_set_parse(&s, good[i], err, sizeof(err))) {
			fprintf(stderr, "'%s': %s\n", good[i], err);
			check_failed_ = 1;
		}
	CHECK(sonde_sc_set_parse(&s, "fstat64@64", err, sizeof(err)) == -EINVAL);
	CHECK_EQ_STR(err,
		     "'fstat64@64': no x86-64 syscall is named fstat64 (another personality's is)");
	sonde_sc_set_parse(&s, "open@16", err, sizeof(err));
	CHECK_EQ_STR(err, "unknown personality '@16' in 'open@16': the suffixes are @64 (x86-64), "
			  "@32 (i386) and @x32");
}

/* struct stat64 of the i386 ABI, by offset (dec_i386.c draws it). */
static void stat64_at(uint8_t *b, uint32_t mode, uint64_t size, uint64_t rdev)
{
	uint32_t v32;
	uint64_t v64;

	memset(b, 0, 96);
#define PUT(off, v)                                                         \
	(sizeof(v) == 4 ? (v32 = (uint32_t)(v), memcpy(b + (off), &v32, 4)) \
			: (v64 = (uint64_t)(v), memcpy(b + (off), &v64, 8)))
	PUT(0, (uint64_t)0x803); /* st_dev makedev(0x8, 0x3) */
	PUT(12, (uint32_t)1234); /* __st_ino */
	PUT(16, mode);
	PUT(20, (uint32_t)1);	 /* st_nlink */
	PUT(24, (uint32_t)1000); /* st_uid */
	PUT(28, (uint32_t)100);	 /* st_gid */
	PUT(32, rdev);
	PUT(44, size);
	PUT(52, (uint32_t)4096);       /* st_blksize */
	PUT(56, (uint64_t)8);	       /* st_blocks */
	PUT(64, (uint32_t)1700000000); /* st_atime */
	PUT(68, (uint32_t)5);
	PUT(72, (uint32_t)1700000001);
	PUT(76, (uint32_t)6);
	PUT(80, (uint32_t)1700000002);
	PUT(84, (uint32_t)7);
	PUT(88, (uint64_t)1234); /* st_ino */
#undef PUT
}

TEST(stat64)
{
	struct sonde_strace_opts o;
	uint8_t b[96];

	stat64_at(b, 0100644, 5000000000ull, 0);
	tc_new(&T, 0, 0, 3, 0x1000, 0, 0, 0, 0);
	tc_i386(197);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x1000, b, sizeof(b));
	CHECK_EQ_STR(tc_fmt(&T), "fstat64(3, {st_mode=S_IFREG|0644, st_size=5000000000, ...}) = 0");
	sonde_strace_opts_init(&o);
	o.verbose = 1;
	CHECK(strstr(tc_fmt_opts(&T, &o),
		     "fstat64(3, {st_dev=makedev(0x8, 0x3), st_ino=1234, st_mode=S_IFREG|0644, "
		     "st_nlink=1, st_uid=1000, st_gid=100, st_blksize=4096, st_blocks=8, "
		     "st_size=5000000000, st_atime=1700000000 /* ") != NULL);
	CHECK(strstr(T.out, ".000000005+0000 */, st_atime_nsec=5, st_mtime=1700000001 /* ") !=
	      NULL);
	/* a failed call: the address */
	tc_new(&T, 0, -2, 0x2000, 0x1000, 0, 0, 0, 0);
	tc_i386(195);
	tc_str(&T, 0, 0x2000, "/nonexistent");
	CHECK_EQ_STR(tc_fmt(&T),
		     "stat64(\"/nonexistent\", 0x1000) = -1 ENOENT (No such file or directory)");
}

TEST(limits_and_offsets)
{
	uint32_t rl[2] = { 8192 * 1024, 0xffffffff };
	uint64_t pos = 16;

	tc_new(&T, 0, 0, 3, 0x1000, 0, 0, 0, 0);
	tc_i386(191);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x1000, rl, sizeof(rl));
	CHECK_EQ_STR(tc_fmt(&T), "ugetrlimit(RLIMIT_STACK, {rlim_cur=8192*1024, "
				 "rlim_max=RLIM_INFINITY}) = 0");
	tc_new(&T, 0, 0, 7, 0x1000, 0, 0, 0, 0);
	tc_i386(75);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, rl, sizeof(rl));
	CHECK_EQ_STR(tc_fmt(&T), "setrlimit(RLIMIT_NOFILE, {rlim_cur=8192*1024, "
				 "rlim_max=RLIM_INFINITY}) = 0");

	/* _llseek joins the two halves of the offset */
	tc_new(&T, 0, 0, 3, 1, 16, 0x1000, 0, 0);
	tc_i386(140);
	pos = (1ull << 32) + 16;
	tc_mem(&T, SONDE_PL_EXIT, 3, 0x1000, &pos, sizeof(pos));
	CHECK_EQ_STR(tc_fmt(&T), "_llseek(3, 4294967312, [4294967312], SEEK_SET) = 0");
	tc_new(&T, 0, -22, 3, 0xffffffff, 0xfffffff0, 0x1000, 1, 0);
	tc_i386(140);
	CHECK_EQ_STR(tc_fmt(&T),
		     "_llseek(3, -16, 0x1000, SEEK_CUR) = -1 EINVAL (Invalid argument)");

	/* mmap2's offset counts pages */
	tc_new(&T, 0, 0xf7d04000, 0xf7d04000, 1544192, 5, 0x812, 3, 0x22);
	tc_i386(192);
	CHECK_EQ_STR(tc_fmt(&T), "mmap2(0xf7d04000, 1544192, PROT_READ|PROT_EXEC, "
				 "MAP_PRIVATE|MAP_FIXED|MAP_DENYWRITE, 3, 0x22000) = 0xf7d04000");

	/* pread64's offset in two registers, low word first */
	tc_new(&T, 0, 3, 3, 0x1000, 16, 0x200, 1, 0);
	tc_i386(180);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x1000, "abc", 3);
	CHECK_EQ_STR(tc_fmt(&T), "pread64(3, \"abc\", 16, 4294967808) = 3");
	tc_new(&T, 0, 2, 4, 0x1000, 2, 8, 0, 0);
	tc_i386(181);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, "hi", 2);
	CHECK_EQ_STR(tc_fmt(&T), "pwrite64(4, \"hi\", 2, 8) = 2");
}

TEST(fcntl64_waitpid_iovec)
{
	int status = 3 << 8;
	uint32_t iov[4] = { 0x1000, 2, 0x2000, 3 };

	tc_new(&T, 0, 0, 3, 13, 0xffd0, 0, 0, 0);
	tc_i386(221);
	CHECK_EQ_STR(tc_fmt(&T), "fcntl64(3, F_SETLK64, 0xffd0) = 0");
	tc_new(&T, 0, 1, 3, 1, 0, 0, 0, 0);
	tc_i386(221);
	CHECK_EQ_STR(tc_fmt(&T), "fcntl64(3, F_GETFD) = 0x1 (flags FD_CLOEXEC)");

	tc_new(&T, 0, 1234, -1u, 0x1000, 0, 0, 0, 0);
	tc_i386(7);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x1000, &status, sizeof(status));
	CHECK_EQ_STR(tc_fmt(&T), "waitpid(-1, [{WIFEXITED(s) && WEXITSTATUS(s) == 3}], 0) = 1234");

	/* i386 iovecs are two 32-bit words */
	tc_new(&T, 0, 5, 1, 0x3000, 2, 0, 0, 0);
	tc_i386(146);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x3000, iov, sizeof(iov));
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, "hi", 2);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x2000, "you", 3);
	CHECK_EQ_STR(tc_fmt(&T), "writev(1, [{iov_base=\"hi\", iov_len=2}, "
				 "{iov_base=\"you\", iov_len=3}], 2) = 5");
}

TEST(twins_of_another_name)
{
	struct timespec ts = { 0, 1 };

	tc_new(&T, 0, 0, 0, 0, 0, 0, 0, 0);
	tc_i386(199);
	CHECK_EQ_STR(tc_fmt(&T), "getuid32() = 0");
	tc_new(&T, 0, 0, 1, 0x1000, 0, 0, 0, 0);
	tc_i386(406);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x1000, &ts, sizeof(ts));
	CHECK_EQ_STR(tc_fmt(&T), "clock_getres_time64(CLOCK_MONOTONIC, {tv_sec=0, tv_nsec=1}) = 0");
	/* no decoder: the raw arguments, an address returned in hex */
	tc_new(&T, 0, 0xf7f00000, 0x1000, 0, 0, 0, 0, 0);
	tc_i386(90);
	CHECK_EQ_STR(tc_fmt(&T), "mmap(0x1000) = 0xf7f00000");
}

TEST(clone_and_execve)
{
	uint32_t argv[3] = { 0x2000, 0x2010, 0 };

	/* i386 clone(flags, stack, parent_tid, tls, child_tid) */
	tc_new(&T, 0, 77, 0x01080011, 0, 0, 0x3000, 0x4000, 0);
	tc_i386(120);
	CHECK_EQ_INT(T.sc.nr, 56);
	CHECK_EQ_STR(tc_fmt(&T), "clone(child_stack=NULL, flags=CLONE_SETTLS|CLONE_CHILD_SETTID"
				 "|SIGCHLD, tls=0x3000, child_tidptr=0x4000) = 77");
	/* 32-bit pointer arrays */
	tc_new(&T, 0, -2, 0x1000, 0x1800, 0, 0, 0, 0);
	tc_i386(11);
	tc_str(&T, 0, 0x1000, "/x");
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1800, argv, sizeof(argv));
	tc_str(&T, 1, 0x2000, "/x");
	tc_str(&T, 1, 0x2010, "-v");
	CHECK_EQ_STR(tc_fmt(&T), "execve(\"/x\", [\"/x\", \"-v\"], NULL) = -1 ENOENT "
				 "(No such file or directory)");
}

TEST(sigaction)
{
	/* handler, flags (SA_RESTORER|SA_SIGINFO), restorer, mask [CHLD] */
	uint32_t act[5] = { 0x8049000, 0x04000004, 0xf7f00000, 1 << 16, 0 };

	tc_new(&T, 0, 0, 17, 0x1000, 0, 8, 0, 0);
	tc_i386(174);
	CHECK_EQ_INT(T.sc.nr, 13);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, act, sizeof(act));
	CHECK_EQ_STR(tc_fmt(&T), "rt_sigaction(SIGCHLD, {sa_handler=0x8049000, sa_mask=[CHLD], "
				 "sa_flags=SA_RESTORER|SA_SIGINFO, sa_restorer=0xf7f00000}, NULL, "
				 "8) = 0");
}

TEST(old_time_t)
{
	int32_t tv[2] = { 1700000000, 5 };

	tc_new(&T, 0, 0, 0x1000, 0, 0, 0, 0, 0);
	tc_i386(79);
	tc_mem(&T, SONDE_PL_ENTRY, 0, 0x1000, tv, sizeof(tv));
	CHECK_EQ_STR(tc_fmt(&T), "settimeofday({tv_sec=1700000000, tv_usec=5}, NULL) = 0");
	tc_new(&T, 0, -22, 1, 0x1000, 0, 0, 0, 0);
	tc_i386(265);
	CHECK_EQ_STR(tc_fmt(&T), "clock_gettime(CLOCK_MONOTONIC, 0x1000) = -1 EINVAL "
				 "(Invalid argument)");
}

TEST(sigaltstack_both_abis)
{
	uint32_t ss32[3] = { 0, 2, 0 };
	stack_t ss = { .ss_sp = NULL, .ss_flags = SS_DISABLE, .ss_size = 0 };
	struct sonde_strace_opts o;

	tc_new(&T, 0, 0, 0, 0x1000, 0, 0, 0, 0);
	tc_i386(186);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x1000, ss32, sizeof(ss32));
	CHECK_EQ_STR(tc_fmt(&T),
		     "sigaltstack(NULL, {ss_sp=NULL, ss_flags=SS_DISABLE, ss_size=0}) = 0");
	/* SS_DISABLE is 0x2 with -X raw, on x86-64 too */
	tc_new(&T, SYS_sigaltstack, 0, 0x1000, 0, 0, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 0, 0x1000, &ss, sizeof(ss));
	sonde_strace_opts_init(&o);
	o.xlat = SONDE_XLAT_RAW;
	CHECK_EQ_STR(tc_fmt_opts(&T, &o),
		     "sigaltstack({ss_sp=NULL, ss_flags=0x2, ss_size=0}, NULL) = 0");
	o.xlat = SONDE_XLAT_VERBOSE;
	CHECK_EQ_STR(tc_fmt_opts(&T, &o), "sigaltstack({ss_sp=NULL, ss_flags=0x2 /* SS_DISABLE */, "
					  "ss_size=0}, NULL) = 0");
}

TEST(old_stat)
{
	uint8_t b[64] = { 0 };
	uint32_t v = 0x803, size = 1234, mode = 0100600;
	uint16_t ids[2] = { 1000, 100 };
	struct sonde_strace_opts o;

	memcpy(b, &v, 4);	  /* st_dev */
	memcpy(b + 8, &mode, 2);  /* st_mode */
	memcpy(b + 12, ids, 4);	  /* st_uid, st_gid: 16 bits */
	memcpy(b + 20, &size, 4); /* st_size */
	tc_new(&T, 0, 0, 3, 0x1000, 0, 0, 0, 0);
	tc_i386(108);
	CHECK_EQ_INT(T.sc.nr, 5);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x1000, b, sizeof(b));
	CHECK_EQ_STR(tc_fmt(&T), "fstat(3, {st_mode=S_IFREG|0600, st_size=1234, ...}) = 0");
	sonde_strace_opts_init(&o);
	o.verbose = 1;
	CHECK(strstr(tc_fmt_opts(&T, &o), "{st_dev=makedev(0x8, 0x3), st_ino=0, "
					  "st_mode=S_IFREG|0600, st_nlink=0, st_uid=1000, "
					  "st_gid=100, ") != NULL);
}

int main(void)
{
	RUN(numbers_and_names);
	RUN(trace_sets);
	RUN(personality_suffixes);
	RUN(personality_suffix_errors);
	RUN(stat64);
	RUN(limits_and_offsets);
	RUN(fcntl64_waitpid_iovec);
	RUN(twins_of_another_name);
	RUN(clone_and_execve);
	RUN(sigaction);
	RUN(old_time_t);
	RUN(sigaltstack_both_abis);
	RUN(old_stat);
	CHECK_EXIT();
}
