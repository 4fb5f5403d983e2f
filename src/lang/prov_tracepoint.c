// SPDX-License-Identifier: GPL-2.0
/*
 * tracepoint:CATEGORY:NAME (globs allowed): classic tracepoints run as
 * BPF_PROG_TYPE_TRACEPOINT programs on per-CPU perf events. `args` is a
 * pointer to the event's record, typed as the kernel's own
 * struct trace_event_raw_NAME from BTF, so args->field reads are checked
 * against the real layout. Category and event names come from tracefs
 * (mounted on demand).
 */
#include <dirent.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lang/prov.h"

static int tp_add(struct lcc *cc, struct clause *c, const char *cat, const char *ev)
{
	struct lprobe *lp = probe_add(cc, &prov_tracepoint, c);

	snprintf(lp->f[0], sizeof(lp->f[0]), "tracepoint");
	snprintf(lp->f[1], sizeof(lp->f[1]), "%.127s", cat);
	snprintf(lp->f[2], sizeof(lp->f[2]), "%.127s", ev);
	snprintf(lp->attach, sizeof(lp->attach), "%.127s:%.127s", cat, ev);
	return 1;
}

static int tp_match(struct lcc *cc, struct probe_desc *pd, const char *f[4], struct clause *c)
{
	const char *dir;
	char path[512];
	DIR *d, *d2;
	struct dirent *e, *e2;
	int n = 0;

	if (cc->o->no_fs)
		return 0;

	if (strcmp(f[0], "tracepoint") && strcmp(f[0], "tp"))
		return 0;
	if (f[3][0]) {
		cc_error(cc, pd->loc, "write tracepoints as tracepoint:CATEGORY:NAME");
		return -1;
	}
	dir = prov_tracefs_dir();
	if (!dir) {
		cc_error(cc, pd->loc,
			 "tracefs is not mounted and mounting it failed: run 'mount -t tracefs "
			 "nodev /sys/kernel/tracing'");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/events", dir);
	d = opendir(path);
	if (!d) {
		cc_error(cc, pd->loc, "cannot read %s", path);
		return -1;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !prov_glob(f[1], e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", dir, e->d_name);
		d2 = opendir(path);
		if (!d2)
			continue;
		while ((e2 = readdir(d2)))
			if (e2->d_name[0] != '.' && e2->d_type == DT_DIR &&
			    prov_glob(f[2], e2->d_name))
				n += tp_add(cc, c, e->d_name, e2->d_name);
		closedir(d2);
	}
	closedir(d);
	return n;
}

static struct type *tp_arg_type(struct lcc *cc, const struct lprobe *p, int i)
{
	char err[256], name[192];
	struct type *st;

	if (i != -1)
		return NULL;
	if (lbtf_load(err, sizeof(err))) {
		cc_error(cc, (struct loc){ 0, 0 }, "%s", err);
		return NULL;
	}
	snprintf(name, sizeof(name), "trace_event_raw_%s", p->f[2]);
	st = lbtf_struct(name);
	if (!st) {
		cc_error(cc, (struct loc){ 0, 0 },
			 "no BTF layout (struct %s) for tracepoint %s:%s; for syscalls use the "
			 "syscall provider",
			 name, p->f[1], p->f[2]);
		return NULL;
	}
	return type_ptr(st, 0);
}

static int tp_arg(struct cg *cg, int i)
{
	if (i == -1)
		return cg->vctx;
	return cg_imm(cg, 0);
}

static int tp_attach(struct lcc *cc, struct lprog *p)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_TRACEPOINT,
					.size = sizeof(attr),
					.sample_period = 1,
					.wakeup_events = 1 };
	char cat[128];
	const char *ev = strchr(p->attach, ':');
	int id;

	snprintf(cat, sizeof(cat), "%.*s", (int)(ev - p->attach), p->attach);
	id = prov_tracefs_id(cc, cat, ev + 1, (struct loc){ 0, 0 });
	if (id < 0)
		return -1;
	attr.config = id;
	/* BPF runs from the tracepoint itself on every CPU; one event
	 * enables it (one per CPU would run the program once per event) */
	return prov_attach_perf(cc, p, &attr, -1, 0);
}

const struct provider prov_tracepoint = {
	.name = "tracepoint",
	.desc = "kernel tracepoints, args->field typed from BTF",
	.type = BPF_PROG_TYPE_TRACEPOINT,
	.match = tp_match,
	.arg_type = tp_arg_type,
	.arg = tp_arg,
	.args = tp_arg,
	.attach = tp_attach,
};
