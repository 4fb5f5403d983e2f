/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sonde event records: defined once, shared by the BPF programs (bpf/) and
 * by user space (src/). They are also the on-disk record layout: the trace
 * file stores these bytes verbatim inside compressed chunks (docs/format.md).
 *
 * Rules that keep the format extensible without a break:
 *  - every record starts with struct sonde_hdr and its size is a multiple
 *    of 8 (hdr.size counts the header and any variable tail);
 *  - readers skip record types they do not know, using hdr.size;
 *  - new fields are only ever appended; readers check hdr.size before
 *    touching a field that a newer version added;
 *  - bulky data (buffers, strings, stacks) lives in variable tails or in
 *    out-of-line payload records, never in the fixed part.
 *
 * The header is laid out so that a record's fixed part needs no padding:
 *
 *   0        8        12       16    18    20    22    24
 *   +--------+--------+--------+-----+-----+-----+-----+
 *   |   ts   |  pid   |  tid   |type |size | cpu |flags|
 *   +--------+--------+--------+-----+-----+-----+-----+
 *
 * This header is compiled both by clang -target bpf (with vmlinux.h, where
 * the __uN types come from BTF) and by the host compiler (with
 * <linux/types.h>), so it must not include either itself.
 */
#ifndef SONDE_EVENTS_H
#define SONDE_EVENTS_H

#define SONDE_COMM_LEN 16
/* Longest exec tail: filename + argv strings, NUL separated. */
#define SONDE_EXEC_DATA_MAX 4096
/* Highest syscall number + 1 covered by the in-kernel selection bitmap. */
#define SONDE_NR_SYSCALLS 512

enum sonde_rec_type {
	SONDE_REC_SYSCALL = 1, /* struct sonde_ev_syscall */
	SONDE_REC_SWITCH = 2,  /* struct sonde_ev_switch */
	SONDE_REC_WAKEUP = 3,  /* struct sonde_ev_wakeup */
	SONDE_REC_FORK = 4,    /* struct sonde_ev_fork */
	SONDE_REC_EXEC = 5,    /* struct sonde_ev_exec + tail */
	SONDE_REC_EXIT = 6,    /* struct sonde_ev_exit */
	SONDE_REC_COMM = 7,    /* struct sonde_ev_comm */
	SONDE_REC_LOST = 8,    /* struct sonde_ev_lost */
	SONDE_REC_PROC = 9,    /* struct sonde_ev_proc + tail (user space) */
	SONDE_REC_PAYLOAD = 10, /* struct sonde_ev_payload + data (payload.h) */
	SONDE_REC_SIGNAL = 11,	/* struct sonde_ev_signal: delivered */
	SONDE_REC_SIGGEN = 12,	/* struct sonde_ev_signal: generated (sent) */
	SONDE_REC_PLREF = 13,   /* on disk only: payload bytes by reference to the
				 * blob store; readers return it as PAYLOAD */
	SONDE_REC_NSPID = 14,	/* struct sonde_ev_nspid */
	SONDE_REC_IMAGE = 15,	/* struct sonde_ev_image + path */
	SONDE_REC_TYPE_MAX
};

struct sonde_hdr {
	__u64 ts;    /* CLOCK_MONOTONIC ns; for syscalls the entry time */
	__u32 pid;   /* thread-group id (what ps calls PID) */
	__u32 tid;   /* thread id */
	__u16 type;  /* enum sonde_rec_type */
	__u16 size;  /* whole record in bytes, multiple of 8 */
	__u16 cpu;   /* CPU the record was produced on */
	__u16 flags; /* type-specific, see below */
};

/* sonde_ev_syscall.hdr.flags */
#define SONDE_SC_NORETURN 0x1   /* never returned (exit, exit_group) */
#define SONDE_SC_UNFINISHED 0x2 /* still blocked when recording stopped */
#define SONDE_SC_ATTACHED 0x4   /* entered before recording began (-p,
				 * --comm): hdr.ts is when recording began,
				 * not the entry, and dur counts from then */
