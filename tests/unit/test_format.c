// SPDX-License-Identifier: GPL-2.0
/*
 * Trace format: round trip of every record type, metadata, multi-stream
 * merge order, seek, file mode, the writer's threads and flush.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "test_format_util.h"

#define NTYPES_REC 12

/* One record of every type in events.h (exec/proc with tails) plus a type
 * this reader does not know, which must come back untouched. */
static size_t build_all_types(uint8_t *buf, uint64_t ts, uint64_t *seed)
{
	size_t off = 0;
	struct sonde_hdr *h;

#define PUT(T)                              \
	({                                  \
		T *e_ = (T *)(buf + off);   \
		memset(e_, 0, sizeof(*e_)); \
		off += sizeof(*e_);         \
		e_;                         \
	})
	struct sonde_ev_syscall *sc = PUT(struct sonde_ev_syscall);
	tf_syscall(sc, ts++, 1001, 0, tf_rand(seed));
	sc->hdr.flags = SONDE_SC_NORETURN;
	for (int i = 1; i < 6; i++)
		sc->args[i] = tf_rand(seed);
	sc->ret = -2;

	struct sonde_ev_switch *sw = PUT(struct sonde_ev_switch);
	tf_hdr(&sw->hdr, SONDE_REC_SWITCH, sizeof(*sw), ts++, 1001, 1);
	sw->prev_prio = 120;
	sw->prev_state = 1;
	sw->next_pid = 7;
	sw->next_tid = 8;
	sw->next_prio = 100;
	strcpy(sw->prev_comm, "prevcomm");
	memcpy(sw->next_comm, "sixteen-chars-xx", 16); /* no NUL: allowed */

	struct sonde_ev_wakeup *wk = PUT(struct sonde_ev_wakeup);
	tf_hdr(&wk->hdr, SONDE_REC_WAKEUP, sizeof(*wk), ts++, 1002, 1);
	wk->hdr.flags = SONDE_WAKEUP_NEW;
	wk->prio = 120;
	wk->target_cpu = 3;
	wk->waker_pid = 1000;
	wk->waker_tid = 1001;

	struct sonde_ev_fork *fk = PUT(struct sonde_ev_fork);
	tf_hdr(&fk->hdr, SONDE_REC_FORK, sizeof(*fk), ts++, 1001, 0);
	fk->child_pid = 2000;
	fk->child_tid = 2000;
	fk->clone_flags = 0x1200011;
	strcpy(fk->child_comm, "child");

	static const char exec_data[] = "/usr/bin/tar\0tar\0-cf\0-\0/usr/include";
	struct sonde_ev_exec *ex = (struct sonde_ev_exec *)(buf + off);
	memset(ex, 0, sizeof(*ex) + 64);
	tf_hdr(&ex->hdr, SONDE_REC_EXEC, 0, ts++, 2000, 0);
	ex->old_tid = 2000;
	ex->argc = 4;
	ex->filename_len = 13;
	ex->argv_len = sizeof(exec_data) - 13;
	strcpy(ex->comm, "tar");
	memcpy(ex + 1, exec_data, sizeof(exec_data));
	ex->hdr.size = SONDE_REC_ALIGN(sizeof(*ex) + sizeof(exec_data));
	off += ex->hdr.size;

	struct sonde_ev_exit *xt = PUT(struct sonde_ev_exit);
	tf_hdr(&xt->hdr, SONDE_REC_EXIT, sizeof(*xt), ts++, 2000, 0);
	xt->hdr.flags = SONDE_EXIT_GROUP_DEAD;
	xt->code = 9;

	struct sonde_ev_comm *cm = PUT(struct sonde_ev_comm);
	tf_hdr(&cm->hdr, SONDE_REC_COMM, sizeof(*cm), ts++, 1001, 0);
	strcpy(cm->comm, "worker");

	struct sonde_ev_lost *lo = PUT(struct sonde_ev_lost);
	tf_hdr(&lo->hdr, SONDE_REC_LOST, sizeof(*lo), ts++, 0, 2);
	lo->count = 12345;
	lo->kind = SONDE_LOST_RING;

	static const char cmdline[] = "nginx\0-g\0daemon off;";
	struct sonde_ev_proc *pr = (struct sonde_ev_proc *)(buf + off);
	memset(pr, 0, sizeof(*pr) + 32);
	tf_hdr(&pr->hdr, SONDE_REC_PROC, 0, ts++, 3000, 0);
	pr->ppid = 1;
	pr->cmdline_len = sizeof(cmdline);
	strcpy(pr->comm, "nginx");
	memcpy(pr + 1, cmdline, sizeof(cmdline));
	pr->hdr.size = SONDE_REC_ALIGN(sizeof(*pr) + sizeof(cmdline));
	off += pr->hdr.size;

	struct sonde_ev_signal *sg = PUT(struct sonde_ev_signal);
	tf_hdr(&sg->hdr, SONDE_REC_SIGNAL, sizeof(*sg), ts++, 1001, 1);
	sg->si.signo = 17;
	sg->si.code = 1;
	sg->si.fields[0] = 2000;
	sg->handler = 0x401000;
	sg->sa_flags = 0x14000000;

	struct sonde_ev_signal *sn = PUT(struct sonde_ev_signal);
	tf_hdr(&sn->hdr, SONDE_REC_SIGGEN, sizeof(*sn), ts++, 1001, 0);
	sn->hdr.flags = SONDE_SIG_GROUP | SONDE_SIG_EXITING;
	sn->si.signo = 15;
	sn->sender_pid = 3000;
	sn->sender_tid = 3001;
	sn->result = SONDE_SIG_DELIVERED;

	h = (struct sonde_hdr *)(buf + off); /* a future record type */
	memset(h, 0, 48);
	tf_hdr(h, 200, 48, ts++, 1001, 0);
	memset(h + 1, 0xab, 48 - sizeof(*h));
	off += 48;
#undef PUT
	return off;
}

