// SPDX-License-Identifier: GPL-2.0
/*
 * The NUMA memory policy calls as strace 6.1 prints them: mbind,
 * set_mempolicy, get_mempolicy, migrate_pages, move_pages.
 *
 * A node mask is an array of longs holding maxnode - 1 bits (the kernel's
 * get_nodes reads that many), printed as zero-padded hex words:
 * [0x00000000000001, 0000000000000000] for maxnode 129. The recorder
 * captures exactly those words (SONDE_CAP_NODEMASK).
 */
#include <inttypes.h>

#include <sonde/syscalls.h>

#include "decode/strace/strace_int.h"

/* <linux/mempolicy.h>; MPOL_WEIGHTED_INTERLEAVE (6) is newer than
 * strace 6.1, which prints it as MPOL_???. */
XLAT_DEF(x_mpol_modes, 0, XN(0, "MPOL_DEFAULT"), XN(1, "MPOL_PREFERRED"), XN(2, "MPOL_BIND"),
	 XN(3, "MPOL_INTERLEAVE"), XN(4, "MPOL_LOCAL"), XN(5, "MPOL_PREFERRED_MANY"));
XLAT_DEF(x_mpol_mode_flags, 0, XN(1 << 15, "MPOL_F_STATIC_NODES"),
	 XN(1 << 14, "MPOL_F_RELATIVE_NODES"), XN(1 << 13, "MPOL_F_NUMA_BALANCING"));
XLAT_DEF(x_mbind_flags, 0, XN(1, "MPOL_MF_STRICT"), XN(2, "MPOL_MF_MOVE"),
	 XN(4, "MPOL_MF_MOVE_ALL"));
XLAT_DEF(x_get_mempolicy_flags, 0, XN(1, "MPOL_F_NODE"), XN(2, "MPOL_F_ADDR"),
	 XN(4, "MPOL_F_MEMS_ALLOWED"));
XLAT_DEF(x_move_pages_flags, 0, XN(2, "MPOL_MF_MOVE"), XN(4, "MPOL_MF_MOVE_ALL"));

#define MPOL_MODE_FLAGS 0xe000

/*
 * A known mode with flags: strace joins the names itself, so -X raw
 * shows the number and -X verbose both.
 */
static void pr_mode_flagged(struct st *s, uint64_t v, const char *mode)
{
	char num[24], sym[96];
	size_t k = (size_t)snprintf(sym, sizeof(sym), "%s", mode);

	for (unsigned int i = 0; i < x_mpol_mode_flags.n; i++)
		if (v & x_mpol_mode_flags.e[i].val && k < sizeof(sym))
			k += (size_t)snprintf(sym + k, sizeof(sym) - k, "|%s",
					      x_mpol_mode_flags.e[i].name);
	snprintf(num, sizeof(num), "%#" PRIx64, v);
	pr_symexpr(s, num, sym);
}

/* A policy mode: MPOL_BIND, MPOL_INTERLEAVE|MPOL_F_STATIC_NODES. */
static void pr_mode(struct st *s, uint64_t v)
{
	const char *mode = xlat_name(&x_mpol_modes, v & ~(uint64_t)MPOL_MODE_FLAGS);
	struct st_cap c;
	struct st *t;

	if (!(v & MPOL_MODE_FLAGS)) {
		pr_xval(s, &x_mpol_modes, v, "MPOL_???");
		return;
	}
	t = st_cap_begin(s, &c);
	if (mode)
		pr_mode_flagged(t, v, mode);
	else
		pr_flags(t, &x_mpol_mode_flags, v, "MPOL_F_???");
	st_cap_flags(s, &c);
}

static void pr_node_word(struct st *s, uint64_t v)
{
	if (s->j)
		st_juint(s, v);
	else
		sb_printf(s->o, "%#016" PRIx64, v);
}

static void pr_int_member(struct st *s, uint64_t v)
{
	pr_int(s, (uint32_t)v);
}

