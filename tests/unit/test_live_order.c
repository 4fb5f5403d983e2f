// SPDX-License-Identifier: GPL-2.0
/*
 * The live sink's reordering (src/record/rec_live_order.c) and queue
 * (src/record/rec_live.c): time order across arrivals, payloads delivered
 * next to their syscall record whatever the arrival order and delay,
 * orphans, byte accounting, and the shedding marker when the bound is hit.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "record/rec_live.h"
#include "record/rec_live_order.h"
#include <sonde/payload.h>

#define MAXOUT 4096

struct out {
	struct {
		uint16_t type;
		uint32_t tid;
		uint64_t ts;
	} r[MAXOUT];
	size_t n;
	int64_t bytes; /* added - freed */
};

static void deliver(void *arg, const struct sonde_hdr *h)
{
	struct out *o = arg;

	if (o->n < MAXOUT) {
		o->r[o->n].type = h->type;
		o->r[o->n].tid = h->tid;
		o->r[o->n].ts = h->ts;
	}
	o->n++;
}

static void freed(void *arg, size_t bytes)
{
	((struct out *)arg)->bytes -= (int64_t)bytes;
}

static void add(struct live_order *lo, struct out *o, uint16_t type, uint32_t tid, uint64_t ts)
{
	union {
		struct sonde_ev_syscall sc;
		struct sonde_ev_payload pl;
		struct sonde_ev_exit ex;
	} u;

	memset(&u, 0, sizeof(u));
	u.sc.hdr.type = type;
	u.sc.hdr.tid = tid;
	u.sc.hdr.pid = tid;
	u.sc.hdr.ts = ts;
	u.sc.hdr.size = type == SONDE_REC_SYSCALL   ? sizeof(u.sc)
			: type == SONDE_REC_PAYLOAD ? sizeof(u.pl)
						    : sizeof(u.ex);
	o->bytes += u.sc.hdr.size;
	CHECK_EQ_INT(order_add(lo, &u.sc.hdr), 0);
}

#define SC SONDE_REC_SYSCALL
#define PL SONDE_REC_PAYLOAD
#define EX SONDE_REC_EXIT

TEST(time_order_across_releases)
{
	static struct out o;
	struct live_order lo;

	memset(&o, 0, sizeof(o));
	order_init(&lo, deliver, freed, &o);
	add(&lo, &o, SC, 1, 30);
	add(&lo, &o, SC, 2, 10);
	add(&lo, &o, SC, 1, 20);
	CHECK_EQ_INT(order_release(&lo, 25), 2);
	CHECK_EQ_INT(o.r[0].ts, 10);
	CHECK_EQ_INT(o.r[1].ts, 20);
	add(&lo, &o, SC, 2, 40);
	CHECK_EQ_INT(order_release(&lo, UINT64_MAX), 2);
	CHECK_EQ_INT(o.r[2].ts, 30);
	CHECK_EQ_INT(o.r[3].ts, 40);
	CHECK_EQ_INT(lo.late, 0);
	CHECK_EQ_INT(o.bytes, 0);
	order_free(&lo);
}

/* The execve case: the entry CPU's ring is drained after the exit CPU's,
 * which already holds the calls that followed. */
TEST(payload_after_later_calls_of_its_thread)
{
	static struct out o;
	struct live_order lo;

	memset(&o, 0, sizeof(o));
	order_init(&lo, deliver, freed, &o);
	add(&lo, &o, SC, 7, 5);
	add(&lo, &o, SC, 7, 7);
	add(&lo, &o, SC, 7, 9);
	add(&lo, &o, PL, 7, 5);
	add(&lo, &o, PL, 7, 5);
	CHECK_EQ_INT(order_release(&lo, UINT64_MAX), 5);
	CHECK_EQ_INT(o.r[0].ts, 5);
	CHECK_EQ_INT(o.r[1].ts, 5);
	CHECK_EQ_INT(o.r[2].ts, 5);
	CHECK_EQ_INT(o.r[3].ts, 7);
	CHECK_EQ_INT(lo.orphans, 0);
	CHECK_EQ_INT(o.bytes, 0);
	order_free(&lo);
}

/* A call blocking longer than the window: its entry payload waits, the
 * record of the call takes it along when it returns. */
TEST(blocking_call_keeps_its_payload)
{
	static struct out o;
	struct live_order lo;

	memset(&o, 0, sizeof(o));
	order_init(&lo, deliver, freed, &o);
	add(&lo, &o, PL, 3, 5);
	add(&lo, &o, SC, 4, 50);
	CHECK_EQ_INT(order_release(&lo, 100), 1);
	CHECK_EQ_INT(o.r[0].tid, 4);
	CHECK_EQ_INT(lo.ntids, 1);
	add(&lo, &o, SC, 3, 5); /* returns much later */
	CHECK_EQ_INT(order_release(&lo, 200), 2);
	CHECK_EQ_INT(o.r[1].type, PL);
	CHECK_EQ_INT(o.r[2].type, SC);
	CHECK_EQ_INT(o.r[2].ts, 5);
	CHECK_EQ_INT(lo.late, 2);
	CHECK_EQ_INT(lo.ntids, 0);
	CHECK_EQ_INT(o.bytes, 0);
	order_free(&lo);
}

