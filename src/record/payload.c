// SPDX-License-Identifier: GPL-2.0
/*
 * User-space side of payload capture (bpf/capture.bpf.h): the snaplen
 * and scratch sizing before load, the per-syscall capture plans after
 * load, and the end-of-run accounting. Plans come from the strace
 * decoders (sonde_strace_capture_plan) so what is captured is exactly
 * what the decoders read.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "record/rec_int.h"
#include "record/payload.h"
#include "sonde.skel.h"
#include <sonde/payload.h>
#include <sonde/strace.h>

int rec_payload_config(struct rec_bpf *b, const struct sonde_record_opts *o)
{
	uint32_t snap = o->snaplen > SONDE_SNAPLEN_MAX ? SONDE_SNAPLEN_MAX : o->snaplen;

	b->skel->rodata->cap_snaplen = snap;
	b->skel->rodata->cap_shed_at = b->ring_bytes / 2;
	/* One scratch slot per CPU; indexed by the CPU number. */
	if (bpf_map__set_max_entries(b->skel->maps.img_buf, b->ncpus))
		return -EINVAL;
	return bpf_map__set_max_entries(b->skel->maps.cap_buf, b->ncpus);
}

int rec_payload_plans(struct rec_bpf *b, const struct sonde_record_opts *o)
{
	int fd = bpf_map__fd(b->skel->maps.cap_plan);

	if (!o->snaplen)
		return 0;
	/* Slots past SONDE_NR_SYSCALLS: the i386 calls recorded as
	 * SONDE_NR_I386 + n (bpf/capture.bpf.h, cap_plan). */
	for (uint32_t k = 0; k < SONDE_NR_SYSCALLS + SONDE_NR_I386_LEN; k++) {
		uint32_t nr = k < SONDE_NR_SYSCALLS ? k : SONDE_NR_I386 + k - SONDE_NR_SYSCALLS;
		struct sonde_cap_plan p;

		if (!sonde_strace_capture_plan(nr, &p))
			continue;
		if (bpf_map_update_elem(fd, &k, &p, BPF_ANY))
			return -errno;
	}
	return 0;
}

void rec_payload_stats(const struct rec_bpf *b, struct sonde_cap_cpu *sum)
{
	memset(sum, 0, sizeof(*sum));
	if (!b->skel || !b->skel->bss)
		return;
	for (unsigned int i = 0; i < b->ncpus; i++) {
		const struct sonde_cap_cpu *c = &b->skel->bss->cap_cpus[i];

		sum->records += c->records;
		sum->bytes += c->bytes;
		sum->shed += c->shed;
		sum->shed_bytes += c->shed_bytes;
		sum->faults += c->faults;
	}
}

int sonde_snaplen_parse(const char *s, uint32_t *out)
{
	unsigned long n;
	char *end;

	if (!strcmp(s, "full")) {
		*out = SONDE_SNAPLEN_MAX;
		return 0;
	}
	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || end == s || *s == '-')
		return -EINVAL;
	if (*end == 'k' || *end == 'K')
		n <<= 10, end++;
	else if (*end == 'm' || *end == 'M')
		n <<= 20, end++;
	if (*end || n > SONDE_SNAPLEN_MAX)
		return -EINVAL;
	*out = (uint32_t)n;
	return 0;
}

int sonde_user_stack_parse(const char *s, uint32_t *out)
{
	uint32_t n;

	if (!s) {
		*out = SONDE_USTACK_DEFAULT;
		return 0;
	}
	if (!strcmp(s, "full") || sonde_snaplen_parse(s, &n) || n < 8 || n > SONDE_USTACK_MAX)
		return -EINVAL;
	*out = (n + 7) & ~7u;
	return 0;
}
