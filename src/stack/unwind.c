// SPDX-License-Identifier: GPL-2.0
/*
 * Offline unwinding of the stacks record --user-stack captured. strace
 * stops the tracee and unwinds it live (Debian's 6.1 with libunwind:
 * registers from ptrace, memory from the process, mappings from
 * /proc/PID/maps). Here the three come from the trace: the registers and
 * stack bytes of the call (payload.h), the mappings from the images of
 * its process (maps.c). Frames are stepped with elfutils' libdw, from the
 * files' call-frame information, each file reported at the load bias its
 * mapping implies; they are printed and named as strace's libunwind
 * walker does (frame_cb, syms.c). Memory outside the copied stack cannot
 * be read: a frame whose CFI needs it ends the walk.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <string.h>
#include <unistd.h>

#include "stack/stack_int.h"

#define PAGE_MASK_ (~(uint64_t)0xfff)

/*
 * No separate debug files: libunwind, which names strace's frames, reads
 * none here either (with libc6-dbg installed, strace names ld.so's frames
 * from .dynsym). The CFI comes from the files' own .eh_frame and
 * .debug_frame, as libunwind's does.
 */
static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
			char **debuginfo_file_name)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file_name;
	(void)debuglink_file, (void)debuglink_crc, (void)debuginfo_file_name;
	return -1;
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = no_debuginfo,
	.section_address = dwfl_offline_section_address,
};

void ustk_proc_drop_dwfl(struct ustk_proc *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	p->dwfl = NULL;
}

/*
 * The load bias of the ELF file at path given one of its mappings: the
 * PT_LOAD segment the mapping's file offset starts is at vaddr in the
 * file and at start in memory. The file open (for libdw, which takes
 * it), or -1 when it is not ELF (a locale archive, a cache) or no
 * segment begins at that offset.
 */
static int elf_bias(const char *path, uint64_t start, uint64_t pgoff, uint64_t *bias)
{
	int fd = ustk_open_regular(path), rc = -1;
	size_t phnum;
	Elf *elf;

	if (fd < 0)
		return -1;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getphdrnum(elf, &phnum))
		goto out;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    (ph.p_offset & PAGE_MASK_) != pgoff)
			continue;
		*bias = start - (ph.p_vaddr & PAGE_MASK_);
		rc = 0;
		break;
	}
out:
	if (elf)
		elf_end(elf);
	if (rc)
		close(fd);
	return rc ? -1 : fd;
}

/* Was path reported already (one module per file)? */
static int reported(const struct ustk_proc *p, size_t upto, const char *path)
{
	for (size_t i = 0; i < upto; i++)
		if (!strcmp(p->img[i].path, path))
			return 1;
	return 0;
}

/*
 * libdw's thread callbacks: one thread, the sample's, whose registers
 * and memory are the captured ones.
 */
static pid_t cb_next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct ustk_sample *s = arg;

	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = s;
	return (pid_t)s->tid;
}

static bool cb_get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	(void)dwfl;
	(void)tid;
	*thread_argp = arg;
	return true;
}

static bool cb_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct ustk_sample *s = arg;

	(void)dwfl;
	if (addr < s->sp || addr - s->sp > s->len || s->len - (addr - s->sp) < sizeof(*result)) {
		/* Stack the copy left out: the walk ends for want of it. */
		if (addr >= s->sp && addr - s->sp < s->whole)
			s->cut_read = 1;
		return false;
	}
	memcpy(result, s->stack + (addr - s->sp), sizeof(*result));
	return true;
}

static bool cb_set_initial_registers(Dwfl_Thread *thread, void *thread_arg)
{
	struct ustk_sample *s = thread_arg;

	if (!dwfl_thread_state_registers(thread, 0, SONDE_UREGS_N, s->regs))
		return false;
	dwfl_thread_state_register_pc(thread, s->regs[SONDE_UREGS_N - 1]);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = cb_next_thread,
	.get_thread = cb_get_thread,
	.memory_read = cb_memory_read,
	.set_initial_registers = cb_set_initial_registers,
};

/*
 * A libdw session with every ELF file of p's images as a module. A file
 * that cannot be opened any more (deleted, another machine) is left
 * out: its frames print as strace prints frames of no module (nothing).
 */
static int proc_dwfl(struct ustk_proc *p)
{
	int n = 0;

	ustk_proc_drop_dwfl(p);
	p->dwfl = dwfl_begin(&offline_callbacks);
	if (!p->dwfl)
		return -ENOMEM;
	dwfl_report_begin(p->dwfl);
	for (size_t i = 0; i < p->nimg; i++) {
		const struct ustk_img *m = &p->img[i];
		uint64_t bias;
		int fd;

		if (reported(p, i, m->path) ||
		    (fd = elf_bias(m->path, m->start, m->pgoff, &bias)) < 0)
			continue;
		/* libdw owns fd once the module is reported (dwfl_end closes it) */
		if (dwfl_report_elf(p->dwfl, m->path, m->path, fd, bias, true))
			n++;
		else
			close(fd);
	}
	dwfl_report_end(p->dwfl, NULL, NULL);
	if (!n || !dwfl_attach_state(p->dwfl, NULL, (pid_t)p->tgid, &thread_callbacks, &p->s)) {
		ustk_proc_drop_dwfl(p);
		return -ENOENT;
	}
	p->dirty = 0;
	return 0;
}

