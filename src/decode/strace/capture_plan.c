// SPDX-License-Identifier: GPL-2.0
/*
 * What user memory to capture for each syscall, derived from the
 * decoders' signature table so that capture and decoding never disagree:
 * a path argument is read at entry as a string, a K_OUT struct at exit
 * with its size, an output buffer at exit with the return value as
 * length... Decoder functions (fcntl, poll, sockets...) list theirs in
 * custom_plans below.
 */
#include <linux/blkpg.h>
#include <linux/blktrace_api.h>
#include <linux/dqblk_xfs.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <linux/quota.h>
#include <linux/seccomp.h>
#include <linux/futex.h>
#include <linux/keyctl.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysinfo.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timex.h>
#include <sys/times.h>
#include <sys/utsname.h>
#include <time.h>

#include "decode/strace/strace_int.h"
#include <sonde/payload.h>

/* Bytes a struct printer reads. */
static uint32_t struct_size(st_struct_fn fn)
{
	static const struct { st_struct_fn fn; uint32_t size; } sizes[] = {
		{ ps_timespec, sizeof(struct timespec) },
		{ ps_timeval, sizeof(struct timeval) },
		{ ps_timespec_pair, 2 * sizeof(struct timespec) },
		{ ps_timeval_pair, 2 * sizeof(struct timeval) },
		{ ps_itimerspec, sizeof(struct itimerspec) },
		{ ps_itimerval, sizeof(struct itimerval) },
		{ ps_stat, sizeof(struct stat) },
		{ ps_statfs, sizeof(struct statfs) },
		{ ps_rlimit, 16 },
		{ ps_rusage, sizeof(struct rusage) },
		{ ps_utsname, sizeof(struct utsname) },
		{ ps_sysinfo, sizeof(struct sysinfo) },
		{ ps_tms, sizeof(struct tms) },
		{ ps_int, 4 }, { ps_uint, 4 }, { ps_ulong, 8 }, { ps_uptr, 8 }, { ps_off, 8 },
		{ ps_fdpair, 8 },
		{ ps_sched_param, 4 },
		{ ps_utimbuf, 16 },
		{ ps_timezone, 8 },
		{ ps_stack_t, sizeof(stack_t) },
		{ ps_wait_status, 4 },
		{ ps_siginfo, sizeof(siginfo_t) },
		{ ps_sigevent, sizeof(struct sigevent) },
		{ ps_stat64_i386, 96 },
		{ ps_rlimit_i386, 8 },
		{ ps_timespec_i386, 8 },
		{ ps_timeval_i386, 8 },
		{ ps_stack_t_i386, 12 },
	};

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (sizes[i].fn == fn)
			return sizes[i].size;
	return 0;
}

#define I(k, a, ph, x, sz) { SONDE_CAP_##k, a, ph, x, sz }
/* An item read only when argument w, minus base, is one of the bits of
 * mask (payload.h, the guard); B(n) is bit n. */
#define IF(k, a, ph, x, sz, w, base, mask) { SONDE_CAP_##k, a, ph, x, sz, mask, base, w }
/* keyctl's PKEY_ENCRYPT, _DECRYPT, _SIGN, _VERIFY */
#define KEY_PKEY_OPS (B(25) | B(26) | B(27) | B(28))
/* bpf's LOOKUP_BATCH, LOOKUP_AND_DELETE_BATCH, UPDATE_BATCH, DELETE_BATCH */
#define BPF_BATCH_CMDS (B(24) | B(25) | B(26) | B(27))
/* The same with the argument shifted right by sh first (payload.h). */
#define IFS(k, a, ph, sz, w, sh, base, mask) { SONDE_CAP_##k, a, ph, 0, sz, mask, base, w, sh }
#define B(n) (1ULL << (n))
/* quotactl's data (arg 3) by command, QCMD's cmd being the command
 * argument w shifted right by 8: the path of Q_QUOTAON and the struct of
 * each command that passes one, at entry; the struct each Q_GET* command
 * fills, at exit (if_dqblk and if_nextdqblk are both 72 bytes). The
 * masks count from the base: Q_XQUOTAON's also takes Q_XQUOTAOFF (bit
 * 1) and Q_XQUOTARM (5), Q_GETQUOTA's Q_GETNEXTQUOTA (2), Q_XGETQUOTA's
 * Q_XGETNEXTQUOTA (6). */
