// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel key retention service as strace 6.1 prints it: add_key,
 * request_key and keyctl. keyctl's arguments depend on its command;
 * the Diffie-Hellman, public key and capabilities commands are shown
 * with raw arguments (docs/strace-differences.md).
 */
#include <inttypes.h>
#include <string.h>

#include <sonde/syscalls.h>

#include "decode/strace/strace_int.h"

XLAT_DEF(x_key_spec, 1, XN((uint32_t)-1, "KEY_SPEC_THREAD_KEYRING"),
	 XN((uint32_t)-2, "KEY_SPEC_PROCESS_KEYRING"), XN((uint32_t)-3, "KEY_SPEC_SESSION_KEYRING"),
	 XN((uint32_t)-4, "KEY_SPEC_USER_KEYRING"), XN((uint32_t)-5, "KEY_SPEC_USER_SESSION_KEYRING"),
	 XN((uint32_t)-6, "KEY_SPEC_GROUP_KEYRING"), XN((uint32_t)-7, "KEY_SPEC_REQKEY_AUTH_KEY"),
	 XN((uint32_t)-8, "KEY_SPEC_REQUESTOR_KEYRING"));
XLAT_DEF(x_key_reqkeys, 1, XN((uint32_t)-1, "KEY_REQKEY_DEFL_NO_CHANGE"),
	 XN(0, "KEY_REQKEY_DEFL_DEFAULT"), XN(1, "KEY_REQKEY_DEFL_THREAD_KEYRING"),
	 XN(2, "KEY_REQKEY_DEFL_PROCESS_KEYRING"), XN(3, "KEY_REQKEY_DEFL_SESSION_KEYRING"),
	 XN(4, "KEY_REQKEY_DEFL_USER_KEYRING"), XN(5, "KEY_REQKEY_DEFL_USER_SESSION_KEYRING"),
	 XN(6, "KEY_REQKEY_DEFL_GROUP_KEYRING"), XN(7, "KEY_REQKEY_DEFL_REQUESTOR_KEYRING"));
XLAT_DEF(x_key_perms, 0, XN(0x01000000, "KEY_POS_VIEW"), XN(0x02000000, "KEY_POS_READ"),
	 XN(0x04000000, "KEY_POS_WRITE"), XN(0x08000000, "KEY_POS_SEARCH"),
	 XN(0x10000000, "KEY_POS_LINK"), XN(0x20000000, "KEY_POS_SETATTR"),
	 XN(0x3f000000, "KEY_POS_ALL"), XN(0x00010000, "KEY_USR_VIEW"),
	 XN(0x00020000, "KEY_USR_READ"), XN(0x00040000, "KEY_USR_WRITE"),
	 XN(0x00080000, "KEY_USR_SEARCH"), XN(0x00100000, "KEY_USR_LINK"),
	 XN(0x00200000, "KEY_USR_SETATTR"), XN(0x003f0000, "KEY_USR_ALL"),
	 XN(0x00000100, "KEY_GRP_VIEW"), XN(0x00000200, "KEY_GRP_READ"),
	 XN(0x00000400, "KEY_GRP_WRITE"), XN(0x00000800, "KEY_GRP_SEARCH"),
	 XN(0x00001000, "KEY_GRP_LINK"), XN(0x00002000, "KEY_GRP_SETATTR"),
	 XN(0x00003f00, "KEY_GRP_ALL"), XN(0x00000001, "KEY_OTH_VIEW"),
	 XN(0x00000002, "KEY_OTH_READ"), XN(0x00000004, "KEY_OTH_WRITE"),
	 XN(0x00000008, "KEY_OTH_SEARCH"), XN(0x00000010, "KEY_OTH_LINK"),
	 XN(0x00000020, "KEY_OTH_SETATTR"), XN(0x0000003f, "KEY_OTH_ALL"));
