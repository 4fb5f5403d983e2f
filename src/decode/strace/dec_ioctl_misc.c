// SPDX-License-Identifier: GPL-2.0
/*
 * Small ioctl families strace decodes: nsfs's (a namespace's owner,
 * parent, type and owning uid), the random device's (the entropy count,
 * entropy added with its bytes, the requests without argument) and
 * userfaultfd's (the API handshake, registered ranges, copies and zero
 * pages: what strace 6.1 decodes; UFFDIO_WRITEPROTECT and UFFDIO_CONTINUE
 * it shows as an address, and so does sonde) and the file system's of
 * type 'X' (FITRIM's range, FS_IOC_FSGETXATTR/FSSETXATTR's struct
 * fsxattr, FIFREEZE and FITHAW without argument).
 */
#include <linux/fs.h>
#include <linux/nsfs.h>
#include <linux/random.h>
#include <linux/userfaultfd.h>
#include <stddef.h>

#include "decode/strace/strace_int.h"

/*
 * nsfs (<linux/nsfs.h>): NS_GET_USERNS and NS_GET_PARENT take no
 * argument and return a descriptor, NS_GET_NSTYPE returns a CLONE_NEW*
 * type (" = 1073741824 (CLONE_NEWNET)"), NS_GET_OWNER_UID writes a uid_t.
 */
static int ioctl_nsfs(struct st *s, uint32_t req, uint64_t a)
{
	const char *n;

	switch (req) {
	case NS_GET_USERNS:
	case NS_GET_PARENT:
		s->rkind = R_FD;
		return 1;
	case NS_GET_NSTYPE:
		n = st_ok(s) ? xlat_name(&x_unshare, (uint64_t)s->ret) : NULL;
		if (n)
			st_res_name(s, "nstype", n);
		return 1;
	case NS_GET_OWNER_UID:
		st_sep(s);
		st_entry_end(s);
		if (st_ok(s))
			ps_uint(s, SONDE_PL_EXIT, a);
		else
			pr_addr(s, a);
		return 1;
	}
	return 0;
}

/*
 * /dev/random, /dev/urandom (<linux/random.h>): RNDGETENTCNT's count at
 * exit, RNDADDTOENTCNT's given, RNDADDENTROPY's struct rand_pool_info
 * and its buf_size bytes; RNDZAPENTCNT, RNDCLEARPOOL and RNDRESEEDCRNG
 * take no argument.
 */
static int ioctl_random(struct st *s, uint32_t req, uint64_t a)
{
	int32_t h[2]; /* entropy_count, buf_size */

	switch (req) {
	case RNDZAPENTCNT:
	case RNDCLEARPOOL:
	case RNDRESEEDCRNG:
		return 1;
	case RNDGETENTCNT:
		st_sep(s);
		ps_int_out(s, a);
		return 1;
	case RNDADDTOENTCNT:
		st_sep(s);
		ps_int(s, SONDE_PL_ENTRY, a);
		return 1;
	case RNDADDENTROPY:
		st_sep(s);
		if (!st_fetch(s, SONDE_PL_ENTRY, a, h, sizeof(h)))
			return 1;
		st_obj_begin(s);
		pr_int_field(s, "entropy_count", h[0]);
		pr_int_field(s, "buf_size", h[1]);
		st_field(s, "buf");
		pr_buf(s, SONDE_PL_ENTRY, a + sizeof(h), h[1] > 0 ? (uint64_t)h[1] : 0, 0);
		st_obj_end(s);
		return 1;
	}
	return 0;
}

XLAT_DEF(x_uffd_features, 0, XE(UFFD_FEATURE_PAGEFAULT_FLAG_WP), XE(UFFD_FEATURE_EVENT_FORK),
	 XE(UFFD_FEATURE_EVENT_REMAP), XE(UFFD_FEATURE_EVENT_REMOVE),
	 XE(UFFD_FEATURE_MISSING_HUGETLBFS), XE(UFFD_FEATURE_MISSING_SHMEM),
	 XE(UFFD_FEATURE_EVENT_UNMAP), XE(UFFD_FEATURE_SIGBUS), XE(UFFD_FEATURE_THREAD_ID),
	 XE(UFFD_FEATURE_MINOR_HUGETLBFS), XE(UFFD_FEATURE_MINOR_SHMEM),
	 XE(UFFD_FEATURE_EXACT_ADDRESS), XE(UFFD_FEATURE_WP_HUGETLBFS_SHMEM));
/* The requests a descriptor (UFFDIO_API) and a range (UFFDIO_REGISTER)
 * take, as bits 1 << _UFFDIO_*. */
