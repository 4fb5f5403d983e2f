// SPDX-License-Identifier: GPL-2.0
/*
 * keyctl's Diffie-Hellman, public key and capabilities commands as
 * strace 6.1 prints them: struct keyctl_dh_params and keyctl_kdf_params,
 * keyctl_pkey_params with the buffers whose lengths it gives,
 * keyctl_pkey_query, and the capability bytes.
 */
#include <linux/keyctl.h>
#include <string.h>

#include "decode/strace/strace_int.h"

XLAT_DEF(x_keyctl_caps0, 0, XN(0x01, "KEYCTL_CAPS0_CAPABILITIES"),
	 XN(0x02, "KEYCTL_CAPS0_PERSISTENT_KEYRINGS"), XN(0x04, "KEYCTL_CAPS0_DIFFIE_HELLMAN"),
	 XN(0x08, "KEYCTL_CAPS0_PUBLIC_KEY"), XN(0x10, "KEYCTL_CAPS0_BIG_KEY"),
	 XN(0x20, "KEYCTL_CAPS0_INVALIDATE"), XN(0x40, "KEYCTL_CAPS0_RESTRICT_KEYRING"),
	 XN(0x80, "KEYCTL_CAPS0_MOVE"));
XLAT_DEF(x_keyctl_caps1, 0, XN(0x01, "KEYCTL_CAPS1_NS_KEYRING_NAME"),
	 XN(0x02, "KEYCTL_CAPS1_NS_KEY_TAG"), XN(0x04, "KEYCTL_CAPS1_NOTIFICATIONS"));
XLAT_DEF(x_keyctl_pkey_ops, 0, XN(0x01, "KEYCTL_SUPPORTS_ENCRYPT"),
	 XN(0x02, "KEYCTL_SUPPORTS_DECRYPT"), XN(0x04, "KEYCTL_SUPPORTS_SIGN"),
	 XN(0x08, "KEYCTL_SUPPORTS_VERIFY"));

/* __spare=[0x1, 0, ...], only when not all zero; cut by -s. */
static void pr_spare(struct st *s, const uint32_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n && !v[i]; i++)
		;
	if (i == n)
		return;
	st_field(s, "__spare");
	pr_local_array(s, (const uint8_t *)v, n * sizeof(*v), sizeof(*v), pr_hex);
}

static void pr_key_field(struct st *s, const char *name, int32_t v)
{
	st_field(s, name);
	pr_key(s, (uint32_t)v);
}

/* The bytes a capability byte names, by its index. */
static void pr_cap_byte(struct st *s, uint64_t i, uint8_t v)
{
	if (i == 0)
		pr_flags(s, &x_keyctl_caps0, v, "KEYCTL_CAPS0_???");
	else if (i == 1)
		pr_flags(s, &x_keyctl_caps1, v, "KEYCTL_CAPS1_???");
	else
		pr_hex(s, v);
}

/* CAPABILITIES: what the call wrote, at most buflen bytes. */
static void keyctl_caps(struct st *s)
{
	uint64_t a = st_arg(s, 1), len = st_arg(s, 2), n;
	uint8_t b[256];

	st_entry_end(s);
	if (!st_ok(s) || !a) {
		pr_addr(s, a);
	} else {
		n = (uint64_t)s->ret < len ? (uint64_t)s->ret : len;
		n = n < sizeof(b) ? n : sizeof(b);
		if (st_fetch(s, SONDE_PL_EXIT, a, b, n)) {
			st_arr_begin(s);
			for (uint64_t i = 0; i < n; i++) {
				if (st_array_cut(s, i)) {
					sb_puts(s->o, ", ...");
					break;
				}
				st_elem(s);
				pr_cap_byte(s, i, b[i]);
			}
			st_arr_end(s);
		}
	}
	st_sep(s);
	pr_ulong(s, len);
}

/* struct keyctl_kdf_params: otherinfo's bytes only if it has a length.
 * strace shows it whatever -e verbose= says. */
static void pr_kdf(struct st *s, uint64_t a)
{
	struct keyctl_kdf_params k;

	if (!st_read(s, SONDE_PL_ENTRY, a, &k, sizeof(k))) {
		pr_unfetched(s, SONDE_PL_ENTRY, a);
		return;
	}
	st_obj_begin(s);
	st_field(s, "hashname");
	pr_cstr(s, SONDE_PL_ENTRY, (uint64_t)(uintptr_t)k.hashname);
	st_field(s, "otherinfo");
	if (k.otherinfolen)
		pr_buf(s, SONDE_PL_ENTRY, (uint64_t)(uintptr_t)k.otherinfo, k.otherinfolen, 0);
	else
		pr_addr(s, (uint64_t)(uintptr_t)k.otherinfo);
	pr_u32_field(s, "otherinfolen", k.otherinfolen);
	pr_spare(s, k.__spare, sizeof(k.__spare) / sizeof(k.__spare[0]));
	st_obj_end(s);
}