#define QUOTA_DATA(w)                                                                      \
	IFS(STR, 3, EN, 0, w, 8, Q_QUOTAON, B(0)), IFS(FIXED, 3, EN, 72, w, 8, Q_SETQUOTA, B(0)), \
	IFS(FIXED, 3, EN, 24, w, 8, Q_SETINFO, B(0)),                                       \
	IFS(FIXED, 3, EN, sizeof(struct fs_disk_quota), w, 8, Q_XSETQLIM, B(0)),            \
	IFS(FIXED, 3, EN, 4, w, 8, Q_XQUOTAON, B(0) | B(1) | B(5)),                         \
	IFS(FIXED, 3, EX, 4, w, 8, Q_GETFMT, B(0)), IFS(FIXED, 3, EX, 24, w, 8, Q_GETINFO, B(0)), \
	IFS(FIXED, 3, EX, 72, w, 8, Q_GETQUOTA, B(0) | B(2)),                               \
	IFS(FIXED, 3, EX, sizeof(struct fs_disk_quota), w, 8, Q_XGETQUOTA, B(0) | B(6)),    \
	IFS(FIXED, 3, EX, sizeof(struct fs_quota_stat), w, 8, Q_XGETQSTAT, B(0)),           \
	IFS(FIXED, 3, EX, sizeof(struct fs_quota_statv), w, 8, Q_XGETQSTATV, B(0))
#define EN SONDE_CAP_ENTRY
#define EX SONDE_CAP_EXIT
#define BOTH (SONDE_CAP_ENTRY | SONDE_CAP_EXIT)

struct custom_plan {
	unsigned int nr;
	struct sonde_cap_item it[SONDE_CAP_ITEMS];
};