static int write_opts(const char *path, const uint8_t *recs, size_t len, int threads,
		      size_t chunk_bytes)
{
	struct sonde_writer_opts o = { .threads = threads, .chunk_bytes = chunk_bytes };
	struct sonde_meta m = tf_meta();
	struct sonde_writer *w;
	char err[256];
	int e;

	e = sonde_writer_open(&w, path, &m, &o, err, sizeof(err));
	if (e) {
		fprintf(stderr, "writer_open: %s\n", err);
		return e;
	}
	for (size_t off = 0; off < len;) {
		const struct sonde_hdr *h = (const void *)(recs + off);

		e = sonde_writer_append(w, 0, h);
		if (e) {
			sonde_writer_close(w);
			return e;
		}
		off += h->size;
	}
	return sonde_writer_close(w);
}

/* Writes many copies of every record type and reads them back verbatim. */
static void roundtrip(int threads, size_t chunk_bytes)
{
	size_t cap = 4 << 20, len = 0, got = 0, rlen = 0;
	uint8_t *recs = malloc(cap);
	uint64_t seed = 42, ts = 1000;
	const struct sonde_hdr *rec;
	struct sonde_reader *r;
	const char *path = tf_path("roundtrip.sonde");
	char err[256];
	int n, mismatch = 0;

	while (len + 4096 < cap) {
		size_t k = build_all_types(recs + len, ts, &seed);

		len += k;
		ts += NTYPES_REC;
	}
	CHECK_EQ_INT(write_opts(path, recs, len, threads, chunk_bytes), 0);
	CHECK_EQ_INT(sonde_reader_open(&r, path, err, sizeof(err)), 0);
	if (!r) {
		free(recs);
		return;
	}
	CHECK(!sonde_reader_truncated(r));
	while ((n = sonde_reader_next(r, &rec)) == 1) {
		if (rlen + rec->size > len || memcmp(recs + rlen, rec, rec->size))
			mismatch++;
		rlen += rec->size;
		got++;
	}
	CHECK_EQ_INT(n, 0);
	CHECK_EQ_INT(mismatch, 0);
	CHECK_EQ_INT(rlen, len);
	CHECK_EQ_INT(got, ts - 1000); /* one ts per record */
	sonde_reader_close(r);
	free(recs);
}

