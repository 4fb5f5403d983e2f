/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Payload capture (docs/design/payloads.md): the user memory behind
 * syscall arguments, read at sys_enter (paths, strings, input buffers and
 * structs: what the kernel was given) and at sys_exit (output buffers and
 * structs: only the bytes the call produced). Included by sonde.bpf.c,
 * whose sys_enter/sys_exit programs call capture_enter/capture_exit.
 *
 * What to read for each syscall comes from user space in cap_plan (built
 * from the decoders' signature table, src/decode/strace/capture_plan.c),
 * so the kernel side is a small interpreter of a few capture kinds.
 *
 * Records go to this CPU's ring three ways:
 *
 *   payload <= CAP_SMALL (256)   bpf_ringbuf_reserve of a constant size,
 *                                bpf_probe_read_user in place (cap_small)
 *   <= SONDE_PL_CHUNK (16 KiB)   bpf_ringbuf_reserve_dynptr of the exact
 *   per chunk, larger ones cut   size, bpf_probe_read_user_dynptr into it
 *   by a bpf_loop                (cap_chunk): no second copy
 *   strings (length unknown      read into a per-CPU scratch slot (cap_buf,
 *   until read)                  indexed by CPU: a PERCPU_ARRAY value
 *                                cannot exceed 32 KiB), then
 *                                bpf_ringbuf_output (cap_str)
 *
 * Shedding: before each chunk the ring's fill level is checked; above half
 * full the payload is dropped (the syscall records, 96 bytes, must keep
 * flowing) and a data-less record flagged SONDE_PLR_SHED says what was
 * dropped, so every shed byte is accounted in the trace and in cap_cpus.
 *
 * Faults: bpf_probe_read_user never sleeps; memory not present (paged
 * out, bad pointer) is recorded as SONDE_PLR_UNREADABLE and the
 * application is unaffected. The faulting bpf_copy_from_user* helpers
 * need a sleepable program, which 6.18 refuses for tp_btf, raw_tp and
 * tracepoint programs alike ("Only fentry/fexit/fmod_ret, lsm, iter,
 * uprobe, and struct_ops programs can be sleepable"), fentry being
 * refused here anyway: an entry read that faults is retried at sys_exit
 * instead (cap_retry below).
 */
#ifndef SONDE_BPF_CAPTURE_H
#define SONDE_BPF_CAPTURE_H

#include <sonde/payload.h>

/* 0: no payloads; else the per-call byte cap. */
const volatile __u32 cap_snaplen;
/* Ring fill (bytes) above which payloads are shed: half a ring. */
const volatile __u64 cap_shed_at = 1 << 20;

/*
 * A generic kfunc (kernel/bpf/helpers.c; in this 6.18 kernel's BTF, not
 * declared by the vmlinux.h of bpftool 7.1, which has no kfuncs): like
 * bpf_probe_read_user, non-sleepable, a page that is not present fails.
 */
extern int bpf_probe_read_user_dynptr(struct bpf_dynptr *dptr, __u64 off, __u64 size,
				      const void *unsafe_ptr__ign) __ksym;

/* By number, then the i386 calls recorded as SONDE_NR_I386 + n at
 * SONDE_NR_SYSCALLS + n (events.h). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SONDE_NR_SYSCALLS + SONDE_NR_I386_LEN);
	__type(key, __u32);
	__type(value, struct sonde_cap_plan);
} cap_plan SEC(".maps");

struct cap_scratch {
	struct sonde_ev_payload p;
	__u8 data[SONDE_PL_CHUNK];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1); /* user space sets the CPU count */
	__type(key, __u32);
	__type(value, struct cap_scratch);
} cap_buf SEC(".maps");

struct sonde_cap_cpu cap_cpus[SONDE_MAX_CPUS];

/*
 * Identity of the call the payloads belong to. The capture functions are
 * global BPF functions (verified once each, not once per call site, which
 * keeps sys_enter/sys_exit under the verifier's budget); their pointer
 * arguments must point to plain memory, hence args by value.
 */
struct cap_call {
	__u64 ts;
	__u64 args[6];
	long ret;
	__u32 tgid, tid, nr;
	__u32 phase;
	__u32 quiet_fault; /* entry: a fault is retried at exit, not recorded */
	__u32 faulted;
	__u32 i386; /* an i386 call: 32-bit pointers and iovecs (events.h) */
	__u64 sp;   /* the entry's stack pointer, when read at exit (0: now's) */
	__u32 holes; /* pages not present read as zeros (a stack, ustack.h) */
};

/*
 * Entry reads that faulted, per task: memory the program has not touched
 * yet (a path in a libc page not yet faulted in) cannot be read by BPF,
 * which must not sleep. The kernel reads it during the call, so at exit it
 * is resident: those items are read again then (still labelled entry).
 */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u32);
} cap_retry SEC(".maps");