/* Syscalls decoded by functions: their memory, listed by hand. */
static const struct custom_plan custom_plans[] = {
	{ __NR_open, { I(STR, 0, EN, 0, 0) } },
	/* i386 calls of dec_i386.c (events.h, SONDE_NR_I386 + their number):
	 * waitpid's status, _llseek's result, pread64's and pwrite64's
	 * buffer, fcntl64's struct f_owner_ex (F_SETOWN_EX, F_GETOWN_EX). */
	{ SONDE_NR_I386 + 7, { I(FIXED, 1, EX, 0, 4) } },
	{ SONDE_NR_I386 + 140, { I(FIXED, 3, EX, 0, 8) } },
	{ SONDE_NR_I386 + 180, { I(RETLEN, 1, EX, 2, 0) } },
	{ SONDE_NR_I386 + 181, { I(ARGLEN, 1, EN, 2, 0) } },
	{ SONDE_NR_I386 + 221, { IF(FIXED, 2, BOTH, 0, 8, 1, 0, B(15) | B(16)) } },
	/* statfs64's path and fstatfs64's struct statfs64 (84 bytes) */
	{ SONDE_NR_I386 + 268, { I(STR, 0, EN, 0, 0), I(FIXED, 2, EX, 0, 84) } },
	{ SONDE_NR_I386 + 269, { I(FIXED, 2, EX, 0, 84) } },
	{ __NR_openat, { I(STR, 1, EN, 0, 0) } },
	{ __NR_openat2, { I(STR, 1, EN, 0, 0), I(ARGLEN, 2, EN, 3, 0) } },
	/* struct flock for F_GETLK, F_SETLK, F_SETLKW and their F_OFD_
	 * forms; struct f_owner_ex for F_SETOWN_EX, F_GETOWN_EX. The other
	 * commands' argument is a number. */
	{ __NR_fcntl, { IF(FIXED, 2, BOTH, 0, 32, 1, 0, B(5) | B(6) | B(7) | B(36) | B(37) | B(38)),
			IF(FIXED, 2, BOTH, 0, 8, 1, 0, B(15) | B(16)) } },
	/* 36 bytes in and out for every request (termios, winsize, ints);
	 * the loop device structs and BLKPG's partition, BLKTRACESETUP's
	 * setup and a seccomp listener's notification, which are larger,
	 * for those requests only; KVM's and the socket requests' structs
	 * (bpf/ioctl.h). */
	{ __NR_ioctl, { I(FIXED, 2, BOTH, 0, 36),
			IF(FIXED, 2, EN, 0, sizeof(struct loop_info), 1, LOOP_SET_FD, B(2)),
			IF(FIXED, 2, EX, 0, sizeof(struct loop_info), 1, LOOP_SET_FD, B(3)),
			IF(FIXED, 2, EN, 0, sizeof(struct loop_info64), 1, LOOP_SET_FD, B(4)),
			IF(FIXED, 2, EX, 0, sizeof(struct loop_info64), 1, LOOP_SET_FD, B(5)),
			IF(FIXED, 2, EN, 0, sizeof(struct loop_config), 1, LOOP_SET_FD, B(10)),
			IF(FIELD, 2, EN, 16, sizeof(struct blkpg_partition), 1, BLKPG, B(0)),
			IF(FIXED, 2, BOTH, 0, sizeof(struct blk_user_trace_setup), 1,
			   (uint32_t)BLKTRACESETUP, B(0)),
			IF(FIXED, 2, EX, 0, sizeof(struct seccomp_notif), 1,
			   (uint32_t)SECCOMP_IOCTL_NOTIF_RECV, B(0)),
			I(IOCTL, 2, BOTH, 0, 0) } },
	{ __NR_getdents, { I(RETLEN, 1, EX, 2, 0) } },
	{ __NR_getdents64, { I(RETLEN, 1, EX, 2, 0) } },
	{ __NR_readlink, { I(STR, 0, EN, 0, 0), I(RETLEN, 1, EX, 2, 0) } },
	{ __NR_readlinkat, { I(STR, 1, EN, 0, 0), I(RETLEN, 2, EX, 3, 0) } },
	{ __NR_getcwd, { I(RETLEN, 0, EX, 1, 0) } },
	{ __NR_mknod, { I(STR, 0, EN, 0, 0) } },
	{ __NR_mknodat, { I(STR, 1, EN, 0, 0) } },
	{ __NR_getxattr, { I(STR, 0, EN, 0, 0), I(STR, 1, EN, 0, 0), I(RETLEN, 2, EX, 3, 0) } },
	{ __NR_lgetxattr, { I(STR, 0, EN, 0, 0), I(STR, 1, EN, 0, 0), I(RETLEN, 2, EX, 3, 0) } },
	{ __NR_fgetxattr, { I(STR, 1, EN, 0, 0), I(RETLEN, 2, EX, 3, 0) } },
	{ __NR_setxattr, { I(STR, 0, EN, 0, 0), I(STR, 1, EN, 0, 0), I(ARGLEN, 2, EN, 3, 0) } },
	{ __NR_lsetxattr, { I(STR, 0, EN, 0, 0), I(STR, 1, EN, 0, 0), I(ARGLEN, 2, EN, 3, 0) } },
	{ __NR_fsetxattr, { I(STR, 1, EN, 0, 0), I(ARGLEN, 2, EN, 3, 0) } },
	{ __NR_listxattr, { I(STR, 0, EN, 0, 0), I(RETLEN, 1, EX, 2, 0) } },
	{ __NR_llistxattr, { I(STR, 0, EN, 0, 0), I(RETLEN, 1, EX, 2, 0) } },
	{ __NR_flistxattr, { I(RETLEN, 1, EX, 2, 0) } },
	{ __NR_statx, { I(STR, 1, EN, 0, 0), I(FIXED, 4, EX, 0, 256) } },
	{ __NR_utimensat, { I(STR, 1, EN, 0, 0), I(FIXED, 2, EN, 0, 32) } },
	{ __NR_clone, { I(FIXED, 2, EX, 0, 4) } },
	{ __NR_clone3, { I(ARGLEN, 0, EN, 1, 0), I(FIELD, 0, EX, 24, 4), I(FIELD, 0, EX, 8, 4) } },
	{ __NR_execve, { I(STR, 0, EN, 0, 0), I(STRV, 1, EN, 0, 0), I(STRV, 2, EN, 0, 0) } },
	{ __NR_execveat, { I(STR, 1, EN, 0, 0), I(STRV, 2, EN, 0, 0), I(STRV, 3, EN, 0, 0) } },
	{ __NR_wait4, { I(FIXED, 1, EX, 0, 4), I(FIXED, 3, EX, 0, sizeof(struct rusage)) } },
	{ __NR_waitid, { I(FIXED, 2, EX, 0, sizeof(siginfo_t)), I(FIXED, 4, EX, 0, sizeof(struct rusage)) } },
	{ __NR_futex, { I(FIXED, 3, EN, 0, sizeof(struct timespec)) } },
	{ __NR_rt_sigreturn, { I(SIGMASK, 0, EN, 0, 0) } },
	{ __NR_rt_sigaction, { I(FIXED, 1, EN, 0, 32), I(FIXED, 2, EX, 0, 32) } },
	{ __NR_rt_sigprocmask, { I(ARGLEN, 1, EN, 3, 0), I(ARGLEN, 2, EX, 3, 0) } },
	{ __NR_rt_sigtimedwait, { I(ARGLEN, 0, EN, 3, 0), I(FIXED, 1, EX, 0, sizeof(siginfo_t)),
				  I(FIXED, 2, EN, 0, sizeof(struct timespec)) } },
	{ __NR_prctl, { I(STR, 1, EN, 0, 0), I(FIXED, 1, EX, 0, 16), I(STR, 4, EN, 0, 0),
			I(FPROG, 2, EN, 0, 22 /* PR_SET_SECCOMP */) } },
	{ __NR_seccomp, { I(FPROG, 2, EN, 0, 1 /* SECCOMP_SET_MODE_FILTER */),
			  I(FIXED, 2, EN, 0, 4), I(FIXED, 2, EX, 0, 6) } },
	{ __NR_arch_prctl, { I(FIXED, 1, EX, 0, 8) } },
	{ __NR_prlimit64, { I(FIXED, 2, EN, 0, 16), I(FIXED, 3, EX, 0, 16) } },
	{ __NR_getrandom, { I(RETLEN, 0, EX, 1, 0) } },
	{ __NR_sched_getaffinity, { I(RETLEN, 2, EX, 1, 0) } },
	{ __NR_sched_setaffinity, { I(ARGLEN, 2, EN, 1, 0) } },
	{ __NR_getgroups, { I(RETLEN, 1, EX, 0, 4) } },
	{ __NR_setgroups, { I(ARGLEN, 1, EN, 0, 4) } },
	/* The time left, written when a signal interrupts the sleep. */
	{ __NR_nanosleep, { I(FIXED, 0, EN, 0, 16), I(FIXED, 1, BOTH | SONDE_CAP_FAILED, 0, 16) } },
	{ __NR_clock_nanosleep, { I(FIXED, 2, EN, 0, 16),
				  I(FIXED, 3, BOTH | SONDE_CAP_FAILED, 0, 16) } },
	{ __NR_poll, { I(ARGLEN, 0, BOTH, 1, 8) } },
	{ __NR_ppoll, { I(ARGLEN, 0, BOTH, 1, 8), I(FIXED, 2, BOTH, 0, 16), I(ARGLEN, 3, EN, 4, 0) } },
	{ __NR_select, { I(FDSET, 1, BOTH, 0, 0), I(FDSET, 2, BOTH, 0, 0), I(FDSET, 3, BOTH, 0, 0),
			 I(FIXED, 4, BOTH, 0, 16) } },
	{ __NR_pselect6, { I(FDSET, 1, BOTH, 0, 0), I(FDSET, 2, BOTH, 0, 0), I(FDSET, 3, BOTH, 0, 0),
			   I(FIXED, 4, BOTH, 0, 16), I(FIXED, 5, EN, 0, 16), I(FIELD, 5, EN, 0, 8) } },
	{ __NR_epoll_ctl, { I(FIXED, 3, EN, 0, 12) } },
	{ __NR_epoll_wait, { I(RETLEN, 1, EX, 2, 12) } },
	{ __NR_epoll_pwait, { I(RETLEN, 1, EX, 2, 12), I(ARGLEN, 4, EN, 5, 0) } },
	{ __NR_socketpair, { I(FIXED, 3, EX, 0, 8) } },
	{ __NR_accept, { I(SOCKLEN, 1, BOTH, 2, 0) } },
	{ __NR_accept4, { I(SOCKLEN, 1, BOTH, 2, 0) } },
	{ __NR_getsockname, { I(SOCKLEN, 1, BOTH, 2, 0) } },
	{ __NR_getpeername, { I(SOCKLEN, 1, BOTH, 2, 0) } },
	{ __NR_sendto, { I(ARGLEN, 1, EN, 2, 0), I(ARGLEN, 4, EN, 5, 0) } },
	{ __NR_recvfrom, { I(RETLEN, 1, EX, 2, 0), I(SOCKLEN, 4, BOTH, 5, 0) } },
	{ __NR_sendmsg, { I(MSGHDR, 1, EN, 0, 0) } },
	{ __NR_recvmsg, { I(MSGHDR, 1, EX, 0, 1), I(FIXED, 1, EN, 0, 56) } },
	{ __NR_sendmmsg, { I(MMSG, 1, EN, 2, 0), I(RETLEN, 1, EX, 2, 64) } },
	{ __NR_recvmmsg, { I(ARGLEN, 1, EN, 2, 64), I(MMSG, 1, EX, 0, 1), I(FIXED, 4, BOTH, 0, 16) } },
	{ __NR_setsockopt, { I(ARGLEN, 3, EN, 4, 0) } },
	{ __NR_getsockopt, { I(SOCKLEN, 3, BOTH, 4, 0) } },
	{ __NR_sendfile, { I(FIXED, 2, BOTH, 0, 8) } },
	{ __NR_copy_file_range, { I(FIXED, 1, BOTH, 0, 8), I(FIXED, 3, BOTH, 0, 8) } },
	{ __NR_splice, { I(FIXED, 1, BOTH, 0, 8), I(FIXED, 3, BOTH, 0, 8) } },
	{ __NR_mincore, { I(PAGES, 2, EX, 1, 0) } },
	{ __NR_epoll_pwait2, { I(RETLEN, 1, EX, 2, 12), I(FIXED, 3, EN, 0, 16),
			       I(ARGLEN, 4, EN, 5, 0) } },
	{ __NR_kcmp, { I(FIXED, 4, EN, 0, 12) } },
	/* The attr, in and out (the *_GET_NEXT_ID commands write an id; a
	 * failed batch command's count is what it did, and the end of a
	 * map is ENOENT), PROG_QUERY's program ids, and the strings the
	 * attr's pointers name: the path of OBJ_PIN and OBJ_GET,
	 * RAW_TRACEPOINT_OPEN's name (offset 0), PROG_LOAD's license (16)
	 * and log buffer (32). */
	{ __NR_bpf, { I(ARGLEN, 1, EN, 2, 0),
		      IF(ARGLEN, 1, EX, 2, 0, 0, 0, ~BPF_BATCH_CMDS),
		      IF(ARGLEN, 1, EX | SONDE_CAP_FAILED, 2, 0, 0, 0, BPF_BATCH_CMDS),
		      IF(FIELDN, 1, EX, 16, 4, 0, 0, B(16)),
		      IF(FIELDSTR, 1, EN, 0, 0, 0, 0, B(6) | B(7) | B(17)),
		      IF(FIELDSTR, 1, EN, 16, 0, 0, 0, B(5)), IF(FIELDSTR, 1, EN, 32, 0, 0, 0, B(5)) } },
	{ __NR_futex_waitv, { I(ARGLEN, 0, EN, 1, 32), I(FIXED, 3, EN, 0, 16) } },
	{ __NR_process_madvise, { I(ARGLEN, 1, EN, 2, 16) } },
	/* struct perf_event_attr as far as Linux 6.1 knows it, and the size
	 * the kernel writes back on E2BIG. */
	/* ptrace's data, by request: the registers SETREGS, SETFPREGS pass,
	 * and GETFPREGS writes; the
	 * siginfo, mask or iovec SETSIGINFO, SETSIGMASK, GETREGSET,
	 * SETREGSET pass (GETREGSET's length changes), and the register set
	 * SETREGSET's iovec points to; the word PEEK* and
	 * the registers GETREGS write; the message, siginfo, iovec, mask or
	 * syscall info GETEVENTMSG, GETSIGINFO, GETREGSET, GETSIGMASK,
	 * GET_SYSCALL_INFO write; and the register set GETREGSET's iovec
	 * points to; PEEKSIGINFO's arguments (in addr) and the siginfos it
	 * copies, the filter SECCOMP_GET_FILTER copies,
	 * SECCOMP_GET_METADATA's struct in and out. Other requests
	 * pass a signal, options or nothing. */
	{ __NR_ptrace, { IF(FIXED, 3, EN, 0, 216, 0, 0, B(13)),
			 IF(FIXED, 3, EN, 0, 512, 0, 0, B(15)), IF(FIXED, 3, EX, 0, 512, 0, 0, B(14)),
			 IF(FIXED, 3, EN, 0, 128, 0, 0x4200, B(0x03) | B(0x04) | B(0x05) | B(0x0b)),
			 IF(FIELD, 3, EN, 0, 216, 0, 0x4200, B(0x05)),
			 IF(FIXED, 3, EX, 0, 216, 0, 0, B(1) | B(2) | B(3) | B(12)),
			 IF(FIXED, 3, EX, 0, 216, 0, 0x4200,
			    B(0x01) | B(0x02) | B(0x04) | B(0x0a) | B(0x0e)),
			 IF(FIELD, 3, EX, 0, 216, 0, 0x4200, B(0x04)),
			 IF(FIXED, 2, EN, 0, 16, 0, 0x4200, B(0x09)),
			 IF(RETLEN, 3, EX, 0, 128, 0, 0x4200, B(0x09)),
			 IF(RETLEN, 3, EX, 0, 8, 0, 0x4200, B(0x0c)),
			 IF(FIXED, 3, BOTH, 0, 16, 0, 0x4200, B(0x0d)) } },
	{ __NR_mq_open, { I(STR, 0, EN, 0, 0), I(FIXED, 3, EN, 0, 32) } },
	{ __NR_mq_timedsend, { I(ARGLEN, 1, EN, 2, 0), I(FIXED, 4, EN, 0, 16) } },
	{ __NR_mq_timedreceive, { I(RETLEN, 1, EX, 2, 0), I(FIXED, 3, EX, 0, 4),
				  I(FIXED, 4, EN, 0, 16) } },
	{ __NR_mq_notify, { I(FIXED, 1, EN, 0, 64) } },
	{ __NR_mq_getsetattr, { I(FIXED, 1, EN, 0, 32), I(FIXED, 2, EX, 0, 32) } },
	{ __NR_perf_event_open, { I(FIXED, 0, EN, 0, 128), I(FIXED, 0, EX | SONDE_CAP_FAILED, 0, 8) } },
	{ __NR_add_key, { I(STR, 0, EN, 0, 0), I(STR, 1, EN, 0, 0), I(ARGLEN, 2, EN, 3, 0) } },
	{ __NR_request_key, { I(STR, 0, EN, 0, 0), I(STR, 1, EN, 0, 0), I(STR, 2, EN, 0, 0) } },
	/* keyctl's arguments by command: a name (JOIN_SESSION_KEYRING),
	 * strings (SEARCH, RESTRICT_KEYRING, the PKEY_* params), a payload
	 * or its iovec (UPDATE, INSTANTIATE[_IOV]), what DESCRIBE, READ,
	 * GET_SECURITY, DH_COMPUTE and CAPABILITIES wrote; DH_COMPUTE's
	 * struct keyctl_dh_params, its keyctl_kdf_params with the hash name
	 * and otherinfo; PKEY_QUERY's answer; the PKEY ops' struct
	 * keyctl_pkey_params and the buffers of its lengths (in_len at 4,
	 * out_len or in2_len at 8). */
	{ __NR_keyctl, { IF(STR, 1, EN, 0, 0, 0, 0, B(1)),
			 IF(STR, 2, EN, 0, 0, 0, 0, B(10) | B(29) | KEY_PKEY_OPS),
			 IF(STR, 3, EN, 0, 0, 0, 0, B(10) | B(24) | B(29)),
			 IF(ARGLEN, 2, EN, 3, 0, 0, 0, B(2) | B(12)),
			 IF(IOV, 2, EN, 3, 0, 0, 0, B(20)),
			 IF(RETLEN, 2, EX, 3, 0, 0, 0, B(6) | B(11) | B(17) | B(23)),
			 IF(RETLEN, 1, EX, 0, 0, 0, 0, B(31)),
			 IF(FIXED, 1, EN, 0, sizeof(struct keyctl_dh_params), 0, 0, B(23)),
			 IF(FIXED, 4, EN, 0, sizeof(struct keyctl_kdf_params), 0, 0, B(23)),
			 IF(FIELDSTR, 4, EN, 0, 0, 0, 0, B(23)),
			 IF(FIELDN, 4, EN, 8, 1, 0, 0, B(23)),
			 IF(FIXED, 4, EX, 0, sizeof(struct keyctl_pkey_query), 0, 0, B(24)),
			 IF(FIXED, 1, EN, 0, sizeof(struct keyctl_pkey_params), 0, 0, KEY_PKEY_OPS),
			 IF(STRUCTLEN, 3, EN, 1, 4, 0, 0, KEY_PKEY_OPS),
			 IF(STRUCTLEN, 4, EX, 1, 8, 0, 0, B(25) | B(26) | B(27)),
			 IF(STRUCTLEN, 4, EN, 1, 8, 0, 0, B(28)) } },
	{ __NR_fanotify_mark, { I(STR, 4, EN, 0, 0) } },
	/* struct file_handle: its size word, type and at most 128 bytes. */
	{ __NR_name_to_handle_at, { I(STR, 1, EN, 0, 0), I(FIXED, 2, EN, 0, 4),
				    I(FIXED, 2, EX | SONDE_CAP_FAILED, 0, 8 + 128),
				    I(FIXED, 3, EX, 0, 4) } },
	{ __NR_open_by_handle_at, { I(FIXED, 1, EN, 0, 8 + 128) } },
	{ __NR_msgsnd, { I(MSGBUF, 1, EN, 2, 0) } },
	{ __NR_msgrcv, { I(MSGBUF, 1, EX, 2, 0) } },
	{ __NR_semop, { I(ARGLEN, 1, EN, 2, 6) } },
	{ __NR_semtimedop, { I(ARGLEN, 1, EN, 2, 6), I(FIXED, 3, EN, 0, 16) } },
	/* The local vector and its buffers; the remote one's array only. */
	{ __NR_process_vm_readv, { I(IOV, 1, EX, 2, 0), I(ARGLEN, 3, EN, 4, 16) } },
	{ __NR_process_vm_writev, { I(IOV, 1, EN, 2, 0), I(ARGLEN, 3, EN, 4, 16) } },
	/* The log read (the other actions leave bufp unused). */
	{ __NR_syslog, { I(RETLEN, 1, EX, 2, 0) } },
	/* LINUX_REBOOT_CMD_RESTART2's command; the other commands' arg is
	 * unused. */
	{ __NR_reboot, { IF(STR, 3, EN, 0, 0, 2, 0xa1b2c3d4, B(0)) } },
	{ __NR_swapon, { I(STR, 0, EN, 0, 0) } },
	{ __NR_quotactl, { I(STR, 1, EN, 0, 0), QUOTA_DATA(0) } },
	{ __NR_quotactl_fd, { QUOTA_DATA(1) } },
	/* struct user_desc: modify_ldt's when bytecount is its size */
	{ __NR_modify_ldt, { IF(FIXED, 1, EN, 0, 16, 2, 16, B(0)) } },
	{ __NR_set_thread_area, { I(FIXED, 0, BOTH, 0, 16) } },
	{ __NR_get_thread_area, { I(FIXED, 0, BOTH, 0, 16) } },
	{ __NR_kexec_load, { I(ARGLEN, 2, EN, 1, 32) } },
	{ __NR_adjtimex, { I(FIXED, 0, EX, 0, sizeof(struct timex)) } },
	{ __NR_clock_adjtime, { I(FIXED, 1, EX, 0, sizeof(struct timex)) } },
	{ __NR_capget, { I(FIXED, 0, BOTH, 0, 8), I(FIXED, 1, EX, 0, 24) } },
	{ __NR_capset, { I(FIXED, 0, EN, 0, 8), I(FIXED, 1, EN, 0, 24) } },
	/* struct sched_attr as far as it is known (56 bytes); the size
	 * sched_setattr's kernel writes back on E2BIG. */
	{ __NR_sched_getattr, { I(FIXED, 1, EX, 0, 56) } },
	{ __NR_sched_setattr, { I(FIXED, 1, EN, 0, 56),
				I(FIXED, 1, EX | SONDE_CAP_FAILED, 0, 4) } },
	{ __NR_mbind, { I(NODEMASK, 3, EN, 4, 0) } },
	{ __NR_set_mempolicy, { I(NODEMASK, 1, EN, 2, 0) } },
	{ __NR_get_mempolicy, { I(FIXED, 0, EX, 0, 4), I(NODEMASK, 1, EX, 2, 0) } },
	{ __NR_migrate_pages, { I(NODEMASK, 2, EN, 1, 0), I(NODEMASK, 3, EN, 1, 0) } },
	{ __NR_move_pages, { I(ARGLEN, 2, EN, 1, 8), I(ARGLEN, 3, EN, 1, 4),
			     I(ARGLEN, 4, EX, 1, 4) } },
	{ __NR_landlock_create_ruleset, { I(FIXED, 0, EN, 0, 8) } },
	{ __NR_landlock_add_rule, { I(FIXED, 2, EN, 0, 12) } },
	{ __NR_io_uring_setup, { I(FIXED, 1, BOTH, 0, URING_PARAMS_SIZE) } },
	{ __NR_io_uring_enter, { I(ARGLEN, 4, EN, 5, 0) } },
	{ __NR_io_uring_register, { I(ARGLEN, 2, EN, 3, 4), I(URING_PROBE, 2, EX, 1, 3) } },
	{ __NR_fsconfig, { I(STR, 2, EN, 0, 0), I(STR, 3, EN, 0, 0) } },
	{ __NR_mount_setattr, { I(STR, 1, EN, 0, 0), I(FIXED, 3, EN, 0, 32) } },
	{ __NR_io_setup, { I(FIXED, 1, EX, 0, 8) } },
	{ __NR_io_submit, { I(IOCB, 2, EN, 1, 0) } },
	{ __NR_io_getevents, { I(RETLEN, 3, EX, 2, 32), I(FIXED, 4, EN, 0, 16) } },
	/* The events, the timeout, the { sigset_t *, size } and its set. */
	{ __NR_io_pgetevents, { I(RETLEN, 3, EX, 2, 32), I(FIXED, 4, EN, 0, 16), I(FIXED, 5, EN, 0, 16),
				I(FIELD, 5, EN, 0, 8) } },
	/* The iocb; the io_event written at result. */
	{ __NR_io_cancel, { I(FIXED, 1, EN, 0, 64), I(FIXED, 2, EX, 0, 32) } },
	/* IPC_SET's struct at entry, the STAT and INFO ones at exit (the
	 * INFO structs are smaller, and on the caller's stack). */
	{ __NR_shmctl, { I(FIXED, 2, BOTH, 0, IPC_SHMID_DS_SIZE) } },
	{ __NR_msgctl, { I(FIXED, 2, BOTH, 0, IPC_MSQID_DS_SIZE) } },
	{ __NR_semctl, { I(FIXED, 3, BOTH, 0, IPC_SEMID_DS_SIZE) } },
};