#define SONDE_SC_KILLED 0x8     /* interrupted by the death of its task
				 * (SIGKILL, or another thread's exit_group
				 * or execve): it never returned to user
				 * space, so ret is the kernel's, not the
				 * program's */
#define SONDE_SC_COMPAT 0x10     /* an i386 call: see SONDE_NR_I386 */
/* Returned without entering: a seccomp filter answered it
 * (SECCOMP_RET_ERRNO, _TRAP, _USER_NOTIF), so the kernel never ran it;
 * hdr.ts is the return, and its entry data was read there. */
#define SONDE_SC_NO_ENTRY 0x20
/* -e inject= / -e fault= (inject.h): what the supervisor did to the call:
 * its result given in place of running it (error=, retval=), its memory
 * written (poke_enter=, poke_exit=), the call held (delay_*=). */
#define SONDE_SC_INJECTED 0x40
#define SONDE_SC_POKED 0x80
#define SONDE_SC_DELAYED 0x100
/* The calls whose result the program never saw. */
#define SONDE_SC_NO_RESULT (SONDE_SC_NORETURN | SONDE_SC_UNFINISHED | SONDE_SC_KILLED)

/*
 * i386 calls (SONDE_SC_COMPAT): a 32-bit program's syscalls, or int $0x80
 * from 64-bit code, which the kernel runs from its i386 table with the
 * arguments in ebx, ecx, edx, esi, edi, ebp. args are those registers,
 * zero-extended. nr is the x86-64 number of the same call when the two
 * take the same arguments with the same memory layouts (read, open,
 * openat, socket, statx...: decoded and captured as that one), else
 * SONDE_NR_I386 + the i386 number (mmap2, fstat64, _llseek, socketcall,
 * the calls whose structs differ): named from the i386 table, printed
 * raw. That range is far from any number a 64-bit program passes in
 * practice (all of them fail with ENOSYS); a 64-bit call of one of those
 * numbers would be named as the i386 call. Ten calls of the same name
 * are recorded as the x86-64 one although their memory differs, so that
 * everything that knows them (exec, fork, descriptors) keeps working,
 * and their decoders read the i386 layout when the flag is set: execve
 * and execveat (arrays of 32-bit pointers), clone (tls before
 * child_tid), rt_sigaction, ioctl, stat, lstat, fstat, nanosleep and
 * clock_nanosleep (src/decode/syscall_table_i386.c).
 */
#define SONDE_NR_I386 0xc0000000u
#define SONDE_NR_I386_LEN 512
/*
 * x32 calls: a 64-bit program's syscall instruction with the x32 bit in the
 * number, recorded as it is. This kernel has no x32 ABI (every one fails
 * with ENOSYS), but strace names them from its x32 table and its syscall
 * sets select them (-e trace=getpid@x32), so sonde's sets do too: 0..547
 * are the x32 calls, rounded up to the bitmap's words.
 */
#define SONDE_NR_X32 0x40000000u
#define SONDE_NR_X32_LEN 576

/*
 * One fused record per syscall, written at exit from the entry state kept
 * per task. hdr.ts is the entry time; dur is exit - entry (0 when no
 * return). args are the six raw register arguments.
 */
struct sonde_ev_syscall {
	struct sonde_hdr hdr;
	__s64 ret;
	__u64 dur;
	__u64 args[6];
	__u32 nr;
	__u32 _pad;
};

/* Context switch on hdr.cpu; hdr.pid/tid are the previous task. */
struct sonde_ev_switch {
	struct sonde_hdr hdr;
	__s32 prev_prio;
	__u32 prev_state; /* TASK_* bits; 0 = preempted while running */
	__u32 next_pid;
	__u32 next_tid;
	__s32 next_prio;
	__u32 _pad;
	char prev_comm[SONDE_COMM_LEN];
	char next_comm[SONDE_COMM_LEN];
};

