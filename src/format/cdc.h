/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Content-defined chunking of payloads for the blob store: cut points
 * depend on the bytes around them, not on their position, so the same
 * data read in 64 KiB calls and written in 10 KiB calls (or shifted by a
 * tar header) is cut into mostly the same pieces and stored once.
 */
#ifndef SONDE_FORMAT_CDC_H
#define SONDE_FORMAT_CDC_H

#include <stddef.h>
#include <stdint.h>

/* Piece sizes: no cut before CDC_MIN bytes, none later than CDC_MAX; cut
 * points are placed so that pieces average about CDC_AVG bytes. */
#define CDC_MIN 512u
#define CDC_AVG 2048u
#define CDC_MAX 8192u

/* Length of the first piece of p[0..n): n when n <= CDC_MIN. */
size_t cdc_cut(const uint8_t *p, size_t n);

#endif
