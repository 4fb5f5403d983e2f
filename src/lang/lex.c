// SPDX-License-Identifier: GPL-2.0
/* Hand-written lexer. Two modes: expression tokens (C/D operators) and, at
 * the start of a clause, probe descriptions which may hold globs, '-' and,
 * for uprobe paths, '/' characters. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/lex.h"

static const struct {
	const char *s;
	enum tok t;
} keywords[] = {
	{ "if", T_IF },		{ "else", T_ELSE },
	{ "sizeof", T_SIZEOF }, { "stringof", T_STRINGOF },
	{ "self", T_SELF },	{ "this", T_THIS },
	{ "struct", T_STRUCT }, { "unsigned", T_UNSIGNED },
	{ "signed", T_SIGNED },
};

/* Longest operators first so "<<=" wins over "<<" and "<". Each carries
 * its quoted name so tok_name() needs no buffer and can be called twice in
 * one message ("expected ')', found ';'"). */
#define OP(str, tok)                  \
	{                             \
		str, "'" str "'", tok \
	}
static const struct {
	const char *s, *quoted;
	enum tok t;
} ops[] = {
	OP("<<=", T_SHLEQ), OP(">>=", T_SHREQ), OP("->", T_ARROW), OP("++", T_INC),
	OP("--", T_DEC),    OP("+=", T_ADDEQ),	OP("-=", T_SUBEQ), OP("*=", T_MULEQ),
	OP("/=", T_DIVEQ),  OP("%=", T_MODEQ),	OP("&=", T_ANDEQ), OP("|=", T_OREQ),
	OP("^=", T_XOREQ),  OP("<<", T_SHL),	OP(">>", T_SHR),   OP("<=", T_LE),
	OP(">=", T_GE),	    OP("==", T_EQ),	OP("!=", T_NE),	   OP("&&", T_LAND),
	OP("||", T_LOR),    OP("^^", T_LXOR),	OP("(", T_LPAREN), OP(")", T_RPAREN),
	OP("{", T_LBRACE),  OP("}", T_RBRACE),	OP("[", T_LBRACK), OP("]", T_RBRACK),
	OP(";", T_SEMI),    OP(",", T_COMMA),	OP(".", T_DOT),	   OP("?", T_QUEST),
	OP(":", T_COLON),   OP("+", T_PLUS),	OP("-", T_MINUS),  OP("*", T_STAR),
	OP("/", T_SLASH),   OP("%", T_PERCENT), OP("&", T_AMP),	   OP("|", T_PIPE),
	OP("^", T_CARET),   OP("~", T_TILDE),	OP("!", T_NOT),	   OP("<", T_LT),
	OP(">", T_GT),	    OP("=", T_ASSIGN),
};
#undef OP

const char *tok_name(enum tok t)
{
	switch (t) {
	case T_EOF:
		return "end of input";
	case T_IDENT:
		return "identifier";
	case T_NUM:
		return "number";
	case T_STR:
		return "string";
	case T_AGG:
		return "aggregation";
	case T_PROBE:
		return "probe description";
	default:
		break;
	}
	for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		if (keywords[i].t == t)
			return keywords[i].s;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (ops[i].t == t)
			return ops[i].quoted;
	return "token";
}

void lex_error(struct lexer *lx, struct loc loc, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (lx->err[0])
		return;
	n = snprintf(lx->err, sizeof(lx->err), "%d:%d: ", loc.line, loc.col);
	va_start(ap, fmt);
	vsnprintf(lx->err + n, sizeof(lx->err) - n, fmt, ap);
	va_end(ap);
}

char *lex_strdup(struct lexer *lx, const char *s, int len)
{
	char *d = malloc(len + 1);

	if (!d)
		abort();
	memcpy(d, s, len);
	d[len] = 0;
	if (lx->nstrs == lx->capstrs) {
		lx->capstrs = lx->capstrs ? 2 * lx->capstrs : 64;
		lx->strs = realloc(lx->strs, lx->capstrs * sizeof(*lx->strs));
		if (!lx->strs)
			abort();
	}
	lx->strs[lx->nstrs++] = d;
	return d;
}

