// SPDX-License-Identifier: GPL-2.0
/*
 * The renderer's pace: records go into the feed (feed.c), which hands
 * whole calls and the other records on in time order; lines leave as the
 * feed's horizon advances, and the output is flushed then.
 */
#include <errno.h>
#include <stdint.h>

#include "decode/strace/render_int.h"
#include "decode/strace/ffout.h"

/* Every output of st written out: 0 or -EIO. */
static int strace_out_flush(struct sonde_strace *st)
{
	if (st->out && fflush(st->out))
		return -EIO;
	return st->ff ? ffout_flush(st->ff) : 0;
}

static int sink_call(void *ctx, const struct sonde_call *c)
{
	return sonde_strace_call(ctx, c);
}

static int sink_record(void *ctx, const struct sonde_hdr *rec)
{
	return sonde_strace_record(ctx, rec);
}

static int sink_signal(void *ctx, const struct sonde_hdr *rec, const struct sonde_payload *pl,
		       unsigned int npl)
{
	return strace_record(ctx, rec, pl, npl);
}

int sonde_strace_feed(struct sonde_strace *st, const struct sonde_hdr *rec)
{
	struct feed_sink k = { sink_call, sink_record, sink_signal, st };

	return feed_record(&st->feed, &k, rec);
}

int sonde_strace_advance(struct sonde_strace *st, uint64_t t)
{
	struct feed_sink k = { sink_call, sink_record, sink_signal, st };
	int e = feed_advance(&st->feed, &k, t);

	/* Lines after a call the feed still holds wait for it. */
	if (!e)
		e = split_release(st, feed_horizon(&st->feed, t));
	return e ? e : strace_out_flush(st);
}

int sonde_strace_flush(struct sonde_strace *st)
{
	int e = sonde_strace_advance(st, UINT64_MAX);

	/* Groups whose last exit the trace does not hold (lost, or still
	 * running when recording stopped). */
	if (!e && st->out && st->nleaders) {
		e = strace_leaders_release(st, 0, UINT64_MAX, 0);
		if (!e)
			e = strace_out_flush(st);
	}
	return e;
}
