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
/* Where grouped records go: each syscall with its payloads to call, every
 * other record except payloads to record, in the reader's order. */
struct feed_sink {
	int (*call)(void *ctx, const struct sonde_call *c);
	int (*record)(void *ctx, const struct sonde_hdr *rec);
	void *ctx;
};

int feed_record(struct feed *f, const struct feed_sink *k, const struct sonde_hdr *rec);
int feed_flush(struct feed *f, const struct feed_sink *k);

#endif
