/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A strict JSON syntax checker for the tests (RFC 8259 grammar, plus the
 * rule sonde's output keeps: no key twice in one object). Returns NULL
 * when s is one valid JSON value, else a message naming the offset.
 */
#ifndef SONDE_TEST_JSON_CHECK_H
#define SONDE_TEST_JSON_CHECK_H

#include <stdio.h>
#include <string.h>

struct jc {
	const char *s;
	size_t i;
	unsigned int top_keys; /* keys of the outermost object */
	char err[128];
};

static int jc_fail(struct jc *j, const char *what)
{
	if (!j->err[0])
		snprintf(j->err, sizeof(j->err), "%s at offset %zu", what, j->i);
	return -1;
}

static void jc_ws(struct jc *j)
{
	while (strchr(" \t\r\n", j->s[j->i]) && j->s[j->i])
		j->i++;
}

/* A string; its raw text (between the quotes) in [*b, *e). */
static int jc_str(struct jc *j, size_t *b, size_t *e)
{
	if (j->s[j->i] != '"')
		return jc_fail(j, "string expected");
	*b = ++j->i;
	for (;;) {
		unsigned char c = (unsigned char)j->s[j->i];

		if (!c)
			return jc_fail(j, "unterminated string");
		if (c < 0x20)
			return jc_fail(j, "control character in string");
		if (c == '"')
			break;
		if (c == '\\') {
			c = (unsigned char)j->s[++j->i];
			if (c == 'u') {
				for (int k = 1; k <= 4; k++)
					if (!strchr("0123456789abcdefABCDEF", j->s[j->i + k]) ||
					    !j->s[j->i + k])
						return jc_fail(j, "bad \\u escape");
				j->i += 4;
			} else if (!c || !strchr("\"\\/bfnrt", c)) {
				return jc_fail(j, "bad escape");
			}
		}
		j->i++;
	}
	*e = j->i++;
	return 0;
}

static int jc_num(struct jc *j)
{
	size_t st = j->i;

	if (j->s[j->i] == '-')
		j->i++;
	if (j->s[j->i] == '0')
		j->i++;
	else if (j->s[j->i] >= '1' && j->s[j->i] <= '9')
		while (j->s[j->i] >= '0' && j->s[j->i] <= '9')
			j->i++;
	else
		return jc_fail(j, "bad number");
	if (j->s[j->i] == '.' || j->s[j->i] == 'e' || j->s[j->i] == 'E')
		return jc_fail(j, "sonde writes integers only");
	return j->i > st ? 0 : -1;
}

static int jc_value(struct jc *j, int depth);

static int jc_object(struct jc *j, int depth)
{
	size_t keys[256][2];
	size_t n = 0;

	j->i++;
	jc_ws(j);
	if (j->s[j->i] == '}') {
		j->i++;
		return 0;
	}
	for (;;) {
		size_t b, e;

		jc_ws(j);
		if (jc_str(j, &b, &e))
			return -1;
		for (size_t k = 0; k < n; k++)
			if (keys[k][1] - keys[k][0] == e - b &&
			    !memcmp(j->s + keys[k][0], j->s + b, e - b))
				return jc_fail(j, "duplicate key");
		if (n < 256) {
			keys[n][0] = b;
			keys[n++][1] = e;
		}
		j->top_keys += depth == 0;
		jc_ws(j);
		if (j->s[j->i++] != ':')
			return jc_fail(j, "':' expected");
		if (jc_value(j, depth + 1))
			return -1;
		jc_ws(j);
		if (j->s[j->i] == ',') {
			j->i++;
			continue;
		}
		if (j->s[j->i] == '}') {
			j->i++;
			return 0;
		}
		return jc_fail(j, "',' or '}' expected");
	}
}

static int jc_array(struct jc *j, int depth)
{
	j->i++;
	jc_ws(j);
	if (j->s[j->i] == ']') {
		j->i++;
		return 0;
	}
	for (;;) {
		if (jc_value(j, depth + 1))
			return -1;
		jc_ws(j);
		if (j->s[j->i] == ',') {
			j->i++;
			continue;
		}
		if (j->s[j->i] == ']') {
			j->i++;
			return 0;
		}
		return jc_fail(j, "',' or ']' expected");
	}
}

static int jc_value(struct jc *j, int depth)
{
	size_t b, e;

	if (depth > 64)
		return jc_fail(j, "nesting too deep");
	jc_ws(j);
	switch (j->s[j->i]) {
	case '{':
		return jc_object(j, depth);
	case '[':
		return jc_array(j, depth);
	case '"':
		return jc_str(j, &b, &e);
	case 't':
		return strncmp(j->s + j->i, "true", 4) ? jc_fail(j, "bad literal") : (j->i += 4, 0);
	case 'f':
		return strncmp(j->s + j->i, "false", 5) ? jc_fail(j, "bad literal")
							: (j->i += 5, 0);
	case 'n':
		return strncmp(j->s + j->i, "null", 4) ? jc_fail(j, "bad literal") : (j->i += 4, 0);
	}
	return jc_num(j);
}

/* NULL when s is exactly one JSON value; the message lives in *j. */
static inline const char *json_check(struct jc *j, const char *s)
{
	memset(j, 0, sizeof(*j));
	j->s = s;
	if (jc_value(j, 0))
		return j->err;
	jc_ws(j);
	if (j->s[j->i])
		return jc_fail(j, "trailing text"), j->err;
	return NULL;
}

#endif
