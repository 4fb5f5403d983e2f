// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open as strace 6.1 prints it. The whole line is printed at
 * exit: the kernel writes the size it supports back on E2BIG. Without
 * -v the struct stops after the flag bits, of which only the set ones
 * (and precise_ip) are shown; with -v every member the caller's size
 * reaches is. The layout is the system's <linux/perf_event.h>, Linux
 * 6.1's (PERF_ATTR_SIZE_VER7, 128 bytes), as strace 6.1 knows it.
 * Also the ioctls of a perf event descriptor (type '$'), their flags,
 * counts, descriptors, filter string and, for
 * PERF_EVENT_IOC_MODIFY_ATTRIBUTES, the same struct (bpf/ioctl.h reads
 * it, the filter and QUERY_BPF's ids).
 */
#include <linux/perf_event.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "decode/strace/strace_int.h"

XLAT_DEF(x_perf_type, 0, XE(PERF_TYPE_HARDWARE), XE(PERF_TYPE_SOFTWARE), XE(PERF_TYPE_TRACEPOINT),
	 XE(PERF_TYPE_HW_CACHE), XE(PERF_TYPE_RAW), XE(PERF_TYPE_BREAKPOINT));
XLAT_DEF(x_perf_attr_size, 0, XE(PERF_ATTR_SIZE_VER0), XE(PERF_ATTR_SIZE_VER1),
	 XE(PERF_ATTR_SIZE_VER2), XE(PERF_ATTR_SIZE_VER3), XE(PERF_ATTR_SIZE_VER4),
	 XE(PERF_ATTR_SIZE_VER5), XE(PERF_ATTR_SIZE_VER6), XE(PERF_ATTR_SIZE_VER7));
XLAT_DEF(x_perf_hw_id, 0, XE(PERF_COUNT_HW_CPU_CYCLES), XE(PERF_COUNT_HW_INSTRUCTIONS),
	 XE(PERF_COUNT_HW_CACHE_REFERENCES), XE(PERF_COUNT_HW_CACHE_MISSES),
	 XE(PERF_COUNT_HW_BRANCH_INSTRUCTIONS), XE(PERF_COUNT_HW_BRANCH_MISSES),
	 XE(PERF_COUNT_HW_BUS_CYCLES), XE(PERF_COUNT_HW_STALLED_CYCLES_FRONTEND),
	 XE(PERF_COUNT_HW_STALLED_CYCLES_BACKEND), XE(PERF_COUNT_HW_REF_CPU_CYCLES));
XLAT_DEF(x_perf_sw_id, 0, XE(PERF_COUNT_SW_CPU_CLOCK), XE(PERF_COUNT_SW_TASK_CLOCK),
	 XE(PERF_COUNT_SW_PAGE_FAULTS), XE(PERF_COUNT_SW_CONTEXT_SWITCHES),
	 XE(PERF_COUNT_SW_CPU_MIGRATIONS), XE(PERF_COUNT_SW_PAGE_FAULTS_MIN),
	 XE(PERF_COUNT_SW_PAGE_FAULTS_MAJ), XE(PERF_COUNT_SW_ALIGNMENT_FAULTS),
	 XE(PERF_COUNT_SW_EMULATION_FAULTS), XE(PERF_COUNT_SW_DUMMY), XE(PERF_COUNT_SW_BPF_OUTPUT),
	 XE(PERF_COUNT_SW_CGROUP_SWITCHES));
XLAT_DEF(x_perf_cache_id, 0, XE(PERF_COUNT_HW_CACHE_L1D), XE(PERF_COUNT_HW_CACHE_L1I),
	 XE(PERF_COUNT_HW_CACHE_LL), XE(PERF_COUNT_HW_CACHE_DTLB), XE(PERF_COUNT_HW_CACHE_ITLB),
	 XE(PERF_COUNT_HW_CACHE_BPU), XE(PERF_COUNT_HW_CACHE_NODE));
XLAT_DEF(x_perf_cache_op, 0, XE(PERF_COUNT_HW_CACHE_OP_READ), XE(PERF_COUNT_HW_CACHE_OP_WRITE),
	 XE(PERF_COUNT_HW_CACHE_OP_PREFETCH));
XLAT_DEF(x_perf_cache_result, 0, XE(PERF_COUNT_HW_CACHE_RESULT_ACCESS),
	 XE(PERF_COUNT_HW_CACHE_RESULT_MISS));
XLAT_DEF(x_perf_sample, 0, XE(PERF_SAMPLE_IP), XE(PERF_SAMPLE_TID), XE(PERF_SAMPLE_TIME),
	 XE(PERF_SAMPLE_ADDR), XE(PERF_SAMPLE_READ), XE(PERF_SAMPLE_CALLCHAIN), XE(PERF_SAMPLE_ID),
	 XE(PERF_SAMPLE_CPU), XE(PERF_SAMPLE_PERIOD), XE(PERF_SAMPLE_STREAM_ID),
	 XE(PERF_SAMPLE_RAW), XE(PERF_SAMPLE_BRANCH_STACK), XE(PERF_SAMPLE_REGS_USER),
	 XE(PERF_SAMPLE_STACK_USER), XE(PERF_SAMPLE_WEIGHT), XE(PERF_SAMPLE_DATA_SRC),
	 XE(PERF_SAMPLE_IDENTIFIER), XE(PERF_SAMPLE_TRANSACTION), XE(PERF_SAMPLE_REGS_INTR),
	 XE(PERF_SAMPLE_PHYS_ADDR), XE(PERF_SAMPLE_AUX), XE(PERF_SAMPLE_CGROUP),
	 XE(PERF_SAMPLE_DATA_PAGE_SIZE), XE(PERF_SAMPLE_CODE_PAGE_SIZE),
	 XE(PERF_SAMPLE_WEIGHT_STRUCT));
XLAT_DEF(x_perf_read_format, 0, XE(PERF_FORMAT_TOTAL_TIME_ENABLED),
	 XE(PERF_FORMAT_TOTAL_TIME_RUNNING), XE(PERF_FORMAT_ID), XE(PERF_FORMAT_GROUP),
	 XN(16, "PERF_FORMAT_LOST"));
XLAT_DEF(x_perf_branch, 0, XE(PERF_SAMPLE_BRANCH_USER), XE(PERF_SAMPLE_BRANCH_KERNEL),
	 XE(PERF_SAMPLE_BRANCH_HV), XE(PERF_SAMPLE_BRANCH_ANY), XE(PERF_SAMPLE_BRANCH_ANY_CALL),
	 XE(PERF_SAMPLE_BRANCH_ANY_RETURN), XE(PERF_SAMPLE_BRANCH_IND_CALL),
	 XE(PERF_SAMPLE_BRANCH_ABORT_TX), XE(PERF_SAMPLE_BRANCH_IN_TX),
	 XE(PERF_SAMPLE_BRANCH_NO_TX), XE(PERF_SAMPLE_BRANCH_COND),
	 XE(PERF_SAMPLE_BRANCH_CALL_STACK), XE(PERF_SAMPLE_BRANCH_IND_JUMP),
	 XE(PERF_SAMPLE_BRANCH_CALL), XE(PERF_SAMPLE_BRANCH_NO_FLAGS),
	 XE(PERF_SAMPLE_BRANCH_NO_CYCLES), XE(PERF_SAMPLE_BRANCH_TYPE_SAVE),
	 XE(PERF_SAMPLE_BRANCH_HW_INDEX), XN(1 << 18, "PERF_SAMPLE_BRANCH_PRIV_SAVE"));
XLAT_DEF(x_hw_bp_type, 0, XN(0, "HW_BREAKPOINT_EMPTY"), XN(1, "HW_BREAKPOINT_R"),
	 XN(2, "HW_BREAKPOINT_W"), XN(3, "HW_BREAKPOINT_RW"), XN(4, "HW_BREAKPOINT_X"));
XLAT_DEF(x_perf_open_flags, 0, XE(PERF_FLAG_FD_NO_GROUP), XE(PERF_FLAG_FD_OUTPUT),
	 XE(PERF_FLAG_PID_CGROUP), XE(PERF_FLAG_FD_CLOEXEC));

#define PA_END(m) (offsetof(struct perf_event_attr, m) + sizeof(((struct perf_event_attr *)0)->m))
/* The member starts past the caller's struct: it and the next are not
 * shown (the kernel reads it as zero). */
#define PA_PAST(size, m) (offsetof(struct perf_event_attr, m) >= (size))

/* HW_CACHE's config: result<<16|op<<8|id, higher bytes first. */
static void pr_cache_config(struct st *s, uint64_t c)
{
	struct st_cap cap;
	struct st *t = st_cap_begin(s, &cap);

	if (c >> 24)
		sb_printf(t->o, "%#llx<<24|", (unsigned long long)(c >> 24));
	pr_xval(t, &x_perf_cache_result, (c >> 16) & 0xff, "PERF_COUNT_HW_CACHE_RESULT_???");
	sb_puts(t->o, "<<16|");
	pr_xval(t, &x_perf_cache_op, (c >> 8) & 0xff, "PERF_COUNT_HW_CACHE_OP_???");
	sb_puts(t->o, "<<8|");
	pr_xval(t, &x_perf_cache_id, c & 0xff, "PERF_COUNT_HW_CACHE_???");
	st_cap_flags(s, &cap);
}

static void pr_config(struct st *s, const struct perf_event_attr *a)
{
	st_field(s, "config");
	switch (a->type) {
	case PERF_TYPE_HARDWARE:
		pr_xval(s, &x_perf_hw_id, a->config, "PERF_COUNT_HW_???");
		break;
	case PERF_TYPE_SOFTWARE:
		pr_xval(s, &x_perf_sw_id, a->config, "PERF_COUNT_SW_???");
		break;
	case PERF_TYPE_TRACEPOINT:
		pr_ulong(s, a->config);
		break;
	case PERF_TYPE_HW_CACHE:
		pr_cache_config(s, a->config);
		break;
	default:
		pr_hex(s, a->config);
	}
}

/* A flag bit: always with -v, else only when set. */
static void pr_bit(struct st *s, const char *name, unsigned int v)
{
	if (s->opt->verbose || s->j || v)
		pr_u32_field(s, name, v);
}

static void pr_bits(struct st *s, const struct perf_event_attr *a)
{
	static const char *const skid[] = { "arbitrary skid", "constant skid",
					    "requested to have 0 skid", "must have 0 skid" };

	pr_bit(s, "disabled", a->disabled);
	pr_bit(s, "inherit", a->inherit);
	pr_bit(s, "pinned", a->pinned);
	pr_bit(s, "exclusive", a->exclusive);
	pr_bit(s, "exclude_user", a->exclude_user);
	pr_bit(s, "exclude_kernel", a->exclude_kernel);
	pr_bit(s, "exclude_hv", a->exclude_hv);
	pr_bit(s, "exclude_idle", a->exclude_idle);
	pr_bit(s, "mmap", a->mmap);
	pr_bit(s, "comm", a->comm);
	pr_bit(s, "freq", a->freq);
	pr_bit(s, "inherit_stat", a->inherit_stat);
	pr_bit(s, "enable_on_exec", a->enable_on_exec);
	pr_bit(s, "task", a->task);
	pr_bit(s, "watermark", a->watermark);
	pr_u32_field(s, "precise_ip", a->precise_ip);
	if (!s->j)
		sb_printf(s->o, " /* %s */", skid[a->precise_ip]);
	pr_bit(s, "mmap_data", a->mmap_data);
	pr_bit(s, "sample_id_all", a->sample_id_all);
	pr_bit(s, "exclude_host", a->exclude_host);
	pr_bit(s, "exclude_guest", a->exclude_guest);
	pr_bit(s, "exclude_callchain_kernel", a->exclude_callchain_kernel);
	pr_bit(s, "exclude_callchain_user", a->exclude_callchain_user);
	pr_bit(s, "mmap2", a->mmap2);
	pr_bit(s, "comm_exec", a->comm_exec);
	pr_bit(s, "use_clockid", a->use_clockid);
	pr_bit(s, "context_switch", a->context_switch);
	pr_bit(s, "write_backward", a->write_backward);
	pr_bit(s, "namespaces", a->namespaces);
	pr_bit(s, "ksymbol", a->ksymbol);
	pr_bit(s, "bpf_event", a->bpf_event);
	pr_bit(s, "aux_output", a->aux_output);
	pr_bit(s, "cgroup", a->cgroup);
	pr_bit(s, "text_poke", a->text_poke);
	pr_bit(s, "build_id", a->build_id);
	pr_bit(s, "inherit_thread", a->inherit_thread);
	pr_bit(s, "remove_on_exec", a->remove_on_exec);
	pr_bit(s, "sigtrap", a->sigtrap);
	if (a->__reserved_1) {
		st_field(s, "__reserved_1");
		pr_hex(s, a->__reserved_1);
		if (!s->j)
			sb_puts(s->o, " /* Bits 63..38 */");
	}
}

/* The members after the flag bits (-v), as far as size reaches. */
static void pr_tail(struct st *s, const struct perf_event_attr *a, uint32_t size)
{
	int bp = a->type == PERF_TYPE_BREAKPOINT;

	pr_u32_field(s, a->watermark ? "wakeup_watermark" : "wakeup_events", a->wakeup_events);
	if (bp) {
		st_field(s, "bp_type");
		pr_xval(s, &x_hw_bp_type, a->bp_type,
			a->bp_type <= 7 ? "HW_BREAKPOINT_INVALID" : "HW_BREAKPOINT_???");
	}
	pr_hex_field(s, bp ? "bp_addr" : "config1", a->config1);
	if (PA_PAST(size, config2))
		return;
	if (bp)
		pr_ulong_field(s, "bp_len", a->bp_len);
	else
		pr_hex_field(s, "config2", a->config2);
	if (PA_PAST(size, branch_sample_type))
		return;
	if (a->sample_type & PERF_SAMPLE_BRANCH_STACK) {
		st_field(s, "branch_sample_type");
		pr_flags(s, &x_perf_branch, a->branch_sample_type, "PERF_SAMPLE_BRANCH_???");
	}
	if (PA_PAST(size, sample_regs_user))
		return;
	pr_hex_field(s, "sample_regs_user", a->sample_regs_user);
	if (PA_PAST(size, sample_stack_user))
		return;
	if (a->sample_type & PERF_SAMPLE_STACK_USER)
		pr_hex_field(s, "sample_stack_user", a->sample_stack_user);
	if (a->use_clockid) {
		if (PA_PAST(size, clockid))
			return;
		st_field(s, "clockid");
		pr_clockid(s, (uint32_t)a->clockid);
	}
	if (PA_PAST(size, sample_regs_intr))
		return;
	pr_hex_field(s, "sample_regs_intr", a->sample_regs_intr);
	if (PA_PAST(size, aux_watermark))
		return;
	pr_u32_field(s, "aux_watermark", a->aux_watermark);
	if (PA_PAST(size, sample_max_stack))
		return;
	pr_u32_field(s, "sample_max_stack", a->sample_max_stack);
	if (PA_PAST(size, __reserved_2))
		return;
	if (a->__reserved_2 && !s->j)
		sb_printf(s->o, " /* bytes 110..111: %#hx */", (unsigned short)a->__reserved_2);
	if (PA_PAST(size, aux_sample_size))
		return;
	pr_u32_field(s, "aux_sample_size", a->aux_sample_size);
	if (PA_PAST(size, sig_data))
		return;
	pr_hex_field(s, "sig_data", a->sig_data);
}

/* The size field, and on E2BIG " => " the size the kernel wrote. */
static void pr_size(struct st *s, uint64_t addr, uint32_t size)
{
	uint32_t out;

	st_field(s, "size");
	pr_xval(s, &x_perf_attr_size, size, "PERF_ATTR_SIZE_???");
	if (s->err != 7 /* E2BIG */ ||
	    !st_peek(s, SONDE_PL_EXIT, addr + offsetof(struct perf_event_attr, size), &out, 4))
		return;
	if (s->j) {
		pr_u32_field(s, "size_supported", out);
		return;
	}
	sb_puts(s->o, " => ");
	pr_xval(s, &x_perf_attr_size, out, "PERF_ATTR_SIZE_???");
}

static void pr_perf_attr(struct st *s, uint64_t addr)
{
	struct perf_event_attr a;
	uint32_t size, want;

	memset(&a, 0, sizeof(a));
	if (!addr || !st_peek(s, SONDE_PL_ENTRY, addr + offsetof(struct perf_event_attr, size),
			      &want, 4)) {
		pr_unfetched(s, SONDE_PL_ENTRY, addr);
		return;
	}
	size = want ? (want < sizeof(a) ? want : sizeof(a)) : PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || !st_peek(s, SONDE_PL_ENTRY, addr, &a, size)) {
		pr_addr(s, addr);
		return;
	}
	st_obj_begin(s);
	st_field(s, "type");
	pr_xval(s, &x_perf_type, a.type, "PERF_TYPE_???");
	pr_size(s, addr, a.size);
	pr_config(s, &a);
	if (a.freq)
		pr_ulong_field(s, "sample_freq", a.sample_freq);
	else
		pr_ulong_field(s, "sample_period", a.sample_period);
	st_field(s, "sample_type");
	pr_flags(s, &x_perf_sample, a.sample_type, "PERF_SAMPLE_???");
	st_field(s, "read_format");
	pr_flags(s, &x_perf_read_format, a.read_format, "PERF_FORMAT_???");
	pr_bits(s, &a);
	if (!s->opt->verbose && !s->j) {
		st_obj_end_cut(s);
		return;
	}
	pr_tail(s, &a, size);
	if (a.size > size && !s->j)
		st_obj_end_cut(s);
	else
		st_obj_end(s);
}

