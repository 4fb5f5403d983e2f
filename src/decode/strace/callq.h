/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Calls whose line strace would have split: the entering half is printed,
 * the returning half waits here, by exit time, for its place in the
 * output ("<... read resumed>...", render.c).
 */
#ifndef SONDE_STRACE_CALLQ_H
#define SONDE_STRACE_CALLQ_H

#include <stddef.h>
#include <stdint.h>

struct callq_ent {
	uint64_t end; /* exit time: entry time + duration */
	uint64_t seq; /* tie-break: order of entry */
	uint32_t tid;
	uint32_t nr;
	uint64_t ip; /* -i: the call's (strace_pr_lead) */
	char *rest; /* the returning half of the arguments, "\"data\", 4)" */
	char *ret;  /* the return value's text, "4" */
	char *dump; /* -e read=/write= hexdump lines, or NULL */
};

/* A binary min-heap by (end, seq). */
struct callq {
	struct callq_ent *v;
	size_t n, cap;
	uint64_t seq;
};

/* Takes ownership of e's strings; frees them on failure (-ENOMEM). */
int callq_push(struct callq *q, struct callq_ent *e);
/* The earliest exit, or NULL when empty. */
const struct callq_ent *callq_top(const struct callq *q);
/* Removes the earliest into *e (the caller frees it with callq_ent_free). */
void callq_pop(struct callq *q, struct callq_ent *e);
/* Removes tid's entry into *e, whatever its exit time; 0 when it has none. */
int callq_take_tid(struct callq *q, uint32_t tid, struct callq_ent *e);
/* Has tid a returning half waiting? */
int callq_has_tid(const struct callq *q, uint32_t tid);
void callq_ent_free(struct callq_ent *e);
void callq_free(struct callq *q);

#endif
