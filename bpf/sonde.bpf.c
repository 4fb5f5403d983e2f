// SPDX-License-Identifier: GPL-2.0
/*
 * sonde recorder: syscalls, scheduler and process-lifecycle events of the
 * traced set of processes, into one ring buffer per CPU.
 *
 * Every program starts with the traced-set test (traced.h): an untraced
 * task costs a helper-free bitmap load. Only then come the syscall
 * selection, the entry state and the ring.
 *
 * All hooks are BTF tracepoints (tp_btf): arguments are typed, task and
 * pt_regs pointers are trusted and read with plain loads. fentry and
 * kprobes are not available on the target kernels (lockdown), tracepoints
 * are.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include <sonde/events.h>
#include <sonde/record_bpf.h>
#include <sonde/ring_pack.h>

/* kfuncs (6.2+), for the slot rescue. */
extern struct task_struct *bpf_task_from_pid(s32 pid) __ksym;
extern void bpf_task_release(struct task_struct *p) __ksym;

#include "traced.h"
#include "ring.h"
#include "capture.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* x86-64 syscall numbers the programs treat specially. */
#define NR_RT_SIGRETURN 15
#define NR_CLONE 56
#define NR_FORK 57
#define NR_VFORK 58
#define NR_EXECVE 59
#define NR_EXIT 60
#define NR_EXIT_GROUP 231
#define NR_EXECVEAT 322
#define NR_CLONE3 435

/* i386 numbers of exec, which renames the task (exec.h); they are
 * recorded as the x86-64 execve and execveat (events.h). */
#define NR32_EXECVE 11
#define NR32_EXECVEAT 358
/* arch/x86/include/asm/thread_info.h: the task is in an i386 syscall. The
 * kernel sets it on entry from 32-bit code or int $0x80 and clears it on
 * the way back to user space, after the sys_exit tracepoint. */
#define TS_COMPAT 0x0002

/* <linux/sched.h> clone flags, for fork and vfork. */
#define CLONE_VM 0x100
#define CLONE_VFORK 0x4000
#define SIGCHLD 17
/* <linux/sched.h> task flags: io_uring's workers, and the user workers
 * (vhost_task: KVM's, vhost's) */
#define PF_IO_WORKER_ 0x00000010
#define PF_USER_WORKER_ 0x00004000
/* <linux/sched/signal.h> signal_struct.flags */
#define SIGNAL_GROUP_EXIT_ 0x00000004
#define SIGKILL 9

/* Filters, fixed before load (.rodata is frozen, so the verifier prunes
 * the branches they disable). */
const volatile __u64 sel[SONDE_NR_SYSCALLS / 64];
const volatile bool sel_others; /* numbers past every range selected */
/* i386 calls: the number each is recorded as, the selection of those
 * recorded as their x86-64 twin (by the twin's number: -e trace=open@32
 * is not open@64), and of the SONDE_NR_I386 range. */
const volatile __u32 compat_nr[SONDE_NR_I386_LEN];
const volatile __u64 sel32[SONDE_NR_SYSCALLS / 64];
const volatile __u64 sel_i386[SONDE_NR_I386_LEN / 64];
const volatile __u64 sel_x32[SONDE_NR_X32_LEN / 64]; /* SONDE_NR_X32 + n */
const volatile bool failed_only;
const volatile bool no_sched;
const volatile bool comm_set;
const volatile __u32 nr_cpus = 1; /* possible CPUs, bounds id_forget() */
const volatile char comm_match[SONDE_COMM_LEN];
/* record --ip: each call's user instruction pointer (strace -i). */
const volatile bool rec_ip;

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC); /* required for task storage */
	__type(key, int);
	__type(value, struct sonde_inflight);
} inflight SEC(".maps");

/* -e inject (record_bpf.h): the marks of tampered calls, by tid. */
const volatile bool inject_on;
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SONDE_INJECT_MARKS);
	__type(key, __u32);
	__type(value, struct sonde_inject_mark);
} inject_marks SEC(".maps");

/* Numbers past the table (invalid, negative, x32) still enter the
 * kernel and fail with ENOSYS: recorded unless -e trace= left them out.
 * i386 is the call's SONDE_SC_COMPAT (a constant at entry). */
