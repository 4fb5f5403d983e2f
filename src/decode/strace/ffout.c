// SPDX-License-Identifier: GPL-2.0
/*
 * -ff -o PREFIX: one output file per task. strace keeps a file open per
 * traced task; a program with thousands of threads would run a tracer
 * out of descriptors that way, so at most FFOUT_OPEN files stay open: the
 * least recently written one is closed, and reopened for appending when
 * its task has another line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decode/strace/ffout.h"

#define FFOUT_OPEN 64

struct ffout_ent {
	uint32_t tid;
	uint64_t used; /* ffout.clock when last written */
	FILE *f;
};

struct ffout {
	char *prefix;
	uint64_t clock;
	int err; /* a write or close failed */
	struct ffout_ent open[FFOUT_OPEN];
	/* tids whose file exists: reopened with "a", never truncated twice */
	uint32_t *seen;
	size_t nseen, capseen;
	int append; /* -A: every file is appended to, never truncated */
};

struct ffout *ffout_new(const char *prefix, int append)
{
	struct ffout *ff = calloc(1, sizeof(*ff));

	if (!ff)
		return NULL;
	ff->append = append;
	ff->prefix = strdup(prefix);
	if (!ff->prefix) {
		free(ff);
		return NULL;
	}
	return ff;
}

static int seen_has(const struct ffout *ff, uint32_t tid)
{
	for (size_t i = 0; i < ff->nseen; i++)
		if (ff->seen[i] == tid)
			return 1;
	return 0;
}

static int seen_add(struct ffout *ff, uint32_t tid)
{
	if (ff->nseen == ff->capseen) {
		size_t cap = ff->capseen ? 2 * ff->capseen : 64;
		uint32_t *p = realloc(ff->seen, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		ff->seen = p;
		ff->capseen = cap;
	}
	ff->seen[ff->nseen++] = tid;
	return 0;
}

static void ent_close(struct ffout *ff, struct ffout_ent *e)
{
	if (e->f && fclose(e->f))
		ff->err = 1;
	e->f = NULL;
}

/* The slot for a file to open: a free one, else the least recently used. */
static struct ffout_ent *ent_victim(struct ffout *ff)
{
	struct ffout_ent *v = &ff->open[0];

	for (size_t i = 0; i < FFOUT_OPEN; i++) {
		if (!ff->open[i].f)
			return &ff->open[i];
		if (ff->open[i].used < v->used)
			v = &ff->open[i];
	}
	ent_close(ff, v);
	return v;
}

FILE *ffout_file(struct ffout *ff, uint32_t tid)
{
	struct ffout_ent *e;
	char path[4096];
	int again;

	for (size_t i = 0; i < FFOUT_OPEN; i++)
		if (ff->open[i].f && ff->open[i].tid == tid) {
			ff->open[i].used = ++ff->clock;
			return ff->open[i].f;
		}
	if (snprintf(path, sizeof(path), "%s.%u", ff->prefix, tid) >= (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	again = seen_has(ff, tid);
	if (!again && seen_add(ff, tid))
		return NULL;
	e = ent_victim(ff);
	/* Close-on-exec, as -o's file: the command must not inherit it. */
	e->f = fopen(path, again || ff->append ? "ae" : "we");
	if (!e->f)
		return NULL;
	e->tid = tid;
	e->used = ++ff->clock;
	return e->f;
}

int ffout_flush(struct ffout *ff)
{
	for (size_t i = 0; i < FFOUT_OPEN; i++)
		if (ff->open[i].f && fflush(ff->open[i].f))
			ff->err = 1;
	return ff->err ? -EIO : 0;
}

int ffout_free(struct ffout *ff)
{
	int e;

	if (!ff)
		return 0;
	for (size_t i = 0; i < FFOUT_OPEN; i++)
		ent_close(ff, &ff->open[i]);
	e = ff->err ? -EIO : 0;
	free(ff->seen);
	free(ff->prefix);
	free(ff);
	return e;
}
