// SPDX-License-Identifier: GPL-2.0
/*
 * Syscall names, classes and the -e trace= expression parser, with
 * strace 6.1's semantics:
 *  - the expression is a comma list; a leading "!" negates the whole list;
 *  - "none" alone; "all"; "%class" (and the seven historic classes
 *    without the "%": file, desc, process, network/net, memory, signal,
 *    ipc); a NUMBER;
 *  - "/REGEX" selects every name the extended regex matches;
 *  - each but "none" selects the calls of every personality (x86-64,
 *    i386, x32), or of one with a suffix: open@64, %file@32, /^stat@x32;
 *  - "?NAME" is NAME, but silently ignored when it does not exist;
 *  - an empty token is an error, as in strace ("invalid system call ''").
 */
#include <errno.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sonde/syscalls.h>

#include "decode/syscall_table.h"

_Static_assert(SONDE_SYSCALL_TAB_LEN <= SONDE_NR_SYSCALLS,
	       "the in-kernel bitmap must cover the whole table");

_Static_assert(SONDE_SYSCALL_TAB_LEN <= SONDE_NR_I386_LEN, "the i386 range covers its table");

/* The i386 entry of number n, or NULL for a hole. */
static const struct sonde_syscall_i386 *sc_i386(unsigned int n)
{
	if (n >= SONDE_SYSCALL_TAB_LEN || !sonde_syscall_i386_tab[n].info.name)
		return NULL;
	return &sonde_syscall_i386_tab[n];
}

const struct sonde_syscall_info *sonde_syscall_info(unsigned int nr)
{
	const struct sonde_syscall_i386 *e = sc_i386(nr - SONDE_NR_I386);

	if (nr - SONDE_NR_I386 < SONDE_NR_I386_LEN)
		return e ? &e->info : NULL;
	if (nr >= SONDE_SYSCALL_TAB_LEN || !sonde_syscall_tab[nr].name)
		return NULL;
	return &sonde_syscall_tab[nr];
}

/*
 * A twin of the same name is recorded as the x86-64 number: nothing is
 * lost, everything downstream knows it. One of another name keeps its
 * own, so that it is named as strace names it.
 */
uint32_t sonde_syscall_i386_nr(unsigned int n)
{
	const struct sonde_syscall_i386 *e = sc_i386(n);

	if (e && e->twin >= 0 && !strcmp(e->info.name, sonde_syscall_tab[e->twin].name))
		return (uint32_t)e->twin;
	return SONDE_NR_I386 + n;
}

int sonde_syscall_i386_twin(uint32_t nr)
{
	const struct sonde_syscall_i386 *e = sc_i386(nr - SONDE_NR_I386);

	return nr - SONDE_NR_I386 < SONDE_NR_I386_LEN && e ? e->twin : -1;
}

const char *sonde_syscall_name(unsigned int nr)
{
	const struct sonde_syscall_info *si = sonde_syscall_info(nr);

	return si ? si->name : NULL;
}

int sonde_syscall_lookup(const char *name)
{
	for (unsigned int nr = 0; nr < SONDE_SYSCALL_TAB_LEN; nr++)
		if (sonde_syscall_tab[nr].name && !strcmp(sonde_syscall_tab[nr].name, name))
			return nr;
	return -1;
}

unsigned int sonde_syscall_classes(unsigned int nr)
{
	const struct sonde_syscall_info *si = sonde_syscall_info(nr);

	return si ? si->classes : 0;
}

unsigned int sonde_syscall_nargs(unsigned int nr)
{
	const struct sonde_syscall_info *si = sonde_syscall_info(nr);

	return si ? si->nargs : 6;
}

unsigned int sonde_syscall_count(void)
{
	return SONDE_SYSCALL_TAB_LEN;
}

/* The header wants a plain array of names; build it once from the table. */
static const char *name_array[SONDE_SYSCALL_TAB_LEN];
static pthread_once_t name_array_once = PTHREAD_ONCE_INIT;

static void name_array_fill(void)
{
	for (unsigned int nr = 0; nr < SONDE_SYSCALL_TAB_LEN; nr++)
		name_array[nr] = sonde_syscall_tab[nr].name;
}

