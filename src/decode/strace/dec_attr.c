// SPDX-License-Identifier: GPL-2.0
/*
 * Per-process attributes decoded from structs and packed values, as
 * strace 6.1 prints them: capget/capset, sched_getattr/sched_setattr and
 * ioprio_get/ioprio_set.
 */
#include <inttypes.h>
#include <string.h>

#include "decode/strace/strace_int.h"

/* <linux/capability.h>: bit n of the first data word is capability n,
 * bit n of the second capability 32 + n. */
XLAT_DEF(x_cap_version, 0, XN(0x19980330, "_LINUX_CAPABILITY_VERSION_1"),
	 XN(0x20071026, "_LINUX_CAPABILITY_VERSION_2"),
	 XN(0x20080522, "_LINUX_CAPABILITY_VERSION_3"));
XLAT_DEF(x_cap_mask0, 0, XN(1u << 0, "1<<CAP_CHOWN"), XN(1u << 1, "1<<CAP_DAC_OVERRIDE"),
	 XN(1u << 2, "1<<CAP_DAC_READ_SEARCH"), XN(1u << 3, "1<<CAP_FOWNER"),
	 XN(1u << 4, "1<<CAP_FSETID"), XN(1u << 5, "1<<CAP_KILL"), XN(1u << 6, "1<<CAP_SETGID"),
	 XN(1u << 7, "1<<CAP_SETUID"), XN(1u << 8, "1<<CAP_SETPCAP"),
	 XN(1u << 9, "1<<CAP_LINUX_IMMUTABLE"), XN(1u << 10, "1<<CAP_NET_BIND_SERVICE"),
	 XN(1u << 11, "1<<CAP_NET_BROADCAST"), XN(1u << 12, "1<<CAP_NET_ADMIN"),
	 XN(1u << 13, "1<<CAP_NET_RAW"), XN(1u << 14, "1<<CAP_IPC_LOCK"),
	 XN(1u << 15, "1<<CAP_IPC_OWNER"), XN(1u << 16, "1<<CAP_SYS_MODULE"),
	 XN(1u << 17, "1<<CAP_SYS_RAWIO"), XN(1u << 18, "1<<CAP_SYS_CHROOT"),
	 XN(1u << 19, "1<<CAP_SYS_PTRACE"), XN(1u << 20, "1<<CAP_SYS_PACCT"),
	 XN(1u << 21, "1<<CAP_SYS_ADMIN"), XN(1u << 22, "1<<CAP_SYS_BOOT"),
	 XN(1u << 23, "1<<CAP_SYS_NICE"), XN(1u << 24, "1<<CAP_SYS_RESOURCE"),
	 XN(1u << 25, "1<<CAP_SYS_TIME"), XN(1u << 26, "1<<CAP_SYS_TTY_CONFIG"),
	 XN(1u << 27, "1<<CAP_MKNOD"), XN(1u << 28, "1<<CAP_LEASE"),
	 XN(1u << 29, "1<<CAP_AUDIT_WRITE"), XN(1u << 30, "1<<CAP_AUDIT_CONTROL"),
	 XN(1u << 31, "1<<CAP_SETFCAP"));
XLAT_DEF(x_cap_mask1, 0, XN(1u << 0, "1<<CAP_MAC_OVERRIDE"), XN(1u << 1, "1<<CAP_MAC_ADMIN"),
	 XN(1u << 2, "1<<CAP_SYSLOG"), XN(1u << 3, "1<<CAP_WAKE_ALARM"),
	 XN(1u << 4, "1<<CAP_BLOCK_SUSPEND"), XN(1u << 5, "1<<CAP_AUDIT_READ"),
	 XN(1u << 6, "1<<CAP_PERFMON"), XN(1u << 7, "1<<CAP_BPF"),
	 XN(1u << 8, "1<<CAP_CHECKPOINT_RESTORE"));
