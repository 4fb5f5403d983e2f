// SPDX-License-Identifier: GPL-2.0
/*
 * Structure of decoded output, for both sinks of the decoders (see struct
 * st): where strace text puts "{", "name=", ", " and "}", JSON puts "{",
 * "\"name\":", "," and "}". One counter per nesting level serves both:
 * text counts members as st_field/st_elem print their separator, JSON
 * counts values as st_jv writes their comma and key.
 *
 *   depth 0   the argument list: {"dirfd":...,"pathname":...}
 *   depth 1+  structs (objects) and arrays, bit d of isarr telling which
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <sonde/render.h>

#include "decode/strace/strace_int.h"

static void st_push(struct st *s, int arr)
{
	if (s->depth + 1 >= ST_MAXDEPTH)
		return;
	s->depth++;
	s->nitems[s->depth] = 0;
	if (arr)
		s->isarr |= 1u << s->depth;
	else
		s->isarr &= ~(1u << s->depth);
}

static void st_pop(struct st *s)
{
	if (s->depth)
		s->depth--;
}

/* The key of a top-level value: the parameter name of argument argi. A
 * decoder printing two values for one argument would repeat a key; the
 * second one gets a suffix so the object stays valid JSON. */
static void st_jarg_key(struct st *s, struct sonde_line *l)
{
	unsigned int i = s->argi;
	const char *n = i < 6 && s->argnames ? s->argnames[i] : NULL;
	char nb[16], buf[48];

	if (!n) {
		snprintf(nb, sizeof(nb), "arg%u", i);
		n = nb;
	}
	if (i < 8 && (s->argdone & (1u << i))) {
		snprintf(buf, sizeof(buf), "%.30s_%u", n, s->nitems[0]);
		n = buf;
	}
	if (i < 8)
		s->argdone |= (uint8_t)(1u << i);
	sonde_line_json_str(l, n, strlen(n));
}

struct sonde_line *st_jv(struct st *s)
{
	struct sonde_line *l = s->j;
	unsigned int d = s->depth;

	if (s->nitems[d]++)
		sonde_line_putc(l, ',');
	if (!(s->isarr & (1u << d))) {
		if (s->jkey)
			sonde_line_json_str(l, s->jkey, strlen(s->jkey));
		else if (d == 0)
			st_jarg_key(s, l);
		else
			sonde_line_printf(l, "\"_%u\"", s->nitems[d] - 1);
		sonde_line_putc(l, ':');
	}
	s->jkey = NULL;
	return l;
}

void st_entry_end(struct st *s)
{
	if (!s->j && !s->split)
		s->split = s->o->len;
}

void st_sep(struct st *s)
{
	if (s->j) {
		s->argi++;
		s->jkey = NULL;
		return;
	}
	sb_puts(s->o, ", ");
}

void st_sep_at(struct st *s, int i)
{
	if (s->j) {
		s->argi = (uint8_t)i;
		s->jkey = NULL;
		return;
	}
	sb_puts(s->o, ", ");
}

void st_obj_begin(struct st *s)
{
	if (s->j)
		sonde_line_putc(st_jv(s), '{');
	else
		sb_putc(s->o, '{');
	st_push(s, 0);
}

void st_obj_end(struct st *s)
{
	st_pop(s);
	if (s->j)
		sonde_line_putc(s->j, '}');
	else
		sb_putc(s->o, '}');
}

void st_arr_begin(struct st *s)
{
	if (s->j)
		sonde_line_putc(st_jv(s), '[');
	else
		sb_putc(s->o, '[');
	st_push(s, 1);
}

void st_arr_end(struct st *s)
{
	st_pop(s);
	if (s->j)
		sonde_line_putc(s->j, ']');
	else
		sb_putc(s->o, ']');
}

void st_field2(struct st *s, const char *text, const char *json)
{
	if (s->j) {
		s->jkey = json;
		return;
	}
	if (s->nitems[s->depth]++)
		sb_puts(s->o, ", ");
	sb_puts(s->o, text);
	sb_putc(s->o, '=');
}

void st_field(struct st *s, const char *name)
{
	st_field2(s, name, name);
}

void st_obj_end_cut(struct st *s)
{
	if (!s->j)
		sb_puts(s->o, ", ...");
	st_obj_end(s);
}

void st_elem(struct st *s)
{
	if (s->j)
		return;
	if (s->nitems[s->depth]++)
		sb_puts(s->o, ", ");
}

void st_jkey(struct st *s, const char *key)
{
	if (s->j)
		s->jkey = key;
}

void st_jstr(struct st *s, const char *str)
{
	sonde_line_json_str(st_jv(s), str, strlen(str));
}

