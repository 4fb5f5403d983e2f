// SPDX-License-Identifier: GPL-2.0
/* The returning halves of split calls, by exit time (callq.h). */
#include <errno.h>
#include <stdlib.h>

#include "decode/strace/callq.h"

static int ent_before(const struct callq_ent *a, const struct callq_ent *b)
{
	return a->end != b->end ? a->end < b->end : a->seq < b->seq;
}

void callq_ent_free(struct callq_ent *e)
{
	free(e->rest);
	free(e->ret);
	free(e->dump);
	e->rest = e->ret = e->dump = NULL;
}

int callq_push(struct callq *q, struct callq_ent *e)
{
	size_t i;

	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 16;
		struct callq_ent *v = realloc(q->v, cap * sizeof(*v));

		if (!v) {
			callq_ent_free(e);
			return -ENOMEM;
		}
		q->v = v;
		q->cap = cap;
	}
	e->seq = q->seq++;
	for (i = q->n++; i > 0; i = (i - 1) / 2) {
		struct callq_ent *p = &q->v[(i - 1) / 2];

		if (!ent_before(e, p))
			break;
		q->v[i] = *p;
	}
	q->v[i] = *e;
	return 0;
}

const struct callq_ent *callq_top(const struct callq *q)
{
	return q->n ? &q->v[0] : NULL;
}

void callq_pop(struct callq *q, struct callq_ent *e)
{
	struct callq_ent last;
	size_t i = 0;

	*e = q->v[0];
	last = q->v[--q->n];
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= q->n)
			break;
		if (c + 1 < q->n && ent_before(&q->v[c + 1], &q->v[c]))
			c++;
		if (!ent_before(&q->v[c], &last))
			break;
		q->v[i] = q->v[c];
		i = c;
	}
	if (q->n)
		q->v[i] = last;
}

int callq_take_tid(struct callq *q, uint32_t tid, struct callq_ent *e)
{
	size_t i;

	for (i = 0; i < q->n && q->v[i].tid != tid; i++)
		;
	if (i == q->n)
		return 0;
	/* Make it the earliest (sift up), then pop it. */
	q->v[i].end = 0;
	q->v[i].seq = 0;
	for (; i > 0; i = (i - 1) / 2) {
		struct callq_ent t = q->v[(i - 1) / 2];

		if (!ent_before(&q->v[i], &t))
			break;
		q->v[(i - 1) / 2] = q->v[i];
		q->v[i] = t;
	}
	callq_pop(q, e);
	return 1;
}

int callq_has_tid(const struct callq *q, uint32_t tid)
{
	for (size_t i = 0; i < q->n; i++)
		if (q->v[i].tid == tid)
			return 1;
	return 0;
}

void callq_free(struct callq *q)
{
	for (size_t i = 0; i < q->n; i++)
		callq_ent_free(&q->v[i]);
	free(q->v);
	q->v = NULL;
	q->n = q->cap = 0;
}
