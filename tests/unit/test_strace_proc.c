// SPDX-License-Identifier: GPL-2.0
/* strace decoders of process, signal and time syscalls: strace 6.1 text. */
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>

#include "check.h"
#include "test_strace_util.h"

static struct tcall T;

TEST(clone_fork_forms)
{
	tc_new(&T, SYS_clone, 6111, CLONE_CHILD_CLEARTID | CLONE_CHILD_SETTID | SIGCHLD, 0, 0,
	       0x7fa31a67aa10, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7fa31a67aa10) = 6111");
	tc_new(&T, SYS_vfork, 5113, 0, 0, 0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "vfork() = 5113");
}

TEST(execve_argv_envp)
{
	uint64_t argv[4] = { 0x2000, 0x2100, 0x2200, 0 }, envp[3] = { 0x3000, 0x3100, 0 };
	struct sonde_strace_opts o;

	tc_new(&T, SYS_execve, 0, 0x1000, 0x1800, 0x7fff60065078, 0, 0, 0);
	tc_str(&T, 0, 0x1000, "/usr/bin/sh");
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1800, argv, sizeof(argv));
	tc_str(&T, 1, 0x2000, "sh");
	tc_str(&T, 1, 0x2100, "-c");
	tc_str(&T, 1, 0x2200, "ls -la /etc/hostname /nonexist; echo hi");
	tc_mem(&T, SONDE_PL_ENTRY, 2, 0x7fff60065078, envp, sizeof(envp));
	tc_str(&T, 2, 0x3000, "A=1");
	tc_str(&T, 2, 0x3100, "B=2");
	CHECK_EQ_STR(tc_fmt(&T), "execve(\"/usr/bin/sh\", [\"sh\", \"-c\", \"ls -la /etc/hostname /nonexist; \"...], 0x7fff60065078 /* 2 vars */) = 0");
	sonde_strace_opts_init(&o);
	o.verbose = 1;
	CHECK_EQ_STR(tc_fmt_opts(&T, &o), "execve(\"/usr/bin/sh\", [\"sh\", \"-c\", \"ls -la /etc/hostname /nonexist; \"...], [\"A=1\", \"B=2\"]) = 0");

	/* python's subprocess: argv's only string right after the array */
	uint64_t argv1[2] = { 0x1810, 0 };
	tc_new(&T, SYS_execve, 0, 0x1000, 0x1800, 0x7fff60065078, 0, 0, 0);
	tc_str(&T, 0, 0x1000, "/bin/cat");
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1800, argv1, sizeof(argv1));
	tc_str(&T, 1, 0x1810, "/bin/cat");
	tc_mem(&T, SONDE_PL_ENTRY, 2, 0x7fff60065078, envp, sizeof(envp));
	CHECK_EQ_STR(tc_fmt(&T), "execve(\"/bin/cat\", [\"/bin/cat\"], 0x7fff60065078 /* 2 vars */) = 0");
}

TEST(wait_and_exit)
{
	int st = 3 << 8;

	tc_new(&T, SYS_wait4, 6111, 6111, 0x1000, 0, 0, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x1000, &st, 4);
	CHECK_EQ_STR(tc_fmt(&T), "wait4(6111, [{WIFEXITED(s) && WEXITSTATUS(s) == 3}], 0, NULL) = 6111");
	st = SIGKILL;
	tc_new(&T, SYS_wait4, 6112, 6112, 0x1000, 0, 0, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x1000, &st, 4);
	CHECK_EQ_STR(tc_fmt(&T), "wait4(6112, [{WIFSIGNALED(s) && WTERMSIG(s) == SIGKILL}], 0, NULL) = 6112");
	tc_new(&T, SYS_wait4, -10, -1, 0x7ffc1000, 1, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "wait4(-1, 0x7ffc1000, WNOHANG, NULL) = -1 ECHILD (No child processes)");
	tc_new(&T, SYS_exit_group, 0, 3, 0, 0, 0, 0, 0);
	T.sc.hdr.flags = SONDE_SC_NORETURN;
	CHECK_EQ_STR(tc_fmt(&T), "exit_group(3) = ?");
}

