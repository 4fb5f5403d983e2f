// SPDX-License-Identifier: GPL-2.0
/*
 * Decoders of memory mapping calls whose arguments depend on each other
 * (mmap is with the descriptor decoders, in dec_io.c).
 */
#include <sys/mman.h>

#include "decode/strace/strace_int.h"

/* new_address means something, and strace shows it, only with
 * MREMAP_FIXED (not with MREMAP_DONTUNMAP alone). */
void dec_mremap(struct st *s)
{
	uint32_t flags = (uint32_t)st_arg(s, 3);

	pr_addr(s, st_arg(s, 0));
	st_sep(s);
	pr_ulong(s, st_arg(s, 1));
	st_sep(s);
	pr_ulong(s, st_arg(s, 2));
	st_sep(s);
	pr_flags(s, &x_mremap, flags, "MREMAP_???");
	if (!(flags & MREMAP_FIXED))
		return;
	st_sep(s);
	pr_addr(s, st_arg(s, 4));
}