XLAT_DEF(x_sched_attr_flags, 0, XN(0x01, "SCHED_FLAG_RESET_ON_FORK"),
	 XN(0x02, "SCHED_FLAG_RECLAIM"), XN(0x04, "SCHED_FLAG_DL_OVERRUN"),
	 XN(0x08, "SCHED_FLAG_KEEP_POLICY"), XN(0x10, "SCHED_FLAG_KEEP_PARAMS"),
	 XN(0x20, "SCHED_FLAG_UTIL_CLAMP_MIN"), XN(0x40, "SCHED_FLAG_UTIL_CLAMP_MAX"));
XLAT_DEF(x_ioprio_who, 0, XN(1, "IOPRIO_WHO_PROCESS"), XN(2, "IOPRIO_WHO_PGRP"),
	 XN(3, "IOPRIO_WHO_USER"));
XLAT_DEF(x_ioprio_class, 0, XN(0, "IOPRIO_CLASS_NONE"), XN(1, "IOPRIO_CLASS_RT"),
	 XN(2, "IOPRIO_CLASS_BE"), XN(3, "IOPRIO_CLASS_IDLE"));

#define CAP_V2 0x20071026
#define CAP_V3 0x20080522
#define CAP_HDR_SIZE 8
#define CAP_DATA_SIZE 24 /* two struct __user_cap_data_struct */

/*
 * The header, read with the phase's memory: {version=..., pid=N}. Returns
 * the version, or 0 with the address printed when it cannot be read.
 */
static int cap_header(struct st *s, int phase, uint64_t a, uint32_t *version)
{
	uint32_t h[2];

	if (!a || !st_peek(s, phase, a, h, sizeof(h)))
		return 0;
	*version = h[0];
	return 1;
}

static void pr_cap_header(struct st *s, uint64_t a)
{
	uint32_t h[2];

	if (!a || !st_peek(s, SONDE_PL_ENTRY, a, h, sizeof(h))) {
		pr_unfetched(s, SONDE_PL_ENTRY, a);
		return;
	}
	st_obj_begin(s);
	st_field(s, "version");
	pr_xval(s, &x_cap_version, h[0], "_LINUX_CAPABILITY_VERSION_???");
	st_field(s, "pid");
	pr_pid(s, (uint64_t)(int64_t)(int32_t)h[1]);
	st_obj_end(s);
}

/* A capability set split over two words: 1<<CAP_CHOWN|1<<CAP_BPF. */
static void pr_cap_bits(struct st *s, uint32_t lo, uint32_t hi)
{
	if (s->j) {
		st_arr_begin(s);
		st_jflag_names(s, &x_cap_mask0, lo);
		st_jflag_names(s, &x_cap_mask1, hi);
		st_arr_end(s);
		return;
	}
	if (lo || !hi)
		pr_flags(s, &x_cap_mask0, lo, "CAP_???");
	if (hi) {
		if (lo)
			sb_putc(s->o, '|');
		pr_flags(s, &x_cap_mask1, hi, "CAP_???");
	}
}

/* The data words: two structs for versions 2 and 3, one for others. */
static void pr_cap_data(struct st *s, int phase, uint64_t a, uint32_t version)
{
	static const char *const names[] = { "effective", "permitted", "inheritable" };
	int two = version == CAP_V2 || version == CAP_V3;
	uint32_t d[6] = { 0 };

	if (!a || !st_peek(s, phase, a, d, two ? 24 : 12)) {
		pr_unfetched(s, phase, a);
		return;
	}
	st_obj_begin(s);
	for (int i = 0; i < 3; i++) {
		st_field(s, names[i]);
		pr_cap_bits(s, d[i], two ? d[3 + i] : 0);
	}
	st_obj_end(s);
}

/* The data's length follows the version the kernel left in the header
 * (it writes its own there when asked with an unknown one). */
