// SPDX-License-Identifier: GPL-2.0
/* execve argv strings from the exec record the call produced (execargv.h). */
#include <string.h>
#include <sys/syscall.h>

#include "decode/strace/execargv.h"
#include "decode/strace/strace_int.h"

/* Array argument of the call: execve's argv is argument 1, execveat's 2. */
static int argv_arg(uint32_t nr)
{
	return nr == __NR_execve ? 1 : nr == __NR_execveat ? 2 : -1;
}

int execargv_wanted(const struct sonde_ev_syscall *sc)
{
	/* Returned, and successfully (an unfinished call has no result). */
	return argv_arg(sc->nr) >= 0 && sc->ret == 0 && !(sc->hdr.flags & SONDE_SC_NO_RESULT);
}

static uint64_t call_end(const struct sonde_ev_syscall *sc)
{
	return sc->dur > UINT64_MAX - sc->hdr.ts ? UINT64_MAX : sc->hdr.ts + sc->dur;
}

/* The record is a whole exec record (a hostile file may say otherwise). */
static const struct sonde_ev_exec *exec_valid(const struct sonde_hdr *h)
{
	const struct sonde_ev_exec *e = (const void *)h;

	if (h->type != SONDE_REC_EXEC || h->size < sizeof(*e) ||
	    (size_t)e->filename_len + e->argv_len > h->size - sizeof(*e))
		return NULL;
	return e;
}

int execargv_match(const struct sonde_ev_syscall *sc, const struct sonde_hdr *exec)
{
	const struct sonde_ev_exec *e = exec_valid(exec);

	return e && execargv_wanted(sc) && exec->pid == sc->hdr.pid &&
	       (e->old_tid == sc->hdr.tid || exec->tid == sc->hdr.tid) &&
	       exec->ts >= sc->hdr.ts && exec->ts <= call_end(sc);
}

/*
 * String i of the record's argv, or NULL when the record does not hold it
 * whole: a tail cut short (SONDE_EXEC_ARGV_TRUNC) ends with a NUL the
 * recorder wrote over the last byte, so the string ending there may be cut.
 */
static const char *exec_arg(const struct sonde_ev_exec *e, uint32_t i, size_t *len)
{
	const char *p = (const char *)(e + 1) + e->filename_len;
	size_t n = e->argv_len, off = 0;
	const char *z;

	for (;;) {
		z = off < n ? memchr(p + off, 0, n - off) : NULL;
		if (!z)
			return NULL;
		if (!i--)
			break;
		off = (size_t)(z - p) + 1;
	}
	if ((e->hdr.flags & SONDE_EXEC_ARGV_TRUNC) && (size_t)(z - p) + 1 >= n)
		return NULL;
	*len = (size_t)(z - (p + off));
	return p + off;
}

/* Element i of the pointer array at a; 0 when not captured (NULL ends it). */
static int argv_elem(const struct sonde_call *c, uint64_t a, uint64_t i, uint64_t *v)
{
	unsigned int psz = st_ptr_size(c->sc); /* 4 in an i386 execve */
	const struct sonde_payload *p;

	if (i > (UINT64_MAX - a) / psz)
		return 0;
	p = sonde_call_mem(c, SONDE_PL_ENTRY, a + i * psz, psz);
	if (!p || (p->flags & SONDE_PLF_UNREADABLE))
		return 0;
	*v = 0;
	memcpy(v, p->data + (a + i * psz - p->addr), psz);
	return 1;
}

/* The readable string the trace holds at addr agrees with the record's s
 * (a string cut by the snaplen: its bytes are a prefix). 1 when the trace
 * holds none (nothing to contradict). */
