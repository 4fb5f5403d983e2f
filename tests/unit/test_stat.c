// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics and the scan over a synthetic trace written with the format
 * writer and read back with the reader: exact numbers, the exact strace -c
 * style table, histograms, JSON, per-process groups, the filters
 * (-p, -e trace=, -Z, --events, --since/--until), and the sort's ties.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <sonde/analysis.h>
#include <sonde/format.h>
#include <sonde/render.h>

#include "check.h"

#define T0 1000000000000ULL

static char trace_path[64];

static void put(struct sonde_writer *w, const struct sonde_hdr *h)
{
	CHECK_EQ_INT(sonde_writer_append(w, h->cpu, h), 0);
}

static void put_sc(struct sonde_writer *w, uint64_t ts, uint32_t pid, uint32_t tid, int cpu,
		   const char *name, int64_t ret, uint64_t dur, int flags)
{
	struct sonde_ev_syscall e = { 0 };

	e.hdr = (struct sonde_hdr){ .ts = ts,
				    .pid = pid,
				    .tid = tid,
				    .type = SONDE_REC_SYSCALL,
				    .size = sizeof(e),
				    .cpu = cpu,
				    .flags = flags };
	e.nr = sonde_syscall_lookup(name);
	e.ret = ret;
	e.dur = dur;
	e.args[0] = 3;
	put(w, &e.hdr);
}

static void put_exec(struct sonde_writer *w, uint64_t ts, uint32_t pid, int cpu, const char *comm)
{
	struct {
		struct sonde_ev_exec e;
		char data[16];
	} x = { 0 };

	x.e.hdr = (struct sonde_hdr){ .ts = ts,
				      .pid = pid,
				      .tid = pid,
				      .type = SONDE_REC_EXEC,
				      .size = sizeof(x),
				      .cpu = cpu };
	x.e.old_tid = pid;
	x.e.argc = 1;
	x.e.filename_len = 3;
	x.e.argv_len = 2;
	strcpy(x.e.comm, comm);
	memcpy(x.data, "/x\0x", 5);
	put(w, &x.e.hdr);
}

/*
 * pid 100 ("main") on cpu 0, pid 200 thread 201 ("worker") on cpu 1:
 *   +0us   100 read = 10       1.0us    +40us  201 write = 5     64.0us
 *   +10us  100 openat = -2     2.0us    +50us  100 openat = 3     4.0us
 *   +20us  201 read = -4       0.6us    +60us  100 read = 0       8.0us
 *   +30us  100 read = 10       3.0us    +70us  100 exit_group     (no return)
 * plus two exec records and a context switch, which stats ignore.
 */
static int write_trace(void)
{
	struct sonde_meta meta = {
		.host = "h",
		.kernel = "6.18",
		.machine = "x86_64",
		.ncpus = 2,
		.mono_ref_ns = T0,
		.wall_ref_ns = 1704164645000000000ULL,
		.cmdline = "test",
		.nsyscalls = sonde_syscall_count(),
		.syscall_names = sonde_syscall_table(),
	};
	struct sonde_ev_switch sw = { 0 };
	struct sonde_writer *w;
	char err[256];
	int fd;

	strcpy(trace_path, "/tmp/sonde-test-stat-XXXXXX");
	fd = mkstemp(trace_path);
	if (fd < 0)
		return -1;
	close(fd);
	if (sonde_writer_open(&w, trace_path, &meta, NULL, err, sizeof(err))) {
		fprintf(stderr, "writer: %s\n", err);
		return -1;
	}
	put_exec(w, T0 - 2000, 100, 0, "main");
	put_exec(w, T0 - 1000, 200, 1, "worker");
	put_sc(w, T0, 100, 100, 0, "read", 10, 1000, 0);
	put_sc(w, T0 + 10000, 100, 100, 0, "openat", -2, 2000, 0);
	put_sc(w, T0 + 30000, 100, 100, 0, "read", 10, 3000, 0);
	sw.hdr = (struct sonde_hdr){ .ts = T0 + 35000,
				     .pid = 100,
				     .tid = 100,
				     .type = SONDE_REC_SWITCH,
				     .size = sizeof(sw),
				     .cpu = 0 };
	put(w, &sw.hdr);
	put_sc(w, T0 + 50000, 100, 100, 0, "openat", 3, 4000, 0);
	put_sc(w, T0 + 60000, 100, 100, 0, "read", 0, 8000, 0);
	put_sc(w, T0 + 70000, 100, 100, 0, "exit_group", 0, 0, SONDE_SC_NORETURN);
	put_sc(w, T0 + 20000, 200, 201, 1, "read", -4, 600, 0);
	put_sc(w, T0 + 40000, 200, 201, 1, "write", 5, 64000, 0);
	return sonde_writer_close(w);
}

