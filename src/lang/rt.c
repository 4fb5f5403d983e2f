// SPDX-License-Identifier: GPL-2.0
/* Runtime: records, aggregation snapshots and drops. See rt.h. */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lang/agg.h"
#include "lang/cg.h"
#include "lang/rt.h"
#include "lang/sym.h"

struct spec_rec {
	struct spec_rec *next;
	size_t size;
	unsigned char data[];
};

/* The records held for one speculation id (see spec.c for ids). */
struct spec_buf {
	struct spec_buf *next;
	uint32_t id;
	struct spec_rec *recs, **tail; /* oldest first */
};

void rt_ring_fd(struct lcc *cc, int cpu, int fd)
{
	if (!cc->ring_fds) {
		cc->ring_fds = calloc(cc->ncpus, sizeof(int));
		if (!cc->ring_fds)
			abort();
	}
	cc->ring_fds[cpu] = fd;
}

/* --- aggregation snapshots ------------------------------------------- */

/* Reads every key of a kernel aggregation and merges the per-CPU values. */
static int kagg_read(struct rt *rt, struct agg *a, unsigned char **keys, uint64_t **vals, int *n)
{
	int fd = rt->cc->maps[a->map].fd, cap = 64, words = a->val_size / 8;
	int ksz = a->nkeys ? a->key_size : 4;
	unsigned char *k = calloc(1, ksz), *next = calloc(1, ksz);
	uint64_t *pc = calloc(rt->ncpus, a->val_size);
	int have = 0, err;

	*n = 0;
	*keys = malloc((size_t)cap * ksz);
	*vals = malloc((size_t)cap * a->val_size);
	if (!a->nkeys) {
		/* keyless: the one array slot; an untouched slot prints nothing */
		memset(k, 0, ksz);
		if (!bpf_map_lookup_elem(fd, k, pc)) {
			memset(*vals, 0, a->val_size);
			for (int c = 0; c < rt->ncpus; c++)
				a->fn->merge(a, *vals, pc + (size_t)c * words);
			for (int w = 0; w < words; w++)
				if ((*vals)[w])
					*n = 1;
		}
		goto out;
	}
	for (;;) {
		err = bpf_map_get_next_key(fd, have ? k : NULL, next);
		if (err)
			break;
		memcpy(k, next, ksz);
		have = 1;
		if (bpf_map_lookup_elem(fd, k, pc))
			continue;
		if (*n == cap) {
			cap *= 2;
			*keys = realloc(*keys, (size_t)cap * ksz);
			*vals = realloc(*vals, (size_t)cap * a->val_size);
		}
		memcpy(*keys + (size_t)*n * ksz, k, ksz);
		memset(*vals + (size_t)*n * words, 0, a->val_size);
		for (int c = 0; c < rt->ncpus; c++)
			a->fn->merge(a, *vals + (size_t)*n * words, pc + (size_t)c * words);
		(*n)++;
	}
out:
	free(k);
	free(next);
	free(pc);
	return 0;
}

/* trunc(@a, n) deletes entries until |n| are left: the smallest when
 * n >= 0, the largest when n < 0 (DTrace keeps the -n smallest). Returns
 * whether the entry with value x goes before the one with value y. */
int rt_trunc_first(long keep, int64_t x, int64_t y)
{
	return keep >= 0 ? x < y : x > y;
}

/* clear(): zero every value (keys stay, as in DTrace); trunc(): delete
 * every key but |keep| (see rt_trunc_first). */
