// SPDX-License-Identifier: GPL-2.0
/*
 * Writes seeds for fuzz_xform into argv[1]: u32 record count (top bit set:
 * transform 2), u32 raw length, then the encoded records (a mix of types,
 * syscalls of several numbers, one record with a tail).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <linux/types.h>
#include <sonde/events.h>
#include "format/xform.h"

int main(int argc, char **argv)
{
	static uint8_t raw[8192], enc[16384];
	static uint64_t scratch[8192 / 8];
	struct xform_state *st = xform_state_new();
	uint32_t nrec = 0, len = 0, tagged;
	char path[512];
	size_t n;
	FILE *f;

	if (argc != 2 || !st)
		return 2;
	for (int i = 0; i < 40; i++) {
		struct sonde_hdr *h = (struct sonde_hdr *)(raw + len);
		int type = 1 + i % (SONDE_REC_TYPE_MAX - 1);

		memset(h, 0, 128);
		*h = (struct sonde_hdr){ .ts = 1000 + 50 * i,
					 .pid = 7,
					 .tid = 7 + i % 2,
					 .type = type,
					 .size = i == 7 ? 128 : 96,
					 .cpu = 1 };
		memset(h + 1, i, 16);
		raw[len + 88] = (uint8_t)(i % 5); /* syscall nr: buckets 0-4 */
		len += h->size;
		nrec++;
	}
	n = xform_encode(raw, len, enc, scratch, st);
	xform_state_free(st);
	tagged = nrec | 1u << 31;
	snprintf(path, sizeof(path), "%s/mixed.bin", argv[1]);
	f = fopen(path, "wb");
	if (!f || fwrite(&tagged, 4, 1, f) != 1 || fwrite(&len, 4, 1, f) != 1 ||
	    fwrite(enc, 1, n, f) != n)
		return 1;
	return fclose(f) != 0;
}