/*
 * Tasks with a retry pending, machine-wide: sys_exit looks the task's
 * storage up only when some task has one (a helper call saved on nearly
 * every exit). A task that dies between entry and exit (exit_group)
 * leaves the count high: later exits then only look up in vain.
 */
__u64 cap_retry_pending;

struct cap_req {
	__u64 addr;
	__u32 requested, returned, len;
	__u8 arg, flags;
};

static __always_inline void cap_hdr(struct sonde_ev_payload *p, struct cap_call *c,
				    struct cap_req *r, __u32 cpu)
{
	hdr_fill(&p->hdr, c->ts, c->tgid, c->tid, SONDE_REC_PAYLOAD, sizeof(*p), cpu, 0);
	p->addr = r->addr;
	p->requested = r->requested;
	p->returned = r->returned;
	p->captured = 0;
	p->offset = 0;
	p->nr = c->nr;
	p->arg = r->arg;
	p->phase = c->phase;
	p->flags = r->flags;
	p->_pad[0] = p->_pad[1] = p->_pad[2] = 0;
	p->chunk = 0;
	p->_pad2 = 0;
}

/*
 * A record of len bytes that are not user memory (addr 0, every length
 * len, one chunk): descriptor facts (fdinfo.h), or with len 0 the
 * instruction pointer record, whose caller sets addr.
 */
static __always_inline void payload_facts_hdr(struct sonde_ev_payload *p, __u64 ts, __u32 tgid,
					      __u32 tid, __u32 nr, __u32 arg, __u32 phase,
					      __u32 len, __u32 cpu)
{
	hdr_fill(&p->hdr, ts, tgid, tid, SONDE_REC_PAYLOAD, sizeof(*p) + len, cpu, 0);
	p->addr = 0;
	p->requested = p->returned = p->captured = len;
	p->offset = 0;
	p->nr = nr;
	p->arg = arg;
	p->phase = phase;
	p->flags = 0;
	p->_pad[0] = p->_pad[1] = p->_pad[2] = 0;
	p->chunk = len;
	p->_pad2 = 0;
}

/* A data-less record: unreadable memory, or a payload shed. */
static __always_inline int cap_marker(struct cap_call *c, struct cap_req *r, __u32 flags)
{
	struct sonde_ev_payload *p;
	struct emit em;

	if (!c || !r || emit_begin(&em, c->ts))
		return 0;
	p = emit_reserve(&em, sizeof(*p), c->ts);
	if (!p)
		return 0;
	cap_hdr(p, c, r, em.cpu);
	p->flags |= flags;
	emit_submit(&em, p);
	return 0;
}

/*
 * Ring fill above cap_shed_at (half the ring, set by user space): payloads
 * give way to the small records. One helper call: the ring size is known.
 */
static __always_inline int cap_pressure(void *ring, __u32 n)
{
	return bpf_ringbuf_query(ring, BPF_RB_AVAIL_DATA) + n + 4096 > cap_shed_at;
}

/* A capture failed for want of ring space: counted like any lost record. */
static __always_inline void cap_lost(struct emit *em, __u64 ts)
{
	if (__sync_fetch_and_add(&em->cs->lost, 1) == 0)
		em->cs->lost_ts = ts;
	__sync_fetch_and_add(&em->cs->lost_total, 1);
}

struct cap_loop {
	struct cap_call *c;
	struct cap_req *r;
};

static const __u8 cap_zero[8];
#include "pages.h"

/*
 * Chunk i of a payload, read straight into its ring record: the record is
 * reserved as a dynptr (a reservation of a size known only at run time,
 * which plain bpf_ringbuf_reserve cannot make) and the user bytes land in
 * it with bpf_probe_read_user_dynptr, without the copy through a scratch
 * buffer that bpf_ringbuf_output needs:
 *
 *   | sonde_ev_payload (stack, dynptr_write) | n user bytes | 0..7 zeros |
 *
 * Also a bpf_loop callback for multi-chunk payloads, so the verifier checks
 * the body once instead of once per possible chunk. The offset derives from
 * the index, never accumulates in the context: an accumulated offset is a
 * known constant per iteration and keeps the verifier from converging.
 * Returns 1 to stop; on a failure r->len is cut to what was emitted.
 */
