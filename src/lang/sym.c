// SPDX-License-Identifier: GPL-2.0
/*
 * Symbolisation of kernel addresses (/proc/kallsyms) and user addresses
 * (/proc/PID/maps and the ELF symbol tables of the mapped files), in
 * DTrace's forms: module`symbol+0xoff (stacks, %a, %A, uaddr()),
 * module`symbol (sym(), func(), usym(), ufunc()) and module (mod(),
 * umod()). Aggregation keys of the last two kinds are normalised to the
 * symbol or module start so that addresses in one function aggregate
 * together, as DTrace does.
 */
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lang/rt.h"
#include "lang/sym.h"

/*
 * kallsyms gives no symbol sizes: a symbol extends to the next one. The
 * ends of vmlinux's text (_etext, _einittext) are kept as bounds, not
 * symbols, and the last symbol of a module (or of the table), followed by
 * unmapped space or another module, covers at most KSYM_TAIL_MAX bytes.
 * An address no symbol covers (-1, data) then prints in hex, as in DTrace,
 * not as the preceding symbol plus a huge offset.
 */
#define KSYM_TAIL_MAX (64 << 10)

struct ksym {
	uint64_t addr;
	char *name;
	const char *mod; /* "vmlinux" or a module name (owned when not) */
	int end;	 /* a bound of vmlinux's text, not a symbol */
};

static struct ksym *ksyms;
static size_t nksyms;

/* By address; at one address bounds first, so that a symbol starting
 * there is the one found. */
static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return (x->addr > y->addr) - (x->addr < y->addr);
	return y->end - x->end;
}

static void ksym_load(void)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512];
	size_t cap = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char t, name[256], mod[64];
		int n = sscanf(line, "%llx %c %255s [%63[^]]]", &a, &t, name, mod);

		if (n < 3 || !a)
			continue;
		if (t != 't' && t != 'T' && t != 'w' && t != 'W')
			continue;
		if (nksyms == cap) {
			cap = cap ? 2 * cap : 65536;
			ksyms = realloc(ksyms, cap * sizeof(*ksyms));
		}
		ksyms[nksyms].addr = a;
		ksyms[nksyms].end = !strcmp(name, "_etext") || !strcmp(name, "_einittext");
		ksyms[nksyms].mod = n == 4 ? strdup(mod) : "vmlinux";
		ksyms[nksyms++].name = strdup(name);
	}
	fclose(f);
	qsort(ksyms, nksyms, sizeof(*ksyms), ksym_cmp);
}

/*
 * User addresses. The mappings of a process are snapshot the first time
 * one of its stacks is printed (and refreshed for $target while it runs:
 * rt_snapshot_maps), so stacks still symbolise after the process exits.
 * Symbols come from the ELF .symtab/.dynsym of the mapped file.
 */
struct umap {
	uint64_t start, end, off;
	char *path;
};

struct upid {
	uint32_t pid;
	struct umap *m;
	int n;
};

struct uelf {
	char *path;
	struct ufunc {
		uint64_t off, size;
		char *name;
	} * f;
	int n;
};

static struct upid *upids;
static int nupids;
static struct uelf *uelfs;
static int nuelfs;

static void upid_clear(struct upid *u)
{
	for (int i = 0; i < u->n; i++)
		free(u->m[i].path);
	free(u->m);
	u->m = NULL;
	u->n = 0;
}

void rt_snapshot_maps(uint32_t pid)
{
	char path[64], line[1024];
	struct upid *u = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return;
	for (int i = 0; i < nupids; i++)
		if (upids[i].pid == pid)
			u = &upids[i];
	if (!u) {
		upids = realloc(upids, (nupids + 1) * sizeof(*upids));
		u = &upids[nupids++];
		memset(u, 0, sizeof(*u));
		u->pid = pid;
	}
	upid_clear(u);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		char *p = strchr(line, '/');

		if (!p || sscanf(line, "%llx-%llx %*s %llx", &s, &e, &off) != 3)
			continue;
		p[strcspn(p, "\n")] = 0;
		u->m = realloc(u->m, (u->n + 1) * sizeof(*u->m));
		u->m[u->n++] = (struct umap){ s, e, off, strdup(p) };
	}
	fclose(f);
}

static int ufunc_cmp(const void *a, const void *b)
{
	const struct ufunc *x = a, *y = b;

	return (x->off > y->off) - (x->off < y->off);
}

static struct uelf *uelf_get(const char *path)
{
	struct uelf *u;
	Elf *e;
	Elf_Scn *scn = NULL;
	int fd;