int sonde_pl_has_stack(const struct sonde_payload *pl, unsigned int npl)
{
	for (unsigned int i = 0; i < npl; i++)
		if (pl[i].phase == SONDE_PL_REGS)
			return 1;
	return 0;
}

/* The registers and stack bytes of pl into s: NULL, or why the stack
 * cannot be unwound. */
static const char *pl_sample(const struct sonde_payload *pl, unsigned int npl, unsigned int which,
			     uint32_t tid, struct ustk_sample *s)
{
	const struct sonde_payload *regs = NULL, *stack = NULL;

	for (unsigned int i = 0; i < npl; i++)
		if (pl[i].phase == SONDE_PL_REGS && (!regs || pl[i].arg == which))
			regs = &pl[i];
	for (unsigned int i = 0; regs && i < npl; i++)
		if (pl[i].phase == SONDE_PL_STACK && pl[i].arg == regs->arg)
			stack = &pl[i];
	if (!regs || regs->captured != sizeof(s->regs))
		return "stack not captured: no registers";
	memcpy(s->regs, regs->data, sizeof(s->regs));
	s->tid = tid;
	s->sp = regs->addr;
	s->stack = NULL;
	s->len = s->whole = 0;
	s->cut_read = 0;
	if (!stack || stack->addr != s->sp)
		return "stack not captured";
	if (stack->flags & SONDE_PLF_UNREADABLE)
		return "stack not captured: unreadable";
	s->stack = stack->data;
	s->len = stack->captured;
	s->whole = stack->requested;
	return NULL;
}

struct walk {
	struct sonde_ustack *u;
	const struct ustk_proc *p;
	sonde_frame_fn fn;
	void *ctx;
	int depth;
	int stopped; /* fn asked to */
};

static int walk_error(struct walk *w, const char *why, uint64_t pc)
{
	struct sonde_frame f = { .pc = pc, .error = why };

	w->stopped = w->fn(w->ctx, &f);
	return DWARF_CB_ABORT;
}

/*
 * One frame, as strace 6.1 prints it (its libunwind walker): a pc in no
 * executable mapping ends the walk ("unexpected_backtracing_error", or
 * silently at 0); the offset in brackets is the pc's file offset in its
 * mapping; the name is looked up at the pc less one in a caller's frame
 * (the call instruction, not what follows a call that never returns),
 * its offset counted from the pc all the same.
 */
static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct walk *w = arg;
	struct sonde_frame f = { 0 };
	const struct ustk_img *m, *mn;
	bool activation;
	Dwarf_Addr pc;
	uint64_t at;

	if (!dwfl_frame_pc(state, &pc, &activation))
		return -1;
	if (w->depth++ == SONDE_STACK_FRAMES)
		return walk_error(w, "too many stack frames", 0);
	m = ustk_img_at(w->p, pc, 1);
	if (!m)
		return pc ? walk_error(w, "unexpected_backtracing_error", pc) : DWARF_CB_ABORT;
	f.pc = pc;
	f.module = m->path;
	f.rel = pc - m->start + m->pgoff;
	at = activation ? pc : pc - 1;
	mn = ustk_img_at(w->p, at, 0);
	if (mn && !ustk_sym_name(w->u, mn, at, &f.symbol, &f.sym_off))
		f.sym_off += pc - at;
	if (w->fn(w->ctx, &f)) {
		w->stopped = 1;
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

int sonde_ustack_unwind(struct sonde_ustack *u, uint32_t pid, uint32_t tid,
			const struct sonde_payload *pl, unsigned int npl, unsigned int which,
			sonde_frame_fn fn, void *ctx)
{
	struct walk w = { .u = u, .fn = fn, .ctx = ctx };
	struct ustk_proc *p;
	const char *why;
	int r;

	if (!sonde_pl_has_stack(pl, npl))
		return 1;
	p = ustk_proc_find(u, pid);
	/* An execve's stack from before the exec: the old address space,
	 * needed no more once a stack of the new program is unwound. */
	if (p && which == SONDE_USTACK_ENTRY && p->before)
		p = p->before;
	else if (p)
		ustk_proc_drop_before(p);
	if (!p) {
		walk_error(&w, "stack not unwound: no file mappings known for the process", 0);
		return 0;
	}
	w.p = p;
	why = pl_sample(pl, npl, which, tid, &p->s);
	if (why) {
		walk_error(&w, why, 0);
		return 0;
	}
	if (p->dirty && (r = proc_dwfl(p))) {
		if (r == -ENOMEM)
			return r;
		walk_error(&w, "stack not unwound: no module of the process could be opened", 0);
		return 0;
	}
	r = dwfl_getthread_frames(p->dwfl, (pid_t)tid, frame_cb, &w);
	/* strace's walk stops silently where libunwind cannot step; one
	 * that ran out of the bytes --user-stack kept says so. */
	(void)r;
	if (!w.stopped && p->s.cut_read)
		walk_error(&w, "stack cut short: record with a larger --user-stack", 0);
	return 0;
}
