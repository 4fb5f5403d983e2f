// SPDX-License-Identifier: GPL-2.0
/*
 * The address space of each traced process, as the trace tells it
 * (events.h, SONDE_REC_IMAGE): the files mapped, where, at which offset.
 * A process starts with its parent's (fork copies the mappings), loses
 * them at exec (the image record of the new program says so) and is
 * forgotten when its last thread exits.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include <libelf.h>
#include <sonde/analysis.h>

#include "stack/stack_int.h"

struct sonde_ustack *sonde_ustack_new(void)
{
	/* libelf refuses to work until told which version the caller knows */
	elf_version(EV_CURRENT);
	return calloc(1, sizeof(struct sonde_ustack));
}

static void proc_clear(struct ustk_proc *p)
{
	for (size_t i = 0; i < p->nimg; i++)
		free(p->img[i].path);
	p->nimg = 0;
	p->dirty = 1;
}

static void proc_free(struct ustk_proc *p)
{
	if (!p)
		return;
	proc_clear(p);
	ustk_proc_drop_dwfl(p);
	proc_free(p->before);
	free(p->img);
	free(p);
}

void ustk_proc_drop_before(struct ustk_proc *p)
{
	proc_free(p->before);
	p->before = NULL;
}

/* An exec: the address space so far becomes p->before, p starts empty. */
static int proc_exec(struct ustk_proc *p)
{
	struct ustk_proc *b = calloc(1, sizeof(*b));

	if (!b)
		return -ENOMEM;
	ustk_proc_drop_before(p);
	b->tgid = p->tgid;
	b->img = p->img;
	b->nimg = p->nimg;
	b->cap = p->cap;
	b->dirty = 1; /* p's session reads p->s: b gets its own */
	ustk_proc_drop_dwfl(p);
	p->img = NULL;
	p->nimg = p->cap = 0;
	p->dirty = 1;
	p->before = b;
	return 0;
}

void sonde_ustack_free(struct sonde_ustack *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->nprocs; i++)
		proc_free(u->procs[i]);
	free(u->procs);
	ustk_syms_free(u);
	free(u);
}

/* Linear: a trace has few processes alive at once, and the one asked is
 * moved to the front, where the next call of the same process finds it. */
struct ustk_proc *ustk_proc_find(struct sonde_ustack *u, uint32_t tgid)
{
	for (size_t i = 0; i < u->nprocs; i++) {
		struct ustk_proc *p = u->procs[i];

		if (p->tgid != tgid)
			continue;
		u->procs[i] = u->procs[0];
		u->procs[0] = p;
		return p;
	}
	return NULL;
}

int ustk_open_regular(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st;

	if (fd >= 0 && (fstat(fd, &st) || !S_ISREG(st.st_mode))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

const struct ustk_img *ustk_img_at(const struct ustk_proc *p, uint64_t addr, int exec)
{
	/* The latest first: a segment mapped over a reservation wins. */
	for (size_t i = p->nimg; i-- > 0;)
		if (addr >= p->img[i].start && addr < p->img[i].end)
			return p->img[i].exec || !exec ? &p->img[i] : NULL;
	return NULL;
}

static struct ustk_proc *proc_get(struct sonde_ustack *u, uint32_t tgid)
{
	struct ustk_proc *p = ustk_proc_find(u, tgid);

	if (p)
		return p;
	if (u->nprocs == u->cap) {
		size_t cap = u->cap ? 2 * u->cap : 16;
		struct ustk_proc **n = realloc(u->procs, cap * sizeof(*n));

		if (!n)
			return NULL;
		u->procs = n;
		u->cap = cap;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->tgid = tgid;
	p->dirty = 1;
	u->procs[u->nprocs++] = p;
	return p;
}

static void proc_remove(struct sonde_ustack *u, uint32_t tgid)
{
	struct ustk_proc *p = ustk_proc_find(u, tgid); /* now at procs[0] */

	if (!p)
		return;
	proc_free(p);
	u->procs[0] = u->procs[--u->nprocs];
}

static int proc_add(struct ustk_proc *p, uint64_t start, uint64_t end, uint64_t pgoff, int exec,
		    const char *path)
{
	size_t k = 0;
	char *copy;

	if (p->nimg == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 16;
		struct ustk_img *n = realloc(p->img, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		p->img = n;
		p->cap = cap;
	}
	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	/* What the new mapping covers entirely was unmapped by it
	 * (MAP_FIXED, or an address reused after munmap). */
	for (size_t i = 0; i < p->nimg; i++) {
		if (p->img[i].start >= start && p->img[i].end <= end)
			free(p->img[i].path);
		else
			p->img[k++] = p->img[i];
	}
	p->nimg = k;
	p->img[p->nimg++] = (struct ustk_img){ start, end, pgoff, exec, copy };
	p->dirty = 1;
	return 0;
}

static int on_image(struct sonde_ustack *u, const struct sonde_hdr *rec)
{
	const struct sonde_ev_image *e = (const void *)rec;
	char path[SONDE_IMAGE_PATH_MAX + 1];
	struct ustk_proc *p;

	if (sonde_image_path(rec, path, sizeof(path)) || (rec->flags & SONDE_IMAGE_TRUNC))
		return 0;
	p = proc_get(u, rec->pid);
	if (!p)
		return -ENOMEM;
	if ((rec->flags & SONDE_IMAGE_EXEC) && proc_exec(p))
		return -ENOMEM;
	return proc_add(p, e->start, e->end, e->pgoff, !!(rec->flags & SONDE_IMAGE_X), path);
}

/* A new process (not a thread) starts with a copy of its parent's. */
static int on_fork(struct sonde_ustack *u, const struct sonde_hdr *rec)
{
	const struct sonde_ev_fork *f = (const void *)rec;
	struct ustk_proc *parent, *child;

	if (rec->size < sizeof(*f) || f->child_pid == rec->pid)
		return 0;
	parent = ustk_proc_find(u, rec->pid);
	if (!parent)
		return 0;
	child = proc_get(u, f->child_pid);
	if (!child)
		return -ENOMEM;
	/* proc_get may have moved parent within procs, not freed it. */
	proc_clear(child);
	for (size_t i = 0; i < parent->nimg; i++) {
		const struct ustk_img *m = &parent->img[i];

		if (proc_add(child, m->start, m->end, m->pgoff, m->exec, m->path))
			return -ENOMEM;
	}
	return 0;
}

int sonde_ustack_record(struct sonde_ustack *u, const struct sonde_hdr *rec)
{
	switch (rec->type) {
	case SONDE_REC_IMAGE:
		return on_image(u, rec);
	case SONDE_REC_FORK:
		return on_fork(u, rec);
	case SONDE_REC_EXIT:
		if (rec->flags & SONDE_EXIT_GROUP_DEAD)
			proc_remove(u, rec->pid);
		return 0;
	}
	return 0;
}