TEST(signals)
{
	uint64_t act[4] = { 0x5557e1ab3dc0, 0x04000000, 0x7f8a47243050, ~0ULL & ~(3ULL << 31) };
	uint64_t old[4] = { 0, 0, 0, 0 };

	tc_new(&T, SYS_rt_sigaction, 0, SIGCHLD, 0x1000, 0, 8, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, act, sizeof(act));
	CHECK_EQ_STR(tc_fmt(&T), "rt_sigaction(SIGCHLD, {sa_handler=0x5557e1ab3dc0, sa_mask=~[RTMIN RT_1], sa_flags=SA_RESTORER, sa_restorer=0x7f8a47243050}, NULL, 8) = 0");
	tc_new(&T, SYS_rt_sigaction, 0, SIGINT, 0, 0x2000, 8, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 2, 0x2000, old, sizeof(old));
	CHECK_EQ_STR(tc_fmt(&T), "rt_sigaction(SIGINT, NULL, {sa_handler=SIG_DFL, sa_mask=[], sa_flags=0}, 8) = 0");
	/* zstd's handlers: sa_flags an int sign-extended into the long */
	uint64_t zact[4] = { 1, 0xffffffffa4000000ULL | 0x40000000 | 0xc00, 0, 0 };
	tc_new(&T, SYS_rt_sigaction, 0, SIGUSR1, 0x1000, 0, 8, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, zact, sizeof(zact));
	CHECK_EQ_STR(tc_fmt(&T), "rt_sigaction(SIGUSR1, {sa_handler=SIG_IGN, sa_mask=[], sa_flags=SA_RESTORER|SA_INTERRUPT|SA_NODEFER|SA_RESETHAND|0xffffffff00000c00, sa_restorer=NULL}, NULL, 8) = 0");

	uint64_t none = 0, all_but = ~0ULL & ~((1ULL << 8) | (1ULL << 18) | (3ULL << 31));
	tc_new(&T, SYS_rt_sigprocmask, 0, SIG_SETMASK, 0x1000, 0x2000, 8, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, &none, 8);
	tc_mem(&T, SONDE_PL_EXIT, 2, 0x2000, &all_but, 8);
	CHECK_EQ_STR(tc_fmt(&T), "rt_sigprocmask(SIG_SETMASK, [], ~[KILL STOP RTMIN RT_1], 8) = 0");
	uint64_t rt = (1ULL << 33) | (1ULL << 39);
	tc_new(&T, SYS_rt_sigprocmask, 0, SIG_BLOCK, 0x1000, 0, 8, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, &rt, 8);
	CHECK_EQ_STR(tc_fmt(&T), "rt_sigprocmask(SIG_BLOCK, [RT_2 RT_8], NULL, 8) = 0");
	tc_new(&T, SYS_kill, 0, 6110, SIGUSR1, 0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "kill(6110, SIGUSR1) = 0");
	tc_new(&T, SYS_tgkill, 0, 6112, 6112, SIGKILL, 0, 0, 0);
	T.sc.hdr.flags = SONDE_SC_NORETURN;
	CHECK_EQ_STR(tc_fmt(&T), "tgkill(6112, 6112, SIGKILL) = ?");
}