/* sonde_ev_wakeup.hdr.flags */
#define SONDE_WAKEUP_NEW 0x1 /* first wakeup of a new task */

/* Wakeup of a traced task; hdr.pid/tid are the woken task. */
struct sonde_ev_wakeup {
	struct sonde_hdr hdr;
	__s32 prio;
	__u32 target_cpu;
	__u32 waker_pid;
	__u32 waker_tid;
};

/* sonde_ev_fork.hdr.flags */
#define SONDE_FORK_FLAGS_UNKNOWN 0x1 /* not created by a clone-family call of
				      * the parent (e.g. io_uring worker):
				      * clone_flags is 0 */

/* Task creation; hdr.pid/tid are the parent (the caller of clone). */
struct sonde_ev_fork {
	struct sonde_hdr hdr;
	__u32 child_pid;
	__u32 child_tid;
	__u64 clone_flags; /* from the parent's clone/clone3/fork/vfork */
	char child_comm[SONDE_COMM_LEN];
};

/* sonde_ev_exec.hdr.flags */
#define SONDE_EXEC_ARGV_TRUNC 0x1 /* argv did not fit in the tail */

/*
 * Successful exec; hdr.pid/tid are the task after exec. The tail holds
 * filename_len bytes of filename (with its NUL), then argv_len bytes of
 * NUL-separated arguments; hdr.size is rounded up to 8.
 */
struct sonde_ev_exec {
	struct sonde_hdr hdr;
	__u32 old_tid; /* a non-leader thread that exec'd takes the tgid */
	__u32 argc;
	__u16 filename_len;
	__u16 argv_len;
	__u32 _pad;
	char comm[SONDE_COMM_LEN];
	/* char data[]; */
};

/* sonde_ev_exit.hdr.flags */
#define SONDE_EXIT_GROUP_DEAD 0x1 /* last thread: the process is gone */
/* A thread the kernel started in the process for its own work (io_uring's
 * iou-wrk, the user workers of KVM and vhost: PF_IO_WORKER,
 * PF_USER_WORKER), made by copy_process without the fork tracepoint and
 * with CLONE_UNTRACED: strace never sees it, sonde only at its exit. */
#define SONDE_EXIT_WORKER 0x2
/* Never recorded: a reader sets it on the exit of a thread it does not
 * show (sonde strace without -f) so that the renderer prints no line for
 * it but still ends its group there (the leader's deferred line). */
#define SONDE_EXIT_NOT_SHOWN 0x8000

/* The exit that ends a process (GROUP_DEAD) of a group exit (exit_group,
 * a fatal signal): group_code holds the process's status, which its
 * parent's wait and strace's leader line report whatever the leader's own
 * exit said (a leader that left by pthread_exit). */
#define SONDE_EXIT_GROUP_CODE 0x4

/* Task exit; code is a wait(2) status (signal in bits 0-6). */
struct sonde_ev_exit {
	struct sonde_hdr hdr;
	__s32 code;
	__s32 group_code; /* SONDE_EXIT_GROUP_CODE: the process's status */
};

/*
 * A task whose pid namespace is not the initial one (containers, unshare
 * -p): hdr.pid/tid are its numbers in the initial namespace, as in every
 * record; ns_tid and ns_pid its thread and process ids as its own
 * namespace numbers them, the ones its calls take and return. Written at
 * its fork (sched_process_fork) and, for tasks that existed before
 * recording began (-p, --comm), from /proc/PID/task/TID/status (NSpid)
 * by user space. What strace --decode-pids=pidns translates with; -Y
 * names a tracee's pids through it.
 */
struct sonde_ev_nspid {
	struct sonde_hdr hdr;
	__u64 ns_inum; /* the namespace: the inode of /proc/PID/ns/pid */
	__u32 ns_tid;
	__u32 ns_pid;
	__u32 level; /* 1: a child of the initial namespace, 2: its child... */
	__u32 _pad;
};

