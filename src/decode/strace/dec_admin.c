// SPDX-License-Identifier: GPL-2.0
/*
 * System administration calls as strace 6.1 prints them: syslog, reboot,
 * swapon, adjtimex and clock_adjtime (struct timex); the simpler ones
 * (sethostname, modules, swapoff, acct, pivot_root) are signatures in
 * table.c with the tables below.
 */
#include <string.h>
#include <sys/timex.h>

#include "decode/strace/strace_int.h"

XLAT_DEF(x_syslog_action, 1, XN(0, "SYSLOG_ACTION_CLOSE"), XN(1, "SYSLOG_ACTION_OPEN"),
	 XN(2, "SYSLOG_ACTION_READ"), XN(3, "SYSLOG_ACTION_READ_ALL"),
	 XN(4, "SYSLOG_ACTION_READ_CLEAR"), XN(5, "SYSLOG_ACTION_CLEAR"),
	 XN(6, "SYSLOG_ACTION_CONSOLE_OFF"), XN(7, "SYSLOG_ACTION_CONSOLE_ON"),
	 XN(8, "SYSLOG_ACTION_CONSOLE_LEVEL"), XN(9, "SYSLOG_ACTION_SIZE_UNREAD"),
	 XN(10, "SYSLOG_ACTION_SIZE_BUFFER"));
XLAT_DEF(x_loglevel, 1, XN(0, "LOGLEVEL_EMERG"), XN(1, "LOGLEVEL_ALERT"),
	 XN(2, "LOGLEVEL_CRIT"), XN(3, "LOGLEVEL_ERR"), XN(4, "LOGLEVEL_WARNING"),
	 XN(5, "LOGLEVEL_NOTICE"), XN(6, "LOGLEVEL_INFO"), XN(7, "LOGLEVEL_DEBUG"));
XLAT_DEF(x_reboot_magic1, 0, XN(0xfee1dead, "LINUX_REBOOT_MAGIC1"));
XLAT_DEF(x_reboot_magic2, 0, XN(0x28121969, "LINUX_REBOOT_MAGIC2"),
	 XN(0x05121996, "LINUX_REBOOT_MAGIC2A"), XN(0x16041998, "LINUX_REBOOT_MAGIC2B"),
	 XN(0x20112000, "LINUX_REBOOT_MAGIC2C"));
XLAT_DEF(x_reboot_cmd, 0, XN(0, "LINUX_REBOOT_CMD_CAD_OFF"),
	 XN(0x01234567, "LINUX_REBOOT_CMD_RESTART"), XN(0x4321fedc, "LINUX_REBOOT_CMD_POWER_OFF"),
	 XN(0x89abcdef, "LINUX_REBOOT_CMD_CAD_ON"), XN(0xa1b2c3d4, "LINUX_REBOOT_CMD_RESTART2"),
	 XN(0xcdef0123, "LINUX_REBOOT_CMD_HALT"), XN(0xd000fce2, "LINUX_REBOOT_CMD_SW_SUSPEND"),
	 XN(0x45584543, "LINUX_REBOOT_CMD_KEXEC"));
XLAT_DEF(x_swap_flags, 0, XN(0x8000, "SWAP_FLAG_PREFER"), XN(0x10000, "SWAP_FLAG_DISCARD"),
	 XN(0x20000, "SWAP_FLAG_DISCARD_ONCE"), XN(0x40000, "SWAP_FLAG_DISCARD_PAGES"));
XLAT_DEF(x_delete_module, 0, XN(0x800, "O_NONBLOCK"), XN(0x200, "O_TRUNC"));
XLAT_DEF(x_finit_module, 0, XN(1, "MODULE_INIT_IGNORE_MODVERSIONS"),
	 XN(2, "MODULE_INIT_IGNORE_VERMAGIC"), XN(4, "MODULE_INIT_COMPRESSED_FILE"));
XLAT_DEF(x_mlock2, 0, XN(1, "MLOCK_ONFAULT"));
XLAT_DEF(x_adjtimex_modes, 0, XN(0xa001, "ADJ_OFFSET_SS_READ"),
	 XN(0x8001, "ADJ_OFFSET_SINGLESHOT"), XN(0x0001, "ADJ_OFFSET"),
	 XN(0x0002, "ADJ_FREQUENCY"), XN(0x0004, "ADJ_MAXERROR"), XN(0x0008, "ADJ_ESTERROR"),
	 XN(0x0010, "ADJ_STATUS"), XN(0x0020, "ADJ_TIMECONST"), XN(0x0080, "ADJ_TAI"),
	 XN(0x0100, "ADJ_SETOFFSET"), XN(0x1000, "ADJ_MICRO"), XN(0x2000, "ADJ_NANO"),
	 XN(0x4000, "ADJ_TICK"));
