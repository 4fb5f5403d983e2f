// SPDX-License-Identifier: GPL-2.0
/*
 * bpf(2)'s commands for programs, objects, links and ids, as strace 6.1
 * prints their union bpf_attr (the map commands are in dec_bpf.c). The
 * layout is the system's <linux/bpf.h>, Linux 6.1's as strace 6.1 knows
 * it; members past the caller's size are not shown. strace 6.1 shows
 * the attr of LINK_DETACH, ENABLE_STATS, PROG_BIND_MAP and ITER_CREATE
 * by its address, and so does sonde.
 */
#include <linux/bpf.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "decode/strace/bpf_int.h"

XLAT_DEF(x_bpf_prog_type, 0, XE(BPF_PROG_TYPE_UNSPEC), XE(BPF_PROG_TYPE_SOCKET_FILTER),
	 XE(BPF_PROG_TYPE_KPROBE), XE(BPF_PROG_TYPE_SCHED_CLS), XE(BPF_PROG_TYPE_SCHED_ACT),
	 XE(BPF_PROG_TYPE_TRACEPOINT), XE(BPF_PROG_TYPE_XDP), XE(BPF_PROG_TYPE_PERF_EVENT),
	 XE(BPF_PROG_TYPE_CGROUP_SKB), XE(BPF_PROG_TYPE_CGROUP_SOCK), XE(BPF_PROG_TYPE_LWT_IN),
	 XE(BPF_PROG_TYPE_LWT_OUT), XE(BPF_PROG_TYPE_LWT_XMIT), XE(BPF_PROG_TYPE_SOCK_OPS),
	 XE(BPF_PROG_TYPE_SK_SKB), XE(BPF_PROG_TYPE_CGROUP_DEVICE), XE(BPF_PROG_TYPE_SK_MSG),
	 XE(BPF_PROG_TYPE_RAW_TRACEPOINT), XE(BPF_PROG_TYPE_CGROUP_SOCK_ADDR),
	 XE(BPF_PROG_TYPE_LWT_SEG6LOCAL), XE(BPF_PROG_TYPE_LIRC_MODE2),
	 XE(BPF_PROG_TYPE_SK_REUSEPORT), XE(BPF_PROG_TYPE_FLOW_DISSECTOR),
	 XE(BPF_PROG_TYPE_CGROUP_SYSCTL), XE(BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE),
	 XE(BPF_PROG_TYPE_CGROUP_SOCKOPT), XE(BPF_PROG_TYPE_TRACING), XE(BPF_PROG_TYPE_STRUCT_OPS),
	 XE(BPF_PROG_TYPE_EXT), XE(BPF_PROG_TYPE_LSM), XE(BPF_PROG_TYPE_SK_LOOKUP),
	 XE(BPF_PROG_TYPE_SYSCALL));
XLAT_DEF(x_bpf_attach_type, 0, XE(BPF_CGROUP_INET_INGRESS), XE(BPF_CGROUP_INET_EGRESS),
	 XE(BPF_CGROUP_INET_SOCK_CREATE), XE(BPF_CGROUP_SOCK_OPS), XE(BPF_SK_SKB_STREAM_PARSER),
	 XE(BPF_SK_SKB_STREAM_VERDICT), XE(BPF_CGROUP_DEVICE), XE(BPF_SK_MSG_VERDICT),
	 XE(BPF_CGROUP_INET4_BIND), XE(BPF_CGROUP_INET6_BIND), XE(BPF_CGROUP_INET4_CONNECT),
	 XE(BPF_CGROUP_INET6_CONNECT), XE(BPF_CGROUP_INET4_POST_BIND),
	 XE(BPF_CGROUP_INET6_POST_BIND), XE(BPF_CGROUP_UDP4_SENDMSG), XE(BPF_CGROUP_UDP6_SENDMSG),
	 XE(BPF_LIRC_MODE2), XE(BPF_FLOW_DISSECTOR), XE(BPF_CGROUP_SYSCTL),
	 XE(BPF_CGROUP_UDP4_RECVMSG), XE(BPF_CGROUP_UDP6_RECVMSG), XE(BPF_CGROUP_GETSOCKOPT),
	 XE(BPF_CGROUP_SETSOCKOPT), XE(BPF_TRACE_RAW_TP), XE(BPF_TRACE_FENTRY),
	 XE(BPF_TRACE_FEXIT), XE(BPF_MODIFY_RETURN), XE(BPF_LSM_MAC), XE(BPF_TRACE_ITER),
	 XE(BPF_CGROUP_INET4_GETPEERNAME), XE(BPF_CGROUP_INET6_GETPEERNAME),
	 XE(BPF_CGROUP_INET4_GETSOCKNAME), XE(BPF_CGROUP_INET6_GETSOCKNAME),
	 XE(BPF_XDP_DEVMAP), XE(BPF_CGROUP_INET_SOCK_RELEASE), XE(BPF_XDP_CPUMAP),
	 XE(BPF_SK_LOOKUP), XE(BPF_XDP), XE(BPF_SK_SKB_VERDICT), XE(BPF_SK_REUSEPORT_SELECT),
	 XE(BPF_SK_REUSEPORT_SELECT_OR_MIGRATE), XE(BPF_PERF_EVENT), XE(BPF_TRACE_KPROBE_MULTI),
	 XE(BPF_LSM_CGROUP));