struct run {
	struct sonde_stats *stats;
	struct sonde_tasks *tasks;
	uint64_t n;
};

static int run_one(void *ctx, const struct sonde_hdr *rec)
{
	struct run *r = ctx;

	r->n++;
	return sonde_stats_add(r->stats, rec);
}

/* Scans the trace with o (filters) and reports with rep into a string. */
static char *scan_report(struct sonde_scan_opts *o, int per_process, int json, int hist,
			 uint64_t *matched)
{
	struct run run = { sonde_stats_new(per_process ? SONDE_STATS_PER_PROCESS : 0),
			   sonde_tasks_new(), 0 };
	struct sonde_stats_report rep = { .hist = hist };
	struct sonde_scan_stats st;
	struct sonde_reader *r;
	char err[256], *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (sonde_reader_open(&r, trace_path, err, sizeof(err))) {
		fprintf(stderr, "reader: %s\n", err);
		check_failed_ = 1;
		return strdup("");
	}
	o->fn = run_one;
	o->ctx = &run;
	o->tasks = run.tasks;
	CHECK_EQ_INT(sonde_scan(r, o, &st), 0);
	CHECK_EQ_INT(st.bad_chunks, 0);
	CHECK_EQ_INT(st.first_ts, T0 - 2000);
	*matched = run.n;
	rep.names = sonde_sc_names_new(sonde_reader_meta(r));
	rep.tasks = run.tasks;
	f = open_memstream(&buf, &len);
	CHECK_EQ_INT(json ? sonde_stats_report_json(f, run.stats, &rep)
			  : sonde_stats_report_text(f, run.stats, &rep),
		     0);
	fclose(f);
	sonde_sc_names_free((struct sonde_sc_names *)rep.names);
	sonde_stats_free(run.stats);
	sonde_tasks_free(run.tasks);
	sonde_reader_close(r);
	return buf;
}

#define HEAD "% time     seconds  usecs/call   max usecs     calls    errors syscall\n"
#define RULE "------ ----------- ----------- ----------- --------- --------- ----------------\n"

TEST(table_like_strace_c)
{
	struct sonde_scan_opts o;
	uint64_t n;
	char *out;

	sonde_scan_opts_init(&o);
	out = scan_report(&o, 0, 0, 0, &n);
	CHECK_EQ_INT(n, 11);
	CHECK_EQ_STR(
		out, HEAD RULE
		" 77.48    0.000064          64          64         1           write\n"
		" 15.25    0.000013           3           8         4         1 read\n"
		"  7.26    0.000006           3           4         2         1 openat\n"
		"  0.00    0.000000           0           0         1           exit_group\n" RULE
		"100.00    0.000083          11          64         8         2 total\n");
	free(out);
}

TEST(per_process_and_histograms)
{
	struct sonde_scan_opts o;
	uint64_t n;
	char *out;

	sonde_scan_opts_init(&o);
	CHECK(!sonde_sc_set_parse(&o.filter.sc, "read", (char[64]){ 0 }, 64));
	o.filter.has_sc = 1;
	out = scan_report(&o, 1, 0, 1, &n);
	CHECK_EQ_STR(out, HEAD RULE
		     "100.00    0.000013           3           8         4         1 read\n" RULE
		     "100.00    0.000013           3           8         4         1 total\n"
		     "\nread: 4 calls returned, latency in ns\n"
		     "  [512, 1K)                   2 "
		     "|@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		     "  [1K, 2K)                    0 |                                            "
		     "        |\n"
		     "  [2K, 4K)                    1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                  "
		     "        |\n"
		     "  [4K, 8K)                    1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                  "
		     "        |\n"
		     "\npid 100 \"main\":\n" HEAD RULE
		     "100.00    0.000012           4           8         3           read\n" RULE
		     "100.00    0.000012           4           8         3           total\n"
		     "\nread: 3 calls returned, latency in ns\n"
		     "  [512, 1K)                   1 "
		     "|@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		     "  [1K, 2K)                    0 |                                            "
		     "        |\n"
		     "  [2K, 4K)                    1 "
		     "|@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		     "  [4K, 8K)                    1 "
		     "|@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		     "\npid 200 \"worker\":\n" HEAD RULE
		     "100.00    0.000001           0           0         1         1 read\n" RULE
		     "100.00    0.000001           0           0         1         1 total\n"
		     "\nread: 1 calls returned, latency in ns\n"
		     "  [512, 1K)                   1 "
		     "|@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n");
	free(out);
}

