// SPDX-License-Identifier: GPL-2.0
/*
 * Renderers: every record type through text, flight and json, compared
 * with exact expected lines. Records are built in memory here; the
 * round trip through a trace file is in test_stat.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include <sonde/analysis.h>
#include <sonde/format.h>
#include <sonde/payload.h>
#include <sonde/render.h>

#include "check.h"

/* 2024-01-02 03:04:05.000000 UTC is mono 1000 s. */
#define WALL0 1704164645000000000ULL
#define MONO0 1000000000000ULL

static const char *const names[] = { "read", "write", "open", "close" };
static const struct sonde_meta meta = {
	.version = 1,
	.mono_ref_ns = MONO0,
	.wall_ref_ns = WALL0,
	.nsyscalls = 4,
	.syscall_names = names,
};

/* Renders n records with renderer `name`; returns malloc'd output. */
static char *render(const char *name, const struct sonde_meta *m, const struct sonde_render_opts *o,
		    const struct sonde_hdr *const *recs, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sonde_render *r;

	CHECK_EQ_INT(sonde_render_open(&r, name, f, m, o), 0);
	for (size_t i = 0; i < n; i++)
		CHECK_EQ_INT(sonde_render_record(r, recs[i]), 0);
	CHECK_EQ_INT(sonde_render_close(r), 0);
	fclose(f);
	return buf;
}

static void hdr(struct sonde_hdr *h, int type, size_t size, uint64_t ts, uint32_t pid, uint32_t tid,
		int cpu)
{
	h->type = type;
	h->size = SONDE_REC_ALIGN(size);
	h->ts = ts;
	h->pid = pid;
	h->tid = tid;
	h->cpu = cpu;
	h->flags = 0;
}

static struct sonde_ev_syscall sc(uint64_t ts, uint32_t tid, uint32_t nr, int64_t ret, uint64_t dur)
{
	struct sonde_ev_syscall e = { 0 };

	hdr(&e.hdr, SONDE_REC_SYSCALL, sizeof(e), ts, 100, tid, 1);
	e.nr = nr;
	e.ret = ret;
	e.dur = dur;
	for (int i = 0; i < 6; i++)
		e.args[i] = 0x10 * (i + 1);
	return e;
}

TEST(text_syscalls)
{
	struct sonde_ev_syscall a = sc(MONO0, 100, 0, 832, 12345);
	struct sonde_ev_syscall b = sc(MONO0 + 1000, 101, 257, -2, 4000);
	struct sonde_ev_syscall c = sc(MONO0 + 2000, 100, 231, 0, 0);
	struct sonde_ev_syscall d = sc(MONO0 + 3000, 101, 61, 0, 0);
	struct sonde_ev_syscall e = sc(MONO0 + 4000, 100, 9, 0x7f0000001000, 500);
	struct sonde_ev_syscall f = sc(MONO0 + 5000, 100, 0, -512, 1500000000);
	struct sonde_ev_syscall g = sc(MONO0 + 6000, 100, 400, 0, 0);
	const struct sonde_hdr *recs[] = { &a.hdr, &b.hdr, &c.hdr, &d.hdr, &e.hdr, &f.hdr, &g.hdr };
	char *out;

	c.hdr.flags = SONDE_SC_NORETURN;
	c.args[0] = 3;
	d.hdr.flags = SONDE_SC_UNFINISHED;
	/* built-in table: the trace names only 0..3, nr 257 is beyond it.
	 * Decoded as strace does; no memory captured: addresses. */
	out = render("text", NULL, NULL, recs, 7);
	CHECK_EQ_STR(
		out,
		"[pid   100] read(16, 0x20, 48)          = 832 <0.000012>\n"
		"[pid   101] openat(16, 0x20, O_RDONLY|0x30) = -1 ENOENT (No such file or "
		"directory) <0.000004>\n"
		"[pid   100] exit_group(3)               = ?\n"
		"[pid   101] wait4(16, 0x20, 0x30 /* W??? */, 0x40 <unfinished ...>\n"
		"[pid   100] mmap(0x10, 32, 0x30 /* PROT_??? */, 0 /* MAP_??? */|MAP_32BIT, 80, 0x60) "
		"= 0x7f0000001000 <0.000000>\n"
		"[pid   100] read(16, 0x20, 48)          = ? ERESTARTSYS (To be restarted if "
		"SA_RESTART is set) <1.500000>\n"
		"[pid   100] syscall_0x190(0x10, 0x20, 0x30, 0x40, 0x50, 0x60) = 0 <0.000000>\n");
	free(out);
	/* --raw: every syscall's raw arguments, for its arity */
	out = render("text", NULL, &(struct sonde_render_opts){ .raw = 1 }, recs, 7);
	CHECK_EQ_STR(
		out,
		"[pid   100] read(0x10, 0x20, 0x30)      = 832 <0.000012>\n"
		"[pid   101] openat(0x10, 0x20, 0x30, 0x40) = -1 ENOENT (No such file or "
		"directory) <0.000004>\n"
		"[pid   100] exit_group(0x3)             = ?\n"
		"[pid   101] wait4(0x10, 0x20, 0x30, 0x40 <unfinished ...>\n"
		"[pid   100] mmap(0x10, 0x20, 0x30, 0x40, 0x50, 0x60) = 0x7f0000001000 <0.000000>\n"
		"[pid   100] read(0x10, 0x20, 0x30)      = ? ERESTARTSYS (To be restarted if "
		"SA_RESTART is set) <1.500000>\n"
		"[pid   100] syscall_0x190(0x10, 0x20, 0x30, 0x40, 0x50, 0x60) = 0 <0.000000>\n");
	free(out);
}

