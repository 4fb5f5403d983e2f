// SPDX-License-Identifier: GPL-2.0
/*
 * ioctls of block devices (BLK*) and loop devices (LOOP_*, and the
 * loop-control device's LOOP_CTL_*) as strace 6.1 prints them: numbers
 * in and out ([N] at exit for the getters), struct loop_info,
 * loop_info64 and loop_config, BLKPG's partition and BLKTRACESETUP's
 * setup.
 */
#include <linux/blkpg.h>
#include <linux/blktrace_api.h>
#include <linux/blkzoned.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "decode/strace/strace_int.h"

XLAT_DEF(x_loop_flags, 0, XN(1, "LO_FLAGS_READ_ONLY"), XN(2, "LO_FLAGS_USE_AOPS"),
	 XN(4, "LO_FLAGS_AUTOCLEAR"), XN(8, "LO_FLAGS_PARTSCAN"), XN(16, "LO_FLAGS_DIRECT_IO"));
XLAT_DEF(x_loop_crypt, 0, XN(0, "LO_CRYPT_NONE"), XN(1, "LO_CRYPT_XOR"), XN(2, "LO_CRYPT_DES"),
	 XN(3, "LO_CRYPT_FISH2"), XN(4, "LO_CRYPT_BLOW"), XN(5, "LO_CRYPT_CAST128"),
	 XN(6, "LO_CRYPT_IDEA"), XN(9, "LO_CRYPT_DUMMY"), XN(10, "LO_CRYPT_SKIPJACK"),
	 XN(18, "LO_CRYPT_CRYPTOAPI"));
XLAT_DEF(x_blkpg_ops, 0, XN(1, "BLKPG_ADD_PARTITION"), XN(2, "BLKPG_DEL_PARTITION"),
	 XN(3, "BLKPG_RESIZE_PARTITION"));

static void pr_dev_field(struct st *s, const char *name, uint64_t dev)
{
	st_field(s, name);
	pr_dev(s, major(dev), minor(dev));
}

/* lo_init=[0, 0] and the like: %#x each. */
static void pr_hex_array_field(struct st *s, const char *name, const uint64_t *v, int n)
{
	st_field(s, name);
	st_arr_begin(s);
	for (int i = 0; i < n; i++) {
		st_elem(s);
		pr_hex(s, v[i]);
	}
	st_arr_end(s);
}

/* The encryption members, shown with -v or when there is encryption. */
static void pr_loop_crypt(struct st *s, uint32_t type, int key_size)
{
	st_field(s, "lo_encrypt_type");
	pr_xval(s, &x_loop_crypt, type, "LO_CRYPT_???");
	pr_u32_field(s, "lo_encrypt_key_size", (uint32_t)key_size);
}

static void pr_loop_key(struct st *s, const uint8_t *key, int key_size)
{
	uint32_t n = (uint32_t)key_size < LO_KEY_SIZE ? (uint32_t)key_size : LO_KEY_SIZE;

	st_field(s, "lo_encrypt_key");
	pr_quoted(s, key, n, 0, 0, 0);
}

static void ps_loop_info(struct st *s, int phase, uint64_t a)
{
	struct loop_info i;
	int full = s->opt->verbose || s->j;
	uint64_t init[2];

	if (!st_fetch(s, phase, a, &i, sizeof(i)))
		return;
	st_obj_begin(s);
	pr_int_field(s, "lo_number", i.lo_number);
	if (full) {
		pr_dev_field(s, "lo_device", i.lo_device);
		pr_ulong_field(s, "lo_inode", i.lo_inode);
		pr_dev_field(s, "lo_rdevice", i.lo_rdevice);
	}
	pr_hex_field(s, "lo_offset", (uint32_t)i.lo_offset);
	if (full || i.lo_encrypt_type != LO_CRYPT_NONE)
		pr_loop_crypt(s, (uint32_t)i.lo_encrypt_type, i.lo_encrypt_key_size);
	st_field(s, "lo_flags");
	pr_flags(s, &x_loop_flags, (uint32_t)i.lo_flags, "LO_FLAGS_???");
	pr_chars_field(s, "lo_name", i.lo_name, sizeof(i.lo_name));
	if (full || i.lo_encrypt_type != LO_CRYPT_NONE)
		pr_loop_key(s, i.lo_encrypt_key, i.lo_encrypt_key_size);
	if (!full) {
		st_obj_end_cut(s);
		return;
	}
	init[0] = i.lo_init[0];
	init[1] = i.lo_init[1];
	pr_hex_array_field(s, "lo_init", init, 2);
	st_field(s, "reserved");
	pr_local_array(s, (const uint8_t *)i.reserved, sizeof(i.reserved), 1, pr_hex);
	st_obj_end(s);
}

