// SPDX-License-Identifier: GPL-2.0
/*
 * The consumer: one thread drains every per-CPU ring into the writer's
 * stream of that CPU. Callbacks only validate and append (a memcpy into the
 * writer's chunk); compression runs on the writer's own threads.
 *
 * BPF programs submit with BPF_RB_NO_WAKEUP below the watermark, so epoll
 * alone would never see most data: every poll timeout is followed by a
 * ring_buffer__consume() of all rings. The writer is flushed every second
 * so a recorder killed with SIGKILL leaves every complete chunk readable.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/libbpf.h>

#include "record/rec_int.h"
#include "record/rec_pack.h"

#define POLL_MS 10
#define FLUSH_NS 1000000000ull

struct rec_cpu_ctx {
	struct rec_consumer *c;
	unsigned int cpu;
};

void rec_write_error(char *buf, size_t len, const char *path, int e)
{
	const char *slash = strrchr(path, '/');
	const char *dir = slash ? path : ".";
	int dirlen = slash && slash > path ? (int)(slash - path) : 1;

	snprintf(buf, len, "writing %s: %s (%s %.*s, or record elsewhere with -o)", path,
		 strerror(-e),
		 e == -ENOSPC || e == -EDQUOT ? "free space on" : "check the file system of",
		 dirlen, dir);
}

/*
 * The trace file's write error (disk full...), said once as soon as the
 * consumer sees it rather than only at the end: the recording goes on,
 * so that the command runs undisturbed and every event it makes from
 * then on is counted as lost (sonde-record(1), DISK FULL).
 */
static void consumer_check_file(struct rec_consumer *c)
{
	char msg[PATH_MAX + 160];

	if (c->file_err || !(c->file_err = sonde_writer_error(c->w)))
		return;
	rec_write_error(msg, sizeof(msg), c->path, c->file_err);
	fprintf(stderr, "sonde record: %s; recording goes on: the trace keeps what was written, "
			"later events are counted as lost\n", msg);
}

int rec_consumer_append(struct rec_consumer *c, unsigned int stream, const struct sonde_hdr *h)
{
	int e;

	rec_live_push(c->live, h);
	e = c->w ? sonde_writer_append(c->w, stream, h) : 0;
	if (e) {
		c->lost_writer++;
		if (!c->write_err)
			c->write_err = e;
		consumer_check_file(c);
		return e;
	}
	if (h->type < SONDE_REC_TYPE_MAX)
		c->by_type[h->type]++;
	if (h->type == SONDE_REC_LOST)
		c->lost_ring += ((const struct sonde_ev_lost *)h)->count;
	return 0;
}

/* A record header that does not fit the avail bytes it starts. */
static int hdr_bad(const struct sonde_hdr *h, size_t avail)
{
	return avail < sizeof(*h) || h->size < sizeof(*h) || h->size > avail || h->size % 8;
}

/*
 * Records back to back, as in a batch (record_bpf.h); syscall records
 * packed against the batch's previous one (ring_pack.h).
 */
static void consumer_on_batch(struct rec_consumer *c, unsigned int cpu, const void *data,
			      size_t size)
{
	struct sonde_pack_prev prev;
	struct sonde_ev_syscall sc;
	size_t off = 0;

	memset(&prev, 0, sizeof(prev));
	while (off < size) {
		const struct sonde_hdr *h = (const void *)((const char *)data + off);

		if (hdr_bad(h, size - off)) {
			c->bad++;
			return;
		}
		if (h->type != SONDE_RING_SC) {
			rec_consumer_append(c, cpu, h);
		} else if (rec_unpack_sc(&prev, (const void *)h, size - off, cpu, &sc)) {
			c->bad++;
			return;
		} else {
			rec_consumer_append(c, cpu, &sc.hdr);
		}
		off += h->size;
	}
}