void lex_init(struct lexer *lx, const char *src, int argc, char *const *argv, long target)
{
	memset(lx, 0, sizeof(*lx));
	lx->src = lx->p = src;
	lx->end = src + strlen(src);
	lx->line = 1;
	lx->line_start = src;
	lx->argc = argc;
	lx->argv = argv;
	lx->target = target;
	/* "#!/usr/sbin/sonde script -s" interpreter lines are comments. */
	if (lx->p[0] == '#' && lx->p[1] == '!')
		while (lx->p < lx->end && *lx->p != '\n')
			lx->p++;
}

void lex_free(struct lexer *lx)
{
	for (int i = 0; i < lx->nstrs; i++)
		free(lx->strs[i]);
	free(lx->strs);
}

static struct loc here(struct lexer *lx)
{
	return (struct loc){ lx->line, (int)(lx->p - lx->line_start) + 1 };
}

static void newline(struct lexer *lx)
{
	lx->line++;
	lx->line_start = lx->p + 1;
}

/* "#pragma D option" lines are read before compilation (compile.c
 * pragmas()); any other '#' line is a C preprocessor directive, which
 * without cpp (sonde has no -C) would be dropped silently: "#if 0" code
 * would run. DTrace refuses them too. */
static void skip_directive(struct lexer *lx)
{
	static const char option[] = "#pragma D option ";
	const char *e = memchr(lx->p, '\n', lx->end - lx->p);
	int len = e ? (int)(e - lx->p) : (int)(lx->end - lx->p);
	int pragma = !strncmp(lx->p, "#pragma", 7);

	if (pragma && strncmp(lx->p, option, sizeof(option) - 1))
		lex_error(lx, here(lx),
			  "unknown pragma '%.*s': only '#pragma D option NAME[=VALUE]' is "
			  "supported",
			  len, lx->p);
	else if (!pragma)
		lex_error(lx, here(lx),
			  "'%.*s': C preprocessor directives are not supported "
			  "(sonde script has no -C)",
			  len, lx->p);
	lx->p += len;
}

/* Skips blanks, comments and "#pragma D option" lines; reports an
 * unterminated comment or any other '#' directive. */
static void skip_space(struct lexer *lx)
{
	for (;;) {
		if (lx->p >= lx->end)
			return;
		if (*lx->p == '\n') {
			newline(lx);
			lx->p++;
		} else if (isspace((unsigned char)*lx->p)) {
			lx->p++;
		} else if (lx->p[0] == '/' && lx->p + 1 < lx->end && lx->p[1] == '*') {
			struct loc l = here(lx);

			lx->p += 2;
			while (lx->p < lx->end &&
			       !(lx->p[0] == '*' && lx->p + 1 < lx->end && lx->p[1] == '/')) {
				if (*lx->p == '\n')
					newline(lx);
				lx->p++;
			}
			if (lx->p >= lx->end) {
				lex_error(lx, l, "unterminated comment: add */");
				return;
			}
			lx->p += 2;
		} else if (lx->p[0] == '/' && lx->p + 1 < lx->end && lx->p[1] == '/') {
			while (lx->p < lx->end && *lx->p != '\n')
				lx->p++;
		} else if (lx->p[0] == '#' && lx->p == lx->line_start) {
			skip_directive(lx);
		} else {
			return;
		}
	}
}

/* Value of macro argument $N, or NULL with an error. */
static const char *macro_arg(struct lexer *lx, struct loc l, long n)
{
	if (n < 1 || n > lx->argc) {
		lex_error(
			lx, l,
			"macro argument $%ld is not defined: pass it after the program (%d given)",
			n, lx->argc);
		return NULL;
	}
	return lx->argv[n - 1];
}

static int is_number(const char *s)
{
	char *e;

	if (!*s)
		return 0;
	strtoull(s, &e, 0);
	return *e == 0;
}

/* Probe descriptions: everything up to blank, '{', ',' or a '/' that opens
 * a predicate. A '/' is part of the description when it starts or
 * continues a path component (uprobe:/bin/sh:main). $target and $N expand
 * in place. */