TEST(roundtrip_inline)
{
	roundtrip(0, 0);
}

TEST(roundtrip_threads_small_chunks)
{
	roundtrip(2, 64 << 10);
}

TEST(metadata)
{
	struct sonde_meta m = tf_meta();
	const struct sonde_meta *g;
	struct sonde_writer *w;
	struct sonde_reader *r;
	const char *path = tf_path("meta.sonde");
	char err[256];

	CHECK_EQ_INT(sonde_writer_open(&w, path, &m, NULL, err, sizeof(err)), 0);
	CHECK_EQ_INT(sonde_writer_close(w), 0);
	CHECK_EQ_INT(sonde_reader_open(&r, path, err, sizeof(err)), 0);
	if (!r)
		return;
	g = sonde_reader_meta(r);
	CHECK_EQ_INT(g->version, SONDE_FORMAT_VERSION);
	CHECK_EQ_STR(g->host, "testhost");
	CHECK_EQ_STR(g->kernel, "6.18.0-test");
	CHECK_EQ_STR(g->machine, "x86_64");
	CHECK_EQ_STR(g->cmdline, m.cmdline);
	CHECK_EQ_INT(g->ncpus, 4);
	CHECK(g->mono_ref_ns == m.mono_ref_ns);
	CHECK(g->wall_ref_ns == m.wall_ref_ns);
	CHECK_EQ_INT(g->nsyscalls, 4);
	CHECK_EQ_STR(g->syscall_names[0], "read");
	CHECK_EQ_STR(g->syscall_names[1], "write");
	CHECK(g->syscall_names[2] == NULL);
	CHECK_EQ_STR(g->syscall_names[3], "close");
	CHECK(!sonde_reader_truncated(r));
	const struct sonde_hdr *rec;
	CHECK_EQ_INT(sonde_reader_next(r, &rec), 0);
	sonde_reader_close(r);

	/* Optional strings may be absent. */
	m = (struct sonde_meta){ .ncpus = 1 };
	CHECK_EQ_INT(sonde_writer_open(&w, path, &m, NULL, err, sizeof(err)), 0);
	CHECK_EQ_INT(sonde_writer_close(w), 0);
	CHECK_EQ_INT(sonde_reader_open(&r, path, err, sizeof(err)), 0);
	if (!r)
		return;
	CHECK(sonde_reader_meta(r)->host == NULL);
	CHECK_EQ_INT(sonde_reader_meta(r)->nsyscalls, 0);
	sonde_reader_close(r);
}

/* The merge workload: nstreams streams, syscall records carrying their
 * entry time but produced at exit (so ts is not monotonic in a stream),
 * equal time stamps across streams, records identified by args[0]. */
struct expect {
	uint64_t ts, id;
	uint32_t stream, idx;
};

