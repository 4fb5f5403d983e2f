// SPDX-License-Identifier: GPL-2.0
/* Provider registry, probe matching and helpers shared by providers. */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lang/prov.h"

static const struct provider *const providers[] = {
	&prov_dtrace,	  &prov_syscall, &prov_proc, &prov_sched, &prov_profile, &prov_tick,
	&prov_tracepoint, &prov_uprobe,	 &prov_pid,  &prov_fbt,	  &prov_kprobe,	 &prov_fentry,
};
#define NPROV (sizeof(providers) / sizeof(providers[0]))

int prov_glob(const char *pat, const char *s)
{
	return !pat[0] || !fnmatch(pat, s, 0);
}

struct lprobe *probe_add(struct lcc *cc, const struct provider *p, struct clause *c)
{
	struct lprobe *lp;

	if (cc->nprobes % 256 == 0) {
		cc->probes = realloc(cc->probes, (cc->nprobes + 256) * sizeof(*cc->probes));
		if (!cc->probes)
			abort();
	}
	lp = &cc->probes[cc->nprobes++];
	memset(lp, 0, sizeof(*lp));
	lp->prov = p;
	lp->c = c;
	lp->filter = -1;
	lp->prog = -1;
	return lp;
}

static int is_named_provider(const char *s)
{
	for (size_t i = 0; i < NPROV; i++)
		if (!strcmp(providers[i]->name, s) || !strncmp(s, "pid", 3) ||
		    !strcmp(s, "uretprobe") || !strcmp(s, "fexit") || !strcmp(s, "kretprobe"))
			return 1;
	return 0;
}

static int match_desc(struct lcc *cc, struct probe_desc *pd, struct clause *c)
{
	const char *f[4] = { pd->f[0], pd->f[1], pd->f[2], pd->f[3] };
	int total = 0;
	char first[128];
	const char *colon = strchr(pd->text, ':');

	snprintf(first, sizeof(first), "%.*s", colon ? (int)(colon - pd->text) : 0, pd->text);
	if (colon && is_named_provider(first)) {
		/* Providers with their own syntax take fields left-aligned:
		 * "tracepoint:sched:sched_switch", "uprobe:/bin/sh:main". */
		int n = 0;
		const char *s = pd->text;
		static char buf[4][256];

		for (int i = 0; i < 4; i++)
			buf[i][0] = 0;
		while (n < 4) {
			const char *e = n < 3 ? strchr(s, ':') : NULL;
			int len = e ? (int)(e - s) : (int)strlen(s);

			snprintf(buf[n], sizeof(buf[n]), "%.*s", len, s);
			n++;
			if (!e)
				break;
			s = e + 1;
		}
		for (int i = 0; i < 4; i++)
			f[i] = buf[i];
	}
	for (size_t i = 0; i < NPROV; i++) {
		int r;

		if (!prov_glob(f[0], providers[i]->name) &&
		    !(providers[i] == &prov_pid && !strncmp(f[0], "pid", 3)) &&
		    !(providers[i] == &prov_uprobe && !strcmp(f[0], "uretprobe")) &&
		    !(providers[i] == &prov_fentry && !strcmp(f[0], "fexit")) &&
		    !(providers[i] == &prov_kprobe && !strcmp(f[0], "kretprobe")))
			continue;
		r = providers[i]->match(cc, pd, f, c);
		if (r < 0)
			return -1;
		total += r;
	}
	if (!total) {
		cc_error(cc, pd->loc,
			 "probe description %s does not match any probe (sonde script -l '%s' "
			 "lists probes; providers: BEGIN END syscall proc sched profile tick "
			 "tracepoint uprobe pid)",
			 pd->text, pd->text);
		return -1;
	}
	return 0;
}

