// SPDX-License-Identifier: GPL-2.0
/*
 * Decoders of file and descriptor syscalls whose arguments depend on each
 * other: open's mode exists only with O_CREAT, fcntl's and ioctl's third
 * argument depends on the command, getdents' buffer is a list of records.
 */
#include <fcntl.h>
#include <termios.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
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
		pr_int(s, (uint64_t)f.l_pid);
	}
	st_obj_end(s);
}

static const struct xlat_ent seals_e[] = {
	XE(F_SEAL_SEAL), XE(F_SEAL_SHRINK), XE(F_SEAL_GROW), XE(F_SEAL_WRITE),
	XN(0x10, "F_SEAL_FUTURE_WRITE"),
};
static const struct xlat x_seals = { seals_e, 5, 0 };

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
	case F_GETOWN:
	case F_GETSIG:
	case F_GETLEASE:
	case F_GETPIPE_SZ:
		break;
	default:
		st_sep(s);
		pr_hex(s, a);
		break;
	}
}

/* The kernel's struct termios (TCGETS), not glibc's larger one. */
struct termios_k {
	uint32_t c_iflag, c_oflag, c_cflag, c_lflag;
	uint8_t c_line;
	uint8_t c_cc[19];
};

static const struct xlat_ent tio_iflag_e[] = {
	XE(IGNBRK), XE(BRKINT), XE(IGNPAR), XE(PARMRK), XE(INPCK), XE(ISTRIP),
	XE(INLCR), XE(IGNCR), XE(ICRNL), XE(IUCLC), XE(IXON), XE(IXANY),
	XE(IXOFF), XE(IMAXBEL), XE(IUTF8),
};
static const struct xlat_ent tio_oflag_e[] = {
	XE(OPOST), XE(OLCUC), XE(ONLCR), XE(OCRNL), XE(ONOCR), XE(ONLRET),
	XE(OFILL), XE(OFDEL),
};
static const struct xlat_ent tio_cflag_e[] = {
	XE(CSTOPB), XE(CREAD), XE(PARENB), XE(PARODD), XE(HUPCL), XE(CLOCAL),
	XE(CMSPAR), XE(CRTSCTS),
};
static const struct xlat_ent tio_lflag_e[] = {
	XE(ISIG), XE(ICANON), XE(XCASE), XE(ECHO), XE(ECHOE), XE(ECHOK),
	XE(ECHONL), XE(NOFLSH), XE(IEXTEN), XE(ECHOCTL), XE(ECHOPRT),
	XE(ECHOKE), XE(FLUSHO), XE(PENDIN), XE(TOSTOP), XE(EXTPROC),
};
#define TIO_X(e) { e, sizeof(e) / sizeof(e[0]), 0 }
static const struct xlat x_tio_iflag = TIO_X(tio_iflag_e);
static const struct xlat x_tio_oflag = TIO_X(tio_oflag_e);
static const struct xlat x_tio_cflag = TIO_X(tio_cflag_e);
static const struct xlat x_tio_lflag = TIO_X(tio_lflag_e);


/* c_oflag's delay fields are enums inside masks: NL0|CR0|TAB0|... */
static void pr_oflag(struct strbuf *b, uint32_t v)
{
	static const struct { uint32_t mask, shift; const char *name; int n; } d[] = {
		{ NLDLY, 8, "NL", 2 }, { CRDLY, 9, "CR", 4 }, { TABDLY, 11, "TAB", 4 },
		{ BSDLY, 13, "BS", 2 }, { VTDLY, 14, "VT", 2 }, { FFDLY, 15, "FF", 2 },
	};

	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++)
		sb_printf(b, "%s%u|", d[i].name, (v & d[i].mask) >> d[i].shift);
	v &= ~(uint32_t)(NLDLY | CRDLY | TABDLY | BSDLY | VTDLY | FFDLY);
	sb_flags(b, &x_tio_oflag, v);
}

static void pr_cflag(struct strbuf *b, uint32_t v)
{
	static const char *const speeds[] = { "B0", "B50", "B75", "B110",
		"B134", "B150", "B200", "B300", "B600", "B1200", "B1800",
		"B2400", "B4800", "B9600", "B19200", "B38400" };
	uint32_t sp = v & CBAUD;

	if (sp < 16)
		sb_puts(b, speeds[sp]);
	else
		sb_printf(b, "%#o", sp);
	sb_printf(b, "|CS%u", 5 + ((v & CSIZE) >> 4));
	v &= ~(uint32_t)(CBAUD | CSIZE);
	if (v) {
		sb_putc(b, '|');
		sb_flags(b, &x_tio_cflag, v);
	}
}

/* One termios flag word, printed by fn (text) or as an array (JSON). */
static void pr_tio_word(struct st *s, const char *name,
			void (*fn)(struct strbuf *, uint32_t, const struct xlat *),
			const struct xlat *x, uint32_t v)
{
	struct st_cap c;
	struct st *t;

	st_field(s, name);
	t = st_cap_begin(s, &c);
	fn(t->o, v, x);
	st_cap_flags(s, &c);
}

static void tio_flags(struct strbuf *b, uint32_t v, const struct xlat *x)
{
	sb_flags(b, x, v);
}

static void tio_oflag(struct strbuf *b, uint32_t v, const struct xlat *x)
{
	(void)x;
	pr_oflag(b, v);
}

static void tio_cflag(struct strbuf *b, uint32_t v, const struct xlat *x)
{
	(void)x;
	pr_cflag(b, v);
}