static void pr_loop_info64(struct st *s, const struct loop_info64 *i)
{
	int full = s->opt->verbose || s->j;
	uint64_t init[2] = { i->lo_init[0], i->lo_init[1] };

	st_obj_begin(s);
	if (full) {
		pr_dev_field(s, "lo_device", i->lo_device);
		pr_ulong_field(s, "lo_inode", i->lo_inode);
		pr_dev_field(s, "lo_rdevice", i->lo_rdevice);
		pr_hex_field(s, "lo_offset", i->lo_offset);
		pr_ulong_field(s, "lo_sizelimit", i->lo_sizelimit);
	} else {
		pr_hex_field(s, "lo_offset", i->lo_offset);
	}
	pr_u32_field(s, "lo_number", i->lo_number);
	if (full || i->lo_encrypt_type != LO_CRYPT_NONE)
		pr_loop_crypt(s, i->lo_encrypt_type, (int)i->lo_encrypt_key_size);
	st_field(s, "lo_flags");
	pr_flags(s, &x_loop_flags, i->lo_flags, "LO_FLAGS_???");
	pr_chars_field(s, "lo_file_name", i->lo_file_name, sizeof(i->lo_file_name));
	if (full || i->lo_encrypt_type != LO_CRYPT_NONE) {
		pr_chars_field(s, "lo_crypt_name", i->lo_crypt_name, sizeof(i->lo_crypt_name));
		pr_loop_key(s, i->lo_encrypt_key, (int)i->lo_encrypt_key_size);
	}
	if (!full) {
		st_obj_end_cut(s);
		return;
	}
	pr_hex_array_field(s, "lo_init", init, 2);
	st_obj_end(s);
}

static void ps_loop_info64(struct st *s, int phase, uint64_t a)
{
	struct loop_info64 i;

	if (st_fetch(s, phase, a, &i, sizeof(i)))
		pr_loop_info64(s, &i);
}

/* struct loop_config: __reserved only when not all zero. */
static void ps_loop_config(struct st *s, uint64_t a)
{
	struct loop_config c;
	int k;

	if (!st_fetch(s, SONDE_PL_ENTRY, a, &c, sizeof(c)))
		return;
	st_obj_begin(s);
	st_field(s, "fd");
	pr_fd(s, (int)c.fd);
	pr_u32_field(s, "block_size", c.block_size);
	st_field(s, "info");
	pr_loop_info64(s, &c.info);
	for (k = 0; k < 8 && !c.__reserved[k]; k++)
		;
	if (k < 8)
		pr_hex_array_field(s, "__reserved", (const uint64_t *)c.__reserved, 8);
	st_obj_end(s);
}

static void ps_blkpg(struct st *s, uint64_t a)
{
	struct blkpg_ioctl_arg g;
	struct blkpg_partition p;

	if (!st_fetch(s, SONDE_PL_ENTRY, a, &g, sizeof(g)))
		return;
	st_obj_begin(s);
	st_field(s, "op");
	pr_xval(s, &x_blkpg_ops, (uint32_t)g.op, "BLKPG_???");
	pr_int_field(s, "flags", g.flags);
	pr_int_field(s, "datalen", g.datalen);
	st_field(s, "data");
	if (st_fetch(s, SONDE_PL_ENTRY, (uint64_t)(uintptr_t)g.data, &p, sizeof(p))) {
		st_obj_begin(s);
		pr_long_field(s, "start", p.start);
		pr_long_field(s, "length", p.length);
		pr_int_field(s, "pno", p.pno);
		pr_chars_field(s, "devname", p.devname, sizeof(p.devname));
		pr_chars_field(s, "volname", p.volname, sizeof(p.volname));
		st_obj_end(s);
	}
	st_obj_end(s);
}

