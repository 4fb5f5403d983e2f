/* SPDX-License-Identifier: GPL-2.0 */
/* File header with its TLV metadata: encoding (writer) and decoding
 * (reader). */
#ifndef SONDE_FORMAT_META_H
#define SONDE_FORMAT_META_H

#include <stddef.h>
#include <stdint.h>
#include <sonde/format.h>

/* Builds the whole file header in *out (malloc'd, *len bytes). Returns 0 or
 * -EINVAL / -ENOMEM with err filled. */
int meta_encode(const struct sonde_meta *m, uint8_t **out, size_t *len, char *err, size_t errlen);

/* Decoded metadata; strings point into buf, which the struct owns. */
struct meta_store {
	struct sonde_meta meta;
	uint8_t *buf;
	const char **names;
};

/* Checks the fixed 24-byte header (magic, version, hdr_len against the file
 * size); returns hdr_len, or -errno with err filled. */
long meta_check_fixed(const uint8_t *hdr, uint64_t file_size, char *err, size_t errlen);
/* Decodes a complete header of len bytes (taking ownership of buf). Returns
 * 0 or -EBADMSG / -ENOMEM with err filled. */
int meta_decode(struct meta_store *st, uint8_t *buf, size_t len, char *err, size_t errlen);
void meta_free(struct meta_store *st);

#endif
