// SPDX-License-Identifier: GPL-2.0
/*
 * bpf(2): the command and its union bpf_attr as strace 6.1 prints it:
 * here the map commands (create, element lookup, update, delete, next
 * key, freeze), in dec_bpf_prog.c the others it decodes; the batch and
 * query commands' attr by its address.
 *
 * strace follows the kernel's rule for the attr's size: the members
 * past size are zero. A command's members added by later kernels are
 * shown only when size reaches them; bytes past the struct strace
 * knows are ", ..." when any is nonzero (with -v, their hex string).
 */
#include <linux/bpf.h>
#include <stddef.h>
#include <string.h>

#include "decode/strace/bpf_int.h"

XLAT_DEF(x_bpf_cmd, 0, XE(BPF_MAP_CREATE), XE(BPF_MAP_LOOKUP_ELEM), XE(BPF_MAP_UPDATE_ELEM),
	 XE(BPF_MAP_DELETE_ELEM), XE(BPF_MAP_GET_NEXT_KEY), XE(BPF_PROG_LOAD), XE(BPF_OBJ_PIN),
	 XE(BPF_OBJ_GET), XE(BPF_PROG_ATTACH), XE(BPF_PROG_DETACH), XE(BPF_PROG_TEST_RUN),
	 XE(BPF_PROG_GET_NEXT_ID), XE(BPF_MAP_GET_NEXT_ID), XE(BPF_PROG_GET_FD_BY_ID),
	 XE(BPF_MAP_GET_FD_BY_ID), XE(BPF_OBJ_GET_INFO_BY_FD), XE(BPF_PROG_QUERY),
	 XE(BPF_RAW_TRACEPOINT_OPEN), XE(BPF_BTF_LOAD), XE(BPF_BTF_GET_FD_BY_ID),
	 XE(BPF_TASK_FD_QUERY), XE(BPF_MAP_LOOKUP_AND_DELETE_ELEM), XE(BPF_MAP_FREEZE),
	 XE(BPF_BTF_GET_NEXT_ID), XE(BPF_MAP_LOOKUP_BATCH), XE(BPF_MAP_LOOKUP_AND_DELETE_BATCH),
	 XE(BPF_MAP_UPDATE_BATCH), XE(BPF_MAP_DELETE_BATCH), XE(BPF_LINK_CREATE),
	 XE(BPF_LINK_UPDATE), XE(BPF_LINK_GET_FD_BY_ID), XE(BPF_LINK_GET_NEXT_ID),
	 XE(BPF_ENABLE_STATS), XE(BPF_ITER_CREATE), XE(BPF_LINK_DETACH), XE(BPF_PROG_BIND_MAP));
/* The map types of Linux 6.1. */
XLAT_DEF(x_bpf_map_type, 0, XE(BPF_MAP_TYPE_UNSPEC), XE(BPF_MAP_TYPE_HASH),
	 XE(BPF_MAP_TYPE_ARRAY), XE(BPF_MAP_TYPE_PROG_ARRAY), XE(BPF_MAP_TYPE_PERF_EVENT_ARRAY),
	 XE(BPF_MAP_TYPE_PERCPU_HASH), XE(BPF_MAP_TYPE_PERCPU_ARRAY),
	 XE(BPF_MAP_TYPE_STACK_TRACE), XE(BPF_MAP_TYPE_CGROUP_ARRAY), XE(BPF_MAP_TYPE_LRU_HASH),
	 XE(BPF_MAP_TYPE_LRU_PERCPU_HASH), XE(BPF_MAP_TYPE_LPM_TRIE),
	 XE(BPF_MAP_TYPE_ARRAY_OF_MAPS), XE(BPF_MAP_TYPE_HASH_OF_MAPS), XE(BPF_MAP_TYPE_DEVMAP),
	 XE(BPF_MAP_TYPE_SOCKMAP), XE(BPF_MAP_TYPE_CPUMAP), XE(BPF_MAP_TYPE_XSKMAP),
	 XE(BPF_MAP_TYPE_SOCKHASH), XN(19, "BPF_MAP_TYPE_CGROUP_STORAGE"),
	 XE(BPF_MAP_TYPE_REUSEPORT_SOCKARRAY), XN(21, "BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE"),
	 XE(BPF_MAP_TYPE_QUEUE), XE(BPF_MAP_TYPE_STACK), XE(BPF_MAP_TYPE_SK_STORAGE),
	 XE(BPF_MAP_TYPE_DEVMAP_HASH), XE(BPF_MAP_TYPE_STRUCT_OPS), XE(BPF_MAP_TYPE_RINGBUF),
	 XE(BPF_MAP_TYPE_INODE_STORAGE), XE(BPF_MAP_TYPE_TASK_STORAGE),
	 XE(BPF_MAP_TYPE_BLOOM_FILTER), XE(BPF_MAP_TYPE_USER_RINGBUF));