const char *const *sonde_syscall_table(void)
{
	pthread_once(&name_array_once, name_array_fill);
	return name_array;
}

/* strace's personalities, as the suffixes of its sets name them. */
#define SC_P64 1
#define SC_P32 2
#define SC_PX32 4
#define SC_PALL (SC_P64 | SC_P32 | SC_PX32)

/* What a token selects by name: the name, a class mask or a regex. */
struct sc_match {
	const char *name;
	unsigned int mask;
	const regex_t *rx;
};

static int sc_matches(const struct sc_match *m, const char *name, unsigned int classes)
{
	return (m->name && !strcmp(name, m->name)) || (classes & m->mask) ||
	       (m->rx && !regexec(m->rx, name, 0, NULL, 0));
}

static unsigned int sc_select64(struct sonde_sc_set *s, const struct sc_match *m)
{
	unsigned int hits = 0;

	for (unsigned int nr = 0; nr < SONDE_SYSCALL_TAB_LEN; nr++) {
		const struct sonde_syscall_info *si = &sonde_syscall_tab[nr];

		if (si->name && sc_matches(m, si->name, si->classes)) {
			sonde_sc_set_add(s, nr, 0);
			hits++;
		}
	}
	return hits;
}

/* Each i386 call goes in as it is recorded (sonde_syscall_i386_nr). */
static unsigned int sc_select32(struct sonde_sc_set *s, const struct sc_match *m)
{
	unsigned int hits = 0;

	for (unsigned int n = 0; n < SONDE_SYSCALL_TAB_LEN; n++) {
		const struct sonde_syscall_i386 *e = sc_i386(n);

		if (e && sc_matches(m, e->info.name, e->info.classes)) {
			sonde_sc_set_add(s, sonde_syscall_i386_nr(n), 1);
			hits++;
		}
	}
	return hits;
}

static unsigned int sc_select_x32(struct sonde_sc_set *s, const struct sc_match *m)
{
	unsigned int hits = 0, classes;
	char buf[64];

	for (unsigned int n = 0; n < SONDE_NR_X32_LEN; n++) {
		const char *name = sonde_syscall_x32_name(n, buf, sizeof(buf), &classes);

		if (name && sc_matches(m, name, classes)) {
			sonde_sc_set_add(s, SONDE_NR_X32 + n, 0);
			hits++;
		}
	}
	return hits;
}

/* The calls of the personalities pers that m selects; how many. */
static unsigned int sc_select(struct sonde_sc_set *s, unsigned int pers, const struct sc_match *m)
{
	unsigned int hits = 0;

	if (pers & SC_P64)
		hits += sc_select64(s, m);
	if (pers & SC_P32)
		hits += sc_select32(s, m);
	if (pers & SC_PX32)
		hits += sc_select_x32(s, m);
	return hits;
}

void sonde_sc_set_classes(struct sonde_sc_set *s, unsigned int mask)
{
	const struct sc_match m = { .mask = mask };

	sc_select(s, SC_PALL, &m);
}

unsigned int sonde_sc_set_count(const struct sonde_sc_set *s)
{
	unsigned int n = 0;

	for (size_t i = 0; i < SONDE_NR_SYSCALLS / 64; i++)
		n += __builtin_popcountll(s->bits[i]);
	return n;
}

/* s negated (t NULL), or kept where t has the call too, word by word. */
static void sc_words(struct sonde_sc_set *s, const struct sonde_sc_set *t)
{
	uint64_t *w[] = { s->bits, s->bits32, s->bits_i386, s->bits_x32 };
	const uint64_t *u[] = { t ? t->bits : NULL, t ? t->bits32 : NULL, t ? t->bits_i386 : NULL,
				t ? t->bits_x32 : NULL };
	const size_t n[] = { SONDE_NR_SYSCALLS / 64, SONDE_NR_SYSCALLS / 64, SONDE_NR_I386_LEN / 64,
			     SONDE_NR_X32_LEN / 64 };

	for (size_t a = 0; a < sizeof(n) / sizeof(n[0]); a++)
		for (size_t i = 0; i < n[a]; i++)
			w[a][i] = u[a] ? w[a][i] & u[a][i] : ~w[a][i];
	s->others = t ? s->others & t->others : !s->others;
}