XLAT_DEF(x_adjtimex_status, 0, XN(0x0001, "STA_PLL"), XN(0x0002, "STA_PPSFREQ"),
	 XN(0x0004, "STA_PPSTIME"), XN(0x0008, "STA_FLL"), XN(0x0010, "STA_INS"),
	 XN(0x0020, "STA_DEL"), XN(0x0040, "STA_UNSYNC"), XN(0x0080, "STA_FREQHOLD"),
	 XN(0x0100, "STA_PPSSIGNAL"), XN(0x0200, "STA_PPSJITTER"), XN(0x0400, "STA_PPSWANDER"),
	 XN(0x0800, "STA_PPSERROR"), XN(0x1000, "STA_CLOCKERR"), XN(0x2000, "STA_NANO"),
	 XN(0x4000, "STA_MODE"), XN(0x8000, "STA_CLK"));
XLAT_DEF(x_kexec_file_flags, 0, XN(1, "KEXEC_FILE_UNLOAD"), XN(2, "KEXEC_FILE_ON_CRASH"),
	 XN(4, "KEXEC_FILE_NO_INITRAMFS"), XN(8, "KEXEC_FILE_DEBUG"));
XLAT_DEF(x_kexec_load_flags, 0, XN(1, "KEXEC_ON_CRASH"), XN(2, "KEXEC_PRESERVE_CONTEXT"),
	 XN(4, "KEXEC_UPDATE_ELFCOREHDR"), XN(8, "KEXEC_CRASH_HOTPLUG_SUPPORT"));
XLAT_DEF(x_kexec_arch, 0, XN(0, "KEXEC_ARCH_DEFAULT"), XN(3 << 16, "KEXEC_ARCH_386"),
	 XN(62 << 16, "KEXEC_ARCH_X86_64"));
XLAT_DEF(x_adjtimex_state, 1, XN(0, "TIME_OK"), XN(1, "TIME_INS"), XN(2, "TIME_DEL"),
	 XN(3, "TIME_OOP"), XN(4, "TIME_WAIT"), XN(5, "TIME_ERROR"));

/* strace prints the action in the verbose style whatever -X says:
 * 10 /\* SYSLOG_ACTION_SIZE_BUFFER *\/. */
static void pr_verbose_xval(struct st *s, const struct xlat *x, int v, const char *dflt)
{
	const char *n = xlat_name(x, (uint32_t)v);

	if (s->j)
		pr_xval(s, x, (uint32_t)v, dflt);
	else
		sb_printf(s->o, "%d /* %s */", v, n ? n : dflt);
}

void dec_syslog(struct st *s)
{
	int type = (int)st_arg(s, 0), len = (int)st_arg(s, 2);

	pr_verbose_xval(s, &x_syslog_action, type, "SYSLOG_ACTION_???");
	switch (type) {
	case 0: case 1: case 5: case 6: case 7: case 9: case 10:
		/* bufp and len unused */
		return;
	case 2: case 3: case 4:
		/* the log read: what the call returned */
		st_sep(s);
		st_entry_end(s);
		pr_buf_ret(s, st_arg(s, 1));
		break;
	case 8:
		st_sep(s);
		pr_addr(s, st_arg(s, 1));
		st_sep(s);
		pr_verbose_xval(s, &x_loglevel, len, "LOGLEVEL_???");
		return;
	default:
		st_sep(s);
		pr_addr(s, st_arg(s, 1));
		break;
	}
	st_sep(s);
	pr_int(s, (uint32_t)len);
}

/* LINUX_REBOOT_CMD_RESTART2 passes a command string. */
void dec_reboot(struct st *s)
{
	uint32_t cmd = (uint32_t)st_arg(s, 2);

	pr_xval(s, &x_reboot_magic1, (uint32_t)st_arg(s, 0), "LINUX_REBOOT_MAGIC_???");
	st_sep(s);
	pr_xval(s, &x_reboot_magic2, (uint32_t)st_arg(s, 1), "LINUX_REBOOT_MAGIC_???");
	st_sep(s);
	pr_xval(s, &x_reboot_cmd, cmd, "LINUX_REBOOT_CMD_???");
	if (cmd != 0xa1b2c3d4)
		return;
	st_sep(s);
	pr_cstr_max(s, SONDE_PL_ENTRY, st_arg(s, 3), 256);
}

/* The flags, then the priority in the low 15 bits: SWAP_FLAG_PREFER|5. */
void dec_swapon(struct st *s)
{
	uint32_t f = (uint32_t)st_arg(s, 1), prio = f & 0x7fff;

	pr_path(s, st_arg(s, 0));
	st_sep(s);
	f &= ~0x7fffu;
	if (s->j) {
		st_obj_begin(s);
		st_field(s, "flags");
		pr_flags(s, &x_swap_flags, f, "SWAP_FLAG_???");
		pr_u32_field(s, "prio", prio);
		st_obj_end(s);
		return;
	}
	if (f) {
		pr_flags(s, &x_swap_flags, f, "SWAP_FLAG_???");
		if (prio)
			sb_putc(s->o, '|');
	}
	if (prio || !f)
		sb_printf(s->o, "%u", prio);
}