TEST(text_names_from_trace_table)
{
	/* The file's table names the calls; a name that is not a syscall
	 * name (escape codes from a hostile file) is replaced by the
	 * built-in one. */
	struct sonde_ev_syscall a = sc(MONO0, 100, 1, 3, 1000);
	struct sonde_ev_syscall b = sc(MONO0, 100, 3, 0, 1000);
	const struct sonde_hdr *recs[] = { &a.hdr, &b.hdr };
	static const char *const odd[] = { "read", "write", "open", "bad name\x1b" };
	struct sonde_meta m = meta;
	struct sonde_render_opts o = { .no_dur = 1 };
	char *out;

	m.syscall_names = odd;
	out = render("text", &m, &o, recs, 2);
	CHECK_EQ_STR(out, "[pid   100] write(16, 0x20, 48)         = 3\n"
			  "[pid   100] close(16)                   = 0\n");
	free(out);
	/* A trace whose table gives nr 3 another name: the decoders'
	 * idea of nr 3 does not apply, raw arguments. */
	static const char *const other[] = { "read", "write", "open", "fsync2" };
	m.syscall_names = other;
	out = render("text", &m, &o, recs, 2);
	CHECK_EQ_STR(out, "[pid   100] write(16, 0x20, 48)         = 3\n"
			  "[pid   100] fsync2(0x10, 0x20, 0x30, 0x40, 0x50, 0x60) = 0\n");
	free(out);
}

TEST(text_timestamps)
{
	struct sonde_ev_syscall a = sc(MONO0 + 5000000, 100, 3, 0, 1000);
	struct sonde_ev_syscall b = sc(MONO0 + 7250000, 100, 3, 0, 1000);
	const struct sonde_hdr *recs[] = { &a.hdr, &b.hdr };
	struct sonde_render_opts o = { .no_dur = 1, .utc = 1 };
	char *out;

	o.ts = SONDE_TS_TOD_US;
	out = render("text", &meta, &o, recs, 2);
	CHECK_EQ_STR(out, "03:04:05.005000 [pid   100] close(16)   = 0\n"
			  "03:04:05.007250 [pid   100] close(16)   = 0\n");
	free(out);
	o.ts = SONDE_TS_EPOCH;
	out = render("text", &meta, &o, recs, 2);
	CHECK_EQ_STR(out, "1704164645.005000 [pid   100] close(16) = 0\n"
			  "1704164645.007250 [pid   100] close(16) = 0\n");
	free(out);
	o.ts = SONDE_TS_DELTA;
	out = render("text", &meta, &o, recs, 2);
	CHECK_EQ_STR(out, "     0.000000 [pid   100] close(16)     = 0\n"
			  "     0.002250 [pid   100] close(16)     = 0\n");
	free(out);
}

static struct sonde_ev_switch sw(void)
{
	struct sonde_ev_switch e = { 0 };