static __always_inline int nr_selected(__u32 nr, bool i386)
{
	__u32 k = nr - SONDE_NR_I386, x = nr - SONDE_NR_X32;

	if (nr < SONDE_NR_SYSCALLS && i386)
		return (sel32[nr / 64] >> (nr % 64)) & 1;
	if (nr < SONDE_NR_SYSCALLS)
		return (sel[nr / 64] >> (nr % 64)) & 1;
	if (k < SONDE_NR_I386_LEN)
		return (sel_i386[k / 64] >> (k % 64)) & 1;
	if (x < SONDE_NR_X32_LEN)
		return (sel_x32[x / 64] >> (x % 64)) & 1;
	return sel_others;
}

/* What an i386 call is recorded as (events.h); past the table, out of
 * every range, as any unknown number. */
static __always_inline __u32 i386_nr(long id)
{
	__u32 n = id;

	return n < SONDE_NR_I386_LEN ? compat_nr[n] : SONDE_NR_I386 + n;
}

/*
 * Is the task in an i386 call (the kernel's TS_COMPAT)? The task's status
 * costs a helper call, ~20 ns a syscall here, so it is asked only when
 * the registers leave a doubt: 32-bit code runs with the 32-bit code
 * segment, and the syscall instruction of 64-bit code leaves the return
 * address in rcx, which the entry code saves as both cx and ip. What
 * passes both tests is int $0x80 in 64-bit code (an i386 call), or a
 * kernel whose entry does not clobber rcx (FRED), where the helper
 * decides every time.
 */
#define USER_CS_64 0x33 /* __USER_CS */

static __always_inline bool in_i386_call(struct pt_regs *regs)
{
	if (regs->cs != USER_CS_64)
		return true;
	if (regs->cx == regs->ip)
		return false;
	return bpf_get_current_task_btf()->thread_info.status & TS_COMPAT;
}

#include "ustack.h"

/* The six argument registers of the call's ABI. */
static __always_inline void syscall_args(struct pt_regs *regs, bool i386, __u64 *a)
{
	if (i386) {
		a[0] = (__u32)regs->bx;
		a[1] = (__u32)regs->cx;
		a[2] = (__u32)regs->dx;
		a[3] = (__u32)regs->si;
		a[4] = (__u32)regs->di;
		a[5] = (__u32)regs->bp;
		return;
	}
	a[0] = regs->di;
	a[1] = regs->si;
	a[2] = regs->dx;
	a[3] = regs->r10; /* the syscall ABI passes arg 4 in r10, not rcx */
	a[4] = regs->r8;
	a[5] = regs->r9;
}

/* The parent's clone flags are needed for fork records even when the
 * clone-family calls themselves are not selected. */
static __always_inline int nr_is_clone(__u32 nr)
{
	return nr == NR_CLONE || nr == NR_FORK || nr == NR_VFORK || nr == NR_CLONE3;
}

static __always_inline int is_failure(long ret)
{
	return ret < 0 && ret >= -4095;
}

/* EINTR and the kernel's ERESTART* codes (512-516): how a blocked call
 * ends when a signal, fatal ones included, interrupts it. */
static __always_inline int is_interrupted(long ret)
{
	return ret == -4 || (ret <= -512 && ret >= -516);
}

/*
 * The task dies on its way out of the call, without returning to user
 * space: SIGKILL is in its own pending set, which the kernel fills when it
 * kills a whole group (kill -9, another thread's exit_group or execve)
 * and when a fatal signal is converted to a group SIGKILL. strace, which
 * never sees such a call return, prints "= ?"; it does see a fatal signal
 * other than SIGKILL (its ptrace stops keep the kernel from converting
 * it), so a group exit whose code is such a signal is left unmarked.
 */
static __noinline bool dies_in_syscall(void)
{
	struct task_struct *t = bpf_get_current_task_btf();
	int sig;

	if (!((t->pending.signal.sig[0] >> (SIGKILL - 1)) & 1))
		return false;
	sig = t->signal->group_exit_code & 0x7f;
	return sig == 0 || sig == SIGKILL;
}

