// SPDX-License-Identifier: GPL-2.0
/*
 * Printing named constants the way strace does, in its three -X styles:
 *   abbrev (default)  O_WRONLY|O_CREAT|O_TRUNC
 *   raw               0x241
 *   verbose           0x241 /\* O_WRONLY|O_CREAT|O_TRUNC *\/
 * Flag bits with no name are kept as a hex remainder (FLAG|0x10000);
 * an enum value with no name prints as a number with an optional
 * "XXX_???" comment. JSON: flag sets are arrays of names (a remainder as
 * a "0x..." string), enums a name or else the number.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <sonde/render.h>

#include "decode/strace/strace_int.h"

const char *xlat_name(const struct xlat *x, uint64_t v)
{
	for (unsigned int i = 0; i < x->n; i++)
		if (x->e[i].val == v)
			return x->e[i].name;
	return NULL;
}

/* Length of the names' common prefix, up to and including its last '_'
 * (POSIX_FADV_, EPOLL_CTL_), or 0. */
static size_t common_prefix(const struct xlat *x)
{
	const char *n = x->e[0].name;
	size_t k = strlen(n);

	for (unsigned int i = 1; i < x->n; i++) {
		size_t j = 0;

		while (j < k && n[j] == x->e[i].name[j])
			j++;
		k = j;
	}
	while (k && n[k - 1] != '_')
		k--;
	return k;
}

/* The names' common suffix from a '_' on ("_OK" of F_OK, R_OK...), or 0. */
static size_t common_suffix(const struct xlat *x)
{
	const char *n = x->e[0].name;
	size_t len = strlen(n), k = len;

	for (unsigned int i = 1; i < x->n; i++) {
		const char *m = x->e[i].name;
		size_t ml = strlen(m), j = 0;

		while (j < k && j < ml && n[len - 1 - j] == m[ml - 1 - j])
			j++;
		k = j;
	}
	while (k && n[len - k] != '_')
		k--;
	return x->n > 1 ? k : 0;
}

/*
 * strace's comment for a value with no name: the table's prefix and
 * "???" (PROT_???, O_???, POSIX_FADV_???, POLL???): the names' common
 * prefix, else the first name's up to its first '_'.
 */
static const char *auto_dflt(const struct xlat *x, char *buf, size_t len)
{
	const char *n = x->n ? x->e[0].name : NULL;
	const char *us;
	size_t k;

	if (!n)
		return NULL;
	k = common_prefix(x);
	if (k > 1) {
		snprintf(buf, len, "%.*s???", (int)k, n);
		return buf;
	}
	/* No common prefix but a common suffix: "?_OK" (access's modes). */
	k = common_suffix(x);
	if (k > 1) {
		snprintf(buf, len, "?%s", n + strlen(n) - k);
		return buf;
	}
	us = strchr(n, '_');
	if (us && us != n)
		k = (size_t)(us - n) + 1;
	else if ((k = strlen(n)) > 2 && !strcmp(n + k - 2, "IN"))
		k -= 2;
	snprintf(buf, len, "%.*s???", (int)k, n);
	return buf;
}

static void pr_num(struct strbuf *b, const struct xlat *x, uint64_t v)
{
	if (x && x->decimal)
		sb_printf(b, "%lld", (long long)v);
	else
		sb_printf(b, "%#llx", (unsigned long long)v);
}

/* Names of the bits of v joined by '|', remainder in hex; returns the
 * number of names printed. */
static int sb_flags_n(struct strbuf *b, const struct xlat *x, uint64_t v)
{
	int n = 0;

	for (unsigned int i = 0; i < x->n && v; i++) {
		uint64_t f = x->e[i].val;

		if (f && (v & f) == f) {
			if (n++)
				sb_putc(b, '|');
			sb_puts(b, x->e[i].name);
			v &= ~f;
		}
	}
	if (v) {
		if (n++)
			sb_putc(b, '|');
		sb_printf(b, "%#llx", (unsigned long long)v);
	}
	return n;
}

void sb_flags(struct strbuf *b, const struct xlat *x, uint64_t v)
{
	if (!v) {
		const char *z = xlat_name(x, 0);
		sb_puts(b, z ? z : "0");
		return;
	}
	sb_flags_n(b, x, v);
}

static int has_named_bit(const struct xlat *x, uint64_t v)
{
	for (unsigned int i = 0; i < x->n; i++)
		if (x->e[i].val && (v & x->e[i].val) == x->e[i].val)
			return 1;
	return v == 0 && xlat_name(x, 0);
}

