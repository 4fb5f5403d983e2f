// SPDX-License-Identifier: GPL-2.0
/*
 * The per-syscall signature table (x86-64 numbers). One line per syscall:
 * argument kinds in order and the return kind, or a decoder function
 * when arguments depend on each other. Names come from the syscall table
 * of src/decode (sonde_syscall_name), not from here.
 */
#include <sys/syscall.h>

#include "decode/strace/strace_int.h"

#define A(k) { .kind = K_##k }
#define AX(k, n) { .kind = K_##k, .aux = n }
#define F(t) { .kind = K_FLAGS, .x = &t }
#define F64(t) { .kind = K_FLAGS, .aux = 64, .x = &t }
#define E(t) { .kind = K_XVAL, .x = &t }
#define IN(f) { .kind = K_IN, .fn = f }
#define OUT(f) { .kind = K_OUT, .fn = f }
#define S(n, r, ...) { .known = 1, .nargs = n, .rkind = R_##r, .a = { __VA_ARGS__ } }
#define S0(r) { .known = 1, .rkind = R_##r }
#define D(f) { .known = 1, .fn = dec_##f }
#define DR(f, r) { .known = 1, .rkind = R_##r, .fn = dec_##f }

const struct st_sig st_sigs[SONDE_NR_SYSCALLS] = {
	/* I/O on descriptors */
	[__NR_read] = S(3, DEC, A(FD), A(BUFO), A(ULONG)),
	[__NR_write] = S(3, DEC, A(FD), AX(BUFI, 2), A(ULONG)),
	[__NR_pread64] = S(4, DEC, A(FD), A(BUFO), A(ULONG), A(OFF)),
	[__NR_pwrite64] = S(4, DEC, A(FD), AX(BUFI, 2), A(ULONG), A(OFF)),
	[__NR_readv] = S(3, DEC, A(FD), AX(IOVO, 2), A(ULONG)),
	[__NR_writev] = S(3, DEC, A(FD), AX(IOVI, 2), A(ULONG)),
	[__NR_preadv] = S(4, DEC, A(FD), AX(IOVO, 2), A(ULONG), A(OFF)),
	[__NR_pwritev] = S(4, DEC, A(FD), AX(IOVI, 2), A(ULONG), A(OFF)),
	[__NR_preadv2] = S(6, DEC, A(FD), AX(IOVO, 2), A(ULONG), A(OFF), A(SKIP), F(x_rwf)),
	[__NR_pwritev2] = S(6, DEC, A(FD), AX(IOVI, 2), A(ULONG), A(OFF), A(SKIP), F(x_rwf)),
	[__NR_lseek] = S(3, DEC, A(FD), A(OFF), E(x_seek)),
	[__NR_sendfile] = D(sendfile),
	[__NR_splice] = D(splice),
	[__NR_tee] = S(4, DEC, A(FD), A(FD), A(ULONG), F(x_splice)),
	[__NR_copy_file_range] = D(copy_file_range),
	[__NR_readahead] = S(3, DEC, A(FD), A(OFF), A(ULONG)),

	/* descriptors */
	[__NR_open] = DR(open, FD),
	[__NR_openat] = DR(openat, FD),
	[__NR_openat2] = DR(openat2, FD),
	[__NR_creat] = S(2, FD, A(PATH), A(OCT)),
	[__NR_close] = S(1, DEC, A(FD)),
	[__NR_close_range] = D(close_range),
	[__NR_dup] = S(1, FD, A(FD)),
	[__NR_dup2] = S(2, FD, A(FD), A(FD)),
	[__NR_dup3] = S(3, FD, A(FD), A(FD), F(x_open_flags)),
	[__NR_pipe] = S(1, DEC, OUT(ps_fdpair)),
	[__NR_pipe2] = S(2, DEC, OUT(ps_fdpair), F(x_open_flags)),
	[__NR_fcntl] = D(fcntl),
	[__NR_ioctl] = D(ioctl),
	[__NR_flock] = S(2, DEC, A(FD), F(x_lock_ops)),
	[__NR_fsync] = S(1, DEC, A(FD)),
	[__NR_fdatasync] = S(1, DEC, A(FD)),
	[__NR_syncfs] = S(1, DEC, A(FD)),
	[__NR_sync] = S0(DEC),
	[__NR_sync_file_range] = S(4, DEC, A(FD), A(OFF), A(OFF), F(x_sync_file_range)),
	[__NR_ftruncate] = S(2, DEC, A(FD), A(OFF)),
	[__NR_fallocate] = S(4, DEC, A(FD), F(x_falloc), A(OFF), A(OFF)),
	[__NR_fadvise64] = S(4, DEC, A(FD), A(OFF), A(ULONG), E(x_fadvise)),
	[__NR_getdents] = D(getdents),
	[__NR_getdents64] = D(getdents64),
	[__NR_eventfd] = S(1, FD, A(UINT)),
	[__NR_eventfd2] = S(2, FD, A(UINT), F(x_efd)),
	[__NR_timerfd_create] = S(2, FD, A(CLOCK), F(x_tfd_create)),
	[__NR_timerfd_settime] = S(4, DEC, A(FD), F(x_tfd_set), IN(ps_itimerspec), OUT(ps_itimerspec)),
	[__NR_timerfd_gettime] = S(2, DEC, A(FD), OUT(ps_itimerspec)),
	[__NR_signalfd4] = S(4, FD, A(FD), AX(SSETI, 2), A(ULONG), F(x_sfd)),
	[__NR_inotify_init] = S0(FD),
	[__NR_inotify_init1] = S(1, FD, F(x_inotify_init)),
	[__NR_inotify_add_watch] = S(3, DEC, A(FD), A(PATH), F(x_inotify_mask)),
	[__NR_inotify_rm_watch] = S(2, DEC, A(FD), A(INT)),
	[__NR_memfd_create] = S(2, FD, A(STR), F(x_mfd)),

	/* polling */
	[__NR_poll] = D(poll),
	[__NR_ppoll] = D(ppoll),
	[__NR_select] = D(select),
	[__NR_pselect6] = D(pselect6),
	[__NR_epoll_create] = S(1, FD, A(INT)),
	[__NR_epoll_create1] = S(1, FD, F(x_epoll_create)),
	[__NR_epoll_ctl] = D(epoll_ctl),
	[__NR_epoll_wait] = D(epoll_wait),
	[__NR_epoll_pwait] = D(epoll_pwait),
	[__NR_epoll_pwait2] = D(epoll_pwait2),

	/* file names */
	[__NR_stat] = S(2, DEC, A(PATH), OUT(ps_stat)),
	[__NR_lstat] = S(2, DEC, A(PATH), OUT(ps_stat)),
	[__NR_fstat] = S(2, DEC, A(FD), OUT(ps_stat)),
	[__NR_newfstatat] = S(4, DEC, A(DIRFD), A(PATH), OUT(ps_stat), F(x_at_flags)),
	[__NR_statx] = D(statx),
	[__NR_statfs] = S(2, DEC, A(PATH), OUT(ps_statfs)),
	[__NR_fstatfs] = S(2, DEC, A(FD), OUT(ps_statfs)),
	[__NR_access] = S(2, DEC, A(PATH), F(x_access_mode)),
	[__NR_faccessat] = S(3, DEC, A(DIRFD), A(PATH), F(x_access_mode)),
	[__NR_faccessat2] = S(4, DEC, A(DIRFD), A(PATH), F(x_access_mode), F(x_faccessat_flags)),
	[__NR_truncate] = S(2, DEC, A(PATH), A(OFF)),
	[__NR_getcwd] = D(getcwd),
	[__NR_chdir] = S(1, DEC, A(PATH)),
	[__NR_fchdir] = S(1, DEC, A(FD)),
	[__NR_chroot] = S(1, DEC, A(PATH)),
	[__NR_rename] = S(2, DEC, A(PATH), A(PATH)),
	[__NR_renameat] = S(4, DEC, A(DIRFD), A(PATH), A(DIRFD), A(PATH)),
	[__NR_renameat2] = S(5, DEC, A(DIRFD), A(PATH), A(DIRFD), A(PATH), F(x_renameat2)),
	[__NR_mkdir] = S(2, DEC, A(PATH), A(OCT)),
	[__NR_mkdirat] = S(3, DEC, A(DIRFD), A(PATH), A(OCT)),
	[__NR_rmdir] = S(1, DEC, A(PATH)),
	[__NR_link] = S(2, DEC, A(PATH), A(PATH)),
	[__NR_linkat] = S(5, DEC, A(DIRFD), A(PATH), A(DIRFD), A(PATH), F(x_at_flags)),
	[__NR_unlink] = S(1, DEC, A(PATH)),
	[__NR_unlinkat] = S(3, DEC, A(DIRFD), A(PATH), F(x_at_flags)),
	[__NR_symlink] = S(2, DEC, A(PATH), A(PATH)),
	[__NR_symlinkat] = S(3, DEC, A(PATH), A(DIRFD), A(PATH)),
	[__NR_readlink] = D(readlink),
	[__NR_readlinkat] = D(readlinkat),
	[__NR_chmod] = S(2, DEC, A(PATH), A(OCT)),
	[__NR_fchmod] = S(2, DEC, A(FD), A(OCT)),
	[__NR_fchmodat] = S(3, DEC, A(DIRFD), A(PATH), A(OCT)),
	/* Linux 6.6, after strace 6.1 (which prints syscall_0x1c4): as
	 * later strace versions print it. */
	[452 /* fchmodat2 */] = S(4, DEC, A(DIRFD), A(PATH), A(OCT), F(x_at_flags)),
	[__NR_chown] = S(3, DEC, A(PATH), A(UID), A(UID)),
	[__NR_lchown] = S(3, DEC, A(PATH), A(UID), A(UID)),
	[__NR_fchown] = S(3, DEC, A(FD), A(UID), A(UID)),
	[__NR_fchownat] = S(5, DEC, A(DIRFD), A(PATH), A(UID), A(UID), F(x_at_flags)),
	[__NR_umask] = S(1, OCT, A(OCT)),
	[__NR_mknod] = D(mknod),
	[__NR_mknodat] = D(mknodat),
	[__NR_utime] = S(2, DEC, A(PATH), IN(ps_utimbuf)),
	[__NR_utimes] = S(2, DEC, A(PATH), IN(ps_timeval_pair)),
	[__NR_futimesat] = S(3, DEC, A(DIRFD), A(PATH), IN(ps_timeval_pair)),
	[__NR_utimensat] = D(utimensat),
	[__NR_getxattr] = D(getxattr),
	[__NR_lgetxattr] = D(getxattr),
	[__NR_fgetxattr] = D(fgetxattr),
	[__NR_setxattr] = D(setxattr),
	[__NR_lsetxattr] = D(setxattr),
	[__NR_fsetxattr] = D(fsetxattr),
	[__NR_listxattr] = D(listxattr),
	[__NR_llistxattr] = D(listxattr),
	[__NR_flistxattr] = D(flistxattr),
	[__NR_removexattr] = S(2, DEC, A(PATH), A(STR)),
	[__NR_lremovexattr] = S(2, DEC, A(PATH), A(STR)),
	[__NR_fremovexattr] = S(2, DEC, A(FD), A(STR)),
	[__NR_mount] = S(5, DEC, A(PATH), A(PATH), A(STR), F(x_mount), A(PTR)),
	[__NR_umount2] = S(2, DEC, A(PATH), F(x_umount)),

	/* memory */
	[__NR_mmap] = DR(mmap, HEX),
	[__NR_munmap] = S(2, DEC, A(PTR), A(ULONG)),
	[__NR_mprotect] = S(3, DEC, A(PTR), A(ULONG), F(x_prot)),
	[__NR_pkey_mprotect] = S(4, DEC, A(PTR), A(ULONG), F(x_prot), A(INT)),
	[__NR_brk] = S(1, HEX, A(PTR)),
	[__NR_mremap] = DR(mremap, HEX),
	[__NR_msync] = S(3, DEC, A(PTR), A(ULONG), F(x_msync)),
	[__NR_madvise] = S(3, DEC, A(PTR), A(ULONG), E(x_madv)),
	[__NR_mincore] = D(mincore),
	[__NR_mlock] = S(2, DEC, A(PTR), A(ULONG)),
	[__NR_munlock] = S(2, DEC, A(PTR), A(ULONG)),
	[__NR_mlockall] = S(1, DEC, F(x_mlockall)),
	[__NR_munlockall] = S0(DEC),
	[__NR_io_setup] = D(io_setup),
	[__NR_io_destroy] = S(1, DEC, A(PTR)),
	[__NR_io_submit] = D(io_submit),
	[__NR_io_getevents] = D(io_getevents),
	[__NR_io_pgetevents] = D(io_pgetevents),
	[__NR_io_cancel] = D(io_cancel),
	[__NR_membarrier] = S(3, DEC, E(x_membarrier), A(UINT), A(INT)),

	/* processes */
	[__NR_clone] = D(clone),
	[__NR_clone3] = D(clone3),
	[__NR_fork] = S0(CHILD),
	[__NR_vfork] = S0(CHILD),
	[__NR_execve] = D(execve),
	[__NR_execveat] = D(execveat),
	[__NR_exit] = S(1, DEC, A(INT)),
	[__NR_exit_group] = S(1, DEC, A(INT)),
	[__NR_wait4] = D(wait4),
	[__NR_waitid] = D(waitid),
	[__NR_kill] = S(2, DEC, A(PID), A(SIG)),
	[__NR_tkill] = S(2, DEC, A(PID), A(SIG)),
	[__NR_tgkill] = S(3, DEC, A(PID), A(PID), A(SIG)),
	[__NR_getpid] = S0(PID),
	[__NR_getppid] = S0(PID),
	[__NR_gettid] = S0(PID),
	[__NR_getuid] = S0(DEC),
	[__NR_geteuid] = S0(DEC),
	[__NR_getgid] = S0(DEC),
	[__NR_getegid] = S0(DEC),
	[__NR_setuid] = S(1, DEC, A(UID)),
	[__NR_setgid] = S(1, DEC, A(UID)),
	[__NR_setfsuid] = S(1, DEC, A(UID)),
	[__NR_setfsgid] = S(1, DEC, A(UID)),
	[__NR_setreuid] = S(2, DEC, A(UID), A(UID)),
	[__NR_setregid] = S(2, DEC, A(UID), A(UID)),
	[__NR_setresuid] = S(3, DEC, A(UID), A(UID), A(UID)),
	[__NR_setresgid] = S(3, DEC, A(UID), A(UID), A(UID)),
	[__NR_getresuid] = S(3, DEC, OUT(ps_uint), OUT(ps_uint), OUT(ps_uint)),
	[__NR_getresgid] = S(3, DEC, OUT(ps_uint), OUT(ps_uint), OUT(ps_uint)),
	[__NR_getgroups] = D(getgroups),
	[__NR_setgroups] = D(setgroups),
	[__NR_setsid] = S0(PGID),
	[__NR_getsid] = S(1, PGID, A(PID)),
	[__NR_setpgid] = S(2, DEC, A(PID), A(INT)),
	[__NR_getpgid] = S(1, PGID, A(PID)),
	[__NR_getpgrp] = S0(PGID),
	[__NR_prctl] = D(prctl),
	[__NR_seccomp] = D(seccomp),
	[__NR_pkey_alloc] = D(pkey_alloc),
	[__NR_pkey_free] = S(1, DEC, A(INT)),
	[__NR_userfaultfd] = DR(userfaultfd, FD),
	[__NR_memfd_secret] = DR(memfd_secret, FD),
	[__NR_pidfd_getfd] = S(3, FD, A(FD), A(INT), A(HEX)),
	[__NR_kcmp] = D(kcmp),
	[__NR_futex_waitv] = D(futex_waitv),
	[__NR_bpf] = D(bpf),
	[__NR_process_madvise] = D(process_madvise),
	[__NR_landlock_create_ruleset] = D(landlock_create_ruleset),
	[__NR_landlock_add_rule] = D(landlock_add_rule),
	[__NR_landlock_restrict_self] = S(2, DEC, A(FD), A(HEX)),
	[__NR_io_uring_setup] = D(io_uring_setup),
	[__NR_io_uring_enter] = D(io_uring_enter),
	[__NR_io_uring_register] = D(io_uring_register),
	[__NR_perf_event_open] = DR(perf_event_open, FD),
	[__NR_ptrace] = D(ptrace),
	[__NR_mq_open] = DR(mq_open, FD),
	[__NR_mq_unlink] = S(1, DEC, A(PATH)),
	[__NR_mq_timedsend] = D(mq_timedsend),
	[__NR_mq_timedreceive] = D(mq_timedreceive),
	[__NR_mq_notify] = D(mq_notify),
	[__NR_mq_getsetattr] = D(mq_getsetattr),
	[__NR_add_key] = D(add_key),
	[__NR_request_key] = D(request_key),
	[__NR_keyctl] = D(keyctl),
	[__NR_fanotify_init] = DR(fanotify_init, FD),
	[__NR_fanotify_mark] = D(fanotify_mark),
	[__NR_name_to_handle_at] = D(name_to_handle_at),
	[__NR_open_by_handle_at] = DR(open_by_handle_at, FD),
	[__NR_signalfd] = S(3, FD, A(FD), AX(SSETI, 2), A(ULONG)),
	[__NR_remap_file_pages] = D(remap_file_pages),
	[__NR_process_mrelease] = S(2, DEC, A(FD), A(UINT)),
	[__NR_vhangup] = S0(DEC),
	[__NR_iopl] = S(1, DEC, A(INT)),
	[__NR_ioperm] = S(3, DEC, A(HEX), A(HEX), A(INT)),
	[__NR_msgsnd] = D(msgsnd),
	[__NR_msgrcv] = D(msgrcv),
	[__NR_semop] = D(semop),
	[__NR_semtimedop] = D(semtimedop),
	[__NR_process_vm_readv] = D(process_vm_readv),
	[__NR_process_vm_writev] = D(process_vm_writev),
	[__NR_mlock2] = S(3, DEC, A(PTR), A(ULONG), F(x_mlock2)),
	[462 /* mseal, Linux 6.10 */] = S(3, DEC, A(PTR), A(ULONG), A(HEX)),
	[__NR_vmsplice] = S(4, DEC, A(FD), AX(IOVI, 2), A(ULONG), F(x_splice)),

	/* administration */
	[__NR_syslog] = D(syslog),
	[__NR_reboot] = D(reboot),
	[__NR_swapon] = D(swapon),
	[__NR_swapoff] = S(1, DEC, A(PATH)),
	[__NR_acct] = S(1, DEC, A(PATH)),
	[__NR_pivot_root] = S(2, DEC, A(PATH), A(PATH)),
	[__NR_sethostname] = S(2, DEC, AX(BUFI, 1), A(ULONG)),
	[__NR_setdomainname] = S(2, DEC, AX(BUFI, 1), A(ULONG)),
	[__NR_init_module] = S(3, DEC, A(PTR), A(ULONG), A(STR)),
	[__NR_finit_module] = S(3, DEC, A(FD), A(STR), F(x_finit_module)),
	[__NR_delete_module] = S(2, DEC, A(STR), F(x_delete_module)),
	[__NR_adjtimex] = D(adjtimex),
	[__NR_uselib] = S(1, DEC, A(PATH)),
	[__NR_kexec_load] = D(kexec_load),
	[__NR_quotactl] = D(quotactl),
	[__NR_quotactl_fd] = D(quotactl_fd),
	[__NR_lookup_dcookie] = S(3, DEC, A(ULONG), A(BUFO), A(ULONG)),
	[__NR_modify_ldt] = D(modify_ldt),
	[__NR_set_thread_area] = D(set_thread_area),
	[__NR_get_thread_area] = D(get_thread_area),
	[__NR_kexec_file_load] = S(5, DEC, A(FD), A(FD), A(ULONG), AX(BUFI, 2), F(x_kexec_file_flags)),
	[__NR_clock_adjtime] = D(clock_adjtime),
	[__NR_capget] = D(capget),
	[__NR_capset] = D(capset),
	[__NR_sched_getattr] = D(sched_getattr),
	[__NR_sched_setattr] = D(sched_setattr),
	[__NR_ioprio_get] = D(ioprio_get),
	[__NR_ioprio_set] = D(ioprio_set),
	[__NR_mbind] = D(mbind),
	[__NR_set_mempolicy] = D(set_mempolicy),
	[__NR_get_mempolicy] = D(get_mempolicy),
	[__NR_migrate_pages] = D(migrate_pages),
	[__NR_move_pages] = D(move_pages),
	[__NR_set_mempolicy_home_node] = S(4, DEC, A(PTR), A(ULONG), A(ULONG), A(HEX)),

	/* The mount API */
	[__NR_open_tree] = S(3, FD, A(DIRFD), A(PATH), F(x_open_tree)),
	[__NR_fsopen] = S(2, FD, A(STR), F(x_fsopen)),
	[__NR_fsconfig] = D(fsconfig),
	[__NR_fsmount] = S(3, FD, A(FD), F(x_fsmount), F(x_mount_attr)),
	[__NR_fspick] = S(3, FD, A(DIRFD), A(PATH), F(x_fspick)),
	[__NR_move_mount] = S(5, DEC, A(DIRFD), A(PATH), A(DIRFD), A(PATH), F(x_move_mount)),
	[__NR_mount_setattr] = D(mount_setattr),
	[__NR_arch_prctl] = D(arch_prctl),
	[__NR_set_tid_address] = S(1, DEC, A(PTR)),
	[__NR_set_robust_list] = S(2, DEC, A(PTR), A(ULONG)),
	[__NR_get_robust_list] = S(3, DEC, A(PID), OUT(ps_uptr), OUT(ps_ulong)),
	[__NR_rseq] = S(4, DEC, A(PTR), A(HEX), F(x_rseq), A(HEX)),
	[__NR_unshare] = S(1, DEC, F(x_unshare)),
	[__NR_setns] = S(2, DEC, A(FD), F(x_unshare)),
	[__NR_personality] = DR(personality, HEX),
	[__NR_pidfd_open] = S(2, FD, A(PID), F(x_pidfd)),
	[__NR_pidfd_send_signal] = S(4, DEC, A(FD), A(SIG), IN(ps_siginfo), A(UINT)),
	[__NR_uname] = S(1, DEC, OUT(ps_utsname)),
	[__NR_sysinfo] = S(1, DEC, OUT(ps_sysinfo)),
	[__NR_times] = S(1, UDEC, OUT(ps_tms)),
	[__NR_getrandom] = D(getrandom),
	[__NR_getcpu] = S(3, DEC, OUT(ps_uint), OUT(ps_uint), A(PTR)),

	/* scheduling and resources */
	[__NR_sched_yield] = S0(DEC),
	[__NR_sched_getaffinity] = D(sched_getaffinity),
	[__NR_sched_setaffinity] = D(sched_setaffinity),
	[__NR_sched_getparam] = S(2, DEC, A(PID), OUT(ps_sched_param)),
	[__NR_sched_setparam] = S(2, DEC, A(PID), IN(ps_sched_param)),
	[__NR_sched_getscheduler] = D(sched_getscheduler),
	[__NR_sched_setscheduler] = S(3, DEC, A(PID), E(x_sched_policy), IN(ps_sched_param)),
	[__NR_sched_get_priority_max] = S(1, DEC, E(x_sched_policy)),
	[__NR_sched_get_priority_min] = S(1, DEC, E(x_sched_policy)),
	[__NR_sched_rr_get_interval] = S(2, DEC, A(PID), OUT(ps_timespec)),
	[__NR_getpriority] = D(getpriority),
	[__NR_setpriority] = D(setpriority),
	[__NR_getrlimit] = S(2, DEC, E(x_rlimit), OUT(ps_rlimit)),
	[__NR_setrlimit] = S(2, DEC, E(x_rlimit), IN(ps_rlimit)),
	[__NR_prlimit64] = D(prlimit64),
	[__NR_getrusage] = S(2, DEC, E(x_rusage_who), OUT(ps_rusage)),

	/* signals */
	[__NR_rt_sigaction] = D(rt_sigaction),
	[__NR_rt_sigprocmask] = D(rt_sigprocmask),
	[__NR_rt_sigreturn] = D(rt_sigreturn),
	[__NR_rt_sigpending] = S(2, DEC, AX(SSETO, 1), A(ULONG)),
	[__NR_rt_sigsuspend] = S(2, DEC, AX(SSETI, 1), A(ULONG)),
	[__NR_rt_sigtimedwait] = D(rt_sigtimedwait),
	[__NR_rt_sigqueueinfo] = S(3, DEC, A(PID), A(SIG), IN(ps_siginfo)),
	[__NR_rt_tgsigqueueinfo] = S(4, DEC, A(PID), A(PID), A(SIG), IN(ps_siginfo)),
	[__NR_sigaltstack] = S(2, DEC, IN(ps_stack_t), OUT(ps_stack_t)),
	[__NR_pause] = S0(DEC),
	[__NR_alarm] = S(1, DEC, A(UINT)),
	[__NR_getitimer] = S(2, DEC, E(x_itimer), OUT(ps_itimerval)),
	[__NR_setitimer] = S(3, DEC, E(x_itimer), IN(ps_itimerval), OUT(ps_itimerval)),
	[__NR_timer_create] = S(3, DEC, A(CLOCK), IN(ps_sigevent), OUT(ps_int)),
	[__NR_timer_settime] = S(4, DEC, A(INT), F(x_timer_flags), IN(ps_itimerspec), OUT(ps_itimerspec)),
	[__NR_timer_gettime] = S(2, DEC, A(INT), OUT(ps_itimerspec)),
	[__NR_timer_getoverrun] = S(1, DEC, A(INT)),
	[__NR_timer_delete] = S(1, DEC, A(INT)),

	/* time */
	[__NR_nanosleep] = D(nanosleep),
	[__NR_restart_syscall] = D(restart_syscall),
	[__NR_clock_nanosleep] = D(clock_nanosleep),
	[__NR_clock_gettime] = S(2, DEC, A(CLOCK), OUT(ps_timespec)),
	[__NR_clock_settime] = S(2, DEC, A(CLOCK), IN(ps_timespec)),
	[__NR_clock_getres] = S(2, DEC, A(CLOCK), OUT(ps_timespec)),
	[__NR_gettimeofday] = S(2, DEC, OUT(ps_timeval), OUT(ps_timezone)),
	[__NR_settimeofday] = S(2, DEC, IN(ps_timeval), IN(ps_timezone)),
	[__NR_time] = S(1, DEC, OUT(ps_ulong)),
	[__NR_futex] = D(futex),

	/* sockets */
	[__NR_socket] = DR(socket, FD),
	[__NR_socketpair] = D(socketpair),
	[__NR_bind] = S(3, DEC, A(FD), AX(SADDRI, 2), A(UINT)),
	[__NR_connect] = S(3, DEC, A(FD), AX(SADDRI, 2), A(UINT)),
	[__NR_listen] = S(2, DEC, A(FD), A(INT)),
	[__NR_accept] = DR(accept, FD),
	[__NR_accept4] = DR(accept4, FD),
	[__NR_getsockname] = D(getsockname),
	[__NR_getpeername] = D(getsockname),
	[__NR_sendto] = D(sendto),
	[__NR_recvfrom] = D(recvfrom),
	[__NR_sendmsg] = D(sendmsg),
	[__NR_recvmsg] = D(recvmsg),
	[__NR_sendmmsg] = D(sendmmsg),
	[__NR_recvmmsg] = D(recvmmsg),
	[__NR_shutdown] = S(2, DEC, A(FD), E(x_shutdown)),
	[__NR_setsockopt] = D(setsockopt),
	[__NR_getsockopt] = D(getsockopt),

	/* System V IPC */
	[__NR_shmget] = D(shmget),
	[__NR_shmat] = DR(shmat, HEX),
	[__NR_shmdt] = S(1, DEC, A(PTR)),
	[__NR_shmctl] = D(shmctl),
	[__NR_semget] = D(semget),
	[__NR_msgget] = D(ipcget2),
	[__NR_msgctl] = D(msgctl),
	[__NR_semctl] = D(semctl),
};