void dec_perf_event_open(struct st *s)
{
	st_entry_end(s);
	pr_perf_attr(s, st_arg(s, 0));
	st_sep(s);
	pr_int(s, st_arg(s, 1));
	st_sep(s);
	pr_int(s, st_arg(s, 2));
	st_sep(s);
	pr_fd(s, (int)st_arg(s, 3));
	st_sep(s);
	pr_flags(s, &x_perf_open_flags, st_arg(s, 4), "PERF_FLAG_???");
}

XLAT_DEF(x_perf_ioc_flags, 0, XE(PERF_IOC_FLAG_GROUP));

/* PERF_EVENT_IOC_QUERY_BPF: {ids_len=N, prog_cnt=N, ids=[...]}, the
 * length given at entry, what the kernel wrote at exit ("..." when it
 * failed). */
static void pr_query_bpf(struct st *s, uint64_t a)
{
	uint32_t ids_len, cnt;

	if (!st_fetch(s, SONDE_PL_ENTRY, a, &ids_len, sizeof(ids_len)))
		return;
	st_obj_begin(s);
	st_field(s, "ids_len");
	pr_uint(s, ids_len);
	st_entry_end(s);
	if (!st_ok(s) || !st_peek(s, SONDE_PL_EXIT, a + 4, &cnt, sizeof(cnt))) {
		st_obj_end_cut(s);
		return;
	}
	st_field(s, "prog_cnt");
	pr_uint(s, cnt);
	st_field(s, "ids");
	pr_mem_array(s, SONDE_PL_EXIT, a + 8, cnt, 4, pr_uint);
	st_obj_end(s);
}

