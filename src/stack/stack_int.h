/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside src/stack/: the address spaces learnt from the trace (maps.c)
 * and their libdw sessions (unwind.c).
 *
 *   sonde_ustack
 *     procs[] ──> ustk_proc {tgid, images[], dwfl, dirty}
 *                   images: every file mapping the trace reported, in
 *                   order; a new one drops those it covers entirely
 *                   dwfl: libdw's view of the modules, rebuilt from the
 *                   images when they changed (dirty)
 */
#ifndef SONDE_STACK_INT_H
#define SONDE_STACK_INT_H

#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdwfl.h>
#include <sonde/stack.h>
#include <sonde/payload.h>

struct ustk_img {
	uint64_t start, end, pgoff;
	int exec; /* PROT_EXEC: strace prints frames only there */
	char *path;
};

/* What libdw's callbacks read: the sample being unwound. */
struct ustk_sample {
	uint32_t tid;
	uint64_t regs[SONDE_UREGS_N];
	uint64_t sp;
	const uint8_t *stack;
	size_t len;   /* bytes copied */
	size_t whole; /* bytes up to the stack's end: more when cut */
	int cut_read; /* the unwinder asked for bytes past the copy */
};

struct ustk_proc {
	uint32_t tgid;
	struct ustk_img *img;
	size_t nimg, cap;
	Dwfl *dwfl;
	int dirty;
	struct ustk_sample s;
	/* The address space before the last exec: the execve's stack read
	 * at its entry is unwound in it (the program's images come first,
	 * stamped before the call). */
	struct ustk_proc *before;
};

struct sonde_ustack {
	struct ustk_proc **procs;
	size_t nprocs, cap;
	struct ustk_symtab *files; /* syms.c: the symbol tables read */
};

/*
 * syms.c: the name strace 6.1 gives a frame. Debian's strace names
 * frames with libunwind (unw_get_proc_name), whose rule is not libdw's:
 * the nearest STT_FUNC symbol at or below the address, in .symtab or
 * .dynsym, sized or not, the first in section order on a tie, and none
 * when farther than the file's size. addr is the pc (the pc less one in
 * a caller's frame, *off then counted from the pc); the mapping m holds
 * it. 0 with *name (valid until sonde_ustack_free), -1 when none.
 */
int ustk_sym_name(struct sonde_ustack *u, const struct ustk_img *m, uint64_t addr,
		  const char **name, uint64_t *off);
void ustk_syms_free(struct sonde_ustack *u);

struct ustk_proc *ustk_proc_find(struct sonde_ustack *u, uint32_t tgid);
/* The mapping holding addr (the latest reported), or NULL; with exec
 * set, NULL too when it is not executable. */
const struct ustk_img *ustk_img_at(const struct ustk_proc *p, uint64_t addr, int exec);
/* Ends the libdw session of p. */
void ustk_proc_drop_dwfl(struct ustk_proc *p);
/*
 * The file at path, opened for reading if it is a regular file, else -1:
 * a trace names what it likes (a FIFO would block the open, a device
 * the reads).
 */
int ustk_open_regular(const char *path);
/* Forgets p's address space from before its exec. */
void ustk_proc_drop_before(struct ustk_proc *p);

#endif /* SONDE_STACK_INT_H */
