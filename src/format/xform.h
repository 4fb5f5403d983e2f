/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The "columns" chunk transforms (SONDE_XFORM_COLUMNS, written by older
 * versions, and SONDE_XFORM_COLUMNS2, written now): a reversible reshaping
 * of a chunk's records that makes zstd's job easy. See xform.c and
 * docs/format.md for the layout.
 */
#ifndef SONDE_FORMAT_XFORM_H
#define SONDE_FORMAT_XFORM_H

#include <stddef.h>
#include <stdint.h>

/* Tables of the transform (~75 KiB), one per thread that uses it. */
struct xform_state;
struct xform_state *xform_state_new(void);
void xform_state_free(struct xform_state *st);

/* Upper bound of the encoded size of nrec records totalling raw_len bytes. */
size_t xform_bound(size_t raw_len, size_t nrec);

/* Encodes well-formed records (raw, raw_len bytes) with transform
 * SONDE_XFORM_COLUMNS2 into out, which has room for xform_bound() bytes;
 * scratch has room for raw_len bytes. Returns the encoded length. */
size_t xform_encode(const uint8_t *raw, size_t raw_len, uint8_t *out, uint64_t *scratch,
		    struct xform_state *st);

/* Decodes enc (enc_len bytes, transform id SONDE_XFORM_COLUMNS or
 * SONDE_XFORM_COLUMNS2) into exactly raw_len bytes of nrec records, using
 * scratch (room for raw_len bytes). Validates every count and length first;
 * returns 0 or -EBADMSG with *why naming the inconsistency. Does not
 * validate the records themselves. */
int xform_decode(int id, const uint8_t *enc, size_t enc_len, size_t nrec, uint8_t *raw,
		 size_t raw_len, uint64_t *scratch, struct xform_state *st, const char **why);

#endif
