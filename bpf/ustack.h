/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User stacks (record --user-stack, strace -k): for each recorded call
 * and delivered signal, the user registers and a copy of the stack from
 * sp up (payload.h, SONDE_PLR_PHASE_REGS and _STACK), and for each
 * process the files it maps (events.h, SONDE_REC_IMAGE). The unwinding
 * is done offline with the files' DWARF CFI (src/stack/): Debian's
 * libraries keep no frame pointers, so bpf_get_stack's frame-pointer walk
 * would lose the frames strace finds.
 *
 * Where the images come from:
 *
 *   exec (sched_process_exec)   every mapping of the program, from the
 *                               one holding AT_PHDR up while they follow
 *                               each other, and of its interpreter, from
 *                               AT_BASE (the auxiliary vector the kernel
 *                               saved in mm->saved_auxv)
 *   mmap (sys_exit)             the mapping at the returned address, when
 *                               a file backs it
 *   attach (user space)         /proc/PID/maps (src/record/rec_maps.c)
 *
 * each named by the dentry walk of scm.h (fdpath_step), found with
 * bpf_find_vma, whose callback runs with the mmap lock held, so the vma
 * and its file cannot go away under the walk.
 *
 * The stack is copied from sp to the end of its mapping (the vma's
 * vm_end: nothing past it can be read; for the main thread, just past
 * its initial stack pointer) or --user-stack bytes, whichever is less,
 * by cap_bytes with c.holes: chunked, shed under ring pressure like any
 * payload, and pages not present (never touched) read as zeros.
 */
#ifndef SONDE_BPF_USTACK_H
#define SONDE_BPF_USTACK_H

/* Bytes of stack copied per call; 0: no user stacks (.rodata, so that
 * the verifier removes all of this from the programs then). */
const volatile __u32 ustack_size;

#define NR_MMAP 9
#define MAP_ANONYMOUS_ 0x20
#define AT_PHDR_ 3
#define AT_BASE_ 7
#define AUXV_PAIRS 28 /* mm->saved_auxv holds AT_VECTOR_SIZE (56) words */
#define PAGE_SHIFT_ 12
#define VM_EXEC_ 0x4
#define IMG_SEGMENTS 8 /* mappings followed per file at exec */
/* Bytes copied above the main thread's initial stack pointer: argc and
 * the first argv pointers, all present. */
#define USTACK_ABOVE_START 256
/* Deeper than this below start_stack: not the main thread's stack. */
#define USTACK_MAIN_MAX (64ull << 20)

/* Room for the last component's read at the masked offset (scm.h). */
struct img_scratch {
	struct sonde_ev_image ev;
	__u8 data[FDPATH_MAX + FDPATH_NAME];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SONDE_MAX_CPUS);
	__type(key, __u32);
	__type(value, struct img_scratch);
} img_buf SEC(".maps");

struct img_ctx {
	__u64 ts;
	__u32 tgid, tid;
	__u16 flags;
	__u64 file; /* img_file: the file followed, 0 before the first */
	__u64 next; /* img_file: where the next mapping would start */
};

/*
 * bpf_find_vma callback: the file mapped at the address, as an image
 * record. Anonymous memory has no vm_file: nothing.
 */
