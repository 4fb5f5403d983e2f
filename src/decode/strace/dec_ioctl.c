// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl: the request decides what the third argument is. Terminal
 * requests (struct termios, termio, winsize, flush and flow-control
 * selectors) and inode flags (FS_IOC_GETFLAGS) are decoded; other requests show the argument in hex, as
 * strace does for the ones it does not know.
 */
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <sys/ioctl.h>

#include "decode/strace/ioctl_names.h"
#include "decode/strace/strace_int.h"

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

/* A field of a flag word: its name, or with -X raw/verbose its value. */
static void pr_tio_field(struct st *t, uint32_t v, const char *name)
{
	char num[16];

	snprintf(num, sizeof(num), v ? "%#x" : "0", v);
	pr_symexpr(t, num, name);
}

/* c_oflag's delay fields are enums inside masks: NL0|CR0|TAB0|... */
static void tio_oflag(struct st *t, uint32_t v, const struct xlat *x)
{
	static const struct { uint32_t mask, shift; const char *name; } d[] = {
		{ NLDLY, 8, "NL" }, { CRDLY, 9, "CR" }, { TABDLY, 11, "TAB" },
		{ BSDLY, 13, "BS" }, { VTDLY, 14, "VT" }, { FFDLY, 15, "FF" },
	};
	char name[8];

	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
		snprintf(name, sizeof(name), "%s%u", d[i].name,
			 (v & d[i].mask) >> d[i].shift);
		pr_tio_field(t, v & d[i].mask, name);
		sb_putc(t->o, '|');
	}
	v &= ~(uint32_t)(NLDLY | CRDLY | TABDLY | BSDLY | VTDLY | FFDLY);
	pr_flags(t, x, v, NULL);
}

static void tio_cflag(struct st *t, uint32_t v, const struct xlat *x)
{
	static const char *const speeds[] = { "B0", "B50", "B75", "B110",
		"B134", "B150", "B200", "B300", "B600", "B1200", "B1800",
		"B2400", "B4800", "B9600", "B19200", "B38400" };
	uint32_t sp = v & CBAUD;
	char cs[8];

	if (sp < 16)
		pr_tio_field(t, sp, speeds[sp]);
	else
		sb_printf(t->o, "%#o", sp);
	snprintf(cs, sizeof(cs), "CS%u", 5 + ((v & CSIZE) >> 4));
	sb_putc(t->o, '|');
	pr_tio_field(t, v & CSIZE, cs);
	v &= ~(uint32_t)(CBAUD | CSIZE);
	if (v) {
		sb_putc(t->o, '|');
		pr_flags(t, x, v, NULL);
	}
}

static void tio_flags(struct st *t, uint32_t v, const struct xlat *x)
{
	pr_flags(t, x, v, NULL);
}

