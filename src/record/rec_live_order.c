// SPDX-License-Identifier: GPL-2.0
/*
 * Reordering for the live sink. Records arrive in ring order (per CPU,
 * syscalls at exit) and leave in (timestamp, arrival) order once older
 * than the printer's limit.
 *
 * A call's payload records (same tid and entry time as its syscall record)
 * must reach the strace feed next to that record, whatever the delay
 * between them: entry payloads are written when the call starts on one
 * CPU, the syscall record when it returns, perhaps on another CPU and
 * minutes later; either ring may be drained first. So records leave the
 * heap a timestamp at a time, and a payload whose syscall record is not in
 * its group waits in its thread's pending list; the syscall record, when
 * it comes, takes it back into the heap with itself.
 *
 *   heap (ts, seq) ─> group of one ts ─> payload without its call ─┐
 *          ^                         └─> delivered                 │
 *          └── syscall (tid, ts) arrives ── tids[hash(tid)].pending <┘
 *
 * A pending payload is an orphan (its syscall record was lost in a full
 * ring, which the trace reports itself) once a later syscall or the exit
 * of its thread is released: both were written after the missing record
 * would have been, so it can no longer come.
 *
 * A delivered signal's payloads (its stack, payload.h) go with it the
 * same way.
 *
 * One call changes tid on the way: a thread other than the leader that
 * execs becomes the leader, so its execve's entry payloads carry the
 * thread's tid and the syscall record the leader's (same process, same
 * entry time); that record takes them along too.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "record/rec_live_order.h"
#include <sonde/payload.h>

struct lrec {
	struct lrec *next; /* in a pending list */
	uint64_t seq;
	uint64_t rec[]; /* the record, hdr.size bytes */
};

struct tid_ent {
	uint32_t tid;
	struct lrec *pending, *plast; /* never empty while the entry exists */
};

static inline const struct sonde_hdr *lrec_hdr(const struct lrec *r)
{
	return (const struct sonde_hdr *)r->rec;
}

void order_init(struct live_order *o, void (*deliver)(void *, const struct sonde_hdr *),
		void (*freed)(void *, size_t), void *arg)
{
	memset(o, 0, sizeof(*o));
	o->deliver = deliver;
	o->freed = freed;
	o->arg = arg;
}

static void lrec_free(struct live_order *o, struct lrec *r)
{
	o->freed(o->arg, lrec_hdr(r)->size);
	free(r);
}

/* --- the heap ----------------------------------------------------------- */

/* The key sits in the heap array itself: comparisons touch no record
 * (chasing record pointers made heap_pop a third of the printer's time). */
struct hent {
	uint64_t ts, seq;
	struct lrec *r;
};

static int hent_before(const struct hent *a, const struct hent *b)
{
	return a->ts != b->ts ? a->ts < b->ts : a->seq < b->seq;
}

static int heap_push(struct live_order *o, struct lrec *r)
{
	struct hent e = { lrec_hdr(r)->ts, r->seq, r };
	size_t i;

	if (o->n == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 1024;
		struct hent *h = realloc(o->heap, cap * sizeof(*h));

		if (!h)
			return -ENOMEM;
		o->heap = h;
		o->cap = cap;
	}
	for (i = o->n++; i > 0; i = (i - 1) / 2) {
		struct hent *p = &o->heap[(i - 1) / 2];

		if (!hent_before(&e, p))
			break;
		o->heap[i] = *p;
	}
	o->heap[i] = e;
	return 0;
}

static struct lrec *heap_pop(struct live_order *o)
{
	struct lrec *top = o->heap[0].r;
	struct hent last = o->heap[--o->n];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= o->n)
			break;
		if (c + 1 < o->n && hent_before(&o->heap[c + 1], &o->heap[c]))
			c++;
		if (!hent_before(&o->heap[c], &last))
			break;
		o->heap[i] = o->heap[c];
		i = c;
	}
	if (o->n)
		o->heap[i] = last;
	return top;
}

/* --- threads ------------------------------------------------------------ */

static size_t tid_hash(uint32_t tid, size_t mask)
{
	return (size_t)(tid * 2654435761u) & mask;
}

static struct tid_ent *tid_find(struct live_order *o, uint32_t tid)
{
	size_t mask = o->tcap - 1;

	if (!o->tcap || !tid)
		return NULL;
	for (size_t i = tid_hash(tid, mask);; i = (i + 1) & mask) {
		if (o->tids[i].tid == tid)
			return &o->tids[i];
		if (!o->tids[i].tid)
			return NULL;
	}
}