	hdr(&e.hdr, SONDE_REC_SWITCH, sizeof(e), MONO0 + 1000, 8862, 8862, 0);
	e.prev_prio = 115;
	e.prev_state = 1;
	e.next_pid = 0;
	e.next_tid = 0;
	e.next_prio = 120;
	memcpy(e.prev_comm, "TP09", 5);
	memcpy(e.next_comm, "swapper/0", 10);
	return e;
}

TEST(text_events)
{
	struct sonde_ev_switch s = sw();
	struct sonde_ev_wakeup w = { 0 };
	struct sonde_ev_fork fk = { 0 };
	struct sonde_ev_exit ex = { 0 }, kill = { 0 };
	struct sonde_ev_comm cm = { 0 };
	struct sonde_ev_lost lo = { 0 };
	struct {
		struct sonde_ev_exec e;
		char data[64];
	} exe = { 0 };
	struct {
		struct sonde_ev_proc p;
		char data[16];
	} pr = { 0 };
	const struct sonde_hdr *recs[] = { &s.hdr,    &w.hdr,  &fk.hdr, &exe.e.hdr, &ex.hdr,
					   &kill.hdr, &cm.hdr, &lo.hdr, &pr.p.hdr };
	static const char ed[] = "/bin/ls\0ls\0-l\0a\"b\n\xff";
	char *out;

	hdr(&w.hdr, SONDE_REC_WAKEUP, sizeof(w), MONO0 + 2000, 8883, 8883, 7);
	w.prio = 115;
	w.target_cpu = 7;
	w.waker_tid = 0;
	hdr(&fk.hdr, SONDE_REC_FORK, sizeof(fk), MONO0 + 3000, 200, 200, 1);
	fk.child_pid = 201;
	fk.child_tid = 201;
	fk.clone_flags = 0x1200011;
	memcpy(fk.child_comm, "sh", 3);
	hdr(&exe.e.hdr, SONDE_REC_EXEC, sizeof(exe.e) + sizeof(ed), MONO0 + 4000, 201, 201, 1);
	exe.e.old_tid = 201;
	exe.e.argc = 3;
	exe.e.filename_len = 8;
	exe.e.argv_len = sizeof(ed) - 8;
	memcpy(exe.e.comm, "ls", 3);
	memcpy(exe.data, ed, sizeof(ed));
	hdr(&ex.hdr, SONDE_REC_EXIT, sizeof(ex), MONO0 + 5000, 201, 201, 1);
	ex.code = 3 << 8;
	ex.hdr.flags = SONDE_EXIT_GROUP_DEAD;
	hdr(&kill.hdr, SONDE_REC_EXIT, sizeof(kill), MONO0 + 5100, 202, 202, 1);
	kill.code = 9;
	hdr(&cm.hdr, SONDE_REC_COMM, sizeof(cm), MONO0 + 6000, 200, 203, 1);
	memcpy(cm.comm, "worker\x1b", 8);
	hdr(&lo.hdr, SONDE_REC_LOST, sizeof(lo), MONO0 + 7000, 0, 0, 1);
	lo.count = 123;
	lo.kind = SONDE_LOST_RING;
	hdr(&pr.p.hdr, SONDE_REC_PROC, sizeof(pr), MONO0 + 8000, 300, 300, 0);
	pr.p.ppid = 1;
	pr.p.cmdline_len = 8;
	memcpy(pr.p.comm, "bash", 5);
	memcpy(pr.data, "bash\0-i\0", 9);

	out = render("text", &meta, NULL, recs, 9);
	CHECK_EQ_STR(
		out,
		"[pid  8862] --- sched_switch cpu=0 \"TP09\" prio=115 state=S => \"swapper/0\" "
		"pid=0 tid=0 prio=120 ---\n"
		"[pid  8883] --- sched_wakeup prio=115 target_cpu=7 waker=0 ---\n"
		"[pid   200] --- new process pid=201 flags=0x1200011 comm=\"sh\" ---\n"
		"[pid   201] --- exec \"/bin/ls\" [\"ls\", \"-l\", \"a\\\"b\\n\\377\"] ---\n"
		"[pid   201] +++ exited with 3 +++\n"
		"[pid   202] +++ killed by SIGKILL +++\n"
		"[pid   203] --- comm \"worker\\33\" ---\n"
		"--- lost 123 events on cpu 1 (ring buffer full) ---\n"
		"[pid   300] --- process ppid=1 comm=\"bash\" cmdline=[\"bash\", \"-i\"] ---\n");
	free(out);
}