TEST(resources_time_misc)
{
	uint64_t rl[2] = { 8192 * 1024, ~0ULL };
	struct timespec ts = { 0, 1000 };
	struct utsname u = { .sysname = "Linux", .nodename = "vm" };
	int futex_word = 0;

	(void)futex_word;
	tc_new(&T, SYS_prlimit64, 0, 0, RLIMIT_STACK, 0, 0x1000, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 3, 0x1000, rl, sizeof(rl));
	CHECK_EQ_STR(tc_fmt(&T), "prlimit64(0, RLIMIT_STACK, NULL, {rlim_cur=8192*1024, rlim_max=RLIM64_INFINITY}) = 0");
	tc_new(&T, SYS_clock_nanosleep, 0, CLOCK_REALTIME, 0, 0x1000, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 2, 0x1000, &ts, sizeof(ts));
	CHECK_EQ_STR(tc_fmt(&T), "clock_nanosleep(CLOCK_REALTIME, 0, {tv_sec=0, tv_nsec=1000}, NULL) = 0");
	tc_new(&T, SYS_uname, 0, 0x1000, 0, 0, 0, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 0, 0x1000, &u, sizeof(u));
	CHECK_EQ_STR(tc_fmt(&T), "uname({sysname=\"Linux\", nodename=\"vm\", ...}) = 0");
	tc_new(&T, SYS_arch_prctl, 0, 0x1002, 0x7f8a47204740, 0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "arch_prctl(ARCH_SET_FS, 0x7f8a47204740) = 0");
	tc_new(&T, SYS_arch_prctl, -22, 0x3001, 0x1234, 0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "arch_prctl(0x3001 /* ARCH_??? */, 0x1234) = -1 EINVAL (Invalid argument)");
	tc_new(&T, SYS_rseq, 0, 0x7f8a47205060, 0x20, 0, 0x53053053, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "rseq(0x7f8a47205060, 0x20, 0, 0x53053053) = 0");
	tc_new(&T, SYS_futex, 0, 0x7ffe0df7a684, 0x80 | 10, 1, 0, 0, 0xffffffff);
	CHECK_EQ_STR(tc_fmt(&T), "futex(0x7ffe0df7a684, FUTEX_WAKE_BITSET_PRIVATE, 1, FUTEX_BITSET_MATCH_ANY) = 0");
	tc_new(&T, SYS_futex, -11, 0x7ffe0df7a684, 0x80 | 0x100 | 9, 1, 0, 0, 0xffffffff);
	CHECK_EQ_STR(tc_fmt(&T), "futex(0x7ffe0df7a684, FUTEX_WAIT_BITSET_PRIVATE|FUTEX_CLOCK_REALTIME, 1, NULL, FUTEX_BITSET_MATCH_ANY) = -1 EAGAIN (Resource temporarily unavailable)");
	tc_new(&T, SYS_prctl, 1, 3 /* PR_GET_DUMPABLE */, 0, 0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "prctl(PR_GET_DUMPABLE) = 1 (SUID_DUMP_USER)");
	tc_new(&T, SYS_getrandom, 8, 0x1000, 8, 1, 0, 0, 0);
	tc_mem(&T, SONDE_PL_EXIT, 0, 0x1000, "\x4c\x0d\xef\xb7\x8b\xd7\xc7\x6d", 8);
	CHECK_EQ_STR(tc_fmt(&T), "getrandom(\"\\x4c\\x0d\\xef\\xb7\\x8b\\xd7\\xc7\\x6d\", 8, GRND_NONBLOCK) = 8");
	uint64_t mask = 0x2; /* bit 1: SIGINT */
	tc_new(&T, SYS_rt_sigreturn, 0, 0, 0, 0, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 0, 0x7ffc0128, &mask, 8);
	CHECK_EQ_STR(tc_fmt(&T), "rt_sigreturn({mask=[INT]}) = 0");
}

TEST(xlat_styles)
{
	struct sonde_strace_opts o;

	sonde_strace_opts_init(&o);
	tc_new(&T, SYS_openat, 3, (uint64_t)-100, 0x1000, 0x241, 0666, 0, 0);
	tc_str(&T, 1, 0x1000, "x");
	o.xlat = SONDE_XLAT_RAW;
	CHECK_EQ_STR(tc_fmt_opts(&T, &o), "openat(-100, \"x\", 0x241, 0666) = 3");
	o.xlat = SONDE_XLAT_VERBOSE;
	CHECK_EQ_STR(tc_fmt_opts(&T, &o), "openat(-100 /* AT_FDCWD */, \"x\", 0x241 /* O_WRONLY|O_CREAT|O_TRUNC */, 0666) = 3");
	/* RUSAGE_CHILDREN is -1, an int: strace names 0xffffffff whatever
	 * the upper half of the register holds (redis-server's INFO). */
	tc_new(&T, SYS_getrusage, -14, (uint64_t)-1, 0x10, 0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt_opts(&T, &o), "getrusage(0xffffffff /* RUSAGE_CHILDREN */, 0x10) = -1 EFAULT (Bad address)");
	tc_new(&T, SYS_getrusage, -14, 0xffffffff, 0x10, 0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "getrusage(RUSAGE_CHILDREN, 0x10) = -1 EFAULT (Bad address)");
	tc_new(&T, SYS_getrusage, -22, (uint64_t)-7, 0x10, 0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "getrusage(0xfffffff9 /* RUSAGE_??? */, 0x10) = -1 EINVAL (Invalid argument)");
	tc_new(&T, SYS_mmap, 0x7fa82e375000, 0, 4096, 0x40, 0x22, (uint64_t)-1, 0);
	CHECK_EQ_STR(tc_fmt(&T), "mmap(NULL, 4096, 0x40 /* PROT_??? */, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7fa82e375000");
	/* fio's shared memory: IPC_PRIVATE and IPC_CREAT in each style */
	tc_new(&T, SYS_shmget, 7, 0, 8192, 01600, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt_opts(&T, &o), "shmget(0 /* IPC_PRIVATE */, 8192, 0x200 /* IPC_CREAT */|0600) = 7");
	o.xlat = SONDE_XLAT_RAW;
	CHECK_EQ_STR(tc_fmt_opts(&T, &o), "shmget(0, 8192, 0x200|0600) = 7");
	CHECK_EQ_STR(tc_fmt(&T), "shmget(IPC_PRIVATE, 8192, IPC_CREAT|0600) = 7");
}

