/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Transport: one BPF ring buffer per CPU, no per-event wakeup. Syscall,
 * switch and wakeup records are gathered in a per-CPU batch first and
 * written with one bpf_ringbuf_output (layout and rules in record_bpf.h);
 * the others are reserved and submitted in place.
 *
 *   rings (ARRAY_OF_MAPS, max_entries = possible CPUs, set by user space)
 *   +--------+--------+-----+
 *   | cpu 0  | cpu 1  | ... |     each slot: a RINGBUF map created by user
 *   +---|----+---|----+-----+     space (size = --ring-size) before attach
 *       v        v
 *   [hdr|rec|hdr|rec|....]        libbpf ring: 8-byte kernel header per
 *                                 record, records padded to 8 bytes
 *
 * Per-CPU rings mean the ring spinlock is never contended across CPUs and
 * each ring holds one CPU's records in production order (one stream of the
 * trace file). Programs run with migration disabled, so the CPU number read
 * at the start stays valid for the whole program.
 *
 * Wakeups: every submit passes BPF_RB_NO_WAKEUP except when the ring holds
 * more than wake_bytes of unconsumed data, then BPF_RB_FORCE_WAKEUP. The
 * consumer also drains every ring on a timer, so data below the watermark is
 * never stranded.
 *
 * Losses: a failed reserve bumps cpus[cpu].lost, a failed batch output by
 * the number of records in the batch (and remembers the time of the first
 * loss); the next successful reserve on that CPU first emits a
 * SONDE_REC_LOST record carrying the count, so the hole sits in the stream
 * where it happened. Counts still pending at stop are emitted by user space.
 */
#ifndef SONDE_BPF_RING_H
#define SONDE_BPF_RING_H

struct ring_tmpl {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	/* Inner-map template only: the verifier checks programs against it.
	 * ringbuf's map_meta_equal ignores max_entries, so the real rings
	 * user space inserts may have any size. */
	__uint(max_entries, 4096);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct ring_tmpl);
} rings SEC(".maps");

struct sonde_cpu_state cpus[SONDE_MAX_CPUS];
struct sonde_cpu_batch batches[SONDE_MAX_CPUS]; /* record_bpf.h */

/* Unconsumed bytes above which a submit wakes the consumer. */
const volatile __u64 wake_bytes = 1 << 20;

struct emit {
	void *ring;
	struct sonde_cpu_state *cs;
	struct sonde_cpu_batch *b; /* emit_small: the batch taken, or NULL */
	__u32 cpu;
	__u32 len; /* emit_small: where in b the record goes */
};

static __always_inline struct sonde_cpu_state *cpu_state(__u32 *cpu)
{
	/* bpf_get_smp_processor_id() is inlined by the verifier (6.10+): a
	 * per-CPU load, no call. */
	*cpu = bpf_get_smp_processor_id();
	if (*cpu >= SONDE_MAX_CPUS)
		return NULL;
	return &cpus[*cpu];
}

/*
 * A loss is remembered (count and the time of the first) until the next
 * record that reaches the ring can be preceded by a LOST record.
 */
static __always_inline void lost_add(struct sonde_cpu_state *cs, __u64 n, __u64 ts)
{
	if (__sync_fetch_and_add(&cs->lost, n) == 0)
		cs->lost_ts = ts;
	__sync_fetch_and_add(&cs->lost_total, n);
}

/*
 * The fill level is checked on one submit in WAKE_CHECK_EVERY (a helper
 * call saved on the others): the consumer is woken at most that many
 * submits after the ring crosses wake_bytes, far below its size.
 */
#define WAKE_CHECK_EVERY 64

static __always_inline __u64 submit_flags(void *ring, struct sonde_cpu_state *cs)
{
	if (!(cs->nsubmit++ % WAKE_CHECK_EVERY) &&
	    bpf_ringbuf_query(ring, BPF_RB_AVAIL_DATA) >= wake_bytes)
		return BPF_RB_FORCE_WAKEUP;
	return BPF_RB_NO_WAKEUP;
}

static __always_inline void hdr_fill(struct sonde_hdr *h, __u64 ts, __u32 pid, __u32 tid,
				     __u16 type, __u16 size, __u16 cpu, __u16 flags)
{
	h->ts = ts;
	h->pid = pid;
	h->tid = tid;
	h->type = type;
	h->size = size;
	h->cpu = cpu;
	h->flags = flags;
}

