/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User stacks, unwound offline (src/stack/): what strace -k prints, from
 * what record --user-stack captured (payload.h: the registers and the
 * stack bytes of each call; events.h: the files each process mapped).
 *
 * The unwinder follows the modules' DWARF call-frame information with
 * elfutils' libdw, as strace does, against the files on this machine at
 * the paths recorded: a trace printed where those files differ (another
 * machine, a library upgraded since) names the wrong symbols.
 */
#ifndef SONDE_STACK_H
#define SONDE_STACK_H

#include <stdint.h>
#include <linux/types.h>
#include <sonde/events.h>
#include <sonde/strace.h>

/* Most frames unwound per stack (strace's limit). */
#define SONDE_STACK_FRAMES 256

struct sonde_frame {
	uint64_t pc;	    /* the frame's pc: a caller's is a return address */
	const char *error;  /* not a frame: why the walk ended (then only pc,
			     * 0 or where the walk met it, is set) */
	const char *module; /* path of the file mapped at pc */
	const char *symbol; /* nearest symbol at or below pc; NULL: none */
	uint64_t sym_off;   /* pc - the symbol's address */
	uint64_t rel;	    /* pc as an offset in the module's file:
			     * strace's [0x...] */
};

/* Called per frame, innermost first; non-zero stops the walk. */
typedef int (*sonde_frame_fn)(void *ctx, const struct sonde_frame *f);

struct sonde_ustack;

struct sonde_ustack *sonde_ustack_new(void);
void sonde_ustack_free(struct sonde_ustack *u);

/*
 * Learns the address spaces from the records, in time order: IMAGE
 * (mapped files), FORK (a child process starts with its parent's),
 * EXIT (the process is gone). Other types are ignored. 0 or -ENOMEM.
 */
int sonde_ustack_record(struct sonde_ustack *u, const struct sonde_hdr *rec);

/* Do these payloads (a call's, a signal's) carry a captured stack? */
int sonde_pl_has_stack(const struct sonde_payload *pl, unsigned int npl);

/*
 * Unwinds the stack in the payloads pl of thread tid of process pid (a
 * call's, or a delivered signal's), the one read at which (payload.h,
 * SONDE_USTACK_EXIT or _ENTRY; the other when the call has only that),
 * calling fn per frame, innermost first, and
 * last, when the walk ended on one, with an error "frame" (strace's
 * "too many stack frames", "unexpected_backtracing_error"; sonde's when
 * the stack was not captured whole). 0, 1 when the call has no stack,
 * or -ENOMEM.
 */
int sonde_ustack_unwind(struct sonde_ustack *u, uint32_t pid, uint32_t tid,
			const struct sonde_payload *pl, unsigned int npl, unsigned int which,
			sonde_frame_fn fn, void *ctx);

#endif /* SONDE_STACK_H */
