// SPDX-License-Identifier: GPL-2.0
/*
 * Decoders of file and descriptor syscalls whose arguments depend on each
 * other: open's mode exists only with O_CREAT, fcntl's third argument
 * depends on the command, getdents' buffer is a list of records. ioctl is
 * in dec_ioctl.c.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "decode/strace/strace_int.h"

#define O_TMPFILE_BIT 020000000

static void pr_open_tail(struct st *s, int flags_arg)
{
	uint64_t flags = st_arg(s, flags_arg);

	pr_open_flags(s, flags);
	if (flags & (O_CREAT | O_TMPFILE_BIT)) {
		st_sep(s);
		pr_oct(s, st_arg(s, flags_arg + 1));
	}
	s->rkind = R_FD;
}

void dec_open(struct st *s)
{
	pr_path(s, st_arg(s, 0));
	st_sep(s);
	pr_open_tail(s, 1);
}

void dec_openat(struct st *s)
{
	pr_dirfd(s, st_arg(s, 0));
	st_sep(s);
	pr_path(s, st_arg(s, 1));
	st_sep(s);
	pr_open_tail(s, 2);
}

void dec_openat2(struct st *s)
{
	pr_dirfd(s, st_arg(s, 0));
	st_sep(s);
	pr_path(s, st_arg(s, 1));
	st_sep(s);
	ps_open_how(s, SONDE_PL_ENTRY, st_arg(s, 2), st_arg(s, 3));
	st_sep(s);
	pr_ulong(s, st_arg(s, 3));
	s->rkind = R_FD;
}

static const struct xlat_ent lock_type_e[] = {
	XE(F_RDLCK), XE(F_WRLCK), XE(F_UNLCK),
};
static const struct xlat x_lock_type = { lock_type_e, 3, 0 };

static void pr_flock(struct st *s, int phase, uint64_t addr, int with_pid)
{
	struct flock f;

	if (!st_fetch(s, phase, addr, &f, sizeof(f)))
		return;
	st_obj_begin(s);
	st_field(s, "l_type");
	pr_xval(s, &x_lock_type, (uint64_t)f.l_type, "F_???");
	st_field(s, "l_whence");
	pr_xval(s, &x_seek, (uint64_t)f.l_whence, "SEEK_???");
	st_field(s, "l_start");
	pr_long(s, (uint64_t)f.l_start);
	st_field(s, "l_len");
	pr_long(s, (uint64_t)f.l_len);
	if (with_pid) {
		st_field(s, "l_pid");
		pr_pid(s, (uint64_t)f.l_pid);
	}
	st_obj_end(s);
}

static const struct xlat_ent seals_e[] = {
	XE(F_SEAL_SEAL), XE(F_SEAL_SHRINK), XE(F_SEAL_GROW), XE(F_SEAL_WRITE),
	XN(0x10, "F_SEAL_FUTURE_WRITE"),
};
static const struct xlat x_seals = { seals_e, 5, 0 };

static const struct xlat_ent dn_e[] = {
	XE(DN_ACCESS), XE(DN_MODIFY), XE(DN_CREATE), XE(DN_DELETE),
	XE(DN_RENAME), XE(DN_ATTRIB), XE(DN_MULTISHOT),
};
static const struct xlat x_dn = { dn_e, sizeof(dn_e) / sizeof(dn_e[0]), 0 };

static const struct xlat_ent owner_type_e[] = {
	XE(F_OWNER_TID), XE(F_OWNER_PID), XE(F_OWNER_PGRP),
};
static const struct xlat x_owner_type = { owner_type_e, 3, 0 };

/* F_SETOWN_EX's and F_GETOWN_EX's struct f_owner_ex. */
static void pr_owner_ex(struct st *s, int phase, uint64_t addr)
{
	struct f_owner_ex o;

	if (!st_fetch(s, phase, addr, &o, sizeof(o)))
		return;
	st_obj_begin(s);
	st_field(s, "type");
	pr_xval(s, &x_owner_type, (uint32_t)o.type, "F_OWNER_???");
	st_field(s, "pid");
	if (o.type == F_OWNER_TID || o.type == F_OWNER_PID)
		pr_pid(s, (uint64_t)o.pid);
	else
		pr_int(s, (uint64_t)o.pid);
	st_obj_end(s);
}

/* " (flags O_RDWR|O_LARGEFILE)" after the return value; JSON
 * "result":{"flags":["O_RDWR","O_LARGEFILE"]}. */