TEST(orphans_after_later_call_or_exit)
{
	static struct out o;
	struct live_order lo;

	memset(&o, 0, sizeof(o));
	order_init(&lo, deliver, freed, &o);
	add(&lo, &o, PL, 1, 5); /* its call was lost */
	add(&lo, &o, SC, 1, 20);
	add(&lo, &o, PL, 2, 6);
	add(&lo, &o, EX, 2, 30);
	add(&lo, &o, PL, 3, 7); /* still pending at the end */
	CHECK_EQ_INT(order_release(&lo, UINT64_MAX), 2);
	CHECK_EQ_INT(lo.orphans, 2);
	order_drop_pending(&lo);
	CHECK_EQ_INT(lo.orphans, 3);
	CHECK_EQ_INT(o.bytes, 0);
	order_free(&lo);
}

/* Thousands of threads waiting at once: the table grows, entries are
 * deleted as their calls arrive, in any order. */
TEST(many_threads)
{
	static struct out o;
	struct live_order lo;
	size_t pl = 0;

	memset(&o, 0, sizeof(o));
	order_init(&lo, deliver, freed, &o);
	for (uint32_t t = 1; t <= 1000; t++)
		add(&lo, &o, PL, t, t);
	CHECK_EQ_INT(order_release(&lo, 2000), 0);
	CHECK_EQ_INT(lo.ntids, 1000);
	for (uint32_t k = 0; k < 1000; k++) {
		uint32_t t = (k * 7919) % 1000 + 1;

		add(&lo, &o, SC, t, t);
	}
	CHECK_EQ_INT(order_release(&lo, UINT64_MAX), 2000);
	CHECK_EQ_INT(lo.ntids, 0);
	CHECK_EQ_INT(lo.orphans, 0);
	for (size_t i = 0; i + 1 < 2000; i += 2) {
		CHECK_EQ_INT(o.r[i].type, PL);
		CHECK_EQ_INT(o.r[i + 1].type, SC);
		CHECK_EQ_INT(o.r[i].tid, o.r[i + 1].tid);
		pl++;
	}
	CHECK_EQ_INT(pl, 1000);
	CHECK_EQ_INT(o.bytes, 0);
	order_free(&lo);
}

/* --- the queue ---------------------------------------------------------- */

struct sink_out {
	uint64_t n, lost_count;
	int lost_kind, flushes;
};

static int sink_record(void *ctx, const struct sonde_hdr *h)
{
	struct sink_out *s = ctx;

	s->n++;
	if (h->type == SONDE_REC_LOST) {
		const struct sonde_ev_lost *l = (const void *)h;

		s->lost_count += l->count;
		s->lost_kind = l->kind;
	}
	return 0;
}

static int sink_flush(void *ctx)
{
	((struct sink_out *)ctx)->flushes++;
	return 0;
}

static void push_calls(struct rec_live *l, unsigned int n, uint64_t ts0)
{
	struct sonde_ev_syscall sc;

	memset(&sc, 0, sizeof(sc));
	sc.hdr.type = SONDE_REC_SYSCALL;
	sc.hdr.size = sizeof(sc);
	sc.hdr.tid = sc.hdr.pid = 1;
	for (unsigned int i = 0; i < n; i++) {
		sc.hdr.ts = ts0 + i;
		rec_live_push(l, &sc.hdr);
	}
}

/* 64 KiB hold 682 records of 96 bytes: the rest are counted, and one LOST
 * record of kind LIVE says how many where the gap began. */
TEST(queue_bound_sheds_and_marks)
{
	struct sink_out so = { 0 };
	struct sonde_live_sink sink = {
		.record = sink_record,
		.flush = sink_flush,
		.ctx = &so,
		.max_bytes = 65536,
	};
	struct rec_live *l;
	char err[128];

	CHECK_EQ_INT(rec_live_start(&l, &sink, err, sizeof(err)), 0);
	CHECK(l != NULL);
	if (!l)
		return;
	push_calls(l, 2000, 1000);
	rec_live_stop(l);
	CHECK_EQ_INT(sink.stats.hidden, 2000 - 65536 / 96);
	CHECK_EQ_INT(sink.stats.delivered, 65536 / 96 + 1);
	CHECK_EQ_INT(so.lost_count, 2000 - 65536 / 96);
	CHECK_EQ_INT(so.lost_kind, SONDE_LOST_LIVE);
	CHECK_EQ_INT(sink.stats.peak_bytes, 65536 / 96 * 96 + sizeof(struct sonde_ev_lost));
	CHECK(so.flushes >= 1);
	rec_live_free(l);
}

