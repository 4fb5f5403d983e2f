// SPDX-License-Identifier: GPL-2.0
/*
 * Syscall table, classes, -e trace= parser, errno and signal names. The
 * expected class members were observed on Debian's strace 6.1 (see the
 * comment at the top of src/decode/syscall_table.c for how).
 */
#include <errno.h>
#include <stdlib.h>

#include <sonde/syscalls.h>

#include "check.h"

static int nr_of(const char *name)
{
	int nr = sonde_syscall_lookup(name);

	if (nr < 0)
		fprintf(stderr, "no syscall '%s' in the table\n", name);
	return nr;
}

/* Parses expr and checks that exactly the names in `in` are members and
 * none of the names in `out`. */
static void check_set(const char *expr, const char *const *in, const char *const *out)
{
	struct sonde_sc_set s;
	char err[256] = "";

	if (sonde_sc_set_parse(&s, expr, err, sizeof(err))) {
		fprintf(stderr, "parse '%s' failed: %s\n", expr, err);
		check_failed_ = 1;
		return;
	}
	for (; in && *in; in++)
		if (!sonde_sc_set_has(&s, nr_of(*in), 0)) {
			fprintf(stderr, "'%s': %s should be in\n", expr, *in);
			check_failed_ = 1;
		}
	for (; out && *out; out++)
		if (sonde_sc_set_has(&s, nr_of(*out), 0)) {
			fprintf(stderr, "'%s': %s should be out\n", expr, *out);
			check_failed_ = 1;
		}
}

TEST(names_and_numbers)
{
	CHECK_EQ_STR(sonde_syscall_name(0), "read");
	CHECK_EQ_STR(sonde_syscall_name(59), "execve");
	CHECK_EQ_STR(sonde_syscall_name(231), "exit_group");
	CHECK_EQ_STR(sonde_syscall_name(262), "newfstatat");
	CHECK_EQ_STR(sonde_syscall_name(335), "uretprobe");
	CHECK_EQ_STR(sonde_syscall_name(336), "uprobe");
	CHECK_EQ_STR(sonde_syscall_name(435), "clone3");
	CHECK_EQ_STR(sonde_syscall_name(450), "set_mempolicy_home_node");
	CHECK_EQ_STR(sonde_syscall_name(451), "cachestat");
	CHECK_EQ_STR(sonde_syscall_name(462), "mseal");
	CHECK_EQ_STR(sonde_syscall_name(469), "file_setattr");
	CHECK(sonde_syscall_name(337) == NULL); /* hole */
	CHECK(sonde_syscall_name(470) == NULL);
	CHECK(sonde_syscall_name(100000) == NULL);
	CHECK_EQ_INT(sonde_syscall_count(), 470);
	CHECK_EQ_INT(sonde_syscall_lookup("openat"), 257);
	CHECK_EQ_INT(sonde_syscall_lookup("fchmodat2"), 452);
	CHECK_EQ_INT(sonde_syscall_lookup("nosuchcall"), -1);
	CHECK_EQ_STR(sonde_syscall_table()[1], "write");
	CHECK(sonde_syscall_table()[400] == NULL);
}

TEST(arity)
{
	CHECK_EQ_INT(sonde_syscall_nargs(0), 3);   /* read */
	CHECK_EQ_INT(sonde_syscall_nargs(9), 6);   /* mmap */
	CHECK_EQ_INT(sonde_syscall_nargs(39), 0);  /* getpid */
	CHECK_EQ_INT(sonde_syscall_nargs(295), 4); /* preadv: strace joins pos */
	CHECK_EQ_INT(sonde_syscall_nargs(231), 1);
	CHECK_EQ_INT(sonde_syscall_nargs(455), 6); /* futex_wait */
	CHECK_EQ_INT(sonde_syscall_nargs(400), 6); /* unknown: all six */
	CHECK(sonde_syscall_info(9)->flags & SONDE_SCF_RET_ADDR);
	CHECK(sonde_syscall_info(12)->flags & SONDE_SCF_RET_ADDR);
	CHECK(!(sonde_syscall_info(0)->flags & SONDE_SCF_RET_ADDR));
}

