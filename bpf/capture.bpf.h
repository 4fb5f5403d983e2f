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
 * Records are built in a per-CPU scratch slot (cap_buf, indexed by CPU:
 * a PERCPU_ARRAY value cannot exceed 32 KiB) and copied to this CPU's ring
 * with bpf_ringbuf_output, which takes a variable size:
 *
 *   cap_buf[cpu] = | struct sonde_ev_payload | data[SONDE_PL_CHUNK] |
 *
 * Shedding: before each chunk the ring's fill level is checked; above half
 * full the payload is dropped (the syscall records, 96 bytes, must keep
 * flowing) and a data-less record flagged SONDE_PLR_SHED says what was
 * dropped, so every shed byte is accounted in the trace and in cap_cpus.
 *
 * Faults: bpf_probe_read_user never sleeps; memory not present (paged
 * out, bad pointer) is recorded as SONDE_PLR_UNREADABLE and the
 * application is unaffected.
 */
#ifndef SONDE_BPF_CAPTURE_H
#define SONDE_BPF_CAPTURE_H

#include <sonde/payload.h>

/* 0: no payloads; else the per-call byte cap. */
const volatile __u32 cap_snaplen;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SONDE_NR_SYSCALLS);
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

/* Identity of the call the payloads belong to. */
struct cap_call {
	__u64 ts;
	__u32 tgid, tid, nr;
	__u8 phase;
	long ret;
	const __u64 *args;
};

struct cap_req {
	__u64 addr;
	__u32 requested, returned, len;
	__u8 arg, flags;
};

static __always_inline void cap_hdr(struct sonde_ev_payload *p, const struct cap_call *c,
				    const struct cap_req *r, __u32 cpu)
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

/* A data-less record: unreadable memory, or a payload shed. */
static __noinline void cap_marker(const struct cap_call *c, const struct cap_req *r, __u8 flags)
{
	struct sonde_ev_payload *p;
	struct emit em;

	if (emit_begin(&em, c->ts))
		return;
	p = emit_reserve(&em, sizeof(*p), c->ts);
	if (!p)
		return;
	cap_hdr(p, c, r, em.cpu);
	p->flags |= flags;
	emit_submit(&em, p);
}

/* Ring fill above half: payloads give way to the small records. */
static __always_inline int cap_pressure(void *ring, __u32 n)
{
	__u64 avail = bpf_ringbuf_query(ring, BPF_RB_AVAIL_DATA);
	__u64 size = bpf_ringbuf_query(ring, BPF_RB_RING_SIZE);

	return avail + n + 4096 > size / 2;
}

/*
 * Copies r->len bytes (already capped by the snaplen) at r->addr into
 * chunk records. Returns the bytes captured.
 */
static __noinline __u32 cap_bytes(const struct cap_call *c, struct cap_req *r)
{
	struct cap_scratch *b;
	struct emit em;
	__u32 off = 0, key;

	if (emit_begin(&em, c->ts))
		return 0;
	key = em.cpu;
	b = bpf_map_lookup_elem(&cap_buf, &key);
	if (!b)
		return 0;
	for (int i = 0; i < SONDE_PL_MAX_CHUNKS; i++) {
		__u32 n = r->len - off;

		if (off >= r->len)
			break;
		if (n > SONDE_PL_CHUNK)
			n = SONDE_PL_CHUNK;
		if (cap_pressure(em.ring, n)) {
			em.cs = &cpus[em.cpu & (SONDE_MAX_CPUS - 1)];
			__sync_fetch_and_add(&cap_cpus[em.cpu & (SONDE_MAX_CPUS - 1)].shed, 1);
			__sync_fetch_and_add(&cap_cpus[em.cpu & (SONDE_MAX_CPUS - 1)].shed_bytes,
					     r->len - off);
			r->len = off;
			cap_marker(c, r, SONDE_PLR_SHED);
			return off;
		}
		if (bpf_probe_read_user(b->data, n & (SONDE_PL_CHUNK * 2 - 1) & 0xffff,
					(void *)(r->addr + off))) {
			if (!off) {
				__sync_fetch_and_add(&cap_cpus[em.cpu & (SONDE_MAX_CPUS - 1)].faults, 1);
				cap_marker(c, r, SONDE_PLR_UNREADABLE);
			}
			return off;
		}
		cap_hdr(&b->p, c, r, em.cpu);
		b->p.captured = r->len;
		b->p.offset = off;
		b->p.chunk = n;
		b->p.hdr.size = (sizeof(b->p) + n + 7) & ~7u;
		if (bpf_ringbuf_output(em.ring, b, ((sizeof(b->p) + n + 7) & ~7u) &
					   (sizeof(*b) * 2 - 1) & 0x1ffff,
				       BPF_RB_NO_WAKEUP)) {
			if (__sync_fetch_and_add(&em.cs->lost, 1) == 0)
				em.cs->lost_ts = c->ts;
			__sync_fetch_and_add(&em.cs->lost_total, 1);
			return off;
		}
		__sync_fetch_and_add(&cap_cpus[em.cpu & (SONDE_MAX_CPUS - 1)].records, 1);
		__sync_fetch_and_add(&cap_cpus[em.cpu & (SONDE_MAX_CPUS - 1)].bytes, n);
		off += n;
	}
	return off;
}