XLAT_DEF(x_uffd_api_ioctls, 0, XN(1ULL << _UFFDIO_REGISTER, "1<<_UFFDIO_REGISTER"),
	 XN(1ULL << _UFFDIO_UNREGISTER, "1<<_UFFDIO_UNREGISTER"),
	 XN(1ULL << _UFFDIO_API, "1<<_UFFDIO_API"));
XLAT_DEF(x_uffd_range_ioctls, 0, XN(1ULL << _UFFDIO_WAKE, "1<<_UFFDIO_WAKE"),
	 XN(1ULL << _UFFDIO_COPY, "1<<_UFFDIO_COPY"),
	 XN(1ULL << _UFFDIO_ZEROPAGE, "1<<_UFFDIO_ZEROPAGE"),
	 XN(1ULL << _UFFDIO_WRITEPROTECT, "1<<_UFFDIO_WRITEPROTECT"),
	 XN(1ULL << _UFFDIO_CONTINUE, "1<<_UFFDIO_CONTINUE"));
XLAT_DEF(x_uffd_register_mode, 0, XE(UFFDIO_REGISTER_MODE_MISSING), XE(UFFDIO_REGISTER_MODE_WP),
	 XE(UFFDIO_REGISTER_MODE_MINOR));
XLAT_DEF(x_uffd_copy_mode, 0, XE(UFFDIO_COPY_MODE_DONTWAKE), XE(UFFDIO_COPY_MODE_WP));
XLAT_DEF(x_uffd_zeropage_mode, 0, XE(UFFDIO_ZEROPAGE_MODE_DONTWAKE));

static void pr_flags_field(struct st *s, const char *name, const struct xlat *x, uint64_t v,
			   const char *dflt)
{
	st_field(s, name);
	pr_flags(s, x, v, dflt);
}

static void pr_uffd_range(struct st *s, const struct uffdio_range *r)
{
	st_obj_begin(s);
	pr_hex_field(s, "start", r->start);
	pr_hex_field(s, "len", r->len);
	st_obj_end(s);
}

/*
 * UFFDIO_API: {api=0xaa, features=ASKED => features=GRANTED,
 * ioctls=1<<_UFFDIO_REGISTER|...}: the features the kernel wrote back
 * only when they differ (JSON: "features_out").
 */
static void pr_uffd_api(struct st *s, uint64_t a)
{
	struct uffdio_api in, out;

	if (!st_fetch(s, SONDE_PL_ENTRY, a, &in, sizeof(in)))
		return;
	st_obj_begin(s);
	pr_hex_field(s, "api", in.api);
	pr_flags_field(s, "features", &x_uffd_features, in.features, "UFFD_FEATURE_???");
	st_entry_end(s);
	if (st_ok(s) && st_peek(s, SONDE_PL_EXIT, a, &out, sizeof(out))) {
		if (out.features != in.features) {
			if (s->j)
				st_jkey(s, "features_out");
			else
				sb_puts(s->o, " => features=");
			pr_flags(s, &x_uffd_features, out.features, "UFFD_FEATURE_???");
		}
		pr_flags_field(s, "ioctls", &x_uffd_api_ioctls, out.ioctls, "_UFFDIO_???");
	}
	st_obj_end(s);
}

static void pr_uffd_register(struct st *s, uint64_t a)
{
	struct uffdio_register r;

	if (!st_fetch(s, SONDE_PL_ENTRY, a, &r, sizeof(r)))
		return;
	st_obj_begin(s);
	st_field(s, "range");
	pr_uffd_range(s, &r.range);
	pr_flags_field(s, "mode", &x_uffd_register_mode, r.mode, "UFFDIO_REGISTER_MODE_???");
	st_entry_end(s);
	if (st_ok(s) && st_peek(s, SONDE_PL_EXIT, a, &r, sizeof(r)))
		pr_flags_field(s, "ioctls", &x_uffd_range_ioctls, r.ioctls, "1<<_UFFDIO_???");
	st_obj_end(s);
}

static void pr_uffd_copy(struct st *s, uint64_t a)
{
	struct uffdio_copy c;

	if (!st_fetch(s, SONDE_PL_ENTRY, a, &c, sizeof(c)))
		return;
	st_obj_begin(s);
	pr_hex_field(s, "dst", c.dst);
	pr_hex_field(s, "src", c.src);
	pr_hex_field(s, "len", c.len);
	pr_flags_field(s, "mode", &x_uffd_copy_mode, c.mode, "UFFDIO_COPY_MODE_???");
	st_entry_end(s);
	if (st_ok(s) && st_peek(s, SONDE_PL_EXIT, a, &c, sizeof(c)))
		pr_hex_field(s, "copy", (uint64_t)c.copy);
	st_obj_end(s);
}