/*
 * Calls that create descriptors without a path: the kernel records what
 * they are (bpf/fdinfo.h) for -y. arg 0xff: the descriptor is the return
 * value; else the int[2] at that argument. Sockets are named by their
 * socket facts (sock_namers below), one record instead of two.
 */
static const struct { unsigned int nr; uint8_t arg; } fd_creators[] = {
	{ __NR_pipe, 0 }, { __NR_pipe2, 0 },
	{ __NR_eventfd, 0xff }, { __NR_eventfd2, 0xff },
	{ __NR_epoll_create, 0xff }, { __NR_epoll_create1, 0xff },
	{ __NR_signalfd, 0xff }, { __NR_signalfd4, 0xff },
	{ __NR_timerfd_create, 0xff }, { __NR_inotify_init, 0xff },
	{ __NR_inotify_init1, 0xff }, { __NR_fanotify_init, 0xff },
	{ __NR_memfd_create, 0xff }, { __NR_memfd_secret, 0xff },
	{ __NR_userfaultfd, 0xff }, { __NR_pidfd_open, 0xff },
	{ __NR_pidfd_getfd, 0xff }, { __NR_io_uring_setup, 0xff },
	{ __NR_perf_event_open, 0xff }, { __NR_bpf, 0xff },
	{ __NR_open_tree, 0xff }, { __NR_fsopen, 0xff }, { __NR_fsmount, 0xff },
	{ __NR_fspick, 0xff },
};

