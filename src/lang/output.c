// SPDX-License-Identifier: GPL-2.0
/*
 * Rendering: printf with D's conversions, values by type, stacks
 * symbolised through /proc/kallsyms and /proc/PID/maps, and aggregations
 * as DTrace prints them (sorted, with ASCII histograms), or as NDJSON.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include "lang/agg.h"
#include "lang/printf.h"
#include "lang/rt.h"

#include <linux/types.h>
#include <sonde/syscalls.h>

void out_json_str(FILE *f, const char *s, size_t max)
{
	fputc('"', f);
	for (size_t i = 0; i < max && s[i]; i++) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* --- kernel symbols ---------------------------------------------------- */

struct ksym {
	uint64_t addr;
	char *name;
};

static struct ksym *ksyms;
static size_t nksyms;

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
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
		char t, name[256];

		if (sscanf(line, "%llx %c %255s", &a, &t, name) != 3 || !a)
			continue;
		if (t != 't' && t != 'T' && t != 'w' && t != 'W')
			continue;
		if (nksyms == cap) {
			cap = cap ? 2 * cap : 65536;
			ksyms = realloc(ksyms, cap * sizeof(*ksyms));
		}
		ksyms[nksyms].addr = a;
		ksyms[nksyms++].name = strdup(name);
	}
	fclose(f);
	qsort(ksyms, nksyms, sizeof(*ksyms), ksym_cmp);
}

static void ksym_fmt(uint64_t a, char *buf, size_t len)
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
	if (lo == 0)
		snprintf(buf, len, "0x%" PRIx64, a);
	else
		snprintf(buf, len, "%s+0x%" PRIx64, ksyms[lo - 1].name, a - ksyms[lo - 1].addr);
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

static void usym_fmt(uint64_t pid, uint64_t a, char *buf, size_t len)
{
	struct upid *u = NULL;

	for (int i = 0; i < nupids; i++)
		if (upids[i].pid == pid)
			u = &upids[i];
	if (!u || !u->n) {
		rt_snapshot_maps((uint32_t)pid);
		for (int i = 0; i < nupids; i++)
			if (upids[i].pid == pid)
				u = &upids[i];
	}
	snprintf(buf, len, "0x%" PRIx64, a);
	for (int i = 0; u && i < u->n; i++) {
		struct umap *m = &u->m[i];
		uint64_t off = a - m->start + m->off;
		struct uelf *el;
		const char *b;

		if (a < m->start || a >= m->end)
			continue;
		b = strrchr(m->path, '/') + 1;
		el = uelf_get(m->path);
		for (int k = el->n - 1; k >= 0; k--)
			if (el->f[k].off <= off) {
				if (off < el->f[k].off + (el->f[k].size ? el->f[k].size : 1)) {
					snprintf(buf, len, "%s`%s+0x%" PRIx64, b, el->f[k].name,
						 off - el->f[k].off);
					return;
				}
				break;
			}
		snprintf(buf, len, "%s+0x%" PRIx64, b, off);
		return;
	}
}

void out_ksym_free(void)
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
	for (size_t i = 0; i < nksyms; i++)
		free(ksyms[i].name);
	free(ksyms);
	ksyms = NULL;
	nksyms = 0;
}

void out_stack(struct rt *rt, FILE *f, const struct type *t, const unsigned char *p, int indent)
{
	int user = t->k == TY_USTACK;
	uint64_t pid = 0, pc;
	char buf[256];

	if (user) {
		memcpy(&pid, p, 8);
		p += 8;
	}
	if (rt->json)
		fputc('[', f);
	for (int i = 0; i < STACK_DEPTH; i++) {
		memcpy(&pc, p + 8 * i, 8);
		if (!pc)
			break;
		if (user)
			usym_fmt(pid, pc, buf, sizeof(buf));
		else
			ksym_fmt(pc, buf, sizeof(buf));
		if (rt->json) {
			if (i)
				fputc(',', f);
			out_json_str(f, buf, sizeof(buf));
		} else {
			fprintf(f, "%*s%s\n", indent ? 14 : 0, "", buf);
		}
	}
	if (rt->json)
		fputc(']', f);
}

/* --- values ------------------------------------------------------------ */

void out_value(struct rt *rt, FILE *f, const struct type *t, const unsigned char *p)
{
	int64_t v;

	switch (t->k) {
	case TY_STR:
		if (rt->json)
			out_json_str(f, (const char *)p, t->size);
		else
			fprintf(f, "%.*s", t->size, (const char *)p);
		return;
	case TY_STACK:
	case TY_USTACK:
		out_stack(rt, f, t, p, 1);
		return;
	default:
		memcpy(&v, p, 8);
		if (t->k == TY_PTR)
			fprintf(f, rt->json ? "%" PRIu64 : "0x%" PRIx64, (uint64_t)v);
		else if (t->sign)
			fprintf(f, "%" PRId64, v);
		else
			fprintf(f, "%" PRIu64, (uint64_t)v);
	}
}

