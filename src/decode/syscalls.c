// SPDX-License-Identifier: GPL-2.0
/*
 * Syscall names, classes and the -e trace= expression parser, with
 * strace 6.1's semantics:
 *  - the expression is a comma list; a leading "!" negates the whole list;
 *  - "all" and "none"; "%class" (and the seven historic classes without
 *    the "%": file, desc, process, network/net, memory, signal, ipc);
 *  - "/REGEX" selects every name the extended regex matches;
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

/*
 * The i386 calls recorded in the SONDE_NR_I386 range (sonde_syscall_i386_nr)
 * whose name, or class, is selected; those with an x86-64 twin of the
 * same name are recorded as the twin, which has the same classes.
 */
static unsigned int sc_i386_add(struct sonde_sc_set *s, const char *name, unsigned int mask,
				const regex_t *rx)
{
	unsigned int hits = 0;

	for (unsigned int n = 0; n < SONDE_SYSCALL_TAB_LEN; n++) {
		const struct sonde_syscall_i386 *e = sc_i386(n);

		if (!e || sonde_syscall_i386_nr(n) != SONDE_NR_I386 + n)
			continue;
		if ((name && !strcmp(e->info.name, name)) || (e->info.classes & mask) ||
		    (rx && !regexec(rx, e->info.name, 0, NULL, 0))) {
			sonde_sc_set_add(s, SONDE_NR_I386 + n);
			hits++;
		}
	}
	return hits;
}

void sonde_sc_set_classes(struct sonde_sc_set *s, unsigned int mask)
{
	for (unsigned int nr = 0; nr < SONDE_SYSCALL_TAB_LEN; nr++)
		if (sonde_syscall_tab[nr].classes & mask)
			sonde_sc_set_add(s, nr);
	sc_i386_add(s, NULL, mask, NULL);
}

unsigned int sonde_sc_set_count(const struct sonde_sc_set *s)
{
	unsigned int n = 0;

	for (size_t i = 0; i < SONDE_NR_SYSCALLS / 64; i++)
		n += __builtin_popcountll(s->bits[i]);
	return n;
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

static int sc_add_regex(struct sonde_sc_set *set, const char *re, char *err, size_t errlen)
{
	regex_t rx;
	int rc = regcomp(&rx, re, REG_EXTENDED | REG_NOSUB);
	int hits = 0;

	if (rc) {
		char msg[128];

		regerror(rc, &rx, msg, sizeof(msg));
		snprintf(err, errlen, "bad regular expression '/%s': %s", re, msg);
		return -EINVAL;
	}
	for (unsigned int nr = 0; nr < SONDE_SYSCALL_TAB_LEN; nr++)
		if (sonde_syscall_tab[nr].name &&
		    !regexec(&rx, sonde_syscall_tab[nr].name, 0, NULL, 0)) {
			sonde_sc_set_add(set, nr);
			hits++;
		}
	hits += sc_i386_add(set, NULL, 0, &rx);
	regfree(&rx);
	if (!hits) {
		snprintf(err, errlen, "'/%s' matches no syscall name; check the regex", re);
		return -EINVAL;
	}
	return 0;
}

/*
 * A syscall number, as strace takes it (-e trace=64). strace selects call
 * N of each personality; here N is the x86-64 call: the set cannot tell
 * an i386 call recorded as its x86-64 twin from the twin (an i386 program
 * is traced by names).
 */
static int sc_add_number(struct sonde_sc_set *set, const char *tok, int optional, char *err,
			 size_t errlen)
{
	char *end;
	unsigned long nr = strtoul(tok, &end, 10);

	if (!*end && nr < SONDE_SYSCALL_TAB_LEN) {
		sonde_sc_set_add(set, (unsigned int)nr);
		return 0;
	}
	if (optional && !*end)
		return 0;
	snprintf(err, errlen, "invalid syscall number '%s' (x86-64 calls are 0 to %u)", tok,
		 SONDE_SYSCALL_TAB_LEN - 1);
	return -EINVAL;
}

static int sc_add_token(struct sonde_sc_set *set, const char *tok, char *err, size_t errlen)
{
	int optional = 0, nr;
	unsigned int mask;
	const char *hint;

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
	if (*tok == '/')
		return sc_add_regex(set, tok + 1, err, errlen);
	if (*tok >= '0' && *tok <= '9')
		return sc_add_number(set, tok, optional, err, errlen);
	if (!strcmp(tok, "all")) {
		sonde_sc_set_fill(set);
		return 0;
	}
	if (!strcmp(tok, "none"))
		return 0;
	if (*tok == '%') {
		mask = sc_class_find(tok + 1, 1);
		if (mask) {
			sonde_sc_set_classes(set, mask);
			return 0;
		}
		if (optional)
			return 0;
		snprintf(err, errlen,
			 "unknown class '%s'; classes are %%file %%desc %%process "
			 "%%network %%memory %%signal %%ipc %%creds %%clock %%pure "
			 "%%stat %%lstat %%fstat %%%%stat %%statfs %%fstatfs "
			 "%%%%statfs",
			 tok);
		return -EINVAL;
	}
	/* A historic class name comes before a syscall of the same name,
	 * as in strace: "signal" is the class, not i386's signal(2). */
	mask = sc_class_find(tok, 0);
	if (mask) {
		sonde_sc_set_classes(set, mask);
		return 0;
	}
	/* A name of both tables (stat: x86-64 4 and i386 106, whose
	 * struct differs) selects both calls. */
	nr = sonde_syscall_lookup(tok);
	if (nr >= 0)
		sonde_sc_set_add(set, nr);
	if (sc_i386_add(set, tok, 0, NULL) || nr >= 0)
		return 0;
	if (optional)
		return 0;
	hint = sc_suggest(tok);
	if (strchr(tok, '@'))
		snprintf(err, errlen,
			 "'%s': personality suffixes (@64, @32, @x32) are not taken: a name "
			 "selects the call in each ABI that has it (x86-64 and i386)",
			 tok);
	else if (hint)
		snprintf(err, errlen, "unknown syscall '%s' (did you mean '%s'?)", tok, hint);
	else
		snprintf(err, errlen,
			 "unknown syscall '%s'; use names as strace "
			 "spells them, %%classes, /regex or ?name",
			 tok);
	return -EINVAL;
}

int sonde_sc_set_parse(struct sonde_sc_set *set, const char *expr, char *err, size_t errlen)
{
	char buf[1024], *tok, *save = NULL;
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
	/* strtok_r would skip empty tokens; strace rejects them, so do we. */
	for (tok = buf;; tok = save) {
		save = strchr(tok, ',');
		if (save)
			*save++ = '\0';
		rc = sc_add_token(set, tok, err, errlen);
		if (rc)
			return rc;
		if (!save)
			break;
	}
	if (neg) {
		for (size_t i = 0; i < SONDE_NR_SYSCALLS / 64; i++)
			set->bits[i] = ~set->bits[i];
		for (size_t i = 0; i < SONDE_NR_I386_LEN / 64; i++)
			set->bits_i386[i] = ~set->bits_i386[i];
		set->others = !set->others;
	}
	return 0;
}
