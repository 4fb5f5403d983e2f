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
		prov_tracefs_error(cc, pd->loc);
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

/* args: a pointer to the record, typed from the event's format file
 * (parsed once per event). */
static struct type *tp_arg_type(struct lcc *cc, const struct lprobe *p, int i)
{
	struct type *st;

	if (i != -1)
		return NULL;
	for (int k = 0; k < cc->ntprecs; k++)
		if (!strcmp(cc->tprecs[k]->name, p->attach)) /* "cat:ev" */
			return type_ptr(cc->tprecs[k], 0);
	st = tpformat_struct(cc, p->f[1], p->f[2]);
	if (!st)
		return NULL;
	cc->tprecs = realloc(cc->tprecs, (cc->ntprecs + 1) * sizeof(*cc->tprecs));
	if (!cc->tprecs)
		abort();
	cc->tprecs[cc->ntprecs++] = st;
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