static __always_inline void syscall_fill(struct sonde_ev_syscall *r, struct sonde_cpu_state *cs,
					 __u32 cpu, __u32 nr, __u64 ts, __u64 dur, long ret,
					 const __u64 *args, __u16 flags)
{
	hdr_fill(&r->hdr, ts, cs->id_tgid, cs->id_tid, SONDE_REC_SYSCALL, sizeof(*r), cpu, flags);
	r->ret = ret;
	r->dur = dur;
	r->args[0] = args[0];
	r->args[1] = args[1];
	r->args[2] = args[2];
	r->args[3] = args[3];
	r->args[4] = args[4];
	r->args[5] = args[5];
	r->nr = nr;
	r->_pad = 0;
}

/*
 * Into the CPU's batch (ring.h, emit_small), packed, with no helper call;
 * whole, into the ring, while an interrupted program holds the batch.
 */
static __always_inline void emit_syscall(__u32 cpu, struct sonde_cpu_state *cs, __u32 nr,
					 __u64 ts, __u64 dur, long ret, const __u64 *args,
					 __u16 flags, __u64 now)
{
	struct sonde_ev_syscall *r;
	struct emit em;
	__u32 size;

	r = emit_small(&em, cpu, cs, sizeof(*r), now);
	if (!r)
		return;
	if (em.b) {
		size = sonde_sc_pack(&em.b->prev, (void *)r, cs->id_tgid, cs->id_tid, nr, ts, dur,
				     ret, args, flags);
		emit_small_end(&em, r, size, now);
		return;
	}
	syscall_fill(r, cs, cpu, nr, ts, dur, ret, args, flags);
	emit_small_end(&em, r, sizeof(*r), now);
}

