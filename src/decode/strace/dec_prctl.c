// SPDX-License-Identifier: GPL-2.0
/*
 * prctl: the option decides how many arguments strace shows and what they
 * are (a capability, a pid, a pointer the kernel writes an int to...), and
 * for some options what the return value means (= 0x2 (PR_SPEC_ENABLE)).
 * Options without a rule show every argument in hex, as strace does.
 */
#include <linux/capability.h>
#include <linux/securebits.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>

#include "decode/strace/strace_int.h"

/* The kernel's task name buffer (include/linux/sched.h), NUL included. */
#define TASK_COMM_LEN 16

#define X_OF(e) { e, sizeof(e) / sizeof(e[0]), 0 }

static const struct xlat_ent cap_e[] = {
	XE(CAP_CHOWN), XE(CAP_DAC_OVERRIDE), XE(CAP_DAC_READ_SEARCH),
	XE(CAP_FOWNER), XE(CAP_FSETID), XE(CAP_KILL), XE(CAP_SETGID),
	XE(CAP_SETUID), XE(CAP_SETPCAP), XE(CAP_LINUX_IMMUTABLE),
	XE(CAP_NET_BIND_SERVICE), XE(CAP_NET_BROADCAST), XE(CAP_NET_ADMIN),
	XE(CAP_NET_RAW), XE(CAP_IPC_LOCK), XE(CAP_IPC_OWNER),
	XE(CAP_SYS_MODULE), XE(CAP_SYS_RAWIO), XE(CAP_SYS_CHROOT),
	XE(CAP_SYS_PTRACE), XE(CAP_SYS_PACCT), XE(CAP_SYS_ADMIN),
	XE(CAP_SYS_BOOT), XE(CAP_SYS_NICE), XE(CAP_SYS_RESOURCE),
	XE(CAP_SYS_TIME), XE(CAP_SYS_TTY_CONFIG), XE(CAP_MKNOD), XE(CAP_LEASE),
	XE(CAP_AUDIT_WRITE), XE(CAP_AUDIT_CONTROL), XE(CAP_SETFCAP),
	XE(CAP_MAC_OVERRIDE), XE(CAP_MAC_ADMIN), XE(CAP_SYSLOG),
	XE(CAP_WAKE_ALARM), XE(CAP_BLOCK_SUSPEND), XE(CAP_AUDIT_READ),
	XN(38, "CAP_PERFMON"), XN(39, "CAP_BPF"),
	XN(40, "CAP_CHECKPOINT_RESTORE"),
};
static const struct xlat_ent ambient_e[] = {
	XE(PR_CAP_AMBIENT_IS_SET), XE(PR_CAP_AMBIENT_RAISE),
	XE(PR_CAP_AMBIENT_LOWER), XE(PR_CAP_AMBIENT_CLEAR_ALL),
};
static const struct xlat_ent secbits_e[] = {
	XE(SECBIT_NOROOT), XE(SECBIT_NOROOT_LOCKED),
	XE(SECBIT_NO_SETUID_FIXUP), XE(SECBIT_NO_SETUID_FIXUP_LOCKED),
	XE(SECBIT_KEEP_CAPS), XE(SECBIT_KEEP_CAPS_LOCKED),
	XE(SECBIT_NO_CAP_AMBIENT_RAISE), XE(SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED),
};
static const struct xlat_ent dumpable_e[] = {
	XN(0, "SUID_DUMP_DISABLE"), XN(1, "SUID_DUMP_USER"),
	XN(2, "SUID_DUMP_ROOT"),
};
static const struct xlat_ent spec_cmd_e[] = {
	XE(PR_SPEC_STORE_BYPASS), XE(PR_SPEC_INDIRECT_BRANCH),
	XN(2, "PR_SPEC_L1D_FLUSH"),
};
/* What PR_GET_SPECULATION_CTRL returns: a flag set... */
static const struct xlat_ent spec_get_e[] = {
	XE(PR_SPEC_PRCTL), XE(PR_SPEC_ENABLE), XE(PR_SPEC_DISABLE),
	XE(PR_SPEC_FORCE_DISABLE), XE(PR_SPEC_DISABLE_NOEXEC),
};
/* ...and what PR_SET_SPECULATION_CTRL takes: one of them. */
static const struct xlat_ent spec_set_e[] = {
	XE(PR_SPEC_ENABLE), XE(PR_SPEC_DISABLE), XE(PR_SPEC_FORCE_DISABLE),
	XE(PR_SPEC_DISABLE_NOEXEC),
};
static const struct xlat_ent mce_kill_e[] = {
	XE(PR_MCE_KILL_CLEAR), XE(PR_MCE_KILL_SET),
};
static const struct xlat_ent mce_policy_e[] = {
	XE(PR_MCE_KILL_LATE), XE(PR_MCE_KILL_EARLY), XE(PR_MCE_KILL_DEFAULT),
};
static const struct xlat_ent tsc_e[] = {
	XE(PR_TSC_ENABLE), XE(PR_TSC_SIGSEGV),
};
static const struct xlat_ent unalign_e[] = {
	XE(PR_UNALIGN_NOPRINT), XE(PR_UNALIGN_SIGBUS),
};
static const struct xlat_ent fp_mode_e[] = {
	XE(PR_FP_MODE_FR), XE(PR_FP_MODE_FRE),
};
static const struct xlat_ent seccomp_mode_e[] = {
	XE(SECCOMP_MODE_DISABLED), XE(SECCOMP_MODE_STRICT),
	XE(SECCOMP_MODE_FILTER),
};
static const struct xlat_ent set_mm_e[] = {
	XE(PR_SET_MM_START_CODE), XE(PR_SET_MM_END_CODE),
	XE(PR_SET_MM_START_DATA), XE(PR_SET_MM_END_DATA),
	XE(PR_SET_MM_START_STACK), XE(PR_SET_MM_START_BRK), XE(PR_SET_MM_BRK),
	XE(PR_SET_MM_ARG_START), XE(PR_SET_MM_ARG_END),
	XE(PR_SET_MM_ENV_START), XE(PR_SET_MM_ENV_END), XE(PR_SET_MM_AUXV),
	XE(PR_SET_MM_EXE_FILE), XE(PR_SET_MM_MAP), XE(PR_SET_MM_MAP_SIZE),
};
static const struct xlat_ent set_vma_e[] = { XN(0, "PR_SET_VMA_ANON_NAME") };

