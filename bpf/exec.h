/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Exec and rename: the events that change a process's identity, and the
 * places where --comm starts tracing a process.
 *
 * Exec record as reserved in the ring (the ring slot is always the maximum
 * size because bpf_ringbuf_reserve takes a constant; hdr.size says how much
 * of it is the record, and only that much reaches the file):
 *
 *   +----------------+----------------------+-------------------+-----+
 *   | sonde_ev_exec  | filename\0           | argv0\0argv1\0... | pad |
 *   +----------------+----------------------+-------------------+-----+
 *                    |<- filename_len <= 1024 ->|<- argv_len <= 3072 ->|
 */
#ifndef SONDE_BPF_EXEC_H
#define SONDE_BPF_EXEC_H

#define EXEC_FILENAME_MAX 1024
#define EXEC_ARGV_MAX (SONDE_EXEC_DATA_MAX - EXEC_FILENAME_MAX)

struct exec_slot {
	struct sonde_ev_exec ev;
	char data[SONDE_EXEC_DATA_MAX + 8]; /* + room to zero the padding */
};

static __always_inline __u32 exec_argv(struct exec_slot *r, __u32 off, struct task_struct *p,
				       __u16 *flags)
{
	struct mm_struct *mm = p->mm;
	__u64 start, end, len;

	if (!mm)
		return 0;
	start = mm->arg_start;
	end = mm->arg_end;
	if (end <= start)
		return 0;
	len = end - start;
	if (len > EXEC_ARGV_MAX) {
		len = EXEC_ARGV_MAX;
		*flags |= SONDE_EXEC_ARGV_TRUNC;
	}
	/* The new stack was just written by the kernel: resident, so the
	 * non-faulting read succeeds. Bounds: off <= 1024 and len <= 3072
	 * keep the write inside data[] for the verifier. */
	if (bpf_probe_read_user(r->data + off, len, (void *)start)) {
		*flags |= SONDE_EXEC_ARGV_TRUNC;
		return 0;
	}
	r->data[(off + len - 1) & (SONDE_EXEC_DATA_MAX - 1)] = 0;
	return len;
}

/*
 * The entry time of the execve in progress less one, else now (ustack.h,
 * img_exec: the images must come before the call in time order).
 */
static __always_inline __u64 exec_entry_ts(struct task_struct *p, __u64 now)
{
	struct sonde_inflight *e = current_inflight(p);

	return e && e->ts ? e->ts - 1 : now;
}

/*
 * A --comm match made from within a call (execve, prctl): the call entered
 * before its task was traced, and its return must not pass for one a
 * seccomp filter answered (unentered, sonde.bpf.c).
 */
static __always_inline void skip_current_call(struct task_struct *task)
{
	struct task_struct *cur = bpf_get_current_task_btf();
	struct sonde_inflight *e;

	if (task != cur)
		return;
	e = bpf_task_storage_get(&inflight, cur, NULL, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (e && !e->active)
		e->active = SONDE_INFLIGHT_SKIP;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(sched_process_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	struct exec_slot *r;
	struct emit em;
	__u32 tgid = p->tgid;
	__u32 flen, alen, end;
	__u16 flags = 0;
	long n;
	__u64 now;

	/* A non-leader thread that execs takes the leader's tid. */
	if (old_pid != p->pid)
		id_forget(p);
	if (!tgid_traced(tgid)) {
		if (!comm_matches(p->comm))
			return 0;
		tgid_add(tgid);
		skip_current_call(p);
	}
	now = bpf_ktime_get_ns();
	if (emit_begin(&em, now))
		return 0;
	r = emit_reserve(&em, sizeof(*r), now);
	if (!r)
		return 0;
	n = bpf_probe_read_kernel_str(r->data, EXEC_FILENAME_MAX, bprm->filename);
	flen = n > 0 ? n : 0;
	if (flen > EXEC_FILENAME_MAX)
		flen = EXEC_FILENAME_MAX;
	alen = exec_argv(r, flen, p, &flags);
	end = flen + alen;
	/* Zero the alignment padding: the ring slot holds older bytes. */
	for (int i = 0; i < 8; i++)
		if (end + i < sizeof(r->data))
			r->data[end + i] = 0;
	hdr_fill(&r->ev.hdr, now, tgid, p->pid, SONDE_REC_EXEC,
		 SONDE_REC_ALIGN(sizeof(r->ev) + end), em.cpu, flags);
	r->ev.old_tid = old_pid;
	r->ev.argc = bprm->argc;
	r->ev.filename_len = flen;
	r->ev.argv_len = alen;
	r->ev._pad = 0;
	read_comm(r->ev.comm, p);
	emit_submit(&em, r);
	if (ustack_size)
		img_exec(p, exec_entry_ts(p, now));
	return 0;
}

/*
 * exec renames the task too (begin_new_exec -> __set_task_comm fires
 * task_rename); the exec record already carries the new name, so renames
 * made from within execve/execveat are not recorded twice.
 */
static __always_inline int in_exec(struct task_struct *task)
{
	struct task_struct *cur = bpf_get_current_task_btf();
	struct pt_regs *regs;
	long nr;

	if (task != cur)
		return 0;
	regs = (struct pt_regs *)bpf_task_pt_regs(cur);
	nr = BPF_CORE_READ(regs, orig_ax);
	if (cur->thread_info.status & TS_COMPAT)
		return nr == NR32_EXECVE || nr == NR32_EXECVEAT;
	return nr == NR_EXECVE || nr == NR_EXECVEAT;
}

SEC("tp_btf/task_rename")
int BPF_PROG(task_rename, struct task_struct *task, const char *comm)
{
	struct sonde_ev_comm *r;
	struct emit em;
	__u32 tgid = task->tgid;
	__u64 now;

	bool joins = !tgid_traced(tgid);

	if (joins && !comm_matches(comm))
		return 0;
	/* The exec program records this one (and adds a --comm match). */
	if (in_exec(task))
		return 0;
	if (joins) {
		tgid_add(tgid);
		skip_current_call(task);
	}
	now = bpf_ktime_get_ns();
	if (emit_begin(&em, now))
		return 0;
	r = emit_reserve(&em, sizeof(*r), now);
	if (!r)
		return 0;
	hdr_fill(&r->hdr, now, tgid, task->pid, SONDE_REC_COMM, sizeof(*r), em.cpu, 0);
	bpf_probe_read_kernel_str(r->comm, sizeof(r->comm), comm);
	emit_submit(&em, r);
	return 0;
}

#endif /* SONDE_BPF_EXEC_H */