/* Samples of what strace 6.1 puts in each class (and leaves out). */
TEST(classes_match_strace)
{
	check_set("%file",
		  (const char *[]){ "open", "openat", "stat", "execve", "newfstatat", "statx",
				    "getcwd", "chdir", "statfs", "inotify_add_watch", "openat2",
				    "fchmodat2", NULL },
		  (const char *[]){ "read", "close", "fstat", "fchdir", "socket", NULL });
	check_set("%desc",
		  (const char *[]){ "read", "write", "close", "mmap", "fstat", "openat", "dup3",
				    "epoll_wait", "bpf", "memfd_create", "pidfd_open",
				    "io_uring_enter", "cachestat", NULL },
		  (const char *[]){ "stat", "socket", "connect", "getpid", "execve", NULL });
	check_set("%process",
		  (const char *[]){ "clone", "clone3", "fork", "vfork", "execve", "execveat",
				    "exit", "exit_group", "wait4", "waitid", "kill", "tgkill",
				    "pidfd_send_signal", NULL },
		  (const char *[]){ "getpid", "prctl", "rt_sigaction", NULL });
	check_set("%network",
		  (const char *[]){ "socket", "connect", "accept4", "sendto", "recvmmsg",
				    "sendfile", "getsockopt", NULL },
		  (const char *[]){ "read", "write", "pipe", NULL });
	check_set("%memory",
		  (const char *[]){ "mmap", "munmap", "brk", "mprotect", "mremap", "madvise",
				    "shmat", "mbind", "mseal", "io_uring_register", NULL },
		  (const char *[]){ "memfd_create", "read", NULL });
	check_set("%signal",
		  (const char *[]){ "rt_sigaction", "rt_sigreturn", "kill", "sigaltstack",
				    "signalfd4", "pause", "io_uring_enter", NULL },
		  (const char *[]){ "exit_group", "prctl", NULL });
	check_set("%ipc", (const char *[]){ "shmget", "semop", "msgrcv", "semtimedop", NULL },
		  (const char *[]){ "mq_open", "pipe", NULL });
	check_set("%creds", (const char *[]){ "getuid", "setresuid", "capset", "prctl", NULL },
		  (const char *[]){ "getpid", NULL });
	check_set("%clock",
		  (const char *[]){ "clock_gettime", "gettimeofday", "time", "adjtimex", NULL },
		  (const char *[]){ "nanosleep", "clock_nanosleep", NULL });
	check_set("%pure", (const char *[]){ "getpid", "gettid", "getppid", "getuid", NULL },
		  (const char *[]){ "getcwd", NULL });
	check_set("%stat", (const char *[]){ "stat", NULL },
		  (const char *[]){ "lstat", "fstat", "statx", NULL });
	check_set("%fstat", (const char *[]){ "fstat", "newfstatat", "statx", NULL },
		  (const char *[]){ "stat", NULL });
	check_set("%%stat",
		  (const char *[]){ "stat", "lstat", "fstat", "newfstatat", "statx", NULL },
		  (const char *[]){ "statfs", NULL });
	check_set("%%statfs", (const char *[]){ "statfs", "fstatfs", "ustat", NULL },
		  (const char *[]){ "stat", NULL });
}

TEST(class_sizes)
{
	struct sonde_sc_set s;
	char err[256];

	/* Member counts of strace 6.1's classes on x86-64 (0..450), plus the
	 * calls added since: %file +8 (fchmodat2, the *xattrat family,
	 * open_tree_attr, file_[gs]etattr), %desc +9 (those and cachestat),
	 * %memory +2 (map_shadow_stack, mseal). */
	static const struct {
		const char *expr;
		unsigned int n;
	} sizes[] = {
		{ "%file", 67 + 8 },   { "%desc", 123 + 9 }, { "%process", 16 }, { "%net", 21 },
		{ "%memory", 26 + 2 }, { "%signal", 17 },    { "%ipc", 12 },	 { "%creds", 19 },
		{ "%clock", 8 },       { "%pure", 8 },	     { "%%stat", 5 },	 { "%%statfs", 3 },
	};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		CHECK(!sonde_sc_set_parse(&s, sizes[i].expr, err, sizeof(err)));
		if (sonde_sc_set_count(&s) != sizes[i].n) {
			fprintf(stderr, "%s has %u members, expected %u\n", sizes[i].expr,
				sonde_sc_set_count(&s), sizes[i].n);
			check_failed_ = 1;
		}
	}
}