void dec_capget(struct st *s)
{
	uint32_t version;

	pr_cap_header(s, st_arg(s, 0));
	st_sep(s);
	st_entry_end(s);
	if (st_ok(s) && cap_header(s, SONDE_PL_EXIT, st_arg(s, 0), &version))
		pr_cap_data(s, SONDE_PL_EXIT, st_arg(s, 1), version);
	else
		pr_addr(s, st_arg(s, 1));
}

void dec_capset(struct st *s)
{
	uint32_t version;

	pr_cap_header(s, st_arg(s, 0));
	st_sep(s);
	if (cap_header(s, SONDE_PL_ENTRY, st_arg(s, 0), &version))
		pr_cap_data(s, SONDE_PL_ENTRY, st_arg(s, 1), version);
	else
		pr_addr(s, st_arg(s, 1));
}

/* struct sched_attr as the kernel defines it (SCHED_ATTR_SIZE_VER1). */
struct sched_attr_k {
	uint32_t size, sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
	uint32_t sched_util_min, sched_util_max;
};
#define SCHED_ATTR_VER0 48
#define SCHED_FLAG_KEEP_POLICY 0x08
#define SCHED_FLAG_KEEP_PARAMS 0x10

/*
 * The fields a struct of size bytes holds. For sched_setattr (set) the
 * fields the KEEP flags tell the kernel to ignore are left out; usize is
 * the size the caller declared, "..." when the struct goes on beyond
 * what sonde knows.
 */
static void pr_sched_attr_fields(struct st *s, const struct sched_attr_k *a, uint32_t size,
				 uint32_t usize, int set)
{
	int keep_params = set && (a->sched_flags & SCHED_FLAG_KEEP_PARAMS);

	st_obj_begin(s);
	pr_u32_field(s, "size", a->size);
	if (size >= SCHED_ATTR_VER0) {
		if (!set || (int32_t)a->sched_policy < 0 ||
		    !(a->sched_flags & (SCHED_FLAG_KEEP_POLICY | SCHED_FLAG_KEEP_PARAMS))) {
			st_field(s, "sched_policy");
			pr_xval(s, &x_sched_policy, a->sched_policy, "SCHED_???");
		}
		st_field(s, "sched_flags");
		pr_flags(s, &x_sched_attr_flags, a->sched_flags, "SCHED_FLAG_???");
		if (!keep_params) {
			pr_int_field(s, "sched_nice", a->sched_nice);
			pr_u32_field(s, "sched_priority", a->sched_priority);
			pr_ulong_field(s, "sched_runtime", a->sched_runtime);
			pr_ulong_field(s, "sched_deadline", a->sched_deadline);
			pr_ulong_field(s, "sched_period", a->sched_period);
		}
		if (size >= sizeof(*a)) {
			pr_u32_field(s, "sched_util_min", a->sched_util_min);
			pr_u32_field(s, "sched_util_max", a->sched_util_max);
		}
	}
	if (usize > size && !s->j)
		st_obj_end_cut(s);
	else
		st_obj_end(s);
}

void dec_sched_getattr(struct st *s)
{
	uint32_t usize = (uint32_t)st_arg(s, 2), size;
	struct sched_attr_k a;

	pr_pid(s, st_arg(s, 0));
	st_sep(s);
	st_entry_end(s);
	size = usize < sizeof(a) ? usize : sizeof(a);
	memset(&a, 0, sizeof(a));
	if (!usize || !st_ok(s) || !st_peek(s, SONDE_PL_EXIT, st_arg(s, 1), &a, size))
		pr_unfetched(s, SONDE_PL_EXIT, st_arg(s, 1));
	else
		pr_sched_attr_fields(s, &a, a.size < size ? a.size : size, a.size, 0);
	st_sep(s);
	pr_uint(s, usize);
	st_sep(s);
	pr_uint(s, (uint32_t)st_arg(s, 3));
}

