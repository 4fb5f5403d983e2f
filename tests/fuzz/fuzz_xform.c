// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the chunk transform decoder (src/format/xform.c)
 * fed directly, as the reader would after a zstd frame decompressed: the
 * first 8 bytes give the record count and raw length (the count's top bit
 * picks transform 1 or 2), the rest is the encoded chunk. Whatever decodes
 * must survive encode (transform 2) + decode unchanged.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/layout.h"
#include "format/xform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xform_state *st = NULL;
	uint32_t nrec, raw_len;
	const char *why;
	int id;
	uint8_t *raw, *enc;
	uint64_t *scratch;

	if (size < 8)
		return 0;
	memcpy(&nrec, data, 4);
	memcpy(&raw_len, data + 4, 4);
	id = nrec >> 31 ? SONDE_XFORM_COLUMNS2 : SONDE_XFORM_COLUMNS;
	nrec %= 4096;
	raw_len = (raw_len % (1u << 20)) & ~7u;
	if ((uint64_t)nrec * 24 > raw_len)
		return 0;
	raw = malloc(raw_len ? raw_len : 1);
	scratch = malloc(raw_len ? raw_len : 1);
	st = xform_state_new();
	if (!raw || !scratch || !st)
		goto out;
	if (xform_decode(id, data + 8, size - 8, nrec, raw, raw_len, scratch, st, &why) == 0) {
		uint8_t *raw2 = malloc(raw_len ? raw_len : 1);

		enc = malloc(xform_bound(raw_len, nrec));
		if (enc && raw2) {
			size_t n = xform_encode(raw, raw_len, enc, scratch, st);

			if (n > xform_bound(raw_len, nrec) ||
			    xform_decode(SONDE_XFORM_COLUMNS2, enc, n, nrec, raw2, raw_len,
					 scratch, st, &why) ||
			    memcmp(raw, raw2, raw_len))
				__builtin_trap(); /* decode(encode(r)) != r */
		}
		free(enc);
		free(raw2);
	}
out:
	xform_state_free(st);
	free(raw);
	free(scratch);
	return 0;
}
