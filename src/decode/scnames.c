// SPDX-License-Identifier: GPL-2.0
/*
 * Syscall names of one trace. Names come from the trace's own table first
 * (a trace recorded by a sonde with a newer table names calls this build
 * does not know), then from the built-in one (for numbers the file leaves
 * unnamed), else strace's "syscall_0x1c3". A name from the file is used
 * only if it looks like a syscall name ([A-Za-z0-9_], at most 63 bytes):
 * a hostile file must not put terminal escapes or JSON quotes on anyone's
 * screen. The arity and flags are the built-in table's for that name.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sonde/format.h>
#include <sonde/syscalls.h>

struct sc_name {
	const char *name; /* NULL: unnamed */
	unsigned char nargs;
	unsigned char ret_addr;
};

struct sonde_sc_names {
	const struct sonde_meta *meta;
	struct sc_name sc[SONDE_NR_SYSCALLS]; /* resolved once */
};

static int sc_name_ok(const char *s)
{
	size_t n = 0;

	if (!s)
		return 0;
	for (; s[n]; n++)
		if (n >= 63 || !((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') ||
				 (s[n] >= '0' && s[n] <= '9') || s[n] == '_'))
			return 0;
	return n > 0;
}

static struct sc_name sc_name_resolve(const struct sonde_meta *meta, uint32_t nr)
{
	const struct sonde_syscall_info *si = sonde_syscall_info(nr);
	struct sc_name sc = { .name = NULL, .nargs = 6 };
	int own;

	if (meta && meta->syscall_names && nr < meta->nsyscalls &&
	    sc_name_ok(meta->syscall_names[nr]))
		sc.name = meta->syscall_names[nr];
	else if (si)
		sc.name = si->name;
	if (!sc.name)
		return sc;
	/* Same call under the same number (the usual case), or known under
	 * another number (a trace from another table layout). */
	if (!si || strcmp(si->name, sc.name)) {
		own = sonde_syscall_lookup(sc.name);
		si = own >= 0 ? sonde_syscall_info(own) : NULL;
	}
	if (si) {
		sc.nargs = si->nargs;
		sc.ret_addr = !!(si->flags & SONDE_SCF_RET_ADDR);
	}
	return sc;
}

struct sonde_sc_names *sonde_sc_names_new(const struct sonde_meta *meta)
{
	struct sonde_sc_names *n = malloc(sizeof(*n));

	if (!n)
		return NULL;
	n->meta = meta;
	for (uint32_t nr = 0; nr < SONDE_NR_SYSCALLS; nr++)
		n->sc[nr] = sc_name_resolve(meta, nr);
	return n;
}

void sonde_sc_names_free(struct sonde_sc_names *n)
{
	free(n);
}

static struct sc_name sc_name_get(const struct sonde_sc_names *n, uint32_t nr)
{
	return nr < SONDE_NR_SYSCALLS ? n->sc[nr] : sc_name_resolve(n->meta, nr);
}

const char *sonde_sc_names_name(const struct sonde_sc_names *n, uint32_t nr, char *buf, size_t len)
{
	struct sc_name sc = sc_name_get(n, nr);

	if (sc.name)
		return sc.name;
	snprintf(buf, len, "syscall_%#" PRIx64, sonde_syscall_nr_wide(nr));
	return buf;
}

unsigned int sonde_sc_names_nargs(const struct sonde_sc_names *n, uint32_t nr)
{
	return sc_name_get(n, nr).nargs;
}

int sonde_sc_names_ret_addr(const struct sonde_sc_names *n, uint32_t nr)
{
	return sc_name_get(n, nr).ret_addr;
}
