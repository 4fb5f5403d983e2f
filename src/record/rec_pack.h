/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The consumer's side of packed syscall records (include/sonde/
 * ring_pack.h): a batch's packed records become whole struct
 * sonde_ev_syscall records again, in the order the batch holds them.
 */
#ifndef SONDE_REC_PACK_H
#define SONDE_REC_PACK_H

#include <stddef.h>
#include <linux/types.h>
#include <sonde/ring_pack.h>

/*
 * Unpacks the packed record at p (avail bytes left in the batch) of the
 * ring of CPU cpu into r, against prev (zeroed at the start of each
 * batch), which it updates. Returns 0, or -EINVAL when the record's size
 * does not match what it announces or overruns the batch.
 */
int rec_unpack_sc(struct sonde_pack_prev *prev, const struct sonde_ring_sc *p, size_t avail,
		  __u16 cpu, struct sonde_ev_syscall *r);

#endif /* SONDE_REC_PACK_H */
