// SPDX-License-Identifier: GPL-2.0
/*
 * The requests of a seccomp filter's listener (the fd SECCOMP_SET_MODE_FILTER
 * returns with SECCOMP_FILTER_FLAG_NEW_LISTENER), as strace 6.1 prints
 * them: the notification received (read at exit), the answer sent, an id
 * checked, a descriptor installed in the waiting task. Their memory is
 * captured by ioctl's plan (capture_plan.c): 36 bytes in and out for
 * every request, the 80 of struct seccomp_notif at exit for RECV.
 */
#include <linux/seccomp.h>
#include <stdio.h>
#include <sys/ioctl.h> /* _IOWR, which linux/seccomp.h uses */

#include "decode/strace/strace_int.h"

XLAT_DEF(x_notif_resp_flags, 0, XE(SECCOMP_USER_NOTIF_FLAG_CONTINUE));
XLAT_DEF(x_addfd_flags, 0, XE(SECCOMP_ADDFD_FLAG_SETFD), XE(SECCOMP_ADDFD_FLAG_SEND));

/* {id=0x..., pid=N, flags=0, data={nr=__NR_getcwd, arch=..., ...}} */
static void pr_notif(struct st *s, uint64_t a)
{
	struct seccomp_notif n;

	if (!st_fetch(s, SONDE_PL_EXIT, a, &n, sizeof(n)))
		return;
	st_obj_begin(s);
	pr_hex_field(s, "id", n.id);
	st_field(s, "pid");
	pr_pid(s, n.pid);
	pr_hex_field(s, "flags", n.flags);
	st_field(s, "data");
	st_obj_begin(s);
	st_field(s, "nr");
	pr_nr_sym(s, (uint32_t)n.data.nr);
	st_field(s, "arch");
	pr_xval(s, &x_audit_arch, n.data.arch, "AUDIT_ARCH_???");
	st_field(s, "instruction_pointer");
	pr_hex(s, n.data.instruction_pointer);
	st_field(s, "args");
	st_arr_begin(s);
	for (int i = 0; i < 6; i++) {
		st_elem(s);
		pr_hex(s, n.data.args[i]);
	}
	st_arr_end(s);
	st_obj_end(s);
	st_obj_end(s);
}

/* {id=0x..., val=0, error=-ERANGE, flags=SECCOMP_USER_NOTIF_FLAG_CONTINUE} */
static void pr_notif_resp(struct st *s, uint64_t a)
{
	struct seccomp_notif_resp r;

	if (!st_fetch(s, SONDE_PL_ENTRY, a, &r, sizeof(r)))
		return;
	st_obj_begin(s);
	pr_hex_field(s, "id", r.id);
	pr_long_field(s, "val", r.val);
	st_field(s, "error");
	if (s->j || r.error >= 0)
		pr_int(s, (uint32_t)r.error);
	else
		pr_errno_text(s, (uint32_t)r.error, 1);
	st_field(s, "flags");
	pr_flags(s, &x_notif_resp_flags, r.flags, "SECCOMP_USER_NOTIF_FLAG_???");
	st_obj_end(s);
}

/* {id=0x..., flags=SECCOMP_ADDFD_FLAG_SETFD, srcfd=3, newfd=42, newfd_flags=O_CLOEXEC} */
static void pr_notif_addfd(struct st *s, uint64_t a)
{
	struct seccomp_notif_addfd f;

	if (!st_fetch(s, SONDE_PL_ENTRY, a, &f, sizeof(f)))
		return;
	st_obj_begin(s);
	pr_hex_field(s, "id", f.id);
	st_field(s, "flags");
	pr_flags(s, &x_addfd_flags, f.flags, "SECCOMP_ADDFD_FLAG_???");
	st_field(s, "srcfd");
	pr_fd(s, (int)f.srcfd);
	pr_u32_field(s, "newfd", f.newfd);
	st_field(s, "newfd_flags");
	pr_flags(s, &x_open_flags, f.newfd_flags, "O_???");
	st_obj_end(s);
}

/* [0x...] */
static void pr_notif_id(struct st *s, uint64_t a)
{
	uint64_t id;

	if (!st_fetch(s, SONDE_PL_ENTRY, a, &id, sizeof(id)))
		return;
	st_arr_begin(s);
	st_elem(s);
	pr_hex(s, id);
	st_arr_end(s);
}

int ioctl_seccomp(struct st *s, uint32_t req, uint64_t a)
{
	switch (req) {
	case SECCOMP_IOCTL_NOTIF_RECV:
		st_sep(s);
		st_entry_end(s);
		if (st_ok(s))
			pr_notif(s, a);
		else
			pr_addr(s, a);
		return 1;
	case SECCOMP_IOCTL_NOTIF_SEND:
		st_sep(s);
		pr_notif_resp(s, a);
		return 1;
	case SECCOMP_IOCTL_NOTIF_ID_VALID:
		st_sep(s);
		pr_notif_id(s, a);
		return 1;
	case SECCOMP_IOCTL_NOTIF_ADDFD:
		st_sep(s);
		pr_notif_addfd(s, a);
		return 1;
	}
	return 0;
}