void pr_flags(struct st *s, const struct xlat *x, uint64_t v,
	      const char *dflt)
{
	char dbuf[32];

	if (s->j) {
		const char *z = v ? NULL : xlat_name(x, 0);

		st_arr_begin(s);
		if (z)
			st_jstr(s, z);
		st_jflag_names(s, x, v);
		st_arr_end(s);
		return;
	}
	if (!dflt)
		dflt = auto_dflt(x, dbuf, sizeof(dbuf));
	if (s->opt->xlat == SONDE_XLAT_RAW) {
		sb_printf(s->o, v ? "%#llx" : "0", (unsigned long long)v);
		return;
	}
	/* No bit has a name: abbrev shows the default's comment after the
	 * number, and so does verbose, which has no names to show. */
	if (s->opt->xlat != SONDE_XLAT_RAW && !has_named_bit(x, v) && v &&
	    (s->opt->xlat == SONDE_XLAT_ABBREV || dflt)) {
		sb_printf(s->o, "%#llx", (unsigned long long)v);
		if (dflt)
			sb_printf(s->o, " /* %s */", dflt);
		return;
	}
	pr_flags_in(s, x, v);
}

void pr_flags_in(struct st *s, const struct xlat *x, uint64_t v)
{
	switch (s->opt->xlat) {
	case SONDE_XLAT_RAW:
		/* strace prints nothing for 0 here: "|0x100" */
		if (v)
			sb_printf(s->o, "%#llx", (unsigned long long)v);
		return;
	case SONDE_XLAT_VERBOSE:
		sb_printf(s->o, v ? "%#llx" : "0", (unsigned long long)v);
		if (has_named_bit(x, v)) {
			sb_puts(s->o, " /* ");
			sb_flags(s->o, x, v);
			sb_puts(s->o, " */");
		}
		return;
	}
	sb_flags(s->o, x, v);
}

void pr_xval(struct st *s, const struct xlat *x, uint64_t v,
	     const char *dflt)
{
	const char *name = xlat_name(x, v);
	char dbuf[32];

	if (s->j) {
		if (name)
			st_jstr(s, name);
		else if (x && x->decimal)
			st_jint(s, (int64_t)v);
		else
			st_juint(s, v);
		return;
	}
	if (!dflt)
		dflt = auto_dflt(x, dbuf, sizeof(dbuf));
	if (s->opt->xlat == SONDE_XLAT_RAW || !name) {
		pr_num(s->o, x, v);
		if (!name && dflt && s->opt->xlat != SONDE_XLAT_RAW)
			sb_printf(s->o, " /* %s */", dflt);
		return;
	}
	if (s->opt->xlat == SONDE_XLAT_VERBOSE) {
		pr_num(s->o, x, v);
		sb_printf(s->o, " /* %s */", name);
		return;
	}
	sb_puts(s->o, name);
}

void pr_errno_text(struct st *s, uint32_t v, int negated)
{
	int32_t e = (int32_t)v;
	const char *name = !negated ? sonde_errno_name(e) :
			   e < 0 && e > INT32_MIN ? sonde_errno_name(-e) : NULL;
	char num[16], sym[40];

	if (negated)
		snprintf(num, sizeof(num), "%d", e);
	else
		snprintf(num, sizeof(num), "%u", v);
	if (!name) {
		sb_puts(s->o, num);
		return;
	}
	snprintf(sym, sizeof(sym), "%s%s", negated ? "-" : "", name);
	pr_symexpr(s, num, sym);
}

void pr_symexpr(struct st *s, const char *num, const char *sym)
{
	if (s->opt->xlat == SONDE_XLAT_RAW)
		sb_puts(s->o, num);
	else if (s->opt->xlat == SONDE_XLAT_VERBOSE)
		sb_printf(s->o, "%s /* %s */", num, sym);
	else
		sb_puts(s->o, sym);
}

/* open(2) flags: the access mode is an enum in the low two bits, the rest
 * are flags; O_RDONLY alone is printed even though it is 0. */
void pr_open_flags(struct st *s, uint64_t v)
{
	uint32_t f = (uint32_t)v;
	const char *acc = xlat_name(&x_open_access, f & 3);

	if (s->j) {
		st_arr_begin(s);
		if (acc)
			st_jstr(s, acc);
		else
			sonde_line_printf(st_jv(s), "\"%#x\"", f & 3);
		st_jflag_names(s, &x_open_flags, f & ~3u);
		st_arr_end(s);
		return;
	}
	if (s->opt->xlat != SONDE_XLAT_ABBREV) {
		sb_printf(s->o, "%#x", f);
		if (s->opt->xlat == SONDE_XLAT_VERBOSE) {
			sb_puts(s->o, " /* ");
			sb_puts(s->o, acc ? acc : "0x3");
			if (f & ~3u) {
				sb_putc(s->o, '|');
				sb_flags_n(s->o, &x_open_flags, f & ~3u);
			}
			sb_puts(s->o, " */");
		}
		return;
	}
	if (acc)
		sb_puts(s->o, acc);
	else
		sb_printf(s->o, "%#x", f & 3);
	if (f & ~3u) {
		sb_putc(s->o, '|');
		sb_flags_n(s->o, &x_open_flags, f & ~3u);
	}
}