static void kagg_clear(struct rt *rt, struct agg *a, int drop_keys, long keep)
{
	int fd = rt->cc->maps[a->map].fd, ksz = a->nkeys ? a->key_size : 4;
	unsigned char *k = calloc(1, ksz), *next = calloc(1, ksz), *keys;
	uint64_t *zero = calloc(rt->ncpus, a->val_size), *vals;
	int have = 0, n;

	if (!drop_keys || !a->nkeys) {
		if (!a->nkeys)
			bpf_map_update_elem(fd, k, zero, 0);
		else
			while (!bpf_map_get_next_key(fd, have ? k : NULL, next)) {
				memcpy(k, next, ksz);
				have = 1;
				bpf_map_update_elem(fd, k, zero, BPF_EXIST);
			}
		goto out;
	}
	kagg_read(rt, a, &keys, &vals, &n);
	if (labs(keep) < n) {
		struct agg_entry *e = calloc(n, sizeof(*e));

		for (int i = 0; i < n; i++) {
			e[i].key = keys + (size_t)i * ksz;
			e[i].sortv = a->fn->value(a, vals + (size_t)i * (a->val_size / 8));
		}
		for (int d = 0; d < n - labs(keep); d++) {
			int m = -1;

			for (int i = 0; i < n; i++)
				if (e[i].key &&
				    (m < 0 || rt_trunc_first(keep, e[i].sortv, e[m].sortv)))
					m = i;
			bpf_map_delete_elem(fd, e[m].key);
			e[m].key = NULL;
		}
		free(e);
	}
	free(keys);
	free(vals);
out:
	free(k);
	free(next);
	free(zero);
}

static const struct agg *sort_agg;

static int key_cmp(const struct agg *a, const unsigned char *x, const unsigned char *y)
{
	for (int k = 0; k < a->nkeys; k++) {
		const unsigned char *p = x + a->koff[k], *q = y + a->koff[k];
		int c;

		if (a->kt[k]->k == TY_STR)
			c = strncmp((const char *)p, (const char *)q, a->kt[k]->size);
		else if (a->kt[k]->k == TY_INT && a->kt[k]->sign)
			c = (*(int64_t *)p > *(int64_t *)q) - (*(int64_t *)p < *(int64_t *)q);
		else if (a->kt[k]->k == TY_INT || a->kt[k]->k == TY_PTR)
			c = (*(uint64_t *)p > *(uint64_t *)q) - (*(uint64_t *)p < *(uint64_t *)q);
		else
			c = memcmp(p, q, type_slot_size(a->kt[k]));
		if (c)
			return c;
	}
	return 0;
}

/* DTrace order: by value ascending, ties by key. */
static int entry_cmp(const void *x, const void *y)
{
	const struct agg_entry *a = x, *b = y;

	if (a->sortv != b->sortv)
		return a->sortv < b->sortv ? -1 : 1;
	return key_cmp(sort_agg, a->key, b->key);
}

/* usym()/ufunc()/umod()/sym()/func()/mod() keys: addresses become their
 * symbol's (module's) start and entries with equal keys merge, so that
 * @[ufunc(pc)] counts per function as in DTrace. Returns the new count. */
static int merge_sym_keys(const struct agg *a, unsigned char *keys, uint64_t *vals, int n)
{
	int ksz = a->key_size, words = a->val_size / 8, out = 0, norm = 0;

	for (int k = 0; k < a->nkeys; k++) {
		const struct type *t = a->kt[k];

		if (t->k != TY_SYM || (t->fmt != TF_SYMBOL && t->fmt != TF_MODULE))
			continue;
		norm = 1;
		for (int i = 0; i < n; i++) {
			uint64_t pid, addr;
			unsigned char *p = keys + (size_t)i * ksz + a->koff[k];

			memcpy(&pid, p, 8);
			memcpy(&addr, p + 8, 8);
			addr = sym_normalize(pid, addr, t->user, t->fmt);
			memcpy(p + 8, &addr, 8);
		}
	}
	if (!norm)
		return n;
	for (int i = 0; i < n; i++) {
		int j;

		for (j = 0; j < out; j++)
			if (!memcmp(keys + (size_t)j * ksz, keys + (size_t)i * ksz, ksz))
				break;
		if (j < out) {
			a->fn->merge(a, vals + (size_t)j * words, vals + (size_t)i * words);
			continue;
		}
		memmove(keys + (size_t)out * ksz, keys + (size_t)i * ksz, ksz);
		memmove(vals + (size_t)out * words, vals + (size_t)i * words, a->val_size);
		out++;
	}
	return out;
}