/* Groups probes by (provider, attach point): one program each. */
static int group_progs(struct lcc *cc)
{
	for (int i = 0; i < cc->nprobes; i++) {
		struct lprobe *lp = &cc->probes[i];
		int k;

		for (k = 0; k < cc->nprogs; k++)
			if (cc->progs[k].prov == lp->prov &&
			    !strcmp(cc->progs[k].attach, lp->attach))
				break;
		if (k == cc->nprogs) {
			cc->progs = realloc(cc->progs, (cc->nprogs + 1) * sizeof(*cc->progs));
			if (!cc->progs)
				abort();
			memset(&cc->progs[k], 0, sizeof(cc->progs[k]));
			cc->progs[k].prov = lp->prov;
			cc->progs[k].type = lp->prov->type;
			cc->progs[k].fd = -1;
			cc->progs[k].first_probe = i;
			memcpy(cc->progs[k].aux, lp->aux, sizeof(lp->aux));
			snprintf(cc->progs[k].attach, sizeof(cc->progs[k].attach), "%s",
				 lp->attach);
			cc->nprogs++;
		}
		lp->prog = k;
	}
	return 0;
}

int probes_match(struct lcc *cc)
{
	for (struct clause *c = cc->prog.clauses; c; c = c->next)
		for (struct probe_desc *pd = c->probes; pd; pd = pd->next)
			if (match_desc(cc, pd, c))
				return -1;
	return group_progs(cc);
}

void probes_list(struct lcc *cc, FILE *f)
{
	fprintf(f, "%-10s %-32s %-28s %s\n", "PROVIDER", "MODULE", "FUNCTION", "NAME");
	for (int i = 0; i < cc->nprobes; i++)
		fprintf(f, "%-10s %-32s %-28s %s\n", cc->probes[i].f[0], cc->probes[i].f[1],
			cc->probes[i].f[2], cc->probes[i].f[3]);
}

int prov_attach_raw_tp(struct lcc *cc, struct lprog *p, const char *tp)
{
	int fd = bpf_raw_tracepoint_open(tp, p->fd);

	if (fd < 0) {
		cc_error(cc, (struct loc){ 0, 0 }, "cannot attach to raw tracepoint %s: %s", tp,
			 strerror(errno));
		return -1;
	}
	p->links = realloc(p->links, (p->nlinks + 1) * sizeof(int));
	p->links[p->nlinks++] = fd;
	return 0;
}

int prov_attach_perf(struct lcc *cc, struct lprog *p, void *attr, int pid, int cpu)
{
	int fd = syscall(__NR_perf_event_open, attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0) {
		cc_error(cc, (struct loc){ 0, 0 }, "perf_event_open for %s failed: %s", p->attach,
			 strerror(errno));
		return -1;
	}
	p->links = realloc(p->links, (p->nlinks + 1) * sizeof(int));
	p->links[p->nlinks++] = fd;
	if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, p->fd) || ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)) {
		cc_error(cc, (struct loc){ 0, 0 }, "cannot attach the program to %s: %s", p->attach,
			 strerror(errno));
		return -1;
	}
	return 0;
}

int prov_raw_arg(struct cg *cg, int i)
{
	int r = ir_vreg(cg->ir);

	ir_ldx(cg->ir, BPF_DW, r, cg->vctx, 8 * i);
	return r;
}

int prov_task_field(struct cg *cg, int vtask, const char *field, struct type *t)
{
	int off = lbtf_offsetof("task_struct", field), a = ir_vreg(cg->ir);

	if (off < 0) {
		cc_error(cg->cc, cg->ir->loc, "kernel BTF has no task_struct.%s", field);
		return cg_imm(cg, 0);
	}
	ir_mov(cg->ir, a, vtask);
	ir_alui(cg->ir, BPF_ADD, a, off);
	return cg_read_scalar(cg, a, t, 0);
}

const char *prov_tracefs_dir(void)
{
	static const char *dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	struct stat st;

	for (int i = 0; i < 2; i++) {
		char p[128];

		snprintf(p, sizeof(p), "%s/events", dirs[i]);
		if (!stat(p, &st))
			return dirs[i];
	}
	/* tracefs is not mounted at boot on some systems */
	if (!mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL))
		return dirs[0];
	return NULL;
}

int prov_tracefs_id(struct lcc *cc, const char *cat, const char *name, struct loc loc)
{
	const char *dir = prov_tracefs_dir();
	char path[512], buf[32];
	int fd, n;

	if (!dir) {
		cc_error(cc, loc,
			 "tracefs is not mounted and mounting it failed (%s): run 'mount -t "
			 "tracefs nodev /sys/kernel/tracing'",
			 strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, cat, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		cc_error(cc, loc, "no tracepoint %s:%s (%s)", cat, name, strerror(errno));
		return -1;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return atoi(buf);
}
