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
	}
	return 0;
}

#endif /* SONDE_BPF_IOCTL_H */