static int expect_cmp(const void *a, const void *b)
{
	const struct expect *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

#define MS_STREAMS 5
#define MS_PER_STREAM 30000

static struct expect *merge_write(const char *path, int threads)
{
	struct sonde_writer_opts o = { .threads = threads, .chunk_bytes = 64 << 10 };
	struct expect *ex = calloc(MS_STREAMS * MS_PER_STREAM, sizeof(*ex));
	struct sonde_meta m = tf_meta();
	uint64_t clock[MS_STREAMS] = { 0 }, seed = 7;
	struct sonde_writer *w;
	char err[256];
	size_t k = 0;

	if (sonde_writer_open(&w, path, &m, &o, err, sizeof(err)))
		return NULL;
	for (uint32_t i = 0; i < MS_PER_STREAM; i++) {
		for (uint32_t s = 0; s < MS_STREAMS; s++) {
			/* Stream 4 has a sparse id, like a user-space stream. */
			uint32_t sid = s == 4 ? 0x10000 : s;
			uint64_t r = tf_rand(&seed);
			struct sonde_ev_syscall e;

			clock[s] += r % 50; /* many equal time stamps */
			/* One record in 16 entered long before it is written. */
			uint64_t ts = r % 16 == 0 && clock[s] > 40000 ? clock[s] - 40000 : clock[s];
			tf_syscall(&e, ts, 100 + s, (uint32_t)(r >> 60), (uint64_t)sid << 32 | i);
			if (sonde_writer_append(w, sid, &e.hdr))
				return NULL;
			ex[k++] = (struct expect){
				.ts = ts, .id = e.args[0], .stream = sid, .idx = i
			};
		}
		if (i == MS_PER_STREAM / 2 && sonde_writer_flush(w))
			return NULL;
	}
	if (sonde_writer_close(w))
		return NULL;
	qsort(ex, k, sizeof(*ex), expect_cmp);
	return ex;
}

static void merge_check(int threads)
{
	const char *path = tf_path("merge.sonde");
	struct expect *ex = merge_write(path, threads);
	struct sonde_reader *r = NULL;
	struct sonde_reader_stats st;
	struct tf_read t;
	size_t bad = 0, n = MS_STREAMS * MS_PER_STREAM;
	char err[256];

	CHECK(ex != NULL);
	CHECK_EQ_INT(sonde_reader_open(&r, path, err, sizeof(err)), 0);
	if (!ex || !r)
		goto out;
	tf_read_all(r, &t, 10 * n);
	CHECK_EQ_INT(t.nrecs, n);
	CHECK_EQ_INT(t.nerrors, 0);
	CHECK(t.sorted);
	for (size_t i = 0; i < n && i < t.nrecs; i++)
		bad += t.ids[i] != ex[i].id;
	CHECK_EQ_INT(bad, 0);
	sonde_reader_stats(r, &st);
	CHECK_EQ_INT(st.records, n);
	CHECK_EQ_INT(st.bad_chunks, 0);
	CHECK(st.chunks > 2 * MS_STREAMS);
	CHECK(st.first_ts == ex[0].ts);
	CHECK(st.last_ts == ex[n - 1].ts);

	/* Seek: to the start, into the middle, onto a run of equal ts, past
	 * the end; each must continue exactly like the full order. */
	uint64_t targets[] = {
		0, ex[n / 3].ts, ex[n / 2].ts + 1, ex[n - 1].ts, ex[n - 1].ts + 1, ex[7].ts
	};
	for (size_t k = 0; k < sizeof(targets) / sizeof(targets[0]); k++) {
		size_t first = 0;
		struct tf_read s;

		while (first < n && ex[first].ts < targets[k])
			first++;
		CHECK_EQ_INT(sonde_reader_seek(r, targets[k]), 0);
		tf_read_all(r, &s, 10 * n);
		CHECK_EQ_INT(s.nrecs, n - first);
		bad = 0;
		for (size_t i = 0; i < s.nrecs && first + i < n; i++)
			bad += s.ids[i] != ex[first + i].id;
		CHECK_EQ_INT(bad, 0);
		tf_read_free(&s);
	}
	tf_read_free(&t);
out:
	sonde_reader_close(r);
	free(ex);
}

TEST(merge_inline)
{
	merge_check(0);
}

TEST(merge_threads)
{
	merge_check(2);
}

/* flush() makes everything appended so far readable while writing goes on. */
TEST(flush_readable)
{
	struct sonde_writer_opts o = { .threads = 1 };
	struct sonde_meta m = tf_meta();
	struct sonde_writer_stats ws;
	struct sonde_writer *w;
	struct sonde_reader *r;
	const char *path = tf_path("flush.sonde");
	struct tf_read t;
	char err[256];

	CHECK_EQ_INT(sonde_writer_open(&w, path, &m, &o, err, sizeof(err)), 0);
	for (int i = 0; i < 1000; i++) {
		struct sonde_ev_syscall e;

		tf_syscall(&e, 1000 + i, 10, 0, i);
		CHECK_EQ_INT(sonde_writer_append(w, i % 3, &e.hdr), 0);
	}
	CHECK_EQ_INT(sonde_writer_flush(w), 0);
	CHECK_EQ_INT(sonde_reader_open(&r, path, err, sizeof(err)), 0);
	if (r) {
		CHECK(sonde_reader_truncated(r));
		CHECK(sonde_reader_error(r) != NULL);
		tf_read_all(r, &t, 100000);
		CHECK_EQ_INT(t.nrecs, 1000);
		CHECK_EQ_INT(t.nerrors, 0);
		for (size_t i = 0; i < t.nrecs; i++)
			CHECK_EQ_INT(t.ids[i], i);
		tf_read_free(&t);
		sonde_reader_close(r);
	}
	sonde_writer_stats(w, &ws);
	CHECK_EQ_INT(ws.records, 1000);
	CHECK_EQ_INT(ws.raw_bytes, 1000 * sizeof(struct sonde_ev_syscall));
	CHECK_EQ_INT(ws.chunks, 3);
	CHECK_EQ_INT(sonde_writer_close(w), 0);
}

/* A recorder SIGKILLed while writing (threads on, flushing now and then)
 * leaves a truncated file holding at least everything flushed, in order. */
TEST(sigkill_writer)
{
	const char *path = tf_path("killed.sonde");
	uint64_t flushed = 0, n;
	struct sonde_reader *r;
	struct tf_read t;
	char err[256];
	int pfd[2];
	pid_t pid;

	CHECK_EQ_INT(pipe(pfd), 0);
	pid = fork();
	if (pid == 0) {
		struct sonde_writer_opts o = { .threads = 1 };
		struct sonde_meta m = tf_meta();
		struct sonde_writer *w;

		close(pfd[0]);
		if (sonde_writer_open(&w, path, &m, &o, err, sizeof(err)))
			_exit(1);
		for (uint64_t i = 0;; i++) {
			struct sonde_ev_syscall e;

			tf_syscall(&e, 1000 + i, 5, i % 7, i);
			if (sonde_writer_append(w, i % 2, &e.hdr))
				_exit(1);
			if (i % 5000 == 4999) {
				if (sonde_writer_flush(w))
					_exit(1);
				n = i + 1;
				if (write(pfd[1], &n, sizeof(n)) != sizeof(n))
					_exit(1);
			}
		}
	}
	close(pfd[1]);
	while (flushed < 100000 && read(pfd[0], &n, sizeof(n)) == sizeof(n))
		flushed = n;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(pfd[0]);
	CHECK(flushed >= 100000);
	CHECK_EQ_INT(sonde_reader_open(&r, path, err, sizeof(err)), 0);
	if (!r)
		return;
	CHECK(sonde_reader_truncated(r));
	tf_read_all(r, &t, 100000000);
	CHECK_EQ_INT(t.nerrors, 0);
	CHECK(t.nrecs >= flushed);
	for (size_t i = 0; i < t.nrecs; i++)
		if (t.ids[i] != i) {
			CHECK_EQ_INT(t.ids[i], i);
			break;
		}
	printf("# killed writer: %llu records flushed, %zu readable\n", (unsigned long long)flushed,
	       t.nrecs);
	tf_read_free(&t);
	sonde_reader_close(r);
}

/* A malformed record is refused, not written. */
TEST(append_rejects_bad_records)
{
	struct sonde_meta m = tf_meta();
	struct sonde_ev_syscall e;
	struct sonde_ev_exec x;
	struct sonde_writer *w;
	char err[256];

	CHECK_EQ_INT(sonde_writer_open(&w, tf_path("bad.sonde"), &m, NULL, err, sizeof(err)), 0);
	tf_syscall(&e, 1, 1, 0, 0);
	e.hdr.size = 90;
	CHECK_EQ_INT(sonde_writer_append(w, 0, &e.hdr), -EINVAL);
	e.hdr.size = 40; /* shorter than a syscall record */
	CHECK_EQ_INT(sonde_writer_append(w, 0, &e.hdr), -EINVAL);
	e.hdr.size = sizeof(e);
	e.hdr.type = 0;
	CHECK_EQ_INT(sonde_writer_append(w, 0, &e.hdr), -EINVAL);
	memset(&x, 0, sizeof(x));
	tf_hdr(&x.hdr, SONDE_REC_EXEC, sizeof(x), 1, 1, 0);
	x.filename_len = 8; /* tail beyond the record */
	CHECK_EQ_INT(sonde_writer_append(w, 0, &x.hdr), -EINVAL);
	CHECK_EQ_INT(sonde_writer_close(w), 0);
}

/* Files are created 0600 whatever was there before and whatever the umask. */
TEST(file_mode_0600)
{
	const char *path = tf_path("mode.sonde"), *other = tf_path("other");
	struct sonde_meta m = tf_meta();
	struct sonde_writer *w;
	struct stat st;
	mode_t old = umask(0);
	char err[256];
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	CHECK(fd >= 0);
	CHECK_EQ_INT(fchmod(fd, 0666), 0);
	CHECK_EQ_INT(write(fd, "old contents", 12), 12);
	close(fd);
	CHECK_EQ_INT(sonde_writer_open(&w, path, &m, NULL, err, sizeof(err)), 0);
	CHECK_EQ_INT(sonde_writer_close(w), 0);
	CHECK_EQ_INT(stat(path, &st), 0);
	CHECK_EQ_INT(st.st_mode & 07777, 0600);

	/* A symlink is replaced, its target left alone. */
	fd = open(other, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK_EQ_INT(write(fd, "keep", 4), 4);
	close(fd);
	unlink(path);
	CHECK_EQ_INT(symlink(other, path), 0);
	CHECK_EQ_INT(sonde_writer_open(&w, path, &m, NULL, err, sizeof(err)), 0);
	CHECK_EQ_INT(sonde_writer_close(w), 0);
	CHECK_EQ_INT(lstat(path, &st), 0);
	CHECK(S_ISREG(st.st_mode));
	CHECK_EQ_INT(st.st_mode & 07777, 0600);
	CHECK_EQ_INT(stat(other, &st), 0);
	CHECK_EQ_INT(st.st_size, 4);

	/* Devices are refused, never unlinked. */
	CHECK(sonde_writer_open(&w, "/dev/null", &m, NULL, err, sizeof(err)) < 0);
	CHECK(strstr(err, "not a regular file") != NULL);
	CHECK_EQ_INT(stat("/dev/null", &st), 0);
	umask(old);
}

TEST(open_errors)
{
	struct sonde_reader *r;
	char err[256];

	CHECK_EQ_INT(sonde_reader_open(&r, tf_path("missing"), err, sizeof(err)), -ENOENT);
	CHECK(strstr(err, "cannot open") != NULL);
	CHECK(r == NULL);
	CHECK_EQ_INT(sonde_reader_open(&r, "/etc/passwd", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "not a sonde trace") != NULL);
	CHECK_EQ_INT(sonde_reader_open_mem(&r, "", 0, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "empty") != NULL);
}

int main(void)
{
	RUN(roundtrip_inline);
	RUN(roundtrip_threads_small_chunks);
	RUN(metadata);
	RUN(merge_inline);
	RUN(merge_threads);
	RUN(flush_readable);
	RUN(sigkill_writer);
	RUN(append_rejects_bad_records);
	RUN(file_mode_0600);
	RUN(open_errors);
	tf_cleanup();
	CHECK_EXIT();
}