/* Literal text of a format, with %% unescaped. */
static void lit(FILE *f, const char *fmt, int from, int to)
{
	for (int i = from; i < to; i++) {
		fputc(fmt[i], f);
		if (fmt[i] == '%' && fmt[i + 1] == '%')
			i++;
	}
}

/* One conversion of D printf: spec holds flags, width and precision. */
static void conv_one(struct rt *rt, FILE *f, const struct fmt_conv *c, const struct type *t,
		     const unsigned char *p)
{
	char spec[48], buf[256];
	int64_t v = 0;

	if (t->k != TY_STR && t->k != TY_STACK && t->k != TY_USTACK)
		memcpy(&v, p, 8);
	switch (c->conv) {
	case 's': {
		char s[4096];

		snprintf(s, sizeof(s), "%.*s", t->size, (const char *)p);
		snprintf(spec, sizeof(spec), "%ss", c->spec);
		fprintf(f, spec, s);
		return;
	}
	case 'k':
		out_stack(rt, f, t, p, 0);
		return;
	case 'a':
	case 'A':
		if (c->conv == 'a')
			ksym_fmt(v, buf, sizeof(buf));
		else
			snprintf(buf, sizeof(buf), "0x%" PRIx64, (uint64_t)v);
		snprintf(spec, sizeof(spec), "%ss", c->spec);
		fprintf(f, spec, buf);
		return;
	case 'Y': {
		time_t s = v / 1000000000;
		struct tm tm;

		localtime_r(&s, &tm);
		strftime(buf, sizeof(buf), "%Y %b %e %H:%M:%S", &tm);
		snprintf(spec, sizeof(spec), "%ss", c->spec);
		fprintf(f, spec, buf);
		return;
	}
	case 'c':
		snprintf(spec, sizeof(spec), "%sc", c->spec);
		fprintf(f, spec, (int)(unsigned char)v);
		return;
	case 'p':
		snprintf(spec, sizeof(spec), "%s" PRIx64, c->spec);
		fputs("0x", f);
		fprintf(f, spec, (uint64_t)v);
		return;
	case 'd':
	case 'i':
		snprintf(spec, sizeof(spec), "%s" PRId64, c->spec);
		fprintf(f, spec, v);
		return;
	default:
		snprintf(spec, sizeof(spec), "%s%s", c->spec,
			 c->conv == 'u'	  ? PRIu64
			 : c->conv == 'x' ? PRIx64
			 : c->conv == 'X' ? PRIX64
					  : PRIo64);
		fprintf(f, spec, (uint64_t)v);
	}
}

static void render(struct rt *rt, FILE *f, const struct action *a, const unsigned char *rec)
{
	struct fmt_conv cv[FMT_MAX];
	char err[128];
	int n = fmt_parse(a->fmt, cv, FMT_MAX, err, sizeof(err));

	for (int k = 0; k < n; k++) {
		lit(f, a->fmt, cv[k].lit_start, cv[k].lit_end);
		conv_one(rt, f, &cv[k], a->args[k].t, rec + a->args[k].off);
	}
	if (n >= 0)
		lit(f, a->fmt, cv[n].lit_start, cv[n].lit_end);
}

void out_printf(struct rt *rt, const struct action *a, const unsigned char *rec)
{
	char *s = NULL;
	size_t len = 0;
	FILE *m;

	if (!rt->json) {
		render(rt, rt->out, a, rec);
		return;
	}
	m = open_memstream(&s, &len);
	render(rt, m, a, rec);
	fclose(m);
	fprintf(rt->out, "{\"type\":\"printf\",\"data\":");
	out_json_str(rt->out, s, len);
	fprintf(rt->out, "}\n");
	free(s);
}

/* --- aggregations ------------------------------------------------------ */

static void key_text(struct rt *rt, FILE *f, const struct agg *a, const unsigned char *key)
{
	for (int k = 0; k < a->nkeys; k++) {
		const unsigned char *p = key + a->koff[k];
		const struct type *t = a->kt[k];

		if (t->k == TY_STR) {
			fprintf(f, "  %-*.*s", a->nkeys == 1 ? 50 : 20, t->size, (const char *)p);
		} else if (t->k == TY_STACK || t->k == TY_USTACK) {
			fputc('\n', f);
			out_stack(rt, f, t, p, 1);
		} else {
			int64_t v;

			memcpy(&v, p, 8);
			if (t->k == TY_PTR || !t->sign)
				fprintf(f, "  %16" PRIu64, (uint64_t)v);
			else
				fprintf(f, "  %16" PRId64, v);
		}
	}
}

static void key_json(struct rt *rt, FILE *f, const struct agg *a, const unsigned char *key)
{
	fputc('[', f);
	for (int k = 0; k < a->nkeys; k++) {
		if (k)
			fputc(',', f);
		out_value(rt, f, a->kt[k], key + a->koff[k]);
	}
	fputc(']', f);
}

static int64_t norm(const struct agg *a, int64_t v)
{
	return a->normal > 1 ? v / a->normal : v;
}