TEST(flight_orders_exit_lines)
{
	/* sendto on cpu 2 from 0 to 10 us; a switch on cpu 0 at 5 us; a
	 * wakeup at 12 us: the exit line goes between them. */
	struct sonde_ev_syscall a = sc(MONO0 + 226190000, 8877, 1, 828, 10000);
	struct sonde_ev_switch s = sw();
	struct sonde_ev_wakeup w = { 0 };
	struct sonde_ev_syscall x = sc(MONO0 + 226300000, 8883, 231, 0, 0);
	const struct sonde_hdr *recs[] = { &a.hdr, &s.hdr, &w.hdr, &x.hdr };
	struct sonde_render_opts o = { .utc = 1 };
	char *out;

	a.hdr.cpu = 2;
	s.hdr.ts = MONO0 + 226195000;
	hdr(&w.hdr, SONDE_REC_WAKEUP, sizeof(w), MONO0 + 226202000, 100, 8862, 7);
	w.prio = 115;
	w.target_cpu = 0;
	x.hdr.flags = SONDE_SC_NORETURN;
	x.hdr.cpu = 7;
	out = render("flight", &meta, &o, recs, 4);
	CHECK_EQ_STR(out, "03:04:05.226190 #2 8877 write() -->\n"
			  "03:04:05.226195 #0 8862 TP09[n:-5] <-- TASK_INTERRUPTIBLE\n"
			  "03:04:05.226195 #0 0 swapper/0[n:0] -->\n"
			  "03:04:05.226200 #2 8877 write() <-- 828\n"
			  "03:04:05.226202 #7 0 (RUNQ) #0 8862 TP09[n:-5]\n"
			  "03:04:05.226300 #7 8883 exit_group() -->\n");
	free(out);
}

TEST(flight_flushes_at_close_and_errors)
{
	struct sonde_ev_syscall a = sc(MONO0, 5, 2, -13, 3000);
	const struct sonde_hdr *recs[] = { &a.hdr };
	struct sonde_render_opts o = { .utc = 1 };
	char *out = render("flight", &meta, &o, recs, 1);

	CHECK_EQ_STR(out, "03:04:05.000000 #1 5 open() -->\n"
			  "03:04:05.000003 #1 5 open() <-- -13 EACCES\n");
	free(out);
}