static long cap_chunk(__u32 i, void *ctx)
{
	struct cap_loop *l = ctx;
	struct cap_call *c = l->c;
	struct cap_req *r = l->r;
	struct sonde_cap_cpu *cc;
	struct sonde_ev_payload h;
	struct bpf_dynptr dp;
	struct emit em;
	__u32 n, sz, off = i * SONDE_PL_CHUNK;

	if (off >= r->len || emit_begin(&em, c->ts))
		return 1;
	cc = &cap_cpus[em.cpu & (SONDE_MAX_CPUS - 1)];
	n = r->len - off;
	if (n > SONDE_PL_CHUNK)
		n = SONDE_PL_CHUNK;
	if (cap_pressure(em.ring, n)) {
		__sync_fetch_and_add(&cc->shed, 1);
		__sync_fetch_and_add(&cc->shed_bytes, r->len - off);
		r->len = off;
		cap_marker(c, r, SONDE_PLR_SHED);
		return 1;
	}
	sz = (sizeof(h) + n + 7) & ~7u;
	if (bpf_ringbuf_reserve_dynptr(em.ring, sz, 0, &dp)) {
		/* A failed reservation must be released all the same. */
		bpf_ringbuf_discard_dynptr(&dp, BPF_RB_NO_WAKEUP);
		cap_lost(&em, c->ts);
		r->len = off;
		return 1;
	}
	if (bpf_probe_read_user_dynptr(&dp, sizeof(h), n, (void *)(r->addr + off)) &&
	    (!c->holes || cap_pages(&dp, sizeof(h), n, r->addr + off))) {
		bpf_ringbuf_discard_dynptr(&dp, BPF_RB_NO_WAKEUP);
		if (!off)
			c->faulted = 1;
		if (!off && !c->quiet_fault) {
			__sync_fetch_and_add(&cc->faults, 1);
			cap_marker(c, r, SONDE_PLR_UNREADABLE);
		}
		r->len = off;
		return 1;
	}
	cap_hdr(&h, c, r, em.cpu);
	h.hdr.size = sz;
	h.captured = r->len;
	h.offset = off;
	h.chunk = n;
	bpf_dynptr_write(&dp, 0, &h, sizeof(h), 0);
	/* Ring memory is not cleared: the padding must not show old records. */
	bpf_dynptr_write(&dp, sizeof(h) + n, (void *)cap_zero, (sz - sizeof(h) - n) & 7, 0);
	bpf_ringbuf_submit_dynptr(&dp, BPF_RB_NO_WAKEUP);
	__sync_fetch_and_add(&cc->records, 1);
	__sync_fetch_and_add(&cc->bytes, n);
	return 0;
}

/*
 * Small payloads (structs, short buffers: most of them) take fewer helper
 * calls: a reservation of constant size, filled in place with
 * bpf_probe_read_user. The record only uses hdr.size bytes of it (the
 * consumer accepts a ring record longer than hdr.size); the rest of the
 * CAP_SMALL bytes is ring space left unused until the consumer passes.
 *
 *   | sonde_ev_payload | n user bytes | 0..7 zeros | unused up to CAP_SMALL |
 */
#define CAP_SMALL 256
#define CAP_SMALL_CHECK 8

struct cap_small_rec {
	struct sonde_ev_payload p;
	__u8 data[CAP_SMALL];
};

static __always_inline void cap_small(struct cap_call *c, struct cap_req *r)
{
	struct sonde_cap_cpu *cc;
	struct cap_small_rec *s;
	struct emit em;
	__u32 n = r->len;

	if (n > CAP_SMALL || emit_begin(&em, c->ts))
		return;
	cc = &cap_cpus[em.cpu & (SONDE_MAX_CPUS - 1)];
	/* The fill level is checked on one small payload in CAP_SMALL_CHECK
	 * (a helper call saved on the others), counting the room the next
	 * CAP_SMALL_CHECK of them may take. The counter is this CPU's; a
	 * nested program's lost increment only shifts the sampling. */
	if (!(cc->nsmall++ % CAP_SMALL_CHECK) && cap_pressure(em.ring, CAP_SMALL * CAP_SMALL_CHECK)) {
		__sync_fetch_and_add(&cc->shed, 1);
		__sync_fetch_and_add(&cc->shed_bytes, n);
		r->len = 0;
		cap_marker(c, r, SONDE_PLR_SHED);
		return;
	}
	s = bpf_ringbuf_reserve(em.ring, sizeof(*s), 0);
	if (!s) {
		cap_lost(&em, c->ts);
		r->len = 0;
		return;
	}
	/* The padding word first: the read then overwrites its data part. */
	if (n & 7)
		*(__u64 *)&s->data[n & (CAP_SMALL - 8)] = 0;
	if (bpf_probe_read_user(s->data, n, (void *)r->addr)) {
		bpf_ringbuf_discard(s, BPF_RB_NO_WAKEUP);
		c->faulted = 1;
		if (!c->quiet_fault) {
			__sync_fetch_and_add(&cc->faults, 1);
			cap_marker(c, r, SONDE_PLR_UNREADABLE);
		}
		r->len = 0;
		return;
	}
	cap_hdr(&s->p, c, r, em.cpu);
	s->p.hdr.size = (sizeof(s->p) + n + 7) & ~7u;
	s->p.captured = n;
	s->p.chunk = n;
	bpf_ringbuf_submit(s, BPF_RB_NO_WAKEUP);
	__sync_fetch_and_add(&cc->records, 1);
	__sync_fetch_and_add(&cc->bytes, n);
}