XLAT_DEF(x_keyctl_cmds, 0, XN(0, "KEYCTL_GET_KEYRING_ID"), XN(1, "KEYCTL_JOIN_SESSION_KEYRING"),
	 XN(2, "KEYCTL_UPDATE"), XN(3, "KEYCTL_REVOKE"), XN(4, "KEYCTL_CHOWN"),
	 XN(5, "KEYCTL_SETPERM"), XN(6, "KEYCTL_DESCRIBE"), XN(7, "KEYCTL_CLEAR"),
	 XN(8, "KEYCTL_LINK"), XN(9, "KEYCTL_UNLINK"), XN(10, "KEYCTL_SEARCH"),
	 XN(11, "KEYCTL_READ"), XN(12, "KEYCTL_INSTANTIATE"), XN(13, "KEYCTL_NEGATE"),
	 XN(14, "KEYCTL_SET_REQKEY_KEYRING"), XN(15, "KEYCTL_SET_TIMEOUT"),
	 XN(16, "KEYCTL_ASSUME_AUTHORITY"), XN(17, "KEYCTL_GET_SECURITY"),
	 XN(18, "KEYCTL_SESSION_TO_PARENT"), XN(19, "KEYCTL_REJECT"),
	 XN(20, "KEYCTL_INSTANTIATE_IOV"), XN(21, "KEYCTL_INVALIDATE"),
	 XN(22, "KEYCTL_GET_PERSISTENT"), XN(23, "KEYCTL_DH_COMPUTE"),
	 XN(24, "KEYCTL_PKEY_QUERY"), XN(25, "KEYCTL_PKEY_ENCRYPT"),
	 XN(26, "KEYCTL_PKEY_DECRYPT"), XN(27, "KEYCTL_PKEY_SIGN"),
	 XN(28, "KEYCTL_PKEY_VERIFY"), XN(29, "KEYCTL_RESTRICT_KEYRING"),
	 XN(30, "KEYCTL_MOVE"), XN(31, "KEYCTL_CAPABILITIES"), XN(32, "KEYCTL_WATCH_KEY"));
XLAT_DEF(x_keyctl_move, 0, XN(1, "KEYCTL_MOVE_EXCL"));

/* A decimal number with a name: KEY_SPEC_SESSION_KEYRING, -3 raw,
 * "-3 /\* KEY_SPEC_SESSION_KEYRING *\/" verbose; unnamed ones bare
 * (dflt NULL) or with strace's "???" comment. */
static void pr_xval_d(struct st *s, const struct xlat *x, int32_t v, const char *dflt)
{
	const char *n = xlat_name(x, (uint32_t)v);
	char num[16];

	if (s->j) {
		pr_xval(s, x, (uint32_t)v, dflt);
		return;
	}
	snprintf(num, sizeof(num), "%d", v);
	if (n)
		pr_symexpr(s, num, n);
	else if (dflt && s->opt->xlat != SONDE_XLAT_RAW)
		sb_printf(s->o, "%s /* %s */", num, dflt);
	else
		sb_puts(s->o, num);
}

void pr_key(struct st *s, uint64_t v)
{
	pr_xval_d(s, &x_key_spec, (int32_t)v, NULL);
}

/* An errno value: ENOKEY, 126 raw. */
static void pr_errno_value(struct st *s, uint32_t e)
{
	const char *n = sonde_errno_name((int)e);

	if (!s->j)
		pr_errno_text(s, e, 0);
	else if (n)
		pr_sym(s, n);
	else
		pr_uint(s, e);
}

static void pr_key_uid(struct st *s, uint64_t v)
{
	if ((uint32_t)v == UINT32_MAX)
		pr_int(s, (uint32_t)v);
	else
		pr_uint(s, (uint32_t)v);
}

void dec_add_key(struct st *s)
{
	pr_cstr(s, SONDE_PL_ENTRY, st_arg(s, 0));
	st_sep(s);
	pr_cstr(s, SONDE_PL_ENTRY, st_arg(s, 1));
	st_sep(s);
	pr_buf(s, SONDE_PL_ENTRY, st_arg(s, 2), st_arg(s, 3), 0);
	st_sep(s);
	pr_ulong(s, st_arg(s, 3));
	st_sep(s);
	pr_key(s, st_arg(s, 4));
}

void dec_request_key(struct st *s)
{
	for (int i = 0; i < 3; i++) {
		pr_cstr(s, SONDE_PL_ENTRY, st_arg(s, i));
		st_sep(s);
	}
	pr_key(s, st_arg(s, 3));
}

/* DESCRIBE, READ, GET_SECURITY: what the call wrote, at most len bytes
 * (the return value is the size it would need); DESCRIBE's and
 * GET_SECURITY's trailing NUL is not shown. */
static void keyctl_read(struct st *s, int cmd)
{
	uint64_t a = st_arg(s, 2), len = st_arg(s, 3), n;
	uint8_t last;

	pr_key(s, st_arg(s, 1));
	st_sep(s);
	st_entry_end(s);
	if (!st_ok(s)) {
		pr_addr(s, a);
	} else {
		n = (uint64_t)s->ret > len ? len : (uint64_t)s->ret;
		if (cmd != 11 && n && st_peek(s, SONDE_PL_EXIT, a + n - 1, &last, 1) && !last)
			n--;
		pr_buf(s, SONDE_PL_EXIT, a, n, 0);
	}
	st_sep(s);
	pr_ulong(s, len);
}

