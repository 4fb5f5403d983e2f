/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live sink's reordering (rec_live_order.c): a heap of record copies
 * by (timestamp, arrival), and per thread the payload records still
 * waiting for their syscall record. Single-threaded (the printer thread);
 * no dependency on the recorder, so unit tests drive it directly.
 */
#ifndef SONDE_REC_LIVE_ORDER_H
#define SONDE_REC_LIVE_ORDER_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include <sonde/events.h>

struct lrec;
struct hent;
struct tid_ent;

struct live_order {
	struct hent *heap; /* binary min-heap by (ts, seq) */
	size_t n, cap;
	struct lrec **grp; /* the records of one timestamp being released */
	size_t ngrp, gcap;
	struct tid_ent *tids; /* open addressing, linear probing; tid 0 = free */
	size_t ntids, tcap;   /* tcap: a power of 2 */
	uint64_t seq;	      /* arrival order, the heap's tie-break */
	uint64_t last_ts;     /* latest timestamp released */
	uint64_t delivered, late, orphans, hidden;
	void (*deliver)(void *arg, const struct sonde_hdr *h);
	void (*freed)(void *arg, size_t bytes); /* a record's bytes are released */
	void *arg;
};

void order_init(struct live_order *o, void (*deliver)(void *, const struct sonde_hdr *),
		void (*freed)(void *, size_t), void *arg);
/* Takes a copy of h. Returns 0 or -ENOMEM (h is then not held). */
int order_add(struct live_order *o, const struct sonde_hdr *h);
/* Delivers, in (timestamp, arrival) order, every held record older than
 * limit; returns how many. */
size_t order_release(struct live_order *o, uint64_t limit);
/* Frees the payloads whose call never came, counting them as orphans. */
void order_drop_pending(struct live_order *o);
void order_free(struct live_order *o);

#endif /* SONDE_REC_LIVE_ORDER_H */