/*
 * Emits the pending loss count before the next event. The count is taken
 * with an atomic exchange after the reserve succeeds: a program nested on
 * this CPU (a wakeup from an interrupt) may have emitted it meanwhile, in
 * which case the reservation is discarded.
 */
static __always_inline int lost_emit(void *ring, struct sonde_cpu_state *cs, __u32 cpu)
{
	struct sonde_ev_lost *l;
	__u64 n;

	l = bpf_ringbuf_reserve(ring, sizeof(*l), 0);
	if (!l)
		return -1;
	n = __sync_lock_test_and_set(&cs->lost, 0);
	if (!n) {
		bpf_ringbuf_discard(l, BPF_RB_NO_WAKEUP);
		return 0;
	}
	hdr_fill(&l->hdr, cs->lost_ts, 0, 0, SONDE_REC_LOST, sizeof(*l), cpu, 0);
	l->count = n;
	l->kind = SONDE_LOST_RING;
	l->_pad = 0;
	bpf_ringbuf_submit(l, 0);
	return 0;
}

/* Out of line for the many emit_reserve sites; batch_flush inlines it,
 * because its callers already sit deep in the capture paths' calls (the
 * verifier allows 8 frames). */
static __noinline int emit_lost(void *ring, struct sonde_cpu_state *cs, __u32 cpu)
{
	return lost_emit(ring, cs, cpu);
}

/*
 * Taking the CPU's batch (record_bpf.h): NULL while a program this one
 * interrupted holds it. Nesting on one CPU is strictly last in, first
 * out, so a plain test and set is enough; the volatile accesses and the
 * barriers keep the compiler from moving batch accesses outside them.
 */
static __always_inline struct sonde_cpu_batch *batch_take(__u32 cpu)
{
	struct sonde_cpu_batch *b = &batches[cpu & (SONDE_MAX_CPUS - 1)];

	if (*(volatile __u32 *)&b->busy)
		return NULL;
	*(volatile __u32 *)&b->busy = 1;
	asm volatile("" ::: "memory");
	return b;
}

static __always_inline void batch_put(struct sonde_cpu_batch *b)
{
	asm volatile("" ::: "memory");
	*(volatile __u32 *)&b->busy = 0;
}

/* An empty batch: no records, and nothing for a packed syscall record
 * to be packed against (record_bpf.h). */
static __always_inline void batch_reset(struct sonde_cpu_batch *b)
{
	b->len = 0;
	b->nrec = 0;
	__builtin_memset(&b->prev, 0, sizeof(b->prev));
}

/* The time of a batch's first record, for the LOST record that replaces
 * the batch. A packed syscall record first in its batch is always WIDE. */
static __always_inline __u64 batch_first_ts(const struct sonde_cpu_batch *b)
{
	const struct sonde_ring_sc *p = (const void *)b->recs;

	if (p->type == SONDE_RING_SC)
		return p->more[0] - p->more[1];
	return ((const struct sonde_hdr *)b->recs)->ts;
}

/* Writes the taken batch b of this CPU to its ring, or counts it lost. */
static __noinline int batch_flush(void *ring, struct sonde_cpu_state *cs,
				  struct sonde_cpu_batch *b, __u32 cpu)
{
	__u32 len = b->len, n;

	if (!len)
		return 0;
	/* The bound is for the verifier: len never exceeds the buffer. */
	if (len > SONDE_BATCH_BYTES)
		len = SONDE_BATCH_BYTES;
	n = b->nrec;
	batch_reset(b);
	if (cs->lost)
		lost_emit(ring, cs, cpu);
	b->hdr.ts = 0;
	b->hdr.pid = 0;
	b->hdr.tid = 0;
	b->hdr.type = SONDE_RING_BATCH;
	b->hdr.size = sizeof(b->hdr) + len;
	b->hdr.cpu = cpu;
	b->hdr.flags = 0;
	if (bpf_ringbuf_output(ring, &b->hdr, sizeof(b->hdr) + len, submit_flags(ring, cs)))
		lost_add(cs, n, batch_first_ts(b)); /* recs are left as they were */
	return 0;
}