XLAT_DEF(x_bpf_map_flags, 0, XE(BPF_F_NO_PREALLOC), XE(BPF_F_NO_COMMON_LRU),
	 XE(BPF_F_NUMA_NODE), XE(BPF_F_RDONLY), XE(BPF_F_WRONLY), XE(BPF_F_STACK_BUILD_ID),
	 XE(BPF_F_ZERO_SEED), XE(BPF_F_RDONLY_PROG), XE(BPF_F_WRONLY_PROG), XE(BPF_F_CLONE),
	 XE(BPF_F_MMAPABLE), XE(BPF_F_PRESERVE_ELEMS), XE(BPF_F_INNER_MAP));
XLAT_DEF(x_bpf_elem_flags, 0, XE(BPF_ANY), XE(BPF_NOEXIST), XE(BPF_EXIST), XE(BPF_F_LOCK));
/* A batch's elem_flags: the flags a lookup takes, as strace names them. */
XLAT_DEF(x_bpf_lookup_flags, 0, XE(BPF_ANY), XE(BPF_F_LOCK));

/* strace's "len <= offsetof(member)": the member is past the caller's
 * attr, and so are the ones after it. */
#define HAS(in, type, member) ((in)->size > offsetof(type, member))

void bpf_name_field(struct st *s, const char *name, const uint8_t *p, size_t n)
{
	const uint8_t *nul = memchr(p, 0, n);

	st_field(s, name);
	if (nul)
		pr_quoted(s, p, (size_t)(nul - p), 0, 0, 0);
	else
		pr_quoted(s, p, n ? n - 1 : 0, 0, 1, 0);
}

void bpf_fd_field(struct st *s, const char *name, uint32_t fd)
{
	st_field(s, name);
	pr_fd(s, (int)fd);
}

void bpf_addr_field(struct st *s, const char *name, uint64_t a)
{
	st_field(s, name);
	pr_addr(s, a);
}

/* The members of BPF_MAP_CREATE, as Linux 6.1 has them. */
struct map_create {
	uint32_t map_type, key_size, value_size, max_entries, map_flags, inner_map_fd,
		numa_node;
	char map_name[16];
	uint32_t map_ifindex, btf_fd, btf_key_type_id, btf_value_type_id,
		btf_vmlinux_value_type_id;
	uint64_t map_extra;
};

static void pr_map_create_tail(struct st *s, const struct bpf_in *in, const struct map_create *a)
{
	if (!HAS(in, struct map_create, map_name))
		return;
	bpf_name_field(s, "map_name", (const uint8_t *)a->map_name,
		   in->size - offsetof(struct map_create, map_name) < 16
		   ? in->size - offsetof(struct map_create, map_name) : 16);
	if (!HAS(in, struct map_create, map_ifindex))
		return;
	st_field(s, "map_ifindex");
	pr_ifindex(s, a->map_ifindex);
	if (!HAS(in, struct map_create, btf_fd))
		return;
	bpf_fd_field(s, "btf_fd", a->btf_fd);
	pr_u32_field(s, "btf_key_type_id", a->btf_key_type_id);
	pr_u32_field(s, "btf_value_type_id", a->btf_value_type_id);
	if (!HAS(in, struct map_create, btf_vmlinux_value_type_id))
		return;
	pr_u32_field(s, "btf_vmlinux_value_type_id", a->btf_vmlinux_value_type_id);
	if (HAS(in, struct map_create, map_extra))
		pr_ulong_field(s, "map_extra", a->map_extra);
}