TEST(json_report)
{
	struct sonde_scan_opts o;
	uint64_t n;
	char *out;

	sonde_scan_opts_init(&o);
	CHECK(!sonde_filter_parse_pids(&o.filter, "201", (char[64]){ 0 }, 64));
	out = scan_report(&o, 1, 1, 0, &n);
	CHECK_EQ_STR(out,
		     "{\"total\":{\"calls\":2,\"errors\":1,\"returned\":2,\"time_ns\":64600,"
		     "\"syscalls\":["
		     "{\"name\":\"write\",\"nr\":1,\"calls\":1,\"errors\":0,\"returned\":1,\"time_"
		     "ns\":64000,\"avg_ns\":64000,\"min_ns\":64000,\"max_ns\":64000,\"percent\":99."
		     "0712,\"hist\":[{\"lo\":32768,\"hi\":65536,\"count\":1}]},"
		     "{\"name\":\"read\",\"nr\":0,\"calls\":1,\"errors\":1,\"returned\":1,\"time_"
		     "ns\":600,\"avg_ns\":600,\"min_ns\":600,\"max_ns\":600,\"percent\":0.9288,"
		     "\"hist\":[{\"lo\":512,\"hi\":1024,\"count\":1}]}]},"
		     "\"processes\":[{\"pid\":200,\"comm\":\"worker\",\"calls\":2,\"errors\":1,"
		     "\"returned\":2,\"time_ns\":64600,\"syscalls\":["
		     "{\"name\":\"write\",\"nr\":1,\"calls\":1,\"errors\":0,\"returned\":1,\"time_"
		     "ns\":64000,\"avg_ns\":64000,\"min_ns\":64000,\"max_ns\":64000,\"percent\":99."
		     "0712,\"hist\":[{\"lo\":32768,\"hi\":65536,\"count\":1}]},"
		     "{\"name\":\"read\",\"nr\":0,\"calls\":1,\"errors\":1,\"returned\":1,\"time_"
		     "ns\":600,\"avg_ns\":600,\"min_ns\":600,\"max_ns\":600,\"percent\":0.9288,"
		     "\"hist\":[{\"lo\":512,\"hi\":1024,\"count\":1}]}]}],\"lost\":0}\n");
	free(out);
}