XLAT_DEF(x_bpf_prog_flags, 0, XE(BPF_F_STRICT_ALIGNMENT), XE(BPF_F_ANY_ALIGNMENT),
	 XE(BPF_F_TEST_RND_HI32), XE(BPF_F_TEST_STATE_FREQ), XE(BPF_F_SLEEPABLE),
	 XE(BPF_F_XDP_HAS_FRAGS));
XLAT_DEF(x_bpf_file_flags, 0, XE(BPF_F_RDONLY), XE(BPF_F_WRONLY));
XLAT_DEF(x_bpf_attach_flags, 0, XE(BPF_F_ALLOW_OVERRIDE), XE(BPF_F_ALLOW_MULTI),
	 XE(BPF_F_REPLACE));
XLAT_DEF(x_bpf_query_flags, 0, XE(BPF_F_QUERY_EFFECTIVE));
XLAT_DEF(x_bpf_test_run_flags, 0, XE(BPF_F_TEST_RUN_ON_CPU), XN(2, "BPF_F_TEST_XDP_LIVE_FRAMES"));

#define ATTR_HAS(in, member) ((in)->size > offsetof(union bpf_attr, member))
#define ATTR_END(member) (offsetof(union bpf_attr, member) + \
			  sizeof(((union bpf_attr *)0)->member))

static void pr_str_field(struct st *s, const char *name, uint64_t a)
{
	st_field(s, name);
	pr_cstr(s, SONDE_PL_ENTRY, a);
}

/* KERNEL_VERSION(5, 10, 0); the number with -X raw and verbose. */
static void pr_kern_version(struct st *s, uint32_t v)
{
	char num[16], sym[48];

	st_field(s, "kern_version");
	if (s->j) {
		pr_uint(s, v);
		return;
	}
	snprintf(num, sizeof(num), v ? "%#x" : "0", v);
	snprintf(sym, sizeof(sym), "KERNEL_VERSION(%u, %u, %u)", v >> 16, (v >> 8) & 0xff,
		 v & 0xff);
	pr_symexpr(s, num, sym);
}

/* The members each kernel release added, in order: each step returns
 * when the caller's attr ends before it. */
static size_t prog_load_tail(struct st *s, const struct bpf_in *in, const union bpf_attr *a)
{
	if (!ATTR_HAS(in, prog_btf_fd))
		return ATTR_END(expected_attach_type);
	bpf_fd_field(s, "prog_btf_fd", a->prog_btf_fd);
	pr_u32_field(s, "func_info_rec_size", a->func_info_rec_size);
	bpf_addr_field(s, "func_info", a->func_info);
	pr_u32_field(s, "func_info_cnt", a->func_info_cnt);
	pr_u32_field(s, "line_info_rec_size", a->line_info_rec_size);
	bpf_addr_field(s, "line_info", a->line_info);
	pr_u32_field(s, "line_info_cnt", a->line_info_cnt);
	if (!ATTR_HAS(in, attach_btf_id))
		return ATTR_END(line_info_cnt);
	pr_u32_field(s, "attach_btf_id", a->attach_btf_id);
	if (!ATTR_HAS(in, attach_prog_fd))
		return ATTR_END(attach_btf_id);
	bpf_fd_field(s, "attach_prog_fd", a->attach_prog_fd);
	if (!ATTR_HAS(in, fd_array))
		return ATTR_END(attach_prog_fd);
	bpf_addr_field(s, "fd_array", a->fd_array);
	return ATTR_END(fd_array);
}

