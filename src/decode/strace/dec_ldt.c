// SPDX-License-Identifier: GPL-2.0
/*
 * x86 segment descriptors as strace 6.1 prints them: the struct
 * user_desc of modify_ldt, set_thread_area and get_thread_area (the last
 * two are i386 calls, of the same layout; a 64-bit caller gets ENOSYS,
 * but strace still shows what it passed).
 */
#include <asm/ldt.h>
#include <string.h>

#include "decode/strace/strace_int.h"

/* base_addr=0x001000: strace's "%#0*x" over 8 columns, so 0 is 00000000. */
static void pr_desc_hex(struct st *s, const char *name, uint32_t v)
{
	st_field(s, name);
	if (s->j)
		st_juint(s, v);
	else
		sb_printf(s->o, "%#08x", v);
}

/* The members after entry_number, and the closing brace. */
static void pr_desc_rest(struct st *s, const struct user_desc *d)
{
	pr_desc_hex(s, "base_addr", d->base_addr);
	pr_desc_hex(s, "limit", d->limit);
	pr_u32_field(s, "seg_32bit", d->seg_32bit);
	pr_u32_field(s, "contents", d->contents);
	pr_u32_field(s, "read_exec_only", d->read_exec_only);
	pr_u32_field(s, "limit_in_pages", d->limit_in_pages);
	pr_u32_field(s, "seg_not_present", d->seg_not_present);
	pr_u32_field(s, "useable", d->useable);
	/* 64-bit code segments: strace shows the bit to 64-bit callers only. */
	if (!(s->sc->hdr.flags & SONDE_SC_COMPAT))
		pr_u32_field(s, "lm", d->lm);
	st_obj_end(s);
}

/* The whole struct as given at entry; NULL or the address if unread. */
static void pr_user_desc(struct st *s, uint64_t a)
{
	struct user_desc d;

	if (!st_fetch(s, SONDE_PL_ENTRY, a, &d, sizeof(d)))
		return;
	st_obj_begin(s);
	st_field(s, "entry_number");
	pr_id(s, d.entry_number);
	pr_desc_rest(s, &d);
}

/* The descriptor is shown only when bytecount is its size; the call is
 * all input for strace, even func 0's read (the buffer before the call). */
void dec_modify_ldt(struct st *s)
{
	uint64_t n = st_arg(s, 2);

	pr_int(s, (uint32_t)st_arg(s, 0));
	st_sep(s);
	if (n == sizeof(struct user_desc))
		pr_user_desc(s, st_arg(s, 1));
	else
		pr_addr(s, st_arg(s, 1));
	st_sep(s);
	pr_ulong(s, n);
}

/* A successful call says which entry it chose: " (entry_number=12)". */
void dec_set_thread_area(struct st *s)
{
	struct user_desc d;
	struct strbuf b;
	struct st t;

	pr_user_desc(s, st_arg(s, 0));
	if (!st_ok(s) || !st_peek(s, SONDE_PL_EXIT, st_arg(s, 0), &d, sizeof(d)))
		return;
	st_res_begin(s, &t, &b, "entry_number");
	sb_printf(&b, " (entry_number=%u)", d.entry_number);
	if (t.j)
		pr_uint(&t, d.entry_number);
	st_res_end(s, &t, &b);
}

/* entry_number is input, the rest output: "{entry_number=12, ...}" when
 * the call failed. */
void dec_get_thread_area(struct st *s)
{
	uint64_t a = st_arg(s, 0);
	struct user_desc in, out;

	if (!st_fetch(s, SONDE_PL_ENTRY, a, &in.entry_number, sizeof(in.entry_number)))
		return;
	st_obj_begin(s);
	st_field(s, "entry_number");
	pr_id(s, in.entry_number);
	st_entry_end(s);
	if (!st_ok(s) || !st_peek(s, SONDE_PL_EXIT, a, &out, sizeof(out))) {
		st_obj_end_cut(s);
		return;
	}
	/* JSON keeps the member's first value: an object has one key each. */
	if (out.entry_number != in.entry_number && !s->j) {
		sb_puts(s->o, " => ");
		pr_id(s, out.entry_number);
	}
	pr_desc_rest(s, &out);
}
