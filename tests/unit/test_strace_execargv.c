// SPDX-License-Identifier: GPL-2.0
/*
 * execve argv strings the recorder could not read at entry, taken from
 * the exec record the call produced (src/decode/strace/execargv.h): the
 * records of a call go through the feed as a trace holds them, and the
 * line must show strace's strings only when the exec record is the call's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>

#include "check.h"
#include <sonde/strace.h>
#include <sonde/payload.h>
#include <sonde/render.h>

#define ARGV 0x7ffc0000ull
#define S0 0x5651000002cull /* "rec_child" */
#define S1 0x5651000003cull /* "hello" */
#define S2 0x56510000036ull /* "world" */
#define TID 7185u
#define T0 1000000000ull /* entry of the execve */
#define DUR 275000ull

static uint64_t rbuf[4096];
static char out[16384];

static const struct sonde_hdr *syscall_rec(uint32_t tid, uint32_t nr, int64_t ret,
					   uint64_t ts, uint64_t a1)
{
	static struct sonde_ev_syscall sc;

	memset(&sc, 0, sizeof(sc));
	sc.hdr.ts = ts;
	sc.hdr.pid = sc.hdr.tid = tid;
	sc.hdr.type = SONDE_REC_SYSCALL;
	sc.hdr.size = sizeof(sc);
	sc.nr = nr;
	sc.ret = ret;
	sc.dur = DUR;
	sc.args[0] = 0x7ffc1000;
	sc.args[1] = a1;
	return &sc.hdr;
}

/* A payload record of the execve at T0: data, or unreadable when NULL. */
static const struct sonde_hdr *pl_rec(int arg, uint64_t addr, const void *data, uint32_t len,
				      uint8_t flags)
{
	struct sonde_ev_payload *p = (void *)rbuf;

	memset(rbuf, 0, sizeof(*p) + len + 8);
	p->hdr.ts = T0;
	p->hdr.pid = p->hdr.tid = TID;
	p->hdr.type = SONDE_REC_PAYLOAD;
	p->hdr.size = (uint16_t)((sizeof(*p) + len + 7) & ~7u);
	p->addr = addr;
	p->requested = p->returned = p->captured = p->chunk = data ? len : 0;
	p->nr = __NR_execve;
	p->arg = (uint8_t)arg;
	p->flags = flags;
	if (data)
		memcpy(p + 1, data, len);
	return &p->hdr;
}

static const struct sonde_hdr *exec_rec(uint32_t tid, uint64_t ts, uint32_t argc,
					const char *args, uint16_t alen)
{
	static const char fn[] = "/x/rec_child";
	struct sonde_ev_exec *e = (void *)rbuf;

	memset(rbuf, 0, sizeof(*e) + sizeof(fn) + alen + 8);
	e->hdr.ts = ts;
	e->hdr.pid = e->hdr.tid = tid;
	e->old_tid = tid;
	e->hdr.type = SONDE_REC_EXEC;
	e->hdr.size = (uint16_t)((sizeof(*e) + sizeof(fn) + alen + 7) & ~7u);
	e->argc = argc;
	e->filename_len = sizeof(fn);
	e->argv_len = alen;
	memcpy(e + 1, fn, sizeof(fn));
	memcpy((char *)(e + 1) + sizeof(fn), args, alen);
	return &e->hdr;
}

static const char ARGS[] = "rec_child\0hello\0world"; /* sizeof: the last NUL too */

typedef int (*feed_fn)(void *ctx, const struct sonde_hdr *h);

/* The execve's records, argv strings unreadable, in the reader's order. */
static void feed_execve(feed_fn feed, void *ctx, int64_t ret, int readable1)
{
	uint64_t arr[4] = { S0, S1, S2, 0 };

	CHECK_EQ_INT(feed(ctx, syscall_rec(TID, __NR_execve, ret, T0, ARGV)), 0);
	CHECK_EQ_INT(feed(ctx, pl_rec(0, 0x7ffc1000, "/x/rec_child", 12,
				      SONDE_PLR_STRING | SONDE_PLR_NUL)), 0);
	CHECK_EQ_INT(feed(ctx, pl_rec(1, ARGV, arr, sizeof(arr), 0)), 0);
	CHECK_EQ_INT(feed(ctx, pl_rec(1, S0, NULL, 0, SONDE_PLR_UNREADABLE)), 0);
	if (readable1 > 0)
		CHECK_EQ_INT(feed(ctx, pl_rec(1, S1, "hello", 5, SONDE_PLR_STRING | SONDE_PLR_NUL)), 0);
	else if (readable1 < 0)
		CHECK_EQ_INT(feed(ctx, pl_rec(1, S1, "jello", 5, SONDE_PLR_STRING | SONDE_PLR_NUL)), 0);
	else
		CHECK_EQ_INT(feed(ctx, pl_rec(1, S1, NULL, 0, SONDE_PLR_UNREADABLE)), 0);
	CHECK_EQ_INT(feed(ctx, pl_rec(1, S2, NULL, 0, SONDE_PLR_UNREADABLE)), 0);
}