/* Copies r->len bytes (already capped by the snaplen) at r->addr; a
 * single-chunk payload without the bpf_loop call. */
__noinline int cap_bytes(struct cap_call *c, struct cap_req *r)
{
	struct cap_loop l = { .c = c, .r = r };

	if (!c || !r || !r->len)
		return 0;
	if (r->len <= CAP_SMALL)
		cap_small(c, r);
	else if (r->len <= SONDE_PL_CHUNK)
		cap_chunk(0, &l);
	else
		bpf_loop(SONDE_PL_MAX_CHUNKS, cap_chunk, &l, 0);
	return r->len;
}

/* A NUL-terminated string, one chunk at most (SONDE_PL_STR_MAX). */
__noinline int cap_str(struct cap_call *c, __u32 arg, __u64 addr)
{
	struct cap_scratch *b;
	struct cap_req r = { .addr = addr, .arg = arg, .flags = SONDE_PLR_STRING };
	struct emit em;
	__u32 key;
	long n;

	if (!c || !addr || emit_begin(&em, c->ts))
		return 0;
	key = em.cpu;
	b = bpf_map_lookup_elem(&cap_buf, &key);
	if (!b)
		return 0;
	n = bpf_probe_read_user_str(b->data, SONDE_PL_STR_MAX, (void *)addr);
	if (n <= 0) {
		c->faulted = 1;
		if (c->quiet_fault)
			return 0;
		__sync_fetch_and_add(&cap_cpus[em.cpu & (SONDE_MAX_CPUS - 1)].faults, 1);
		cap_marker(c, &r, SONDE_PLR_UNREADABLE);
		return 0;
	}
	/* n counts the NUL; a string cut at SONDE_PL_STR_MAX has none. */
	if (b->data[(n - 1) & (SONDE_PL_STR_MAX - 1)] == 0) {
		n--;
		r.flags |= SONDE_PLR_NUL;
	}
	r.requested = r.returned = r.len = n;
	cap_hdr(&b->p, c, &r, em.cpu);
	b->p.captured = n;
	b->p.chunk = n;
	b->p.hdr.size = (sizeof(b->p) + n + 7) & ~7u;
	if (cap_pressure(em.ring, n)) {
		__sync_fetch_and_add(&cap_cpus[em.cpu & (SONDE_MAX_CPUS - 1)].shed, 1);
		__sync_fetch_and_add(&cap_cpus[em.cpu & (SONDE_MAX_CPUS - 1)].shed_bytes, n);
		cap_marker(c, &r, SONDE_PLR_SHED);
		return 0;
	}
	if (bpf_ringbuf_output(em.ring, b, b->p.hdr.size <= sizeof(*b) ? b->p.hdr.size : sizeof(*b),
			       BPF_RB_NO_WAKEUP)) {
		if (__sync_fetch_and_add(&em.cs->lost, 1) == 0)
			em.cs->lost_ts = c->ts;
		__sync_fetch_and_add(&em.cs->lost_total, 1);
		return 0;
	}
	__sync_fetch_and_add(&cap_cpus[em.cpu & (SONDE_MAX_CPUS - 1)].records, 1);
	__sync_fetch_and_add(&cap_cpus[em.cpu & (SONDE_MAX_CPUS - 1)].bytes, n);
	return 0;
}

static __always_inline void cap_len(struct cap_call *c, __u32 arg, __u64 addr,
				    __u64 requested, __u64 returned, __u64 len)
{
	struct cap_req r = { .addr = addr, .arg = arg };

	if (!addr)
		return;
	if (len > cap_snaplen)
		len = cap_snaplen;
	r.requested = requested > 0xffffffff ? 0xffffffff : requested;
	r.returned = returned > 0xffffffff ? 0xffffffff : returned;
	r.len = len;
	cap_bytes(c, &r);
}