static const struct xlat x_cap = X_OF(cap_e), x_ambient = X_OF(ambient_e),
	x_secbits = X_OF(secbits_e), x_dumpable = X_OF(dumpable_e),
	x_spec_cmd = X_OF(spec_cmd_e), x_spec_get = X_OF(spec_get_e),
	x_spec_set = X_OF(spec_set_e), x_mce_kill = X_OF(mce_kill_e),
	x_mce_policy = X_OF(mce_policy_e), x_tsc = X_OF(tsc_e),
	x_unalign = X_OF(unalign_e), x_fp_mode = X_OF(fp_mode_e),
	x_seccomp_mode = X_OF(seccomp_mode_e), x_set_mm = X_OF(set_mm_e),
	x_set_vma = X_OF(set_vma_e);

/* How an option's arguments print. */
enum pr_kind {
	PK_HEX = 0,   /* every argument in hex (strace's default) */
	PK_NONE,      /* the option alone */
	PK_UINT,      /* arg2 unsigned */
	PK_UINT_HEX,  /* arg2 unsigned, the rest in hex */
	PK_XVAL,      /* arg2 from x */
	PK_FLAGS,     /* arg2 flags from x */
	PK_OUT_UINT,  /* arg2 points to an unsigned int the kernel writes */
	PK_OUT_XVAL,  /* ... to an int from x */
	PK_OUT_FLAGS, /* ... to flags from x */
	PK_OUT_SIG,   /* ... to a signal number */
	PK_OUT_PTR,   /* ... to a pointer */
};

/* What the return value means besides its number. */
enum pr_ret {
	PRV_NONE = 0,
	PRV_NAME,  /* = 2 (NAME) */
	PRV_FLAGS, /* = 0x12 (A|B) when not 0 */
};

struct pr_rule {
	uint32_t op;
	uint8_t kind, ret;
	const struct xlat *x, *rx;
	const char *dflt;
};

