/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the trace format tests: record generators, a test
 * metadata block, writing a list of records, reading a whole trace back.
 */
#ifndef SONDE_TEST_FORMAT_UTIL_H
#define SONDE_TEST_FORMAT_UTIL_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sonde/format.h>
#include "check.h"

static const char *const tf_names[] = { "read", "write", NULL, "close" };

static inline struct sonde_meta tf_meta(void)
{
	return (struct sonde_meta){
		.host = "testhost",
		.kernel = "6.18.0-test",
		.machine = "x86_64",
		.ncpus = 4,
		.mono_ref_ns = 123456789,
		.wall_ref_ns = 1700000000123456789ull,
		.cmdline = "sonde record -o t.sonde -- true",
		.nsyscalls = 4,
		.syscall_names = tf_names,
	};
}

/* xorshift64*: deterministic test data. */
static inline uint64_t tf_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static inline void tf_hdr(struct sonde_hdr *h, uint16_t type, uint16_t size, uint64_t ts,
			  uint32_t tid, uint16_t cpu)
{
	h->ts = ts;
	h->pid = tid / 10 * 10;
	h->tid = tid;
	h->type = type;
	h->size = size;
	h->cpu = cpu;
	h->flags = 0;
}

static inline void tf_syscall(struct sonde_ev_syscall *e, uint64_t ts, uint32_t tid, uint32_t nr,
			      uint64_t id)
{
	memset(e, 0, sizeof(*e));
	tf_hdr(&e->hdr, SONDE_REC_SYSCALL, sizeof(*e), ts, tid, 0);
	e->nr = nr;
	e->ret = 64;
	e->dur = 250;
	e->args[0] = id; /* identifies the record in merge tests */
	e->args[1] = 0x7ffc12345670;
	e->args[2] = 64;
}

/* A temporary directory removed by tf_cleanup(). */
static char tf_dir[64];

static inline const char *tf_path(const char *name)
{
	static char p[4][128];
	static int i;

	if (!tf_dir[0]) {
		strcpy(tf_dir, "/tmp/sonde-format-XXXXXX");
		if (!mkdtemp(tf_dir))
			abort();
	}
	i = (i + 1) % 4;
	snprintf(p[i], sizeof(p[i]), "%s/%s", tf_dir, name);
	return p[i];
}

static inline void tf_cleanup(void)
{
	char cmd[128];

	if (!tf_dir[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tf_dir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", tf_dir);
}

/* Reads a whole file into memory. */
static inline uint8_t *tf_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*len = (size_t)n;
	}
	fclose(f);
	return buf;
}

/* What reading a trace to the end gave. */
struct tf_read {
	size_t nrecs, nerrors;
	uint64_t *ids; /* args[0] of syscall records, UINT64_MAX for others */
	uint64_t *ts;
	int sorted; /* ts never went backwards */
	char lasterr[512];
};

static inline void tf_read_free(struct tf_read *t)
{
	free(t->ids);
	free(t->ts);
	memset(t, 0, sizeof(*t));
}

/* Reads every record; gives up after limit results (never-ending guard). */
static inline void tf_read_all(struct sonde_reader *r, struct tf_read *t, size_t limit)
{
	size_t cap = 0;
	const struct sonde_hdr *rec;
	int n;

	memset(t, 0, sizeof(*t));
	t->sorted = 1;
	for (size_t steps = 0; steps < limit; steps++) {
		n = sonde_reader_next(r, &rec);
		if (n == 0)
			break;
		if (n < 0) {
			t->nerrors++;
			snprintf(t->lasterr, sizeof(t->lasterr), "%s",
				 sonde_reader_error(r) ? sonde_reader_error(r) : "(null)");
			continue;
		}
		if (t->nrecs == cap) {
			cap = cap ? 2 * cap : 1024;
			t->ids = realloc(t->ids, cap * sizeof(*t->ids));
			t->ts = realloc(t->ts, cap * sizeof(*t->ts));
			if (!t->ids || !t->ts)
				abort();
		}
		if (t->nrecs && rec->ts < t->ts[t->nrecs - 1])
			t->sorted = 0;
		t->ts[t->nrecs] = rec->ts;
		t->ids[t->nrecs] = rec->type == SONDE_REC_SYSCALL
					   ? ((const struct sonde_ev_syscall *)rec)->args[0]
					   : UINT64_MAX;
		t->nrecs++;
	}
}

#endif
