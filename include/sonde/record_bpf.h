/* SPDX-License-Identifier: GPL-2.0 */
/*
 * State shared between the recorder's BPF programs (bpf/sonde.bpf.c) and
 * user space (src/record/): sizes of the global-data tables and the layout
 * of the per-task in-flight syscall slot. Like events.h this is compiled by
 * clang -target bpf (vmlinux.h types) and by the host compiler
 * (<linux/types.h>), so it includes neither.
 *
 * Global data (.bss, mmapped by user space through the skeleton):
 *
 *   traced[SONDE_PID_MAX / 64]   one bit per tgid: 1 = traced
 *   +--------+--------+-- ... --+--------+
 *   | 0..63  |64..127 |         |        |    512 KiB for 4194304 pids
 *   +--------+--------+-- ... --+--------+
 *   ntraced                       number of set bits (live traced tgids)
 *   cpus[SONDE_MAX_CPUS]          struct sonde_cpu_state (below), 192
 *                                 bytes each so CPUs never share a line
 *   batches[SONDE_MAX_CPUS]       struct sonde_cpu_batch (below), 1088 B
 *                                 each: records not yet in the ring
 *
 * Writers of traced[]: the fork, exec, rename and exit programs and user
 * space (the command's child, -p PIDs, --comm matches found in /proc), all
 * with atomic fetch-or / fetch-and so concurrent updates of one word from
 * several CPUs are never lost, and ntraced moves only when a bit flips.
 */
#ifndef SONDE_RECORD_BPF_H
#define SONDE_RECORD_BPF_H

#include <sonde/events.h>

/* PID_MAX_LIMIT on 64-bit: no pid or tgid is ever >= this. */
#define SONDE_PID_MAX 4194304
#define SONDE_TRACED_WORDS (SONDE_PID_MAX / 64)
/* CPUs with per-CPU state; CPUs beyond (never seen in practice) are not
 * recorded and count as lost in cpus[0]. Power of two. */
#define SONDE_MAX_CPUS 1024

/*
 * In-flight syscall of one task, written at sys_enter, consumed at
 * sys_exit: in the CPU's slot while the task runs, in its task storage
 * (BPF_MAP_TYPE_TASK_STORAGE "inflight") once switched out. User space reads
 * both at stop (task storage through a pidfd, pidfd_open(tid,
 * PIDFD_THREAD)) to record the calls still blocked as SONDE_SC_UNFINISHED.
 *
 *   0      8                                56     60     62     64
 *   +------+------------ args[6] -----------+------+------+------+
 *   |  ts  | di  si  dx  r10  r8  r9        |  nr  |active|flags |
 *   +------+--------------------------------+------+------+------+
 *
 * An i386 call holds ebx ecx edx esi edi ebp, its number as recorded
 * (events.h, SONDE_SC_COMPAT) and that flag.
 */
struct sonde_inflight {
	__u64 ts;
	__u64 args[6];
	__u32 nr;
	__u16 active; /* between sys_enter and sys_exit: 1, or
		       * SONDE_INFLIGHT_ATTACHED or _SKIP */
	__u16 flags;  /* SONDE_SC_COMPAT or 0 */
	__u64 ip;     /* record --ip: the user instruction pointer at entry
		       * (attached: /proc's pc), else 0 */
	__u64 sp;     /* --failed-only: rt_sigreturn's stack pointer at
		       * entry (its signal frame), else 0 */
};

/*
 * A call that was already blocked when its process joined the traced set
 * (-p, --comm) has no sys_enter: user space reads it from
 * /proc/PID/task/TID/syscall (number, six arguments) and installs it in
 * the thread's task storage with this marker and ts = the moment it
 * attached, so the return is recorded (flag SONDE_SC_ATTACHED), and so is
 * the call at stop if it is still blocked.
 */
#define SONDE_INFLIGHT_ATTACHED 2
/*
 * A call that entered before its thread was traced and must not be
 * recorded: the launched command's read of its go pipe (rec_launch.c), an
 * execve or prctl that made a --comm match. Without a marker, a return
 * with no entry is recorded as SONDE_SC_NO_ENTRY when the thread runs
 * under a seccomp filter (sys_exit, bpf/sonde.bpf.c).
 */
#define SONDE_INFLIGHT_SKIP 3

/*
 * -e inject: the supervisor (src/inject/supervise.c) marks a call it
 * tampered with in the hash map inject_marks, keyed by tid, before it
 * answers the seccomp notification; sys_exit of that thread takes the
 * mark when the number matches and adds the flags to the record.
 */
struct sonde_inject_mark {
	__u32 nr;
	__u16 flags; /* SONDE_SC_INJECTED, _POKED, _DELAYED */
	__u16 _pad;
};
#define SONDE_INJECT_MARKS 4096