TEST(json_all_types)
{
	struct sonde_ev_syscall a = sc(MONO0, 100, 2, -2, 700);
	struct sonde_ev_syscall b = sc(MONO0 + 1, 100, 231, 0, 0);
	struct sonde_ev_switch s = sw();
	struct sonde_ev_lost lo = { 0 };
	struct sonde_ev_exit kill = { 0 };
	struct {
		struct sonde_ev_exec e;
		char data[32];
	} exe = { 0 };
	static const char ed[] = "/x\0a\"\\\x01\xc3\xa9\xff\0";
	const struct sonde_hdr *recs[] = { &a.hdr, &b.hdr, &s.hdr, &lo.hdr, &kill.hdr, &exe.e.hdr };
	char *out;

	b.hdr.flags = SONDE_SC_NORETURN;
	hdr(&lo.hdr, SONDE_REC_LOST, sizeof(lo), MONO0 + 3, 0, 0, 1);
	lo.count = 7;
	lo.kind = SONDE_LOST_RING;
	hdr(&kill.hdr, SONDE_REC_EXIT, sizeof(kill), MONO0 + 4, 9, 9, 0);
	kill.code = 11 | 0x80;
	kill.hdr.flags = SONDE_EXIT_GROUP_DEAD;
	hdr(&exe.e.hdr, SONDE_REC_EXEC, sizeof(exe.e) + sizeof(ed) - 1, MONO0 + 5, 9, 9, 0);
	exe.e.old_tid = 9;
	exe.e.argc = 1;
	exe.e.filename_len = 3;
	exe.e.argv_len = sizeof(ed) - 1 - 3;
	memcpy(exe.e.comm, "x", 2);
	memcpy(exe.data, ed, sizeof(ed));
	out = render("json", &meta, NULL, recs, 6);
	CHECK_EQ_STR(out,
		     "{\"type\":\"syscall\",\"ts\":1000000000000,\"cpu\":1,\"pid\":100,\"tid\":100,"
		     "\"name\":\"open\",\"nr\":2,\"args\":[16,32,48],\"ret\":-2,\"dur\":700,"
		     "\"errno\":\"ENOENT\",\"errno_nr\":2,\"noreturn\":false,\"unfinished\":false,"
		     "\"argv\":{\"pathname\":{\"addr\":\"0x10\",\"unreadable\":false},"
		     "\"flags\":[\"O_RDONLY\",\"0x20\"],\"mode\":48}}\n"
		     "{\"type\":\"syscall\",\"ts\":1000000000001,\"cpu\":1,\"pid\":100,\"tid\":100,"
		     "\"name\":\"exit_group\",\"nr\":231,\"args\":[16],\"ret\":0,\"dur\":0,"
		     "\"noreturn\":true,\"unfinished\":false,\"argv\":{\"error_code\":16}}\n"
		     "{\"type\":\"switch\",\"ts\":1000000001000,\"cpu\":0,\"pid\":8862,\"tid\":"
		     "8862,\"prev_comm\":\"TP09\",\"prev_prio\":115,\"prev_state\":1,\"prev_state_"
		     "name\":\"TASK_INTERRUPTIBLE\",\"next_pid\":0,\"next_tid\":0,\"next_comm\":"
		     "\"swapper/0\",\"next_prio\":120}\n"
		     "{\"type\":\"lost\",\"ts\":1000000000003,\"cpu\":1,\"pid\":0,\"tid\":0,"
		     "\"count\":7,\"kind\":\"ring\"}\n"
		     "{\"type\":\"exit\",\"ts\":1000000000004,\"cpu\":0,\"pid\":9,\"tid\":9,"
		     "\"status\":139,\"signal\":11,\"signal_name\":\"SIGSEGV\",\"core_dumped\":"
		     "true,\"group_dead\":true,\"worker\":false}\n"
		     "{\"type\":\"exec\",\"ts\":1000000000005,\"cpu\":0,\"pid\":9,\"tid\":9,"
		     "\"filename\":\"/"
		     "x\",\"argv\":[\"a\\\"\\\\\\u0001\xc3\xa9\\udcff\"],\"argc\":1,\"argv_"
		     "truncated\":false,\"old_tid\":9,\"comm\":\"x\"}\n");
	free(out);
}

/* write(1, "hello\377", 6) with its captured buffer, payload record first
 * (entry and exit may run on different CPUs: any order within a call). */
struct write_call {
	struct {
		struct sonde_ev_payload p;
		uint8_t data[8];
	} pl;
	struct sonde_ev_syscall sc;
	const struct sonde_hdr *recs[2];
};

static void write_call(struct write_call *w)
{
	memset(w, 0, sizeof(*w));
	w->sc = sc(MONO0, 100, 1, 6, 2000);
	w->sc.args[0] = 1;
	w->sc.args[1] = 0x7ffd0000;
	w->sc.args[2] = 6;
	hdr(&w->pl.p.hdr, SONDE_REC_PAYLOAD, sizeof(w->pl), MONO0, 100, 100, 0);
	w->pl.p.addr = 0x7ffd0000;
	w->pl.p.requested = w->pl.p.returned = w->pl.p.captured = w->pl.p.chunk = 6;
	w->pl.p.nr = 1;
	w->pl.p.arg = 1;
	w->pl.p.phase = 0;
	memcpy(w->pl.data, "hello\377", 6);
	w->recs[0] = &w->pl.p.hdr;
	w->recs[1] = &w->sc.hdr;
}