void sonde_sc_set_and(struct sonde_sc_set *s, const struct sonde_sc_set *t)
{
	sc_words(s, t);
}

struct sc_class_name {
	const char *name;
	unsigned int mask;
	int bare; /* also accepted without the '%' (historic syntax) */
};

static const struct sc_class_name sc_class_names[] = {
	{ "file", SONDE_SCC_FILE, 1 },	     { "desc", SONDE_SCC_DESC, 1 },
	{ "process", SONDE_SCC_PROCESS, 1 }, { "network", SONDE_SCC_NETWORK, 1 },
	{ "net", SONDE_SCC_NETWORK, 1 },     { "memory", SONDE_SCC_MEMORY, 1 },
	{ "signal", SONDE_SCC_SIGNAL, 1 },   { "ipc", SONDE_SCC_IPC, 1 },
	{ "creds", SONDE_SCC_CREDS, 0 },     { "clock", SONDE_SCC_CLOCK, 0 },
	{ "pure", SONDE_SCC_PURE, 0 },	     { "stat", SONDE_SCC_STAT, 0 },
	{ "lstat", SONDE_SCC_LSTAT, 0 },     { "fstat", SONDE_SCC_FSTAT, 0 },
	{ "%stat", SONDE_SCC_ANY_STAT, 0 },  { "statfs", SONDE_SCC_STATFS, 0 },
	{ "fstatfs", SONDE_SCC_FSTATFS, 0 }, { "%statfs", SONDE_SCC_ANY_STATFS, 0 },
};
#define SC_NCLASSES (sizeof(sc_class_names) / sizeof(sc_class_names[0]))

/* Class mask for "%name" (pct set) or a bare historic name, or 0. */
static unsigned int sc_class_find(const char *name, int pct)
{
	for (size_t i = 0; i < SC_NCLASSES; i++)
		if (!strcmp(sc_class_names[i].name, name) && (pct || sc_class_names[i].bare))
			return sc_class_names[i].mask;
	return 0;
}

/* Edit distance, bounded to short names: enough for "did you mean". */
static unsigned int sc_distance(const char *a, const char *b)
{
	unsigned int row[64], la = strlen(a), lb = strlen(b);

	if (la >= 63 || lb >= 63)
		return ~0u;
	for (unsigned int j = 0; j <= lb; j++)
		row[j] = j;
	for (unsigned int i = 1; i <= la; i++) {
		unsigned int diag = row[0], tmp;

		row[0] = i;
		for (unsigned int j = 1; j <= lb; j++) {
			unsigned int best = diag + (a[i - 1] != b[j - 1]);

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			diag = tmp;
		}
	}
	return row[lb];
}

/* Closest syscall name to a misspelt one, if it is close enough. */
static const char *sc_suggest(const char *bad)
{
	unsigned int best = 3, d;
	const char *hit = NULL;

	for (unsigned int nr = 0; nr < SONDE_SYSCALL_TAB_LEN; nr++) {
		if (!sonde_syscall_tab[nr].name)
			continue;
		d = sc_distance(bad, sonde_syscall_tab[nr].name);
		if (d < best) {
			best = d;
			hit = sonde_syscall_tab[nr].name;
		}
	}
	return hit;
}

/*
 * The suffix of tok (open@64), cut off: its personalities, or 0 for an
 * unknown one. strace takes the last '@': "open@64@32" is the name
 * "open@64" of i386, which does not exist.
 */
static unsigned int sc_suffix(char *tok, char *err, size_t errlen)
{
	static const struct {
		const char *sfx;
		unsigned int pers;
	} sfx[] = { { "64", SC_P64 }, { "32", SC_P32 }, { "x32", SC_PX32 } };
	char *at = strrchr(tok, '@');

	if (!at)
		return SC_PALL;
	for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++)
		if (!strcmp(at + 1, sfx[i].sfx)) {
			*at = '\0';
			return sfx[i].pers;
		}
	snprintf(err, errlen,
		 "unknown personality '@%s' in '%s': the suffixes are @64 (x86-64), "
		 "@32 (i386) and @x32",
		 at + 1, tok);
	return 0;
}

