// SPDX-License-Identifier: GPL-2.0
/*
 * Watching files and naming them by handle, as strace 6.1 prints them:
 * fanotify_init, fanotify_mark, name_to_handle_at, open_by_handle_at;
 * and remap_file_pages, whose flags are mmap's.
 */
#include <inttypes.h>
#include <string.h>

#include "decode/strace/strace_int.h"

XLAT_DEF(x_fan_class, 0, XN(0x0, "FAN_CLASS_NOTIF"), XN(0x4, "FAN_CLASS_CONTENT"),
	 XN(0x8, "FAN_CLASS_PRE_CONTENT"));
XLAT_DEF(x_fan_init_flags, 0, XN(0x1, "FAN_CLOEXEC"), XN(0x2, "FAN_NONBLOCK"),
	 XN(0x10, "FAN_UNLIMITED_QUEUE"), XN(0x20, "FAN_UNLIMITED_MARKS"),
	 XN(0x40, "FAN_ENABLE_AUDIT"), XN(0x80, "FAN_REPORT_PIDFD"),
	 XN(0x100, "FAN_REPORT_TID"), XN(0x200, "FAN_REPORT_FID"),
	 XN(0x400, "FAN_REPORT_DIR_FID"), XN(0x800, "FAN_REPORT_NAME"),
	 XN(0x1000, "FAN_REPORT_TARGET_FID"));
XLAT_DEF(x_fan_mark_flags, 0, XN(0x1, "FAN_MARK_ADD"), XN(0x2, "FAN_MARK_REMOVE"),
	 XN(0x4, "FAN_MARK_DONT_FOLLOW"), XN(0x8, "FAN_MARK_ONLYDIR"),
	 XN(0x10, "FAN_MARK_MOUNT"), XN(0x20, "FAN_MARK_IGNORED_MASK"),
	 XN(0x40, "FAN_MARK_IGNORED_SURV_MODIFY"), XN(0x80, "FAN_MARK_FLUSH"),
	 XN(0x100, "FAN_MARK_FILESYSTEM"), XN(0x200, "FAN_MARK_EVICTABLE"),
	 XN(0x400, "FAN_MARK_IGNORE"));
XLAT_DEF(x_fan_events, 0, XN(0x1, "FAN_ACCESS"), XN(0x2, "FAN_MODIFY"),
	 XN(0x4, "FAN_ATTRIB"), XN(0x8, "FAN_CLOSE_WRITE"), XN(0x10, "FAN_CLOSE_NOWRITE"),
	 XN(0x20, "FAN_OPEN"), XN(0x40, "FAN_MOVED_FROM"), XN(0x80, "FAN_MOVED_TO"),
	 XN(0x100, "FAN_CREATE"), XN(0x200, "FAN_DELETE"), XN(0x400, "FAN_DELETE_SELF"),
	 XN(0x800, "FAN_MOVE_SELF"), XN(0x1000, "FAN_OPEN_EXEC"), XN(0x4000, "FAN_Q_OVERFLOW"),
	 XN(0x8000, "FAN_FS_ERROR"), XN(0x10000, "FAN_OPEN_PERM"),
	 XN(0x20000, "FAN_ACCESS_PERM"), XN(0x40000, "FAN_OPEN_EXEC_PERM"),
	 XN(0x8000000, "FAN_EVENT_ON_CHILD"), XN(0x10000000, "FAN_RENAME"),
	 XN(0x40000000, "FAN_ONDIR"));
XLAT_DEF(x_handle_at_flags, 0, XN(0x400, "AT_SYMLINK_FOLLOW"), XN(0x1000, "AT_EMPTY_PATH"));

#define FAN_CLASS_BITS 0xc
#define FAN_NOFD (-1)
#define MAX_HANDLE_SZ 128

/* FAN_CLASS_NOTIF|FAN_CLOEXEC: the class is an enum in two bits, and
 * strace prints it even when 0. */
void dec_fanotify_init(struct st *s)
{
	uint32_t f = (uint32_t)st_arg(s, 0), rest = f & ~FAN_CLASS_BITS;
	struct st_cap c;
	struct st *t = st_cap_begin(s, &c);

	pr_xval(t, &x_fan_class, f & FAN_CLASS_BITS, "FAN_CLASS_???");
	if (rest) {
		sb_putc(t->o, '|');
		pr_flags(t, &x_fan_init_flags, rest, "FAN_???");
	}
	st_cap_flags(s, &c);
	st_sep(s);
	pr_open_flags(s, (uint32_t)st_arg(s, 1));
}