static int feed_strace(void *ctx, const struct sonde_hdr *h)
{
	return sonde_strace_feed(ctx, h);
}

struct run {
	struct sonde_strace *st;
	FILE *f;
};

static void run_open(struct run *r)
{
	struct sonde_strace_opts o;

	sonde_strace_opts_init(&o);
	o.pid_prefix = 1;
	memset(out, 0, sizeof(out));
	r->f = fmemopen(out, sizeof(out) - 1, "w");
	r->st = sonde_strace_new(&o, r->f);
}

static const char *run_close(struct run *r)
{
	CHECK_EQ_INT(sonde_strace_flush(r->st), 0);
	sonde_strace_free(r->st);
	fclose(r->f);
	return out;
}

#define LINE_STR "7185  execve(\"/x/rec_child\", [\"rec_child\", \"hello\", \"world\"], NULL) = 0\n"
#define LINE_ADDR "7185  execve(\"/x/rec_child\", [0x5651000002c, 0x5651000003c, 0x56510000036], NULL) = 0\n"

/* The exec record comes during the call: its strings replace the addresses. */
TEST(substituted)
{
	struct run r;

	run_open(&r);
	feed_execve(feed_strace, r.st, 0, 0);
	CHECK_EQ_INT(sonde_strace_feed(r.st, exec_rec(TID, T0 + 1000, 3, ARGS, sizeof(ARGS))), 0);
	CHECK_EQ_STR(run_close(&r), LINE_STR);
}

/* Strings the trace holds stay; only the missing ones come from the record. */
TEST(mixed)
{
	struct run r;

	run_open(&r);
	feed_execve(feed_strace, r.st, 0, 1);
	CHECK_EQ_INT(sonde_strace_feed(r.st, exec_rec(TID, T0 + 1000, 3, ARGS, sizeof(ARGS))), 0);
	CHECK_EQ_STR(run_close(&r), LINE_STR);
}

/* A string the trace holds contradicts the record: not this call's argv. */
TEST(contradicted)
{
	struct run r;

	run_open(&r);
	feed_execve(feed_strace, r.st, 0, -1);
	CHECK_EQ_INT(sonde_strace_feed(r.st, exec_rec(TID, T0 + 1000, 3, ARGS, sizeof(ARGS))), 0);
	CHECK_EQ_STR(run_close(&r),
		     "7185  execve(\"/x/rec_child\", [0x5651000002c, \"jello\", 0x56510000036], NULL) = 0\n");
}

/* No exec record (lost): the addresses stay, and the line is not lost. */
TEST(no_exec_record)
{
	struct run r;

	run_open(&r);
	feed_execve(feed_strace, r.st, 0, 0);
	CHECK_EQ_STR(run_close(&r), LINE_ADDR);
}

/* Another thread's exec, one after the call's exit, a script's argv
 * (the interpreter adds arguments): none is this call's. */
TEST(not_this_call)
{
	static const char SCRIPT[] = "/bin/sh\0rec_child\0hello\0world";
	struct run r;

	run_open(&r);
	feed_execve(feed_strace, r.st, 0, 0);
	CHECK_EQ_INT(sonde_strace_feed(r.st, exec_rec(TID + 1, T0 + 1000, 3, ARGS, sizeof(ARGS))), 0);
	CHECK_EQ_INT(sonde_strace_feed(r.st, exec_rec(TID, T0 + DUR + 1, 3, ARGS, sizeof(ARGS))), 0);
	CHECK_EQ_STR(run_close(&r), LINE_ADDR);

	run_open(&r);
	feed_execve(feed_strace, r.st, 0, 0);
	CHECK_EQ_INT(sonde_strace_feed(r.st, exec_rec(TID, T0 + 1000, 4, SCRIPT, sizeof(SCRIPT))), 0);
	CHECK_EQ_STR(run_close(&r), LINE_ADDR);
}

/* A failed execve never waits for, nor takes, an exec record. */
TEST(failed)
{
	struct run r;

	run_open(&r);
	feed_execve(feed_strace, r.st, -2, 0);
	CHECK_EQ_INT(sonde_strace_feed(r.st, exec_rec(TID, T0 + 1000, 3, ARGS, sizeof(ARGS))), 0);
	CHECK_EQ_STR(run_close(&r),
		     "7185  execve(\"/x/rec_child\", [0x5651000002c, 0x5651000003c, 0x56510000036], NULL) = -1 ENOENT (No such file or directory)\n");
}