/* DH_COMPUTE: the keys at entry; the secret (at most buflen bytes) and
 * the KDF at exit. */
static void keyctl_dh(struct st *s)
{
	struct keyctl_dh_params p;
	uint64_t buf = st_arg(s, 2), len = st_arg(s, 3);

	if (st_fetch(s, SONDE_PL_ENTRY, st_arg(s, 1), &p, sizeof(p))) {
		st_obj_begin(s);
		pr_key_field(s, "private", p.private);
		pr_key_field(s, "prime", p.prime);
		pr_key_field(s, "base", p.base);
		st_obj_end(s);
	}
	st_sep(s);
	st_entry_end(s);
	if (!st_ok(s))
		pr_addr(s, buf);
	else
		pr_buf(s, SONDE_PL_EXIT, buf, (uint64_t)s->ret < len ? (uint64_t)s->ret : len, 0);
	st_sep(s);
	pr_ulong(s, len);
	st_sep(s);
	pr_kdf(s, st_arg(s, 4));
}

/* PKEY_QUERY: key, reserved, params string; what the key supports. */
static void keyctl_pkey_query(struct st *s)
{
	struct keyctl_pkey_query q;
	uint64_t a = st_arg(s, 4);

	pr_key(s, st_arg(s, 1));
	st_sep(s);
	pr_hex(s, st_arg(s, 2));
	st_sep(s);
	pr_cstr(s, SONDE_PL_ENTRY, st_arg(s, 3));
	st_sep(s);
	st_entry_end(s);
	if (!st_ok(s)) {
		pr_addr(s, a);
		return;
	}
	if (!st_fetch(s, SONDE_PL_EXIT, a, &q, sizeof(q)))
		return;
	st_obj_begin(s);
	st_field(s, "supported_ops");
	pr_flags(s, &x_keyctl_pkey_ops, q.supported_ops, "KEYCTL_SUPPORTS_???");
	pr_u32_field(s, "key_size", q.key_size);
	pr_u32_field(s, "max_data_size", q.max_data_size);
	pr_u32_field(s, "max_sig_size", q.max_sig_size);
	pr_u32_field(s, "max_enc_size", q.max_enc_size);
	pr_u32_field(s, "max_dec_size", q.max_dec_size);
	pr_spare(s, q.__spare, sizeof(q.__spare) / sizeof(q.__spare[0]));
	st_obj_end(s);
}

/*
 * PKEY_ENCRYPT, _DECRYPT, _SIGN (out: what the call wrote, out_len
 * bytes) and _VERIFY (in2, in2_len bytes): the lengths are the params'.
 * Params that cannot be read leave the buffers as addresses.
 */
static void keyctl_pkey_op(struct st *s, int verify)
{
	struct keyctl_pkey_params p;
	int have = st_fetch(s, SONDE_PL_ENTRY, st_arg(s, 1), &p, sizeof(p));
	uint64_t in = st_arg(s, 3), op2 = st_arg(s, 4);

	if (have) {
		st_obj_begin(s);
		pr_key_field(s, "key_id", p.key_id);
		pr_u32_field(s, "in_len", p.in_len);
		pr_u32_field(s, verify ? "in2_len" : "out_len", p.out_len);
		pr_spare(s, p.__spare, sizeof(p.__spare) / sizeof(p.__spare[0]));
		st_obj_end(s);
	}
	st_sep(s);
	pr_cstr(s, SONDE_PL_ENTRY, st_arg(s, 2));
	st_sep(s);
	if (have)
		pr_buf(s, SONDE_PL_ENTRY, in, p.in_len, 0);
	else
		pr_addr(s, in);
	st_sep(s);
	if (!have) {
		pr_addr(s, op2);
	} else if (verify) {
		pr_buf(s, SONDE_PL_ENTRY, op2, p.in2_len, 0);
	} else {
		st_entry_end(s);
		if (st_ok(s))
			pr_buf(s, SONDE_PL_EXIT, op2, p.out_len, 0);
		else
			pr_addr(s, op2);
	}
}

int keyctl_crypto(struct st *s, int cmd)
{
	switch (cmd) {
	case KEYCTL_DH_COMPUTE:
		keyctl_dh(s);
		return 1;
	case KEYCTL_PKEY_QUERY:
		keyctl_pkey_query(s);
		return 1;
	case KEYCTL_PKEY_ENCRYPT:
	case KEYCTL_PKEY_DECRYPT:
	case KEYCTL_PKEY_SIGN:
	case KEYCTL_PKEY_VERIFY:
		keyctl_pkey_op(s, cmd == KEYCTL_PKEY_VERIFY);
		return 1;
	case KEYCTL_CAPABILITIES:
		keyctl_caps(s);
		return 1;
	}
	return 0;
}