/* A NUL-terminated string, one chunk at most (SONDE_PL_STR_MAX). */
static __noinline void cap_str(const struct cap_call *c, __u8 arg, __u64 addr)
{
	struct cap_scratch *b;
	struct cap_req r = { .addr = addr, .arg = arg, .flags = SONDE_PLR_STRING };
	struct emit em;
	__u32 key;
	long n;

	if (!addr || emit_begin(&em, c->ts))
		return;
	key = em.cpu;
	b = bpf_map_lookup_elem(&cap_buf, &key);
	if (!b)
		return;
	n = bpf_probe_read_user_str(b->data, SONDE_PL_STR_MAX, (void *)addr);
	if (n <= 0) {
		__sync_fetch_and_add(&cap_cpus[em.cpu & (SONDE_MAX_CPUS - 1)].faults, 1);
		cap_marker(c, &r, SONDE_PLR_UNREADABLE);
		return;
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
		return;
	}
	if (bpf_ringbuf_output(em.ring, b, ((sizeof(b->p) + n + 7) & ~7u) & 0x1fff,
			       BPF_RB_NO_WAKEUP)) {
		if (__sync_fetch_and_add(&em.cs->lost, 1) == 0)
			em.cs->lost_ts = c->ts;
		__sync_fetch_and_add(&em.cs->lost_total, 1);
		return;
	}
	__sync_fetch_and_add(&cap_cpus[em.cpu & (SONDE_MAX_CPUS - 1)].records, 1);
	__sync_fetch_and_add(&cap_cpus[em.cpu & (SONDE_MAX_CPUS - 1)].bytes, n);
}

