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

#include "lang/agg.h"
#include "lang/printf.h"
#include "lang/rt.h"
#include "lang/sym.h"

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
			sym_user(pid, pc, TF_SYMOFF, buf, sizeof(buf));
		else
			sym_kernel(pc, TF_SYMOFF, buf, sizeof(buf));
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

/* | pid | address | in the form t->fmt says. */
static void sym_text(const struct type *t, const unsigned char *p, char *buf, size_t len)
{
	uint64_t pid, a;

	memcpy(&pid, p, 8);
	memcpy(&a, p + 8, 8);
	if (t->user)
		sym_user(pid, a, t->fmt, buf, len);
	else
		sym_kernel(a, t->fmt, buf, len);
}

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
	case TY_SYM: {
		char buf[512];

		sym_text(t, p, buf, sizeof(buf));
		if (rt->json)
			out_json_str(f, buf, sizeof(buf));
		else
			fputs(buf, f);
		return;
	}
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
/* %u %x %X %o print the bit pattern of the argument's own width, as C
 * does: a record slot holds an int sign-extended to 64 bits, and (int)-5
 * must print fffffffb. */
static uint64_t conv_unsigned(const struct type *t, int64_t v)
{
	if (t->k != TY_INT || t->size >= 8)
		return (uint64_t)v;
	return (uint64_t)v & ((UINT64_C(1) << (t->size * 8)) - 1);
}

static void conv_one(struct rt *rt, FILE *f, const struct fmt_conv *c, const struct type *t,
		     const unsigned char *p)
{
	char spec[48], buf[256];
	int64_t v = 0;

	if (t->k != TY_STR && t->k != TY_STACK && t->k != TY_USTACK && t->k != TY_SYM)
		memcpy(&v, p, 8);
	if (t->k == TY_SYM && (c->conv == 's' || c->conv == 'a' || c->conv == 'A')) {
		sym_text(t, p, buf, sizeof(buf));
		snprintf(spec, sizeof(spec), "%ss", c->spec);
		fprintf(f, spec, buf);
		return;
	}
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
		sym_kernel(v, TF_SYMOFF, buf, sizeof(buf));
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
		fprintf(f, spec, conv_unsigned(t, v));
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

		if (t->k == TY_SYM) {
			char buf[512];

			sym_text(t, p, buf, sizeof(buf));
			fprintf(f, "  %-*s", a->nkeys == 1 ? 50 : 20, buf);
		} else if (t->k == TY_STR) {
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
		/* DTrace: lo + levels * step, below hi when the step does not
		 * divide hi - lo (lquantize(x, 0, 10, 3) ends at ">= 9") */
		snprintf(buf, len, ">= %" PRId64, lo);
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

					c.conv = c.vconv;
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
