// SPDX-License-Identifier: GPL-2.0
/*
 * Gear-hash chunking with normalized piece sizes (the FastCDC scheme of
 * Xia et al., USENIX ATC 2016, reimplemented here): a rolling hash
 * h = (h << 1) + gear[byte] depends on the last 64 bytes only; a cut
 * follows the first byte where the top bits of h are zero. Up to CDC_AVG
 * a stricter mask (more bits) makes cuts rare, after it a looser one makes
 * them likely, which narrows the size distribution around CDC_AVG.
 *
 * Hashing starts 64 bytes before CDC_MIN so that every candidate cut sees
 * a full 64-byte window: the decision depends on content only, never on
 * where the piece began.
 */
#include <pthread.h>

#include "format/cdc.h"

/* Top 13 bits zero: p = 2^-13 per byte before CDC_AVG; top 9 after. */
#define MASK_STRICT (~0ull << (64 - 13))
#define MASK_LOOSE (~0ull << (64 - 9))
#define WINDOW 64

static uint64_t gear[256];
static pthread_once_t gear_once = PTHREAD_ONCE_INIT;

/* splitmix64 from a fixed seed: the table is part of the format's
 * behaviour (dedup ratios), not of its correctness, but keeping it fixed
 * keeps cut points stable across versions. */
static void gear_init(void)
{
	uint64_t x = 0x736f6e6465636463ull; /* "sondecdc" */

	for (int i = 0; i < 256; i++) {
		uint64_t z = (x += 0x9e3779b97f4a7c15ull);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		gear[i] = z ^ (z >> 31);
	}
}

size_t cdc_cut(const uint8_t *p, size_t n)
{
	size_t i, mid, end;
	uint64_t h = 0;

	if (n <= CDC_MIN)
		return n;
	pthread_once(&gear_once, gear_init);
	end = n < CDC_MAX ? n : CDC_MAX;
	mid = end < CDC_AVG ? end : CDC_AVG;
	for (i = CDC_MIN - WINDOW; i < CDC_MIN; i++)
		h = (h << 1) + gear[p[i]];
	for (; i < mid; i++) {
		h = (h << 1) + gear[p[i]];
		if (!(h & MASK_STRICT))
			return i + 1;
	}
	for (; i < end; i++) {
		h = (h << 1) + gear[p[i]];
		if (!(h & MASK_LOOSE))
			return i + 1;
	}
	return end;
}