/*
 * A file mapped into a process (record --user-stack): what the unwinder
 * of the user stacks needs to find each frame's module, as a line of
 * /proc/PID/maps says it. Written by the kernel side at exec (the program
 * and its interpreter, found from the auxiliary vector) and at each
 * successful mmap of a file, and by user space from /proc/PID/maps for a
 * process attached with -p. The path is the dentry's, walked up to the
 * task's root across mounts (the kernel's d_path, which tracepoint
 * programs may not call), stored as payload.h's SONDE_PLR_PHASE_FDPATH
 * stores it: components leaf first, each NUL-terminated ("libc.so.6\0
 * x86_64-linux-gnu\0lib\0usr\0" is /usr/lib/x86_64-linux-gnu/libc.so.6),
 * then zeros to a multiple of 8.
 *
 *   0      24      32     40      48         50     56
 *   +------+-------+------+-------+----------+------+------------------
 *   | hdr  | start | end  | pgoff | path_len | pad  | components ... 0
 *   +------+-------+------+-------+----------+------+------------------
 */
#define SONDE_IMAGE_EXEC 0x1  /* a new program: the address space before is gone */
#define SONDE_IMAGE_TRUNC 0x2 /* the path was cut (too deep or too long) */
#define SONDE_IMAGE_X 0x4     /* the mapping is executable (PROT_EXEC) */
#define SONDE_IMAGE_PATH_MAX 4096

struct sonde_ev_image {
	struct sonde_hdr hdr;
	__u64 start; /* the mapping's first address (vm_start) */
	__u64 end;   /* the address past its last byte */
	__u64 pgoff; /* file offset of start, in bytes */
	__u16 path_len; /* bytes of the components, their NULs included */
	__u16 _pad[3];
	/* char path[path_len + 1]; padded to 8 */
};

/* Command name change (prctl(PR_SET_NAME), /proc/PID/comm, exec). */
struct sonde_ev_comm {
	struct sonde_hdr hdr;
	char comm[SONDE_COMM_LEN];
};

/* sonde_ev_lost.kind */
enum sonde_lost_kind {
	SONDE_LOST_RING = 1,   /* the per-CPU ring was full */
	SONDE_LOST_WRITER = 2, /* user space could not store the record */
	SONDE_LOST_LIVE = 3,   /* not shown live: the output could not keep up
				* (never in a trace file; include/sonde/live.h) */
};

/*
 * count records could not be stored on hdr.cpu; hdr.ts is the time of the
 * first loss of the run, so the record sits where the hole is.
 */
struct sonde_ev_lost {
	struct sonde_hdr hdr;
	__u64 count;
	__u32 kind;
	__u32 _pad;
};

/* sonde_ev_proc.hdr.flags */
#define SONDE_PROC_FDS 0x1      /* the descriptors follow the cmdline */
#define SONDE_PROC_FDS_MORE 0x2 /* the list goes on in the next PROC record
				 * of this pid, flagged FDS_CONT */
#define SONDE_PROC_LAUNCHED 0x4 /* the command sonde started, seen stopped
				 * before its execve: only the descriptors
				 * are its own (comm, cmdline and ppid are
				 * the recorder's child's); not a process
				 * to name, not one attached to */
#define SONDE_PROC_FDS_CONT 0x8 /* more descriptors of the previous PROC
				 * record of this pid (cmdline_len 0): not a
				 * process to name either */

/*
 * Written by user space, not BPF: a process that existed before recording
 * began (attach with -p, --comm) so readers can name it. Tail: cmdline,
 * NUL separated, cmdline_len bytes. With SONDE_PROC_FDS, what its
 * descriptors referred to (readlink of /proc/PID/fd/N) for strace's -y,
 * from SONDE_REC_ALIGN(sizeof(struct sonde_ev_proc) + cmdline_len) to
 * hdr.size: first the working directory as fd -100 (AT_FDCWD), then the
 * descriptors in ascending order (readers older than the list stop at
 * the cmdline):
 *
 *   | sonde_ev_proc | cmdline | pad | fd, len, flags | path | pad | ...
 *                                   +-- struct sonde_proc_fd, 8-aligned
 */
