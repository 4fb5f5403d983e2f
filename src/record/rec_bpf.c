// SPDX-License-Identifier: GPL-2.0
/*
 * Loading the recorder's BPF side: filters into .rodata, one ring buffer
 * per CPU into the rings map, programs attached, and the traced set in the
 * mmapped .bss (layout in include/sonde/record_bpf.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "record/rec_int.h"
#include "record/payload.h"
#include "sonde.skel.h"

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL /* <linux/pidfd.h>, 6.9+ */
#endif

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	/* The verifier log is only interesting to whoever works on bpf/. */
	if (level == LIBBPF_WARN && getenv("SONDE_BPF_DEBUG"))
		return vfprintf(stderr, fmt, ap);
	if (level == LIBBPF_DEBUG && getenv("SONDE_BPF_DEBUG"))
		return vfprintf(stderr, fmt, ap);
	return 0;
}

static void bpf_set_filters(struct sonde_bpf *s, const struct sonde_record_opts *o)
{
	memcpy((void *)s->rodata->sel, o->syscalls.bits, sizeof(s->rodata->sel));
	s->rodata->sel_others = o->syscalls.others;
	memcpy((void *)s->rodata->sel32, o->syscalls.bits32, sizeof(s->rodata->sel32));
	memcpy((void *)s->rodata->sel_i386, o->syscalls.bits_i386, sizeof(s->rodata->sel_i386));
	memcpy((void *)s->rodata->sel_x32, o->syscalls.bits_x32, sizeof(s->rodata->sel_x32));
	for (unsigned int n = 0; n < SONDE_NR_I386_LEN; n++)
		s->rodata->compat_nr[n] = sonde_syscall_i386_nr(n);
	s->rodata->failed_only = o->failed_only;
	s->rodata->no_sched = o->no_sched;
	s->rodata->rec_ip = o->ip;
	s->rodata->ustack_size = o->user_stack;
	s->rodata->inject_on = o->inject && o->inject->n;
	if (o->comm) {
		s->rodata->comm_set = true;
		strncpy((char *)s->rodata->comm_match, o->comm, SONDE_COMM_LEN - 1);
	}
}

/*
 * The privileges were checked before loading (rec_run.c): a permission
 * error here is the verifier rejecting a program (EACCES) or a security
 * policy refusing BPF, and saying "run as root" would send a root user
 * nowhere.
 */
static int bpf_err(int e, const char *what, char *err, size_t errlen)
{
	if (e == -EPERM || e == -EACCES)
		snprintf(err, errlen,
			 "%s: %s, with the privileges BPF needs: the kernel's verifier rejected a "
			 "program or a security policy (lockdown, an LSM) forbids it (run with "
			 "SONDE_BPF_DEBUG=1 for the libbpf and verifier log)",
			 what, strerror(-e));
	else
		snprintf(err, errlen, "%s: %s (run with SONDE_BPF_DEBUG=1 for the libbpf log)",
			 what, strerror(-e));
	return e;
}

/* One RINGBUF per possible CPU, inserted at the CPU's index. */
static int bpf_make_rings(struct rec_bpf *b, char *err, size_t errlen)
{
	int outer = bpf_map__fd(b->skel->maps.rings);

	b->ring_fds = calloc(b->ncpus, sizeof(int));
	if (!b->ring_fds)
		return -ENOMEM;
	for (unsigned int i = 0; i < b->ncpus; i++)
		b->ring_fds[i] = -1;
	for (unsigned int i = 0; i < b->ncpus; i++) {
		int fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, NULL, 0, 0, b->ring_bytes, NULL);

		if (fd < 0)
			return bpf_err(-errno, "creating the per-CPU ring buffers", err, errlen);
		b->ring_fds[i] = fd;
		if (bpf_map_update_elem(outer, &i, &fd, BPF_ANY))
			return bpf_err(-errno, "installing a ring buffer", err, errlen);
	}
	return 0;
}