static void lex_probe(struct lexer *lx, struct token *t)
{
	char buf[1024];
	int n = 0, in_path = 0;

	while (lx->p < lx->end) {
		char c = *lx->p;

		if (isspace((unsigned char)c) || c == '{' || c == ',')
			break;
		if (c == '/') {
			if (n > 0 && buf[n - 1] == ':')
				in_path = 1;
			else if (!in_path)
				break;
		}
		if (c == ':')
			in_path = 0;
		if (c == '$') {
			const char *s = lx->p + 1, *v = NULL;
			char num[32];

			if (!strncmp(s, "target", 6)) {
				if (lx->target < 0) {
					lex_error(lx, t->loc,
						  "$target is not set: use -c CMD or -p PID");
					return;
				}
				snprintf(num, sizeof(num), "%ld", lx->target);
				v = num;
				lx->p += 7;
			} else if (isdigit((unsigned char)*s)) {
				long k = strtol(s, (char **)&lx->p, 10);

				v = macro_arg(lx, t->loc, k);
				if (!v)
					return;
			} else {
				lex_error(lx, t->loc,
					  "unknown macro variable in probe description");
				return;
			}
			while (*v && n < (int)sizeof(buf) - 1)
				buf[n++] = *v++;
			continue;
		}
		if (n >= (int)sizeof(buf) - 1) {
			lex_error(lx, t->loc, "probe description too long");
			return;
		}
		buf[n++] = c;
		lx->p++;
	}
	t->t = T_PROBE;
	t->s = lex_strdup(lx, buf, n);
}

static int hexval(char c)
{
	if (isdigit((unsigned char)c))
		return c - '0';
	return (tolower((unsigned char)c) - 'a') + 10;
}

/* C escapes in "..." and '.', lx->p just after the backslash; returns the
 * decoded byte, or -1 with the error set: D refuses unknown escapes ("\q")
 * and "\x" without a hex digit rather than guessing what was meant. */
static int lex_escape(struct lexer *lx)
{
	static const char from[] = "ntrabfv\\\"'?", to[] = "\n\t\r\a\b\f\v\\\"'?";
	struct loc at = here(lx);
	char c = *lx->p++;
	const char *m = c ? strchr(from, c) : NULL;
	int v = 0, k;

	at.col--; /* point at the backslash */
	if (m)
		return to[m - from];
	if (c >= '0' && c <= '7') {
		v = c - '0';
		for (k = 0; k < 2 && lx->p < lx->end && *lx->p >= '0' && *lx->p <= '7'; k++)
			v = v * 8 + (*lx->p++ - '0');
		return v & 0xff;
	}
	if (c == 'x' && lx->p < lx->end && isxdigit((unsigned char)*lx->p)) {
		for (k = 0; k < 2 && lx->p < lx->end && isxdigit((unsigned char)*lx->p); k++)
			v = v * 16 + hexval(*lx->p++);
		return v;
	}
	if (c == 'x')
		lex_error(lx, at, "invalid escape '\\x': it needs 1 or 2 hex digits (\\x41)");
	else
		lex_error(lx, at,
			  "invalid escape '\\%c': use \\n \\t \\r \\a \\b \\f \\v "
			  "\\\\ \\\" \\' \\? \\NNN (octal) or \\xHH",
			  isprint((unsigned char)c) ? c : '?');
	return -1;
}

static void lex_string(struct lexer *lx, struct token *t)
{
	char *buf = malloc(lx->end - lx->p + 1);
	int n = 0;

	if (!buf)
		abort();
	lx->p++;
	while (lx->p < lx->end && *lx->p != '"' && *lx->p != '\n') {
		if (*lx->p == '\\' && lx->p + 1 < lx->end) {
			int c;

			lx->p++;
			c = lex_escape(lx);
			if (c < 0) {
				free(buf);
				return;
			}
			buf[n++] = c;
		} else {
			buf[n++] = *lx->p++;
		}
	}
	if (lx->p >= lx->end || *lx->p != '"') {
		lex_error(lx, t->loc, "unterminated string: add the closing \"");
		free(buf);
		return;
	}
	lx->p++;
	t->t = T_STR;
	t->s = lex_strdup(lx, buf, n);
	t->slen = n;
	free(buf);
}