	for (int i = 0; i < nuelfs; i++)
		if (!strcmp(uelfs[i].path, path))
			return &uelfs[i];
	uelfs = realloc(uelfs, (nuelfs + 1) * sizeof(*uelfs));
	u = &uelfs[nuelfs++];
	memset(u, 0, sizeof(*u));
	u->path = strdup(path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return u;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	while (e && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			size_t nph;
			const char *name;

			if (!gelf_getsym(d, i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    !sym.st_value || !(name = elf_strptr(e, sh.sh_link, sym.st_name)))
				continue;
			if (elf_getphdrnum(e, &nph))
				continue;
			for (size_t k = 0; k < nph; k++) {
				GElf_Phdr ph;

				if (!gelf_getphdr(e, k, &ph) || ph.p_type != PT_LOAD ||
				    sym.st_value < ph.p_vaddr ||
				    sym.st_value >= ph.p_vaddr + ph.p_memsz)
					continue;
				u->f = realloc(u->f, (u->n + 1) * sizeof(*u->f));
				u->f[u->n++] =
					(struct ufunc){ sym.st_value - ph.p_vaddr + ph.p_offset,
							sym.st_size, strdup(name) };
				break;
			}
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	qsort(u->f, u->n, sizeof(*u->f), ufunc_cmp);
	return u;
}

/* Whether symbol i plausibly holds a (a at or after its start). */
static int ksym_covers(size_t i, uint64_t a)
{
	if (ksyms[i].end)
		return 0;
	if (i + 1 < nksyms && !strcmp(ksyms[i + 1].mod, ksyms[i].mod))
		return 1; /* a is before the next symbol of the module */
	return a - ksyms[i].addr < KSYM_TAIL_MAX;
}

/* Index of the kernel symbol holding a, or -1. */
static long ksym_find(uint64_t a)
{
	size_t lo = 0, hi;

	if (!ksyms)
		ksym_load();
	hi = nksyms;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (ksyms[mid].addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && ksym_covers(lo - 1, a) ? (long)lo - 1 : -1;
}

void sym_kernel(uint64_t a, enum tfmt fmt, char *buf, size_t len)
{
	long i = ksym_find(a);

	if (i < 0)
		snprintf(buf, len, "0x%" PRIx64, a);
	else if (fmt == TF_MODULE)
		snprintf(buf, len, "%s", ksyms[i].mod);
	else if (fmt == TF_SYMBOL)
		snprintf(buf, len, "%s`%s", ksyms[i].mod, ksyms[i].name);
	else
		snprintf(buf, len, "%s`%s+0x%" PRIx64, ksyms[i].mod, ksyms[i].name,
			 a - ksyms[i].addr);
}

/* The mapping of pid holding a (mappings snapshot on first use). */
static struct umap *umap_find(uint64_t pid, uint64_t a, struct upid **up)
{
	struct upid *u = NULL;

	for (int pass = 0; pass < 2 && (!u || !u->n); pass++) {
		if (pass)
			rt_snapshot_maps((uint32_t)pid);
		for (int i = 0; i < nupids; i++)
			if (upids[i].pid == pid)
				u = &upids[i];
	}
	*up = u;
	for (int i = 0; u && i < u->n; i++)
		if (a >= u->m[i].start && a < u->m[i].end)
			return &u->m[i];
	return NULL;
}

/* The function holding file offset off, or NULL. */
static struct ufunc *ufunc_find(struct uelf *el, uint64_t off)
{
	for (int k = el->n - 1; k >= 0; k--)
		if (el->f[k].off <= off) {
			if (off < el->f[k].off + (el->f[k].size ? el->f[k].size : 1))
				return &el->f[k];
			break;
		}
	return NULL;
}

void sym_user(uint64_t pid, uint64_t a, enum tfmt fmt, char *buf, size_t len)
{
	struct upid *u;
	struct umap *m = umap_find(pid, a, &u);
	uint64_t off;
	struct ufunc *f;
	const char *b;

	if (!m) {
		snprintf(buf, len, "0x%" PRIx64, a);
		return;
	}
	b = strrchr(m->path, '/') + 1;
	off = a - m->start + m->off;
	f = ufunc_find(uelf_get(m->path), off);
	if (fmt == TF_MODULE)
		snprintf(buf, len, "%s", b);
	else if (fmt == TF_SYMBOL && f)
		snprintf(buf, len, "%s`%s", b, f->name);
	else if (fmt == TF_SYMBOL)
		snprintf(buf, len, "%s`0x%" PRIx64, b, a);
	else if (f)
		snprintf(buf, len, "%s`%s+0x%" PRIx64, b, f->name, off - f->off);
	else
		snprintf(buf, len, "%s+0x%" PRIx64, b, off);
}

uint64_t sym_normalize(uint64_t pid, uint64_t a, int user, enum tfmt fmt)
{
	struct upid *u;
	struct umap *m;
	struct ufunc *f;
	long i;

	if (fmt != TF_SYMBOL && fmt != TF_MODULE)
		return a;
	if (!user) {
		i = ksym_find(a);
		if (i < 0)
			return a;
		while (fmt == TF_MODULE && i > 0 && !strcmp(ksyms[i - 1].mod, ksyms[i].mod))
			i--;
		return ksyms[i].addr;
	}
	m = umap_find(pid, a, &u);
	if (!m)
		return a;
	if (fmt == TF_MODULE) {
		while (m > u->m && !strcmp(m[-1].path, m->path))
			m--;
		return m->start;
	}
	f = ufunc_find(uelf_get(m->path), a - m->start + m->off);
	return f ? a - (a - m->start + m->off - f->off) : a;
}

void sym_free(void)
{
	for (int i = 0; i < nupids; i++)
		upid_clear(&upids[i]);
	free(upids);
	upids = NULL;
	nupids = 0;
	for (int i = 0; i < nuelfs; i++) {
		for (int k = 0; k < uelfs[i].n; k++)
			free(uelfs[i].f[k].name);
		free(uelfs[i].f);
		free(uelfs[i].path);
	}
	free(uelfs);
	uelfs = NULL;
	nuelfs = 0;
	for (size_t i = 0; i < nksyms; i++) {
		free(ksyms[i].name);
		if (strcmp(ksyms[i].mod, "vmlinux"))
			free((char *)ksyms[i].mod);
	}
	free(ksyms);
	ksyms = NULL;
	nksyms = 0;
}
