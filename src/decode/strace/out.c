// SPDX-License-Identifier: GPL-2.0
/*
 * Text output of the strace decoder: the growable buffer, numbers,
 * addresses, descriptors, and strace's string quoting, which every
 * string, path and data buffer goes through.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <sonde/render.h>

#include "decode/strace/strace_int.h"

void sb_init(struct strbuf *b)
{
	memset(b, 0, sizeof(*b));
}

void sb_free(struct strbuf *b)
{
	free(b->s);
	sb_init(b);
}

static int sb_grow(struct strbuf *b, size_t need)
{
	size_t cap;
	char *n;

	if (b->oom)
		return -1;
	if (b->len + need + 1 <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + need + 1)
		cap *= 2;
	n = realloc(b->s, cap);
	if (!n) {
		b->oom = 1;
		return -1;
	}
	b->s = n;
	b->cap = cap;
	return 0;
}

void sb_putn(struct strbuf *b, const char *s, size_t n)
{
	if (sb_grow(b, n))
		return;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

void sb_putc(struct strbuf *b, char c)
{
	sb_putn(b, &c, 1);
}

void sb_puts(struct strbuf *b, const char *s)
{
	sb_putn(b, s, strlen(s));
}

void sb_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || sb_grow(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

size_t sb_col(const struct strbuf *b)
{
	size_t i = b->len;

	while (i > 0 && b->s[i - 1] != '\n')
		i--;
	return b->len - i;
}

/* JSON: addresses are strings ("0x7ffd1000"), NULL is null, numbers are
 * decimal whatever base strace prints them in. */
void pr_addr(struct st *s, uint64_t a)
{
	if (s->j && a)
		sonde_line_printf(st_jv(s), "\"%#" PRIx64 "\"", a);
	else if (s->j)
		sonde_line_printf(st_jv(s), "null");
	else if (!a)
		sb_puts(s->o, "NULL");
	else
		sb_printf(s->o, "%#llx", (unsigned long long)a);
}

void pr_int(struct st *s, uint64_t v)
{
	if (s->j)
		st_jint(s, (int)v);
	else
		sb_printf(s->o, "%d", (int)v);
}

void pr_uint(struct st *s, uint64_t v)
{
	if (s->j)
		st_juint(s, (unsigned int)v);
	else
		sb_printf(s->o, "%u", (unsigned int)v);
}

void pr_long(struct st *s, uint64_t v)
{
	if (s->j)
		st_jint(s, (int64_t)v);
	else
		sb_printf(s->o, "%lld", (long long)v);
}

void pr_ulong(struct st *s, uint64_t v)
{
	if (s->j)
		st_juint(s, v);
	else
		sb_printf(s->o, "%llu", (unsigned long long)v);
}

void pr_id(struct st *s, uint32_t v)
{
	if (v == UINT32_MAX && s->j)
		st_jint(s, -1);
	else if (v == UINT32_MAX)
		sb_puts(s->o, "-1");
	else
		pr_uint(s, v);
}

void pr_hex(struct st *s, uint64_t v)
{
	if (s->j)
		st_juint(s, v);
	else
		sb_printf(s->o, "%#llx", (unsigned long long)v);
}

void pr_oct(struct st *s, uint64_t v)
{
	if (s->j)
		st_juint(s, (unsigned int)v);
	else
		sb_printf(s->o, "%#03o", (unsigned int)v);
}

/* -y: the path inside <>, with <, > and non-printables hex-escaped as
 * strace does so the decoration stays parseable. */
static void pr_fd_path(struct st *s, const char *path, const char *suffix)
{
	static const char del[] = " (deleted)";
	size_t n = strlen(path), dn = sizeof(del) - 1;
	int deleted = n > dn && !strcmp(path + n - dn, del);
	const unsigned char *end = (const unsigned char *)path + (deleted ? n - dn : n);

	/* An unlinked file: strace puts "(deleted)" after the brackets. */
	sb_putc(s->o, '<');
	for (const unsigned char *p = (const unsigned char *)path; p < end; p++) {
		if (*p < ' ' || *p >= 0x7f || *p == '<' || *p == '>' ||
		    *p == '\\')
			sb_printf(s->o, "\\x%02x", *p);
		else
			sb_putc(s->o, (char)*p);
	}
	sb_puts(s->o, suffix);
	sb_putc(s->o, '>');
	if (deleted)
		sb_puts(s->o, "(deleted)");
}