/* Moves an in-flight slot into its owner's task storage. */
static __always_inline void slot_spill(struct sonde_cpu_slot *slot, struct task_struct *owner)
{
	struct sonde_inflight *e;

	e = bpf_task_storage_get(&inflight, owner, NULL, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (e)
		__builtin_memcpy(e, &slot->e, sizeof(*e));
	slot->e.active = 0;
}

/*
 * The slot still holds the call of a task whose switch-out was never
 * reported: look the owner up by tid (an acquired, trusted reference) and
 * spill there. Rare; never on the path of a well-behaved kernel.
 */
static __noinline void slot_rescue(struct sonde_cpu_slot *slot)
{
	struct task_struct *owner = bpf_task_from_pid(slot->tid);

	if (owner) {
		if ((__u64)owner == slot->task)
			slot_spill(slot, owner);
		bpf_task_release(owner);
	}
	slot->e.active = 0;
}

/*
 * Hot path: the traced-set test, the selection bitmap, the clock and nine
 * stores into this CPU's slot. Untraced tasks stop after one helper call
 * (current task) and two loads.
 */
/*
 * Who is current, from the CPU's identity cache (record_bpf.h): a miss
 * costs the helper call and refills it.
 */
static __always_inline struct sonde_cpu_state *current_id(struct pt_regs *regs, __u32 *cpu)
{
	struct sonde_cpu_state *cs = cpu_state(cpu);
	struct task_struct *t;

	if (!cs)
		return NULL;
	if (cs->id_regs != (__u64)regs) {
		t = bpf_get_current_task_btf();
		cs->id_task = (__u64)t;
		cs->id_tgid = t->tgid;
		cs->id_tid = t->pid;
		cs->id_regs = (__u64)regs;
	}
	return cs;
}

/* Erases a dying (or exec'ing) task from every CPU's identity cache. */
static __always_inline void id_forget(struct task_struct *p)
{
	__u64 regs = bpf_task_pt_regs(p);

	for (__u32 i = 0; i < SONDE_MAX_CPUS && i < nr_cpus; i++)
		if (cpus[i].id_regs == regs)
			cpus[i].id_regs = 0;
}

/*
 * record --ip: the address after the call's syscall instruction, kept
 * in the in-flight entry, as a data-less payload record of the call
 * (payload.h, SONDE_PLR_PHASE_IP), emitted just before the call's own
 * record (so --failed-only has none for the calls it drops). Into the
 * CPU's batch like the call's record (a reserve and a submit of its own,
 * which also flushed the batch, cost ~340 ns a call on the syscall loop).
 */
static __always_inline void ip_emit(__u32 cpu, struct sonde_cpu_state *cs, __u64 ts, __u32 nr,
				    __u64 ip)
{
	struct sonde_ev_payload *p;
	struct emit em;

	p = emit_small(&em, cpu, cs, sizeof(*p), ts);
	if (!p)
		return;
	payload_facts_hdr(p, ts, cs->id_tgid, cs->id_tid, nr, 0, SONDE_PLR_PHASE_IP, 0, cpu);
	p->addr = ip;
	emit_small_end(&em, p, sizeof(*p), ts);
}

/*
 * The CPU's slot takes the current task's call nr (entered at now), its
 * arguments from regs. With --ip the address is kept from here: a
 * successful execve returns at the new program's entry point,
 * rt_sigreturn where the signal struck.
 */
static __always_inline void slot_take(struct sonde_cpu_state *cs, struct pt_regs *regs, __u32 nr,
				      __u64 now, __u16 flags, const bool i386)
{
	if (cs->slot.e.active && cs->slot.task != cs->id_task)
		slot_rescue(&cs->slot);
	cs->slot.task = cs->id_task;
	cs->slot.tgid = cs->id_tgid;
	cs->slot.tid = cs->id_tid;
	cs->slot.e.ts = now;
	syscall_args(regs, i386, cs->slot.e.args);
	cs->slot.e.nr = nr;
	cs->slot.e.active = 1;
	cs->slot.e.flags = flags;
	if (rec_ip)
		cs->slot.e.ip = regs->ip;
}

/*
 * The entry of call nr: its selection, then the CPU's slot (or, for exit
 * and exit_group, which never return, the record at once). i386 is a
 * constant at each of the two call sites, so that the x86-64 copy has no
 * trace of the i386 ABI. Returns 1 when the slot holds a selected call
 * whose memory is to be captured now.
 */
static __always_inline int enter(struct pt_regs *regs, struct sonde_cpu_state *cs, __u32 cpu,
				 __u32 nr, const bool i386)
{
	__u16 flags = i386 ? SONDE_SC_COMPAT : 0;
	__u64 now;

	/* An mmap of a file names a module of the stacks (ustack.h). */
	if (!nr_selected(nr, i386) && !nr_is_clone(nr) && !(ustack_size && !i386 && nr == NR_MMAP))
		return 0;
	now = bpf_ktime_get_ns();
	if (nr == NR_EXIT || nr == NR_EXIT_GROUP) {
		__u64 args[6];

		syscall_args(regs, i386, args);
		if (failed_only)
			return 0;
		if (rec_ip)
			ip_emit(cpu, cs, now, nr, regs->ip);
		/* They do not return: their stack is read at entry. */
		if (ustack_size && !i386)
			ustack_emit(now, cs->id_tgid, cs->id_tid, nr, SONDE_USTACK_EXIT);
		emit_syscall(cpu, cs, nr, now, 0, 0, args, SONDE_SC_NORETURN | flags, now);
		return 0;
	}
	slot_take(cs, regs, nr, now, flags, i386);
	/* With --failed-only the entry items wait for sys_exit (see there);
	 * rt_sigreturn's mask lies in the signal frame at the entry's stack
	 * pointer, which its exit has replaced by the interrupted one. */
	if (failed_only && nr == NR_RT_SIGRETURN)
		cs->slot.e.sp = regs->sp;
	/* strace -k shows an execve's stack from before the exec (the
	 * first one of the command it starts excepted: the exit's, read at
	 * sys_exit as for every call). -Z: the exit's is the same, as only
	 * failed calls are kept. */
	if (ustack_size && !i386 && !failed_only && (nr == NR_EXECVE || nr == NR_EXECVEAT) &&
	    nr_selected(nr, i386))
		ustack_emit(now, cs->id_tgid, cs->id_tid, nr, SONDE_USTACK_ENTRY);
	return cap_snaplen && !failed_only && nr_selected(nr, i386);
}

/* i386 calls, rare: their copy of enter() stays off the hot path. */
static __noinline int enter_i386(struct pt_regs *regs, struct sonde_cpu_state *cs, __u32 cpu,
				 long id)
{
	if (!regs || !cs)
		return 0;
	return enter(regs, cs, cpu, i386_nr(id), true);
}

SEC("tp_btf/sys_enter")
int BPF_PROG(sys_enter, struct pt_regs *regs, long id)
{
	struct sonde_cpu_state *cs;
	__u32 cpu;
	int cap;

	cs = current_id(regs, &cpu);
	if (!cs || !tgid_traced(cs->id_tgid))
		return 0;
	if (in_i386_call(regs))
		cap = enter_i386(regs, cs, cpu, id);
	else
		cap = enter(regs, cs, cpu, id, false);
	/* Payload capture needs the trusted task (storage); the helper call
	 * is only made when capture is on (cap_snaplen is in .rodata). */
	if (cap)
		capture_enter(bpf_get_current_task_btf(), &cs->slot.e);
	return 0;
}

/*
 * The in-flight entry of the current task (task_struct address task): in
 * this CPU's slot if it has not been switched out since sys_enter, else in
 * its task storage. NULL if
 * none (a new task's first return from clone, or a call entered before the
 * task was traced).
 */
static __always_inline struct sonde_inflight *inflight_of(struct sonde_cpu_state *cs,
							  __u64 task)
{
	struct sonde_inflight *e;

	if (cs->slot.e.active && cs->slot.task == task)
		return &cs->slot.e;
	e = bpf_task_storage_get(&inflight, bpf_get_current_task_btf(), NULL, 0);
	if (e && e->active)
		return e;
	return NULL;
}

/* The in-flight entry of p, the current task (a tracepoint inside its
 * call: clone, exec), or NULL. */
static __always_inline struct sonde_inflight *current_inflight(struct task_struct *p)
{
	struct sonde_cpu_state *cs;
	__u32 cpu;

	cs = cpu_state(&cpu);
	return cs ? inflight_of(cs, (__u64)p) : NULL;
}

/*
 * A return that had no sys_enter. The kernel runs seccomp filters before
 * the sys_enter tracepoint; a filter's SECCOMP_RET_ERRNO, _TRAP or
 * _USER_NOTIF answer skips the call, yet its return passes sys_exit (the
 * exit work runs for every call). strace stops before seccomp and shows
 * such calls with the filter's result; so does sonde, from the registers,
 * which still hold the number and arguments, as a call entered and
 * returned now (SONDE_SC_NO_ENTRY), in this CPU's slot like any entry.
 *
 * Only under a filter: otherwise a return without entry is a call that
 * entered before its task was traced, or a new task's first return from
 * clone (0), which strace shows in the parent only; those two can also
 * happen under a filter, so a new task's return is left out here, and
 * the calls found blocked when a task joins the set are marked
 * SONDE_INFLIGHT_SKIP or _ATTACHED (record_bpf.h). i386 calls are left
 * out (their number would need in_i386_call's doubt resolved here).
 */
static __noinline struct sonde_inflight *unentered(struct pt_regs *regs, struct sonde_cpu_state *cs,
						   long ret)
{
	struct task_struct *t = bpf_get_current_task_btf();
	__u32 nr;

	if (!regs || !cs || !t->seccomp.mode || in_i386_call(regs))
		return NULL;
	nr = regs->orig_ax;
	if (nr >= SONDE_NR_SYSCALLS || !nr_selected(nr, false) || (nr_is_clone(nr) && !ret))
		return NULL;
	slot_take(cs, regs, nr, bpf_ktime_get_ns(), SONDE_SC_NO_ENTRY, false);
	cs->slot.e.sp = 0; /* read by capture_enter_late */
	return &cs->slot.e;
}

/* The flags the supervisor left for the call nr of thread tid, taken. */
static __noinline __u16 inject_marks_take(__u32 tid, __u32 nr)
{
	struct sonde_inject_mark *m = bpf_map_lookup_elem(&inject_marks, &tid);
	__u16 flags;

	if (!m || m->nr != nr)
		return 0;
	flags = m->flags;
	bpf_map_delete_elem(&inject_marks, &tid);
	return flags;
}

/*
 * The number comes from the entry state, not from the id argument:
 * rt_sigreturn restores orig_ax = -1 from the signal frame, so at exit the
 * id no longer names the call that entered.
 */
SEC("tp_btf/sys_exit")
int BPF_PROG(sys_exit, struct pt_regs *regs, long ret)
{
	struct sonde_cpu_state *cs;
	struct sonde_inflight *e;
	__u16 flags;
	__u32 cpu;
	__u64 now;

	cs = current_id(regs, &cpu);
	if (!cs)
		return 0;
	/* The slot only ever holds calls of traced tasks: the common case
	 * skips the traced-set test. */
	if (cs->slot.e.active && cs->slot.task == cs->id_task) {
		e = &cs->slot.e;
	} else {
		if (!tgid_traced(cs->id_tgid))
			return 0;
		e = inflight_of(cs, cs->id_task);
		if (!e)
			e = unentered(regs, cs, ret);
		if (!e)
			return 0;
		if (e->active == SONDE_INFLIGHT_SKIP) {
			e->active = 0;
			return 0;
		}
	}
	flags = (e->active == SONDE_INFLIGHT_ATTACHED ? SONDE_SC_ATTACHED : 0) | e->flags;
	e->active = 0;
	if (inject_on)
		flags |= inject_marks_take(cs->id_tid, e->nr);
	if (ustack_size && e->nr == NR_MMAP && !(flags & SONDE_SC_COMPAT) &&
	    !(e->args[3] & MAP_ANONYMOUS_) && !is_failure(ret))
		img_at(ret, bpf_ktime_get_ns(), cs->id_tgid, cs->id_tid, 0);
	if (!nr_selected(e->nr, flags & SONDE_SC_COMPAT))
		return 0;
	if (failed_only && !is_failure(ret))
		return 0;
	if (is_interrupted(ret) && dies_in_syscall())
		flags |= SONDE_SC_KILLED;
	/*
	 * --failed-only: entry payloads (paths, write buffers) are read here,
	 * once the call is known to have failed, rather than at sys_enter,
	 * where they would be emitted for calls then dropped above (whole
	 * file contents of successful writes). The caller's memory still
	 * holds what it passed: the call failed, and the thread was in it.
	 * failed_only is in .rodata: without -Z the verifier removes this
	 * but for calls with no entry (unentered), whose memory is read here.
	 */
	if (cap_snaplen && (failed_only || (flags & SONDE_SC_NO_ENTRY)))
		capture_enter_late(bpf_get_current_task_btf(), e);
	if (rec_ip && e->ip)
		ip_emit(cpu, cs, e->ts, e->nr, e->ip);
	if (cap_snaplen)
		capture_exit(bpf_get_current_task_btf(), e, ret);
	/* Where strace unwinds: at the exit stop (an execve's stack is the
	 * new program's, an rt_sigreturn's the interrupted code's). */
	if (ustack_size && !(flags & (SONDE_SC_COMPAT | SONDE_SC_KILLED)))
		ustack_emit(e->ts, cs->id_tgid, cs->id_tid, e->nr, SONDE_USTACK_EXIT);
	now = bpf_ktime_get_ns();
	emit_syscall(cpu, cs, e->nr, e->ts, now - e->ts, ret, e->args, flags, now);
	return 0;
}

/*
 * Never attached: user space runs it on each CPU whose batch holds records
 * (BPF_PROG_TEST_RUN with BPF_F_TEST_RUN_ON_CPU, an IPI) on every drain
 * pass, so a record waits at most one pass for a batch that does not fill.
 */
SEC("raw_tp")
int flush_batch(void *ctx)
{
	struct sonde_cpu_state *cs;
	void *ring;
	__u32 cpu;

	cs = cpu_state(&cpu);
	if (!cs)
		return 0;
	ring = bpf_map_lookup_elem(&rings, &cpu);
	if (ring)
		batch_flush_pending(ring, cs, cpu);
	return 0;
}

/*
 * comm through two 8-byte loads of the trusted task pointer (tp_btf):
 * plain loads the JIT turns into guarded ones, no helper call (a context
 * switch record takes two). The kernel keeps comm NUL-padded to 16 bytes.
 */
static __always_inline void read_comm(char *dst, struct task_struct *t)
{
	const __u64 *c = (const __u64 *)t->comm;

	((__u64 *)dst)[0] = c[0];
	((__u64 *)dst)[1] = c[1];
}

/*
 * Runs on every context switch of the machine, also with --no-sched: a
 * task leaving the CPU with its syscall in flight takes the slot along.
 * The check costs two loads when the slot is idle or not prev's.
 */
SEC("tp_btf/sched_switch")
int BPF_PROG(sched_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	struct sonde_ev_switch *r;
	struct sonde_cpu_state *cs;
	struct emit em;
	__u32 cpu;
	__u64 now;

	cs = cpu_state(&cpu);
	if (!cs)
		return 0;
	if (cs->slot.e.active && cs->slot.task == (__u64)prev)
		slot_spill(&cs->slot, prev);
	if (no_sched)
		return 0;
	if (!tgid_traced(prev->tgid) && !tgid_traced(next->tgid))
		return 0;
	now = bpf_ktime_get_ns();
	r = emit_small(&em, cpu, cs, sizeof(*r), now);
	if (!r)
		return 0;
	hdr_fill(&r->hdr, now, prev->tgid, prev->pid, SONDE_REC_SWITCH, sizeof(*r), cpu, 0);
	r->prev_prio = prev->prio;
	r->prev_state = prev_state;
	r->next_pid = next->tgid;
	r->next_tid = next->pid;
	r->next_prio = next->prio;
	r->_pad = 0;
	read_comm(r->prev_comm, prev);
	read_comm(r->next_comm, next);
	emit_small_end(&em, r, sizeof(*r), now);
	return 0;
}

static __always_inline void emit_wakeup(struct task_struct *p, __u16 flags)
{
	struct task_struct *waker = bpf_get_current_task_btf();
	struct sonde_ev_wakeup *r;
	struct sonde_cpu_state *cs;
	struct emit em;
	__u32 cpu;
	__u64 now;

	if (no_sched)
		return;
	if (!tgid_traced(p->tgid))
		return;
	cs = cpu_state_or_lost(&cpu);
	if (!cs)
		return;
	now = bpf_ktime_get_ns();
	r = emit_small(&em, cpu, cs, sizeof(*r), now);
	if (!r)
		return;
	hdr_fill(&r->hdr, now, p->tgid, p->pid, SONDE_REC_WAKEUP, sizeof(*r), cpu, flags);
	r->prio = p->prio;
	r->target_cpu = p->thread_info.cpu; /* task_cpu(p): where it will run */
	r->waker_pid = waker->tgid;
	r->waker_tid = waker->pid;
	emit_small_end(&em, r, sizeof(*r), now);
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(sched_wakeup, struct task_struct *p)
{
	emit_wakeup(p, 0);
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(sched_wakeup_new, struct task_struct *p)
{
	emit_wakeup(p, SONDE_WAKEUP_NEW);
	return 0;
}

/* Clone flags of the parent's in-flight clone-family call. */
static __always_inline __u16 fork_flags(struct task_struct *parent, __u64 *flags)
{
	/* The parent is current, inside its clone. */
	struct sonde_inflight *e = current_inflight(parent);

	*flags = 0;
	if (!e)
		return SONDE_FORK_FLAGS_UNKNOWN;
	switch (e->nr) {
	case NR_CLONE:
		*flags = e->args[0];
		return 0;
	case NR_CLONE3:
		/* struct clone_args starts with the u64 flags; the kernel just
		 * copied it from there, so the page is resident. */
		if (bpf_probe_read_user(flags, sizeof(*flags), (void *)e->args[0]))
			return SONDE_FORK_FLAGS_UNKNOWN;
		return 0;
	case NR_FORK:
		*flags = SIGCHLD;
		return 0;
	case NR_VFORK:
		*flags = CLONE_VM | CLONE_VFORK | SIGCHLD;
		return 0;
	}
	return SONDE_FORK_FLAGS_UNKNOWN;
}

/*
 * A child outside the initial pid namespace: its ids there (events.h,
 * struct sonde_ev_nspid). struct pid keeps one struct upid per level,
 * numbers[0] the initial namespace's, numbers[level] the task's own:
 *
 *   struct pid { ... unsigned int level; ... struct upid numbers[]; }
 *   struct upid { int nr; struct pid_namespace *ns; }
 *
 * The thread group's id is its leader's number at the same level (a new
 * process is its own leader). The kernel nests 32 levels at most.
 */
static __always_inline void nspid_emit(struct task_struct *child, __u64 now)
{
	struct pid *p = BPF_CORE_READ(child, thread_pid);
	struct pid *lp = BPF_CORE_READ(child, group_leader, thread_pid);
	unsigned int level = BPF_CORE_READ(p, level);
	struct sonde_ev_nspid *r;
	struct upid u, lu;
	struct emit em;

	if (!level || level > 31)
		return;
	if (bpf_probe_read_kernel(&u, sizeof(u), &p->numbers[level & 31]) ||
	    bpf_probe_read_kernel(&lu, sizeof(lu), &lp->numbers[level & 31]))
		return;
	if (emit_begin(&em, now))
		return;
	r = emit_reserve(&em, sizeof(*r), now);
	if (!r)
		return;
	hdr_fill(&r->hdr, now, child->tgid, child->pid, SONDE_REC_NSPID, sizeof(*r), em.cpu, 0);
	r->ns_inum = BPF_CORE_READ(u.ns, ns.inum);
	r->ns_tid = u.nr;
	r->ns_pid = lu.nr;
	r->level = level;
	r->_pad = 0;
	emit_submit(&em, r);
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(sched_process_fork, struct task_struct *parent, struct task_struct *child)
{
	struct sonde_ev_fork *r;
	struct emit em;
	__u64 now, flags;
	__u16 hflags;

	if (!tgid_traced(parent->tgid))
		return 0;
	if (child->tgid != parent->tgid)
		tgid_add(child->tgid);
	now = bpf_ktime_get_ns();
	hflags = fork_flags(parent, &flags);
	if (emit_begin(&em, now))
		return 0;
	r = emit_reserve(&em, sizeof(*r), now);
	if (!r)
		return 0;
	hdr_fill(&r->hdr, now, parent->tgid, parent->pid, SONDE_REC_FORK, sizeof(*r), em.cpu,
		 hflags);
	r->child_pid = child->tgid;
	r->child_tid = child->pid;
	r->clone_flags = flags;
	read_comm(r->child_comm, child);
	emit_submit(&em, r);
	nspid_emit(child, now);
	return 0;
}

static __always_inline int comm_matches(const char *comm)
{
	char c[SONDE_COMM_LEN];

	if (!comm_set)
		return 0;
	if (bpf_probe_read_kernel_str(c, sizeof(c), comm) < 0)
		return 0;
	for (int i = 0; i < SONDE_COMM_LEN; i++) {
		if (c[i] != comm_match[i])
			return 0;
		if (!c[i])
			return 1;
	}
	return 1;
}

#include "exec.h"
#include "signal.h"

/* The kernel's wait_task_zombie: a process that ended by a group exit
 * reports signal->group_exit_code, whatever its leader's own code. */
static __always_inline __u16 exit_flags(struct task_struct *p, bool group_dead)
{
	__u16 f = p->flags & (PF_IO_WORKER_ | PF_USER_WORKER_) ? SONDE_EXIT_WORKER : 0;

	if (group_dead)
		f |= SONDE_EXIT_GROUP_DEAD |
		     (p->signal->flags & SIGNAL_GROUP_EXIT_ ? SONDE_EXIT_GROUP_CODE : 0);
	return f;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(sched_process_exit, struct task_struct *p, bool group_dead)
{
	struct sonde_ev_exit *r;
	struct emit em;
	__u32 tgid = p->tgid;
	__u64 now;

	/* Every exiting task, traced or not: its stack may be reused. */
	id_forget(p);
	if (!tgid_traced(tgid))
		return 0;
	now = bpf_ktime_get_ns();
	if (!emit_begin(&em, now)) {
		r = emit_reserve(&em, sizeof(*r), now);
		if (r) {
			hdr_fill(&r->hdr, now, tgid, p->pid, SONDE_REC_EXIT, sizeof(*r), em.cpu,
				 exit_flags(p, group_dead));
			r->code = p->exit_code;
			r->group_code = r->hdr.flags & SONDE_EXIT_GROUP_CODE
						? p->signal->group_exit_code
						: 0;
			emit_submit(&em, r);
		}
	}
	/* After the record: user space stops when ntraced reaches 0 and
	 * drains the rings, so the last exit must already be in its ring. */
	if (group_dead)
		tgid_del(tgid);
	return 0;
}
