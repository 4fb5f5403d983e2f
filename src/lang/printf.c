// SPDX-License-Identifier: GPL-2.0
/* D printf format parsing. */
#include <stdio.h>
#include <string.h>

#include "lang/printf.h"

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
		while (fmt[i] && strchr("-+ #0", fmt[i]) && k < 20)
			cv[n].spec[k++] = fmt[i++];
		while (fmt[i] >= '0' && fmt[i] <= '9' && k < 26)
			cv[n].spec[k++] = fmt[i++];
		if (fmt[i] == '.') {
			cv[n].spec[k++] = fmt[i++];
			while (fmt[i] >= '0' && fmt[i] <= '9' && k < 30)
				cv[n].spec[k++] = fmt[i++];
		}
		cv[n].spec[k] = 0;
		if (fmt[i] == '*') {
			snprintf(err, errlen,
				 "'*' widths are not supported in formats: write the width as a "
				 "number");
			return -1;
		}
		while (fmt[i] && strchr("hlLqjzt", fmt[i]))
			i++;
		if (fmt[i] == '@')
			i++, cv[n].conv = '@';
		else
			cv[n].conv = fmt[i] ? fmt[i++] : 0;
		if (cv[n].conv == '@' && fmt[i] && strchr("dui", fmt[i]))
			i++; /* %@d, %@u */
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
