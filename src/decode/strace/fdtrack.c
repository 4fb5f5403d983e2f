// SPDX-License-Identifier: GPL-2.0
/*
 * -y outside the strace renderer: the descriptor tables (fdtab.c) fed
 * from records, for the text and JSON renderers of `sonde print` and
 * `sonde strace --json` (struct sonde_fds, include/sonde/strace.h).
 *
 * Every call must reach the tables, shown or not, in time order: a call's
 * arguments show the descriptors before it (close(3</x>)), a descriptor
 * it returns what it became (= 3</x>), hence the update between the two
 * halves of the formatting (st_format_*'s mid hook).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include <sonde/render.h>

#include "decode/strace/strace_int.h"

struct sonde_fds {
	struct fdtab *t;
};

/* A string argument's bytes, NUL-terminated in tmp, for the fd tables. */
static const char *arg_string(const struct sonde_call *c, uint64_t addr,
			      char *tmp, size_t len)
{
	const struct sonde_payload *p = sonde_call_mem(c, SONDE_PL_ENTRY, addr, 0);
	size_t n;

	if (!addr || !p || (p->flags & SONDE_PLF_UNREADABLE))
		return NULL;
	n = p->captured - (addr - p->addr);
	if (n >= len)
		n = len - 1;
	if (n)
		memcpy(tmp, p->data + (addr - p->addr), n);
	tmp[n] = 0;
	return tmp;
}

void fdtab_track(struct fdtab *t, const struct sonde_call *c)
{
	const struct sonde_ev_syscall *sc = c->sc;
	struct fdtab_call f = { .tid = sc->hdr.tid, .nr = sc->nr, .ret = sc->ret };
	char p0[4096], p1[4096];

	for (int i = 0; i < 6; i++)
		f.args[i] = sc->args[i];

	if (sc->hdr.flags & (SONDE_SC_NORETURN | SONDE_SC_UNFINISHED))
		return;
	f.path0 = arg_string(c, sc->args[0], p0, sizeof(p0));
	f.path1 = arg_string(c, sc->args[1], p1, sizeof(p1));
	if (sc->nr == __NR_openat2 || sc->nr == __NR_clone3) {
		const struct sonde_payload *p = sonde_call_mem(
			c, SONDE_PL_ENTRY, sc->args[sc->nr == __NR_openat2 ? 2 : 0], 8);

		if (p && !(p->flags & SONDE_PLF_UNREADABLE))
			memcpy(&f.aux, p->data + (sc->args[sc->nr == __NR_openat2 ? 2 : 0] - p->addr), 8);
	}
	if (sc->nr == __NR_pipe || sc->nr == __NR_pipe2 || sc->nr == __NR_socketpair) {
		uint64_t a = sc->args[sc->nr == __NR_socketpair ? 3 : 0];
		const struct sonde_payload *p = sonde_call_mem(c, SONDE_PL_EXIT, a, 8);

		if (p && !(p->flags & SONDE_PLF_UNREADABLE)) {
			memcpy(f.fds, p->data + (a - p->addr), 8);
			f.have_fds = 1;
		}
	}
	fdtab_apply(t, &f);
}


struct sonde_fds *sonde_fds_new(void)
{
	struct sonde_fds *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->t = fdtab_new();
	if (!f->t) {
		free(f);
		return NULL;
	}
	return f;
}

void sonde_fds_free(struct sonde_fds *f)
{
	if (!f)
		return;
	fdtab_free(f->t);
	free(f);
}

int sonde_fds_set(struct sonde_fds *f, uint32_t pid, int fd, const char *path)
{
	return fdtab_set(f->t, pid, fd, path);
}

void sonde_fds_resolve_links(struct sonde_fds *f, int on)
{
	fdtab_resolve_links(f->t, on);
}

void sonde_fds_call(struct sonde_fds *f, const struct sonde_call *c)
{
	fdtab_track(f->t, c);
}

int sonde_fds_record(struct sonde_fds *f, const struct sonde_hdr *rec)
{
	const struct sonde_ev_fork *k = (const void *)rec;

	if (rec->type == SONDE_REC_FORK && rec->size >= sizeof(*k))
		return fdtab_fork(f->t, rec->tid, k->child_tid, k->clone_flags);
	if (rec->type == SONDE_REC_EXIT && rec->size >= sizeof(struct sonde_ev_exit))
		fdtab_exit(f->t, rec->tid);
	return 0;
}

struct fds_mid {
	struct fdtab *t;
	const struct sonde_call *c;
};

static void fds_mid(void *arg)
{
	struct fds_mid *m = arg;

	fdtab_track(m->t, m->c);
}

int sonde_strace_text_fds(const struct sonde_strace_opts *o, const struct sonde_call *c,
			  struct sonde_fds *fds, struct sonde_line *call, struct sonde_line *ret)
{
	struct fds_mid m = { fds ? fds->t : NULL, c };
	struct strbuf a, r;

	if (!sonde_strace_is_decoded(c->sc->nr)) {
		if (fds)
			fdtab_track(fds->t, c);
		return -ENOENT;
	}
	sb_init(&a);
	sb_init(&r);
	st_format_args(&a, o, c, m.t, &r, fds ? fds_mid : NULL, &m);
	if (a.oom || r.oom)
		call->oom = 1;
	sonde_line_printf(call, "%s", a.s ? a.s : "");
	sonde_line_printf(ret, "%s", r.s ? r.s : "");
	sb_free(&a);
	sb_free(&r);
	return 0;
}

int sonde_strace_text(const struct sonde_strace_opts *o, const struct sonde_call *c,
		      struct sonde_line *call, struct sonde_line *ret)
{
	return sonde_strace_text_fds(o, c, NULL, call, ret);
}

int sonde_strace_json_fds(const struct sonde_strace_opts *o, const struct sonde_call *c,
			  struct sonde_fds *fds, struct sonde_line *args, struct sonde_line *res)
{
	struct sonde_strace_opts jo = *o;
	struct fds_mid m = { fds ? fds->t : NULL, c };

	jo.verbose = 1;
	jo.xlat = SONDE_XLAT_ABBREV;
	jo.xstr = 0;
	jo.decode_fds = fds && o->decode_fds;
	if (!jo.strsize)
		jo.strsize = UINT32_MAX;
	if (st_format_json(args, res, &jo, c, m.t, fds ? fds_mid : NULL, &m)) {
		if (fds)
			fdtab_track(fds->t, c);
		return -ENOENT;
	}
	return 0;
}

int sonde_strace_json(const struct sonde_strace_opts *o, const struct sonde_call *c,
		      struct sonde_line *args, struct sonde_line *res)
{
	return sonde_strace_json_fds(o, c, NULL, args, res);
}