/* The setup going in, and the name of the trace the kernel made. */
static void ps_blktrace_setup(struct st *s, uint64_t a)
{
	struct blk_user_trace_setup b;

	if (!st_fetch(s, SONDE_PL_ENTRY, a, &b, sizeof(b)))
		return;
	st_obj_begin(s);
	pr_u32_field(s, "act_mask", b.act_mask);
	pr_u32_field(s, "buf_size", b.buf_size);
	pr_u32_field(s, "buf_nr", b.buf_nr);
	pr_ulong_field(s, "start_lba", b.start_lba);
	pr_ulong_field(s, "end_lba", b.end_lba);
	pr_u32_field(s, "pid", b.pid);
	st_entry_end(s);
	if (st_ok(s) && st_peek(s, SONDE_PL_EXIT, a, &b, sizeof(b)))
		pr_chars_field(s, "name", b.name, sizeof(b.name));
	st_obj_end(s);
}

/* [N] at exit, its address when the call failed: size 2, 4 or 8 bytes,
 * signed or not. */
static void pr_num_out(struct st *s, uint64_t a, int size, int is_signed)
{
	union { uint16_t u16; int32_t i32; uint32_t u32; int64_t i64; uint64_t u64; } v;

	st_entry_end(s);
	if (!st_ok(s)) {
		pr_addr(s, a);
		return;
	}
	if (!st_fetch(s, SONDE_PL_EXIT, a, &v, (size_t)size))
		return;
	if (!s->j)
		sb_putc(s->o, '[');
	if (size == 2)
		pr_uint(s, v.u16);
	else if (size == 4 && is_signed)
		pr_int(s, (uint64_t)(int64_t)v.i32);
	else if (size == 4)
		pr_uint(s, v.u32);
	else if (is_signed)
		pr_long(s, (uint64_t)v.i64);
	else
		pr_ulong(s, v.u64);
	if (!s->j)
		sb_putc(s->o, ']');
}

/* BLKDISCARD's [start, length]. */
static void pr_u64_pair(struct st *s, uint64_t a)
{
	uint64_t p[2];

	if (!st_fetch(s, SONDE_PL_ENTRY, a, p, sizeof(p)))
		return;
	st_arr_begin(s);
	st_elem(s);
	pr_ulong(s, p[0]);
	st_elem(s);
	pr_ulong(s, p[1]);
	st_arr_end(s);
}

/* What a request's argument is. */
enum blk_arg {
	BA_NONE,	/* no argument: the line ends after the request */
	BA_U16_OUT,	/* [N] written, by size and sign */
	BA_S32_OUT,
	BA_U32_OUT,
	BA_S64_OUT,
	BA_U64_OUT,
	BA_ULONG,	/* the number itself */
	BA_INT,
	BA_FD,
	BA_S32_IN,	/* [N] read */
	BA_PAIR_IN,	/* [start, length] */
	BA_BLKPG,
	BA_TRACE_SETUP,
	BA_INFO_IN,	/* struct loop_info */
	BA_INFO_OUT,
	BA_INFO64_IN,	/* struct loop_info64 */
	BA_INFO64_OUT,
	BA_CONFIG,	/* struct loop_config */
};

