// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the strace decoders: the captured memory of a call
 * is whatever the traced program had there, so every decoder (structs,
 * iovecs, msghdrs and their control data, netlink messages, descriptor
 * facts) must bound what it reads by what was captured, whatever the
 * lengths inside say.
 *
 * Input: one options byte, then calls until the input ends (at most
 * MAX_CALLS). With the options byte's top bit set, the rest is instead a
 * stream of raw records for sonde_strace_feed() (the reader's order), to
 * reach the grouping of payloads with their calls (feed.c).
 *
 *   call     u16 nr | u8 argmask | 6 args | s64 ret | u8 npl | payloads
 *   arg      argmask bit i set: u8 slot, the arg is slot's address
 *            (SLOT_ADDR), else a u64 taken as is
 *   payload  u8 slot | u8 phase | u8 flags | u8 arg | u32 requested |
 *            u16 len | len bytes (fewer if the input ends)
 *
 * Addresses are those of slots so that pointers inside captured memory
 * (iov_base, msg_control...) can name other payloads of the same call.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/types.h>
#include <sonde/events.h>
#include <sonde/format.h>
#include <sonde/render.h>
#include <sonde/strace.h>

#define MAX_CALLS 64
#define MAX_PL 8
#define SLOT_ADDR(s) (0x100000000ull + (uint64_t)(s) * 0x10000)

struct in {
	const uint8_t *p;
	size_t n;
};

static int take(struct in *in, void *dst, size_t len)
{
	if (in->n < len)
		return -1;
	memcpy(dst, in->p, len);
	in->p += len;
	in->n -= len;
	return 0;
}

static void opts_from(struct sonde_strace_opts *o, uint8_t b)
{
	sonde_strace_opts_init(o);
	o->verbose = b & 1;
	o->xlat = (b >> 1 & 3) % 3;
	o->strsize = b & 8 ? 4 : 32;
	o->xstr = b >> 4 & 1;
	o->stack_trace = b >> 5 & 1; /* -k: the stack payloads unwound */
	o->decode_fds = b & 0x40 ? 2 : 0;
	o->pid_prefix = 1;
}

/* One payload of the call; its bytes are a copy of their own size, so
 * that a read past captured is an ASan report. */
static int payload_take(struct in *in, struct sonde_payload *p)
{
	uint8_t h[4];
	uint32_t req;
	uint16_t len;
	uint8_t *d;

	if (take(in, h, 4) || take(in, &req, 4) || take(in, &len, 2))
		return -1;
	if (len > in->n)
		len = (uint16_t)in->n;
	d = malloc(len ? len : 1);
	if (!d)
		return -1;
	memcpy(d, in->p, len);
	if (!len)
		d[0] = 0; /* never NULL, as the feed makes them */
	in->p += len;
	in->n -= len;
	*p = (struct sonde_payload){ .addr = SLOT_ADDR(h[0] % MAX_PL),
				     .data = d,
				     .requested = req,
				     .returned = req,
				     .captured = len,
				     .arg = h[3] % 6,
				     .phase = h[1] % 8,
				     .flags = h[2] & 0xf };
	return 0;
}

static int call_take(struct in *in, struct sonde_ev_syscall *sc, struct sonde_payload *pl,
		     unsigned int *npl, uint64_t ts)
{
	uint16_t nr;
	uint8_t mask, n;

	if (take(in, &nr, 2) || take(in, &mask, 1))
		return -1;
	memset(sc, 0, sizeof(*sc));
	for (int i = 0; i < 6; i++) {
		uint8_t s;

		if (mask >> i & 1) {
			if (take(in, &s, 1))
				return -1;
			sc->args[i] = SLOT_ADDR(s % MAX_PL);
		} else if (take(in, &sc->args[i], 8)) {
			return -1;
		}
	}
	if (take(in, &sc->ret, 8) || take(in, &n, 1))
		return -1;
	/* Numbers past the table too: strace prints them raw. */
	sc->nr = mask & 0x80 ? 0x40000000u | (nr % 600) : nr % 600;
	sc->hdr = (struct sonde_hdr){ .ts = ts, .pid = 100, .tid = 100 + (nr >> 12 & 3),
				      .type = SONDE_REC_SYSCALL, .size = sizeof(*sc) };
	sc->dur = 1000;
	for (*npl = 0; *npl < n % (MAX_PL + 1) && !payload_take(in, &pl[*npl]); (*npl)++)
		;
	return 0;
}

static void calls_run(struct in *in, const struct sonde_strace_opts *o, FILE *out)
{
	struct sonde_strace *st = sonde_strace_new(o, out);
	struct sonde_payload pl[MAX_PL];
	struct sonde_ev_syscall sc;
	struct sonde_line a = { 0 }, r = { 0 };
	unsigned int npl;

	if (!st)
		return;
	for (int i = 0; i < MAX_CALLS && !call_take(in, &sc, pl, &npl, 1000 + i); i++) {
		struct sonde_call c = { .sc = &sc, .pl = npl ? pl : NULL, .npl = npl };

		sonde_strace_call(st, &c);
		sonde_line_reset(&a);
		sonde_line_reset(&r);
		sonde_strace_json(o, &c, &a, &r);
		for (unsigned int k = 0; k < npl; k++)
			free((void *)pl[k].data);
	}
	sonde_strace_flush(st);
	sonde_strace_free(st);
	sonde_line_free(&a);
	sonde_line_free(&r);
}

/* Raw records, checked as the reader checks them, then fed in order. */
static void feed_run(struct in *in, const struct sonde_strace_opts *o, FILE *out)
{
	struct sonde_strace *st = sonde_strace_new(o, out);
	uint64_t buf[4096 / 8];

	if (!st)
		return;
	while (in->n >= sizeof(struct sonde_hdr)) {
		struct sonde_hdr h;
		size_t len;

		memcpy(&h, in->p, sizeof(h));
		len = h.size < in->n ? h.size : in->n;
		if (len > sizeof(buf) || len < sizeof(h))
			break;
		memcpy(buf, in->p, len);
		in->p += len;
		in->n -= len;
		if (sonde_rec_check((const struct sonde_hdr *)buf, len))
			continue;
		sonde_strace_feed(st, (const struct sonde_hdr *)buf);
	}
	sonde_strace_flush(st);
	sonde_strace_free(st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *out;
	struct sonde_strace_opts o;
	struct in in = { data, size };
	uint8_t b;

	if (!out)
		out = fopen("/dev/null", "w");
	if (!out || take(&in, &b, 1))
		return 0;
	opts_from(&o, b);
	if (b & 0x80)
		feed_run(&in, &o, out);
	else
		calls_run(&in, &o, out);
	sonde_strace_opts_release(&o);
	return 0;
}