struct sonde_ev_proc {
	struct sonde_hdr hdr;
	__u32 ppid;
	__u32 cmdline_len;
	char comm[SONDE_COMM_LEN];
	/* char cmdline[]; */
};

/* sonde_proc_fd.flags */
#define SONDE_PROC_FD_CLOEXEC 0x1 /* closed by the next execve */

struct sonde_proc_fd {
	__s32 fd;
	__u16 path_len; /* bytes of path that follow, no NUL */
	__u16 flags;
	/* char path[path_len]; padded to 8 */
};

/*
 * The kernel's siginfo as the signal tracepoints see it: the 48 bytes of
 * a struct kernel_siginfo, which on x86-64 are laid out exactly as the
 * start of the user siginfo_t (si_signo, si_errno, si_code, then the
 * union at offset 16). Stored raw; readers interpret the union by signo
 * and code as strace does (src/decode/siginfo.c):
 *
 *   0      4      8      12     16                                  48
 *   +------+------+------+------+-----------------------------------+
 *   |signo |errno | code | pad  | union __sifields: pid uid status  |
 *   |      |      |      |      | utime stime / addr / value / ...  |
 *   +------+------+------+------+-----------------------------------+
 */
struct sonde_siginfo {
	__s32 signo;
	__s32 err; /* si_errno */
	__s32 code;
	__u32 _pad;
	__u64 fields[4];
};

/* sonde_ev_signal.hdr.flags */
#define SONDE_SIG_NOINFO 0x1 /* the kernel passed no siginfo (SEND_SIG_NOINFO):
			      * code is SI_USER, the rest 0 */
#define SONDE_SIG_PRIV 0x2   /* SEND_SIG_PRIV: code is SI_KERNEL, the rest 0 */
#define SONDE_SIG_GROUP 0x4  /* SIGGEN: sent to the whole thread group */
#define SONDE_SIG_EXITING 0x8 /* SIGGEN: the target's group is exiting (a
			       * fatal signal takes it down: see result) */

/* sonde_ev_signal.result (SIGGEN), the kernel's TRACE_SIGNAL_* */
enum sonde_sig_result {
	SONDE_SIG_DELIVERED = 0,  /* queued (or acted on) for the target */
	SONDE_SIG_IGNORED = 1,	  /* dropped: ignored, or the target is dying */
	SONDE_SIG_ALREADY_PENDING = 2, /* a standard signal already pending */
	SONDE_SIG_OVERFLOW_FAIL = 3,   /* real-time queue full: not sent */
	SONDE_SIG_LOSE_INFO = 4,       /* sent without its siginfo */
};

/*
 * A signal of a traced task. SIGNAL (tp_btf/signal_deliver): the task in
 * hdr dequeued it on its way back to user space and acts on it now;
 * handler and sa_flags are the action taken (0 = SIG_DFL, 1 = SIG_IGN).
 * The run-down of a dying thread group shows as a SIGKILL with NOINFO.
 * SIGGEN (tp_btf/signal_generate): sent to the task in hdr by sender
 * (the task that was current: the killer, the exiting child, or whoever
 * an interrupt found running); handler and sa_flags are the target's
 * action for the signal at that moment.
 */
struct sonde_ev_signal {
	struct sonde_hdr hdr;
	struct sonde_siginfo si;
	__u64 handler;
	__u64 sa_flags;
	union {
		struct {
			__u32 sender_pid; /* SIGGEN */
			__u32 sender_tid; /* SIGGEN */
		};
		__u64 ip; /* SIGNAL: the user instruction pointer the
			   * signal interrupted (strace -i); 0 = unknown */
	};
	__s32 result;	  /* SIGGEN: enum sonde_sig_result */
	__u32 _pad;
};

#define SONDE_REC_ALIGN(n) (((n) + 7) & ~7u)

#endif /* SONDE_EVENTS_H */
