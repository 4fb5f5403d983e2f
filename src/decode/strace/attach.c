// SPDX-License-Identifier: GPL-2.0
/*
 * The tasks strace would be tracing at each point of its output, for what
 * strace -f prints on standard error: a "[pid N] " prefix on the lines
 * printed while it traces more than one task (not before the first fork,
 * nor after the others have exited), and "strace: Process N attached"
 * for each new task, once the call that made it has returned in its
 * parent, or before the new task's first line if that comes first.
 *
 *   FORK record          -> child PENDING (its parent's call still open)
 *   parent's clone line  -> child READY (the call returned)
 *   any next line, or    -> READY children announced, LIVE; a PENDING
 *   the child's own line    child is announced before its own first line
 *   exit line (or -qq)   -> gone
 *
 * A task with no state when it prints is LIVE unannounced: the command
 * sonde started (its PROC record adds it first) or one attached with -p,
 * which the command line announces.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "decode/strace/render_int.h"

enum { PENDING, READY, LIVE };

struct st_attach {
	uint32_t tid, parent;
	uint8_t state;
};

/* The index of tid in the table sorted by tid, or where it would go. */
static size_t attach_find(const struct sonde_strace *st, uint32_t tid)
{
	size_t lo = 0, hi = st->nattach;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->attach[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct st_attach *attach_get(struct sonde_strace *st, uint32_t tid)
{
	size_t i = attach_find(st, tid);

	return i < st->nattach && st->attach[i].tid == tid ? &st->attach[i] : NULL;
}

static int attach_put(struct sonde_strace *st, uint32_t tid, uint32_t parent, int state)
{
	size_t i = attach_find(st, tid);

	if (i < st->nattach && st->attach[i].tid == tid) {
		st->nlive -= st->attach[i].state == LIVE;
		st->nready -= st->attach[i].state == READY;
	} else {
		if (room_for_one((void **)&st->attach, &st->capattach, st->nattach,
				 sizeof(*st->attach)))
			return -ENOMEM;
		memmove(&st->attach[i + 1], &st->attach[i],
			(st->nattach - i) * sizeof(*st->attach));
		st->nattach++;
	}
	st->attach[i] = (struct st_attach){ .tid = tid, .parent = parent, .state = state };
	st->nlive += state == LIVE;
	st->nready += state == READY;
	return 0;
}

int attach_on(const struct sonde_strace *st)
{
	return st->o.pid_prefix == 2;
}

int attach_add(struct sonde_strace *st, uint32_t tid)
{
	return attach_on(st) && !attach_get(st, tid) ? attach_put(st, tid, 0, LIVE) : 0;
}

int attach_fork(struct sonde_strace *st, uint32_t parent, uint32_t child)
{
	/* A call not shown has no line to wait for. */
	int open = (st->open && st->open_rtid == parent) || callq_has_tid(&st->q, parent);

	return attach_on(st) ? attach_put(st, child, parent, open ? PENDING : READY) : 0;
}

static void attach_say(struct sonde_strace *st, struct st_attach *a)
{
	if (st->o.attach_msg)
		sb_printf(&st->line, "%s: Process %u attached\n", st->o.attach_msg, a->tid);
	st->nready -= a->state == READY;
	a->state = LIVE;
	st->nlive++;
}

/* i386 forks are recorded under these numbers too (syscall_table_i386.c) */
static int is_fork_call(uint32_t nr)
{
	switch (nr) {
	case __NR_clone:
	case __NR_clone3:
	case __NR_fork:
	case __NR_vfork:
		return 1;
	}
	return 0;
}

void attach_returned(struct sonde_strace *st, uint32_t tid, uint32_t nr)
{
	if (!attach_on(st) || !is_fork_call(nr))
		return;
	for (size_t i = 0; i < st->nattach; i++)
		if (st->attach[i].parent == tid && st->attach[i].state == PENDING) {
			st->attach[i].state = READY;
			st->nready++;
		}
}

void attach_line(struct sonde_strace *st, uint32_t tid)
{
	struct st_attach *a;

	if (!attach_on(st))
		return;
	/* a scan only when one is due: lines are many, forks few */
	for (size_t i = 0; st->nready && i < st->nattach; i++)
		if (st->attach[i].state == READY)
			attach_say(st, &st->attach[i]);
	a = attach_get(st, tid);
	if (a && a->state == PENDING)
		attach_say(st, a);
	else if (!a && attach_put(st, tid, 0, LIVE))
		st->line.oom = 1;
}

int attach_many(const struct sonde_strace *st)
{
	return st->nlive > 1;
}

int attach_gone(struct sonde_strace *st, uint32_t tid)
{
	size_t i = attach_find(st, tid);
	int rc = 0;

	if (!attach_on(st) || i == st->nattach || st->attach[i].tid != tid)
		return 0;
	/* -qq hides the exit line, not the task's arrival. */
	if (st->attach[i].state != LIVE) {
		rc = split_cut_open(st);
		attach_say(st, &st->attach[i]);
		if (!rc)
			rc = strace_emit(st);
	}
	st->nlive--;
	memmove(&st->attach[i], &st->attach[i + 1], (st->nattach - i - 1) * sizeof(*st->attach));
	st->nattach--;
	return rc;
}

void attach_free(struct sonde_strace *st)
{
	free(st->attach);
	st->attach = NULL;
	st->nattach = st->capattach = st->nlive = st->nready = 0;
}
