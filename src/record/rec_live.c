// SPDX-License-Identifier: GPL-2.0
/*
 * The live sink (include/sonde/live.h): a bounded queue between the
 * consumer thread and a printer thread that reorders records and hands
 * them to the sink's callbacks.
 *
 * Producer side (consumer thread): records are copied back to back into
 * private chunks; each drain pass of the rings ends with
 * rec_live_progress(mark), which moves the chunks to the shared list under
 * the lock — one lock per pass, none per record.
 *
 *   producer: priv ─> [chunk][chunk]            (no lock)
 *                         │ progress(mark)
 *   shared:   head ─> [chunk][chunk]... mark    (mu)
 *                         │ printer takes the whole list
 *   printer:  heap by (ts, seq)   pending payloads per tid
 *                         │ ts < mark - window
 *                     record() ... flush()
 *
 * `held` counts the record bytes pushed and not yet freed by the printer
 * (queued, in the heap or pending): it is the bound of max_bytes.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "record/rec_live.h"
#include "record/rec_live_order.h"

#define CHUNK_MIN (256u << 10)
#define WAIT_NS 50000000L

struct live_chunk {
	struct live_chunk *next;
	size_t len, cap;
	uint64_t data[]; /* records, each hdr.size bytes (a multiple of 8) */
};

struct rec_live {
	struct sonde_live_sink *sink;
	size_t max_bytes;
	uint64_t window_ns;

	/* Producer only. */
	struct live_chunk *priv, *priv_last;
	int shedding;
	uint64_t shed_count, shed_first_ts, hidden;
	uint16_t shed_cpu;
	size_t peak;

	/* Under mu. */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct live_chunk *head, **tail;
	uint64_t mark;
	int done;

	atomic_size_t held;
	atomic_int failed;

	/* Printer only. */
	pthread_t thread;
	int started;
	struct live_order ord;
};

static void live_fail(struct rec_live *l, int e)
{
	if (!l->sink->error)
		l->sink->error = e ? e : -EIO;
	atomic_store(&l->failed, 1);
}

/* live_order's delivery: one record to the sink, unless it failed. */
static void live_deliver(void *arg, const struct sonde_hdr *h)
{
	struct rec_live *l = arg;
	int e;

	if (atomic_load_explicit(&l->failed, memory_order_relaxed))
		return;
	e = l->sink->record(l->sink->ctx, h);
	if (e)
		live_fail(l, e);
	else
		l->ord.delivered++;
}

static void live_freed(void *arg, size_t bytes)
{
	struct rec_live *l = arg;

	atomic_fetch_sub_explicit(&l->held, bytes, memory_order_relaxed);
}

static int live_append(struct rec_live *l, const struct sonde_hdr *h)
{
	struct live_chunk *c = l->priv ? l->priv_last : NULL;
	size_t held;

	if (!c || c->cap - c->len < h->size) {
		size_t cap = CHUNK_MIN; /* > the largest record (hdr.size is 16 bits) */

		c = malloc(sizeof(*c) + cap);
		if (!c)
			return -ENOMEM;
		c->next = NULL;
		c->len = 0;
		c->cap = cap;
		if (l->priv)
			l->priv_last->next = c;
		else
			l->priv = c;
		l->priv_last = c;
	}
	memcpy((char *)c->data + c->len, h, h->size);
	c->len += h->size;
	held = atomic_fetch_add_explicit(&l->held, h->size, memory_order_relaxed) + h->size;
	if (held > l->peak)
		l->peak = held;
	return 0;
}

/* The end of a gap: one LOST record where it began, with its size. */
static void live_shed_end(struct rec_live *l)
{
	struct sonde_ev_lost r = {
		.hdr = { .ts = l->shed_first_ts,
			 .type = SONDE_REC_LOST,
			 .size = sizeof(r),
			 .cpu = l->shed_cpu },
		.count = l->shed_count,
		.kind = SONDE_LOST_LIVE,
	};

	l->hidden += l->shed_count;
	l->shedding = 0;
	l->shed_count = 0;
	if (live_append(l, &r.hdr))
		l->hidden++; /* only the marker is gone; the count stays in the stats */
}

void rec_live_push(struct rec_live *l, const struct sonde_hdr *h)
{
	size_t held;

	if (!l)
		return;
	held = atomic_load_explicit(&l->held, memory_order_relaxed);
	/* Hysteresis: one gap (and one marker) per overload, not one per record. */
	if (l->shedding && held <= l->max_bytes / 2)
		live_shed_end(l);
	if (!l->shedding && held + h->size <= l->max_bytes && !live_append(l, h))
		return;
	if (!l->shedding) {
		l->shedding = 1;
		l->shed_first_ts = h->ts;
		l->shed_cpu = h->cpu;
	}
	l->shed_count++;
}