static __always_inline __u64 cap_u64(__u64 addr)
{
	__u64 v = 0;

	bpf_probe_read_user(&v, sizeof(v), (void *)addr);
	return v;
}

struct cap_vec {
	struct cap_call *c;
	__u64 addr, cnt, left;
	__u32 arg;
	__u32 i386; /* iovecs of two 32-bit words */
};

static long cap_iov_one(__u32 i, void *ctx)
{
	struct cap_vec *v = ctx;
	__u64 base, len;

	if (i >= v->cnt || !v->left)
		return 1;
	if (v->i386) {
		len = cap_u64(v->addr + i * 8);
		base = (__u32)len;
		len >>= 32;
	} else {
		base = cap_u64(v->addr + i * 16);
		len = cap_u64(v->addr + i * 16 + 8);
	}
	if (len > v->left)
		len = v->left;
	cap_len(v->c, v->arg, base, len, len, len);
	v->left -= len;
	return 0;
}

/* iovec array, then each buffer: all of it at entry, at exit only the
 * left bytes the call produced. */
__noinline int cap_iov(struct cap_call *c, __u32 arg, __u64 addr, __u64 cnt, __u64 left)
{
	struct cap_vec v = { .c = c, .addr = addr, .cnt = cnt > 64 ? 64 : cnt, .arg = arg };
	__u64 n;

	if (!c)
		return 0;
	v.i386 = c->i386;
	n = v.cnt * (v.i386 ? 8 : 16);
	v.left = c->phase ? left : ~0ULL;
	cap_len(c, arg, addr, n, n, n);
	bpf_loop(64, cap_iov_one, &v, 0);
	return 0;
}

/* Pointer i of an argv/envp array: 4 bytes in an i386 call. */
static __always_inline __u64 cap_strv_ptr(struct cap_vec *v, __u32 i)
{
	__u32 p = 0;

	if (!v->i386)
		return cap_u64(v->addr + i * 8);
	bpf_probe_read_user(&p, sizeof(p), (void *)(v->addr + i * 4));
	return p;
}

static long cap_strv_count(__u32 i, void *ctx)
{
	struct cap_vec *v = ctx;

	if (!cap_strv_ptr(v, i))
		return 1;
	v->cnt = i + 1;
	return 0;
}

static long cap_strv_one(__u32 i, void *ctx)
{
	struct cap_vec *v = ctx;

	if (i >= v->cnt)
		return 1;
	cap_str(v->c, v->arg, cap_strv_ptr(v, i));
	return 0;
}

/*
 * argv/envp: the pointer array (with its NULL), then the strings; an
 * array of more than SONDE_STRV_MAX pointers is cut (payload.h), its
 * count still taken (up to SONDE_STRV_COUNT_MAX, 8 bytes read each) so
 * that the decoder can say how long it was (strace's "N vars" comment):
 *
 *   pointers  0 .. SONDE_STRV_MAX-1 | ... | count | NULL
 *   captured  |<----- cut array ----->|
 *   requested |<------------- (count + 1) * 8 ------------->|
 */
__noinline int cap_strv(struct cap_call *c, __u32 arg, __u64 addr)
{
	struct cap_vec v = { .c = c, .addr = addr, .arg = arg };
	__u64 req, len, psz;

	if (!c || !addr)
		return 0;
	v.i386 = c->i386;
	psz = v.i386 ? 4 : 8;
	bpf_loop(SONDE_STRV_COUNT_MAX, cap_strv_count, &v, 0);
	req = v.cnt < SONDE_STRV_COUNT_MAX ? (v.cnt + 1) * psz : 0xffffffff;
	len = v.cnt < SONDE_STRV_MAX ? (v.cnt + 1) * psz : SONDE_STRV_MAX * psz;
	cap_len(c, arg, addr, req, req, len);
	bpf_loop(SONDE_STRV_MAX, cap_strv_one, &v, 0);
	return 0;
}

__noinline int cap_scm_rights(struct cap_call *c, __u64 ctrl, __u64 clen); /* scm.h */

/* cap_msghdr's how */
#define MSGHDR_SCM 0x1	/* exit: also the descriptors received (scm.h) */
#define MSGHDR_MMSG 0x2 /* in a struct mmsghdr: its msg_len follows */

/*
 * struct msghdr on x86-64: name, namelen, iov, iovlen, control, controllen.
 * At exit msg_controllen is what the kernel wrote back, the bytes of
 * control data it produced, and the message's bytes are the call's
 * return value or, in a struct mmsghdr, its msg_len.
 */