TEST(filters_in_scan)
{
	struct sonde_scan_opts o;
	char err[256];
	uint64_t n;

	/* -Z: failed calls only (other record types pass: 2 exec, 1 switch) */
	sonde_scan_opts_init(&o);
	o.filter.status = SONDE_STATUS_FAILED;
	free(scan_report(&o, 0, 0, 0, &n));
	CHECK_EQ_INT(n, 2 + 3);
	/* --events syscall -e trace=%file: the two openat */
	sonde_scan_opts_init(&o);
	CHECK(!sonde_filter_parse_types(&o.filter, "syscall", err, sizeof(err)));
	CHECK(!sonde_sc_set_parse(&o.filter.sc, "%file", err, sizeof(err)));
	o.filter.has_sc = 1;
	free(scan_report(&o, 0, 0, 0, &n));
	CHECK_EQ_INT(n, 2);
	/* --events '!sched,exec' -p 100: the 6 syscalls of pid 100 */
	sonde_scan_opts_init(&o);
	CHECK(!sonde_filter_parse_types(&o.filter, "!sched,exec", err, sizeof(err)));
	CHECK(!sonde_filter_parse_pids(&o.filter, "100", err, sizeof(err)));
	free(scan_report(&o, 0, 0, 0, &n));
	CHECK_EQ_INT(n, 6);
	/* --since 20us --until 40us (relative to the first record, which is
	 * the exec at T0 - 2us): T0+18us .. T0+38us -> read(201), read,
	 * switch */
	sonde_scan_opts_init(&o);
	CHECK(!sonde_time_arg_parse(&o.since, "20us", err, sizeof(err)));
	CHECK(!sonde_time_arg_parse(&o.until, "0.00004", err, sizeof(err)));
	o.has_since = o.has_until = 1;
	free(scan_report(&o, 0, 0, 0, &n));
	CHECK_EQ_INT(n, 3);
	/* wall-clock forms: 03:04:05 UTC is T0 (TZ=UTC in main) */
	sonde_scan_opts_init(&o);
	CHECK(!sonde_time_arg_parse(&o.since, "03:04:05.000050", err, sizeof(err)));
	CHECK(!sonde_time_arg_parse(&o.until, "2024-01-02T03:04:05.00006", err, sizeof(err)));
	o.has_since = o.has_until = 1;
	free(scan_report(&o, 0, 0, 0, &n));
	CHECK_EQ_INT(n, 2); /* openat at +50us, read at +60us */
	/* @NS: raw monotonic */
	sonde_scan_opts_init(&o);
	CHECK(!sonde_time_arg_parse(&o.since, "@1000000070000", err, sizeof(err)));
	o.has_since = 1;
	free(scan_report(&o, 0, 0, 0, &n));
	CHECK_EQ_INT(n, 1);
}

TEST(parse_errors)
{
	struct sonde_filter f;
	struct sonde_time_arg t;
	char err[256];

	sonde_filter_init(&f);
	CHECK_EQ_INT(sonde_filter_parse_pids(&f, "12,x", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "'x'") != NULL);
	CHECK_EQ_INT(sonde_filter_parse_pids(&f, "0", err, sizeof(err)), -EINVAL);
	CHECK_EQ_INT(sonde_filter_parse_pids(&f, "-5", err, sizeof(err)), -EINVAL);
	CHECK_EQ_INT(sonde_filter_parse_pids(&f, "1,", err, sizeof(err)), 0);
	CHECK_EQ_INT(sonde_filter_parse_types(&f, "syscal", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "'syscal'") != NULL);
	CHECK_EQ_INT(sonde_time_arg_parse(&t, "1.5x", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "'1.5x'") != NULL);
	CHECK_EQ_INT(sonde_time_arg_parse(&t, "25:00:00", err, sizeof(err)), -EINVAL);
	CHECK_EQ_INT(sonde_time_arg_parse(&t, "-1", err, sizeof(err)), -EINVAL);
	CHECK_EQ_INT(sonde_time_arg_parse(&t, "250ms", err, sizeof(err)), 0);
	CHECK_EQ_INT(t.kind, SONDE_TIME_REL);
	CHECK_EQ_INT(t.ns, 250000000);
	CHECK_EQ_INT(sonde_time_arg_parse(&t, "1.000000001", err, sizeof(err)), 0);
	CHECK_EQ_INT(t.ns, 1000000001);
}

TEST(stats_edge_cases)
{
	struct sonde_stats *s = sonde_stats_new(SONDE_STATS_PER_PROCESS);
	struct sonde_ev_syscall e = { 0 };
	const struct sonde_stats_group *g;

	e.hdr = (struct sonde_hdr){ .type = SONDE_REC_SYSCALL, .size = sizeof(e) };
	/* a number beyond the in-kernel bitmap, as a foreign trace might have */
	e.nr = 100000;
	e.ret = -4095;
	e.dur = 0;
	CHECK_EQ_INT(sonde_stats_add(s, &e.hdr), 0);
	e.ret = -4096; /* not an error: outside -4095..-1 */
	e.dur = UINT64_MAX;
	CHECK_EQ_INT(sonde_stats_add(s, &e.hdr), 0);
	e.hdr.size = sizeof(e) - 8; /* too short: ignored */
	CHECK_EQ_INT(sonde_stats_add(s, &e.hdr), 0);
	g = sonde_stats_total(s);
	CHECK_EQ_INT(g->nsc, 1);
	CHECK_EQ_INT(g->sc[0].calls, 2);
	CHECK_EQ_INT(g->sc[0].errors, 1);
	CHECK_EQ_INT(g->sc[0].hist[0], 1);
	CHECK_EQ_INT(g->sc[0].hist[64], 1);
	CHECK_EQ_INT(sonde_stats_ngroups(s), 1);
	sonde_stats_free(s);
	CHECK_EQ_INT(sonde_hist_bucket(0), 0);
	CHECK_EQ_INT(sonde_hist_bucket(1), 1);
	CHECK_EQ_INT(sonde_hist_bucket(1023), 10);
	CHECK_EQ_INT(sonde_hist_bucket(1024), 11);
}