TEST(parse_lists_negation_all_none)
{
	struct sonde_sc_set s;
	char err[256];

	CHECK(!sonde_sc_set_parse(&s, "open,close,read", err, sizeof(err)));
	CHECK_EQ_INT(sonde_sc_set_count(&s), 3);
	CHECK(sonde_sc_set_has(&s, 2, 0) && sonde_sc_set_has(&s, 3, 0));

	CHECK(!sonde_sc_set_parse(&s, "!open,close", err, sizeof(err)));
	CHECK(!sonde_sc_set_has(&s, 2, 0) && !sonde_sc_set_has(&s, 3, 0));
	CHECK(sonde_sc_set_has(&s, 0, 0));
	CHECK(sonde_sc_set_has(&s, 400, 0)); /* unknown numbers stay traced */
	/* so do numbers past the table: -1, x32's, 100000 */
	CHECK(sonde_sc_set_has(&s, 0xffffffffu, 0) && sonde_sc_set_has(&s, 0x40000027, 0));
	CHECK_EQ_INT(sonde_sc_set_count(&s), SONDE_NR_SYSCALLS - 2);
	CHECK(!sonde_sc_set_parse(&s, "open", err, sizeof(err)));
	CHECK(!sonde_sc_set_has(&s, 100000, 0));

	CHECK(!sonde_sc_set_parse(&s, "all", err, sizeof(err)));
	CHECK_EQ_INT(sonde_sc_set_count(&s), SONDE_NR_SYSCALLS);
	CHECK(sonde_sc_set_has(&s, 100000, 0));
	CHECK(!sonde_sc_set_parse(&s, "none", err, sizeof(err)));
	CHECK_EQ_INT(sonde_sc_set_count(&s), 0);
	CHECK(!sonde_sc_set_has(&s, 100000, 0));
	CHECK(!sonde_sc_set_parse(&s, "!none", err, sizeof(err)));
	CHECK_EQ_INT(sonde_sc_set_count(&s), SONDE_NR_SYSCALLS);
	CHECK(!sonde_sc_set_parse(&s, "!all", err, sizeof(err)));
	CHECK_EQ_INT(sonde_sc_set_count(&s), 0);

	/* class + name, historic bare class, negated class */
	check_set("%network,write", (const char *[]){ "socket", "write", NULL },
		  (const char *[]){ "read", NULL });
	check_set("file", (const char *[]){ "openat", NULL }, (const char *[]){ "read", NULL });
	check_set("!%file", (const char *[]){ "read", "close", NULL },
		  (const char *[]){ "openat", "execve", NULL });
	/* "stat" is the syscall; the class needs the '%' */
	CHECK(!sonde_sc_set_parse(&s, "stat", err, sizeof(err)));
	CHECK_EQ_INT(sonde_sc_set_count(&s), 1);
	/* regex and optional names */
	check_set("/^(p)?read", (const char *[]){ "read", "readv", "pread64", "readlink", NULL },
		  (const char *[]){ "write", "pwrite64", NULL });
	CHECK(!sonde_sc_set_parse(&s, "?nosuchcall,read", err, sizeof(err)));
	CHECK_EQ_INT(sonde_sc_set_count(&s), 1);
	/* "signal" is the historic class before i386's signal(2), as in strace */
	check_set("signal", (const char *[]){ "rt_sigaction", "kill", NULL },
		  (const char *[]){ "read", NULL });
	/* numbers are x86-64 calls; ?N of no call is no error */
	check_set("0,3,64", (const char *[]){ "read", "close", "semget", NULL },
		  (const char *[]){ "write", NULL });
	CHECK(!sonde_sc_set_parse(&s, "?100000,read", err, sizeof(err)));
	CHECK_EQ_INT(sonde_sc_set_count(&s), 1);
}