static void bucket_label(const struct agg *a, int i, char *buf, size_t len)
{
	int64_t lo = agg_bucket_lo(a, i);

	if (!strcmp(a->fn->name, "lquantize") && i == 0)
		snprintf(buf, len, "< %" PRId64, a->p[0]);
	else if (!strcmp(a->fn->name, "lquantize") && i == a->nbuckets - 1)
		snprintf(buf, len, ">= %" PRId64, a->p[1]);
	else if (!strcmp(a->fn->name, "llquantize") && i == 0)
		snprintf(buf, len, "< %" PRId64, agg_bucket_lo(a, 1));
	else
		snprintf(buf, len, "%" PRId64, lo);
}

static void hist_text(FILE *f, const struct agg *a, const uint64_t *v)
{
	int first = -1, last = -1;
	uint64_t total = 0;

	for (int i = 0; i < a->nbuckets; i++)
		if (v[i]) {
			if (first < 0)
				first = i;
			last = i;
			total += v[i];
		}
	if (first < 0)
		return;
	first = first > 0 ? first - 1 : 0;
	last = last < a->nbuckets - 1 ? last + 1 : last;
	fprintf(f, "%16s  %s %s\n", "value", "------------- Distribution -------------", "count");
	for (int i = first; i <= last; i++) {
		char label[32], bar[41];
		int n = total ? (int)((v[i] * 40 + total / 2) / total) : 0;

		bucket_label(a, i, label, sizeof(label));
		memset(bar, '@', n);
		memset(bar + n, ' ', 40 - n);
		bar[40] = 0;
		fprintf(f, "%16s |%s %" PRId64 "\n", label, bar, norm(a, v[i]));
	}
}

static void agg_text(struct rt *rt, struct agg *a, struct agg_entry *e, int n)
{
	FILE *f = rt->out;

	fputc('\n', f);
	for (int i = 0; i < n; i++) {
		if (a->fn->hist) {
			if (a->nkeys) {
				key_text(rt, f, a, e[i].key);
				fputc('\n', f);
			}
			hist_text(f, a, e[i].val);
			fputc('\n', f);
			continue;
		}
		key_text(rt, f, a, e[i].key);
		fprintf(f, "%s%16" PRId64 "\n", a->nkeys ? " " : "  ", norm(a, e[i].sortv));
	}
}

static void agg_json(struct rt *rt, struct agg *a, struct agg_entry *e, int n)
{
	FILE *f = rt->out;

	fprintf(f, "{\"type\":\"aggregation\",\"name\":");
	out_json_str(f, a->name, 64);
	fprintf(f, ",\"function\":\"%s\",\"data\":[", a->fn->name);
	for (int i = 0; i < n; i++) {
		fprintf(f, "%s{\"keys\":", i ? "," : "");
		key_json(rt, f, a, e[i].key);
		if (a->fn->hist) {
			int first = 1;

			fprintf(f, ",\"buckets\":[");
			for (int b = 0; b < a->nbuckets; b++) {
				if (!e[i].val[b])
					continue;
				fprintf(f, "%s{\"min\":%" PRId64 ",\"count\":%" PRId64 "}",
					first ? "" : ",",
					b == 0 && strcmp(a->fn->name, "quantize")
						? INT64_MIN
						: agg_bucket_lo(a, b),
					norm(a, e[i].val[b]));
				first = 0;
			}
			fprintf(f, "]");
		}
		fprintf(f, ",\"value\":%" PRId64 "}", norm(a, e[i].sortv));
	}
	fprintf(f, "]}\n");
}

/* printa with a format: keys fill the conversions in order, %@ the
 * value (a histogram prints in full). */
static void agg_fmt(struct rt *rt, struct agg *a, const char *fmt, struct agg_entry *e, int n)
{
	struct fmt_conv cv[FMT_MAX];
	char err[128];
	int nc = fmt_parse(fmt, cv, FMT_MAX, err, sizeof(err));

	for (int i = 0; i < n && nc >= 0; i++) {
		int key = 0;

		for (int k = 0; k < nc; k++) {
			lit(rt->out, fmt, cv[k].lit_start, cv[k].lit_end);
			if (cv[k].conv == '@') {
				if (a->fn->hist) {
					fputc('\n', rt->out);
					hist_text(rt->out, a, e[i].val);
				} else {
					int64_t v = norm(a, e[i].sortv);
					struct fmt_conv c = cv[k];

					c.conv = 'd';
					conv_one(rt, rt->out, &c, &t_s64, (unsigned char *)&v);
				}
			} else if (key < a->nkeys) {
				conv_one(rt, rt->out, &cv[k], a->kt[key], e[i].key + a->koff[key]);
				key++;
			}
		}
		lit(rt->out, fmt, cv[nc].lit_start, cv[nc].lit_end);
	}
}

void out_agg(struct rt *rt, struct agg *a, const char *fmt, struct agg_entry *e, int n)
{
	if (rt->json)
		agg_json(rt, a, e, n);
	else if (fmt)
		agg_fmt(rt, a, fmt, e, n);
	else
		agg_text(rt, a, e, n);
	fflush(rt->out);
}
