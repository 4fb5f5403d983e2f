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

/*
 * The vector the kernel filled, a byte per page of len, each shown as
 * its resident bit: strace shows the elements up to -s (all with -v).
 * Past what was captured (the snap length, or this decoder's 4096
 * pages) the array ends with "...".
 */
void dec_mincore(struct st *s)
{
	uint64_t len = st_arg(s, 1), vec = st_arg(s, 2);
	uint64_t n = len / 4096 + !!(len & 4095);
	uint8_t b[4096];
	size_t got;

	pr_addr(s, st_arg(s, 0));
	st_sep(s);
	pr_ulong(s, len);
	st_sep(s);
	st_entry_end(s);
	if (!st_ok(s) || !vec) {
		pr_addr(s, vec);
		return;
	}
	got = st_fetch_upto(s, SONDE_PL_EXIT, vec, b, n < sizeof(b) ? n : sizeof(b));
	if (!got)
		return;
	st_arr_begin(s);
	for (uint64_t i = 0; i < n; i++) {
		if (st_array_cut(s, i) || i >= got) {
			if (!s->j) {
				st_elem(s);
				sb_puts(s->o, "...");
			}
			break;
		}
		st_elem(s);
		pr_uint(s, b[i] & 1);
	}
	st_arr_end(s);
}