TEST(payloads_decoded_everywhere)
{
	struct sonde_render_opts o = { .utc = 1 };
	struct write_call w;
	char *out;

	write_call(&w);
	out = render("text", &meta, NULL, w.recs, 2);
	CHECK_EQ_STR(out, "[pid   100] write(1, \"hello\\377\", 6)    = 6 <0.000002>\n");
	free(out);
	out = render("flight", &meta, &o, w.recs, 2);
	CHECK_EQ_STR(out, "03:04:05.000000 #1 100 write() -->\n"
			  "03:04:05.000002 #1 100 write() <-- 6\n");
	free(out);
	o.payload = SONDE_PAYLOAD_HEX;
	out = render("json", &meta, &o, w.recs, 2);
	CHECK_EQ_STR(out,
		     "{\"type\":\"syscall\",\"ts\":1000000000000,\"cpu\":1,\"pid\":100,\"tid\":100,"
		     "\"name\":\"write\",\"nr\":1,\"args\":[1,2147287040,6],\"ret\":6,\"dur\":2000,"
		     "\"noreturn\":false,\"unfinished\":false,\"argv\":{\"fd\":1,\"buf\":"
		     "\"hello\\udcff\",\"count\":6},\"payload\":[{\"arg\":1,\"name\":\"buf\","
		     "\"phase\":\"entry\",\"addr\":\"0x7ffd0000\",\"requested\":6,\"returned\":6,"
		     "\"captured\":6,\"unreadable\":false,\"encoding\":\"hex\",\"data\":"
		     "\"68656c6c6fff\"}]}\n");
	free(out);
	o.payload = SONDE_PAYLOAD_BASE64;
	o.strsize = 2;
	out = render("json", &meta, &o, w.recs, 2);
	CHECK(strstr(out, "\"argv\":{\"fd\":1,\"buf\":{\"data\":\"he\",\"truncated\":true,"
			  "\"length\":6},\"count\":6}"));
	CHECK(strstr(out, "\"encoding\":\"base64\",\"data\":\"aGVsbG//\"}]}\n"));
	free(out);
	/* memory that could not be read: flagged, no bytes */
	w.pl.p.flags = SONDE_PLR_UNREADABLE;
	w.pl.p.captured = w.pl.p.chunk = 0;
	w.pl.p.hdr.size = sizeof(w.pl.p);
	out = render("json", &meta, &o, w.recs, 2);
	CHECK(strstr(out, "\"buf\":{\"addr\":\"0x7ffd0000\",\"unreadable\":true}"));
	CHECK(strstr(out,
		     "\"captured\":0,\"unreadable\":true,\"encoding\":\"base64\",\"data\":\"\"}"));
	free(out);
}

TEST(malformed_records_are_skipped)
{
	struct sonde_ev_syscall a = sc(MONO0, 100, 0, 1, 1);
	struct {
		struct sonde_ev_exec e;
		char data[8];
	} exe = { 0 };
	struct sonde_hdr unknown;
	const struct sonde_hdr *recs[] = { &a.hdr, &exe.e.hdr, &unknown };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct sonde_render *r;

	a.hdr.size = sizeof(a) - 8; /* shorter than a syscall record */
	hdr(&exe.e.hdr, SONDE_REC_EXEC, sizeof(exe), MONO0, 1, 1, 0);
	exe.e.filename_len = 4;
	exe.e.argv_len = 100; /* beyond the record */
	hdr(&unknown, 77, sizeof(unknown), MONO0, 1, 1, 0);
	CHECK_EQ_INT(sonde_render_open(&r, "text", f, &meta, NULL), 0);
	for (int i = 0; i < 3; i++)
		CHECK_EQ_INT(sonde_render_record(r, recs[i]), 0);
	CHECK_EQ_INT(sonde_render_flush(r), 0);
	CHECK_EQ_INT(r->skipped, 3);
	CHECK_EQ_INT(sonde_render_close(r), 0);
	fclose(f);
	CHECK_EQ_STR(buf, "");
	free(buf);
	CHECK_EQ_INT(sonde_render_open(&r, "nosuch", stdout, &meta, NULL), -EINVAL);
}

TEST(write_errors_are_reported)
{
	struct sonde_ev_syscall a = sc(MONO0, 100, 0, 1, 1);
	struct sonde_ev_syscall b = sc(MONO0 + 1, 100, 0, 1, 1);
	FILE *f = fopen("/dev/full", "w");
	struct sonde_render *r;

	if (!f) {
		CHECK(!"/dev/full missing");
		return;
	}
	setvbuf(f, NULL, _IONBF, 0);
	CHECK_EQ_INT(sonde_render_open(&r, "json", f, &meta, NULL), 0);
	/* A call waits for its payloads (same timestamp): the next
	 * timestamp renders it, and that record reports the failure. */
	CHECK_EQ_INT(sonde_render_record(r, &a.hdr), 0);
	CHECK(sonde_render_record(r, &b.hdr) < 0);
	CHECK(sonde_render_close(r) < 0);
	fclose(f);
}