static int agrees(const struct sonde_call *c, uint64_t addr, const char *s, size_t len)
{
	const struct sonde_payload *p = sonde_call_mem(c, SONDE_PL_ENTRY, addr, 0);
	const uint8_t *d, *z;
	size_t n;

	if (!p || (p->flags & SONDE_PLF_UNREADABLE))
		return 1;
	d = p->data + (addr - p->addr);
	n = p->captured - (addr - p->addr);
	z = n ? memchr(d, 0, n) : NULL;
	if (z || (p->flags & SONDE_PLF_NUL))
		return (z ? (size_t)(z - d) : n) == len && !memcmp(d, s, len);
	return n <= len && !memcmp(d, s, n);
}

static int held(const struct sonde_call *c, uint64_t addr)
{
	const struct sonde_payload *p = sonde_call_mem(c, SONDE_PL_ENTRY, addr, 0);

	return p && !(p->flags & SONDE_PLF_UNREADABLE);
}

/* Argument ai's array, element by element, as the record's argv. */
static unsigned int fill_argv(const struct sonde_call *c, const struct sonde_ev_exec *e, int ai,
			      struct sonde_payload *out, unsigned int cap)
{
	uint64_t a = c->sc->args[ai], v, n = 0;
	unsigned int k = 0;
	const char *s;
	size_t len;

	/* The array must be whole and as long as the new program's argv. */
	for (;;) {
		if (!a || !argv_elem(c, a, n, &v))
			return 0;
		if (!v)
			break;
		if (++n > e->argc)
			return 0;
	}
	if (n != e->argc)
		return 0;
	for (uint64_t i = 0; i < n; i++) {
		argv_elem(c, a, i, &v);
		s = exec_arg(e, (uint32_t)i, &len);
		if (s && !agrees(c, v, s, len))
			return 0;
	}
	for (uint64_t i = 0; i < n && k < cap; i++) {
		argv_elem(c, a, i, &v);
		s = exec_arg(e, (uint32_t)i, &len);
		if (!s || held(c, v))
			continue;
		memset(&out[k], 0, sizeof(out[k]));
		out[k].addr = v;
		out[k].data = (const uint8_t *)s;
		out[k].requested = out[k].returned = out[k].captured = (uint32_t)len;
		out[k].arg = (uint8_t)ai;
		out[k].phase = SONDE_PL_ENTRY;
		out[k].flags = SONDE_PLF_STRING | SONDE_PLF_NUL | SONDE_PLF_EXEC;
		k++;
	}
	return k;
}

/*
 * execve's path, as the kernel took it (bprm->filename is the string the
 * call passed, copied by getname; execveat's is rebuilt from the
 * descriptor, so only execve's qualifies). Only a whole one: the recorder
 * keeps up to 1023 bytes.
 */
static unsigned int fill_path(const struct sonde_call *c, const struct sonde_ev_exec *e,
			      struct sonde_payload *out)
{
	const char *f = (const char *)(e + 1);
	size_t n = e->filename_len;

	if (c->sc->nr != __NR_execve || !c->sc->args[0] || held(c, c->sc->args[0]) || n < 2 ||
	    n >= 1024 || f[n - 1] || memchr(f, 0, n - 1))
		return 0;
	memset(out, 0, sizeof(*out));
	out->addr = c->sc->args[0];
	out->data = (const uint8_t *)f;
	out->requested = out->returned = out->captured = (uint32_t)(n - 1);
	out->phase = SONDE_PL_ENTRY;
	out->flags = SONDE_PLF_STRING | SONDE_PLF_NUL | SONDE_PLF_EXEC;
	return 1;
}

unsigned int execargv_fill(const struct sonde_call *c, const struct sonde_hdr *exec,
			   struct sonde_payload *out, unsigned int cap)
{
	const struct sonde_ev_exec *e = exec_valid(exec);
	int ai = argv_arg(c->sc->nr);
	unsigned int k = 0;

	if (!e || ai < 0 || !execargv_match(c->sc, exec))
		return 0;
	if (cap)
		k = fill_path(c, e, out);
	return k + fill_argv(c, e, ai, out + k, cap - k);
}