/* ,"FD":"PATH" once per descriptor (the same fd may show twice: dup2). */
static void fdmap_add(struct sonde_line *l, int fd, const char *path)
{
	char key[16];
	int n = snprintf(key, sizeof(key), "\"%d\":", fd);

	for (size_t i = 0; l->buf && i + (size_t)n <= l->len; i++)
		if ((i == 0 || l->buf[i - 1] == ',') && !memcmp(l->buf + i, key, (size_t)n))
			return;
	sonde_line_printf(l, "%s%s", l->len ? "," : "", key);
	sonde_line_json_str(l, path, strlen(path));
}

/* --decode-fds=SET, or what -y (paths) and -yy (all) mean. */
static unsigned int fd_kinds(const struct sonde_strace_opts *o)
{
	if (o->fd_kinds & SONDE_FD_GIVEN)
		return o->fd_kinds & SONDE_FD_ALL;
	return o->decode_fds >= 2 ? SONDE_FD_ALL : o->decode_fds ? SONDE_FD_PATH : 0;
}

/*
 * -yy: a device's numbers, "<char 1:3>", as strace shows them after the
 * path. They come from the file system of the host that prints, so only
 * where paths name it (resolve_links), and only under /dev.
 */
static const char *dev_suffix(struct st *s, const char *path, char *buf, size_t len)
{
	struct stat sb;

	if (!(fd_kinds(s->opt) & SONDE_FD_DEV) || !s->opt->resolve_links || strncmp(path, "/dev/", 5) ||
	    stat(path, &sb) || !(S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode)))
		return "";
	snprintf(buf, len, "<%s %u:%u>", S_ISCHR(sb.st_mode) ? "char" : "block",
		 major(sb.st_rdev), minor(sb.st_rdev));
	return buf;
}

/*
 * What follows a descriptor, in strace's order: a socket's endpoints
 * (printed raw) or a pidfd's pid, else the path with a device's numbers,
 * else the path; each only if its kind is asked for.
 */
static void pr_fd_decor(struct st *s, int fd)
{
	unsigned int k = fd_kinds(s->opt);
	const char *path = fdtab_path(s->fds, s->sc->hdr.tid, fd), *dev;
	char yy[256];

	if (!path)
		return;
	if ((k & (SONDE_FD_SOCKET | SONDE_FD_PIDFD)) &&
	    fdtab_detail(s->fds, s->sc->hdr.tid, fd, s->sc->hdr.ts + (s->split ? s->sc->dur : 0),
			 yy, sizeof(yy)) &&
	    (k & (strncmp(yy, "pid:", 4) ? SONDE_FD_SOCKET : SONDE_FD_PIDFD))) {
		/* -Y: a pidfd's process by name too, <pid:1234<sh>> */
		sb_printf(s->o, "<%s", yy);
		if (!strncmp(yy, "pid:", 4))
			pr_pid_name(s, atoi(yy + 4));
		sb_putc(s->o, '>');
		path = yy;
	} else {
		dev = dev_suffix(s, path, yy, sizeof(yy));
		if (!(k & SONDE_FD_PATH) && !*dev)
			return;
		pr_fd_path(s, path, dev);
	}
	if (s->fdmap)
		fdmap_add(s->fdmap, fd, path);
}

void pr_fd(struct st *s, int fd)
{
	if (s->j) {
		st_jint(s, fd);
		return;
	}
	sb_printf(s->o, "%d", fd);
	if (s->fds && fd_kinds(s->opt) && fd >= 0)
		pr_fd_decor(s, fd);
}

void pr_dirfd(struct st *s, uint64_t v)
{
	if ((int)v == -100) {
		if (s->j)
			st_jstr(s, "AT_FDCWD");
		else if (s->opt->xlat == SONDE_XLAT_RAW)
			sb_puts(s->o, "-100");
		else if (s->opt->xlat == SONDE_XLAT_VERBOSE)
			sb_puts(s->o, "-100 /* AT_FDCWD */");
		else
			sb_puts(s->o, "AT_FDCWD");
		if (!s->j && s->fds && (fd_kinds(s->opt) & SONDE_FD_PATH)) {
			const char *cwd = fdtab_path(s->fds, s->sc->hdr.tid, -100);
			if (cwd)
				pr_fd_path(s, cwd, "");
		}
		return;
	}
	pr_fd(s, (int)v);
}

