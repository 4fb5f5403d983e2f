/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The "columns" chunk transform (SONDE_XFORM_COLUMNS): a reversible
 * reshaping of a chunk's records that makes zstd's job easy. See xform.c
 * and docs/format.md for the layout.
 */
#ifndef SONDE_FORMAT_XFORM_H
#define SONDE_FORMAT_XFORM_H

#include <stddef.h>
#include <stdint.h>

/* Upper bound of the encoded size of nrec records totalling raw_len bytes. */
size_t xform_bound(size_t raw_len, size_t nrec);

/* Encodes well-formed records (raw, raw_len bytes) into out, which has room
 * for xform_bound() bytes; scratch has room for raw_len bytes. Returns the
 * encoded length. */
size_t xform_encode(const uint8_t *raw, size_t raw_len, uint8_t *out, uint64_t *scratch);

/* Decodes enc (enc_len bytes) into exactly raw_len bytes of nrec records,
 * using scratch (room for raw_len bytes). Validates every count and length
 * first; returns 0 or -EBADMSG with *why naming the inconsistency. Does not
 * validate the records themselves. */
int xform_decode(const uint8_t *enc, size_t enc_len, size_t nrec, uint8_t *raw, size_t raw_len,
		 uint64_t *scratch, const char **why);

#endif
