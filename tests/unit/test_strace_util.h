/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the strace decoder tests: build a syscall record with its
 * captured memory and format it. Expected strings in the tests are what
 * Debian's strace 6.1 prints for the same call (checked on this machine).
 */
#ifndef SONDE_TEST_STRACE_UTIL_H
#define SONDE_TEST_STRACE_UTIL_H

#include <string.h>
#include <sys/syscall.h>
#include <sonde/strace.h>

#define TC_MAXPL 24
#define TC_MEM 8192

struct tcall {
	struct sonde_ev_syscall sc;
	struct sonde_payload pl[TC_MAXPL];
	uint8_t mem[TC_MAXPL][TC_MEM];
	unsigned int npl;
	struct sonde_call call;
	char out[16384];
};

static inline struct tcall *tc_new(struct tcall *t, unsigned int nr, int64_t ret, uint64_t a0,
				   uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	memset(t, 0, sizeof(*t));
	t->sc.hdr.type = SONDE_REC_SYSCALL;
	t->sc.hdr.size = sizeof(t->sc);
	t->sc.hdr.pid = t->sc.hdr.tid = 1000;
	t->sc.nr = nr;
	t->sc.ret = ret;
	t->sc.args[0] = a0;
	t->sc.args[1] = a1;
	t->sc.args[2] = a2;
	t->sc.args[3] = a3;
	t->sc.args[4] = a4;
	t->sc.args[5] = a5;
	return t;
}

/* Hands t to the renderer as a call of tid (in process pid) entering at
 * ts and lasting dur, in µs; returns what sonde_strace_call does. */
static inline int tc_feed(struct sonde_strace *st, struct tcall *t, uint32_t tid, uint32_t pid,
			  uint64_t ts, uint64_t dur)
{
	t->sc.hdr.tid = tid;
	t->sc.hdr.pid = pid;
	t->sc.hdr.ts = ts * 1000;
	t->sc.dur = dur * 1000;
	t->call.sc = &t->sc;
	t->call.pl = t->pl;
	t->call.npl = t->npl;
	return sonde_strace_call(st, &t->call);
}

/* Captured memory at addr. */
static inline void tc_mem(struct tcall *t, int phase, int arg, uint64_t addr, const void *data,
			  size_t len)
{
	struct sonde_payload *p = &t->pl[t->npl];

	if (len > TC_MEM)
		len = TC_MEM;
	memcpy(t->mem[t->npl], data, len);
	p->addr = addr;
	p->data = t->mem[t->npl];
	p->requested = p->returned = p->captured = (uint32_t)len;
	p->arg = (uint8_t)arg;
	p->phase = (uint8_t)phase;
	t->npl++;
}

/* A NUL-terminated string read at entry. */
static inline void tc_str(struct tcall *t, int arg, uint64_t addr, const char *s)
{
	tc_mem(t, SONDE_PL_ENTRY, arg, addr, s, strlen(s));
	t->pl[t->npl - 1].flags = SONDE_PLF_STRING | SONDE_PLF_NUL;
}

static inline void tc_unreadable(struct tcall *t, int phase, int arg, uint64_t addr)
{
	struct sonde_payload *p = &t->pl[t->npl++];

	p->addr = addr;
	p->arg = (uint8_t)arg;
	p->phase = (uint8_t)phase;
	p->flags = SONDE_PLF_UNREADABLE;
}

static inline const char *tc_fmt_opts(struct tcall *t, const struct sonde_strace_opts *o)
{
	t->call.sc = &t->sc;
	t->call.pl = t->pl;
	t->call.npl = t->npl;
	sonde_strace_format(NULL, o, &t->call, t->out, sizeof(t->out));
	return t->out;
}

static inline const char *tc_fmt(struct tcall *t)
{
	struct sonde_strace_opts o;

	sonde_strace_opts_init(&o);
	return tc_fmt_opts(t, &o);
}

#endif