/* xorshift64: deterministic random records */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * Hostile input: random bytes in records of every type (and unknown
 * ones), with sizes from 24 to 600 bytes, through every renderer, the
 * task table, the filters and the statistics. Under ASan/UBSan this must
 * neither crash nor read out of bounds; records too short for their type
 * are counted as skipped, the others rendered.
 */
TEST(random_records_are_safe)
{
	static uint64_t buf[80];
	const struct sonde_renderer *const *ops = sonde_renderers();
	struct sonde_stats *st = sonde_stats_new(SONDE_STATS_PER_PROCESS);
	struct sonde_filter f;
	uint64_t seed = 0x9e3779b97f4a7c15ULL, fits = 0, skipped = 0, payloads = 0;
	FILE *null = fopen("/dev/null", "w");
	struct sonde_render *r[3];

	sonde_filter_init(&f);
	CHECK(!sonde_filter_parse_pids(&f, "1,2,3", (char[64]){ 0 }, 64));
	for (int k = 0; k < 3; k++)
		CHECK_EQ_INT(sonde_render_open(&r[k], ops[k]->name, null, &meta, NULL), 0);
	for (int i = 0; i < 20000; i++) {
		struct sonde_hdr *h = (struct sonde_hdr *)buf;

		for (size_t j = 0; j < sizeof(buf) / 8; j++)
			buf[j] = rnd(&seed);
		h->type = rnd(&seed) % (SONDE_REC_TYPE_MAX + 2);
		h->size = SONDE_REC_ALIGN(24 + rnd(&seed) % (sizeof(buf) - 24 - 7));
		h->pid = rnd(&seed) % 4;
		h->ts = MONO0 + i * 1000 + rnd(&seed) % 1000;
		if (i % 3 == 0 && h->type == SONDE_REC_EXEC)
			((struct sonde_ev_exec *)h)->filename_len %= 64,
				((struct sonde_ev_exec *)h)->argv_len %= 64;
		if (i % 3 == 0 && h->type == SONDE_REC_PROC)
			((struct sonde_ev_proc *)h)->cmdline_len %= 64;
		if (i % 5 == 0 && h->type == SONDE_REC_PAYLOAD)
			((struct sonde_ev_payload *)h)->captured %= 4096;
		fits += sonde_rec_fits(h);
		/* payload records the grouping takes are never shown or
		 * skipped: they go with their syscall */
		payloads += h->type == SONDE_REC_PAYLOAD &&
			    h->size >= sizeof(struct sonde_ev_payload) &&
			    ((struct sonde_ev_payload *)h)->captured <= SONDE_SNAPLEN_MAX;
		for (int k = 0; k < 3; k++)
			CHECK_EQ_INT(sonde_render_record(r[k], h), 0);
		CHECK_EQ_INT(sonde_stats_add(st, h), 0);
		sonde_filter_match(&f, h);
	}
	for (int k = 0; k < 3; k++)
		CHECK_EQ_INT(sonde_render_flush(r[k]), 0);
	skipped = r[0]->skipped;
	CHECK_EQ_INT(skipped, 20000 - fits - payloads);
	CHECK(payloads > 100);
	CHECK(fits > 1000);
	for (int k = 0; k < 3; k++)
		CHECK_EQ_INT(sonde_render_close(r[k]), 0);
	sonde_stats_free(st);
	fclose(null);
}

TEST(line_quoting)
{
	struct sonde_line l = { 0 };

	sonde_line_cstr(&l,
			"a\0"
			"1\t\x7f",
			5);
	CHECK_EQ_STR(l.buf, "\"a\\0001\\t\\177\"");
	sonde_line_reset(&l);
	/* overlong encoding and a lone continuation byte are not UTF-8 */
	sonde_line_json_str(&l, "\xc0\xaf\x80ok\xe2\x82\xac", 8);
	CHECK_EQ_STR(l.buf, "\"\\udcc0\\udcaf\\udc80ok\xe2\x82\xac\"");
	sonde_line_free(&l);
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	RUN(text_syscalls);
	RUN(text_names_from_trace_table);
	RUN(text_timestamps);
	RUN(text_events);
	RUN(flight_orders_exit_lines);
	RUN(flight_flushes_at_close_and_errors);
	RUN(json_all_types);
	RUN(payloads_decoded_everywhere);
	RUN(malformed_records_are_skipped);
	RUN(write_errors_are_reported);
	RUN(random_records_are_safe);
	RUN(line_quoting);
	CHECK_EXIT();
}
