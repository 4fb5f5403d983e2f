// SPDX-License-Identifier: GPL-2.0
/*
 * Decoders of syscalls Linux added since 5.x whose arguments depend on
 * each other or point to structs: pkey_alloc, userfaultfd, memfd_secret, kcmp,
 * fsconfig, mount_setattr, landlock, process_madvise, futex_waitv; as strace 6.1
 * prints them (the simpler ones are signatures in table.c).
 */
#include <linux/futex.h>
#include <linux/kcmp.h>
#include <linux/landlock.h>
#include <linux/mount.h>
#include <string.h>

#include "decode/strace/strace_int.h"

/* The flags' default names no common prefix of the table. */
void dec_pkey_alloc(struct st *s)
{
	pr_hex(s, st_arg(s, 0));
	st_sep(s);
	pr_flags(s, &x_pkey_access, st_arg(s, 1), "PKEY_???");
}

void dec_userfaultfd(struct st *s)
{
	pr_flags(s, &x_uffd, (uint32_t)st_arg(s, 0), "UFFD_???");
}

/* strace names O_CLOEXEC and leaves other bits a bare number. */
void dec_memfd_secret(struct st *s)
{
	uint32_t f = (uint32_t)st_arg(s, 0);

	if (s->j)
		pr_flags(s, &x_memfd_secret, f, NULL);
	else if (!f)
		pr_hex(s, 0);
	else
		pr_flags_in(s, &x_memfd_secret, f);
}

/* struct kcmp_epoll_slot, of pid2's descriptors. */
static void pr_kcmp_epoll_slot(struct st *s, uint64_t addr)
{
	struct kcmp_epoll_slot k;

	if (!st_fetch(s, SONDE_PL_ENTRY, addr, &k, sizeof(k)))
		return;
	st_obj_begin(s);
	st_field(s, "efd");
	pr_int(s, k.efd);
	st_field(s, "tfd");
	pr_int(s, k.tfd);
	pr_u32_field(s, "toff", k.toff);
	st_obj_end(s);
}

/* A descriptor of process pid: -y names the caller's only (sonde has
 * no table of another process's descriptors). */
static void pr_fd_of(struct st *s, uint64_t pid, uint64_t fd)
{
	if ((uint32_t)pid == s->sc->hdr.pid)
		pr_fd(s, (int)fd);
	else
		pr_int(s, fd);
}

/*
 * The indexes are descriptors of the two processes for KCMP_FILE and
 * KCMP_EPOLL_TFD, absent for the types comparing a whole resource.
 */
void dec_kcmp(struct st *s)
{
	uint32_t type = (uint32_t)st_arg(s, 2);

	pr_pid(s, st_arg(s, 0));
	st_sep(s);
	pr_pid(s, st_arg(s, 1));
	st_sep(s);
	pr_xval(s, &x_kcmp, type, "KCMP_???");
	switch (type) {
	case KCMP_FILE:
	case KCMP_EPOLL_TFD:
		st_sep(s);
		pr_fd_of(s, st_arg(s, 0), st_arg(s, 3));
		st_sep(s);
		if (type == KCMP_FILE)
			pr_fd_of(s, st_arg(s, 1), st_arg(s, 4));
		else
			pr_kcmp_epoll_slot(s, st_arg(s, 4));
		break;
	case KCMP_VM: case KCMP_FILES: case KCMP_FS: case KCMP_SIGHAND: case KCMP_IO:
	case KCMP_SYSVSEM:
		break;
	default:
		st_sep(s);
		pr_hex(s, st_arg(s, 3));
		st_sep(s);
		pr_hex(s, st_arg(s, 4));
	}
}

/* The key names a parameter for the SET commands only. */
static int fsconfig_has_key(uint32_t cmd)
{
	return cmd <= FSCONFIG_SET_FD;
}

/*
 * fsconfig(fd, cmd, key, value, aux): value is a string, a path or
 * (SET_BINARY: aux bytes, not captured) an address by cmd; aux a
 * directory descriptor for the paths, a descriptor for SET_FD.
 */
void dec_fsconfig(struct st *s)
{
	uint32_t cmd = (uint32_t)st_arg(s, 1);
	uint64_t value = st_arg(s, 3);

	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	pr_xval(s, &x_fsconfig, cmd, "FSCONFIG_???");
	st_sep(s);
	if (fsconfig_has_key(cmd))
		pr_cstr_max(s, SONDE_PL_ENTRY, st_arg(s, 2), 256);
	else
		pr_addr(s, st_arg(s, 2));
	st_sep(s);
	if (cmd == FSCONFIG_SET_STRING)
		pr_cstr_max(s, SONDE_PL_ENTRY, value, 256);
	else if (cmd == FSCONFIG_SET_PATH || cmd == FSCONFIG_SET_PATH_EMPTY)
		pr_path(s, value);
	else
		pr_addr(s, value);
	st_sep(s);
	if (cmd == FSCONFIG_SET_PATH || cmd == FSCONFIG_SET_PATH_EMPTY)
		pr_dirfd(s, st_arg(s, 4));
	else if (cmd == FSCONFIG_SET_FD)
		pr_fd(s, (int)st_arg(s, 4));
	else
		pr_int(s, st_arg(s, 4));
}

static void pr_mount_attr(struct st *s, uint64_t addr, uint64_t size)
{
	struct mount_attr a;

	if (size < MOUNT_ATTR_SIZE_VER0) {
		pr_addr(s, addr);
		return;
	}
	if (!st_fetch(s, SONDE_PL_ENTRY, addr, &a, sizeof(a)))
		return;
	st_obj_begin(s);
	st_field(s, "attr_set");
	pr_flags(s, &x_mount_attr, a.attr_set, "MOUNT_ATTR_???");
	st_field(s, "attr_clr");
	pr_flags(s, &x_mount_attr, a.attr_clr, "MOUNT_ATTR_???");
	st_field(s, "propagation");
	pr_xval(s, &x_mount_propagation, a.propagation, "MS_???");
	st_field(s, "userns_fd");
	pr_int(s, a.userns_fd);
	st_obj_end(s);
}