static int tid_grow(struct live_order *o)
{
	size_t cap = o->tcap ? o->tcap * 2 : 64;
	struct tid_ent *t = calloc(cap, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (size_t k = 0; k < o->tcap; k++) {
		size_t i = tid_hash(o->tids[k].tid, cap - 1);

		if (!o->tids[k].tid)
			continue;
		while (t[i].tid)
			i = (i + 1) & (cap - 1);
		t[i] = o->tids[k];
	}
	free(o->tids);
	o->tids = t;
	o->tcap = cap;
	return 0;
}

static struct tid_ent *tid_get(struct live_order *o, uint32_t tid)
{
	struct tid_ent *e = tid_find(o, tid);
	size_t i;

	if (e || !tid)
		return e;
	if ((o->ntids + 1) * 2 > o->tcap && tid_grow(o))
		return NULL;
	for (i = tid_hash(tid, o->tcap - 1); o->tids[i].tid; i = (i + 1) & (o->tcap - 1))
		;
	memset(&o->tids[i], 0, sizeof(o->tids[i]));
	o->tids[i].tid = tid;
	o->ntids++;
	return &o->tids[i];
}

/* Linear-probing delete: later entries of the probe run shift back. */
static void tid_del(struct live_order *o, struct tid_ent *e)
{
	size_t mask = o->tcap - 1, i = (size_t)(e - o->tids), j = i;

	o->tids[i].tid = 0;
	for (;;) {
		size_t k;

		j = (j + 1) & mask;
		if (!o->tids[j].tid)
			break;
		k = tid_hash(o->tids[j].tid, mask);
		/* Stays when its home k lies cyclically in (i, j]. */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		o->tids[i] = o->tids[j];
		o->tids[j].tid = 0;
		i = j;
	}
	o->ntids--;
}

static void pending_add(struct tid_ent *e, struct lrec *r)
{
	r->next = NULL;
	if (e->pending)
		e->plast->next = r;
	else
		e->pending = r;
	e->plast = r;
}

/* Moves (keep = 1) the pending payloads with timestamp ts into the heap,
 * or frees (keep = 0) those older than ts as orphans. The entry goes once
 * its list is empty. */
static void pending_take(struct live_order *o, struct tid_ent *e, uint64_t ts, int keep)
{
	struct lrec **pp = &e->pending, *r;

	e->plast = NULL;
	while ((r = *pp)) {
		uint64_t t = lrec_hdr(r)->ts;

		if (keep ? t != ts : t >= ts) {
			e->plast = r;
			pp = &r->next;
			continue;
		}
		*pp = r->next;
		if (!keep) {
			o->orphans++;
			lrec_free(o, r);
		} else if (heap_push(o, r)) {
			o->hidden++;
			lrec_free(o, r);
		}
	}
	if (!e->pending)
		tid_del(o, e);
}

/* pl is an entry payload of call, an execve made by a thread that became
 * the leader (see above). */
static int exec_payload_of(const struct sonde_hdr *call, const struct sonde_hdr *pl)
{
	const struct sonde_ev_syscall *sc = (const void *)call;
	const struct sonde_ev_payload *p = (const void *)pl;

	return call->type == SONDE_REC_SYSCALL && call->size >= sizeof(*sc) &&
	       pl->type == SONDE_REC_PAYLOAD && pl->size >= sizeof(*p) &&
	       (sc->nr == __NR_execve || sc->nr == __NR_execveat) && sc->nr == p->nr &&
	       call->tid == call->pid && pl->pid == call->pid && pl->tid != call->tid &&
	       pl->ts == call->ts;
}

/* The pending payloads of such an execve, back into the heap. */
static void pending_take_exec(struct live_order *o, const struct sonde_hdr *h)
{
	uint32_t tid = 0;

	for (size_t i = 0; i < o->tcap && !tid; i++)
		for (const struct lrec *r = o->tids[i].tid ? o->tids[i].pending : NULL; r; r = r->next)
			if (exec_payload_of(h, lrec_hdr(r))) {
				tid = o->tids[i].tid;
				break;
			}
	if (tid)
		pending_take(o, tid_find(o, tid), h->ts, 1);
}

/* --- adding and releasing ----------------------------------------------- */

int order_add(struct live_order *o, const struct sonde_hdr *h)
{
	struct lrec *r = malloc(sizeof(*r) + h->size);
	struct tid_ent *e;

	if (!r)
		return -ENOMEM;
	memcpy(r->rec, h, h->size);
	r->seq = o->seq++;
	if (heap_push(o, r)) {
		free(r);
		return -ENOMEM;
	}
	if ((h->type == SONDE_REC_SYSCALL || h->type == SONDE_REC_SIGNAL) &&
	    (e = tid_find(o, h->tid)))
		pending_take(o, e, h->ts, 1);
	if (h->type == SONDE_REC_SYSCALL && h->tid == h->pid)
		pending_take_exec(o, h);
	return 0;
}

/* A released syscall or exit of tid ends its older pending payloads. */
static void order_settle(struct live_order *o, const struct sonde_hdr *h)
{
	struct tid_ent *e;

	if (h->type != SONDE_REC_SYSCALL && h->type != SONDE_REC_EXIT)
		return;
	e = tid_find(o, h->tid);
	if (e)
		pending_take(o, e, h->ts, 0);
}

/* Pops every record of the oldest timestamp into o->grp; without memory
 * for them, as many as fit (the others follow as a group of their own). */
static void group_pop(struct live_order *o)
{
	uint64_t ts = o->heap[0].ts;

	o->ngrp = 0;
	while (o->n && o->heap[0].ts == ts) {
		if (o->ngrp == o->gcap) {
			size_t cap = o->gcap ? o->gcap * 2 : 64;
			struct lrec **g = realloc(o->grp, cap * sizeof(*g));

			if (!g)
				return;
			o->grp = g;
			o->gcap = cap;
		}
		o->grp[o->ngrp++] = heap_pop(o);
	}
}

static int group_has_call(const struct live_order *o, const struct sonde_hdr *pl)
{
	for (size_t i = 0; i < o->ngrp; i++) {
		const struct sonde_hdr *h = o->grp[i] ? lrec_hdr(o->grp[i]) : NULL;

		if (h && h->type == SONDE_REC_SYSCALL &&
		    (h->tid == pl->tid || exec_payload_of(h, pl)))
			return 1;
		/* The stack a delivered signal interrupted (record --user-stack) */
		if (h && h->type == SONDE_REC_SIGNAL && h->tid == pl->tid)
			return 1;
	}
	return 0;
}

/* A payload whose call is not in the group waits for it. 1 if kept. */
static int group_defer(struct live_order *o, struct lrec *r)
{
	const struct sonde_hdr *h = lrec_hdr(r);
	struct tid_ent *e;

	if (h->type != SONDE_REC_PAYLOAD || group_has_call(o, h))
		return 0;
	e = tid_get(o, h->tid);
	if (!e)
		return 0; /* no memory to wait: shown alone, decoders ignore it */
	pending_add(e, r);
	return 1;
}

static void release_one(struct live_order *o, struct lrec *r)
{
	const struct sonde_hdr *h = lrec_hdr(r);

	order_settle(o, h);
	if (h->ts < o->last_ts)
		o->late++;
	else
		o->last_ts = h->ts;
	o->deliver(o->arg, h);
	lrec_free(o, r);
}

size_t order_release(struct live_order *o, uint64_t limit)
{
	size_t n = 0;

	while (o->n && o->heap[0].ts < limit) {
		group_pop(o);
		if (!o->ngrp) { /* not even one slot: alone */
			struct lrec *r = heap_pop(o);

			if (!group_defer(o, r)) {
				release_one(o, r);
				n++;
			}
			continue;
		}
		/* Decide on the whole group first: delivering frees records. */
		for (size_t i = 0; i < o->ngrp; i++)
			if (o->grp[i] && group_defer(o, o->grp[i]))
				o->grp[i] = NULL;
		for (size_t i = 0; i < o->ngrp; i++)
			if (o->grp[i]) {
				release_one(o, o->grp[i]);
				n++;
			}
		o->ngrp = 0;
	}
	return n;
}

void order_drop_pending(struct live_order *o)
{
	for (size_t i = 0; i < o->tcap; i++) {
		struct lrec *r, *n;

		if (!o->tids[i].tid)
			continue;
		for (r = o->tids[i].pending; r; r = n) {
			n = r->next;
			o->orphans++;
			lrec_free(o, r);
		}
		o->tids[i].pending = NULL;
		o->tids[i].tid = 0;
	}
	o->ntids = 0;
}

void order_free(struct live_order *o)
{
	order_drop_pending(o);
	while (o->n)
		lrec_free(o, o->heap[--o->n].r);
	free(o->heap);
	free(o->tids);
	free(o->grp);
	o->heap = NULL;
	o->tids = NULL;
	o->grp = NULL;
	o->cap = o->tcap = o->gcap = 0;
}