void rt_print_agg(struct rt *rt, struct agg *a, const char *fmt)
{
	unsigned char *keys;
	uint64_t *vals;
	struct agg_entry *e;
	int n, ksz = a->nkeys ? a->key_size : 4;

	if (rt->agg_read(rt, a, &keys, &vals, &n))
		return;
	if (a->nkeys)
		n = merge_sym_keys(a, keys, vals, n);
	e = calloc(n + 1, sizeof(*e));
	for (int i = 0; i < n; i++) {
		e[i].key = keys + (size_t)i * ksz;
		e[i].val = vals + (size_t)i * (a->val_size / 8);
		e[i].sortv = a->fn->value(a, e[i].val);
	}
	sort_agg = a;
	qsort(e, n, sizeof(*e), entry_cmp);
	out_agg(rt, a, fmt, e, n);
	free(e);
	free(keys);
	free(vals);
}

void rt_print_aggs(struct rt *rt)
{
	rt_line_end(rt);
	for (struct agg *a = rt->cc->aggs; a; a = a->next)
		if (!a->printed)
			rt_print_agg(rt, a, NULL);
}

/* --- records ---------------------------------------------------------- */

static void spec_free(struct spec_buf *b)
{
	while (b->recs) {
		struct spec_rec *n = b->recs->next;

		free(b->recs);
		b->recs = n;
	}
	free(b);
}

/* The held records of id; with create, an empty list when there are none. */
static struct spec_buf **spec_find(struct rt *rt, uint32_t id, int create)
{
	struct spec_buf **p = &rt->spec;

	while (*p && (*p)->id != id)
		p = &(*p)->next;
	if (!*p && create) {
		*p = calloc(1, sizeof(**p));
		if (!*p)
			abort();
		(*p)->id = id;
		(*p)->tail = &(*p)->recs;
	}
	return p;
}

static void spec_hold(struct rt *rt, uint32_t id, const unsigned char *rec, size_t size)
{
	struct spec_buf *b = *spec_find(rt, id, 1);
	struct spec_rec *r = malloc(sizeof(*r) + size);

	if (!r)
		abort();
	r->next = NULL;
	r->size = size;
	memcpy(r->data, rec, size);
	memset(r->data + 4, 0, 4);
	*b->tail = r;
	b->tail = &r->next;
}

static void do_action(struct rt *rt, const struct action *a, const unsigned char *rec);

/* commit(id) replays the held records in order, discard(id) drops them.
 * The kernel freed the id's slot already. */
static void spec_end(struct rt *rt, uint32_t id, int commit)
{
	struct spec_buf **p = spec_find(rt, id, 0), *b = *p;

	if (!b)
		return;
	*p = b->next;
	for (struct spec_rec *r = b->recs; r && commit; r = r->next) {
		uint32_t act;

		memcpy(&act, r->data, 4);
		if (act < (uint32_t)rt->cc->nacts)
			do_action(rt, &rt->cc->acts[act], r->data);
	}
	spec_free(b);
}

/* Ids carry their slot 1..nspec in the low bits; 0xffffffff marks the
 * records of a failed speculation(). */
static int spec_valid(const struct rt *rt, uint32_t id)
{
	return id != 0xffffffff && (id & 31) && (id & 31) <= (uint32_t)rt->cc->o->nspec;
}

static int64_t rec_int(const struct action *a, const unsigned char *rec, int k)
{
	int64_t v;

	memcpy(&v, rec + a->args[k].off, 8);
	return v;
}

void rt_line_end(struct rt *rt)
{
	if (rt->line_open)
		fputc('\n', rt->out);
	rt->line_open = 0;
}

/* DTrace's default output, "%3d %6d %32s " before the records of a
 * firing; the heading once, before the first. */
static void probe_line(struct rt *rt, const struct action *a, const unsigned char *rec)
{
	const struct lprobe *p = probe_find(rt->cc, a->clause, a->prog, (long)rec_int(a, rec, 1));
	int cpu = (int)rec_int(a, rec, 0), id = p ? probe_number(rt->cc, p) : 0;
	char name[4 * 128 + 4];

	if (!p)
		return;
	if (rt->json) {
		fprintf(rt->out, "{\"type\":\"probe\",\"cpu\":%d,\"id\":%d,\"probe\":", cpu, id);
		snprintf(name, sizeof(name), "%s:%s:%s:%s", p->f[0], p->f[1], p->f[2], p->f[3]);
		out_json_str(rt->out, name, sizeof(name));
		fprintf(rt->out, "}\n");
		return;
	}
	if (!rt->header)
		fprintf(rt->out, "%3s %6s %32s\n", "CPU", "ID", "FUNCTION:NAME");
	rt->header = 1;
	rt_line_end(rt);
	snprintf(name, sizeof(name), "%s:%s", p->f[2], p->f[3]);
	fprintf(rt->out, "%3d %6d %32s ", cpu, id, name);
	rt->line_open = 1;
}