/* One termios flag word, printed by fn (text) or as an array (JSON). */
static void pr_tio_word(struct st *s, const char *name,
			void (*fn)(struct st *, uint32_t, const struct xlat *),
			const struct xlat *x, uint32_t v)
{
	struct st_cap c;

	st_field(s, name);
	fn(st_cap_begin(s, &c), v, x);
	st_cap_flags(s, &c);
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

/* The old struct termio (TCGETA, TCSETA...): 16-bit flags, 8 c_cc. */
struct termio_k {
	uint16_t c_iflag, c_oflag, c_cflag, c_lflag;
	uint8_t c_line;
	uint8_t c_cc[8];
};

static void pr_tio(struct st *s, const struct termios_k *t, size_t ncc)
{
	st_obj_begin(s);
	pr_tio_word(s, "c_iflag", tio_flags, &x_tio_iflag, t->c_iflag);
	pr_tio_word(s, "c_oflag", tio_oflag, &x_tio_oflag, t->c_oflag);
	pr_tio_word(s, "c_cflag", tio_cflag, &x_tio_cflag, t->c_cflag);
	pr_tio_word(s, "c_lflag", tio_flags, &x_tio_lflag, t->c_lflag);
	if (!s->opt->verbose) {
		st_obj_end_cut(s);
		return;
	}
	st_field(s, "c_line");
	if (t->c_line)
		pr_uint(s, t->c_line);
	else
		pr_sym(s, "N_TTY");
	st_field(s, "c_cc");
	pr_cc(s, t->c_cc, ncc);
	st_obj_end(s);
}

static void pr_termios(struct st *s, int phase, uint64_t addr)
{
	struct termios_k t;

	if (st_fetch(s, phase, addr, &t, sizeof(t)))
		pr_tio(s, &t, sizeof(t.c_cc));
}

static void pr_termio(struct st *s, int phase, uint64_t addr)
{
	struct termios_k t = { 0 };
	struct termio_k o;

	if (!st_fetch(s, phase, addr, &o, sizeof(o)))
		return;
	t.c_iflag = o.c_iflag;
	t.c_oflag = o.c_oflag;
	t.c_cflag = o.c_cflag;
	t.c_lflag = o.c_lflag;
	t.c_line = o.c_line;
	memcpy(t.c_cc, o.c_cc, sizeof(o.c_cc));
	pr_tio(s, &t, sizeof(o.c_cc));
}

static const struct xlat_ent flush_e[] = {
	XE(TCIFLUSH), XE(TCOFLUSH), XE(TCIOFLUSH),
};
static const struct xlat_ent xonc_e[] = {
	XE(TCOOFF), XE(TCOON), XE(TCIOFF), XE(TCION),
};
static const struct xlat x_flush = { flush_e, 3, 0 };
static const struct xlat x_xonc = { xonc_e, 4, 0 };

static const struct xlat_ent fs_fl_e[] = {
	XE(FS_SECRM_FL), XE(FS_UNRM_FL), XE(FS_COMPR_FL), XE(FS_SYNC_FL),
	XE(FS_IMMUTABLE_FL), XE(FS_APPEND_FL), XE(FS_NODUMP_FL),
	XE(FS_NOATIME_FL), XE(FS_DIRTY_FL), XE(FS_COMPRBLK_FL),
	XE(FS_NOCOMP_FL), XE(FS_ENCRYPT_FL), XE(FS_INDEX_FL), XE(FS_IMAGIC_FL),
	XE(FS_JOURNAL_DATA_FL), XE(FS_NOTAIL_FL), XE(FS_DIRSYNC_FL),
	XE(FS_TOPDIR_FL), XE(FS_HUGE_FILE_FL), XE(FS_EXTENT_FL),
	XE(FS_VERITY_FL), XE(FS_EA_INODE_FL), XE(FS_EOFBLOCKS_FL),
	XE(FS_NOCOW_FL), XE(FS_DAX_FL), XE(FS_INLINE_DATA_FL),
	XE(FS_PROJINHERIT_FL), XE(FS_CASEFOLD_FL), XE(FS_RESERVED_FL),
};
static const struct xlat x_fs_fl = { fs_fl_e, sizeof(fs_fl_e) / sizeof(fs_fl_e[0]), 0 };

/* FS_IOC_[GS]ETFLAGS: [FS_EXTENT_FL], an int although the request says
 * long. */
static void pr_fs_flags(struct st *s, int phase, uint64_t addr)
{
	uint32_t v;

	if (!st_fetch(s, phase, addr, &v, sizeof(v)))
		return;
	if (!s->j)
		sb_putc(s->o, '[');
	pr_flags(s, &x_fs_fl, v, "FS_???_FL");
	if (!s->j)
		sb_putc(s->o, ']');
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

/* Requests without a name print as strace's _IOC(dir, type, nr, size)
 * (-X verbose: the number, then that as a comment). */
static void pr_ioctl_req(struct st *s, uint32_t req)
{
	static const char *const dirs[] = { "_IOC_NONE", "_IOC_WRITE",
		"_IOC_READ", "_IOC_READ|_IOC_WRITE" };
	char buf[512];
	const char *n = ioctl_req_name(req, s->opt->xlat == SONDE_XLAT_VERBOSE, buf, sizeof(buf));

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
	if (s->opt->xlat != SONDE_XLAT_ABBREV)
		sb_printf(s->o, "%#x", req);
	if (s->opt->xlat == SONDE_XLAT_RAW)
		return;
	sb_printf(s->o,
		  s->opt->xlat == SONDE_XLAT_VERBOSE ? " /* _IOC(%s, %#x, %#x, %#x) */"
						     : "_IOC(%s, %#x, %#x, %#x)",
		  dirs[(req >> 30) & 3], (req >> 8) & 0xff, req & 0xff, (req >> 16) & 0x3fff);
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
	/* Block and loop device structs hold longs: an i386 caller's are
	 * not decoded (docs/strace-differences.md); the requests below
	 * take the same memory on both ABIs. */
	if (!(s->sc->hdr.flags & SONDE_SC_COMPAT) && ioctl_block(s, req, a))
		return;
	if (ioctl_seccomp(s, req, a) || ioctl_kvm(s, req, a) || ioctl_sock(s, req, a) ||
	    ioctl_perf(s, req, a) || ioctl_misc(s, req, a))
		return;
	st_sep(s);
	switch (req) {
	case TCGETS:
		st_entry_end(s);
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
	case TCGETA:
		st_entry_end(s);
		if (ok)
			pr_termio(s, SONDE_PL_EXIT, a);
		else
			pr_addr(s, a);
		break;
	case TCSETA:
	case TCSETAW:
	case TCSETAF:
		pr_termio(s, SONDE_PL_ENTRY, a);
		break;
	case TCFLSH:
		pr_xval(s, &x_flush, a, "TC???");
		break;
	case TCXONC:
		pr_xval(s, &x_xonc, a, "TC???");
		break;
	case TIOCGWINSZ:
		st_entry_end(s);
		if (ok)
			pr_winsize(s, SONDE_PL_EXIT, a);
		else
			pr_addr(s, a);
		break;
	case TIOCSWINSZ:
		pr_winsize(s, SONDE_PL_ENTRY, a);
		break;
	case FS_IOC_GETFLAGS:
		st_entry_end(s);
		if (ok)
			pr_fs_flags(s, SONDE_PL_EXIT, a);
		else
			pr_addr(s, a);
		break;
	case FS_IOC_SETFLAGS:
		pr_fs_flags(s, SONDE_PL_ENTRY, a);
		break;
	case FIONREAD:
	case TIOCGPGRP:
	case TIOCGSID:
	case TIOCOUTQ:
	case TIOCGPTN:
		ps_int_out(s, a);
		break;
	case FIONBIO:
	case FIOASYNC:
	case TIOCSPGRP:
	case TIOCSPTLCK:
		ps_int(s, SONDE_PL_ENTRY, a);
		break;
	case FICLONE:
	case TIOCSCTTY:
	case TCSBRK:
		pr_int(s, a);
		break;
	default:
		pr_hex(s, a);
		break;
	}
}
