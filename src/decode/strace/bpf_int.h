/* SPDX-License-Identifier: GPL-2.0 */
/* bpf(2)'s attr printers shared by dec_bpf.c (maps) and dec_bpf_prog.c
 * (programs, objects, links, ids). */
#ifndef SONDE_STRACE_BPF_INT_H
#define SONDE_STRACE_BPF_INT_H

#include <stddef.h>
#include <stdint.h>

#include "decode/strace/strace_int.h"

/* The attr, zero past what the caller gave (at most a page). */
struct bpf_in {
	uint8_t b[4096];
	uint32_t size;
};

void bpf_fd_field(struct st *s, const char *name, uint32_t fd);
void bpf_addr_field(struct st *s, const char *name, uint64_t a);
/* A name buffer of n bytes: up to its NUL, or n - 1 bytes and "...". */
void bpf_name_field(struct st *s, const char *name, const uint8_t *p, size_t n);

/* dec_bpf_prog.c: the commands it decodes, and their members; returns
 * how many bytes of the attr it knows (what follows is extra data). */
int bpf_prog_cmd(uint32_t cmd);
size_t bpf_prog_attr(struct st *s, const struct bpf_in *in, uint32_t cmd, uint64_t addr);

#endif