static long img_vma(struct task_struct *t, struct vm_area_struct *vma, void *ctx)
{
	struct img_ctx *c = ctx;
	struct fdpath_walk w = {};
	struct img_scratch *b;
	struct file *f = vma->vm_file;
	struct emit em;
	__u32 key, size;
	__u16 flags = c->flags;

	c->next = 0;
	if (!f || (c->file && (__u64)f != c->file) || emit_begin(&em, c->ts))
		return 0;
	c->file = (__u64)f;
	c->next = vma->vm_end;
	key = em.cpu;
	b = bpf_map_lookup_elem(&img_buf, &key);
	if (!b)
		return 0;
	fdpath_walk_init(&w, bpf_get_current_task_btf(), f, b->data);
	bpf_loop(FDPATH_DEPTH, fdpath_step, &w, 0);
	if (w.cut || !w.done || w.off > FDPATH_MAX)
		flags |= SONDE_IMAGE_TRUNC;
	c->flags &= ~SONDE_IMAGE_EXEC; /* on the first image only */
	if (vma->vm_flags & VM_EXEC_)
		flags |= SONDE_IMAGE_X;
	if (w.off > FDPATH_MAX)
		w.off = 0;
	size = (sizeof(b->ev) + w.off + 1 + 7) & ~7u;
	hdr_fill(&b->ev.hdr, c->ts, c->tgid, c->tid, SONDE_REC_IMAGE, size, em.cpu, flags);
	b->ev.start = vma->vm_start;
	b->ev.end = vma->vm_end;
	b->ev.pgoff = vma->vm_pgoff << PAGE_SHIFT_;
	b->ev.path_len = w.off;
	b->ev._pad[0] = b->ev._pad[1] = b->ev._pad[2] = 0;
	/* The NUL after the last component and the padding (the slot
	 * holds an older path's bytes): 8 zeros, in the slack past data's
	 * FDPATH_MAX when the path is that long. */
	bpf_probe_read_kernel(b->data + (w.off & (FDPATH_MAX - 1)), 8, cap_zero);
	if (bpf_ringbuf_output(em.ring, b, size <= sizeof(*b) ? size : sizeof(*b),
			       BPF_RB_NO_WAKEUP))
		cap_lost(&em, c->ts);
	return 0;
}

/* The file mapped at addr in the current task, if any, as an image. */
static __always_inline void img_at(__u64 addr, __u64 ts, __u32 tgid, __u32 tid, __u16 flags)
{
	struct img_ctx c = { .ts = ts, .tgid = tgid, .tid = tid, .flags = flags };

	bpf_find_vma(bpf_get_current_task_btf(), addr, img_vma, &c, 0);
}

/*
 * Every mapping of the file mapped at addr, upwards while they follow
 * each other: the segments the kernel's ELF loader mapped for a program
 * or its interpreter (text, data...), which no mmap call reports.
 */
static long img_step(__u32 i, void *ctx)
{
	struct img_ctx *c = ctx;

	if (!c->next || bpf_find_vma(bpf_get_current_task_btf(), c->next, img_vma, c, 0))
		return 1;
	return 0;
}

/* A bpf_loop: the find_vma callback is verified once, not per mapping. */
static __always_inline void img_file(__u64 addr, __u64 ts, __u32 tgid, __u32 tid, __u16 flags)
{
	struct img_ctx c = { .ts = ts, .tgid = tgid, .tid = tid, .flags = flags, .next = addr };

	bpf_loop(IMG_SEGMENTS, img_step, &c, 0);
}

/*
 * The auxiliary vector entry of type `type` the kernel gave the new
 * program, 0 when absent (AT_BASE of a static program).
 */
static __always_inline __u64 auxv_get(struct mm_struct *mm, __u64 type)
{
	__u64 kv[2];

	for (__u32 i = 0; i < AUXV_PAIRS; i++) {
		if (bpf_probe_read_kernel(kv, sizeof(kv), &mm->saved_auxv[2 * i]) || !kv[0])
			return 0;
		if (kv[0] == type)
			return kv[1];
	}
	return 0;
}

/*
 * At exec: the new program and its interpreter. ts is the execve's entry
 * time less one: the call's stack, read at its exit, is the new
 * program's, and the reader, which orders records by time, must have
 * these images before the call (whose records carry the entry time).
 */
