/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ioctl requests whose memory depends on the request (payload.h,
 * SONDE_CAP_IOCTL): the one capture item of ioctl's plan for them,
 * dispatched here by the request's type (_IOC_TYPE, bits 8-15), which
 * returns at once for any other type:
 *
 *   KVMIO (0xae)  bpf/kvm.h
 *   0x89          the socket requests of <linux/sockios.h>: a struct
 *                 ifreq (40 bytes: the plan's first item reads 36, and
 *                 ifr_map ends at 40) in both directions for the
 *                 interface requests 0x8910..0x897f; SIOCGIFCONF's list
 *                 of them at exit, ifc_len bytes at ifc_buf (the struct
 *                 ifconf itself, 16 bytes, is in the first item's 36)
 *   '$' (0x24)    a perf event's: PERF_EVENT_IOC_SET_FILTER's string,
 *                 MODIFY_ATTRIBUTES' struct perf_event_attr (128 bytes,
 *                 as perf_event_open's plan), QUERY_BPF's ids at exit
 *   'R' (0x52)    the random device's RNDADDENTROPY: struct
 *                 rand_pool_info and its buf_size bytes
 *   0xaa          userfaultfd's: the structs by the size and direction
 *                 their request names, as KVM's (struct uffdio_copy is
 *                 40 bytes)
 *
 * An exit read of a failed call is skipped, as for every item: the
 * kernel wrote nothing.
 */
#ifndef SONDE_BPF_IOCTL_H
#define SONDE_BPF_IOCTL_H

#define IOC_SMALL 36 /* capture_plan.c: every ioctl's first item */

#include "kvm.h"

#define SOCKIOS_TYPE 0x89
#define SIOCGIFCONF_ 0x8912
#define SIOC_IFREQ_FIRST 0x8910 /* SIOCGIFNAME */
#define SIOC_IFREQ_END 0x8980
#define IFREQ_SIZE 40

static __always_inline void cap_sockios(struct cap_call *c, __u32 arg, __u32 req, __u64 addr)
{
	__u64 len, buf;

	if (req == SIOCGIFCONF_) {
		if (!c->phase || !addr)
			return;
		/* struct ifconf: int ifc_len, 4 bytes of padding, ifc_buf */
		len = cap_u64(addr) & 0x7fffffff;
		buf = cap_u64(addr + 8);
		cap_len(c, arg, buf, len, len, len);
		return;
	}
	if (req >= SIOC_IFREQ_FIRST && req < SIOC_IFREQ_END)
		cap_len(c, arg, addr, IFREQ_SIZE, IFREQ_SIZE, IFREQ_SIZE);
}

#define PERF_TYPE_ 0x24
#define PERF_SET_FILTER_ 0x40082406
#define PERF_QUERY_BPF_ 0xc008240a
#define PERF_MODIFY_ATTRIBUTES_ 0x4008240b
#define PERF_ATTR_READ 128
#define PERF_QUERY_IDS_MAX 256

static __always_inline void cap_perf(struct cap_call *c, __u32 arg, __u32 req, __u64 addr)
{
	__u64 n;

	switch (req) {
	case PERF_SET_FILTER_:
		if (!c->phase)
			cap_str(c, arg, addr);
		return;
	case PERF_MODIFY_ATTRIBUTES_:
		if (!c->phase)
			cap_len(c, arg, addr, PERF_ATTR_READ, PERF_ATTR_READ, PERF_ATTR_READ);
		return;
	case PERF_QUERY_BPF_:
		/* struct perf_event_query_bpf: u32 ids_len, prog_cnt, ids[] */
		if (!c->phase || !addr)
			return;
		n = cap_u64(addr) & 0xffffffff;
		if (n > PERF_QUERY_IDS_MAX)
			n = PERF_QUERY_IDS_MAX;
		cap_len(c, arg, addr, 8 + 4 * n, 8 + 4 * n, 8 + 4 * n);
		return;
	}
}

#define RANDOM_TYPE 0x52
#define UFFDIO_TYPE 0xaa
#define RNDADDENTROPY_ 0x40085203

static __always_inline void cap_random(struct cap_call *c, __u32 arg, __u32 req, __u64 addr)
{
	__u64 n;

	if (req != RNDADDENTROPY_ || c->phase || !addr)
		return;
	/* int entropy_count, int buf_size, then the bytes */
	n = (cap_u64(addr) >> 32) & 0x7fffffff;
	cap_len(c, arg, addr, 8 + n, 8 + n, 8 + n);
}

__noinline int cap_ioctl(struct cap_call *c, __u32 arg)
{
	__u32 req;
	__u64 addr;

	if (!c || arg >= 6)
		return 0;
	req = (__u32)cap_arg(c, 1);
	if (c->phase && c->ret < 0)
		return 0;
	addr = cap_arg(c, arg);
	switch ((req >> 8) & 0xff) {
	case SONDE_KVMIO:
		cap_kvm(c, arg, req, addr);
		break;
	case SOCKIOS_TYPE:
		cap_sockios(c, arg, req, addr);
		break;
	case PERF_TYPE_:
		cap_perf(c, arg, req, addr);
		break;
	case RANDOM_TYPE:
		cap_random(c, arg, req, addr);
		break;
	case UFFDIO_TYPE:
		cap_ioc_size(c, arg, req, addr);
		break;
	}
	return 0;
}

#endif /* SONDE_BPF_IOCTL_H */