/*
 * The i386 calls recorded as SONDE_NR_I386 + n (events.h) whose arguments
 * or structs differ from their x86-64 counterparts (dec_i386.c), by i386
 * number. The others print raw, or as their x86-64 twin of another name
 * (getuid32, clock_gettime64: decode.c).
 */
const struct st_sig st_sigs_i386[SONDE_NR_I386_LEN] = {
	[7] = D(waitpid),
	[75] = S(2, DEC, E(x_rlimit), IN(ps_rlimit_i386)),   /* setrlimit */
	[78] = S(2, DEC, OUT(ps_timeval_i386), OUT(ps_timezone)), /* gettimeofday */
	[79] = S(2, DEC, IN(ps_timeval_i386), IN(ps_timezone)),   /* settimeofday */
	[76] = S(2, DEC, E(x_rlimit), OUT(ps_rlimit_i386)),  /* getrlimit */
	[140] = D(llseek),
	[145] = S(3, DEC, A(FD), AX(IOVO, 2), A(ULONG)), /* readv: 8-byte iovecs (pr_iov) */
	[146] = S(3, DEC, A(FD), AX(IOVI, 2), A(ULONG)), /* writev */
	[180] = D(pread64_i386),
	[181] = D(pwrite64_i386),
	[191] = S(2, DEC, E(x_rlimit), OUT(ps_rlimit_i386)), /* ugetrlimit */
	[192] = D(mmap2),
	[195] = S(2, DEC, A(PATH), OUT(ps_stat64_i386)),     /* stat64 */
	[196] = S(2, DEC, A(PATH), OUT(ps_stat64_i386)),     /* lstat64 */
	[197] = S(2, DEC, A(FD), OUT(ps_stat64_i386)),       /* fstat64 */
	[186] = S(2, DEC, IN(ps_stack_t_i386), OUT(ps_stack_t_i386)), /* sigaltstack */
	[221] = D(fcntl64),
	[265] = S(2, DEC, A(CLOCK), OUT(ps_timespec_i386)), /* clock_gettime */
	[266] = S(2, DEC, A(CLOCK), OUT(ps_timespec_i386)), /* clock_getres */
	[268] = D(statfs64),
	[269] = D(fstatfs64),
	[300] = S(4, DEC, A(DIRFD), A(PATH), OUT(ps_stat64_i386), F(x_at_flags)), /* fstatat64 */
};

const struct st_sig *st_sig_of(uint32_t nr)
{
	uint32_t k = nr - SONDE_NR_I386;

	if (nr < SONDE_NR_SYSCALLS)
		return &st_sigs[nr];
	return k < SONDE_NR_I386_LEN ? &st_sigs_i386[k] : NULL;
}

uint32_t st_decoded_nr(uint32_t nr)
{
	int twin = sonde_syscall_i386_twin(nr);

	return twin >= 0 && !st_sig_of(nr)->known ? (uint32_t)twin : nr;
}

int sonde_strace_is_decoded(unsigned int nr)
{
	const struct st_sig *sig = st_sig_of(st_decoded_nr(nr));

	return sig && sig->known;
}

unsigned int sonde_strace_decoded_count(void)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < SONDE_NR_SYSCALLS; i++)
		n += st_sigs[i].known;
	return n;
}

const char *sonde_strace_arg_name(unsigned int nr, unsigned int i)
{
	return nr < SONDE_NR_SYSCALLS && i < 6 ? st_argnames[nr][i] : NULL;
}