static size_t pr_prog_load(struct st *s, const struct bpf_in *in, const union bpf_attr *a)
{
	st_field(s, "prog_type");
	pr_xval(s, &x_bpf_prog_type, a->prog_type, "BPF_PROG_TYPE_???");
	pr_u32_field(s, "insn_cnt", a->insn_cnt);
	bpf_addr_field(s, "insns", a->insns);
	pr_str_field(s, "license", a->license);
	if (!ATTR_HAS(in, log_level))
		return ATTR_END(license);
	pr_u32_field(s, "log_level", a->log_level);
	pr_u32_field(s, "log_size", a->log_size);
	st_field(s, "log_buf");
	pr_cstr_max(s, SONDE_PL_ENTRY, a->log_buf, a->log_size);
	if (!ATTR_HAS(in, kern_version))
		return ATTR_END(log_buf);
	pr_kern_version(s, a->kern_version);
	if (!ATTR_HAS(in, prog_flags))
		return ATTR_END(kern_version);
	st_field(s, "prog_flags");
	pr_flags(s, &x_bpf_prog_flags, a->prog_flags, "BPF_F_???");
	if (!ATTR_HAS(in, prog_name))
		return ATTR_END(prog_flags);
	bpf_name_field(s, "prog_name", (const uint8_t *)a->prog_name,
		       in->size - offsetof(union bpf_attr, prog_name) < 16
		       ? in->size - offsetof(union bpf_attr, prog_name) : 16);
	if (!ATTR_HAS(in, prog_ifindex))
		return ATTR_END(prog_name);
	st_field(s, "prog_ifindex");
	pr_ifindex(s, a->prog_ifindex);
	if (!ATTR_HAS(in, expected_attach_type))
		return ATTR_END(prog_ifindex);
	st_field(s, "expected_attach_type");
	pr_xval(s, &x_bpf_attach_type, a->expected_attach_type, "BPF_???");
	return prog_load_tail(s, in, a);
}

static size_t pr_obj_pin(struct st *s, const struct bpf_in *in, const union bpf_attr *a)
{
	st_field(s, "pathname");
	pr_path(s, a->pathname);
	bpf_fd_field(s, "bpf_fd", a->bpf_fd);
	if (!ATTR_HAS(in, file_flags))
		return ATTR_END(bpf_fd);
	st_field(s, "file_flags");
	pr_flags(s, &x_bpf_file_flags, a->file_flags, "BPF_F_???");
	return ATTR_END(file_flags);
}

static size_t pr_prog_attach(struct st *s, const struct bpf_in *in, const union bpf_attr *a,
			     uint32_t cmd)
{
	bpf_fd_field(s, "target_fd", a->target_fd);
	if (cmd == BPF_PROG_ATTACH)
		bpf_fd_field(s, "attach_bpf_fd", a->attach_bpf_fd);
	st_field(s, "attach_type");
	pr_xval(s, &x_bpf_attach_type, a->attach_type, "BPF_???");
	if (cmd == BPF_PROG_DETACH)
		return ATTR_END(attach_type);
	st_field(s, "attach_flags");
	pr_flags(s, &x_bpf_attach_flags, a->attach_flags, "BPF_F_???");
	if (!ATTR_HAS(in, replace_bpf_fd))
		return ATTR_END(attach_flags);
	bpf_fd_field(s, "replace_bpf_fd", a->replace_bpf_fd);
	return ATTR_END(replace_bpf_fd);
}

static size_t pr_test_run(struct st *s, const struct bpf_in *in, const union bpf_attr *a)
{
	size_t end = ATTR_END(test.duration);

	st_field(s, "test");
	st_obj_begin(s);
	bpf_fd_field(s, "prog_fd", a->test.prog_fd);
	pr_u32_field(s, "retval", a->test.retval);
	pr_u32_field(s, "data_size_in", a->test.data_size_in);
	pr_u32_field(s, "data_size_out", a->test.data_size_out);
	bpf_addr_field(s, "data_in", a->test.data_in);
	bpf_addr_field(s, "data_out", a->test.data_out);
	pr_u32_field(s, "repeat", a->test.repeat);
	pr_u32_field(s, "duration", a->test.duration);
	if (ATTR_HAS(in, test.ctx_size_in)) {
		pr_u32_field(s, "ctx_size_in", a->test.ctx_size_in);
		pr_u32_field(s, "ctx_size_out", a->test.ctx_size_out);
		bpf_addr_field(s, "ctx_in", a->test.ctx_in);
		bpf_addr_field(s, "ctx_out", a->test.ctx_out);
		end = ATTR_END(test.ctx_out);
	}
	if (ATTR_HAS(in, test.flags)) {
		st_field(s, "flags");
		pr_flags(s, &x_bpf_test_run_flags, a->test.flags, "BPF_F_???");
		pr_u32_field(s, "cpu", a->test.cpu);
		end = ATTR_END(test.cpu);
	}
	if (ATTR_HAS(in, test.batch_size)) {
		pr_u32_field(s, "batch_size", a->test.batch_size);
		end = ATTR_END(test.batch_size);
	}
	st_obj_end(s);
	return end;
}

