// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the chunk transform decoder (src/format/xform.c)
 * fed directly, as the reader would after a zstd frame decompressed: the
 * first 8 bytes give the record count and raw length, the rest is the
 * encoded chunk. Whatever decodes must survive encode + decode unchanged.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/xform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t nrec, raw_len;
	const char *why;
	uint8_t *raw, *enc;
	uint64_t *scratch;

	if (size < 8)
		return 0;
	memcpy(&nrec, data, 4);
	memcpy(&raw_len, data + 4, 4);
	nrec %= 4096;
	raw_len = (raw_len % (1u << 20)) & ~7u;
	if ((uint64_t)nrec * 24 > raw_len)
		return 0;
	raw = malloc(raw_len ? raw_len : 1);
	scratch = malloc(raw_len ? raw_len : 1);
	if (!raw || !scratch)
		goto out;
	if (xform_decode(data + 8, size - 8, nrec, raw, raw_len, scratch, &why) == 0) {
		uint8_t *raw2 = malloc(raw_len ? raw_len : 1);

		enc = malloc(xform_bound(raw_len, nrec));
		if (enc && raw2) {
			size_t n = xform_encode(raw, raw_len, enc, scratch);

			if (n > xform_bound(raw_len, nrec) ||
			    xform_decode(enc, n, nrec, raw2, raw_len, scratch, &why) ||
			    memcmp(raw, raw2, raw_len))
				__builtin_trap(); /* decode(encode(r)) != r */
		}
		free(enc);
		free(raw2);
	}
out:
	free(raw);
	free(scratch);
	return 0;
}