/* trace(x) as DTrace prints it: bare when quiet, otherwise right-aligned
 * in a width that depends on the value's size (strings left-aligned). */
static void trace_value(struct rt *rt, const struct action *a, const unsigned char *rec)
{
	const struct type *t = a->args[0].t;
	char *s = NULL;
	size_t len = 0;
	FILE *m;

	if (rt->json || rt->quiet || t->k == TY_STACK || t->k == TY_USTACK) {
		if (rt->json)
			fprintf(rt->out, "{\"type\":\"trace\",\"data\":");
		out_value(rt, rt->out, t, rec + a->args[0].off);
		if (rt->json)
			fprintf(rt->out, "}\n");
		return;
	}
	m = open_memstream(&s, &len);
	out_value(rt, m, t, rec + a->args[0].off);
	fclose(m);
	if (t->k == TY_STR)
		fprintf(rt->out, "  %-33s", s);
	else
		fprintf(rt->out, " %*s",
			a->tsize == 1	? 3
			: a->tsize == 2 ? 5
			: a->tsize == 4 ? 8
					: 16,
			s);
	free(s);
}

/* A runtime fault, reported as DTrace does, with the script location. */
static void rt_error(struct rt *rt, const struct action *a, const unsigned char *rec)
{
	static const char *const faults[] = { "unknown fault", "invalid address",
					      "invalid alignment", "illegal operation",
					      "divide-by-zero" };
	uint64_t w = (uint64_t)rec_int(a, rec, 0), addr = (uint64_t)rec_int(a, rec, 1);
	uint64_t epid = (uint64_t)rec_int(a, rec, 2);
	unsigned int kind = w & 0xff, act = (w >> 8) & 0xff;
	const struct lprobe *p;
	char where[32], detail[32] = "";

	if (!epid || epid > (uint64_t)rt->cc->nprobes)
		return;
	p = &rt->cc->probes[epid - 1];
	if (kind >= sizeof(faults) / sizeof(faults[0]))
		kind = 0;
	if (kind == FLT_BADADDR || kind == FLT_BADALIGN)
		snprintf(detail, sizeof(detail), " (0x%llx)", (unsigned long long)addr);
	if (act)
		snprintf(where, sizeof(where), "action #%u", act);
	else
		snprintf(where, sizeof(where), "predicate");
	fprintf(stderr,
		"sonde script: error on enabled probe ID %llu (ID %d: %s:%s:%s:%s): %s%s in %s "
		"at %s:%u:%u\n",
		(unsigned long long)epid, probe_number(rt->cc, p), p->f[0], p->f[1], p->f[2],
		p->f[3], faults[kind], detail, where,
		rt->cc->o->src_name ? rt->cc->o->src_name : "<program>",
		(unsigned int)(w >> 16) & 0xffffff, (unsigned int)(w >> 40) & 0xffffff);
	if (rt->json)
		fprintf(rt->out,
			"{\"type\":\"error\",\"epid\":%llu,\"fault\":\"%s\",\"address\":%llu,"
			"\"action\":%u,\"line\":%u,\"column\":%u}\n",
			(unsigned long long)epid, faults[kind], (unsigned long long)addr, act,
			(unsigned int)(w >> 16) & 0xffffff, (unsigned int)(w >> 40) & 0xffffff);
}