/* *_GET_NEXT_ID: {start_id=1, next_id=0 => 5, open_flags=0}, next_id
 * as the call wrote it. */
static size_t pr_next_id(struct st *s, const struct bpf_in *in, const union bpf_attr *a,
			 uint64_t addr)
{
	uint32_t out;

	pr_u32_field(s, "start_id", a->start_id);
	pr_u32_field(s, "next_id", a->next_id);
	st_entry_end(s);
	if (st_ok(s) &&
	    st_peek(s, SONDE_PL_EXIT, addr + offsetof(union bpf_attr, next_id), &out, 4) &&
	    out != a->next_id) {
		if (s->j)
			pr_u32_field(s, "next_id_out", out);
		else
			sb_printf(s->o, " => %u", out);
	}
	if (!ATTR_HAS(in, open_flags))
		return ATTR_END(next_id);
	st_field(s, "open_flags");
	pr_flags(s, &x_bpf_file_flags, a->open_flags, "BPF_F_???");
	return ATTR_END(open_flags);
}

static size_t pr_fd_by_id(struct st *s, const struct bpf_in *in, const union bpf_attr *a,
			  uint32_t cmd)
{
	const char *id = cmd == BPF_PROG_GET_FD_BY_ID ? "prog_id" :
			 cmd == BPF_MAP_GET_FD_BY_ID ? "map_id" :
			 cmd == BPF_BTF_GET_FD_BY_ID ? "btf_id" : "link_id";

	pr_u32_field(s, id, a->start_id);
	if (cmd == BPF_BTF_GET_FD_BY_ID || cmd == BPF_LINK_GET_FD_BY_ID)
		return 4;
	pr_u32_field(s, "next_id", a->next_id);
	if (!ATTR_HAS(in, open_flags))
		return ATTR_END(next_id);
	st_field(s, "open_flags");
	pr_flags(s, &x_bpf_file_flags, a->open_flags, "BPF_F_???");
	return ATTR_END(open_flags);
}

/* PROG_QUERY: the ids of the programs attached (the count the call
 * wrote of them) and the count, in and out: prog_cnt=4 => 1. */
static size_t pr_prog_query(struct st *s, const union bpf_attr *a, uint64_t addr)
{
	uint32_t out;
	int have_out;

	st_field(s, "query");
	st_obj_begin(s);
	bpf_fd_field(s, "target_fd", a->query.target_fd);
	st_field(s, "attach_type");
	pr_xval(s, &x_bpf_attach_type, a->query.attach_type, "BPF_???");
	st_field(s, "query_flags");
	pr_flags(s, &x_bpf_query_flags, a->query.query_flags, "BPF_F_QUERY_???");
	st_field(s, "attach_flags");
	pr_flags(s, &x_bpf_attach_flags, a->query.attach_flags, "BPF_F_???");
	st_field(s, "prog_ids");
	st_entry_end(s);
	have_out = st_ok(s) && st_peek(s, SONDE_PL_EXIT,
				       addr + offsetof(union bpf_attr, query.prog_cnt), &out, 4);
	if (have_out)
		pr_mem_array(s, SONDE_PL_EXIT, a->query.prog_ids, out, 4, pr_uint);
	else
		pr_addr(s, a->query.prog_ids);
	pr_u32_field(s, "prog_cnt", a->query.prog_cnt);
	if (have_out && out != a->query.prog_cnt) {
		if (s->j)
			pr_u32_field(s, "prog_cnt_out", out);
		else
			sb_printf(s->o, " => %u", out);
	}
	st_obj_end(s);
	return ATTR_END(query.prog_cnt);
}

/* LINK_UPDATE: the program the link gets, and the one it replaces. */
static size_t pr_link_update(struct st *s, const union bpf_attr *a)
{
	st_field(s, "link_update");
	st_obj_begin(s);
	bpf_fd_field(s, "link_fd", a->link_update.link_fd);
	bpf_fd_field(s, "new_prog_fd", a->link_update.new_prog_fd);
	st_field(s, "flags");
	pr_flags(s, &x_bpf_attach_flags, a->link_update.flags, "BPF_F_???");
	if (a->link_update.flags & BPF_F_REPLACE)
		bpf_fd_field(s, "old_prog_fd", a->link_update.old_prog_fd);
	st_obj_end(s);
	return ATTR_END(link_update.old_prog_fd);
}