static void rv_flags(struct st *s, const char *what, const struct xlat *x,
		     int open_modes)
{
	struct sonde_strace_opts o = *s->opt;
	struct strbuf b;
	struct st tmp;

	if (!st_ok(s))
		return;
	s->rkind = R_HEX;
	st_res_begin(s, &tmp, &b, what);
	sb_printf(&b, " (%s ", what);
	/* -X raw/verbose apply here too, (flags 0x1 /\* FD_CLOEXEC *\/), but
	 * not to F_GETFL's open flags, which strace always names. */
	if (tmp.j || o.xlat == SONDE_XLAT_ABBREV || open_modes) {
		o.xlat = SONDE_XLAT_ABBREV;
		tmp.opt = &o;
	} else if (!open_modes) {
		pr_flags(&tmp, x, (uint64_t)s->ret, NULL);
		sb_putc(&b, ')');
		st_res_end(s, &tmp, &b);
		return;
	}
	if (open_modes)
		pr_open_flags(&tmp, (uint64_t)s->ret);
	else if (tmp.j)
		pr_flags(&tmp, x, (uint64_t)s->ret, NULL);
	else
		sb_flags(&b, x, (uint64_t)s->ret);
	sb_putc(&b, ')');
	st_res_end(s, &tmp, &b);
}

/* F_GETLEASE: = 0x2 (F_UNLCK). */
static void rv_lease(struct st *s)
{
	const char *n = xlat_name(&x_lock_type, (uint64_t)s->ret);

	if (!st_ok(s))
		return;
	s->rkind = R_HEX;
	if (n)
		st_res_name(s, "lease", n);
}

/* F_GETSIG: = 10 (SIGUSR1); 0 means SIGIO and has no name. */
static void rv_signame(struct st *s)
{
	char buf[16];
	const char *n;

	if (!st_ok(s) || !s->ret)
		return;
	n = st_signame((int)s->ret, buf, sizeof(buf));
	if (n)
		st_res_name(s, "signal", n);
}

void dec_fcntl(struct st *s)
{
	int cmd = (int)st_arg(s, 1);
	uint64_t a = st_arg(s, 2);

	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	pr_xval(s, &x_fcntl_cmd, (uint64_t)(unsigned)cmd, "F_???");
	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		st_sep(s);
		pr_int(s, a);
		s->rkind = R_FD;
		break;
	case F_SETFD:
		st_sep(s);
		pr_flags(s, &x_fd_flags, (uint32_t)a, "FD_???");
		break;
	case F_SETFL:
		st_sep(s);
		pr_open_flags(s, a);
		break;
	case F_GETFD:
		if (s->ret)
			rv_flags(s, "flags", &x_fd_flags, 0);
		break;
	case F_GETFL:
		rv_flags(s, "flags", NULL, 1);
		break;
	case F_GETLK:
	case F_OFD_GETLK:
		st_sep(s);
		if (st_ok(s))
			pr_flock(s, SONDE_PL_EXIT, a, 1);
		else
			pr_flock(s, SONDE_PL_ENTRY, a, 0);
		break;
	case F_SETLK:
	case F_SETLKW:
	case F_OFD_SETLK:
	case F_OFD_SETLKW:
		st_sep(s);
		pr_flock(s, SONDE_PL_ENTRY, a, 0);
		break;
	case F_SETSIG:
		st_sep(s);
		pr_sig(s, a);
		break;
	case F_SETOWN:
		st_sep(s);
		pr_pid(s, a); /* -pgid: a process group, no name */
		break;
	case F_SETPIPE_SZ:
		st_sep(s);
		pr_long(s, a);
		break;
	case F_NOTIFY:
		st_sep(s);
		pr_flags(s, &x_dn, a, "DN_???");
		break;
	case F_SETOWN_EX:
		st_sep(s);
		pr_owner_ex(s, SONDE_PL_ENTRY, a);
		break;
	case F_GETOWN_EX:
		st_sep(s);
		st_entry_end(s);
		if (st_ok(s))
			pr_owner_ex(s, SONDE_PL_EXIT, a);
		else
			pr_addr(s, a);
		break;
	case F_SETLEASE:
		st_sep(s);
		pr_xval(s, &x_lock_type, (uint32_t)a, "F_???");
		break;
	case F_ADD_SEALS:
		st_sep(s);
		pr_flags(s, &x_seals, (uint32_t)a, "F_SEAL_???");
		break;
	case F_GET_SEALS:
		if (s->ret)
			rv_flags(s, "seals", &x_seals, 0);
		break;
	case F_GETLEASE:
		rv_lease(s);
		break;
	case F_GETSIG:
		rv_signame(s);
		break;
	case F_GETOWN:
		s->rkind = R_PID;
		break;
	case F_GETPIPE_SZ:
		break;
	default:
		st_sep(s);
		pr_hex(s, a);
		break;
	}
}