/* "x86-64 " or "@64"...: the personality a suffix named, for errors. */
static const char *sc_pers_name(unsigned int pers, int sfx)
{
	switch (pers) {
	case SC_P64:
		return sfx ? "@64" : "x86-64 ";
	case SC_P32:
		return sfx ? "@32" : "i386 ";
	case SC_PX32:
		return sfx ? "@x32" : "x32 ";
	}
	return "";
}

static int sc_add_regex(struct sonde_sc_set *set, const char *re, unsigned int pers, char *err,
			size_t errlen)
{
	struct sc_match m = { 0 };
	unsigned int hits;
	regex_t rx;
	int rc = regcomp(&rx, re, REG_EXTENDED | REG_NOSUB);

	if (rc) {
		char msg[128];

		regerror(rc, &rx, msg, sizeof(msg));
		snprintf(err, errlen, "bad regular expression '/%s': %s", re, msg);
		return -EINVAL;
	}
	m.rx = &rx;
	hits = sc_select(set, pers, &m);
	regfree(&rx);
	if (!hits) {
		snprintf(err, errlen, "'/%s' matches no %ssyscall name; check the regex", re,
			 sc_pers_name(pers, 0));
		return -EINVAL;
	}
	return 0;
}

/*
 * A syscall number, as strace takes it (-e trace=64): call N of each
 * personality of pers that has one (x86-64 read, i386 exit, x32 read).
 */
static int sc_add_number(struct sonde_sc_set *set, const char *tok, unsigned int pers, int optional,
			 char *err, size_t errlen)
{
	unsigned int hits = 0, classes;
	unsigned long nr;
	char *end, buf[64];

	nr = strtoul(tok, &end, 10);
	if (*end || nr >= SONDE_NR_X32_LEN)
		goto bad;
	if ((pers & SC_P64) && nr < SONDE_SYSCALL_TAB_LEN && sonde_syscall_tab[nr].name) {
		sonde_sc_set_add(set, (unsigned int)nr, 0);
		hits++;
	}
	if ((pers & SC_P32) && sc_i386(nr)) {
		sonde_sc_set_add(set, sonde_syscall_i386_nr(nr), 1);
		hits++;
	}
	if ((pers & SC_PX32) && sonde_syscall_x32_name(nr, buf, sizeof(buf), &classes)) {
		sonde_sc_set_add(set, SONDE_NR_X32 + (unsigned int)nr, 0);
		hits++;
	}
	if (hits)
		return 0;
bad:
	if (optional)
		return 0;
	snprintf(err, errlen,
		 "no %ssyscall numbered '%s' (x86-64 and i386 calls are 0 to %u, "
		 "x32 ones 0 to 547)",
		 sc_pers_name(pers, 0), tok, SONDE_SYSCALL_TAB_LEN - 1);
	return -EINVAL;
}

/* "all" of some personalities: every number of their ranges. */
static void sc_add_all(struct sonde_sc_set *set, unsigned int pers)
{
	if (pers == SC_PALL) {
		sonde_sc_set_fill(set);
		return;
	}
	if (pers & SC_P64)
		memset(set->bits, 0xff, sizeof(set->bits));
	if (pers & SC_P32) {
		memset(set->bits32, 0xff, sizeof(set->bits32));
		memset(set->bits_i386, 0xff, sizeof(set->bits_i386));
	}
	if (pers & SC_PX32)
		memset(set->bits_x32, 0xff, sizeof(set->bits_x32));
}

static int sc_bad_class(const char *tok, char *err, size_t errlen)
{
	snprintf(err, errlen,
		 "unknown class '%s'; classes are %%file %%desc %%process "
		 "%%network %%memory %%signal %%ipc %%creds %%clock %%pure "
		 "%%stat %%lstat %%fstat %%%%stat %%statfs %%fstatfs "
		 "%%%%statfs",
		 tok);
	return -EINVAL;
}