static __always_inline void cap_len(const struct cap_call *c, __u8 arg, __u64 addr,
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

/* iovec array, then each buffer: all of it at entry, at exit only the
 * ret bytes the call produced. */
static __noinline void cap_iov(const struct cap_call *c, __u8 arg, __u64 addr, __u64 cnt)
{
	__u64 left = c->phase ? (__u64)c->ret : ~0ULL;

	if (cnt > 64)
		cnt = 64;
	if (!c->phase || c->phase)
		cap_len(c, arg, addr, cnt * 16, cnt * 16, cnt * 16);
	for (int i = 0; i < 64; i++) {
		__u64 base, len;

		if (i >= cnt || !left)
			break;
		base = cap_u64(addr + i * 16);
		len = cap_u64(addr + i * 16 + 8);
		if (len > left)
			len = left;
		cap_len(c, arg, base, len, len, len);
		left -= len;
	}
}

/* argv/envp: the pointer array (with its NULL), then the strings. */
static __noinline void cap_strv(const struct cap_call *c, __u8 arg, __u64 addr)
{
	int n = 0;

	for (int i = 0; i < 256; i++) {
		if (!cap_u64(addr + i * 8))
			break;
		n++;
	}
	cap_len(c, arg, addr, (n + 1) * 8, (n + 1) * 8, (n + 1) * 8);
	for (int i = 0; i < 256; i++) {
		if (i >= n)
			break;
		cap_str(c, arg, cap_u64(addr + i * 8));
	}
}

/* struct msghdr on x86-64: name, namelen, iov, iovlen, control, controllen. */
static __noinline void cap_msghdr(const struct cap_call *c, __u8 arg, __u64 addr)
{
	__u64 m[7] = {};

	if (!addr || bpf_probe_read_user(m, sizeof(m), (void *)addr))
		return;
	cap_len(c, arg, addr, 56, 56, 56);
	if (m[0])
		cap_len(c, arg, m[0], (__u32)m[1], (__u32)m[1], (__u32)m[1] > 128 ? 128 : (__u32)m[1]);
	if (m[2])
		cap_iov(c, arg, m[2], m[3]);
	if (m[4])
		cap_len(c, arg, m[4], m[5], m[5], m[5] > 1024 ? 1024 : m[5]);
}

static __noinline void cap_item(const struct cap_call *c, const struct sonde_cap_item *it)
{
	__u32 a = it->arg < 6 ? it->arg : 0, x = it->aux < 6 ? it->aux : 0;
	__u64 addr = c->args[a], mul = it->size ? it->size : 1;
	int in;

	switch (it->kind) {
	case SONDE_CAP_STR:
		cap_str(c, a, addr);
		break;
	case SONDE_CAP_FIXED:
		cap_len(c, a, addr, it->size, it->size, it->size);
		break;
	case SONDE_CAP_ARGLEN:
		cap_len(c, a, addr, c->args[x] * mul, c->args[x] * mul, c->args[x] * mul);
		break;
	case SONDE_CAP_RETLEN:
		if (c->phase && c->ret > 0)
			cap_len(c, a, addr, c->args[x] * mul, c->ret * mul, c->ret * mul);
		break;
	case SONDE_CAP_IOV:
		cap_iov(c, a, addr, c->args[x]);
		break;
	case SONDE_CAP_STRV:
		cap_strv(c, a, addr);
		break;
	case SONDE_CAP_MSGHDR:
		cap_msghdr(c, a, addr);
		break;
	case SONDE_CAP_SOCKLEN:
		in = 0;
		if (!c->args[x] || bpf_probe_read_user(&in, sizeof(in), (void *)c->args[x]))
			break;
		cap_len(c, x, c->args[x], 4, 4, 4);
		if (c->phase && in > 0)
			cap_len(c, a, addr, in, in, in > 1024 ? 1024 : in);
		break;
	case SONDE_CAP_FDSET:
		cap_len(c, a, addr, (c->args[0] + 63) / 64 * 8, (c->args[0] + 63) / 64 * 8,
			(c->args[0] & 0xffff) / 64 * 8 + 8);
		break;
	case SONDE_CAP_FIELD:
		cap_len(c, a, cap_u64(addr + it->aux), it->size, it->size, it->size);
		break;
	}
}

static __always_inline void capture(struct task_struct *t, __u64 ts, __u32 nr, const __u64 *args,
				    long ret, __u8 phase)
{
	struct sonde_cap_plan *pl;
	struct cap_call c = { .ts = ts, .tgid = t->tgid, .tid = t->pid, .nr = nr,
			      .phase = phase, .ret = ret, .args = args };
	__u32 key = nr;

	if (!cap_snaplen || nr >= SONDE_NR_SYSCALLS)
		return;
	pl = bpf_map_lookup_elem(&cap_plan, &key);
	if (!pl)
		return;
	for (int i = 0; i < SONDE_CAP_ITEMS; i++) {
		const struct sonde_cap_item *it = &pl->it[i];

		if (!it->kind)
			break;
		if (!(it->phase & (phase ? SONDE_CAP_EXIT : SONDE_CAP_ENTRY)))
			continue;
		/* Output memory of a failed call holds nothing it produced. */
		if (phase && ret < 0 && ret >= -4095)
			continue;
		cap_item(&c, it);
	}
}

/* Called by sys_enter once the in-flight slot is filled. */
static __always_inline void capture_enter(struct task_struct *t, struct sonde_inflight *e)
{
	capture(t, e->ts, e->nr, e->args, 0, 0);
}

/* Called by sys_exit before the syscall record is emitted. */
static __always_inline void capture_exit(struct task_struct *t, struct sonde_inflight *e, long ret)
{
	capture(t, e->ts, e->nr, e->args, ret, 1);
}

#endif /* SONDE_BPF_CAPTURE_H */