__noinline int cap_msghdr(struct cap_call *c, __u32 arg, __u64 addr, __u32 how)
{
	__u64 m[7] = {}, left;
	__u32 len = 0;

	if (!c || !addr || bpf_probe_read_user(m, sizeof(m), (void *)addr))
		return 0;
	if ((how & MSGHDR_SCM) && c->phase && m[4] && m[5] >= 20)
		cap_scm_rights(c, m[4], m[5] > 4096 ? 4096 : m[5]);
	left = c->ret;
	if (how & MSGHDR_MMSG) {
		bpf_probe_read_user(&len, sizeof(len), (void *)(addr + 56));
		left = len;
	}
	cap_len(c, arg, addr, 56, 56, 56);
	if (m[0])
		cap_len(c, arg, m[0], (__u32)m[1], (__u32)m[1], (__u32)m[1] > 128 ? 128 : (__u32)m[1]);
	if (m[2])
		cap_iov(c, arg, m[2], m[3], left);
	if (m[4])
		cap_len(c, arg, m[4], m[5], m[5], m[5] > 1024 ? 1024 : m[5]);
	return 0;
}

/*
 * struct mmsghdr[n] (sendmmsg, recvmmsg): a msghdr then the message's
 * byte count, 64 bytes each; the array, then each message as cap_msghdr.
 * Inlined into cap_item and a plain bounded loop, not bpf_loop: with a
 * frame of its own and a callback the deepest chain (cap_msghdr, cap_iov
 * and its callback, cap_bytes, cap_chunk) passes the verifier's 8 frames.
 */
static __always_inline void cap_mmsg(struct cap_call *c, __u32 arg, __u64 addr, __u64 n,
				     __u32 scm)
{
	__u32 how = MSGHDR_MMSG | (scm ? MSGHDR_SCM : 0);

	if (!addr)
		return;
	if (n > SONDE_CAP_MMSG_MAX)
		n = SONDE_CAP_MMSG_MAX;
	cap_len(c, arg, addr, n * 64, n * 64, n * 64);
	for (__u32 i = 0; i < SONDE_CAP_MMSG_MAX && i < n; i++)
		cap_msghdr(c, arg, addr + i * 64, how);
}

/*
 * struct sock_fprog { unsigned short len; struct sock_filter *filter; }
 * then len instructions of 8 bytes (the kernel takes BPF_MAXINSNS at
 * most; cap_len bounds the read by the snap length).
 */
static __always_inline void cap_fprog(struct cap_call *c, __u32 arg, __u64 addr)
{
	__u16 len = 0;

	if (!addr)
		return;
	cap_len(c, arg, addr, 16, 16, 16);
	if (bpf_probe_read_user(&len, sizeof(len), (void *)addr))
		return;
	cap_len(c, arg, cap_u64(addr + 8), (__u64)len * 8, (__u64)len * 8, (__u64)len * 8);
}

/* Argument i; a switch, because clang turns a bounds-checked index into
 * code the verifier cannot prove in range. */
static __always_inline __u64 cap_arg(struct cap_call *c, __u32 i)
{
	switch (i) {
	case 0: return c->args[0];
	case 1: return c->args[1];
	case 2: return c->args[2];
	case 3: return c->args[3];
	case 4: return c->args[4];
	case 5: return c->args[5];
	}
	return 0;
}

#include "fdinfo.h"
#include "scm.h"
#include "aio.h"
#include "ioctl.h"

