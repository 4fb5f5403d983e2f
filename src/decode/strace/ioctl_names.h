/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The names of ioctl requests, as strace prints them: the table
 * scripts/gen_ioctl_names.py generates from the UAPI headers
 * (ioctl_names.c, sorted by number; a number several requests share has
 * one entry, "A or B"), and the lookup of a request's name.
 */
#ifndef SONDE_IOCTL_NAMES_H
#define SONDE_IOCTL_NAMES_H

#include <stddef.h>
#include <stdint.h>

struct ioctl_name {
	uint32_t val;
	const char *name;
};

extern const struct ioctl_name ioctl_names[];
extern const unsigned int ioctl_names_n;

/* The table's name of req (binary search), or NULL. */
const char *ioctl_table_name(uint32_t req);

/*
 * req's name as strace prints it, in buf: the table's names, or for the
 * families strace names from the number's fields (EVIOCGNAME(256),
 * MIXER_READ(1), ...) that form, followed by " or " and the table's
 * names when both apply. NULL when req has no name. verbose: for -X
 * verbose, where an unnamed field prints without its "EV_???" comment.
 */
const char *ioctl_req_name(uint32_t req, int verbose, char *buf, size_t len);

#endif
