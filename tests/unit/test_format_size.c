// SPDX-License-Identifier: GPL-2.0
/*
 * The size target of issue 2: <= 8 bytes on disk per syscall record for the
 * benchmark loop (read(3, buf, 64) = 64 / write(4, buf, 64) = 64 on one
 * thread). Also prints the writer's throughput, inline (the caller
 * compresses) and with one compression thread; timings are printed, not
 * asserted.
 */
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>

#include "test_format_util.h"

#define SZ_RECORDS 1000000

static double clock_s(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static double now(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

/* CPU time of all threads: what recording costs, whatever the load. */
static double cpu(void)
{
	return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

/* The records the recorder would produce for the loop. */
static struct sonde_ev_syscall *loop_records(void)
{
	struct sonde_ev_syscall *v = calloc(SZ_RECORDS, sizeof(*v));
	uint64_t seed = 0x5eed, ts = 5000000000ull;

	for (uint32_t i = 0; v && i < SZ_RECORDS; i++) {
		struct sonde_ev_syscall *e = &v[i];
		uint64_t r = tf_rand(&seed);

		ts += 300 + r % 401; /* 300..700 ns between entries */
		e->hdr = (struct sonde_hdr){ .ts = ts,
					     .pid = 4242,
					     .tid = 4242,
					     .type = SONDE_REC_SYSCALL,
					     .size = sizeof(*e),
					     .cpu = 1 };
		e->nr = i % 2; /* read, write */
		e->ret = 64;
		e->dur = 100 + (r >> 32) % 301; /* 100..400 ns */
		e->args[0] = 3 + i % 2;		/* fd 3 read, fd 4 write */
		e->args[1] = 0x7ffd5c3e1a40;
		e->args[2] = 64;
		e->args[3] = 0x7f3a2b1c0d00; /* whatever the registers held */
		e->args[4] = 0;
		e->args[5] = 0x22;
	}
	return v;
}

/* Writes the records, returns the file size; *rate = records/s appended
 * (wall clock), *cpu_rate = records per CPU second (all threads). */
static long long write_loop(const struct sonde_ev_syscall *v, const char *path, int threads,
			    double *rate, double *cpu_rate)
{
	struct sonde_writer_opts o = { .threads = threads };
	struct sonde_meta m = tf_meta();
	struct sonde_writer *w;
	struct stat st;
	char err[256];
	double t0, c0;
	int e = 0;

	if (sonde_writer_open(&w, path, &m, &o, err, sizeof(err)))
		return -1;
	t0 = now();
	c0 = cpu();
	for (uint32_t i = 0; i < SZ_RECORDS && !e; i++)
		e = sonde_writer_append(w, 1, &v[i].hdr);
	*rate = SZ_RECORDS / (now() - t0);
	e |= sonde_writer_close(w);
	*cpu_rate = SZ_RECORDS / (cpu() - c0);
	if (e || stat(path, &st))
		return -1;
	return st.st_size;
}

/* Reads the file back: every record must come back identical. */
static void read_loop(const struct sonde_ev_syscall *v, const char *path)
{
	const struct sonde_hdr *rec;
	struct sonde_reader *r;
	size_t n = 0, bad = 0;
	char err[256];
	double c0 = cpu();
	int k;

	CHECK_EQ_INT(sonde_reader_open(&r, path, err, sizeof(err)), 0);
	if (!r)
		return;
	while ((k = sonde_reader_next(r, &rec)) == 1) {
		bad += n >= SZ_RECORDS || memcmp(rec, &v[n], sizeof(v[n]));
		n++;
	}
	CHECK_EQ_INT(k, 0);
	CHECK_EQ_INT(n, SZ_RECORDS);
	CHECK_EQ_INT(bad, 0);
	printf("# reader: %.2f M records per CPU second\n", n / (cpu() - c0) / 1e6);
	sonde_reader_close(r);
}

TEST(syscall_loop_size)
{
	struct sonde_ev_syscall *v = loop_records();
	const char *path = tf_path("loop.sonde");
	double rate, cpu_rate;
	long long size;

	CHECK(v != NULL);
	if (!v)
		return;
	size = write_loop(v, path, 0, &rate, &cpu_rate);
	CHECK(size > 0);
	printf("# syscall loop: %d records, %lld bytes, %.2f bytes/record (target <= 8)\n",
	       SZ_RECORDS, size, (double)size / SZ_RECORDS);
	printf("# writer, inline compression: %.2f M records per CPU second (%.0f MB/s of "
	       "records; target >= 2 M/s on one core)\n",
	       cpu_rate / 1e6, cpu_rate * sizeof(*v) / 1e6);
	CHECK((double)size / SZ_RECORDS <= 8.0);
	read_loop(v, path);

	size = write_loop(v, path, 1, &rate, &cpu_rate);
	CHECK(size > 0);
	printf("# writer, 1 compression thread: %.2f M records/s appended (wall clock), "
	       "%.2f M records per CPU second in all, %.2f bytes/record\n",
	       rate / 1e6, cpu_rate / 1e6, (double)size / SZ_RECORDS);
	CHECK((double)size / SZ_RECORDS <= 8.0);
	free(v);
}

int main(void)
{
	RUN(syscall_loop_size);
	tf_cleanup();
	CHECK_EXIT();
}