int rec_bpf_load(struct rec_bpf *b, const struct sonde_record_opts *o, char *err, size_t errlen)
{
	int e, n;

	libbpf_set_print(libbpf_quiet);
	n = libbpf_num_possible_cpus();
	if (n <= 0)
		return bpf_err(n ? n : -EINVAL, "counting CPUs", err, errlen);
	b->ncpus = (unsigned int)n > SONDE_MAX_CPUS ? SONDE_MAX_CPUS : (unsigned int)n;
	b->ring_bytes = o->ring_bytes;
	if (!b->ring_bytes)
		b->ring_bytes = o->snaplen || o->user_stack ? SONDE_RECORD_DEFAULT_RING_PAYLOAD
					   : SONDE_RECORD_DEFAULT_RING;
	b->skel = sonde_bpf__open();
	if (!b->skel)
		return bpf_err(-errno, "opening the BPF object", err, errlen);
	bpf_set_filters(b->skel, o);
	/* Wake the consumer early, at 1/8 of a ring: it drains on its timer
	 * anyway, this only bounds the fill under bursts. */
	b->skel->rodata->wake_bytes = b->ring_bytes / 8;
	b->skel->rodata->nr_cpus = b->ncpus;
	/* Run on demand (rec_bpf_flush_batches), never attached. */
	bpf_program__set_autoattach(b->skel->progs.flush_batch, false);
	e = bpf_map__set_max_entries(b->skel->maps.rings, b->ncpus);
	if (!e)
		e = rec_payload_config(b, o);
	if (e)
		return bpf_err(e, "sizing the ring map", err, errlen);
	e = sonde_bpf__load(b->skel);
	if (e)
		return bpf_err(e, "loading the BPF programs", err, errlen);
	e = rec_payload_plans(b, o);
	if (e)
		return bpf_err(e, "installing the payload capture plans", err, errlen);
	b->inflight_fd = bpf_map__fd(b->skel->maps.inflight);
	b->inject_marks_fd = bpf_map__fd(b->skel->maps.inject_marks);
	b->flush_fd = bpf_program__fd(b->skel->progs.flush_batch);
	return bpf_make_rings(b, err, errlen);
}

int rec_bpf_attach(struct rec_bpf *b, char *err, size_t errlen)
{
	int e = sonde_bpf__attach(b->skel);

	if (e)
		return bpf_err(e, "attaching to the tracepoints", err, errlen);
	return 0;
}

void rec_bpf_detach(struct rec_bpf *b)
{
	if (b->skel)
		sonde_bpf__detach(b->skel);
}

void rec_bpf_close(struct rec_bpf *b)
{
	if (b->ring_fds) {
		for (unsigned int i = 0; i < b->ncpus; i++)
			if (b->ring_fds[i] >= 0)
				close(b->ring_fds[i]);
		free(b->ring_fds);
		b->ring_fds = NULL;
	}
	sonde_bpf__destroy(b->skel);
	b->skel = NULL;
}

/* The same atomic protocol as bpf/traced.h: ntraced moves only when this
 * call flips the bit, whoever else touches the word concurrently. */
void rec_bpf_trace_tgid(struct rec_bpf *b, pid_t tgid)
{
	uint64_t bit = 1ULL << (tgid & 63);
	__u64 *word = &b->skel->bss->traced[(tgid >> 6) & (SONDE_TRACED_WORDS - 1)];

	if (tgid <= 0 || tgid >= SONDE_PID_MAX)
		return;
	if (!(__atomic_fetch_or(word, bit, __ATOMIC_SEQ_CST) & bit))
		__atomic_fetch_add(&b->skel->bss->ntraced, 1, __ATOMIC_SEQ_CST);
}

void rec_bpf_untrace_tgid(struct rec_bpf *b, pid_t tgid)
{
	uint64_t bit = 1ULL << (tgid & 63);
	__u64 *word = &b->skel->bss->traced[(tgid >> 6) & (SONDE_TRACED_WORDS - 1)];

	if (tgid <= 0 || tgid >= SONDE_PID_MAX)
		return;
	if (__atomic_fetch_and(word, ~bit, __ATOMIC_SEQ_CST) & bit)
		__atomic_fetch_sub(&b->skel->bss->ntraced, 1, __ATOMIC_SEQ_CST);
}

int rec_bpf_user_stack(const struct rec_bpf *b)
{
	return b->skel->rodata->ustack_size != 0;
}

int rec_bpf_is_traced(const struct rec_bpf *b, pid_t tgid)
{
	if (tgid <= 0 || tgid >= SONDE_PID_MAX)
		return 0;
	return (__atomic_load_n(&b->skel->bss->traced[tgid >> 6], __ATOMIC_RELAXED) >>
		(tgid & 63)) & 1;
}

uint64_t rec_bpf_ntraced(const struct rec_bpf *b)
{
	return __atomic_load_n(&b->skel->bss->ntraced, __ATOMIC_SEQ_CST);
}