/* getdents64 records: d_ino, d_off, d_reclen, d_type, d_name. */
static void pr_dirents(struct st *s, const uint8_t *p, size_t len, int old)
{
	size_t off = 0, n = 0;

	st_arr_begin(s);
	while (off + 19 <= len) {
		uint64_t ino, doff;
		uint16_t reclen;
		uint8_t type;
		size_t nmax;

		memcpy(&ino, p + off, 8);
		memcpy(&doff, p + off + 8, 8);
		memcpy(&reclen, p + off + 16, 2);
		if (reclen < 19 || off + reclen > len)
			break;
		st_elem(s);
		if (st_array_cut(s, n++)) {
			sb_puts(s->o, "...");
			break;
		}
		type = old ? p[off + reclen - 1] : p[off + 18];
		nmax = reclen - (old ? 18 : 19);
		st_obj_begin(s);
		st_field(s, "d_ino");
		pr_ulong(s, ino);
		st_field(s, "d_off");
		pr_long(s, doff);
		st_field(s, "d_reclen");
		pr_uint(s, reclen);
		st_field(s, "d_type");
		pr_xval(s, &x_dirent_type, type, "DT_???");
		st_field(s, "d_name");
		const uint8_t *name = p + off + (old ? 18 : 19);
		pr_quoted(s, name, strnlen((const char *)name, nmax), 0, 0, 0);
		st_obj_end(s);
		off += reclen;
	}
	st_arr_end(s);
}

static unsigned int count_dirents(const uint8_t *p, size_t len)
{
	size_t off = 0;
	unsigned int n = 0;

	while (off + 19 <= len) {
		uint16_t reclen;

		memcpy(&reclen, p + off + 16, 2);
		if (reclen < 19 || off + reclen > len)
			break;
		off += reclen;
		n++;
	}
	return n;
}

static void getdents_common(struct st *s, int old)
{
	uint64_t a = st_arg(s, 1);
	const struct sonde_payload *p;

	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	st_entry_end(s);
	p = st_ok(s) ? sonde_call_mem(s->c, SONDE_PL_EXIT, a, (uint64_t)s->ret) : NULL;
	if (p && (p->flags & SONDE_PLF_UNREADABLE))
		p = NULL;
	if (!st_deref(s)) {
		/* -e verbose= leaves the call out: no count either */
		pr_addr(s, a);
	} else if (st_ok(s) && !s->ret) {
		/* End of directory: nothing was written, nothing to read. */
		if (s->opt->verbose) {
			st_arr_begin(s);
			st_arr_end(s);
		} else {
			pr_addr(s, a);
			sb_puts(s->o, " /* 0 entries */");
		}
	} else if (!p) {
		pr_unfetched(s, SONDE_PL_EXIT, a);
	} else if (s->opt->verbose) {
		pr_dirents(s, p->data + (a - p->addr), (size_t)s->ret, old);
	} else {
		pr_addr(s, a);
		sb_printf(s->o, " /* %u entries */",
			  count_dirents(p->data + (a - p->addr), (size_t)s->ret));
	}
	st_sep(s);
	pr_uint(s, st_arg(s, 2));
}

void dec_getdents64(struct st *s)
{
	getdents_common(s, 0);
}

void dec_getdents(struct st *s)
{
	getdents_common(s, 1);
}

/* The link target: ret bytes, no NUL, shown up to -s. */
static void pr_link_buf(struct st *s, uint64_t a)
{
	if (st_ok(s))
		pr_buf(s, SONDE_PL_EXIT, a, (uint64_t)s->ret, 0);
	else
		pr_addr(s, a);
}

void dec_readlink(struct st *s)
{
	pr_path(s, st_arg(s, 0));
	st_sep(s);
	st_entry_end(s);
	pr_link_buf(s, st_arg(s, 1));
	st_sep(s);
	pr_ulong(s, st_arg(s, 2));
}

void dec_readlinkat(struct st *s)
{
	pr_dirfd(s, st_arg(s, 0));
	st_sep(s);
	pr_path(s, st_arg(s, 1));
	st_sep(s);
	st_entry_end(s);
	pr_link_buf(s, st_arg(s, 2));
	st_sep(s);
	pr_ulong(s, st_arg(s, 3));
}

void dec_getcwd(struct st *s)
{
	uint64_t a = st_arg(s, 0);

	st_entry_end(s);
	if (st_ok(s))
		pr_path_at(s, SONDE_PL_EXIT, a);
	else
		pr_addr(s, a);
	st_sep(s);
	pr_ulong(s, st_arg(s, 1));
}

static void mknod_tail(struct st *s, int i)
{
	uint32_t mode = (uint32_t)st_arg(s, i);

	pr_mode_t(s, mode);
	if (S_ISCHR(mode) || S_ISBLK(mode)) {
		uint64_t dev = st_arg(s, i + 1);

		st_sep(s);
		pr_dev(s, major(dev), minor(dev));
	}
}

