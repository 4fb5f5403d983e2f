// SPDX-License-Identifier: GPL-2.0
/*
 * Small ioctl families strace decodes: nsfs's (a namespace's owner,
 * parent, type and owning uid) and the random device's (the entropy
 * count, entropy added with its bytes, the requests without argument).
 */
#include <linux/nsfs.h>
#include <linux/random.h>
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
		st_entry_end(s);
		if (st_ok(s))
			ps_int(s, SONDE_PL_EXIT, a);
		else
			pr_addr(s, a);
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

int ioctl_misc(struct st *s, uint32_t req, uint64_t a)
{
	return ioctl_nsfs(s, req, a) || ioctl_random(s, req, a);
}