/* move_pages' status: a node, or a negated errno (-EFAULT). */
static void pr_page_status(struct st *s, uint64_t v)
{
	if (s->j)
		pr_int(s, (uint32_t)v);
	else
		pr_errno_text(s, (uint32_t)v, 1);
}

static void pr_nodemask(struct st *s, int phase, uint64_t a, uint64_t maxnode)
{
	uint64_t n = (maxnode + 62) / 64;

	/* maxnode + 62 wrapped, or a single bit: nothing strace can show. */
	if (n < maxnode / 64 || (maxnode && !n))
		pr_addr(s, a);
	else
		pr_mem_array(s, phase, a, n, 8, pr_node_word);
}

void dec_mbind(struct st *s)
{
	pr_addr(s, st_arg(s, 0));
	st_sep(s);
	pr_ulong(s, st_arg(s, 1));
	st_sep(s);
	pr_mode(s, st_arg(s, 2));
	st_sep(s);
	pr_nodemask(s, SONDE_PL_ENTRY, st_arg(s, 3), st_arg(s, 4));
	st_sep(s);
	pr_ulong(s, st_arg(s, 4));
	st_sep(s);
	pr_flags(s, &x_mbind_flags, (uint32_t)st_arg(s, 5), "MPOL_???");
}

void dec_set_mempolicy(struct st *s)
{
	pr_mode(s, (uint32_t)st_arg(s, 0));
	st_sep(s);
	pr_nodemask(s, SONDE_PL_ENTRY, st_arg(s, 1), st_arg(s, 2));
	st_sep(s);
	pr_ulong(s, st_arg(s, 2));
}

/* Everything is printed at exit, the mode in brackets: [MPOL_BIND]. */
void dec_get_mempolicy(struct st *s)
{
	uint64_t a = st_arg(s, 0);
	uint32_t mode;

	st_entry_end(s);
	if (a && st_ok(s) && st_peek(s, SONDE_PL_EXIT, a, &mode, sizeof(mode))) {
		st_arr_begin(s);
		st_elem(s);
		pr_xval(s, &x_mpol_modes, mode, "MPOL_???");
		st_arr_end(s);
	} else {
		pr_unfetched(s, SONDE_PL_EXIT, a);
	}
	st_sep(s);
	pr_nodemask(s, SONDE_PL_EXIT, st_arg(s, 1), st_arg(s, 2));
	st_sep(s);
	pr_ulong(s, st_arg(s, 2));
	st_sep(s);
	pr_addr(s, st_arg(s, 3));
	st_sep(s);
	pr_flags(s, &x_get_mempolicy_flags, st_arg(s, 4), "MPOL_???");
}

void dec_migrate_pages(struct st *s)
{
	pr_pid(s, st_arg(s, 0));
	st_sep(s);
	pr_ulong(s, st_arg(s, 1));
	st_sep(s);
	pr_nodemask(s, SONDE_PL_ENTRY, st_arg(s, 2), st_arg(s, 1));
	st_sep(s);
	pr_nodemask(s, SONDE_PL_ENTRY, st_arg(s, 3), st_arg(s, 1));
}

/* The pages and nodes at entry; each page's status at exit. */
void dec_move_pages(struct st *s)
{
	uint64_t n = st_arg(s, 1);

	pr_pid(s, st_arg(s, 0));
	st_sep(s);
	pr_ulong(s, n);
	st_sep(s);
	pr_mem_array(s, SONDE_PL_ENTRY, st_arg(s, 2), n, 8, pr_addr);
	st_sep(s);
	pr_mem_array(s, SONDE_PL_ENTRY, st_arg(s, 3), n, 4, pr_int_member);
	st_sep(s);
	st_entry_end(s);
	pr_mem_array(s, SONDE_PL_EXIT, st_arg(s, 4), n, 4, pr_page_status);
	st_sep(s);
	pr_flags(s, &x_move_pages_flags, (uint32_t)st_arg(s, 5), "MPOL_???");
}