static void do_action(struct rt *rt, const struct action *a, const unsigned char *rec)
{
	int64_t v;

	switch (a->k) {
	case A_PRINTF:
		out_printf(rt, a, rec);
		break;
	case A_TRACE:
		trace_value(rt, a, rec);
		break;
	case A_PROBE:
		probe_line(rt, a, rec);
		break;
	case A_PROBE_END:
		rt_line_end(rt);
		break;
	case A_ERROR:
		rt_error(rt, a, rec);
		break;
	case A_STACK:
	case A_USTACK:
		out_stack(rt, rt->out, a->args[0].t, rec + a->args[0].off, 1);
		break;
	case A_EXIT:
		rt->done = 1;
		rt->exit_code = (int)rec_int(a, rec, 0);
		break;
	case A_PRINTA:
		rt_print_agg(rt, a->agg, a->fmt);
		a->agg->printed = 1;
		break;
	case A_CLEAR:
		rt->agg_clear(rt, a->agg, 0, 0);
		break;
	case A_TRUNC:
		rt->agg_clear(rt, a->agg, 1, a->nargs ? rec_int(a, rec, 0) : 0);
		break;
	case A_NORMALIZE:
		v = rec_int(a, rec, 0);
		a->agg->normal = v > 0 ? v : 1;
		break;
	case A_DENORMALIZE:
		a->agg->normal = 1;
		break;
	case A_COMMIT:
	case A_DISCARD:
		v = rec_int(a, rec, 0);
		if (v > 0 && v <= INT32_MAX && spec_valid(rt, (uint32_t)v))
			spec_end(rt, (uint32_t)v, a->k == A_COMMIT);
		break;
	}
}

int rt_record(struct rt *rt, const void *data, size_t size)
{
	const unsigned char *rec = data;
	uint32_t id, spec;

	if (rt->done || size < REC_HDR)
		return 0;
	memcpy(&id, rec, 4);
	memcpy(&spec, rec + 4, 4);
	if (id >= (uint32_t)rt->cc->nacts || rt->cc->acts[id].size > (int)size)
		return 0;
	if (spec) {
		if (spec_valid(rt, spec))
			spec_hold(rt, spec, rec, size);
		else
			rt->spec_drops++;
		return 0;
	}
	do_action(rt, &rt->cc->acts[id], rec);
	fflush(rt->out);
	return 0;
}

static const char *const drop_names[DROP_NKINDS] = {
	[DROP_RING] = "output records dropped: the per-CPU ring was full (raise -x bufsize)",
	[DROP_AGG] = "aggregation updates dropped: the map was full (raise -x aggsize)",
	[DROP_DYN] = "dynamic variable writes dropped: the map was full (raise -x dynvarsize)",
	[DROP_SPEC] = "speculations failed: no free buffer (raise -x nspec)",
	[DROP_NEST] = "probe firings skipped: they interrupted another probe on the same CPU",
};

uint64_t rt_drops(struct rt *rt)
{
	uint64_t *pc, total = 0;
	int k = 0;

	if (rt->cc->m_stats < 0 || rt->cc->maps[rt->cc->m_stats].fd < 0)
		return 0;
	pc = calloc(rt->ncpus, 8 * DROP_NKINDS);
	if (bpf_map_lookup_elem(rt->cc->maps[rt->cc->m_stats].fd, &k, pc)) {
		free(pc);
		return 0;
	}
	for (int d = 0; d < DROP_NKINDS; d++) {
		uint64_t sum = 0;

		for (int c = 0; c < rt->ncpus; c++)
			sum += pc[(size_t)c * DROP_NKINDS + d];
		if (d == DROP_SPEC)
			sum += rt->spec_drops;
		total += sum;
		if (sum > rt->drops[d]) {
			if (rt->json)
				fprintf(rt->out,
					"{\"type\":\"drops\",\"kind\":\"%s\",\"count\":%llu}\n",
					d == DROP_RING	 ? "ring"
					: d == DROP_AGG	 ? "aggregation"
					: d == DROP_DYN	 ? "dynvar"
					: d == DROP_SPEC ? "speculation"
							 : "nested",
					(unsigned long long)(sum - rt->drops[d]));
			fprintf(stderr, "sonde script: %llu %s\n",
				(unsigned long long)(sum - rt->drops[d]), drop_names[d]);
			rt->drops[d] = sum;
		}
	}
	free(pc);
	return total;
}

void rt_free(struct rt *rt)
{
	while (rt->spec) {
		struct spec_buf *b = rt->spec;

		rt->spec = b->next;
		spec_free(b);
	}
}

void rt_init_kernel(struct rt *rt)
{
	rt->agg_read = kagg_read;
	rt->agg_clear = kagg_clear;
}