#define KEXEC_SEGMENT_MAX 16

/* struct kexec_segment: {buf=0x..., bufsz=N, mem=0x..., memsz=N}. */
static void pr_kexec_segment(struct st *s, const void *e)
{
	uint64_t seg[4];

	memcpy(seg, e, sizeof(seg));
	st_obj_begin(s);
	st_field(s, "buf");
	pr_addr(s, seg[0]);
	pr_ulong_field(s, "bufsz", seg[1]);
	st_field(s, "mem");
	pr_addr(s, seg[2]);
	pr_ulong_field(s, "memsz", seg[3]);
	st_obj_end(s);
}

/* struct kexec_segment[n]; more than the kernel takes: the address. */
static void pr_kexec_segments(struct st *s, uint64_t a, uint64_t n)
{
	if (n > KEXEC_SEGMENT_MAX)
		pr_unfetched(s, SONDE_PL_ENTRY, a);
	else
		pr_mem_array_of(s, SONDE_PL_ENTRY, a, n, 4 * sizeof(uint64_t), pr_kexec_segment);
}

/* The flags: the architecture in the high 16 bits, then the flags. */
void dec_kexec_load(struct st *s)
{
	uint64_t f = st_arg(s, 3);
	struct st_cap c;
	struct st *t;

	pr_addr(s, st_arg(s, 0));
	st_sep(s);
	pr_ulong(s, st_arg(s, 1));
	st_sep(s);
	pr_kexec_segments(s, st_arg(s, 2), st_arg(s, 1));
	st_sep(s);
	t = st_cap_begin(s, &c);
	pr_xval(t, &x_kexec_arch, f & 0xffff0000, "KEXEC_ARCH_???");
	if (f & 0xffff) {
		sb_putc(t->o, '|');
		pr_flags(t, &x_kexec_load_flags, f & 0xffff, "KEXEC_???");
	}
	st_cap_flags(s, &c);
}

static void pr_timex(struct st *s, uint64_t a)
{
	struct timex t;

	if (!st_ok(s)) {
		pr_addr(s, a);
		return;
	}
	if (!st_fetch(s, SONDE_PL_EXIT, a, &t, sizeof(t)))
		return;
	st_obj_begin(s);
	st_field(s, "modes");
	pr_flags(s, &x_adjtimex_modes, t.modes, "ADJ_???");
	pr_long_field(s, "offset", t.offset);
	pr_long_field(s, "freq", t.freq);
	pr_long_field(s, "maxerror", t.maxerror);
	pr_long_field(s, "esterror", t.esterror);
	st_field(s, "status");
	pr_flags(s, &x_adjtimex_status, (uint32_t)t.status, "STA_???");
	pr_long_field(s, "constant", t.constant);
	pr_long_field(s, "precision", t.precision);
	pr_long_field(s, "tolerance", t.tolerance);
	st_field(s, "time");
	st_obj_begin(s);
	pr_long_field(s, "tv_sec", t.time.tv_sec);
	pr_long_field(s, "tv_usec", t.time.tv_usec);
	st_obj_end(s);
	pr_long_field(s, "tick", t.tick);
	pr_long_field(s, "ppsfreq", t.ppsfreq);
	pr_long_field(s, "jitter", t.jitter);
	pr_int_field(s, "shift", t.shift);
	pr_long_field(s, "stabil", t.stabil);
	pr_long_field(s, "jitcnt", t.jitcnt);
	pr_long_field(s, "calcnt", t.calcnt);
	pr_long_field(s, "errcnt", t.errcnt);
	pr_long_field(s, "stbcnt", t.stbcnt);
	pr_int_field(s, "tai", t.tai);
	st_obj_end(s);
}

/* The clock's state after the call, " (TIME_ERROR)" in every -X style;
 * strace shows it with the struct only. */
static void pr_clock_state(struct st *s)
{
	const char *n = xlat_name(&x_adjtimex_state, (uint64_t)s->ret);
	struct strbuf b;
	struct st t;

	if (!st_ok(s) || !n || !st_deref(s))
		return;
	st_res_begin(s, &t, &b, "state");
	sb_puts(&b, " (");
	pr_sym(&t, n);
	sb_putc(&b, ')');
	st_res_end(s, &t, &b);
}

/* The struct is printed as the call left it. */
void dec_adjtimex(struct st *s)
{
	st_entry_end(s);
	pr_timex(s, st_arg(s, 0));
	pr_clock_state(s);
}

void dec_clock_adjtime(struct st *s)
{
	pr_clockid(s, st_arg(s, 0));
	st_sep(s);
	st_entry_end(s);
	pr_timex(s, st_arg(s, 1));
	pr_clock_state(s);
}