/* Calls that create sockets or after which a socket has a new address:
 * -y's socket:[INO] and -yy's endpoints (bpf/fdinfo.h). The sends bind a
 * UDP or netlink socket that has no port yet: size 3 records only that. */
static const struct { unsigned int nr; uint8_t arg, size; } sock_namers[] = {
	{ __NR_socket, 0, 0 }, { __NR_accept, 0, 0 }, { __NR_accept4, 0, 0 },
	{ __NR_socketpair, 3, 2 }, { __NR_bind, 0, 1 }, { __NR_listen, 0, 1 },
	{ __NR_connect, 0, 1 }, { __NR_sendto, 0, 3 }, { __NR_sendmsg, 0, 3 },
	{ __NR_sendmmsg, 0, 3 },
};

static void plan_add(struct sonde_cap_plan *p, struct sonde_cap_item it)
{
	for (int k = 0; k < SONDE_CAP_ITEMS; k++)
		if (p->it[k].kind == SONDE_CAP_NONE) {
			p->it[k] = it;
			return;
		}
}

static void plan_add_sockinfo(unsigned int nr, struct sonde_cap_plan *p)
{
	for (size_t i = 0; i < sizeof(sock_namers) / sizeof(sock_namers[0]); i++)
		if (sock_namers[i].nr == nr)
			plan_add(p, (struct sonde_cap_item){ SONDE_CAP_SOCKINFO, sock_namers[i].arg,
							     EX, 0, sock_namers[i].size });
}