__noinline int cap_item(struct cap_call *c, __u32 kind, __u32 arg, __u32 aux, __u32 size)
{
	__u32 a = arg < 6 ? arg : 0, x = aux < 6 ? aux : 0;
	__u64 addr, mul = size ? size : 1;
	int in;

	if (!c)
		return 0;
	addr = cap_arg(c, a);
	switch (kind) {
	case SONDE_CAP_STR:
		cap_str(c, a, addr);
		break;
	case SONDE_CAP_FIXED:
		cap_len(c, a, addr, size, size, size);
		break;
	case SONDE_CAP_ARGLEN:
		cap_len(c, a, addr, cap_arg(c, x) * mul, cap_arg(c, x) * mul, cap_arg(c, x) * mul);
		break;
	case SONDE_CAP_RETLEN:
		if (c->phase && c->ret > 0)
			cap_len(c, a, addr, cap_arg(c, x) * mul, c->ret * mul, c->ret * mul);
		break;
	case SONDE_CAP_IOV:
		/* A failed read (negative ret) produced no bytes: the array only. */
		cap_iov(c, a, addr, cap_arg(c, x), c->ret > 0 ? c->ret : 0);
		break;
	case SONDE_CAP_STRV:
		cap_strv(c, a, addr);
		break;
	case SONDE_CAP_MSGHDR:
		cap_msghdr(c, a, addr, size ? MSGHDR_SCM : 0);
		break;
	case SONDE_CAP_MMSG:
		/* What the call was given at entry; what it did at exit. */
		cap_mmsg(c, a, addr, c->phase ? (__u64)c->ret : cap_arg(c, x), size);
		break;
	case SONDE_CAP_SOCKLEN:
		in = 0;
		if (!cap_arg(c, x) || bpf_probe_read_user(&in, sizeof(in), (void *)cap_arg(c, x)))
			break;
		cap_len(c, x, cap_arg(c, x), 4, 4, 4);
		if (c->phase && in > 0)
			cap_len(c, a, addr, in, in, in > 1024 ? 1024 : in);
		break;
	case SONDE_CAP_FDSET:
		cap_len(c, a, addr, (c->args[0] + 63) / 64 * 8, (c->args[0] + 63) / 64 * 8,
			(c->args[0] & 0xffff) / 64 * 8 + 8);
		break;
	case SONDE_CAP_PAGES:
		/* Page size 4096: x86-64 is the recorder's only target. */
		cap_len(c, a, addr, (cap_arg(c, x) + 4095) >> 12, (cap_arg(c, x) + 4095) >> 12,
			(cap_arg(c, x) + 4095) >> 12);
		break;
	case SONDE_CAP_URING_PROBE:
		/* 16 bytes of header, 8 per op */
		if (cap_arg(c, x) == 8 && cap_arg(c, size < 6 ? size : 0) <= 256)
			cap_len(c, a, addr, 16 + cap_arg(c, size < 6 ? size : 0) * 8,
				16 + cap_arg(c, size < 6 ? size : 0) * 8,
				16 + cap_arg(c, size < 6 ? size : 0) * 8);
		break;
	case SONDE_CAP_IOCB:
		cap_iocbs(c, a, addr, cap_arg(c, x));
		break;
	case SONDE_CAP_NODEMASK:
		cap_len(c, a, addr, (cap_arg(c, x) + 62) / 64 * 8, (cap_arg(c, x) + 62) / 64 * 8,
			(cap_arg(c, x) + 62) / 64 * 8);
		break;
	case SONDE_CAP_FIELDSTR:
		cap_str(c, a, cap_u64(addr + aux));
		break;
	case SONDE_CAP_MSGBUF:
		cap_len(c, a, addr, 8 + cap_arg(c, x), 8 + cap_arg(c, x), 8 + cap_arg(c, x));
		break;
	case SONDE_CAP_FPROG:
		if (cap_arg(c, x) == size)
			cap_fprog(c, a, addr);
		break;
	case SONDE_CAP_FIELD:
		cap_len(c, a, cap_u64(addr + aux), size, size, size);
		break;
	case SONDE_CAP_STRUCTLEN: {
		__u64 n = cap_u64(cap_arg(c, x) + size) & 0xffffffff;

		cap_len(c, a, addr, n, n, n);
		break;
	}
	case SONDE_CAP_FIELDN: {
		/* the low half of the 8 bytes after the pointer: a u32 count */
		__u64 n = (cap_u64(addr + aux + 8) & 0xffffffff) * size;

		cap_len(c, a, cap_u64(addr + aux), n, n, n);
		break;
	}
	case SONDE_CAP_FDINFO:
		cap_fdinfo(c, a, size);
		break;
	case SONDE_CAP_IOCTL:
		cap_ioctl(c, a);
		break;
	case SONDE_CAP_SOCKINFO:
		if (size == 3)
			cap_send_bound(c, a);
		else
			cap_sockinfo(c, a, size);
		break;
	case SONDE_CAP_SIGMASK: {
		/*
		 * At rt_sigreturn's entry the user stack pointer is at the
		 * kernel's struct ucontext of the signal frame; uc_sigmask
		 * follows uc_flags, uc_link, uc_stack (24) and uc_mcontext
		 * (struct sigcontext, 256): offset 296 on x86-64.
		 */
		struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());

		if (c->sp)
			cap_len(c, 0, c->sp + 296, 8, 8, 8);
		else if (regs)
			cap_len(c, 0, BPF_CORE_READ(regs, sp) + 296, 8, 8, 8);
		break;
	}
	}
	return 0;
}

/* The item's guard (payload.h): is the argument memory for this command? */
static __always_inline int cap_when(struct cap_call *c, const struct sonde_cap_item *it)
{
	__u32 v;

	if (!it->when_mask)
		return 1;
	v = ((__u32)cap_arg(c, it->when_arg) >> (it->when_shift & 31)) - it->when_base;
	return v < 64 && ((it->when_mask >> v) & 1);
}

