// SPDX-License-Identifier: GPL-2.0
/* Growable output lines and the string quoting of the text and JSON
 * renderers. Input bytes come from traced programs (argv, comm): any byte
 * value may appear and nothing is assumed NUL-terminated. */
#include <stdlib.h>
#include <string.h>

#include <sonde/render.h>

static int line_reserve(struct sonde_line *l, size_t more)
{
	size_t cap;
	char *buf;

	if (l->len + more + 1 <= l->cap)
		return 0;
	cap = l->cap ? l->cap : 256;
	while (cap < l->len + more + 1)
		cap *= 2;
	buf = realloc(l->buf, cap);
	if (!buf) {
		l->oom = 1;
		return -1;
	}
	l->buf = buf;
	l->cap = cap;
	return 0;
}

void sonde_line_reset(struct sonde_line *l)
{
	l->len = 0;
	l->oom = 0;
	if (l->buf)
		l->buf[0] = '\0';
}

void sonde_line_free(struct sonde_line *l)
{
	free(l->buf);
	memset(l, 0, sizeof(*l));
}

void sonde_line_printf(struct sonde_line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(l->buf ? l->buf + l->len : NULL, l->buf ? l->cap - l->len : 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		l->oom = 1;
		return;
	}
	if (!l->buf || l->len + n + 1 > l->cap) {
		if (line_reserve(l, n))
			return;
		va_start(ap, fmt);
		vsnprintf(l->buf + l->len, l->cap - l->len, fmt, ap);
		va_end(ap);
	}
	l->len += n;
}

void sonde_line_putc(struct sonde_line *l, char c)
{
	if (line_reserve(l, 1))
		return;
	l->buf[l->len++] = c;
	l->buf[l->len] = '\0';
}

void sonde_line_tab(struct sonde_line *l, size_t col)
{
	do
		sonde_line_putc(l, ' ');
	while (l->len < col && !l->oom);
}

void sonde_line_cstr(struct sonde_line *l, const char *s, size_t n)
{
	static const char esc[256] = {
		['\t'] = 't', ['\n'] = 'n', ['\v'] = 'v',  ['\f'] = 'f',
		['\r'] = 'r', ['"'] = '"',  ['\\'] = '\\',
	};

	sonde_line_putc(l, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (esc[c]) {
			sonde_line_putc(l, '\\');
			sonde_line_putc(l, esc[c]);
		} else if (c >= ' ' && c < 0x7f) {
			sonde_line_putc(l, c);
		} else if (i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '7') {
			/* a following digit must not extend the escape */
			sonde_line_printf(l, "\\%03o", c);
		} else {
			sonde_line_printf(l, "\\%o", c);
		}
	}
	sonde_line_putc(l, '"');
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if invalid. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	size_t len;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

void sonde_line_json_str(struct sonde_line *l, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;

	sonde_line_putc(l, '"');
	for (size_t i = 0; i < n;) {
		size_t k = utf8_seq(u + i, n - i);

		if (!k) {
			sonde_line_printf(l, "\\udc%02x", u[i]);
			i++;
			continue;
		}
		if (k > 1) {
			for (size_t j = 0; j < k; j++)
				sonde_line_putc(l, s[i + j]);
		} else if (u[i] == '"' || u[i] == '\\') {
			sonde_line_putc(l, '\\');
			sonde_line_putc(l, s[i]);
		} else if (u[i] == '\n') {
			sonde_line_printf(l, "\\n");
		} else if (u[i] == '\t') {
			sonde_line_printf(l, "\\t");
		} else if (u[i] < 0x20 || u[i] == 0x7f) {
			sonde_line_printf(l, "\\u%04x", u[i]);
		} else {
			sonde_line_putc(l, s[i]);
		}
		i += k;
	}
	sonde_line_putc(l, '"');
}