/*
 * The ring hands out size bytes; hdr.size may be smaller (exec records
 * reserve their maximum). A SONDE_RING_BATCH wrapper holds whole records
 * (record_bpf.h). Anything else is a bug in bpf/: counted, never written.
 */
static int consumer_on_record(void *ctx, void *data, size_t size)
{
	struct rec_cpu_ctx *cc = ctx;
	const struct sonde_hdr *h = data;

	if (hdr_bad(h, size)) {
		cc->c->bad++;
		return 0;
	}
	if (h->type == SONDE_RING_BATCH)
		consumer_on_batch(cc->c, cc->cpu, h + 1, h->size - sizeof(*h));
	else
		rec_consumer_append(cc->c, cc->cpu, h);
	return 0;
}

int rec_consumer_init(struct rec_consumer *c, struct rec_bpf *b, struct sonde_writer *w,
		      char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	c->b = b;
	c->w = w;
	c->ncpus = b->ncpus;
	c->ctx = calloc(b->ncpus, sizeof(*c->ctx));
	if (!c->ctx)
		return -ENOMEM;
	for (unsigned int i = 0; i < b->ncpus; i++) {
		int e;

		c->ctx[i].c = c;
		c->ctx[i].cpu = i;
		if (!c->rb) {
			c->rb = ring_buffer__new(b->ring_fds[i], consumer_on_record, &c->ctx[i],
						 NULL);
			e = c->rb ? 0 : -errno;
		} else {
			e = ring_buffer__add(c->rb, b->ring_fds[i], consumer_on_record,
					     &c->ctx[i]);
		}
		if (e) {
			snprintf(err, errlen, "mapping ring buffer %u: %s", i, strerror(-e));
			return e;
		}
	}
	return 0;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void *consumer_main(void *arg)
{
	struct rec_consumer *c = arg;
	uint64_t last_flush = mono_ns();

	while (!atomic_load(&c->stop)) {
		uint64_t mark;

		ring_buffer__poll(c->rb, POLL_MS);
		if (rec_bpf_flush_batches(c->b) && !c->flush_err++)
			fprintf(stderr, "sonde record: cannot flush the kernel-side record batches (%s); "
					"records may be late in live output\n", strerror(errno));
		/* Every record submitted before mark is consumed below. */
		mark = mono_ns();
		ring_buffer__consume(c->rb);
		rec_live_progress(c->live, mark);
		if (c->w && mono_ns() - last_flush >= FLUSH_NS) {
			/* Never waits for the compression queue: a burst of
			 * payloads being compressed must not stop the draining. */
			if (sonde_writer_submit(c->w))
				consumer_check_file(c);
			last_flush = mono_ns();
		}
	}
	/* The programs are detached: whatever is in the rings is all. */
	while (ring_buffer__consume(c->rb) > 0)
		;
	return NULL;
}

int rec_consumer_start(struct rec_consumer *c, char *err, size_t errlen)
{
	int e = pthread_create(&c->thread, NULL, consumer_main, c);

	if (e) {
		snprintf(err, errlen, "starting the consumer thread: %s", strerror(e));
		return -e;
	}
	c->started = 1;
	return 0;
}

void rec_consumer_stop(struct rec_consumer *c)
{
	if (!c->started) {
		if (c->rb)
			while (ring_buffer__consume(c->rb) > 0)
				;
		return;
	}
	atomic_store(&c->stop, 1);
	pthread_join(c->thread, NULL);
	c->started = 0;
}

void rec_consumer_drain_batches(struct rec_consumer *c)
{
	for (unsigned int cpu = 0; cpu < c->ncpus; cpu++) {
		size_t len;
		const void *recs = rec_bpf_take_batch(c->b, cpu, &len);

		consumer_on_batch(c, cpu, recs, len);
	}
}

void rec_consumer_free(struct rec_consumer *c)
{
	ring_buffer__free(c->rb);
	c->rb = NULL;
	free(c->ctx);
	c->ctx = NULL;
}