TEST(parse_errors_name_the_token)
{
	struct sonde_sc_set s;
	char err[256];

	CHECK_EQ_INT(sonde_sc_set_parse(&s, "opne", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "'opne'") && strstr(err, "did you mean 'open'"));
	CHECK_EQ_INT(sonde_sc_set_parse(&s, "read,xyzzyplugh", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "'xyzzyplugh'") != NULL);
	CHECK_EQ_INT(sonde_sc_set_parse(&s, "%files", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "'%files'") && strstr(err, "%file"));
	CHECK_EQ_INT(sonde_sc_set_parse(&s, "read,,write", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "empty") != NULL);
	CHECK_EQ_INT(sonde_sc_set_parse(&s, "", err, sizeof(err)), -EINVAL);
	CHECK_EQ_INT(sonde_sc_set_parse(&s, "/(", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "regular expression") != NULL);
	CHECK_EQ_INT(sonde_sc_set_parse(&s, "/^zzz", err, sizeof(err)), -EINVAL);
	CHECK_EQ_INT(sonde_sc_set_parse(&s, "100000", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "'100000'") != NULL);
	CHECK_EQ_INT(sonde_sc_set_parse(&s, "0-3", err, sizeof(err)), -EINVAL);
	/* "!" only negates at the start, as in strace */
	CHECK_EQ_INT(sonde_sc_set_parse(&s, "read,!write", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "'!write'") != NULL);
}

TEST(errno_names_and_text)
{
	char buf[64];

	CHECK_EQ_STR(sonde_errno_name(2), "ENOENT");
	CHECK_EQ_STR(sonde_errno_name(11), "EAGAIN");
	CHECK_EQ_STR(sonde_errno_name(35), "EDEADLK");
	CHECK_EQ_STR(sonde_errno_name(95), "EOPNOTSUPP");
	CHECK_EQ_STR(sonde_errno_name(133), "EHWPOISON");
	CHECK_EQ_STR(sonde_errno_name(512), "ERESTARTSYS");
	CHECK_EQ_STR(sonde_errno_name(516), "ERESTART_RESTARTBLOCK");
	CHECK_EQ_STR(sonde_errno_name(524), "ENOTSUPP");
	CHECK(sonde_errno_name(41) == NULL); /* unused on Linux */
	CHECK(sonde_errno_name(520) == NULL);
	CHECK(sonde_errno_name(0) == NULL && sonde_errno_name(-2) == NULL);
	CHECK(sonde_errno_name(4096) == NULL);
	CHECK_EQ_STR(sonde_errno_text(2, buf, sizeof(buf)), "No such file or directory");
	CHECK_EQ_STR(sonde_errno_text(512, buf, sizeof(buf)),
		     "To be restarted if SA_RESTART is set");
	CHECK_EQ_STR(sonde_errno_text(4000, buf, sizeof(buf)), "Unknown error 4000");
	CHECK(sonde_errno_is_restart(512) && !sonde_errno_is_restart(4));
	CHECK_EQ_INT(sonde_errno_lookup("EACCES"), 13);
	CHECK_EQ_INT(sonde_errno_lookup("ERESTARTNOHAND"), 514);
	CHECK_EQ_INT(sonde_errno_lookup("EFOO"), -1);
	CHECK(sonde_syscall_failed(-2) && sonde_syscall_failed(-4095));
	CHECK(!sonde_syscall_failed(-4096) && !sonde_syscall_failed(0));
}

TEST(signal_names)
{
	CHECK_EQ_STR(sonde_signal_name(9), "SIGKILL");
	CHECK_EQ_STR(sonde_signal_name(17), "SIGCHLD");
	CHECK_EQ_STR(sonde_signal_name(31), "SIGSYS");
	CHECK_EQ_STR(sonde_signal_name(32), "SIGRT_0");
	CHECK_EQ_STR(sonde_signal_name(34), "SIGRT_2"); /* as strace 6.1 */
	CHECK_EQ_STR(sonde_signal_name(64), "SIGRT_32");
	CHECK(sonde_signal_name(0) == NULL && sonde_signal_name(65) == NULL);
	CHECK_EQ_INT(sonde_signal_lookup("SIGTERM"), 15);
	CHECK_EQ_INT(sonde_signal_lookup("term"), 15);
	CHECK_EQ_INT(sonde_signal_lookup("RT_2"), 34);
	CHECK_EQ_INT(sonde_signal_lookup("SIGNOPE"), -1);
}

int main(void)
{
	RUN(names_and_numbers);
	RUN(arity);
	RUN(classes_match_strace);
	RUN(class_sizes);
	RUN(parse_lists_negation_all_none);
	RUN(parse_errors_name_the_token);
	RUN(errno_names_and_text);
	RUN(signal_names);
	CHECK_EXIT();
}
