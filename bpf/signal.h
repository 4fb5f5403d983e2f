/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Signals of the traced set: generation (a signal sent to a traced task,
 * tp_btf/signal_generate) and delivery (a traced task dequeues one on its
 * way back to user space, tp_btf/signal_deliver). Both fire for every
 * signal of the machine; the traced-set test comes first.
 *
 * Why generation too: without ptrace the kernel drops a signal whose
 * action is to ignore it (SIGCHLD, SIGWINCH, SIGURG, SIGCONT by default,
 * or SIG_IGN) when it is sent, so it is never delivered; and a fatal
 * signal with the default action (SIGTERM, SIGINT...) turns into a
 * group-wide SIGKILL at send time. strace, a ptracer, sees both as
 * deliveries; the generation record with its result and the target's
 * action at that moment lets readers tell these cases apart.
 *
 * Record (struct sonde_ev_signal, 104 bytes, events.h):
 *
 *   0     24               72        80         88     92     96     100
 *   +-----+----------------+---------+----------+------+------+------+----+
 *   | hdr | siginfo (raw)  | handler | sa_flags |sender|sender|result|pad |
 *   |     |                |         |          | pid  | tid  |      |    |
 *   |     |                |         |          | ip (deliver)|      |    |
 *   +-----+----------------+---------+----------+------+------+------+----+
 */
#ifndef SONDE_BPF_SIGNAL_H
#define SONDE_BPF_SIGNAL_H

#define SI_USER 0
#define SI_KERNEL 0x80
/* <linux/sched/signal.h>; a macro, so not in BTF. Stable since 2.6. */
#define SIGNAL_GROUP_EXIT 0x4

/*
 * The siginfo the tracepoint got. info may be SEND_SIG_NOINFO (0) or
 * SEND_SIG_PRIV (1) rather than a pointer: then the siginfo is the one the
 * kernel builds for those (kernel/signal.c __send_signal_locked): SI_USER
 * from current (pid, uid, as seen from the initial namespaces) or
 * SI_KERNEL with no source.
 */
static __always_inline __u16 sig_info(struct sonde_siginfo *si, int sig, __u64 *ctx,
				      int from_current)
{
	__u64 cur = 0;

	/* The verifier types a tp_btf pointer argument as a valid kernel
	 * object, never 0 or 1, and prunes any test for those values as
	 * dead code (seen on 6.18: a NULL info took the "1" branch). Read
	 * the argument as a plain number instead. */
	bpf_probe_read_kernel(&cur, sizeof(cur), &ctx[1]);
	__builtin_memset(si, 0, sizeof(*si));
	if (cur > 1) {
		bpf_probe_read_kernel(si, sizeof(*si), (void *)cur);
		si->_pad = 0; /* padding in the kernel's struct */
		return 0;
	}
	si->signo = sig;
	si->code = cur ? SI_KERNEL : SI_USER;
	if (!cur && from_current)
		si->fields[0] = (__u32)(bpf_get_current_pid_tgid() >> 32) |
				(bpf_get_current_uid_gid() << 32);
	return cur ? SONDE_SIG_PRIV : SONDE_SIG_NOINFO;
}

static __always_inline struct sonde_ev_signal *sig_reserve(struct emit *em, __u64 now)
{
	if (emit_begin(em, now))
		return NULL;
	return emit_reserve(em, sizeof(struct sonde_ev_signal), now);
}

SEC("tp_btf/signal_deliver")
int BPF_PROG(signal_deliver, int sig, struct kernel_siginfo *info, struct k_sigaction *ka)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct sonde_ev_signal *r;
	struct emit em;
	__u32 tgid = t->tgid;
	__u16 flags;
	__u64 now;

	if (!tgid_traced(tgid))
		return 0;
	now = bpf_ktime_get_ns();
	/* strace -k prints the stack a signal interrupted after its line.
	 * Before the record: a reader holding the records of one time
	 * until a later one comes has these when the signal comes. */
	if (ustack_size)
		ustack_emit(now, tgid, t->pid, SONDE_PL_NR_SIGNAL, SONDE_USTACK_EXIT);
	r = sig_reserve(&em, now);
	if (!r)
		return 0;
	flags = sig_info(&r->si, sig, ctx, 0);
	hdr_fill(&r->hdr, now, tgid, t->pid, SONDE_REC_SIGNAL, sizeof(*r), em.cpu, flags);
	r->handler = (__u64)ka->sa.sa_handler;
	r->sa_flags = ka->sa.sa_flags;
	/* The registers saved at the task's entry into the kernel: user
	 * mode's, as signals are delivered on the way back to it. */
	r->ip = BPF_CORE_READ((struct pt_regs *)bpf_task_pt_regs(t), ip);
	r->result = 0;
	r->_pad = 0;
	emit_submit(&em, r);
	return 0;
}

SEC("tp_btf/signal_generate")
int BPF_PROG(signal_generate, int sig, struct kernel_siginfo *info, struct task_struct *task,
	     int group, int result)
{
	struct task_struct *cur = bpf_get_current_task_btf();
	struct sonde_ev_signal *r;
	struct sighand_struct *sh;
	struct emit em;
	__u32 tgid = task->tgid;
	__u16 flags;
	__u64 now;

	if (!tgid_traced(tgid))
		return 0;
	now = bpf_ktime_get_ns();
	r = sig_reserve(&em, now);
	if (!r)
		return 0;
	flags = sig_info(&r->si, sig, ctx, 1);
	if (group)
		flags |= SONDE_SIG_GROUP;
	if (task->signal->flags & SIGNAL_GROUP_EXIT)
		flags |= SONDE_SIG_EXITING;
	hdr_fill(&r->hdr, now, tgid, task->pid, SONDE_REC_SIGGEN, sizeof(*r), em.cpu, flags);
	/* The action table is shared by the group; the kernel holds its
	 * lock here. sig is 1..64 for every caller; the mask keeps the
	 * index provably inside action[64] for the verifier. */
	sh = task->sighand;
	r->handler = 0;
	r->sa_flags = 0;
	if (sh && sig > 0) {
		bpf_probe_read_kernel(&r->handler, sizeof(r->handler),
				      &sh->action[(sig - 1) & 63].sa.sa_handler);
		bpf_probe_read_kernel(&r->sa_flags, sizeof(r->sa_flags),
				      &sh->action[(sig - 1) & 63].sa.sa_flags);
	}
	r->sender_pid = cur->tgid;
	r->sender_tid = cur->pid;
	r->result = result;
	r->_pad = 0;
	emit_submit(&em, r);
	return 0;
}

#endif /* SONDE_BPF_SIGNAL_H */