/* strace 6.1 shows the return value as a descriptor (0</dev/null>). */
void dec_mount_setattr(struct st *s)
{
	s->rkind = R_FD;
	pr_dirfd(s, st_arg(s, 0));
	st_sep(s);
	pr_path(s, st_arg(s, 1));
	st_sep(s);
	pr_flags(s, &x_mount_setattr, (uint32_t)st_arg(s, 2), "AT_???");
	st_sep(s);
	pr_mount_attr(s, st_arg(s, 3), st_arg(s, 4));
	st_sep(s);
	pr_ulong(s, st_arg(s, 4));
}

/* struct landlock_ruleset_attr of Linux 6.1: handled_access_fs only. */
void dec_landlock_create_ruleset(struct st *s)
{
	uint64_t addr = st_arg(s, 0), size = st_arg(s, 1), access;
	uint32_t flags = (uint32_t)st_arg(s, 2);

	if (size < sizeof(access)) {
		pr_addr(s, addr);
	} else if (st_fetch(s, SONDE_PL_ENTRY, addr, &access, sizeof(access))) {
		st_obj_begin(s);
		st_field(s, "handled_access_fs");
		pr_flags(s, &x_landlock_fs, access, "LANDLOCK_ACCESS_FS_???");
		st_obj_end(s);
	}
	st_sep(s);
	pr_ulong(s, size);
	st_sep(s);
	pr_flags(s, &x_landlock_create, flags, "LANDLOCK_CREATE_RULESET_???");
	/* The version query returns a number, not a descriptor. */
	s->rkind = flags & LANDLOCK_CREATE_RULESET_VERSION ? R_DEC : R_FD;
}

static void pr_path_beneath(struct st *s, uint64_t addr)
{
	struct landlock_path_beneath_attr a;

	if (!st_fetch(s, SONDE_PL_ENTRY, addr, &a, sizeof(a)))
		return;
	st_obj_begin(s);
	st_field(s, "allowed_access");
	pr_flags(s, &x_landlock_fs, a.allowed_access, "LANDLOCK_ACCESS_FS_???");
	st_field(s, "parent_fd");
	pr_fd(s, a.parent_fd);
	st_obj_end(s);
}

void dec_landlock_add_rule(struct st *s)
{
	uint32_t type = (uint32_t)st_arg(s, 1);

	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	pr_xval(s, &x_landlock_rule, type, "LANDLOCK_RULE_???");
	st_sep(s);
	if (type == LANDLOCK_RULE_PATH_BENEATH)
		pr_path_beneath(s, st_arg(s, 2));
	else
		pr_addr(s, st_arg(s, 2));
	st_sep(s);
	pr_hex(s, (uint32_t)st_arg(s, 3));
}

/* The ranges the advice is for: iovecs of addresses, not of data. */
void dec_process_madvise(struct st *s)
{
	pr_fd(s, (int)st_arg(s, 0));
	st_sep(s);
	pr_iov(s, SONDE_PL_ENTRY, st_arg(s, 1), st_arg(s, 2), IOV_ADDRS);
	st_sep(s);
	pr_ulong(s, st_arg(s, 2));
	st_sep(s);
	pr_xval(s, &x_madv, (uint32_t)st_arg(s, 3), "MADV_???");
	st_sep(s);
	pr_hex(s, (uint32_t)st_arg(s, 4));
}

static void pr_waiter(struct st *s, const struct futex_waitv *w)
{
	st_obj_begin(s);
	st_field(s, "val");
	pr_hex(s, w->val);
	st_field(s, "uaddr");
	pr_addr(s, w->uaddr);
	st_field(s, "flags");
	pr_flags(s, &x_futex2_flags, w->flags, "FUTEX_???");
	if (w->__reserved) {
		st_field(s, "__reserved");
		pr_hex(s, w->__reserved);
	}
	st_obj_end(s);
}

/* The waiters, cut by -s (all with -v). */
static void pr_waiters(struct st *s, uint64_t addr, uint32_t n)
{
	uint32_t m = n;
	struct futex_waitv w;

	if (!s->opt->verbose && !s->j && m > s->opt->strsize)
		m = s->opt->strsize;
	if (!n || !st_have_array(s, SONDE_PL_ENTRY, addr, m, sizeof(w))) {
		pr_addr(s, addr);
		return;
	}
	st_arr_begin(s);
	for (uint32_t i = 0; i < m; i++) {
		st_elem(s);
		st_peek(s, SONDE_PL_ENTRY, addr + (uint64_t)i * sizeof(w), &w, sizeof(w));
		pr_waiter(s, &w);
	}
	if (m < n && !s->j) {
		st_elem(s);
		sb_puts(s->o, "...");
	}
	st_arr_end(s);
}

void dec_futex_waitv(struct st *s)
{
	pr_waiters(s, st_arg(s, 0), (uint32_t)st_arg(s, 1));
	st_sep(s);
	pr_uint(s, (uint32_t)st_arg(s, 1));
	st_sep(s);
	pr_hex(s, (uint32_t)st_arg(s, 2));
	st_sep(s);
	ps_timespec(s, SONDE_PL_ENTRY, st_arg(s, 3));
	st_sep(s);
	pr_clockid(s, (uint32_t)st_arg(s, 4));
}
