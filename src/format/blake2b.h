/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BLAKE2b (RFC 7693), unkeyed, any digest length from 1 to 64 bytes: the
 * content hash of the payload store (16-byte digests, BLAKE2b-128). In
 * tree so the format needs no crypto library; checked against the RFC's
 * test vector and b2sum's in tests/unit/test_blob.c.
 */
#ifndef SONDE_FORMAT_BLAKE2B_H
#define SONDE_FORMAT_BLAKE2B_H

#include <stddef.h>
#include <stdint.h>

struct blake2b {
	uint64_t h[8];
	uint64_t t[2];	  /* bytes compressed so far */
	uint8_t buf[128]; /* the block not compressed yet */
	size_t len;	  /* bytes in buf */
	size_t outlen;
};

void blake2b_init(struct blake2b *s, size_t outlen);
void blake2b_update(struct blake2b *s, const void *in, size_t n);
void blake2b_final(struct blake2b *s, void *out);
/* One call: out receives outlen (1..64) bytes. */
void blake2b(void *out, size_t outlen, const void *in, size_t n);

#endif