static const struct pr_rule pr_rules[] = {
	{ PR_GET_KEEPCAPS, PK_NONE, 0, NULL, NULL, NULL },
	{ PR_GET_SECCOMP, PK_NONE, 0, NULL, NULL, NULL },
	{ PR_GET_TIMERSLACK, PK_NONE, 0, NULL, NULL, NULL },
	{ PR_GET_TIMING, PK_NONE, 0, NULL, NULL, NULL },
	{ PR_TASK_PERF_EVENTS_DISABLE, PK_NONE, 0, NULL, NULL, NULL },
	{ PR_TASK_PERF_EVENTS_ENABLE, PK_NONE, 0, NULL, NULL, NULL },
	{ PR_GET_DUMPABLE, PK_NONE, PRV_NAME, NULL, &x_dumpable, NULL },
	{ PR_GET_SECUREBITS, PK_NONE, PRV_FLAGS, NULL, &x_secbits, NULL },
	{ PR_GET_FP_MODE, PK_NONE, PRV_FLAGS, NULL, &x_fp_mode, NULL },
	{ PR_MCE_KILL_GET, PK_HEX, PRV_NAME, NULL, &x_mce_policy, NULL },
	{ PR_SET_CHILD_SUBREAPER, PK_UINT, 0, NULL, NULL, NULL },
	{ PR_SET_ENDIAN, PK_UINT, 0, NULL, NULL, NULL },
	{ PR_SET_FPEMU, PK_UINT, 0, NULL, NULL, NULL },
	{ PR_SET_FPEXC, PK_UINT, 0, NULL, NULL, NULL },
	{ PR_SET_KEEPCAPS, PK_UINT, 0, NULL, NULL, NULL },
	{ PR_SET_TIMING, PK_UINT, 0, NULL, NULL, NULL },
	{ PR_SET_NO_NEW_PRIVS, PK_UINT_HEX, 0, NULL, NULL, NULL },
	{ PR_SET_THP_DISABLE, PK_UINT_HEX, 0, NULL, NULL, NULL },
	{ PR_SET_IO_FLUSHER, PK_UINT_HEX, 0, NULL, NULL, NULL },
	{ PR_SET_DUMPABLE, PK_XVAL, 0, &x_dumpable, NULL, "SUID_DUMP_???" },
	{ PR_CAPBSET_READ, PK_XVAL, 0, &x_cap, NULL, "CAP_???" },
	{ PR_CAPBSET_DROP, PK_XVAL, 0, &x_cap, NULL, "CAP_???" },
	{ PR_SET_TSC, PK_XVAL, 0, &x_tsc, NULL, "PR_TSC_???" },
	{ PR_SET_SECUREBITS, PK_FLAGS, 0, &x_secbits, NULL, "SECBIT_???" },
	{ PR_SET_UNALIGN, PK_FLAGS, 0, &x_unalign, NULL, "PR_UNALIGN_???" },
	{ PR_SET_FP_MODE, PK_FLAGS, 0, &x_fp_mode, NULL, "PR_FP_MODE_???" },
	{ PR_GET_CHILD_SUBREAPER, PK_OUT_UINT, 0, NULL, NULL, NULL },
	{ PR_GET_ENDIAN, PK_OUT_UINT, 0, NULL, NULL, NULL },
	{ PR_GET_FPEMU, PK_OUT_UINT, 0, NULL, NULL, NULL },
	{ PR_GET_FPEXC, PK_OUT_UINT, 0, NULL, NULL, NULL },
	{ PR_GET_TSC, PK_OUT_XVAL, 0, &x_tsc, NULL, "PR_TSC_???" },
	{ PR_GET_UNALIGN, PK_OUT_FLAGS, 0, &x_unalign, NULL, "PR_UNALIGN_???" },
	{ PR_GET_PDEATHSIG, PK_OUT_SIG, 0, NULL, NULL, NULL },
	{ PR_GET_TID_ADDRESS, PK_OUT_PTR, 0, NULL, NULL, NULL },
};

static const struct pr_rule *prctl_rule(uint32_t op)
{
	static const struct pr_rule hex = { 0, PK_HEX, 0, NULL, NULL, NULL };

	for (size_t i = 0; i < sizeof(pr_rules) / sizeof(pr_rules[0]); i++)
		if (pr_rules[i].op == op)
			return &pr_rules[i];
	return &hex;
}

/* Arguments from..4 (0-based) in hex. */
static void prctl_print_hex(struct st *s, int from)
{
	for (int i = from; i < 5; i++) {
		st_sep(s);
		pr_hex(s, st_arg(s, i));
	}
}