/* x86 indices of c_cc, as strace names them. */
static const char *const cc_names[] = {
	"VINTR", "VQUIT", "VERASE", "VKILL", "VEOF", "VTIME", "VMIN", "VSWTC", "VSTART",
	"VSTOP", "VSUSP", "VEOL", "VREPRINT", "VDISCARD", "VWERASE", "VLNEXT", "VEOL2",
};

/* -v: [[VINTR]=0x3, [VQUIT]=0x1c, ..., [17]=0]; JSON {"VINTR":3,...,"17":0}. */
static void pr_cc(struct st *s, const uint8_t *cc, size_t n)
{
	char key[8];

	if (s->j)
		st_obj_begin(s);
	else
		st_arr_begin(s);
	for (size_t i = 0; i < n; i++) {
		const char *name = i < sizeof(cc_names) / sizeof(cc_names[0]) ? cc_names[i] : NULL;

		if (s->j) {
			snprintf(key, sizeof(key), "%zu", i);
			st_jkey(s, name ? name : key);
			st_juint(s, cc[i]);
			continue;
		}
		st_elem(s);
		if (name)
			sb_printf(s->o, "[%s]=", name);
		else
			sb_printf(s->o, "[%zu]=", i);
		pr_hex(s, cc[i]);
	}
	if (s->j)
		st_obj_end(s);
	else
		st_arr_end(s);
}

static void pr_termios(struct st *s, int phase, uint64_t addr)
{
	struct termios_k t;

	if (!st_fetch(s, phase, addr, &t, sizeof(t)))
		return;
	st_obj_begin(s);
	pr_tio_word(s, "c_iflag", tio_flags, &x_tio_iflag, t.c_iflag);
	pr_tio_word(s, "c_oflag", tio_oflag, NULL, t.c_oflag);
	pr_tio_word(s, "c_cflag", tio_cflag, NULL, t.c_cflag);
	pr_tio_word(s, "c_lflag", tio_flags, &x_tio_lflag, t.c_lflag);
	if (!s->opt->verbose) {
		st_obj_end_cut(s);
		return;
	}
	st_field(s, "c_line");
	if (t.c_line)
		pr_uint(s, t.c_line);
	else
		pr_sym(s, "N_TTY");
	st_field(s, "c_cc");
	pr_cc(s, t.c_cc, sizeof(t.c_cc));
	st_obj_end(s);
}

static void pr_winsize(struct st *s, int phase, uint64_t addr)
{
	struct winsize w;

	if (!st_fetch(s, phase, addr, &w, sizeof(w)))
		return;
	st_obj_begin(s);
	st_field(s, "ws_row");
	pr_uint(s, w.ws_row);
	st_field(s, "ws_col");
	pr_uint(s, w.ws_col);
	st_field(s, "ws_xpixel");
	pr_uint(s, w.ws_xpixel);
	st_field(s, "ws_ypixel");
	pr_uint(s, w.ws_ypixel);
	st_obj_end(s);
}

/* Requests without a name print as strace's _IOC(dir, type, nr, size). */
static void pr_ioctl_req(struct st *s, uint32_t req)
{
	static const char *const dirs[] = { "_IOC_NONE", "_IOC_WRITE",
		"_IOC_READ", "_IOC_READ|_IOC_WRITE" };
	const char *n = xlat_name(&x_ioctl, req);

	if (s->j) {
		if (n)
			st_jstr(s, n);
		else
			st_juint(s, req);
		return;
	}
	if (n && s->opt->xlat == SONDE_XLAT_ABBREV) {
		sb_puts(s->o, n);
		return;
	}
	if (n) {
		sb_printf(s->o, "%#x", req);
		if (s->opt->xlat == SONDE_XLAT_VERBOSE)
			sb_printf(s->o, " /* %s */", n);
		return;
	}
	if (s->opt->xlat == SONDE_XLAT_RAW) {
		sb_printf(s->o, "%#x", req);
		return;
	}
	sb_printf(s->o, "_IOC(%s, %#x, %#x, %#x)", dirs[(req >> 30) & 3],
		  (req >> 8) & 0xff, req & 0xff, (req >> 16) & 0x3fff);
}

void dec_ioctl(struct st *s)
{
	uint32_t req = (uint32_t)st_arg(s, 1);
	uint64_t a = st_arg(s, 2);
	int ok = st_ok(s);

	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	pr_ioctl_req(s, req);
	switch (req) {
	case FIOCLEX:
	case FIONCLEX:
	case TIOCNOTTY:
		return;
	}
	st_sep(s);
	switch (req) {
	case TCGETS:
		if (ok)
			pr_termios(s, SONDE_PL_EXIT, a);
		else
			pr_addr(s, a);
		break;
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
		pr_termios(s, SONDE_PL_ENTRY, a);
		break;
	case TIOCGWINSZ:
		if (ok)
			pr_winsize(s, SONDE_PL_EXIT, a);
		else
			pr_addr(s, a);
		break;
	case TIOCSWINSZ:
		pr_winsize(s, SONDE_PL_ENTRY, a);
		break;
	case FIONREAD:
	case TIOCGPGRP:
	case TIOCGSID:
	case TIOCOUTQ:
	case TIOCGPTN:
		if (ok)
			ps_int(s, SONDE_PL_EXIT, a);
		else
			pr_addr(s, a);
		break;
	case FIONBIO:
	case FIOASYNC:
	case TIOCSPGRP:
	case TIOCSPTLCK:
		ps_int(s, SONDE_PL_ENTRY, a);
		break;
	case FICLONE:
	case TIOCSCTTY:
	case TCFLSH:
	case TCXONC:
	case TCSBRK:
		pr_int(s, a);
		break;
	default:
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
	if (st_ok(s) && !s->ret) {
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