const struct sonde_payload *sonde_call_mem(const struct sonde_call *c,
					   int phase, uint64_t addr,
					   uint64_t len)
{
	const struct sonde_payload *marker = NULL, *edge = NULL;

	for (unsigned int i = 0; i < c->npl; i++) {
		const struct sonde_payload *p = &c->pl[i];
		uint64_t off = addr - p->addr;

		if (p->phase != phase)
			continue;
		/* Bytes read later (a failed execve's retry at exit) win
		 * over an unreadable marker at the same address. */
		if (p->flags & SONDE_PLF_UNREADABLE) {
			if (p->addr == addr && !marker)
				marker = p;
			continue;
		}
		if (addr < p->addr || off > p->captured || len > p->captured - off)
			continue;
		/* A payload that ends where addr starts holds none of a
		 * string's bytes: execve's argv array is often followed
		 * by its first string, captured on its own. */
		if (off && off == p->captured) {
			if (!edge)
				edge = p;
			continue;
		}
		return p;
	}
	return edge ? edge : marker;
}

uint64_t sonde_call_ip(const struct sonde_call *c)
{
	for (unsigned int i = 0; i < c->npl; i++)
		if (c->pl[i].phase == SONDE_PL_IP)
			return c->pl[i].addr;
	return 0;
}

int st_fetch(struct st *s, int phase, uint64_t addr, void *dst, size_t size)
{
	const struct sonde_payload *p;

	if (!addr) {
		pr_addr(s, 0);
		return 0;
	}
	p = st_deref(s) ? sonde_call_mem(s->c, phase, addr, size) : NULL;
	if (!p || (p->flags & SONDE_PLF_UNREADABLE)) {
		pr_unfetched(s, phase, addr);
		return 0;
	}
	memcpy(dst, p->data + (addr - p->addr), size);
	return 1;
}

int st_read(const struct st *s, int phase, uint64_t addr, void *dst, size_t size)
{
	const struct sonde_payload *p;

	if (!addr)
		return 0;
	p = sonde_call_mem(s->c, phase, addr, size);
	if (!p || (p->flags & SONDE_PLF_UNREADABLE))
		return 0;
	memcpy(dst, p->data + (addr - p->addr), size);
	return 1;
}

int st_peek(const struct st *s, int phase, uint64_t addr, void *dst,
	    size_t size)
{
	return st_deref(s) && st_read(s, phase, addr, dst, size);
}

size_t st_fetch_upto(struct st *s, int phase, uint64_t addr, void *dst,
		     size_t size)
{
	const struct sonde_payload *p;
	size_t n;

	if (!addr) {
		pr_addr(s, 0);
		return 0;
	}
	p = st_deref(s) ? sonde_call_mem(s->c, phase, addr, 1) : NULL;
	if (!p || (p->flags & SONDE_PLF_UNREADABLE)) {
		pr_unfetched(s, phase, addr);
		return 0;
	}
	n = p->captured - (addr - p->addr);
	if (n > size)
		n = size;
	memcpy(dst, p->data + (addr - p->addr), n);
	return n;
}

static int is_print(uint8_t c)
{
	return c >= ' ' && c < 0x7f;
}

/*
 * -x: the whole string goes hex as soon as one byte is neither printable
 * nor one of the C whitespace escapes.
 */
static int wants_hex(const struct st *s, const uint8_t *p, size_t len,
		     int nul_term)
{
	if (s->opt->xstr == 2)
		return 1;
	if (s->opt->xstr != 1)
		return 0;
	for (size_t i = 0; i < len; i++) {
		if (nul_term && !p[i])
			break;
		if (p[i] > 0x7e || (p[i] < ' ' && (unsigned)(p[i] - 9) >= 5))
			return 1;
	}
	return 0;
}

/*
 * JSON strings are lossless (sonde_line_json_str): no hex, no "...". A cut
 * one (by -s or the snaplen) says so, as an object:
 *   {"data":"GET / HTTP/1.1\r\n","truncated":true,"length":4096}
 * length being the whole string's or buffer's, left out when unknown (the
 * capture ended before the string did).
 */
static void pr_jquoted(struct st *s, const uint8_t *p, size_t len, int nul_term,
		       int cut, uint64_t full)
{
	const uint8_t *z = nul_term && len ? memchr(p, 0, len) : NULL;
	size_t n = z ? (size_t)(z - p) : len;

	if (!cut) {
		st_jstrn(s, p, n);
		return;
	}
	st_obj_begin(s);
	st_jkey(s, "data");
	st_jstrn(s, p, n);
	st_jkey(s, "truncated");
	st_jbool(s, 1);
	if (full != UINT64_MAX) {
		st_jkey(s, "length");
		st_juint(s, full);
	}
	st_obj_end(s);
}