static void pr_uffd_zeropage(struct st *s, uint64_t a)
{
	struct uffdio_zeropage z;

	if (!st_fetch(s, SONDE_PL_ENTRY, a, &z, sizeof(z)))
		return;
	st_obj_begin(s);
	st_field(s, "range");
	pr_uffd_range(s, &z.range);
	pr_flags_field(s, "mode", &x_uffd_zeropage_mode, z.mode, "UFFDIO_ZEROPAGE_MODE_???");
	st_entry_end(s);
	if (st_ok(s) && st_peek(s, SONDE_PL_EXIT, a, &z, sizeof(z)))
		pr_hex_field(s, "zeropage", (uint64_t)z.zeropage);
	st_obj_end(s);
}

static int ioctl_uffd(struct st *s, uint32_t req, uint64_t a)
{
	struct uffdio_range r;

	switch (req) {
	case UFFDIO_API:
		st_sep(s);
		pr_uffd_api(s, a);
		return 1;
	case UFFDIO_REGISTER:
		st_sep(s);
		pr_uffd_register(s, a);
		return 1;
	case UFFDIO_COPY:
		st_sep(s);
		pr_uffd_copy(s, a);
		return 1;
	case UFFDIO_ZEROPAGE:
		st_sep(s);
		pr_uffd_zeropage(s, a);
		return 1;
	case UFFDIO_UNREGISTER:
	case UFFDIO_WAKE:
		st_sep(s);
		if (st_fetch(s, SONDE_PL_ENTRY, a, &r, sizeof(r)))
			pr_uffd_range(s, &r);
		return 1;
	}
	return 0;
}

XLAT_DEF(x_fs_xflags, 0, XE(FS_XFLAG_REALTIME), XE(FS_XFLAG_PREALLOC), XE(FS_XFLAG_IMMUTABLE),
	 XE(FS_XFLAG_APPEND), XE(FS_XFLAG_SYNC), XE(FS_XFLAG_NOATIME), XE(FS_XFLAG_NODUMP),
	 XE(FS_XFLAG_RTINHERIT), XE(FS_XFLAG_PROJINHERIT), XE(FS_XFLAG_NOSYMLINKS),
	 XE(FS_XFLAG_EXTSIZE), XE(FS_XFLAG_EXTSZINHERIT), XE(FS_XFLAG_NODEFRAG),
	 XE(FS_XFLAG_FILESTREAM), XE(FS_XFLAG_DAX), XE(FS_XFLAG_COWEXTSIZE), XE(FS_XFLAG_HASATTR));

/* struct fsxattr; fsx_nextents only in what the kernel reports */
static void pr_fsxattr(struct st *s, int phase, uint64_t a)
{
	struct fsxattr x;

	if (!st_fetch(s, phase, a, &x, sizeof(x)))
		return;
	st_obj_begin(s);
	pr_flags_field(s, "fsx_xflags", &x_fs_xflags, x.fsx_xflags, "FS_XFLAG_???");
	pr_ulong_field(s, "fsx_extsize", x.fsx_extsize);
	if (phase == SONDE_PL_EXIT)
		pr_ulong_field(s, "fsx_nextents", x.fsx_nextents);
	pr_hex_field(s, "fsx_projid", x.fsx_projid);
	pr_ulong_field(s, "fsx_cowextsize", x.fsx_cowextsize);
	st_obj_end(s);
}

static int ioctl_fs_x(struct st *s, uint32_t req, uint64_t a)
{
	struct fstrim_range r;

	switch (req) {
	case FIFREEZE:
	case FITHAW:
		return 1;
	case FITRIM:
		st_sep(s);
		if (!st_fetch(s, SONDE_PL_ENTRY, a, &r, sizeof(r)))
			return 1;
		st_obj_begin(s);
		pr_hex_field(s, "start", r.start);
		pr_ulong_field(s, "len", r.len);
		pr_ulong_field(s, "minlen", r.minlen);
		st_obj_end(s);
		return 1;
	case FS_IOC_FSGETXATTR:
		st_sep(s);
		st_entry_end(s);
		if (st_ok(s))
			pr_fsxattr(s, SONDE_PL_EXIT, a);
		else
			pr_addr(s, a);
		return 1;
	case FS_IOC_FSSETXATTR:
		st_sep(s);
		pr_fsxattr(s, SONDE_PL_ENTRY, a);
		return 1;
	}
	return 0;
}

int ioctl_misc(struct st *s, uint32_t req, uint64_t a)
{
	return ioctl_nsfs(s, req, a) || ioctl_random(s, req, a) || ioctl_uffd(s, req, a) ||
	       ioctl_fs_x(s, req, a);
}