/* Appends the descriptor-facts item of a descriptor-creating call. */
static void plan_add_fdinfo(unsigned int nr, struct sonde_cap_plan *p)
{
	for (size_t i = 0; i < sizeof(fd_creators) / sizeof(fd_creators[0]); i++) {
		if (fd_creators[i].nr != nr)
			continue;
		for (int k = 0; k < SONDE_CAP_ITEMS; k++) {
			if (p->it[k].kind != SONDE_CAP_NONE)
				continue;
			p->it[k] = fd_creators[i].arg == 0xff
				? (struct sonde_cap_item){ SONDE_CAP_FDINFO, 0, EX, 0, 0 }
				: (struct sonde_cap_item){ SONDE_CAP_FDINFO, fd_creators[i].arg, EX, 0, 2 };
			return;
		}
	}
}

static void plan_from_sig(const struct st_sig *sig, struct sonde_cap_plan *p)
{
	int n = 0;

	for (int i = 0; i < sig->nargs && n < SONDE_CAP_ITEMS; i++) {
		const struct st_arg *a = &sig->a[i];
		struct sonde_cap_item *it = &p->it[n];

		switch (a->kind) {
		case K_PATH:
		case K_STR:
			*it = (struct sonde_cap_item){ SONDE_CAP_STR, (uint8_t)i, EN, 0, 0 };
			break;
		case K_BUFI:
		case K_SSETI:
		case K_SADDRI:
			*it = (struct sonde_cap_item){ SONDE_CAP_ARGLEN, (uint8_t)i, EN, a->aux, 0 };
			break;
		case K_SSETO:
			*it = (struct sonde_cap_item){ SONDE_CAP_ARGLEN, (uint8_t)i, EX, a->aux, 0 };
			break;
		case K_BUFO:
			*it = (struct sonde_cap_item){ SONDE_CAP_RETLEN, (uint8_t)i, EX, 2, 0 };
			break;
		case K_IN:
		case K_OUT:
			*it = (struct sonde_cap_item){ SONDE_CAP_FIXED, (uint8_t)i,
						       a->kind == K_IN ? EN : EX, 0,
						       struct_size(a->fn) };
			if (!it->size)
				continue;
			break;
		case K_IOVI:
			*it = (struct sonde_cap_item){ SONDE_CAP_IOV, (uint8_t)i, EN, a->aux, 0 };
			break;
		case K_IOVO:
			*it = (struct sonde_cap_item){ SONDE_CAP_IOV, (uint8_t)i, EX, a->aux, 0 };
			break;
		default:
			continue;
		}
		n++;
	}
}

static void plan_memory(unsigned int nr, struct sonde_cap_plan *p)
{
	const struct st_sig *sig = st_sig_of(nr);

	for (size_t i = 0; i < sizeof(custom_plans) / sizeof(custom_plans[0]); i++)
		if (custom_plans[i].nr == nr) {
			memcpy(p->it, custom_plans[i].it, sizeof(p->it));
			return;
		}
	if (sig && !sig->fn)
		plan_from_sig(sig, p);
}

int sonde_strace_capture_plan(unsigned int nr, struct sonde_cap_plan *p)
{
	memset(p, 0, sizeof(*p));
	nr = st_decoded_nr(nr);
	if (sonde_strace_is_decoded(nr))
		plan_memory(nr, p);
	plan_add_fdinfo(nr, p);
	plan_add_sockinfo(nr, p);
	return p->it[0].kind != SONDE_CAP_NONE;
}
