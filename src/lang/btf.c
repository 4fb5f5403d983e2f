// SPDX-License-Identifier: GPL-2.0
/* Kernel types from /sys/kernel/btf/vmlinux, through libbpf's btf__ API.
 * Loaded only when a script needs them (casts, curthread walks, typed
 * tracepoint arguments): parsing vmlinux BTF costs ~10 ms and several MB,
 * which scripts that do not use kernel types should not pay. Resolving
 * member offsets here, on the machine that runs the program, is what CO-RE
 * relocations do for precompiled objects. */
#include <bpf/btf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lang/types.h"

static struct btf *vmlinux;
static struct type **cache; /* sonde type per BTF id */
static unsigned int ncache;

int lbtf_load(char *err, size_t errlen)
{
	if (vmlinux)
		return 0;
	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux) {
		int e = errno;

		snprintf(err, errlen,
			 "cannot load kernel BTF (/sys/kernel/btf/vmlinux): %s; kernel types need "
			 "CONFIG_DEBUG_INFO_BTF",
			 strerror(e));
		return -e;
	}
	ncache = btf__type_cnt(vmlinux);
	cache = calloc(ncache, sizeof(*cache));
	if (!cache)
		return -ENOMEM;
	return 0;
}

void lbtf_free(void)
{
	btf__free(vmlinux);
	vmlinux = NULL;
	free(cache);
	cache = NULL;
}

static struct type *mk(const struct type *proto, int id)
{
	cache[id] = type_alloc(proto);
	return cache[id];
}

struct type *lbtf_type(int id)
{
	const struct btf_type *bt;
	struct type proto = { 0 };

	for (;;) {
		if (!vmlinux || id <= 0 || (unsigned)id >= ncache)
			return &t_void;
		if (cache[id])
			return cache[id];
		bt = btf__type_by_id(vmlinux, id);
		if (btf_is_typedef(bt) || btf_is_mod(bt)) {
			id = bt->type;
			continue;
		}
		break;
	}
	if (btf_is_int(bt)) {
		int sz = bt->size > 8 ? 8 : bt->size;

		return type_int(sz, !!(btf_int_encoding(bt) & BTF_INT_SIGNED));
	}
	if (btf_is_enum(bt) || btf_is_enum64(bt))
		return type_int(bt->size, 1);
	if (btf_is_ptr(bt)) {
		const struct btf_type *rt = btf__type_by_id(vmlinux, bt->type);
		int rid = bt->type;

		while (rt && (btf_is_typedef(rt) || btf_is_mod(rt))) {
			rid = rt->type;
			rt = btf__type_by_id(vmlinux, rid);
		}
		if (!rid || !rt || btf_is_func_proto(rt))
			return &t_voidp;
		return type_ptr(lbtf_type(rid), 0);
	}
	if (btf_is_array(bt)) {
		const struct btf_array *a = btf_array(bt);
		struct type *et = lbtf_type(a->type);

		if (et->k == TY_INT && et->size == 1)
			return type_str(a->nelems ? a->nelems : 1, 0);
		proto = (struct type){ .k = TY_ARRAY,
				       .nelem = a->nelems,
				       .ref = et,
				       .size = a->nelems *
					       (et->k == TY_INT || et->k == TY_PTR ? et->size : 8),
				       .btf_id = id,
				       .name = "array" };
		return mk(&proto, id);
	}
	if (btf_is_composite(bt)) {
		proto = (struct type){ .k = TY_STRUCT,
				       .size = bt->size,
				       .btf_id = id,
				       .name = btf__name_by_offset(vmlinux, bt->name_off) };
		return mk(&proto, id);
	}
	return &t_void;
}

struct type *lbtf_struct(const char *name)
{
	int id = btf__find_by_name_kind(vmlinux, name, BTF_KIND_STRUCT);

	if (id < 0)
		id = btf__find_by_name_kind(vmlinux, name, BTF_KIND_UNION);
	if (id < 0)
		return NULL;
	return lbtf_type(id);
}

static int member_find(int sid, const char *name, int base, struct btf_member_info *mi)
{
	const struct btf_type *bt = btf__type_by_id(vmlinux, sid);
	const struct btf_member *m;

	while (bt && (btf_is_typedef(bt) || btf_is_mod(bt)))
		bt = btf__type_by_id(vmlinux, bt->type);
	if (!bt || !btf_is_composite(bt))
		return -ENOENT;
	m = btf_members(bt);
	for (int i = 0; i < btf_vlen(bt); i++, m++) {
		const char *mn = btf__name_by_offset(vmlinux, m->name_off);
		int off = base + btf_member_bit_offset(bt, i) / 8;

		if (mn && mn[0]) {
			if (strcmp(mn, name))
				continue;
			mi->t = lbtf_type(m->type);
			mi->offset = off;
			mi->bitfield = btf_member_bitfield_size(bt, i) != 0 ||
				       btf_member_bit_offset(bt, i) % 8;
			return 0;
		}
		if (!member_find(m->type, name, off, mi))
			return 0;
	}
	return -ENOENT;
}

int lbtf_member(const struct type *st, const char *name, struct btf_member_info *mi)
{
	if (!vmlinux || st->k != TY_STRUCT)
		return -ENOENT;
	return member_find(st->btf_id, name, 0, mi);
}

int lbtf_offsetof(const char *sname, const char *member)
{
	struct type *st = lbtf_struct(sname);
	struct btf_member_info mi;

	if (!st || lbtf_member(st, member, &mi))
		return -1;
	return mi.offset;
}

int lbtf_trace_id(const char *tp)
{
	char name[128];

	snprintf(name, sizeof(name), "btf_trace_%s", tp);
	return btf__find_by_name_kind(vmlinux, name, BTF_KIND_TYPEDEF);
}