/* [value] the kernel wrote through arg2; its address if the call failed. */
static void prctl_print_out(struct st *s, const struct pr_rule *r)
{
	uint64_t a = st_arg(s, 1);
	uint64_t v = 0;

	st_entry_end(s);
	if (!st_ok(s)) {
		pr_addr(s, a);
		return;
	}
	if (!st_fetch(s, SONDE_PL_EXIT, a, &v, r->kind == PK_OUT_PTR ? 8 : 4))
		return;
	if (!s->j)
		sb_putc(s->o, '[');
	switch (r->kind) {
	case PK_OUT_UINT:
		pr_uint(s, v);
		break;
	case PK_OUT_XVAL:
		pr_xval(s, r->x, v, r->dflt);
		break;
	case PK_OUT_FLAGS:
		pr_flags(s, r->x, v, r->dflt);
		break;
	case PK_OUT_SIG:
		pr_sig(s, v);
		break;
	default:
		pr_addr(s, v);
		break;
	}
	if (!s->j)
		sb_putc(s->o, ']');
}

static void prctl_print_rule(struct st *s, const struct pr_rule *r)
{
	if (r->kind == PK_NONE)
		return;
	if (r->kind == PK_HEX) {
		prctl_print_hex(s, 1);
		return;
	}
	st_sep(s);
	switch (r->kind) {
	case PK_UINT:
		pr_ulong(s, st_arg(s, 1));
		break;
	case PK_UINT_HEX:
		pr_ulong(s, st_arg(s, 1));
		prctl_print_hex(s, 2);
		break;
	case PK_XVAL:
		pr_xval(s, r->x, st_arg(s, 1), r->dflt);
		break;
	case PK_FLAGS:
		pr_flags(s, r->x, st_arg(s, 1), r->dflt);
		break;
	default:
		prctl_print_out(s, r);
		break;
	}
}

/*
 * " (NAME)" or, for a flag set, " (A|B)" after a hex return value; strace
 * leaves out a flag set's names with -X raw, not a name's.
 */
static void prctl_note_ret(struct st *s, int kind, const struct xlat *x)
{
	const char *name = x ? xlat_name(x, (uint64_t)s->ret) : NULL;
	struct strbuf b;
	struct st t;

	if (!st_ok(s) || kind == PRV_NONE)
		return;
	if (kind == PRV_NAME) {
		if (name)
			st_res_name(s, "name", name);
		return;
	}
	if (!s->ret)
		return;
	s->rkind = R_HEX;
	if (s->opt->xlat == SONDE_XLAT_RAW && !s->j)
		return;
	st_res_begin(s, &t, &b, "flags");
	sb_puts(&b, " (");
	if (t.j)
		pr_flags(&t, x, (uint64_t)s->ret, NULL);
	else
		sb_flags(&b, x, (uint64_t)s->ret);
	sb_putc(&b, ')');
	st_res_end(s, &t, &b);
}

/* PR_CAP_AMBIENT: the sub-operation, then a capability for the three that
 * take one. */
static void prctl_print_ambient(struct st *s)
{
	uint64_t sub = st_arg(s, 1);

	st_sep(s);
	pr_xval(s, &x_ambient, sub, "PR_CAP_AMBIENT_???");
	if (sub != PR_CAP_AMBIENT_IS_SET && sub != PR_CAP_AMBIENT_RAISE &&
	    sub != PR_CAP_AMBIENT_LOWER) {
		prctl_print_hex(s, 2);
		return;
	}
	st_sep(s);
	pr_xval(s, &x_cap, st_arg(s, 2), "CAP_???");
	prctl_print_hex(s, 3);
}

static void prctl_print_mce_kill(struct st *s)
{
	st_sep(s);
	pr_xval(s, &x_mce_kill, st_arg(s, 1), "PR_MCE_KILL_???");
	st_sep(s);
	if (st_arg(s, 1) == PR_MCE_KILL_SET)
		pr_xval(s, &x_mce_policy, st_arg(s, 2), "PR_MCE_KILL_???");
	else
		pr_hex(s, st_arg(s, 2));
	prctl_print_hex(s, 3);
}

static int spec_cmd_known(uint64_t v)
{
	return v == PR_SPEC_STORE_BYPASS || v == PR_SPEC_INDIRECT_BRANCH || v == 2;
}