void rec_live_progress(struct rec_live *l, uint64_t mark)
{
	if (!l)
		return;
	pthread_mutex_lock(&l->mu);
	if (l->priv) {
		*l->tail = l->priv;
		l->tail = &l->priv_last->next;
		l->priv = NULL;
	}
	if (mark > l->mark)
		l->mark = mark;
	pthread_cond_signal(&l->cv);
	pthread_mutex_unlock(&l->mu);
}

int rec_live_failed(const struct rec_live *l)
{
	return l && atomic_load(&l->failed);
}

static void live_ingest(struct rec_live *l, struct live_chunk *c)
{
	while (c) {
		struct live_chunk *next = c->next;

		for (size_t off = 0; off < c->len;) {
			const struct sonde_hdr *h = (const void *)((char *)c->data + off);

			if (order_add(&l->ord, h)) {
				/* Out of memory in the printer: as good as not shown. */
				l->ord.hidden++;
				live_freed(l, h->size);
			}
			off += h->size;
		}
		free(c);
		c = next;
	}
}

static void live_wait(struct rec_live *l, uint64_t seen_mark)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_nsec += WAIT_NS;
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	while (!l->head && !l->done && l->mark == seen_mark)
		if (pthread_cond_timedwait(&l->cv, &l->mu, &t) == ETIMEDOUT)
			break;
}

static void *live_main(void *arg)
{
	struct rec_live *l = arg;
	uint64_t mark = 0, limit;
	sigset_t all;

	/* A broken output pipe is an EPIPE for the sink, not a SIGPIPE. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (;;) {
		struct live_chunk *list;
		int done;
		size_t n;

		pthread_mutex_lock(&l->mu);
		live_wait(l, mark);
		list = l->head;
		l->head = NULL;
		l->tail = &l->head;
		mark = l->mark;
		done = l->done;
		pthread_mutex_unlock(&l->mu);

		live_ingest(l, list);
		limit = done ? UINT64_MAX : (mark > l->window_ns ? mark - l->window_ns : 0);
		n = order_release(&l->ord, limit);
		/* A moved horizon settles lines too (a call the sink holds
		 * until nothing can come before its exit), records or not. */
		if ((n || limit > l->sink->horizon) && !atomic_load(&l->failed) &&
		    l->sink->flush) {
			l->sink->horizon = limit;
			int e = l->sink->flush(l->sink->ctx);

			if (e)
				live_fail(l, e);
		}
		if (done)
			break;
	}
	order_drop_pending(&l->ord);
	return NULL;
}

int rec_live_start(struct rec_live **lp, struct sonde_live_sink *sink, char *err, size_t errlen)
{
	struct rec_live *l;
	pthread_condattr_t ca;
	int e;

	*lp = NULL;
	if (!sink)
		return 0;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->sink = sink;
	l->max_bytes = sink->max_bytes ? sink->max_bytes : SONDE_LIVE_DEFAULT_BYTES;
	l->window_ns =
		(uint64_t)(sink->window_ms ? sink->window_ms : SONDE_LIVE_DEFAULT_WINDOW_MS) *
		1000000ull;
	l->tail = &l->head;
	order_init(&l->ord, live_deliver, live_freed, l);
	pthread_mutex_init(&l->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&l->cv, &ca);
	pthread_condattr_destroy(&ca);
	memset(&sink->stats, 0, sizeof(sink->stats));
	sink->horizon = 0;
	sink->error = 0;
	e = pthread_create(&l->thread, NULL, live_main, l);
	if (e) {
		snprintf(err, errlen, "starting the live output thread: %s", strerror(e));
		rec_live_free(l);
		return -e;
	}
	l->started = 1;
	*lp = l;
	return 0;
}

void rec_live_stop(struct rec_live *l)
{
	struct sonde_live_stats *s;

	if (!l || !l->started)
		return;
	if (l->shedding)
		live_shed_end(l);
	rec_live_progress(l, 0);
	pthread_mutex_lock(&l->mu);
	l->done = 1;
	pthread_cond_signal(&l->cv);
	pthread_mutex_unlock(&l->mu);
	pthread_join(l->thread, NULL);
	l->started = 0;
	s = &l->sink->stats;
	s->delivered = l->ord.delivered;
	s->hidden = l->hidden + l->ord.hidden;
	s->late = l->ord.late;
	s->orphans = l->ord.orphans;
	s->peak_bytes = l->peak;
}

void rec_live_free(struct rec_live *l)
{
	struct live_chunk *c, *n;

	if (!l)
		return;
	rec_live_stop(l);
	for (c = l->head; c; c = n) {
		n = c->next;
		free(c);
	}
	for (c = l->priv; c; c = n) {
		n = c->next;
		free(c);
	}
	order_free(&l->ord);
	pthread_cond_destroy(&l->cv);
	pthread_mutex_destroy(&l->mu);
	free(l);
}