static const struct {
	uint32_t req;
	uint8_t arg;
} blk_reqs[] = {
	{ BLKRRPART, BA_NONE }, { BLKFLSBUF, BA_NONE }, { BLKTRACESTART, BA_NONE },
	{ BLKTRACESTOP, BA_NONE }, { BLKTRACETEARDOWN, BA_NONE }, { LOOP_CLR_FD, BA_NONE },
	{ LOOP_SET_CAPACITY, BA_NONE }, { LOOP_CTL_GET_FREE, BA_NONE },
	{ BLKSECTGET, BA_U16_OUT }, { BLKROTATIONAL, BA_U16_OUT },
	{ BLKROGET, BA_S32_OUT }, { BLKBSZGET, BA_S32_OUT }, { BLKSSZGET, BA_S32_OUT },
	{ BLKALIGNOFF, BA_S32_OUT },
	{ BLKPBSZGET, BA_U32_OUT }, { BLKIOMIN, BA_U32_OUT }, { BLKIOOPT, BA_U32_OUT },
	{ BLKDISCARDZEROES, BA_U32_OUT }, { BLKGETZONESZ, BA_U32_OUT },
	{ BLKGETNRZONES, BA_U32_OUT },
	{ BLKRAGET, BA_S64_OUT }, { BLKFRAGET, BA_S64_OUT },
	{ BLKGETSIZE, BA_U64_OUT }, { BLKGETSIZE64, BA_U64_OUT },
	{ BLKRASET, BA_ULONG }, { BLKFRASET, BA_ULONG }, { LOOP_SET_DIRECT_IO, BA_ULONG },
	{ LOOP_SET_BLOCK_SIZE, BA_ULONG },
	{ LOOP_CTL_ADD, BA_INT }, { LOOP_CTL_REMOVE, BA_INT },
	{ LOOP_SET_FD, BA_FD }, { LOOP_CHANGE_FD, BA_FD },
	{ BLKROSET, BA_S32_IN }, { BLKBSZSET, BA_S32_IN },
	{ BLKDISCARD, BA_PAIR_IN }, { BLKSECDISCARD, BA_PAIR_IN }, { BLKZEROOUT, BA_PAIR_IN },
	{ BLKPG, BA_BLKPG }, { BLKTRACESETUP, BA_TRACE_SETUP },
	{ LOOP_SET_STATUS, BA_INFO_IN }, { LOOP_GET_STATUS, BA_INFO_OUT },
	{ LOOP_SET_STATUS64, BA_INFO64_IN }, { LOOP_GET_STATUS64, BA_INFO64_OUT },
	{ LOOP_CONFIGURE, BA_CONFIG },
};

/* A struct the call fills: its address when the call failed. */
static void pr_struct_out(struct st *s, uint64_t a, void (*ps)(struct st *, int, uint64_t))
{
	st_entry_end(s);
	if (st_ok(s))
		ps(s, SONDE_PL_EXIT, a);
	else
		pr_addr(s, a);
}

int ioctl_block(struct st *s, uint32_t req, uint64_t a)
{
	size_t i;

	for (i = 0; i < sizeof(blk_reqs) / sizeof(blk_reqs[0]) && blk_reqs[i].req != req; i++)
		;
	if (i == sizeof(blk_reqs) / sizeof(blk_reqs[0]))
		return 0;
	if (blk_reqs[i].arg == BA_NONE)
		return 1;
	st_sep(s);
	switch (blk_reqs[i].arg) {
	case BA_U16_OUT: pr_num_out(s, a, 2, 0); break;
	case BA_S32_OUT: pr_num_out(s, a, 4, 1); break;
	case BA_U32_OUT: pr_num_out(s, a, 4, 0); break;
	case BA_S64_OUT: pr_num_out(s, a, 8, 1); break;
	case BA_U64_OUT: pr_num_out(s, a, 8, 0); break;
	case BA_ULONG: pr_ulong(s, a); break;
	case BA_INT: pr_int(s, (uint32_t)a); break;
	case BA_FD: pr_fd(s, (int)(uint32_t)a); break;
	case BA_S32_IN: ps_int(s, SONDE_PL_ENTRY, a); break;
	case BA_PAIR_IN: pr_u64_pair(s, a); break;
	case BA_BLKPG: ps_blkpg(s, a); break;
	case BA_TRACE_SETUP: ps_blktrace_setup(s, a); break;
	case BA_INFO_IN: ps_loop_info(s, SONDE_PL_ENTRY, a); break;
	case BA_INFO_OUT: pr_struct_out(s, a, ps_loop_info); break;
	case BA_INFO64_IN: ps_loop_info64(s, SONDE_PL_ENTRY, a); break;
	case BA_INFO64_OUT: pr_struct_out(s, a, ps_loop_info64); break;
	case BA_CONFIG: ps_loop_config(s, a); break;
	}
	return 1;
}