static void lex_number(struct lexer *lx, struct token *t)
{
	char *e;

	t->t = T_NUM;
	errno = 0;
	t->num = strtoull(lx->p, &e, 0);
	if (isalnum((unsigned char)*e) && !strchr("uUlL", *e)) {
		lex_error(lx, t->loc, "malformed number");
		return;
	}
	if (errno == ERANGE) {
		lex_error(lx, t->loc, "integer constant %.*s is too large: it must fit in 64 bits",
			  (int)(e - lx->p), lx->p);
		return;
	}
	while (*e && strchr("uUlL", *e)) {
		if (*e == 'u' || *e == 'U')
			t->num_unsigned = 1;
		e++;
	}
	lx->p = e;
}

/* $target, $N (a number, or a string when the argument is not numeric),
 * $$N (always a string). */
static void lex_macro(struct lexer *lx, struct token *t)
{
	int as_str = 0;
	const char *v;

	lx->p++;
	if (*lx->p == '$') {
		as_str = 1;
		lx->p++;
	}
	if (!strncmp(lx->p, "target", 6) && !isalnum((unsigned char)lx->p[6])) {
		lx->p += 6;
		if (lx->target < 0) {
			lex_error(lx, t->loc, "$target is not set: use -c CMD or -p PID");
			return;
		}
		t->t = T_NUM;
		t->num = lx->target;
		return;
	}
	if (!isdigit((unsigned char)*lx->p)) {
		lex_error(lx, t->loc, "unknown macro variable: use $target, $1, $2... or $$1...");
		return;
	}
	v = macro_arg(lx, t->loc, strtol(lx->p, (char **)&lx->p, 10));
	if (!v)
		return;
	if (!as_str && is_number(v)) {
		t->t = T_NUM;
		errno = 0;
		t->num = strtoull(v, NULL, 0);
		if (errno == ERANGE)
			lex_error(lx, t->loc,
				  "macro argument %s is too large: it must fit in 64 bits", v);
		return;
	}
	t->t = T_STR;
	t->slen = strlen(v);
	t->s = lex_strdup(lx, v, t->slen);
}

void lex_next(struct lexer *lx, int probe_ctx)
{
	struct token *t = &lx->cur;
	const char *s;

	memset(t, 0, sizeof(*t));
	skip_space(lx);
	t->loc = here(lx);
	if (lx->err[0] || lx->p >= lx->end) {
		t->t = T_EOF;
		return;
	}
	s = lx->p;
	if (probe_ctx && *s != '/' && *s != '{' && *s != ',') {
		lex_probe(lx, t);
		return;
	}
	if (isalpha((unsigned char)*s) || *s == '_' || (*s == '@')) {
		int agg = *s == '@';

		if (agg)
			lx->p++;
		while (lx->p < lx->end && (isalnum((unsigned char)*lx->p) || *lx->p == '_'))
			lx->p++;
		t->s = lex_strdup(lx, s, lx->p - s);
		t->t = agg ? T_AGG : T_IDENT;
		if (!agg)
			for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
				if (!strcmp(keywords[i].s, t->s))
					t->t = keywords[i].t;
		return;
	}
	if (isdigit((unsigned char)*s)) {
		lex_number(lx, t);
		return;
	}
	if (*s == '"') {
		lex_string(lx, t);
		return;
	}
	if (*s == '\'') {
		lx->p++;
		t->t = T_NUM;
		if (lx->p < lx->end && *lx->p == '\\' && lx->p + 1 < lx->end) {
			int c;

			lx->p++;
			c = lex_escape(lx);
			if (c < 0)
				return;
			t->num = c;
		} else if (lx->p < lx->end) {
			t->num = (unsigned char)*lx->p++;
		}
		if (lx->p >= lx->end || *lx->p != '\'') {
			lex_error(lx, t->loc, "unterminated character constant: add the closing '");
			return;
		}
		lx->p++;
		return;
	}
	if (*s == '$') {
		lex_macro(lx, t);
		return;
	}
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		size_t n = strlen(ops[i].s);

		if ((size_t)(lx->end - s) >= n && !memcmp(s, ops[i].s, n)) {
			lx->p += n;
			t->t = ops[i].t;
			return;
		}
	}
	lex_error(lx, t->loc, "unexpected character '%c'", isprint((unsigned char)*s) ? *s : '?');
	t->t = T_EOF;
}
