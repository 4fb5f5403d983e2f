// SPDX-License-Identifier: GPL-2.0
/*
 * strace -b execve: strace detaches from a tracee that enters execve or
 * execveat (except the command it started, at its first execve). That
 * call's line ends with " <detached ...>" after its entering half, and
 * nothing more of the process is shown: not its exit, nor the processes
 * it forks afterwards, which strace never attaches to. The trace still
 * holds all of it; this is the renderer's filter.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/syscall.h>

#include "decode/strace/render_int.h"

static int detached(const struct sonde_strace *st, uint32_t tgid)
{
	for (size_t i = 0; i < st->ndetached; i++)
		if (st->detached[i] == tgid)
			return 1;
	return 0;
}

static int detach_add(struct sonde_strace *st, uint32_t tgid)
{
	if (detached(st, tgid))
		return 0;
	if (st->ndetached == st->capdetached) {
		size_t cap = st->capdetached ? 2 * st->capdetached : 16;
		uint32_t *d = realloc(st->detached, cap * sizeof(*d));

		if (!d)
			return -ENOMEM;
		st->detached = d;
		st->capdetached = cap;
	}
	st->detached[st->ndetached++] = tgid;
	return 0;
}

int detach_drops(struct sonde_strace *st, const struct sonde_hdr *rec)
{
	const struct sonde_ev_fork *f = (const void *)rec;

	if (!st->o.detach_execve || !detached(st, rec->pid))
		return 0;
	if (rec->type == SONDE_REC_FORK && rec->size >= sizeof(*f) &&
	    !(f->clone_flags & CLONE_THREAD) && detach_add(st, f->child_pid))
		return -ENOMEM;
	return 1;
}

int detach_at(struct sonde_strace *st, const struct sonde_ev_syscall *sc)
{
	if (!st->o.detach_execve || (sc->nr != __NR_execve && sc->nr != __NR_execveat))
		return 0;
	/* The entering thread: a non-leader that execs returns as the
	 * leader, in the same process. */
	if (st->b_launch_tid && st->b_launch_tid == sc->hdr.tid) {
		st->b_launch_tid = 0;
		return 0;
	}
	if (detach_add(st, sc->hdr.pid))
		return -ENOMEM;
	if (st->o.on_detach && !(st->o.quiet & SONDE_QUIET_ATTACH))
		st->o.on_detach(st->o.on_detach_ctx, sc->hdr.tid);
	return 1;
}