static int sc_bad_name(const char *tok, unsigned int pers, char *err, size_t errlen)
{
	const char *hint = sc_suggest(tok);

	if (pers != SC_PALL &&
	    sc_select(&(struct sonde_sc_set){ 0 }, SC_PALL, &(struct sc_match){ .name = tok }))
		snprintf(err, errlen, "'%s%s': no %ssyscall is named %s (another personality's is)",
			 tok, sc_pers_name(pers, 1), sc_pers_name(pers, 0), tok);
	else if (!strcmp(tok, "none"))
		snprintf(err, errlen, "'none' stands alone: it is the whole list, without suffix");
	else if (hint)
		snprintf(err, errlen, "unknown syscall '%s' (did you mean '%s'?)", tok, hint);
	else
		snprintf(err, errlen,
			 "unknown syscall '%s'; use names as strace "
			 "spells them, %%classes, /regex or ?name",
			 tok);
	return -EINVAL;
}

/* A name, or a class of names, of the personalities pers. */
static int sc_add_name(struct sonde_sc_set *set, const char *tok, unsigned int pers, int optional,
		       char *err, size_t errlen)
{
	struct sc_match m = { 0 };

	if (*tok == '%') {
		m.mask = sc_class_find(tok + 1, 1);
		if (!m.mask)
			return optional ? 0 : sc_bad_class(tok, err, errlen);
		sc_select(set, pers, &m);
		return 0;
	}
	/* A historic class name comes before a syscall of the same name,
	 * as in strace: "signal" is the class, not i386's signal(2). */
	m.mask = sc_class_find(tok, 0);
	if (m.mask) {
		sc_select(set, pers, &m);
		return 0;
	}
	/* A name of several tables (stat: x86-64 4 and i386 106, whose
	 * struct differs) selects each call. */
	m.name = tok;
	if (sc_select(set, pers, &m) || optional)
		return 0;
	return sc_bad_name(tok, pers, err, errlen);
}

static int sc_add_token(struct sonde_sc_set *set, char *tok, char *err, size_t errlen)
{
	unsigned int pers;
	int optional = 0;

	if (*tok == '?') {
		optional = 1;
		tok++;
	}
	if (!*tok) {
		snprintf(err, errlen,
			 "empty name in the list (two commas, or a trailing "
			 "comma?); use 'none' for no syscall");
		return -EINVAL;
	}
	pers = sc_suffix(tok, err, errlen);
	if (!pers)
		return -EINVAL;
	if (*tok == '/')
		return sc_add_regex(set, tok + 1, pers, err, errlen);
	if (*tok >= '0' && *tok <= '9')
		return sc_add_number(set, tok, pers, optional, err, errlen);
	if (!strcmp(tok, "all")) {
		sc_add_all(set, pers);
		return 0;
	}
	return sc_add_name(set, tok, pers, optional, err, errlen);
}

/* The comma list buf, token by token: strtok_r would skip empty ones,
 * which strace rejects. */
static int sc_add_list(struct sonde_sc_set *set, char *buf, char *err, size_t errlen)
{
	char *tok, *next;
	int rc;

	for (tok = buf; tok; tok = next) {
		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		rc = sc_add_token(set, tok, err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}

int sonde_sc_set_parse(struct sonde_sc_set *set, const char *expr, char *err, size_t errlen)
{
	char buf[1024];
	int neg = 0, rc;
	size_t len;

	memset(set, 0, sizeof(*set));
	if (*expr == '!') {
		neg = 1;
		expr++;
	}
	len = strlen(expr);
	if (len >= sizeof(buf)) {
		snprintf(err, errlen, "expression too long (%zu bytes, at most %zu)", len,
			 sizeof(buf) - 1);
		return -EINVAL;
	}
	memcpy(buf, expr, len + 1);
	/* "none" is the whole list or nothing, as in strace. */
	rc = strcmp(buf, "none") ? sc_add_list(set, buf, err, errlen) : 0;
	if (rc)
		return rc;
	if (neg)
		sc_words(set, NULL);
	return 0;
}