/* The numbers of rows sorted by `by` with `ties`, as "0 1 400". */
static const char *sorted_nrs(struct sonde_sc_stat *sc, size_t n, enum sonde_stats_sort by,
			      enum sonde_stats_ties ties, const struct sonde_sc_names *names)
{
	static char buf[128];
	const struct sonde_sc_stat *rows[8];
	size_t len = 0;

	for (size_t i = 0; i < n; i++)
		rows[i] = &sc[i];
	CHECK_EQ_INT(sonde_stats_sort_rows(rows, n, by, ties, names), 0);
	buf[0] = 0;
	for (size_t i = 0; i < n; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%u", i ? " " : "", rows[i]->nr);
	return buf;
}

/* sonde stat and strace -c share the sort; they differ only in the order
 * of the rows a key ranks equal, and where -S name puts unnamed numbers
 * (400 and 401 are holes in the table; strace -c prints them as "?"). */
TEST(sort_ties)
{
	struct sonde_sc_stat sc[] = {
		{ .nr = 401, .calls = 2, .timed = 2, .total_ns = 100 },
		{ .nr = 3, .calls = 9, .timed = 9, .total_ns = 50 },  /* close */
		{ .nr = 1, .calls = 5, .timed = 5, .total_ns = 100 }, /* write */
		{ .nr = 400, .calls = 1, .timed = 1, .total_ns = 100 },
		{ .nr = 0, .calls = 1, .timed = 1, .total_ns = 100 }, /* read */
	};
	size_t n = sizeof(sc) / sizeof(sc[0]);
	struct sonde_sc_names *names = sonde_sc_names_new(NULL);

	CHECK(names != NULL);
	if (!names)
		return;
	CHECK_EQ_STR(sorted_nrs(sc, n, SONDE_SORT_TIME, SONDE_TIES_STRACE, names), "0 1 400 401 3");
	CHECK_EQ_STR(sorted_nrs(sc, n, SONDE_SORT_TIME, SONDE_TIES_STAT, names), "1 401 0 400 3");
	CHECK_EQ_STR(sorted_nrs(sc, n, SONDE_SORT_ERRORS, SONDE_TIES_STRACE, names),
		     "0 1 3 400 401");
	CHECK_EQ_STR(sorted_nrs(sc, n, SONDE_SORT_ERRORS, SONDE_TIES_STAT, names), "3 1 401 0 400");
	CHECK_EQ_STR(sorted_nrs(sc, n, SONDE_SORT_CALLS, SONDE_TIES_STRACE, names),
		     "3 1 401 0 400");
	CHECK_EQ_STR(sorted_nrs(sc, n, SONDE_SORT_NAME, SONDE_TIES_STRACE, names), "400 401 3 0 1");
	CHECK_EQ_STR(sorted_nrs(sc, n, SONDE_SORT_NAME, SONDE_TIES_STAT, names), "3 0 1 401 400");
	CHECK_EQ_STR(sorted_nrs(sc, n, SONDE_SORT_NR, SONDE_TIES_STRACE, names), "0 1 3 400 401");
	CHECK_EQ_STR(sorted_nrs(sc, n, SONDE_SORT_NR, SONDE_TIES_STAT, names), "0 1 3 400 401");
	sonde_sc_names_free(names);
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	if (write_trace()) {
		printf("not ok - write_trace\n");
		return 1;
	}
	RUN(table_like_strace_c);
	RUN(per_process_and_histograms);
	RUN(json_report);
	RUN(filters_in_scan);
	RUN(parse_errors);
	RUN(stats_edge_cases);
	RUN(sort_ties);
	unlink(trace_path);
	CHECK_EXIT();
}