/*
 * A successful execve returns in a new address space: an exit-time retry
 * would read the new image's memory at the old addresses (a fault at best,
 * unrelated bytes at worst). Their entry faults are recorded at once, and
 * retried at exit only when the call failed: then the address space is
 * the caller's, and the kernel faulted the strings in reading them. The
 * reader takes the retried bytes over the entry's unreadable marker.
 */
static __always_inline int cap_is_exec(__u32 nr)
{
	return nr == 59 || nr == 322; /* execve, execveat */
}

static __always_inline void capture(struct task_struct *t, const struct sonde_inflight *e,
				    long ret, __u32 phase, __u32 late)
{
	struct sonde_cap_plan *pl;
	__u32 nr = e->nr;
	const __u64 *args = e->args;
	struct cap_call c = { .ts = e->ts, .tgid = t->tgid, .tid = t->pid, .nr = nr,
			      .phase = phase, .ret = ret,
			      .quiet_fault = !phase && !late && !cap_is_exec(nr),
			      .i386 = !!(e->flags & SONDE_SC_COMPAT), .sp = late ? e->sp : 0 };
	__u32 key = nr, retry = 0, *rp = NULL;

	if (nr - SONDE_NR_I386 < SONDE_NR_I386_LEN)
		key = SONDE_NR_SYSCALLS + nr - SONDE_NR_I386;
	if (!cap_snaplen || key >= SONDE_NR_SYSCALLS + SONDE_NR_I386_LEN)
		return;
	pl = bpf_map_lookup_elem(&cap_plan, &key);
	if (!pl)
		return;
	for (int i = 0; i < 6; i++)
		c.args[i] = args[i];
	if (phase && cap_retry_pending) {
		rp = bpf_task_storage_get(&cap_retry, t, NULL, 0);
		retry = rp ? *rp : 0;
		if (retry) {
			*rp = 0;
			__sync_fetch_and_add(&cap_retry_pending, -1);
		}
	}
	for (int i = 0; i < SONDE_CAP_ITEMS; i++) {
		const struct sonde_cap_item *it = &pl->it[i];

		if (!it->kind)
			break;
		if (phase && (retry & (1u << i))) {
			if (cap_is_exec(nr) && !(ret < 0 && ret >= -4095))
				continue;
			/* An entry read that faulted: now the page is in. */
			c.phase = 0;
			cap_item(&c, it->kind, it->arg, it->aux, it->size);
			c.phase = phase;
			continue;
		}
		if (!(it->phase & (phase ? SONDE_CAP_EXIT : SONDE_CAP_ENTRY)) || !cap_when(&c, it))
			continue;
		/*
		 * Output memory of a failed call holds nothing it produced;
		 * but a read's iovec array is input that strace shows at exit
		 * even then (cap_iov reads no buffer for it).
		 */
		if (phase && ret < 0 && ret >= -4095 && !(it->phase & SONDE_CAP_FAILED) &&
		    it->kind != SONDE_CAP_SOCKINFO && it->kind != SONDE_CAP_IOV)
			continue;
		c.faulted = 0;
		cap_item(&c, it->kind, it->arg, it->aux, it->size);
		/*
		 * Branch-free: with "if (c.faulted) retry |= bit" every
		 * combination of faulted items is a distinct verifier state,
		 * 2^SONDE_CAP_ITEMS of them (12 items passed the 1M limit).
		 */
		if (!phase)
			retry |= (c.faulted & 1) << i;
	}
	if (!phase && !late && retry) {
		rp = bpf_task_storage_get(&cap_retry, t, NULL, BPF_LOCAL_STORAGE_GET_F_CREATE);
		if (rp) {
			if (!*rp)
				__sync_fetch_and_add(&cap_retry_pending, 1);
			*rp = retry;
		}
	}
}

/* Called by sys_enter once the in-flight slot is filled. */
static __always_inline void capture_enter(struct task_struct *t, struct sonde_inflight *e)
{
	capture(t, e, 0, 0, 0);
}

/*
 * The entry items read at sys_exit instead, for --failed-only (sys_exit
 * in sonde.bpf.c says why). The kernel has just read that memory during
 * the call, so it is resident: a fault is final, never retried.
 */
static __always_inline void capture_enter_late(struct task_struct *t, struct sonde_inflight *e)
{
	capture(t, e, 0, 0, 1);
}

/* Called by sys_exit before the syscall record is emitted. */
static __always_inline void capture_exit(struct task_struct *t, struct sonde_inflight *e, long ret)
{
	capture(t, e, ret, 1, 0);
}

#endif /* SONDE_BPF_CAPTURE_H */
