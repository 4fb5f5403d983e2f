/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The user-space runtime: consumes the per-CPU output rings, renders
 * records in order (printf, trace, printa, stacks), applies aggregation
 * actions (clear, trunc, normalize), holds speculative records until
 * commit/discard, reports drops as they happen and at exit, and prints
 * the aggregations when tracing ends.
 */
#ifndef SONDE_LANG_RT_H
#define SONDE_LANG_RT_H

#include <stdint.h>
#include <stdio.h>

#include "lang/compile.h"

struct spec_buf;

/* One aggregation entry being printed. */
struct agg_entry {
	const unsigned char *key;
	uint64_t *val;
	int64_t sortv;
};

struct rt {
	struct lcc *cc;
	FILE *out;
	int json;
	int quiet;
	int header;    /* the CPU/ID/FUNCTION:NAME heading was printed */
	int line_open; /* a probe line awaits its newline */
	int done;
	int exit_code;
	int ncpus; /* possible CPUs: per-CPU map values */
	int *ring_fds;
	uint64_t drops[8]; /* already reported */
	uint64_t spec_drops;
	struct spec_buf *spec; /* held records, one list per speculation id */
	/* offline mode: aggregation storage without the kernel (offline.c) */
	int (*agg_read)(struct rt *rt, struct agg *a, unsigned char **keys, uint64_t **vals,
			int *n);
	void (*agg_clear)(struct rt *rt, struct agg *a, int drop_keys, long keep);
	void *priv;
};

void rt_ring_fd(struct lcc *cc, int cpu, int fd);
/* Aggregations live in kernel maps (the live mode). */
void rt_init_kernel(struct rt *rt);
/* Handles one output record (size bytes). */
int rt_record(struct rt *rt, const void *data, size_t size);
/* Prints every aggregation, as at exit. */
void rt_print_aggs(struct rt *rt);
void rt_print_agg(struct rt *rt, struct agg *a, const char *fmt);
/* Reports new drops to stderr (and JSON); returns the total. */
uint64_t rt_drops(struct rt *rt);
/* Ends an open probe line (before aggregations, at exit). */
void rt_line_end(struct rt *rt);
int rt_trunc_first(long keep, int64_t x, int64_t y);
void rt_free(struct rt *rt);

/* output.c: rendering */
void out_printf(struct rt *rt, const struct action *a, const unsigned char *rec);
void out_value(struct rt *rt, FILE *f, const struct type *t, const unsigned char *p);
void out_stack(struct rt *rt, FILE *f, const struct type *t, const unsigned char *p, int indent);
void out_json_str(FILE *f, const char *s, size_t max);
void out_agg(struct rt *rt, struct agg *a, const char *fmt, struct agg_entry *e, int n);
/* Snapshots /proc/PID/maps for user stack symbolisation. */
void rt_snapshot_maps(uint32_t pid);

#endif
