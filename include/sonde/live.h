/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live sink (libsonde, src/record/rec_live.c): the records of a
 * recording handed to callbacks while it runs, in timestamp order, the way
 * `sonde strace` prints as the program runs.
 *
 *   per-CPU rings ─> consumer thread ─push─> bounded queue ─> printer thread
 *                    (never waits on the     (chunks of       reorder window,
 *                     printer)                copied records)  record(), flush()
 *
 * Ordering. Rings are per CPU and a syscall record is written at exit with
 * its entry time, so records reach user space out of order. The printer
 * holds them in a heap and releases, in timestamp order, those older than
 * the consumer's last complete drain of every ring minus window_ms. Any
 * call shorter than the window is therefore shown in entry order; a call
 * that blocked for longer (a read on an idle socket) is shown when it
 * returns, after lines of calls that entered later, where strace would
 * have printed its "<unfinished ...>" half before them. horizon tells the
 * sink how far the stream is complete, for what it holds back (strace
 * renderer: a line waits until its call's exit is past the horizon, to
 * know whether another line cuts it).
 *
 * Payload records travel with their call: a payload is only released with
 * the syscall record of the same tid and entry time, however long the call
 * blocks, so decoders see exactly what they see reading a trace file.
 *
 * Back-pressure. The consumer never waits: when the records held (queued
 * and in the window) reach max_bytes, new records are not shown until the
 * holding has drained to half, and one SONDE_REC_LOST record of kind
 * SONDE_LOST_LIVE with the count of records not shown is delivered where
 * the gap is. The traced program is never slowed down (strace, by
 * contrast, stops the program until its line is written); a trace file
 * written at the same time still holds every record.
 */
#ifndef SONDE_LIVE_H
#define SONDE_LIVE_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include <sonde/events.h>

#define SONDE_LIVE_DEFAULT_BYTES (256u << 20)
#define SONDE_LIVE_DEFAULT_WINDOW_MS 100

struct sonde_live_stats {
	uint64_t delivered;  /* records handed to record() */
	uint64_t hidden;     /* records not shown: the callbacks could not keep up */
	uint64_t late;	     /* delivered after a record with a later timestamp */
	uint64_t orphans;    /* payload records whose call never came (lost) */
	uint64_t peak_bytes; /* most record bytes held at once */
};

struct sonde_live_sink {
	/* On the printer thread. Nonzero return: the output failed; nothing
	 * more is delivered and recording stops (sum->stop_signal SIGPIPE). */
	int (*record)(void *ctx, const struct sonde_hdr *h);
	/* After each batch of record() calls, and when horizon moves: write
	 * out what is buffered. */
	int (*flush)(void *ctx);
	/* Set before each flush(): every record with an earlier timestamp has
	 * been delivered, except late ones (stats.late); UINT64_MAX at the
	 * end. */
	uint64_t horizon;
	void *ctx;
	size_t max_bytes;	/* 0 = SONDE_LIVE_DEFAULT_BYTES */
	unsigned int window_ms; /* 0 = SONDE_LIVE_DEFAULT_WINDOW_MS */
	/* Set when recording ends. */
	struct sonde_live_stats stats;
	int error; /* first nonzero return of record() or flush() */
};

#endif /* SONDE_LIVE_H */
