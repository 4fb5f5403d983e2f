// SPDX-License-Identifier: GPL-2.0
/* D printf format parsing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/printf.h"

/* printa's '@' is a flag, as in DTrace: it may come anywhere among the
 * flags, width and precision ("%@8u", "%-8@d", "%8.2@d"). Records an '@'
 * at fmt[i]; returns the index after it. */
static int fmt_skip_at(const char *fmt, int i, struct fmt_conv *c)
{
	if (fmt[i] != '@')
		return i;
	c->vconv = 'd';
	return i + 1;
}

/* Copies the width or precision at fmt[i] into c->spec at *k. One above
 * FMT_NUM_MAX is refused: the C library fails on a width beyond INT_MAX
 * and the value would be dropped, and a huge one is a typo. Leading zeros
 * of a precision are dropped so that the spec fits. Returns the index
 * after the digits, or -1 with err set. */
static int fmt_num(const char *fmt, int i, struct fmt_conv *c, int *k, const char *what, char *err,
		   size_t errlen)
{
	int s = i;

	while (fmt[i] >= '0' && fmt[i] <= '9')
		i++;
	while (i - s > 1 && fmt[s] == '0')
		s++;
	if (i - s > 4 || (i > s && atoi(fmt + s) > FMT_NUM_MAX)) {
		snprintf(err, errlen, "%s %.*s in the format is too large: at most %d", what, i - s,
			 fmt + s, FMT_NUM_MAX);
		return -1;
	}
	memcpy(c->spec + *k, fmt + s, i - s);
	*k += i - s;
	return i;
}

/* The conversion letter; after '@' an integer one ("%@x"), 'd' when none
 * follows ("%@ " is the value as a decimal). */
static int fmt_parse_conv(const char *fmt, int i, struct fmt_conv *c)
{
	if (!c->vconv) {
		c->conv = fmt[i] ? fmt[i++] : 0;
		return i;
	}
	c->conv = '@';
	if (fmt[i] && strchr("diuxXo", fmt[i]))
		c->vconv = fmt[i++];
	return i;
}

int fmt_parse(const char *fmt, struct fmt_conv *cv, int max, char *err, size_t errlen)
{
	int n = 0, lit = 0, i = 0;

	for (;;) {
		int s, k = 0;

		while (fmt[i] && !(fmt[i] == '%' && fmt[i + 1] != '%')) {
			i += fmt[i] == '%' ? 2 : 1;
		}
		if (n >= max) {
			snprintf(err, errlen, "too many conversions in the format (at most %d)",
				 max - 1);
			return -1;
		}
		cv[n].lit_start = lit;
		cv[n].lit_end = i;
		if (!fmt[i]) {
			cv[n].conv = 0;
			return n;
		}
		s = i++;
		cv[n].spec[k++] = '%';
		cv[n].vconv = 0;
		for (;;) {
			i = fmt_skip_at(fmt, i, &cv[n]);
			if (!fmt[i] || !strchr("-+ #0", fmt[i]) || k >= 20)
				break;
			cv[n].spec[k++] = fmt[i++];
		}
		i = fmt_num(fmt, i, &cv[n], &k, "width", err, errlen);
		if (i < 0)
			return -1;
		i = fmt_skip_at(fmt, i, &cv[n]);
		if (fmt[i] == '.') {
			cv[n].spec[k++] = fmt[i++];
			i = fmt_num(fmt, i, &cv[n], &k, "precision", err, errlen);
			if (i < 0)
				return -1;
		}
		i = fmt_skip_at(fmt, i, &cv[n]);
		cv[n].spec[k] = 0;
		if (fmt[i] == '*') {
			snprintf(err, errlen,
				 "'*' widths are not supported in formats: write the width as a "
				 "number");
			return -1;
		}
		while (fmt[i] && strchr("hlLqjzt", fmt[i]))
			i++;
		i = fmt_parse_conv(fmt, i, &cv[n]);
		if (!cv[n].conv || !strchr("diuxXocspaAYk@", cv[n].conv)) {
			snprintf(err, errlen,
				 "unsupported conversion '%.*s' in the format: use %%d %%u %%x %%o "
				 "%%c %%s %%p %%a %%A %%Y %%k",
				 i - s, fmt + s);
			return -1;
		}
		lit = i;
		n++;
	}
}