/* Arguments 2.. of the commands with the same shapes. */
static int keyctl_args(struct st *s, int cmd)
{
	switch (cmd) {
	case 0: /* GET_KEYRING_ID: id, create */
		pr_key(s, st_arg(s, 1));
		st_sep(s);
		pr_int(s, st_arg(s, 2));
		return 1;
	case 1: /* JOIN_SESSION_KEYRING: name */
		pr_cstr(s, SONDE_PL_ENTRY, st_arg(s, 1));
		return 1;
	case 2: /* UPDATE: id, payload, len */
		pr_key(s, st_arg(s, 1));
		st_sep(s);
		pr_buf(s, SONDE_PL_ENTRY, st_arg(s, 2), st_arg(s, 3), 0);
		st_sep(s);
		pr_ulong(s, st_arg(s, 3));
		return 1;
	case 3: case 7: case 16: case 21: /* REVOKE, CLEAR, ASSUME_AUTHORITY, INVALIDATE */
		pr_key(s, st_arg(s, 1));
		return 1;
	case 8: case 9: /* LINK, UNLINK */
		pr_key(s, st_arg(s, 1));
		st_sep(s);
		pr_key(s, st_arg(s, 2));
		return 1;
	case 4: /* CHOWN: id, uid, gid */
		pr_key(s, st_arg(s, 1));
		st_sep(s);
		pr_key_uid(s, st_arg(s, 2));
		st_sep(s);
		pr_key_uid(s, st_arg(s, 3));
		return 1;
	case 5: /* SETPERM */
		pr_key(s, st_arg(s, 1));
		st_sep(s);
		pr_flags(s, &x_key_perms, (uint32_t)st_arg(s, 2), "KEY_???");
		return 1;
	case 15: /* SET_TIMEOUT */
		pr_key(s, st_arg(s, 1));
		st_sep(s);
		pr_uint(s, (uint32_t)st_arg(s, 2));
		return 1;
	case 22: /* GET_PERSISTENT: uid, keyring */
		pr_key_uid(s, st_arg(s, 1));
		st_sep(s);
		pr_key(s, st_arg(s, 2));
		return 1;
	case 14: /* SET_REQKEY_KEYRING */
		pr_xval_d(s, &x_key_reqkeys, (int32_t)st_arg(s, 1), "KEY_REQKEY_DEFL_???");
		return 1;
	}
	return 0;
}

/* Commands that take strings, payloads or errors. */
static int keyctl_args_mem(struct st *s, int cmd)
{
	switch (cmd) {
	case 10: case 29: /* SEARCH: id, type, desc, dest; RESTRICT_KEYRING */
		pr_key(s, st_arg(s, 1));
		st_sep(s);
		pr_cstr(s, SONDE_PL_ENTRY, st_arg(s, 2));
		st_sep(s);
		pr_cstr(s, SONDE_PL_ENTRY, st_arg(s, 3));
		if (cmd == 10) {
			st_sep(s);
			pr_key(s, st_arg(s, 4));
		}
		return 1;
	case 12: case 20: /* INSTANTIATE: id, payload, len, keyring; _IOV */
		pr_key(s, st_arg(s, 1));
		st_sep(s);
		if (cmd == 12)
			pr_buf(s, SONDE_PL_ENTRY, st_arg(s, 2), st_arg(s, 3), 0);
		else
			pr_iov(s, SONDE_PL_ENTRY, st_arg(s, 2), st_arg(s, 3), UINT64_MAX);
		st_sep(s);
		pr_ulong(s, st_arg(s, 3));
		st_sep(s);
		pr_key(s, st_arg(s, 4));
		return 1;
	case 13: case 19: /* NEGATE: id, timeout, keyring; REJECT adds an errno */
		pr_key(s, st_arg(s, 1));
		st_sep(s);
		pr_uint(s, (uint32_t)st_arg(s, 2));
		st_sep(s);
		if (cmd == 19) {
			pr_errno_value(s, (uint32_t)st_arg(s, 3));
			st_sep(s);
		}
		pr_key(s, st_arg(s, cmd == 19 ? 4 : 3));
		return 1;
	case 30: /* MOVE: id, from, to, flags */
		for (int i = 1; i < 4; i++) {
			pr_key(s, st_arg(s, i));
			st_sep(s);
		}
		pr_flags(s, &x_keyctl_move, (uint32_t)st_arg(s, 4), "KEYCTL_MOVE_???");
		return 1;
	}
	return 0;
}

void dec_keyctl(struct st *s)
{
	int cmd = (int)st_arg(s, 0);

	pr_xval(s, &x_keyctl_cmds, (uint32_t)cmd, "KEYCTL_???");
	if (cmd == 18) /* SESSION_TO_PARENT takes nothing */
		return;
	st_sep(s);
	if (cmd == 6 || cmd == 11 || cmd == 17) {
		keyctl_read(s, cmd);
		return;
	}
	if (keyctl_args(s, cmd) || keyctl_args_mem(s, cmd) || keyctl_crypto(s, cmd))
		return;
	for (int i = 1; i < 5; i++) {
		if (i > 1)
			st_sep(s);
		pr_hex(s, st_arg(s, i));
	}
}