/* A record cut short (SONDE_EXEC_ARGV_TRUNC): its last string may be cut. */
TEST(truncated_record)
{
	struct run r;

	run_open(&r);
	/* The recorder wrote a NUL over the last byte it read: "wo". */
	static const char CUT[] = "rec_child\0hello\0wo";
	const struct sonde_hdr *h;

	feed_execve(feed_strace, r.st, 0, 0);
	h = exec_rec(TID, T0 + 1000, 3, CUT, sizeof(CUT));
	((struct sonde_hdr *)h)->flags = SONDE_EXEC_ARGV_TRUNC;
	CHECK_EQ_INT(sonde_strace_feed(r.st, h), 0);
	CHECK_EQ_STR(run_close(&r),
		     "7185  execve(\"/x/rec_child\", [\"rec_child\", \"hello\", 0x56510000036], NULL) = 0\n");
}

/* Records of other tasks between the call and its exec record wait, and
 * come out in order; the live horizon does not release the call early. */
TEST(order_and_horizon)
{
	const struct sonde_hdr *h;
	struct run r;

	run_open(&r);
	feed_execve(feed_strace, r.st, 0, 0);
	h = syscall_rec(42, __NR_getpid, 42, T0 + 500, 0);
	((struct sonde_ev_syscall *)h)->dur = 1000;
	CHECK_EQ_INT(sonde_strace_feed(r.st, h), 0);
	CHECK_EQ_INT(sonde_strace_advance(r.st, T0 + 600), 0);
	fflush(r.f);
	CHECK_EQ_STR(out, "");
	CHECK_EQ_INT(sonde_strace_feed(r.st, exec_rec(TID, T0 + 1000, 3, ARGS, sizeof(ARGS))), 0);
	CHECK_EQ_STR(run_close(&r),
		     "7185  execve(\"/x/rec_child\", [\"rec_child\", \"hello\", \"world\"], NULL <unfinished ...>\n"
		     "42    getpid()                          = 42\n"
		     "7185  <... execve resumed>)             = 0\n");
}

/* The exec record delivered before the call (a live record late past the
 * reorder window) is found all the same. */
TEST(exec_first)
{
	struct run r;

	run_open(&r);
	CHECK_EQ_INT(sonde_strace_feed(r.st, exec_rec(TID, T0 + 1000, 3, ARGS, sizeof(ARGS))), 0);
	feed_execve(feed_strace, r.st, 0, 0);
	CHECK_EQ_STR(run_close(&r), LINE_STR);
}

/* JSON: the strings, and which elements came from the exec record. */
static struct sonde_line jargs, jres;

static int json_call(void *ctx, const struct sonde_call *c)
{
	struct sonde_strace_opts o;

	(void)ctx;
	sonde_strace_opts_init(&o);
	o.strsize = 0;
	return sonde_strace_json(&o, c, &jargs, &jres);
}

static int json_rec(void *ctx, const struct sonde_hdr *h)
{
	(void)ctx;
	(void)h;
	return 0;
}

static int feed_calls(void *ctx, const struct sonde_hdr *h)
{
	return sonde_calls_feed(ctx, h);
}

TEST(json)
{
	struct sonde_calls *g = sonde_calls_new(json_call, json_rec, NULL);

	feed_execve(feed_calls, g, 0, 1);
	CHECK_EQ_INT(sonde_calls_advance(g, T0 + 600), 0);
	CHECK_EQ_INT(jargs.len, 0);
	CHECK_EQ_INT(sonde_calls_feed(g, exec_rec(TID, T0 + 1000, 3, ARGS, sizeof(ARGS))), 0);
	CHECK_EQ_INT(sonde_calls_flush(g), 0);
	sonde_calls_free(g);
	CHECK_EQ_STR(jargs.buf, "{\"pathname\":\"/x/rec_child\",\"argv\":[\"rec_child\",\"hello\",\"world\"],\"envp\":null}");
	CHECK_EQ_STR(jres.buf, "\"argv_from_exec\":[0,2]");
	sonde_line_free(&jargs);
	sonde_line_free(&jres);
}

int main(void)
{
	RUN(substituted);
	RUN(mixed);
	RUN(contradicted);
	RUN(no_exec_record);
	RUN(not_this_call);
	RUN(failed);
	RUN(truncated_record);
	RUN(order_and_horizon);
	RUN(exec_first);
	RUN(json);
	CHECK_EXIT();
}