/* Before a record goes to the ring directly: the batch goes first. */
static __always_inline void batch_flush_pending(void *ring, struct sonde_cpu_state *cs,
						__u32 cpu)
{
	struct sonde_cpu_batch *b;

	if (!batches[cpu & (SONDE_MAX_CPUS - 1)].len)
		return;
	b = batch_take(cpu);
	if (!b)
		return;
	batch_flush(ring, cs, b, cpu);
	batch_put(b);
}

/*
 * Picks the ring of this CPU (cs = cpus[cpu]). A missing ring (user space
 * not done setting up) still counts the event as lost.
 */
static __always_inline int emit_begin_on(struct emit *em, __u32 cpu, struct sonde_cpu_state *cs,
					 __u64 now)
{
	em->cpu = cpu;
	em->cs = cs;
	/* Lookups in an ARRAY_OF_MAPS are inlined by the verifier. */
	em->ring = bpf_map_lookup_elem(&rings, &cpu);
	if (!em->ring) {
		lost_add(cs, 1, now);
		return -1;
	}
	batch_flush_pending(em->ring, cs, cpu);
	return 0;
}

/* cpu_state, counting the event lost (in cpus[0]) on a CPU beyond
 * SONDE_MAX_CPUS. */
static __always_inline struct sonde_cpu_state *cpu_state_or_lost(__u32 *cpu)
{
	struct sonde_cpu_state *cs = cpu_state(cpu);

	if (!cs)
		__sync_fetch_and_add(&cpus[0].lost_total, 1);
	return cs;
}

static __always_inline int emit_begin(struct emit *em, __u64 now)
{
	struct sonde_cpu_state *cs;
	__u32 cpu;

	cs = cpu_state_or_lost(&cpu);
	if (!cs)
		return -1;
	return emit_begin_on(em, cpu, cs, now);
}

/* size must be a constant: bpf_ringbuf_reserve takes ARG_CONST_ALLOC_SIZE. */
#define emit_reserve(em, size, now)                                                       \
	({                                                                                 \
		void *p_ = NULL;                                                           \
		if (!(em)->cs->lost || !emit_lost((em)->ring, (em)->cs, (em)->cpu))        \
			p_ = bpf_ringbuf_reserve((em)->ring, (size), 0);                   \
		if (!p_)                                                                   \
			lost_add((em)->cs, 1, (now));                                      \
		p_;                                                                        \
	})

static __always_inline void emit_submit(struct emit *em, void *rec)
{
	bpf_ringbuf_submit(rec, submit_flags(em->ring, em->cs));
}

/*
 * Room for a record of size bytes (a constant, at most
 * SONDE_BATCH_REC_MAX) on this CPU: at the end of its batch, which costs
 * no helper call, or, while a program this one interrupted holds the
 * batch, reserved in the ring. NULL if lost (counted). The record is
 * filled, then handed to emit_small_end.
 */
static __always_inline void *emit_small(struct emit *em, __u32 cpu, struct sonde_cpu_state *cs,
					__u32 size, __u64 now)
{
	__u32 len;

	em->b = batch_take(cpu);
	if (!em->b) {
		if (emit_begin_on(em, cpu, cs, now))
			return NULL;
		return emit_reserve(em, size, now);
	}
	em->cpu = cpu;
	em->cs = cs;
	len = em->b->len;
	/* Never true (a batch without room for the largest record is
	 * written out at once); tells the verifier the record fits. */
	if (len > SONDE_BATCH_BYTES - SONDE_BATCH_REC_MAX)
		len = SONDE_BATCH_BYTES - SONDE_BATCH_REC_MAX;
	em->len = len;
	return em->b->recs + len;
}

static __always_inline void emit_small_end(struct emit *em, void *rec, __u32 size, __u64 now)
{
	struct sonde_cpu_batch *b = em->b;
	void *ring;

	if (!b) {
		emit_submit(em, rec);
		return;
	}
	b->len = em->len + size;
	b->nrec++;
	if (b->len > SONDE_BATCH_BYTES - SONDE_BATCH_REC_MAX) {
		ring = bpf_map_lookup_elem(&rings, &em->cpu);
		if (ring) {
			batch_flush(ring, em->cs, b, em->cpu);
		} else {
			lost_add(em->cs, b->nrec, now);
			batch_reset(b);
		}
	}
	batch_put(b);
}

#endif /* SONDE_BPF_RING_H */
