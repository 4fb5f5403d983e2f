/* SPDX-License-Identifier: GPL-2.0 */
/* Payload capture, user-space side (payload.c). */
#ifndef SONDE_REC_PAYLOAD_H
#define SONDE_REC_PAYLOAD_H

#include <linux/types.h>
#include <sonde/events.h>
#include <sonde/payload.h>

struct rec_bpf;
struct sonde_record_opts;

/* Before load: the snaplen into .rodata, one scratch slot per CPU. */
int rec_payload_config(struct rec_bpf *b, const struct sonde_record_opts *o);
/* After load: the per-syscall capture plans. */
int rec_payload_plans(struct rec_bpf *b, const struct sonde_record_opts *o);
/* Totals over CPUs of what was captured, shed and unreadable. */
void rec_payload_stats(const struct rec_bpf *b, struct sonde_cap_cpu *sum);

#endif