int ioctl_perf(struct st *s, uint32_t req, uint64_t a)
{
	if (((req >> 8) & 0xff) != '$')
		return 0;
	switch (req) {
	case PERF_EVENT_IOC_ENABLE:
	case PERF_EVENT_IOC_DISABLE:
	case PERF_EVENT_IOC_RESET:
		st_sep(s);
		pr_flags(s, &x_perf_ioc_flags, a, "PERF_IOC_FLAG_???");
		return 1;
	case PERF_EVENT_IOC_REFRESH:
		st_sep(s);
		pr_int(s, (uint64_t)(int64_t)(int)a);
		return 1;
	case PERF_EVENT_IOC_PERIOD:
		st_sep(s);
		ps_ulong(s, SONDE_PL_ENTRY, a);
		return 1;
	case PERF_EVENT_IOC_SET_OUTPUT:
	case PERF_EVENT_IOC_SET_BPF:
		st_sep(s);
		pr_fd(s, (int)a);
		return 1;
	case PERF_EVENT_IOC_PAUSE_OUTPUT:
		st_sep(s);
		pr_ulong(s, a);
		return 1;
	case PERF_EVENT_IOC_SET_FILTER:
		st_sep(s);
		pr_cstr_max(s, SONDE_PL_ENTRY, a, 4096);
		return 1;
	case PERF_EVENT_IOC_ID:
		st_sep(s);
		st_entry_end(s);
		if (st_ok(s))
			ps_ulong(s, SONDE_PL_EXIT, a);
		else
			pr_addr(s, a);
		return 1;
	case PERF_EVENT_IOC_QUERY_BPF:
		st_sep(s);
		pr_query_bpf(s, a);
		return 1;
	case PERF_EVENT_IOC_MODIFY_ATTRIBUTES:
		st_sep(s);
		pr_perf_attr(s, a);
		return 1;
	}
	return 0;
}
