/* SPDX-License-Identifier: GPL-2.0 */
/* Grouping a call's records (syscall + payload chunks) for the renderer. */
#ifndef SONDE_STRACE_FEED_H
#define SONDE_STRACE_FEED_H

#include <stddef.h>
#include <stdint.h>
#include <sonde/strace.h>

/* Exec records kept for the execve calls that wait for theirs. */
#define FEED_EXECS 8
/* Most record bytes held behind a call waiting for its exec record. */
#define FEED_HOLD_MAX_BYTES (64u << 20)

struct feed {
	void **recs; /* copies of the records of the current timestamp */
	size_t nrec, cap;
	uint64_t ts;
	/*
	 * A group with a successful execve waits for the exec record the
	 * call produced (execargv.h), which comes after it in time order,
	 * before its exit: records after the group queue in later until the
	 * record came or time passed the call's exit.
	 */
	void **held; /* the group, NULL when none waits */
	size_t nheld;
	uint64_t from, until; /* the group's timestamp; latest exit of its execs */
	void **later;
	size_t nlater, caplater, later_bytes;
	/* The latest exec records, for a call delivered after its exec
	 * record (the live sink's late records), ring of copies. */
	void *execs[FEED_EXECS];
	unsigned int nexec;
	/* Each thread's last call: tid << 32 | 1 + nr, open addressing. */
	uint64_t *last;
	size_t nlast, caplast;
};

void feed_init(struct feed *f);
void feed_free(struct feed *f);
/* Where grouped records go: each syscall with its payloads to call, every
 * other record except payloads to record, in the reader's order. */
struct feed_sink {
	int (*call)(void *ctx, const struct sonde_call *c);
	int (*record)(void *ctx, const struct sonde_hdr *rec);
	/* A delivered signal and the payloads of its time and thread (the
	 * stack it interrupted, record --user-stack); NULL: record. */
	int (*signal)(void *ctx, const struct sonde_hdr *rec, const struct sonde_payload *pl,
		      unsigned int npl);
	void *ctx;
};

int feed_record(struct feed *f, const struct feed_sink *k, const struct sonde_hdr *rec);
/* No record before t will come (UINT64_MAX: none at all): renders what
 * that settles. */
int feed_advance(struct feed *f, const struct feed_sink *k, uint64_t t);
int feed_flush(struct feed *f, const struct feed_sink *k);
/* t, or earlier when a held group has not reached the sink yet: how far
 * the sink's output is complete. */
uint64_t feed_horizon(const struct feed *f, uint64_t t);

#endif