void dec_mknod(struct st *s)
{
	pr_path(s, st_arg(s, 0));
	st_sep(s);
	mknod_tail(s, 1);
}

void dec_mknodat(struct st *s)
{
	pr_dirfd(s, st_arg(s, 0));
	st_sep(s);
	pr_path(s, st_arg(s, 1));
	st_sep(s);
	mknod_tail(s, 2);
}

/* getxattr value: ret bytes at exit. */
static void xattr_get_tail(struct st *s, int i)
{
	pr_cstr(s, SONDE_PL_ENTRY, st_arg(s, i));
	st_sep(s);
	st_entry_end(s);
	if (st_ok(s) && st_arg(s, i + 2))
		pr_buf(s, SONDE_PL_EXIT, st_arg(s, i + 1), (uint64_t)s->ret, 0);
	else
		pr_addr(s, st_arg(s, i + 1));
	st_sep(s);
	pr_ulong(s, st_arg(s, i + 2));
}

void dec_getxattr(struct st *s)
{
	pr_path(s, st_arg(s, 0));
	st_sep(s);
	xattr_get_tail(s, 1);
}

void dec_fgetxattr(struct st *s)
{
	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	xattr_get_tail(s, 1);
}

static void xattr_list_tail(struct st *s)
{
	if (st_ok(s) && st_arg(s, 2))
		pr_buf(s, SONDE_PL_EXIT, st_arg(s, 1), (uint64_t)s->ret, 0);
	else
		pr_addr(s, st_arg(s, 1));
	st_sep(s);
	pr_ulong(s, st_arg(s, 2));
}

void dec_listxattr(struct st *s)
{
	pr_path(s, st_arg(s, 0));
	st_sep(s);
	st_entry_end(s);
	xattr_list_tail(s);
}

void dec_flistxattr(struct st *s)
{
	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	st_entry_end(s);
	xattr_list_tail(s);
}

static void xattr_set_tail(struct st *s)
{
	pr_cstr(s, SONDE_PL_ENTRY, st_arg(s, 1));
	st_sep(s);
	pr_buf(s, SONDE_PL_ENTRY, st_arg(s, 2), st_arg(s, 3), 0);
	st_sep(s);
	pr_ulong(s, st_arg(s, 3));
	st_sep(s);
	pr_flags(s, &x_xattr, (uint32_t)st_arg(s, 4), "XATTR_???");
}

void dec_setxattr(struct st *s)
{
	pr_path(s, st_arg(s, 0));
	st_sep(s);
	xattr_set_tail(s);
}

void dec_fsetxattr(struct st *s)
{
	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	xattr_set_tail(s);
}

void dec_statx(struct st *s)
{
	uint32_t fl = (uint32_t)st_arg(s, 2);
	struct st_cap c;
	struct st *t;

	pr_dirfd(s, st_arg(s, 0));
	st_sep(s);
	pr_path(s, st_arg(s, 1));
	st_sep(s);
	/* The sync type, even AT_STATX_SYNC_AS_STAT (0), then the other flags */
	t = st_cap_begin(s, &c);
	pr_flags_in(t, &x_at_statx_sync, fl & AT_STATX_SYNC_TYPE);
	if (fl & ~AT_STATX_SYNC_TYPE) {
		sb_putc(t->o, '|');
		pr_flags_in(t, &x_at_flags, fl & ~AT_STATX_SYNC_TYPE);
	}
	st_cap_flags(s, &c);
	st_sep(s);
	pr_flags(s, &x_statx_mask, (uint32_t)st_arg(s, 3), "STATX_???");
	st_sep(s);
	st_entry_end(s);
	if (st_ok(s))
		ps_statx(s, SONDE_PL_EXIT, st_arg(s, 4));
	else
		pr_addr(s, st_arg(s, 4));
}

void dec_utimensat(struct st *s)
{
	pr_dirfd(s, st_arg(s, 0));
	st_sep(s);
	pr_path(s, st_arg(s, 1));
	st_sep(s);
	ps_timespec_pair(s, SONDE_PL_ENTRY, st_arg(s, 2));
	st_sep(s);
	pr_flags(s, &x_at_flags, (uint32_t)st_arg(s, 3), "AT_???");
}

void dec_close_range(struct st *s)
{
	uint32_t hi = (uint32_t)st_arg(s, 1);

	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	if (hi == UINT32_MAX && !s->j)
		sb_puts(s->o, "~0U");
	else
		pr_uint(s, hi);
	st_sep(s);
	pr_flags(s, &x_close_range, (uint32_t)st_arg(s, 2), "CLOSE_RANGE_???");
}