static __always_inline void img_exec(struct task_struct *p, __u64 ts)
{
	struct mm_struct *mm = p->mm;
	__u64 phdr, base;

	if (!mm)
		return;
	phdr = auxv_get(mm, AT_PHDR_);
	base = auxv_get(mm, AT_BASE_);
	if (phdr)
		img_file(phdr, ts, p->tgid, p->pid, SONDE_IMAGE_EXEC);
	if (base)
		img_file(base, ts, p->tgid, p->pid, 0);
}

struct ustack_regs {
	struct sonde_ev_payload p;
	__u64 r[SONDE_UREGS_N];
};

static long ustack_vma_end(struct task_struct *t, struct vm_area_struct *vma, void *ctx)
{
	*(__u64 *)ctx = vma->vm_end;
	return 0;
}

/*
 * The current task's user registers and stack, as payloads of the call
 * entered at ts (arg: SONDE_USTACK_EXIT, or _ENTRY for execve's stack
 * before the exec). A global function: verified once, whichever program
 * calls it.
 */
__noinline int ustack_emit(__u64 ts, __u32 tgid, __u32 tid, __u32 nr, __u32 arg)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(t);
	struct cap_call c = { .ts = ts,
			      .tgid = tgid,
			      .tid = tid,
			      .nr = nr,
			      .phase = SONDE_PLR_PHASE_STACK,
			      .holes = 1 };
	struct cap_req r = { .arg = arg };
	struct ustack_regs *p;
	struct emit em;
	__u64 sp, start, end = 0;

	/* i386 code: its stacks are not unwound (ABI of 4-byte words). */
	if (!regs || regs->cs != USER_CS_64 || emit_begin(&em, ts))
		return 0;
	sp = regs->sp;
	p = emit_reserve(&em, sizeof(*p), ts);
	if (!p)
		return 0;
	payload_facts_hdr(&p->p, ts, tgid, tid, nr, arg, SONDE_PLR_PHASE_REGS, sizeof(p->r),
			  em.cpu);
	p->p.addr = sp;
	p->r[0] = regs->ax;
	p->r[1] = regs->dx;
	p->r[2] = regs->cx;
	p->r[3] = regs->bx;
	p->r[4] = regs->si;
	p->r[5] = regs->di;
	p->r[6] = regs->bp;
	p->r[7] = sp;
	p->r[8] = regs->r8;
	p->r[9] = regs->r9;
	p->r[10] = regs->r10;
	p->r[11] = regs->r11;
	p->r[12] = regs->r12;
	p->r[13] = regs->r13;
	p->r[14] = regs->r14;
	p->r[15] = regs->r15;
	p->r[16] = regs->ip;
	emit_submit(&em, p);
	/*
	 * The main thread's stack ends, for the unwinder, a little past its
	 * initial stack pointer (argc, then argv, envp, auxv, all written by
	 * the kernel): no frame lies higher, and above them is a gap of up to
	 * 8 KiB left at random (create_elf_tables, arch_align_stack) and the
	 * strings. Any other stack (a thread's: mmap'd, at least the 128 MiB
	 * mmap gap below) ends where its mapping does, which bpf_find_vma
	 * says (~100 ns a call, under the mmap lock: the main thread's, most
	 * calls, skip it).
	 */
	start = BPF_CORE_READ(t, mm, start_stack);
	if (start >= sp && start - sp < USTACK_MAIN_MAX)
		end = start + USTACK_ABOVE_START;
	else if (bpf_find_vma(t, sp, ustack_vma_end, &end, 0) || end <= sp)
		return 0;
	/* requested: the whole stack; captured less when --user-stack cut
	 * it. cap_chunk reads around pages not present (c.holes); the
	 * CAP_SMALL bytes of a shorter copy lie in pages the frames just
	 * above sp wrote. */
	r.addr = sp;
	r.requested = r.returned = end - sp > 0xffffffff ? 0xffffffff : end - sp;
	r.len = end - sp < ustack_size ? end - sp : ustack_size;
	cap_bytes(&c, &r);
	return 0;
}

#endif /* SONDE_BPF_USTACK_H */
