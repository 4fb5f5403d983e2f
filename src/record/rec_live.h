/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live sink inside the recorder (include/sonde/live.h). Every function
 * takes a NULL sink and then does nothing, so the recorder's hooks are one
 * line each.
 *
 * Threads: rec_live_push() and rec_live_progress() run on whichever thread
 * produces records — the consumer thread while it runs, the main thread
 * before it starts and after it stops — never two at once.
 */
#ifndef SONDE_REC_LIVE_H
#define SONDE_REC_LIVE_H

#include <stddef.h>
#include <stdint.h>
#include <sonde/live.h>

struct rec_live;

/* Starts the printer thread; *l stays NULL when sink is NULL. */
int rec_live_start(struct rec_live **l, struct sonde_live_sink *sink, char *err, size_t errlen);
/* Copies a record into the queue (or counts it as not shown). */
void rec_live_push(struct rec_live *l, const struct sonde_hdr *h);
/* Every record produced before mark (CLOCK_MONOTONIC ns) has been pushed:
 * publishes the queue to the printer. */
void rec_live_progress(struct rec_live *l, uint64_t mark);
/* 1 once the sink's callbacks failed (the recorder then stops). */
int rec_live_failed(const struct rec_live *l);
/* Delivers everything pushed, in order, joins the printer thread and
 * fills the sink's stats. */
void rec_live_stop(struct rec_live *l);
void rec_live_free(struct rec_live *l);

#endif /* SONDE_REC_LIVE_H */
