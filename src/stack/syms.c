// SPDX-License-Identifier: GPL-2.0
/*
 * Frame names as Debian's strace 6.1 prints them: it unwinds with
 * libunwind, whose unw_get_proc_name looks the pc up in the file itself
 * (no separate debug files, no DWARF): the STT_FUNC symbol of .symtab
 * and .dynsym nearest at or below it, whatever its size, the first met
 * in section and table order when several share an address, and none
 * when the distance is not less than the file's size. Its load offset is
 * the mapping's start less the p_vaddr of the PT_LOAD whose p_offset is
 * the mapping's offset (0 when none is). libdw's lookup differs (sizes
 * bound a symbol, debug files are read), hence this table.
 *
 *   ustk_symtab  path, size, phdrs (PT_LOAD offset -> vaddr),
 *                syms[] sorted by value, then by the order met
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stack/stack_int.h"

struct ustk_sym {
	uint64_t value;
	size_t order;	  /* met in this order: the first wins a tie */
	const char *name; /* in the file's mapped string table */
};

struct ustk_load {
	uint64_t offset, vaddr;
};

struct ustk_symtab {
	struct ustk_symtab *next;
	char *path;
	uint64_t size; /* of the file */
	int fd;
	Elf *elf; /* kept open: the names point into it */
	struct ustk_sym *syms;
	size_t nsyms;
	struct ustk_load *loads;
	size_t nloads;
};

static int sym_cmp(const void *a, const void *b)
{
	const struct ustk_sym *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The defined STT_FUNC symbols of one SHT_SYMTAB or SHT_DYNSYM section.
 * SHN_ABS ones (absolute, not moved by the load offset) are left out:
 * compilers emit none for functions. */
static int read_symbols(struct ustk_symtab *t, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	struct ustk_sym *g;

	if (!d || !n)
		return 0;
	g = realloc(t->syms, (t->nsyms + n) * sizeof(*g));
	if (!g)
		return -ENOMEM;
	t->syms = g;
	for (size_t i = 0; i < n; i++) {
		const char *name;
		GElf_Sym s;

		if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
		    s.st_shndx == SHN_UNDEF || s.st_shndx == SHN_ABS)
			continue;
		name = elf_strptr(elf, sh->sh_link, s.st_name);
		if (!name)
			continue;
		g[t->nsyms] = (struct ustk_sym){ s.st_value, t->nsyms, name };
		t->nsyms++;
	}
	return 0;
}

static int read_loads(struct ustk_symtab *t, Elf *elf)
{
	size_t phnum;

	if (elf_getphdrnum(elf, &phnum))
		return 0;
	t->loads = calloc(phnum ? phnum : 1, sizeof(*t->loads));
	if (!t->loads)
		return -ENOMEM;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			t->loads[t->nloads++] = (struct ustk_load){ ph.p_offset, ph.p_vaddr };
	}
	return 0;
}

/* The file's tables; a file that cannot be read gets an empty table, so
 * that it is tried once. */
static int symtab_read(struct ustk_symtab *t)
{
	Elf_Scn *scn = NULL;
	struct stat st;
	int rc = 0;

	t->fd = ustk_open_regular(t->path);
	if (t->fd < 0 || fstat(t->fd, &st))
		return 0;
	t->elf = elf_begin(t->fd, ELF_C_READ_MMAP, NULL);
	if (!t->elf || elf_kind(t->elf) != ELF_K_ELF)
		return 0;
	t->size = (uint64_t)st.st_size;
	while (!rc && (scn = elf_nextscn(t->elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) &&
		    (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM))
			rc = read_symbols(t, t->elf, scn, &sh);
	}
	if (!rc)
		rc = read_loads(t, t->elf);
	if (!rc && t->nsyms)
		qsort(t->syms, t->nsyms, sizeof(*t->syms), sym_cmp);
	return rc;
}

static void symtab_free(struct ustk_symtab *t)
{
	if (!t)
		return;
	free(t->syms);
	free(t->loads);
	if (t->elf)
		elf_end(t->elf);
	if (t->fd >= 0)
		close(t->fd);
	free(t->path);
	free(t);
}

static struct ustk_symtab *symtab_get(struct sonde_ustack *u, const char *path)
{
	struct ustk_symtab *t;

	for (t = u->files; t; t = t->next)
		if (!strcmp(t->path, path))
			return t;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->fd = -1;
	if (!(t->path = strdup(path)) || symtab_read(t)) {
		symtab_free(t);
		return NULL;
	}
	t->next = u->files;
	u->files = t;
	return t;
}

int ustk_sym_name(struct sonde_ustack *u, const struct ustk_img *m, uint64_t addr,
		  const char **name, uint64_t *off)
{
	struct ustk_symtab *t = symtab_get(u, m->path);
	uint64_t load = 0, target;
	size_t lo = 0, hi;

	if (!t || !t->nsyms)
		return -1;
	for (size_t i = 0; i < t->nloads; i++)
		if (t->loads[i].offset == m->pgoff) {
			load = m->start - t->loads[i].vaddr;
			break;
		}
	target = addr - load;
	/* The last symbol at or below target, then the first of its value. */
	hi = t->nsyms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].value <= target)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	while (lo > 1 && t->syms[lo - 2].value == t->syms[lo - 1].value)
		lo--;
	if (target - t->syms[lo - 1].value >= t->size)
		return -1;
	*name = t->syms[lo - 1].name;
	*off = target - t->syms[lo - 1].value;
	return 0;
}

void ustk_syms_free(struct sonde_ustack *u)
{
	while (u->files) {
		struct ustk_symtab *t = u->files;

		u->files = t->next;
		symtab_free(t);
	}
}
