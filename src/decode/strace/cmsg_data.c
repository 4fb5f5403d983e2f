// SPDX-License-Identifier: GPL-2.0
/*
 * Data of the control messages that carry times and queued errors, as
 * strace prints them:
 *   cmsg_type=SO_TIMESTAMPNS_OLD, cmsg_data={tv_sec=1, tv_nsec=2}
 *   cmsg_type=SO_TIMESTAMPING_OLD, cmsg_data=[{...}, {...}, {...}]
 *   cmsg_type=IP_RECVERR, cmsg_data={ee_errno=111, ee_origin=2, ...,
 *     offender={sa_family=AF_INET, ...}}
 * strace shows a time whose data is not exactly one struct (or three,
 * for SO_TIMESTAMPING) as "???": the kernel writes whole structs, so a
 * cut one means the control buffer was too small (MSG_CTRUNC).
 * On x86_64 the old and new (64-bit time) forms have the same layout.
 */
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "decode/strace/strace_int.h"

static void pr_unavailable(struct st *s)
{
	pr_sym(s, "???");
}

void pr_cmsg_timeval(struct st *s, const uint8_t *d, size_t len)
{
	struct timeval tv;

	if (len != sizeof(tv)) {
		pr_unavailable(s);
		return;
	}
	memcpy(&tv, d, sizeof(tv));
	pr_tv_fields(s, &tv);
}

static void pr_ts_at(struct st *s, const uint8_t *d)
{
	struct timespec ts;

	memcpy(&ts, d, sizeof(ts));
	pr_ts_fields(s, ts.tv_sec, ts.tv_nsec);
}

void pr_cmsg_timespec(struct st *s, const uint8_t *d, size_t len)
{
	if (len != sizeof(struct timespec)) {
		pr_unavailable(s);
		return;
	}
	pr_ts_at(s, d);
}

/* struct scm_timestamping: software, legacy and hardware stamps. */
void pr_cmsg_timestamping(struct st *s, const uint8_t *d, size_t len)
{
	const size_t n = 3, sz = sizeof(struct timespec);

	if (len != n * sz) {
		pr_unavailable(s);
		return;
	}
	st_arr_begin(s);
	for (size_t i = 0; i < n; i++) {
		st_elem(s);
		pr_ts_at(s, d + i * sz);
	}
	st_arr_end(s);
}

/* struct sock_extended_err then the offender's struct sockaddr_in
 * (strace reads that much whatever the family). */
struct sock_ee {
	uint32_t ee_errno;
	uint8_t ee_origin, ee_type, ee_code, ee_pad;
	uint32_t ee_info, ee_data;
	uint8_t offender[16];
};

_Static_assert(sizeof(struct sock_ee) == CMSG_RECVERR_LEN, "sock_ee layout");

void pr_cmsg_recverr(struct st *s, const uint8_t *d, size_t len)
{
	struct sock_ee e;

	(void)len;
	memcpy(&e, d, sizeof(e));
	st_obj_begin(s);
	pr_u32_field(s, "ee_errno", e.ee_errno);
	pr_u32_field(s, "ee_origin", e.ee_origin);
	pr_u32_field(s, "ee_type", e.ee_type);
	pr_u32_field(s, "ee_code", e.ee_code);
	pr_u32_field(s, "ee_info", e.ee_info);
	pr_u32_field(s, "ee_data", e.ee_data);
	st_field(s, "offender");
	pr_sockaddr_bytes(s, e.offender, sizeof(e.offender));
	st_obj_end(s);
}