void dec_fanotify_mark(struct st *s)
{
	int dirfd = (int)st_arg(s, 3);

	pr_int(s, st_arg(s, 0));
	st_sep(s);
	pr_flags(s, &x_fan_mark_flags, (uint32_t)st_arg(s, 1), "FAN_MARK_???");
	st_sep(s);
	pr_flags(s, &x_fan_events, st_arg(s, 2), "FAN_???");
	st_sep(s);
	if (dirfd == FAN_NOFD && !s->j)
		pr_symexpr(s, "-1", "FAN_NOFD");
	else
		pr_dirfd(s, (uint32_t)dirfd);
	st_sep(s);
	pr_path(s, st_arg(s, 4));
}

/* f_handle: handle_bytes of opaque bytes, always in hex. */
static void pr_fhandle_rest(struct st *s, int phase, uint64_t a, uint32_t bytes)
{
	int32_t type;
	uint8_t h[MAX_HANDLE_SZ];

	if (bytes > MAX_HANDLE_SZ || !st_peek(s, phase, a + 4, &type, sizeof(type)) ||
	    (bytes && !st_peek(s, phase, a + 8, h, bytes)))
		return;
	pr_int_field(s, "handle_type", type);
	st_field(s, "f_handle");
	pr_quoted(s, h, bytes, 0, 0, 1);
}

/*
 * {handle_bytes=128 => 8, handle_type=1, f_handle="\xdd..."}: the size
 * the caller gave and the one the kernel wrote back (which it does on
 * success and on EOVERFLOW); the handle itself on success.
 */
void dec_name_to_handle_at(struct st *s)
{
	uint64_t a = st_arg(s, 2);
	uint32_t in, out = 0;
	int have_out;

	pr_dirfd(s, st_arg(s, 0));
	st_sep(s);
	pr_path(s, st_arg(s, 1));
	st_sep(s);
	if (!a || !st_peek(s, SONDE_PL_ENTRY, a, &in, sizeof(in))) {
		pr_unfetched(s, SONDE_PL_ENTRY, a);
		st_entry_end(s);
	} else {
		st_obj_begin(s);
		pr_u32_field(s, "handle_bytes", in);
		st_entry_end(s);
		have_out = (st_ok(s) || s->err == 75 /* EOVERFLOW */) &&
			   st_peek(s, SONDE_PL_EXIT, a, &out, sizeof(out));
		if (have_out && out != in && s->j)
			pr_u32_field(s, "handle_bytes_out", out);
		else if (have_out && out != in)
			sb_printf(s->o, " => %u", out);
		if (st_ok(s))
			pr_fhandle_rest(s, SONDE_PL_EXIT, a, out);
		st_obj_end(s);
	}
	st_sep(s);
	if (st_ok(s))
		ps_int(s, SONDE_PL_EXIT, st_arg(s, 3));
	else
		pr_addr(s, st_arg(s, 3));
	st_sep(s);
	pr_flags(s, &x_handle_at_flags, (uint32_t)st_arg(s, 4), "AT_???");
}

/* The mount descriptor is a plain number: strace names no AT_FDCWD here. */
void dec_open_by_handle_at(struct st *s)
{
	uint64_t a = st_arg(s, 1);
	uint32_t bytes;

	pr_int(s, st_arg(s, 0));
	st_sep(s);
	if (!a || !st_peek(s, SONDE_PL_ENTRY, a, &bytes, sizeof(bytes))) {
		pr_unfetched(s, SONDE_PL_ENTRY, a);
	} else {
		st_obj_begin(s);
		pr_u32_field(s, "handle_bytes", bytes);
		pr_fhandle_rest(s, SONDE_PL_ENTRY, a, bytes);
		st_obj_end(s);
	}
	st_sep(s);
	pr_open_flags(s, (uint32_t)st_arg(s, 2));
}

/* mmap's flags, where 0 is MAP_FILE. */
void dec_remap_file_pages(struct st *s)
{
	uint64_t f = st_arg(s, 4);

	pr_addr(s, st_arg(s, 0));
	st_sep(s);
	pr_ulong(s, st_arg(s, 1));
	st_sep(s);
	pr_flags(s, &x_prot, st_arg(s, 2), "PROT_???");
	st_sep(s);
	pr_ulong(s, st_arg(s, 3));
	st_sep(s);
	if (f || s->j)
		pr_flags(s, &x_map_flags, f, "MAP_???");
	else
		pr_symexpr(s, "0", "MAP_FILE");
}