/* E2BIG: the kernel wrote the size it supports: {size=20} => {size=56}. */
static void pr_sched_attr_e2big(struct st *s, uint64_t a)
{
	uint32_t size;

	if (s->err != 7 /* E2BIG */ || !st_peek(s, SONDE_PL_EXIT, a, &size, sizeof(size)))
		return;
	if (s->j) {
		pr_u32_field(s, "size_supported", size);
		return;
	}
	sb_puts(s->o, " => ");
	st_obj_begin(s);
	pr_u32_field(s, "size", size);
	st_obj_end(s);
}

void dec_sched_setattr(struct st *s)
{
	uint64_t addr = st_arg(s, 1);
	struct sched_attr_k a;
	uint32_t usize, size;

	pr_pid(s, st_arg(s, 0));
	st_sep(s);
	memset(&a, 0, sizeof(a));
	if (!addr || !st_peek(s, SONDE_PL_ENTRY, addr, &a.size, sizeof(a.size))) {
		pr_unfetched(s, SONDE_PL_ENTRY, addr);
	} else {
		usize = a.size ? a.size : SCHED_ATTR_VER0;
		size = usize < sizeof(a) ? usize : sizeof(a);
		if (size >= SCHED_ATTR_VER0 && !st_peek(s, SONDE_PL_ENTRY, addr, &a, size))
			pr_unfetched(s, SONDE_PL_ENTRY, addr);
		else
			pr_sched_attr_fields(s, &a, size, usize, 1);
	}
	st_entry_end(s);
	if (addr)
		pr_sched_attr_e2big(s, addr);
	st_sep(s);
	pr_uint(s, (uint32_t)st_arg(s, 2));
}

/* IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4), the class in the -X style. */
static void sprint_ioprio(const struct st *s, uint32_t v, char *buf, size_t len)
{
	struct strbuf b;
	struct st t = *s;

	sb_init(&b);
	t.o = &b;
	t.j = NULL;
	pr_xval(&t, &x_ioprio_class, v >> 13, "IOPRIO_CLASS_???");
	snprintf(buf, len, "IOPRIO_PRIO_VALUE(%s, %u)", b.s ? b.s : "", v & 0x1fff);
	sb_free(&b);
}

static void pr_ioprio_json(struct st *s, uint32_t v)
{
	st_obj_begin(s);
	st_field(s, "class");
	pr_xval(s, &x_ioprio_class, v >> 13, "IOPRIO_CLASS_???");
	pr_u32_field(s, "data", v & 0x1fff);
	st_obj_end(s);
}

/* who: a process (-Y names it), a process group or a user. */
static void pr_ioprio_who(struct st *s)
{
	pr_xval(s, &x_ioprio_who, st_arg(s, 0), "IOPRIO_WHO_???");
	st_sep(s);
	if (st_arg(s, 0) == 1 /* IOPRIO_WHO_PROCESS */)
		pr_pid(s, st_arg(s, 1));
	else
		pr_int(s, st_arg(s, 1));
}

void dec_ioprio_set(struct st *s)
{
	uint32_t v = (uint32_t)st_arg(s, 2);
	char num[16], sym[96];

	pr_ioprio_who(s);
	st_sep(s);
	if (s->j) {
		pr_ioprio_json(s, v);
		return;
	}
	snprintf(num, sizeof(num), "%d", (int32_t)v);
	sprint_ioprio(s, v, sym, sizeof(sym));
	pr_symexpr(s, num, sym);
}

/* = 16388 (IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4)); nothing under -X raw. */
void dec_ioprio_get(struct st *s)
{
	struct strbuf b;
	struct st t;
	char sym[96];

	pr_ioprio_who(s);
	if (!st_ok(s) || (!s->j && s->opt->xlat == SONDE_XLAT_RAW))
		return;
	st_res_begin(s, &t, &b, "ioprio");
	if (s->j) {
		pr_ioprio_json(&t, (uint32_t)s->ret);
	} else {
		sprint_ioprio(s, (uint32_t)s->ret, sym, sizeof(sym));
		sb_printf(&b, " (%s)", sym);
	}
	st_res_end(s, &t, &b);
}
