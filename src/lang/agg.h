/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Aggregating functions. Storage is one map per aggregation: PERCPU_HASH
 * keyed by the tuple, or PERCPU_ARRAY with one slot when there is no key
 * (no bucket lock on the hot path). Each CPU updates its own copy without
 * atomics; user space merges the copies (merge) when printing.
 *
 * Value layouts (u64 words):
 *   count      [n]
 *   sum        [sum]
 *   avg        [n, sum]
 *   min/max    [n, value]             n == 0: no value yet
 *   stddev     [n, sum, sumsq_lo, sumsq_hi]  128-bit sum of squares
 *   quantize   [127 buckets]          bucket 63 counts 0; 64+k counts
 *                                     [2^k, 2^(k+1)); 62-k the negatives
 *   lquantize  [nbuckets]             < lo, then one per step, then >= hi
 *   llquantize [nbuckets]             < factor^lo, steps per magnitude...
 */
#ifndef SONDE_LANG_AGG_H
#define SONDE_LANG_AGG_H

#include "lang/cg.h"

#define QUANT_NBUCKETS 127
#define QUANT_ZERO 63

struct aggfn {
	const char *name;
	int words; /* value size in u64, 0: computed by check */
	int hist;  /* prints as a histogram */
	void (*emit)(struct cg *cg, struct agg *a, int vval, int varg);
	void (*merge)(const struct agg *a, uint64_t *dst, const uint64_t *src);
	/* The number DTrace sorts and prints for this value. */
	int64_t (*value)(const struct agg *a, const uint64_t *v);
};

const char *func_agg_name(const struct aggfn *fn);
/* Lower bound of bucket i of a histogram aggregation. */
int64_t agg_bucket_lo(const struct agg *a, int i);

/* cg for `@name[keys] = fn(args)` (agg.c). */
void agg_emit_assign(struct cg *cg, struct node *n);
/* Sizes the aggregation maps once the program is analysed. */
int aggs_layout(struct lcc *cc);

#endif