/*
 * Per-CPU state, three cache lines per CPU, written only by programs
 * running on that CPU (and read by user space after detaching):
 *
 *   0       8       16   20   24                       104      112   120     128    136   192
 *   +-------+-------+----+----+------- slot ----------+--------+-----+-------+------+-----+
 *   |id_regs|id_task|tgid|tid | task tgid tid e{...}  |nsubmit |lost |lost_ts|total | pad |
 *   +-------+-------+----+----+-----------------------+--------+-----+-------+------+-----+
 *
 * id_*: who is current, keyed by the pt_regs pointer the syscall
 * tracepoints receive (each task's is unique and fixed: the top of its
 * kernel stack). While the same task keeps the CPU, sys_enter and sys_exit
 * read its tgid and tid from here instead of calling
 * bpf_get_current_task_btf(). A stack is reused only after its task died,
 * and sched_process_exit (and exec, which changes the tid) erases the
 * task's entry on every CPU first, so a hit always names the live task.
 *
 * The slot holds the in-flight syscall of the task that entered it on this
 * CPU (task: its task_struct address, used as an identity only). sys_enter
 * writes it, sys_exit of the same task consumes it: the common short
 * syscall never touches task storage. When the owner is switched out with
 * its call in flight, sched_switch moves the entry into the owner's task
 * storage ("inflight" map), where sys_exit finds it on whatever CPU the
 * call returns. Why the owner is checked rather than assumed: on some
 * kernels not every switch reaches the sched_switch tracepoint (seen here:
 * a hypervisor agent's thread is never reported as prev), so a slot can
 * outlive its owner's time on the CPU; sys_enter then rescues it into the
 * owner's storage before reusing the slot.
 */
struct sonde_cpu_slot {
	__u64 task;
	__u32 tgid;
	__u32 tid;
	struct sonde_inflight e;
};

struct sonde_cpu_state {
	__u64 id_regs;    /* current task's pt_regs address, 0 = unknown */
	__u64 id_task;    /* its task_struct address */
	__u32 id_tgid;
	__u32 id_tid;
	struct sonde_cpu_slot slot;
	__u64 nsubmit;    /* records submitted, paces the fill check */
	__u64 lost;       /* reserve failures not yet reported in the stream */
	__u64 lost_ts;    /* time of the first of them */
	__u64 lost_total; /* every reserve failure of the run */
	__u64 _pad[7];
};

/*
 * Records of one CPU on their way to its ring: syscalls, context switches
 * and wakeups, the events a traced task makes most of. A reserve and a
 * submit cost about 50 ns per record on the test VM (two helper calls, the
 * ring's lock, a fresh ring line): the programs append their record here
 * instead and one bpf_ringbuf_output moves the batch, up to
 * SONDE_BATCH_BYTES of records at a time. The ring sample starts with hdr
 * (type SONDE_RING_BATCH, size = hdr + len); it is a transport wrapper
 * that never reaches a trace file.
 *
 *   0    4    8    12   16                       80          104              1088
 *   +----+----+----+----+------- prev ----------+---- hdr ----+---- recs[len] ----+
 *   |busy|len |nrec|pad | tid pid end args[6]   | 0 0 0 BATCH | sc sw sc wk ...   |
 *   +----+----+----+----+-----------------------+-------------+-------------------+
 *
 * Records are whole, 8-byte multiples and at most SONDE_BATCH_REC_MAX
 * bytes; the batch is written out as soon as it has no room left for the
 * largest, before any other record of the CPU goes to the ring (so a CPU's
 * records reach its ring in the order they were made), by the flush_batch
 * program that user space runs on the CPU with BPF_PROG_TEST_RUN every
 * drain pass (so records never wait longer than a pass), and by user space
 * itself after the programs are detached. nrec counts the records, for the
 * LOST record of a batch the ring refused.
 *
 * Syscall records travel packed (ring_pack.h); prev is what the last
 * packed record of the batch held, zero in an empty batch, so every batch
 * unpacks on its own.
 *
 * busy: programs nest on a CPU (a wakeup from an interrupt inside
 * sys_exit, the flush IPI anywhere), always last in, first out. A program
 * that finds busy set leaves the batch alone and writes a whole record to
 * the ring directly; the reader orders records by time, so nothing depends
 * on the batch going first.
 */
#define SONDE_RING_BATCH 0xba7c
#define SONDE_BATCH_REC_MAX 104
#define SONDE_BATCH_BYTES 984

/* What a packed syscall record is packed against (ring_pack.h). */
struct sonde_pack_prev {
	__u32 tid;
	__u32 pid;
	__u64 end;
	__u64 args[6];
};

struct sonde_cpu_batch {
	__u32 busy;
	__u32 len; /* bytes of records in recs */
	__u32 nrec;
	__u32 _pad;
	struct sonde_pack_prev prev;
	struct sonde_hdr hdr; /* just before recs: the batch is one output */
	__u8 recs[SONDE_BATCH_BYTES];
};

_Static_assert(sizeof(struct sonde_ev_switch) <= SONDE_BATCH_REC_MAX &&
		       sizeof(struct sonde_ev_wakeup) <= SONDE_BATCH_REC_MAX,
	       "batched records fit SONDE_BATCH_REC_MAX");
_Static_assert(sizeof(struct sonde_cpu_batch) % 64 == 0, "batches never share a line");

#endif /* SONDE_RECORD_BPF_H */