TEST(interrupted_sleep_and_restart)
{
	struct timespec req = { 1, 0 }, left = { 0, 630778472 };

	/* The time left is shown when a stop signal cut the sleep short... */
	tc_new(&T, SYS_clock_nanosleep, -516, CLOCK_REALTIME, 0, 0x1000, 0x2000, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 2, 0x1000, &req, sizeof(req));
	tc_mem(&T, SONDE_PL_EXIT, 3, 0x2000, &left, sizeof(left));
	CHECK_EQ_STR(tc_fmt(&T), "clock_nanosleep(CLOCK_REALTIME, 0, {tv_sec=1, tv_nsec=0}, "
				 "{tv_sec=0, tv_nsec=630778472}) = ? ERESTART_RESTARTBLOCK "
				 "(Interrupted by signal)");
	/* ... and only then: another failure leaves it unwritten. */
	tc_new(&T, SYS_nanosleep, -22, 0x1000, 0x2000, 0, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 0, 0x1000, &req, sizeof(req));
	tc_mem(&T, SONDE_PL_EXIT, 1, 0x2000, &left, sizeof(left));
	CHECK_EQ_STR(tc_fmt(&T), "nanosleep({tv_sec=1, tv_nsec=0}, 0x2000) = -1 EINVAL (Invalid argument)");
	/* restart_syscall names the thread's call before it. */
	tc_new(&T, SYS_restart_syscall, 0, 0, 0, 0, 0, 0, 0);
	T.call.prev_call = 1 + SYS_clock_nanosleep;
	CHECK_EQ_STR(tc_fmt(&T), "restart_syscall(<... resuming interrupted clock_nanosleep ...>) = 0");
	tc_new(&T, SYS_restart_syscall, 0, 0, 0, 0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "restart_syscall(<... resuming interrupted system call ...>) = 0");
}

/* timeout's timer: the sigevent at entry, the id at exit */
TEST(posix_timers)
{
	struct sigevent sev;
	struct itimerspec its = { { 0, 0 }, { 5, 0 } };
	int id = 0;

	memset(&sev, 0, sizeof(sev));
	sev.sigev_signo = SIGALRM;
	sev.sigev_notify = SIGEV_SIGNAL;
	tc_new(&T, SYS_timer_create, 0, CLOCK_REALTIME, 0x1000, 0x2000, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, &sev, sizeof(sev));
	tc_mem(&T, SONDE_PL_EXIT, 2, 0x2000, &id, 4);
	CHECK_EQ_STR(tc_fmt(&T), "timer_create(CLOCK_REALTIME, {sigev_signo=SIGALRM, sigev_notify=SIGEV_SIGNAL}, [0]) = 0");
	sev.sigev_value.sival_int = 5;
	sev.sigev_notify = SIGEV_NONE;
	tc_new(&T, SYS_timer_create, -22, 99, 0x1000, 0x2000, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 1, 0x1000, &sev, sizeof(sev));
	CHECK_EQ_STR(tc_fmt(&T), "timer_create(0x63 /* CLOCK_??? */, {sigev_value={sival_int=5, sival_ptr=0x5}, sigev_signo=14, sigev_notify=SIGEV_NONE}, 0x2000) = -1 EINVAL (Invalid argument)");
	tc_new(&T, SYS_timer_settime, 0, 0, 0, 0x1000, 0, 0, 0);
	tc_mem(&T, SONDE_PL_ENTRY, 2, 0x1000, &its, sizeof(its));
	CHECK_EQ_STR(tc_fmt(&T), "timer_settime(0, 0, {it_interval={tv_sec=0, tv_nsec=0}, it_value={tv_sec=5, tv_nsec=0}}, NULL) = 0");
	tc_new(&T, SYS_timer_delete, 0, 0, 0, 0, 0, 0, 0);
	CHECK_EQ_STR(tc_fmt(&T), "timer_delete(0) = 0");
}

int main(void)
{
	RUN(clone_fork_forms);
	RUN(interrupted_sleep_and_restart);
	RUN(execve_argv_envp);
	RUN(wait_and_exit);
	RUN(signals);
	RUN(resources_time_misc);
	RUN(xlat_styles);
	RUN(posix_timers);
	CHECK_EXIT();
}