/* Commands whose attr is a struct of its own: {name={...}}. */
static size_t pr_named(struct st *s, const union bpf_attr *a, uint32_t cmd)
{
	switch (cmd) {
	case BPF_RAW_TRACEPOINT_OPEN:
		st_field(s, "raw_tracepoint");
		st_obj_begin(s);
		st_field(s, "name");
		pr_cstr_max(s, SONDE_PL_ENTRY, a->raw_tracepoint.name, 128);
		bpf_fd_field(s, "prog_fd", a->raw_tracepoint.prog_fd);
		st_obj_end(s);
		return ATTR_END(raw_tracepoint.prog_fd);
	case BPF_OBJ_GET_INFO_BY_FD:
		st_field(s, "info");
		st_obj_begin(s);
		bpf_fd_field(s, "bpf_fd", a->info.bpf_fd);
		pr_u32_field(s, "info_len", a->info.info_len);
		bpf_addr_field(s, "info", a->info.info);
		st_obj_end(s);
		return ATTR_END(info.info);
	}
	return 0;
}

/* LINK_CREATE's common members; the attach-type dependent union only
 * for a perf event's cookie. */
static size_t pr_link_create(struct st *s, const struct bpf_in *in, const union bpf_attr *a)
{
	size_t end = ATTR_END(link_create.flags);

	st_field(s, "link_create");
	st_obj_begin(s);
	bpf_fd_field(s, "prog_fd", a->link_create.prog_fd);
	bpf_fd_field(s, "target_fd", a->link_create.target_fd);
	st_field(s, "attach_type");
	pr_xval(s, &x_bpf_attach_type, a->link_create.attach_type, "BPF_???");
	st_field(s, "flags");
	pr_hex(s, a->link_create.flags);
	if (a->link_create.attach_type == BPF_PERF_EVENT &&
	    ATTR_HAS(in, link_create.perf_event.bpf_cookie)) {
		st_field(s, "perf_event");
		st_obj_begin(s);
		st_field(s, "bpf_cookie");
		pr_hex(s, a->link_create.perf_event.bpf_cookie);
		st_obj_end(s);
		end = ATTR_END(link_create.perf_event.bpf_cookie);
	}
	st_obj_end(s);
	return end;
}

size_t bpf_prog_attr(struct st *s, const struct bpf_in *in, uint32_t cmd, uint64_t addr)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	memcpy(&a, in->b, in->size < sizeof(a) ? in->size : sizeof(a));
	switch (cmd) {
	case BPF_PROG_LOAD:
		return pr_prog_load(s, in, &a);
	case BPF_OBJ_PIN:
	case BPF_OBJ_GET:
		return pr_obj_pin(s, in, &a);
	case BPF_PROG_ATTACH:
	case BPF_PROG_DETACH:
		return pr_prog_attach(s, in, &a, cmd);
	case BPF_PROG_TEST_RUN:
		return pr_test_run(s, in, &a);
	case BPF_PROG_GET_NEXT_ID:
	case BPF_MAP_GET_NEXT_ID:
	case BPF_BTF_GET_NEXT_ID:
	case BPF_LINK_GET_NEXT_ID:
		return pr_next_id(s, in, &a, addr);
	case BPF_PROG_GET_FD_BY_ID:
	case BPF_MAP_GET_FD_BY_ID:
	case BPF_BTF_GET_FD_BY_ID:
	case BPF_LINK_GET_FD_BY_ID:
		return pr_fd_by_id(s, in, &a, cmd);
	case BPF_LINK_CREATE:
		return pr_link_create(s, in, &a);
	case BPF_PROG_QUERY:
		return pr_prog_query(s, &a, addr);
	case BPF_LINK_UPDATE:
		return pr_link_update(s, &a);
	}
	return pr_named(s, &a, cmd);
}

int bpf_prog_cmd(uint32_t cmd)
{
	switch (cmd) {
	case BPF_PROG_LOAD: case BPF_OBJ_PIN: case BPF_OBJ_GET: case BPF_PROG_ATTACH:
	case BPF_PROG_DETACH: case BPF_PROG_TEST_RUN: case BPF_PROG_GET_NEXT_ID:
	case BPF_MAP_GET_NEXT_ID: case BPF_BTF_GET_NEXT_ID: case BPF_LINK_GET_NEXT_ID:
	case BPF_PROG_GET_FD_BY_ID: case BPF_MAP_GET_FD_BY_ID: case BPF_BTF_GET_FD_BY_ID:
	case BPF_LINK_GET_FD_BY_ID: case BPF_LINK_CREATE: case BPF_RAW_TRACEPOINT_OPEN:
	case BPF_OBJ_GET_INFO_BY_FD: case BPF_PROG_QUERY: case BPF_LINK_UPDATE:
		return 1;
	}
	return 0;
}