void pr_quoted(struct st *s, const uint8_t *p, size_t len, int nul_term,
	       int ellipsis, int force_hex)
{
	pr_quoted_len(s, p, len, nul_term, ellipsis, force_hex, UINT64_MAX);
}

void sb_escape(struct strbuf *o, const uint8_t *p, size_t len, int nul_term, int hex,
	       int angle)
{
	/* --strings-in-hex=non-ascii-chars: the others as \xNN, not octal */
	int xchars = hex == SB_HEX_CHARS;

	for (size_t i = 0; i < len; i++) {
		uint8_t c = p[i];

		if (nul_term && !c)
			break;
		if (hex && !xchars) {
			sb_printf(o, "\\x%02x", c);
			continue;
		}
		switch (c) {
		case '"': sb_puts(o, "\\\""); continue;
		case '\\': sb_puts(o, "\\\\"); continue;
		case '\f': sb_puts(o, "\\f"); continue;
		case '\n': sb_puts(o, "\\n"); continue;
		case '\r': sb_puts(o, "\\r"); continue;
		case '\t': sb_puts(o, "\\t"); continue;
		case '\v': sb_puts(o, "\\v"); continue;
		}
		if (is_print(c) && !(angle && (c == '<' || c == '>'))) {
			sb_putc(o, (char)c);
			continue;
		}
		if (xchars) {
			sb_printf(o, "\\x%02x", c);
			continue;
		}
		/* Octal, padded to three digits only when an octal digit
		 * follows and would otherwise be read as part of it. */
		if (i + 1 < len && p[i + 1] >= '0' && p[i + 1] <= '7')
			sb_printf(o, "\\%03o", c);
		else
			sb_printf(o, "\\%o", c);
	}
}

void pr_quoted_len(struct st *s, const uint8_t *p, size_t len, int nul_term,
		   int ellipsis, int force_hex, uint64_t full)
{
	struct strbuf *o = s->o;

	if (s->j) {
		pr_jquoted(s, p, len, nul_term, ellipsis, full);
		return;
	}
	sb_putc(o, '"');
	sb_escape(o, p, len, nul_term,
		  force_hex || wants_hex(s, p, len, nul_term) ? 1
		  : s->opt->xstr == 3			     ? SB_HEX_CHARS
							     : 0,
		  0);
	sb_putc(o, '"');
	if (ellipsis)
		sb_puts(o, "...");
}

void pr_path_at(struct st *s, int phase, uint64_t addr)
{
	const struct sonde_payload *p;

	if (!addr) {
		pr_addr(s, 0);
		return;
	}
	p = sonde_call_mem(s->c, phase, addr, 0);
	if (!p || (p->flags & SONDE_PLF_UNREADABLE)) {
		pr_unfetched(s, phase, addr);
		return;
	}
	/* strace shows paths whole, up to PATH_MAX, whatever -s says. */
	size_t n = p->captured - (addr - p->addr);
	int complete = (p->flags & SONDE_PLF_NUL) ||
		       (n && memchr(p->data + (addr - p->addr), 0, n));
	pr_quoted_len(s, p->data + (addr - p->addr), n, 1, !complete, 0, UINT64_MAX);
}

void pr_cstr_max(struct st *s, int phase, uint64_t addr, size_t max)
{
	const struct sonde_payload *p;
	const uint8_t *d, *z;
	size_t n, lim = s->opt->strsize;
	uint64_t full;
	int complete;

	if (!addr) {
		pr_addr(s, 0);
		return;
	}
	p = sonde_call_mem(s->c, phase, addr, 0);
	if (!p || (p->flags & SONDE_PLF_UNREADABLE)) {
		pr_unfetched(s, phase, addr);
		return;
	}
	d = p->data + (addr - p->addr);
	n = p->captured - (addr - p->addr);
	z = n ? memchr(d, 0, n) : NULL;
	if (z)
		n = (size_t)(z - d);
	complete = z || (p->flags & SONDE_PLF_NUL);
	full = complete ? n : UINT64_MAX;
	if (n > lim) {
		n = lim;
		complete = 0;
	} else if (n >= max) {
		/* strace reads max bytes and, not seeing the NUL among
		 * them, marks the string cut even when the NUL is next. */
		n = max;
		complete = 0;
	}
	pr_quoted_len(s, d, n, 0, !complete, 0, full);
}

void pr_cstr(struct st *s, int phase, uint64_t addr)
{
	pr_cstr_max(s, phase, addr, SIZE_MAX);
}

