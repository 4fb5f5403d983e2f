// SPDX-License-Identifier: GPL-2.0
/*
 * Packed syscall records back into whole ones (rec_pack.h). The ring's
 * bytes come from our own BPF programs, but a record that does not add up
 * is refused rather than trusted: a bug in bpf/ must show as a count of
 * bad records, never as wrong arguments in a trace.
 */
#include <errno.h>
#include <string.h>

#include "record/rec_pack.h"

static size_t pack_size(__u8 have)
{
	return sizeof(struct sonde_ring_sc) +
	       8 * ((have & SONDE_PK_WIDE ? 3 : 0) + (have & SONDE_PK_TASK ? 1 : 0) +
		    (size_t)__builtin_popcount(have & SONDE_PK_ARGS));
}

int rec_unpack_sc(struct sonde_pack_prev *prev, const struct sonde_ring_sc *p, size_t avail,
		  __u16 cpu, struct sonde_ev_syscall *r)
{
	const __u64 *w = p->more;
	__u64 end, dur;
	__s64 ret;

	if (avail < sizeof(*p) || p->size != pack_size(p->have) || p->size > avail)
		return -EINVAL;
	if (p->have & SONDE_PK_WIDE) {
		end = w[0];
		dur = w[1];
		ret = (__s64)w[2];
		w += 3;
	} else {
		end = prev->end + (__u64)(__s64)p->end;
		dur = p->dur;
		ret = p->ret;
	}
	prev->end = end;
	if (p->have & SONDE_PK_TASK) {
		prev->pid = (__u32)*w;
		prev->tid = (__u32)(*w >> 32);
		w++;
	}
	for (int i = 0; i < 6; i++)
		if (p->have & (1 << i))
			prev->args[i] = *w++;
	memset(r, 0, sizeof(*r));
	r->hdr.ts = end - dur;
	r->hdr.pid = prev->pid;
	r->hdr.tid = prev->tid;
	r->hdr.type = SONDE_REC_SYSCALL;
	r->hdr.size = sizeof(*r);
	r->hdr.cpu = cpu;
	r->hdr.flags = p->flags;
	r->ret = ret;
	r->dur = dur;
	memcpy(r->args, prev->args, sizeof(r->args));
	r->nr = p->nr;
	return 0;
}