const char *st_signame(int sig, char *buf, size_t len)
{
	const char *n = xlat_name(&x_signals, (uint64_t)sig);

	if (n)
		return n;
	if (sig == 32)
		return "SIGRTMIN";
	if (sig > 32 && sig <= 64) {
		snprintf(buf, len, "SIGRT_%d", sig - 32);
		return buf;
	}
	return NULL;
}

void pr_sig(struct st *s, uint64_t v)
{
	char buf[16];
	const char *n = st_signame((int)v, buf, sizeof(buf));

	if (s->j) {
		if (n)
			st_jstr(s, n);
		else
			st_jint(s, (int)v);
		return;
	}
	if (!n || s->opt->xlat == SONDE_XLAT_RAW) {
		sb_printf(s->o, "%d", (int)v);
		return;
	}
	if (s->opt->xlat == SONDE_XLAT_VERBOSE)
		sb_printf(s->o, "%d /* %s */", (int)v, n);
	else
		sb_puts(s->o, n);
}

/* [CHLD USR1], or ~[KILL STOP] when more than half the bits are set. */
void pr_sigset_bytes(struct st *s, const uint8_t *p, size_t len)
{
	uint64_t m = 0;
	unsigned int nbits, set;
	int first = 1;
	char buf[16];

	if (len > 8)
		len = 8;
	memcpy(&m, p, len);
	nbits = (unsigned int)len * 8;
	if (s->j) {
		/* Every signal in the set by its full name, no ~[] form. */
		st_arr_begin(s);
		for (unsigned int i = 0; i < nbits; i++) {
			const char *n = (m >> i) & 1 ? st_signame((int)i + 1, buf, sizeof(buf)) : NULL;

			if (n)
				st_jstr(s, n);
			else if ((m >> i) & 1)
				st_juint(s, i + 1);
		}
		st_arr_end(s);
		return;
	}
	set = (unsigned int)__builtin_popcountll(m);
	if (set * 2 > nbits) {
		sb_putc(s->o, '~');
		m = ~m;
		if (nbits < 64)
			m &= (1ULL << nbits) - 1;
	}
	sb_putc(s->o, '[');
	for (unsigned int i = 0; i < nbits; i++) {
		const char *n;

		if (!(m & (1ULL << i)))
			continue;
		if (!first)
			sb_putc(s->o, ' ');
		first = 0;
		n = st_signame((int)i + 1, buf, sizeof(buf));
		if (n && s->opt->xlat == SONDE_XLAT_VERBOSE)
			sb_printf(s->o, "%u /* %s */", i + 1, n + 3);
		else if (n && s->opt->xlat == SONDE_XLAT_ABBREV)
			sb_puts(s->o, n + 3);
		else
			sb_printf(s->o, "%u", i + 1);
	}
	sb_putc(s->o, ']');
}

void pr_sigset(struct st *s, int phase, uint64_t addr, uint64_t size)
{
	uint8_t b[8];

	if (size > 8 || !size) {
		/* strace prints what it cannot interpret as an address. */
		pr_unfetched(s, phase, addr);
		return;
	}
	if (!st_fetch(s, phase, addr, b, size))
		return;
	pr_sigset_bytes(s, b, size);
}

void pr_mode_t(struct st *s, uint64_t mode)
{
	uint32_t m = (uint32_t)mode;
	const char *t = xlat_name(&x_s_ifmt, m & 0170000);

	if (s->j) {
		/* JSON: strace's abbreviated form, as one string. */
		struct sonde_strace_opts o = *s->opt;
		struct strbuf b;
		struct st t2 = *s;

		o.xlat = SONDE_XLAT_ABBREV;
		sb_init(&b);
		t2.j = NULL;
		t2.o = &b;
		t2.opt = &o;
		pr_mode_t(&t2, mode);
		st_jstr(s, b.s ? b.s : "");
		sb_free(&b);
		return;
	}
	if (s->opt->xlat == SONDE_XLAT_RAW) {
		sb_printf(s->o, "%#03o", m);
		return;
	}
	if (s->opt->xlat == SONDE_XLAT_VERBOSE)
		sb_printf(s->o, "%#03o /* ", m);
	if (t)
		sb_printf(s->o, "%s|", t);
	else if (m & 0170000)
		sb_printf(s->o, "%#o|", m & 0170000);
	if (m & 04000)
		sb_puts(s->o, "S_ISUID|");
	if (m & 02000)
		sb_puts(s->o, "S_ISGID|");
	if (m & 01000)
		sb_puts(s->o, "S_ISVTX|");
	sb_printf(s->o, "%#03o", m & 0777);
	if (s->opt->xlat == SONDE_XLAT_VERBOSE)
		sb_puts(s->o, " */");
}

void pr_clockid(struct st *s, uint64_t v)
{
	pr_xval(s, &x_clocks, (uint64_t)(int)v, NULL);
}
