/* SPDX-License-Identifier: GPL-2.0 */
/* Grouping a call's records (syscall + payload chunks) for the renderer. */
#ifndef SONDE_STRACE_FEED_H
#define SONDE_STRACE_FEED_H

#include <stddef.h>
#include <stdint.h>
#include <sonde/strace.h>

struct feed {
	void **recs; /* copies of the records of the current timestamp */
	size_t nrec, cap;
	uint64_t ts;
};

void feed_init(struct feed *f);
void feed_free(struct feed *f);
int feed_record(struct feed *f, struct sonde_strace *st, const struct sonde_hdr *rec);
int feed_flush(struct feed *f, struct sonde_strace *st);

#endif
