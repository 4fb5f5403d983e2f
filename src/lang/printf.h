/* SPDX-License-Identifier: GPL-2.0 */
/* D printf formats: parsed at compile time to type-check the arguments,
 * and again at run time to render records (output.c). */
#ifndef SONDE_LANG_PRINTF_H
#define SONDE_LANG_PRINTF_H

#include <stddef.h>

#define FMT_MAX 32
/* Largest width or precision in a format: wider output is a typo. */
#define FMT_NUM_MAX 4096

struct fmt_conv {
	int lit_start, lit_end; /* literal text before the conversion */
	char spec[32];		/* "%-10.3" flags, width, precision (no length, no conv) */
	char conv;		/* d i u x X o c s p a A Y k @, 0 = trailing literal only */
	char vconv;		/* for '@': the value's conversion (d i u x X o) */
};

/* Splits fmt into conversions; returns the count or -1 with err set. The
 * final entry has conv 0 and holds the trailing literal. */
int fmt_parse(const char *fmt, struct fmt_conv *cv, int max, char *err, size_t errlen);

#endif