/* A record callback that fails stops delivery and reports it. */
static int sink_fail(void *ctx, const struct sonde_hdr *h)
{
	(void)h;
	return ++((struct sink_out *)ctx)->n == 3 ? -EPIPE : 0;
}

TEST(queue_failed_output)
{
	struct sink_out so = { 0 };
	struct sonde_live_sink sink = { .record = sink_fail, .ctx = &so };
	struct rec_live *l;
	char err[128];

	CHECK_EQ_INT(rec_live_start(&l, &sink, err, sizeof(err)), 0);
	if (!l)
		return;
	push_calls(l, 10, 1000);
	rec_live_stop(l);
	CHECK(rec_live_failed(l));
	CHECK_EQ_INT(sink.error, -EPIPE);
	CHECK_EQ_INT(so.n, 3);
	CHECK_EQ_INT(sink.stats.delivered, 2);
	rec_live_free(l);
}

TEST(no_sink_no_thread)
{
	struct rec_live *l = (struct rec_live *)1;
	char err[128];

	CHECK_EQ_INT(rec_live_start(&l, NULL, err, sizeof(err)), 0);
	CHECK(l == NULL);
	rec_live_push(NULL, NULL);
	rec_live_progress(NULL, 1);
	CHECK(!rec_live_failed(NULL));
	rec_live_stop(NULL);
	rec_live_free(NULL);
}

/* An execve by thread 11 of process 10: its entry payload carries tid 11,
 * the syscall record (written once the thread became the leader) tid 10.
 * The record takes the payload along, whether it comes within the window
 * or after the payload had to wait. */
static void add_exec(struct live_order *lo, struct out *o, uint16_t type, uint32_t tid,
		     uint16_t nr, uint64_t ts)
{
	union {
		struct sonde_ev_syscall sc;
		struct sonde_ev_payload pl;
	} u;

	memset(&u, 0, sizeof(u));
	u.sc.hdr.type = type;
	u.sc.hdr.tid = tid;
	u.sc.hdr.pid = 10;
	u.sc.hdr.ts = ts;
	u.sc.hdr.size = type == SC ? sizeof(u.sc) : sizeof(u.pl);
	if (type == SC)
		u.sc.nr = nr;
	else
		u.pl.nr = nr;
	o->bytes += u.sc.hdr.size;
	CHECK_EQ_INT(order_add(lo, &u.sc.hdr), 0);
}

TEST(exec_by_a_thread_keeps_its_payload)
{
	static struct out o;
	struct live_order lo;

	memset(&o, 0, sizeof(o));
	order_init(&lo, deliver, freed, &o);
	add_exec(&lo, &o, PL, 11, 59, 5);
	add_exec(&lo, &o, SC, 10, 59, 5);
	CHECK_EQ_INT(order_release(&lo, 100), 2);
	CHECK_EQ_INT(o.r[0].type, PL);
	CHECK_EQ_INT(o.r[1].type, SC);
	CHECK_EQ_INT(lo.ntids, 0);

	add_exec(&lo, &o, PL, 11, 59, 200); /* the call blocks past the window */
	CHECK_EQ_INT(order_release(&lo, 300), 0);
	CHECK_EQ_INT(lo.ntids, 1);
	add_exec(&lo, &o, SC, 10, 59, 200);
	CHECK_EQ_INT(order_release(&lo, 400), 2);
	CHECK_EQ_INT(o.r[2].type, PL);
	CHECK_EQ_INT(o.r[2].tid, 11);
	CHECK_EQ_INT(o.r[3].type, SC);
	CHECK_EQ_INT(lo.orphans, 0);
	CHECK_EQ_INT(lo.ntids, 0);

	/* Another call of the leader does not take a thread's payload. */
	add_exec(&lo, &o, PL, 12, 0, 500);
	add_exec(&lo, &o, SC, 10, 0, 500);
	CHECK_EQ_INT(order_release(&lo, 600), 1);
	CHECK_EQ_INT(lo.ntids, 1);
	order_drop_pending(&lo);
	CHECK_EQ_INT(o.bytes, 0);
	order_free(&lo);
}

int main(void)
{
	RUN(time_order_across_releases);
	RUN(payload_after_later_calls_of_its_thread);
	RUN(blocking_call_keeps_its_payload);
	RUN(orphans_after_later_call_or_exit);
	RUN(many_threads);
	RUN(queue_bound_sheds_and_marks);
	RUN(queue_failed_output);
	RUN(no_sink_no_thread);
	RUN(exec_by_a_thread_keeps_its_payload);
	return check_any_failed_ ? 1 : 0;
}