void st_jstrn(struct st *s, const uint8_t *p, size_t n)
{
	sonde_line_json_str(st_jv(s), (const char *)p, n);
}

void st_jint(struct st *s, int64_t v)
{
	sonde_line_printf(st_jv(s), "%" PRId64, v);
}

void st_juint(struct st *s, uint64_t v)
{
	sonde_line_printf(st_jv(s), "%" PRIu64, v);
}

void st_jbool(struct st *s, int v)
{
	sonde_line_printf(st_jv(s), v ? "true" : "false");
}

void pr_sym(struct st *s, const char *name)
{
	if (s->j)
		st_jstr(s, name);
	else
		sb_puts(s->o, name);
}

void pr_unfetched(struct st *s, int phase, uint64_t addr)
{
	const struct sonde_payload *p;

	if (!s->j) {
		pr_addr(s, addr);
		return;
	}
	if (!addr) {
		sonde_line_printf(st_jv(s), "null");
		return;
	}
	p = sonde_call_mem(s->c, phase, addr, 0);
	sonde_line_printf(st_jv(s), "{\"addr\":\"%#" PRIx64 "\",\"unreadable\":%s}", addr,
			  p && (p->flags & SONDE_PLF_UNREADABLE) ? "true" : "false");
}

/*
 * A value the call reads and updates through a pointer: [128 => 16],
 * [128] when unchanged or only one side is known; JSON {"in":128,"out":16}
 * with the members known.
 */
void pr_inout(struct st *s, int have_in, int64_t in, int have_out,
		     int64_t out, uint64_t addr)
{
	if (!addr) {
		pr_addr(s, 0);
		return;
	}
	if (!have_in && !have_out) {
		pr_unfetched(s, SONDE_PL_ENTRY, addr);
		return;
	}
	if (s->j) {
		st_obj_begin(s);
		if (have_in) {
			st_jkey(s, "in");
			st_jint(s, in);
		}
		if (have_out) {
			st_jkey(s, "out");
			st_jint(s, out);
		}
		st_obj_end(s);
	} else if (have_in && have_out && in != out) {
		sb_printf(s->o, "[%lld => %lld]", (long long)in, (long long)out);
	} else {
		sb_printf(s->o, "[%lld]", (long long)(have_out ? out : in));
	}
}

void st_res_begin(struct st *s, struct st *t, struct strbuf *b, const char *key)
{
	*t = *s;
	sb_init(b);
	t->o = b;
	/* strace's return-value notes never add -y paths: "= 1 ([{fd=3, ...}])" */
	t->fds = NULL;
	if (!s->j)
		return;
	/* The result object: depth 0 of its own line, keys given. */
	t->j = s->jres;
	t->depth = 0;
	t->isarr = 0;
	t->nitems[0] = s->jres->len != 0;
	t->jkey = key;
}

void st_res_end(struct st *s, struct st *t, struct strbuf *b)
{
	(void)t;
	if (s->j || !b->s) {
		sb_free(b);
		return;
	}
	sb_free(&s->rv_aux);
	s->rv_aux = *b;
	sb_init(b);
}

void st_res_name(struct st *s, const char *key, const char *name)
{
	struct strbuf b;
	struct st t;

	st_res_begin(s, &t, &b, key);
	sb_puts(&b, " (");
	pr_sym(&t, name);
	sb_putc(&b, ')');
	st_res_end(s, &t, &b);
}

void st_jflag_names(struct st *s, const struct xlat *x, uint64_t v)
{
	for (unsigned int i = 0; i < x->n && v; i++) {
		uint64_t f = x->e[i].val;

		if (f && (v & f) == f) {
			st_jstr(s, x->e[i].name);
			v &= ~f;
		}
	}
	if (v)
		sonde_line_printf(st_jv(s), "\"%#" PRIx64 "\"", v);
}

struct st *st_cap_begin(struct st *s, struct st_cap *c)
{
	if (!s->j)
		return s;
	c->t = *s;
	c->o = *s->opt;
	c->o.xlat = SONDE_XLAT_ABBREV;
	sb_init(&c->b);
	c->t.j = NULL;
	c->t.o = &c->b;
	c->t.opt = &c->o;
	return &c->t;
}

void st_cap_flags(struct st *s, struct st_cap *c)
{
	const char *p;

	if (!s->j)
		return;
	st_arr_begin(s);
	/* "A|B|0x10 /\* X_??? *\/": names, and a remainder without its
	 * comment. */
	for (p = c->b.s; p && *p;) {
		size_t n = strcspn(p, "|"), k = strcspn(p, " |");

		if (k)
			st_jstrn(s, (const uint8_t *)p, k);
		p += n + (p[n] == '|');
	}
	st_arr_end(s);
	sb_free(&c->b);
}