static void prctl_print_speculation(struct st *s, uint32_t op)
{
	uint64_t which = st_arg(s, 1);

	st_sep(s);
	pr_xval(s, &x_spec_cmd, which, "PR_SPEC_???");
	if (op == PR_GET_SPECULATION_CTRL) {
		if (spec_cmd_known(which))
			prctl_note_ret(s, PRV_FLAGS, &x_spec_get);
		return;
	}
	st_sep(s);
	if (spec_cmd_known(which))
		pr_xval(s, &x_spec_set, st_arg(s, 2), "PR_SPEC_???");
	else
		pr_hex(s, st_arg(s, 2));
}

static void prctl_print_ptracer(struct st *s)
{
	st_sep(s);
	if ((int)st_arg(s, 1) != -1 || s->j)
		pr_pid(s, st_arg(s, 1));
	else
		pr_symexpr(s, "-1", "PR_SET_PTRACER_ANY");
}

/* The strict mode takes nothing, a filter a struct sock_fprog. */
static void prctl_print_seccomp(struct st *s)
{
	uint64_t mode = st_arg(s, 1);

	st_sep(s);
	pr_xval(s, &x_seccomp_mode, mode, "SECCOMP_MODE_???");
	if (mode == SECCOMP_MODE_STRICT)
		return;
	if (mode != SECCOMP_MODE_FILTER) {
		prctl_print_hex(s, 2);
		return;
	}
	st_sep(s);
	pr_seccomp_fprog(s, st_arg(s, 2));
}

static void prctl_print_vma(struct st *s)
{
	st_sep(s);
	pr_xval(s, &x_set_vma, st_arg(s, 1), "PR_SET_VMA_???");
	if (st_arg(s, 1) != 0) {
		prctl_print_hex(s, 2);
		return;
	}
	st_sep(s);
	pr_addr(s, st_arg(s, 2));
	st_sep(s);
	pr_ulong(s, st_arg(s, 3));
	st_sep(s);
	pr_cstr(s, SONDE_PL_ENTRY, st_arg(s, 4));
}

static void prctl_print_name(struct st *s, uint32_t op)
{
	st_sep(s);
	if (op == PR_SET_NAME) {
		/* strace reads TASK_COMM_LEN - 1 bytes: a 15-character
		 * name is shown "cut". */
		pr_cstr_max(s, SONDE_PL_ENTRY, st_arg(s, 1), TASK_COMM_LEN - 1);
		return;
	}
	st_entry_end(s);
	if (st_ok(s))
		pr_cstr(s, SONDE_PL_EXIT, st_arg(s, 1));
	else
		pr_addr(s, st_arg(s, 1));
}

/* Options whose arguments depend on each other; 0 if op is not one. */
static int prctl_print_special(struct st *s, uint32_t op)
{
	switch (op) {
	case PR_CAP_AMBIENT:
		prctl_print_ambient(s);
		return 1;
	case PR_MCE_KILL:
		prctl_print_mce_kill(s);
		return 1;
	case PR_GET_SPECULATION_CTRL:
	case PR_SET_SPECULATION_CTRL:
		prctl_print_speculation(s, op);
		return 1;
	case PR_SET_PTRACER:
		prctl_print_ptracer(s);
		return 1;
	case PR_SET_SECCOMP:
		prctl_print_seccomp(s);
		return 1;
	case PR_SET_MM:
		st_sep(s);
		pr_xval(s, &x_set_mm, (uint32_t)st_arg(s, 1), "PR_SET_MM_???");
		prctl_print_hex(s, 2);
		return 1;
	case 0x53564d41: /* PR_SET_VMA */
		prctl_print_vma(s);
		return 1;
	case PR_SET_NAME:
	case PR_GET_NAME:
		prctl_print_name(s, op);
		return 1;
	case PR_SET_PDEATHSIG:
		st_sep(s);
		if (st_arg(s, 1) > 128)
			pr_ulong(s, st_arg(s, 1));
		else
			pr_sig(s, st_arg(s, 1));
		return 1;
	case PR_SET_TIMERSLACK:
		st_sep(s);
		pr_long(s, st_arg(s, 1));
		return 1;
	}
	return 0;
}

void dec_prctl(struct st *s)
{
	uint32_t op = (uint32_t)st_arg(s, 0);
	const struct pr_rule *r;

	pr_xval(s, &x_prctl, op, "PR_???");
	if (prctl_print_special(s, op))
		return;
	r = prctl_rule(op);
	prctl_print_rule(s, r);
	prctl_note_ret(s, r->ret, r->rx);
}