static size_t pr_map_create(struct st *s, const struct bpf_in *in)
{
	struct map_create a;

	memcpy(&a, in->b, sizeof(a));
	st_field(s, "map_type");
	pr_xval(s, &x_bpf_map_type, a.map_type, "BPF_MAP_TYPE_???");
	pr_u32_field(s, "key_size", a.key_size);
	pr_u32_field(s, "value_size", a.value_size);
	pr_u32_field(s, "max_entries", a.max_entries);
	if (!HAS(in, struct map_create, map_flags))
		return sizeof(a);
	st_field(s, "map_flags");
	pr_flags(s, &x_bpf_map_flags, a.map_flags, "BPF_F_???");
	if (!HAS(in, struct map_create, inner_map_fd))
		return sizeof(a);
	bpf_fd_field(s, "inner_map_fd", a.inner_map_fd);
	if (!HAS(in, struct map_create, numa_node))
		return sizeof(a);
	if (a.map_flags & BPF_F_NUMA_NODE) {
		st_field(s, "numa_node");
		pr_uint(s, a.numa_node);
		if (a.numa_node == UINT32_MAX && !s->j)
			sb_puts(s->o, " /* NUMA_NO_NODE */");
	}
	pr_map_create_tail(s, in, &a);
	return sizeof(a);
}

/* map_fd, key, value/next_key, flags: the element commands. */
struct map_elem {
	uint32_t map_fd, pad;
	uint64_t key, value, flags;
};

static size_t pr_map_elem(struct st *s, const struct bpf_in *in, uint32_t cmd)
{
	struct map_elem a;

	memcpy(&a, in->b, sizeof(a));
	bpf_fd_field(s, "map_fd", a.map_fd);
	if (cmd == BPF_MAP_FREEZE)
		return 4;
	bpf_addr_field(s, "key", a.key);
	if (cmd == BPF_MAP_DELETE_ELEM)
		return 16;
	bpf_addr_field(s, cmd == BPF_MAP_GET_NEXT_KEY ? "next_key" : "value", a.value);
	if (cmd == BPF_MAP_GET_NEXT_KEY)
		return 24;
	/* The lookups' flags came later than the update's. */
	if (cmd == BPF_MAP_UPDATE_ELEM || HAS(in, struct map_elem, flags)) {
		st_field(s, "flags");
		pr_xval(s, &x_bpf_elem_flags, a.flags, "BPF_???");
	}
	return sizeof(a);
}

/* The batch commands' attr as Linux 6.1 has it. */
struct map_batch {
	uint64_t in_batch, out_batch, keys, values;
	uint32_t count, map_fd;
	uint64_t elem_flags, flags;
};

static int bpf_batch(uint32_t cmd)
{
	return cmd == BPF_MAP_LOOKUP_BATCH || cmd == BPF_MAP_LOOKUP_AND_DELETE_BATCH ||
	       cmd == BPF_MAP_UPDATE_BATCH || cmd == BPF_MAP_DELETE_BATCH;
}

/* The lookups start from in_batch and write out_batch; a delete has no
 * values. */
static size_t pr_map_batch(struct st *s, const struct bpf_in *in, uint32_t cmd)
{
	struct map_batch a;
	int lookup = cmd == BPF_MAP_LOOKUP_BATCH || cmd == BPF_MAP_LOOKUP_AND_DELETE_BATCH;

	memcpy(&a, in->b, sizeof(a));
	st_field(s, "batch");
	st_obj_begin(s);
	if (lookup) {
		bpf_addr_field(s, "in_batch", a.in_batch);
		bpf_addr_field(s, "out_batch", a.out_batch);
	}
	bpf_addr_field(s, "keys", a.keys);
	if (cmd != BPF_MAP_DELETE_BATCH)
		bpf_addr_field(s, "values", a.values);
	pr_u32_field(s, "count", a.count);
	bpf_fd_field(s, "map_fd", a.map_fd);
	st_field(s, "elem_flags");
	pr_flags(s, &x_bpf_lookup_flags, a.elem_flags, "BPF_???");
	st_field(s, "flags");
	pr_hex(s, a.flags);
	st_obj_end(s);
	return sizeof(a);
}

