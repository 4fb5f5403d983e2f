// SPDX-License-Identifier: GPL-2.0
/*
 * The task table: tid -> (pid, ppid, comm), learnt from the records as
 * they stream by, so that a renderer can name the task a wakeup targets
 * and stat can name a process. Open addressing with linear probing; tid 0
 * (the idle task) is a valid key, so empty slots are marked apart.
 */
#include <stdlib.h>
#include <string.h>

#include <sonde/analysis.h>

struct tasks_slot {
	int used;
	struct sonde_task t;
};

struct sonde_tasks {
	struct tasks_slot *slots;
	size_t cap; /* power of two */
	size_t n;
};

struct sonde_tasks *sonde_tasks_new(void)
{
	struct sonde_tasks *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->cap = 256;
	t->slots = calloc(t->cap, sizeof(*t->slots));
	if (!t->slots) {
		free(t);
		return NULL;
	}
	return t;
}

void sonde_tasks_free(struct sonde_tasks *t)
{
	if (!t)
		return;
	free(t->slots);
	free(t);
}

static size_t tasks_hash(uint32_t tid, size_t cap)
{
	return (tid * 2654435761u) & (cap - 1);
}

static struct tasks_slot *tasks_probe(struct tasks_slot *slots, size_t cap, uint32_t tid)
{
	size_t i = tasks_hash(tid, cap);

	while (slots[i].used && slots[i].t.tid != tid)
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static int tasks_grow(struct sonde_tasks *t)
{
	size_t cap = t->cap * 2;
	struct tasks_slot *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -1;
	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].used)
			*tasks_probe(slots, cap, t->slots[i].t.tid) = t->slots[i];
	free(t->slots);
	t->slots = slots;
	t->cap = cap;
	return 0;
}

/* The task's slot, created on first sight; NULL only when out of memory
 * (the table then simply knows fewer names). */
struct sonde_task *sonde_tasks_get(struct sonde_tasks *t, uint32_t tid)
{
	struct tasks_slot *s = tasks_probe(t->slots, t->cap, tid);

	/* A task known already: its slot, the table unchanged (growing it
	 * would move the pointers callers hold). */
	if (s->used)
		return &s->t;
	if (t->n * 2 >= t->cap) {
		if (tasks_grow(t))
			return NULL;
		s = tasks_probe(t->slots, t->cap, tid);
	}
	s->used = 1;
	memset(&s->t, 0, sizeof(s->t));
	s->t.tid = tid;
	t->n++;
	return &s->t;
}

const struct sonde_task *sonde_tasks_find(const struct sonde_tasks *t, uint32_t tid)
{
	const struct tasks_slot *s = tasks_probe(t->slots, t->cap, tid);

	return s->used ? &s->t : NULL;
}

/* A scan: ids of tasks in other namespaces are printed rarely (pid
 * arguments and results of containers' calls). */
uint32_t sonde_tasks_ns_global(const struct sonde_tasks *t, uint32_t tid, uint32_t id)
{
	const struct sonde_task *c = sonde_tasks_find(t, tid);

	if (!c || !c->ns_inum)
		return id;
	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i].used && t->slots[i].t.ns_inum == c->ns_inum &&
		    t->slots[i].t.ns_tid == id)
			return t->slots[i].t.tid;
	return 0;
}

static void tasks_set(struct sonde_tasks *t, uint32_t tid, uint32_t pid, const char *comm)
{
	struct sonde_task *k = sonde_tasks_get(t, tid);

	if (!k)
		return;
	if (pid)
		k->pid = pid;
	if (comm && comm[0]) {
		memcpy(k->comm, comm, SONDE_COMM_LEN);
		k->comm[SONDE_COMM_LEN] = '\0';
	}
}

void sonde_tasks_update(struct sonde_tasks *t, const struct sonde_hdr *rec)
{
	if (!sonde_rec_fits(rec))
		return;
	switch (rec->type) {
	case SONDE_REC_SWITCH: {
		const struct sonde_ev_switch *e = (const void *)rec;

		tasks_set(t, rec->tid, rec->pid, e->prev_comm);
		tasks_set(t, e->next_tid, e->next_pid, e->next_comm);
		break;
	}
	case SONDE_REC_FORK: {
		const struct sonde_ev_fork *e = (const void *)rec;
		struct sonde_task *k;

		tasks_set(t, e->child_tid, e->child_pid, e->child_comm);
		k = sonde_tasks_get(t, e->child_tid);
		/* A new process is the caller's child; a new thread has
		 * its creator's parent, which this record does not say. */
		if (k && e->child_pid != rec->pid)
			k->ppid = rec->pid;
		/* A pid used again: the namespace is the nspid record's
		 * that comes with the fork (same time), if any. */
		if (k && k->ns_ts != rec->ts)
			k->ns_inum = 0;
		break;
	}
	case SONDE_REC_NSPID: {
		const struct sonde_ev_nspid *e = (const void *)rec;
		struct sonde_task *k;

		/* After the set, which may grow the table (and move k). */
		tasks_set(t, rec->tid, rec->pid, NULL);
		k = sonde_tasks_get(t, rec->tid);
		if (k) {
			k->ns_inum = e->ns_inum;
			k->ns_tid = e->ns_tid;
			k->ns_ts = rec->ts;
		}
		break;
	}
	case SONDE_REC_EXEC:
		tasks_set(t, rec->tid, rec->pid, ((const struct sonde_ev_exec *)rec)->comm);
		break;
	case SONDE_REC_COMM:
		tasks_set(t, rec->tid, rec->pid, ((const struct sonde_ev_comm *)rec)->comm);
		break;
	case SONDE_REC_PROC: {
		const struct sonde_ev_proc *e = (const void *)rec;
		struct sonde_task *k;

		/* The command sonde started, before its execve (the name and
		 * parent are the recorder's child's, the exec names it), or
		 * more descriptors of a process already named. */
		if (rec->flags & (SONDE_PROC_LAUNCHED | SONDE_PROC_FDS_CONT))
			break;
		tasks_set(t, rec->tid, rec->pid, e->comm);
		k = sonde_tasks_get(t, rec->tid);
		if (k)
			k->ppid = e->ppid;
		break;
	}
	default:
		/* Any record tells us which process a thread belongs to. */
		if (rec->type < SONDE_REC_TYPE_MAX && rec->type != SONDE_REC_LOST)
			tasks_set(t, rec->tid, rec->pid, NULL);
		break;
	}
}