void pr_buf(struct st *s, int phase, uint64_t addr, uint64_t len,
	    int force_hex)
{
	const struct sonde_payload *p;
	uint64_t show = len < s->opt->strsize ? len : s->opt->strsize;

	if (!addr) {
		pr_addr(s, 0);
		return;
	}
	/* A zero-length buffer is shown as "" whatever its address. */
	if (!len) {
		pr_quoted(s, (const uint8_t *)"", 0, 0, 0, 0);
		return;
	}
	p = sonde_call_mem(s->c, phase, addr, 1);
	if (!p || (p->flags & SONDE_PLF_UNREADABLE)) {
		pr_unfetched(s, phase, addr);
		return;
	}
	/* The snaplen may have cut the capture below what -s would show:
	 * show what exists, and "..." for the rest. */
	if (show > p->captured - (addr - p->addr))
		show = p->captured - (addr - p->addr);
	pr_quoted_len(s, p->data + (addr - p->addr), show, 0, len > show, force_hex, len);
}

/*
 * strace's hexdump: one line per 16 bytes,
 *  | 00000  30 31 32 33 34 35 36 37  38 39 61 62 63 64 65 66  0123456789abcdef |
 */
void pr_hexdump(struct strbuf *b, const uint8_t *p, size_t len)
{
	for (size_t off = 0; off < len; off += 16) {
		sb_printf(b, " | %05zx ", off);
		for (size_t i = 0; i < 16; i++) {
			if (i == 8)
				sb_putc(b, ' ');
			if (off + i < len)
				sb_printf(b, " %02x", p[off + i]);
			else
				sb_puts(b, "   ");
		}
		sb_puts(b, "  ");
		for (size_t i = 0; i < 16; i++) {
			if (off + i < len)
				sb_putc(b, is_print(p[off + i]) ? (char)p[off + i] : '.');
			else
				sb_putc(b, ' ');
		}
		sb_puts(b, " |\n");
	}
}

/* The largest member pr_mem_array_of takes (struct kexec_segment is 32). */
#define MEM_ELEM_MAX 64

/*
 * strace's print_array over the call's memory: NULL; [] for no member;
 * the address when the first member is missing or not to be shown
 * (st_deref), or the call failed and the memory is its output;
 * "... /\* address *\/" where a later one is;
 * "..." after -s members unless -v. Each member goes to pr_num as a
 * little-endian number (esz <= 8) or to pr_mem as its bytes.
 */
static void mem_array(struct st *s, int phase, uint64_t a, uint64_t n, size_t esz,
		      void (*pr_num)(struct st *s, uint64_t v),
		      void (*pr_mem)(struct st *s, const void *e))
{
	uint8_t e[MEM_ELEM_MAX];
	uint64_t v;

	if (!a) {
		pr_addr(s, 0);
		return;
	}
	if (!n) {
		st_arr_begin(s);
		st_arr_end(s);
		return;
	}
	if (!st_deref(s) || esz > sizeof(e) || (pr_num && esz > sizeof(v)) || n > UINT64_MAX / esz ||
	    a + n * esz <= a || (phase == SONDE_PL_EXIT && !st_ok(s)) ||
	    !st_peek(s, phase, a, e, esz)) {
		pr_unfetched(s, phase, a);
		return;
	}
	st_arr_begin(s);
	for (uint64_t i = 0; i < n; i++) {
		if (!st_peek(s, phase, a + i * esz, e, esz)) {
			if (!s->j) {
				st_elem(s);
				sb_printf(s->o, "... /* %#" PRIx64 " */", a + i * esz);
			}
			break;
		}
		st_elem(s);
		if (st_array_cut(s, i)) {
			sb_puts(s->o, "...");
			break;
		}
		if (pr_mem) {
			pr_mem(s, e);
		} else {
			v = 0;
			memcpy(&v, e, esz);
			pr_num(s, v);
		}
	}
	st_arr_end(s);
}

void pr_mem_array(struct st *s, int phase, uint64_t a, uint64_t n, size_t esz,
		  void (*pr)(struct st *s, uint64_t v))
{
	mem_array(s, phase, a, n, esz, pr, NULL);
}

void pr_mem_array_of(struct st *s, int phase, uint64_t a, uint64_t n, size_t esz,
		     void (*pr)(struct st *s, const void *e))
{
	mem_array(s, phase, a, n, esz, NULL, pr);
}

void pr_buf_ret(struct st *s, uint64_t addr)
{
	if (st_ok(s))
		pr_buf(s, SONDE_PL_EXIT, addr, (uint64_t)s->ret, 0);
	else
		pr_addr(s, addr);
}