/* What a batch command did, when the call changed count (also when it
 * failed: the end of the map is ENOENT): " => {batch={count=2}}". */
static void pr_batch_out(struct st *s, uint64_t addr)
{
	uint64_t at = addr + offsetof(struct map_batch, count);
	uint32_t in, out;
	struct strbuf b;
	struct st t;

	if (!st_peek(s, SONDE_PL_ENTRY, at, &in, 4) || !st_peek(s, SONDE_PL_EXIT, at, &out, 4) ||
	    in == out)
		return;
	if (!s->j) {
		sb_printf(s->o, " => {batch={count=%u}}", out);
		return;
	}
	st_res_begin(s, &t, &b, "count");
	pr_uint(&t, out);
	st_res_end(s, &t, &b);
}

/* Bytes past the struct: ", ..." if any is nonzero; -v shows them. */
static void pr_extra(struct st *s, const struct bpf_in *in, size_t known)
{
	size_t n = in->size;

	if (s->j || n <= known)
		return;
	for (size_t i = known; i < n; i++) {
		if (!in->b[i])
			continue;
		if (!s->opt->verbose) {
			sb_puts(s->o, ", ...");
			return;
		}
		st_field(s, "extra_data");
		pr_quoted(s, in->b + known, n - known, 0, 0, 1);
		sb_printf(s->o, " /* bytes %zu..%zu */", known, n - 1);
		return;
	}
}

static int bpf_decoded(uint32_t cmd)
{
	return cmd <= BPF_MAP_GET_NEXT_KEY || cmd == BPF_MAP_LOOKUP_AND_DELETE_ELEM ||
	       cmd == BPF_MAP_FREEZE || bpf_batch(cmd);
}

static void pr_bpf_attr(struct st *s, uint32_t cmd, uint64_t addr, uint32_t size)
{
	struct bpf_in in;
	size_t known;

	memset(&in, 0, sizeof(in));
	in.size = size < sizeof(in.b) ? size : sizeof(in.b);
	if (!size || !(bpf_decoded(cmd) || bpf_prog_cmd(cmd))) {
		pr_addr(s, addr);
		return;
	}
	if (!st_fetch(s, SONDE_PL_ENTRY, addr, in.b, in.size))
		return;
	st_obj_begin(s);
	if (cmd == BPF_MAP_CREATE)
		known = pr_map_create(s, &in);
	else if (bpf_batch(cmd))
		known = pr_map_batch(s, &in, cmd);
	else if (bpf_decoded(cmd))
		known = pr_map_elem(s, &in, cmd);
	else
		known = bpf_prog_attr(s, &in, cmd, addr);
	pr_extra(s, &in, known);
	st_obj_end(s);
}

void dec_bpf(struct st *s)
{
	uint32_t cmd = (uint32_t)st_arg(s, 0), size = (uint32_t)st_arg(s, 2);

	pr_xval(s, &x_bpf_cmd, cmd, "BPF_???");
	st_sep(s);
	pr_bpf_attr(s, cmd, st_arg(s, 1), size);
	if (bpf_batch(cmd) && size) {
		st_entry_end(s);
		pr_batch_out(s, st_arg(s, 1));
	}
	st_sep(s);
	pr_uint(s, size);
	/* The commands that make an object return its descriptor; strace
	 * says so only of an attr it showed. */
	if (!st_deref(s))
		return;
	if (cmd == BPF_MAP_CREATE || cmd == BPF_PROG_LOAD || cmd == BPF_OBJ_GET ||
	    cmd == BPF_BTF_LOAD || cmd == BPF_LINK_CREATE || cmd == BPF_ITER_CREATE ||
	    cmd == BPF_PROG_GET_FD_BY_ID || cmd == BPF_MAP_GET_FD_BY_ID ||
	    cmd == BPF_BTF_GET_FD_BY_ID || cmd == BPF_LINK_GET_FD_BY_ID ||
	    cmd == BPF_RAW_TRACEPOINT_OPEN)
		s->rkind = R_FD;
}