void rec_bpf_for_each_traced(const struct rec_bpf *b, void (*fn)(pid_t tgid, void *arg),
			     void *arg)
{
	for (unsigned int w = 0; w < SONDE_TRACED_WORDS; w++) {
		uint64_t bits = __atomic_load_n(&b->skel->bss->traced[w], __ATOMIC_RELAXED);

		while (bits) {
			int bit = __builtin_ctzll(bits);

			bits &= bits - 1;
			fn((pid_t)(w * 64 + bit), arg);
		}
	}
}

/* The call in flight in a CPU's slot when the programs were detached. */
int rec_bpf_cpu_slot(const struct rec_bpf *b, unsigned int cpu, pid_t *tgid, pid_t *tid,
		     struct sonde_inflight *out)
{
	const struct sonde_cpu_slot *slot = &b->skel->bss->cpus[cpu].slot;

	*out = slot->e;
	*tgid = slot->tgid;
	*tid = slot->tid;
	return out->active && rec_bpf_is_traced(b, slot->tgid);
}

/*
 * The length read here races with the programs: it only decides whether
 * the CPU is worth an IPI. The flush itself runs on the CPU, where the
 * batch's busy flag orders it with the programs (record_bpf.h).
 */
int rec_bpf_flush_batches(const struct rec_bpf *b)
{
	for (unsigned int cpu = 0; cpu < b->ncpus; cpu++) {
		LIBBPF_OPTS(bpf_test_run_opts, run, .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = cpu);

		if (!__atomic_load_n(&b->skel->bss->batches[cpu].len, __ATOMIC_RELAXED))
			continue;
		if (bpf_prog_test_run_opts(b->flush_fd, &run))
			return -errno;
	}
	return 0;
}

const void *rec_bpf_take_batch(struct rec_bpf *b, unsigned int cpu, size_t *len)
{
	struct sonde_cpu_batch *cb = &b->skel->bss->batches[cpu];

	*len = cb->len > SONDE_BATCH_BYTES ? SONDE_BATCH_BYTES : cb->len;
	cb->len = 0;
	cb->nrec = 0;
	return cb->recs;
}

void rec_bpf_cpu_lost(const struct rec_bpf *b, unsigned int cpu, uint64_t *pending,
		      uint64_t *first_ts, uint64_t *total)
{
	struct sonde_cpu_state *cs = &b->skel->bss->cpus[cpu];

	*pending = __atomic_exchange_n(&cs->lost, 0, __ATOMIC_SEQ_CST);
	*first_ts = cs->lost_ts;
	*total = __atomic_load_n(&cs->lost_total, __ATOMIC_SEQ_CST);
}

/*
 * Task storage maps are keyed by a pidfd from user space. PIDFD_THREAD
 * (6.9+) gives a pidfd for a thread that is not a group leader; without it
 * pidfd_open refuses non-leaders with EINVAL, so older kernels only see the
 * leaders' in-flight calls.
 */
int rec_bpf_inflight(const struct rec_bpf *b, pid_t tid, struct sonde_inflight *out)
{
	int pidfd, e;

	pidfd = syscall(SYS_pidfd_open, tid, PIDFD_THREAD);
	if (pidfd < 0 && errno == EINVAL)
		pidfd = syscall(SYS_pidfd_open, tid, 0);
	if (pidfd < 0)
		return -errno;
	e = bpf_map_lookup_elem(b->inflight_fd, &pidfd, out) ? -errno : 0;
	close(pidfd);
	if (e == -ENOENT)
		return 0;
	if (e)
		return e;
	return out->active ? 1 : 0;
}

int rec_bpf_set_inflight(const struct rec_bpf *b, pid_t tid, const struct sonde_inflight *in)
{
	struct sonde_inflight cur;
	int pidfd, e = 0;

	pidfd = syscall(SYS_pidfd_open, tid, PIDFD_THREAD);
	if (pidfd < 0 && errno == EINVAL)
		pidfd = syscall(SYS_pidfd_open, tid, 0);
	if (pidfd < 0)
		return -errno;
	/* Since its bit was set, the thread may have returned and entered a
	 * new call, spilled here by a context switch: that one wins. */
	if (!bpf_map_lookup_elem(b->inflight_fd, &pidfd, &cur) && cur.active)
		goto out;
	if (bpf_map_update_elem(b->inflight_fd, &pidfd, in, BPF_ANY))
		e = -errno;
out:
	close(pidfd);
	return e;
}
