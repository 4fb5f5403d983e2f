/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Providers: each is a table of small hooks (designated initializers), one
 * file per family. A provider matches probe descriptions to concrete
 * probes, types their arguments, emits the per-program prologue and the
 * per-clause probe filter, supplies argN/args[] and any built-in it
 * overrides (sched:::on-cpu rebinds pid and execname to the incoming
 * thread), and attaches the loaded program.
 */
#ifndef SONDE_LANG_PROV_H
#define SONDE_LANG_PROV_H

#include "lang/cg.h"

struct provider {
	const char *name;
	const char *desc;
	enum bpf_prog_type type;
	/* Adds every probe matching the aligned fields f; returns the count
	 * or -1 after cc_error. c is NULL when listing (-l). */
	int (*match)(struct lcc *cc, struct probe_desc *pd, const char *f[4], struct clause *c);
	/* Type of args[i]; NULL: out of range. */
	struct type *(*arg_type)(struct lcc *cc, const struct lprobe *p, int i);
	int (*is_return)(const struct lprobe *p);
	void (*prologue)(struct cg *cg);
	/* Jumps to lbl_skip unless the probe that fired is one of the
	 * clause's probes (cg->probes). */
	void (*filter)(struct cg *cg, int lbl_skip);
	int (*arg)(struct cg *cg, int i);  /* argN as int64 */
	int (*args)(struct cg *cg, int i); /* args[i], typed */
	/* Provider-specific value of a built-in, or NO_REG for the default. */
	int (*builtin)(struct cg *cg, const char *name);
	/* Runs before code generation: loads BTF, resolves symbols. */
	int (*prepare)(struct lcc *cc, struct lprog *p);
	int (*attach)(struct lcc *cc, struct lprog *p);
};

extern const struct provider prov_dtrace, prov_syscall, prov_proc, prov_sched, prov_profile,
	prov_tick, prov_tracepoint, prov_uprobe, prov_pid, prov_fbt, prov_kprobe, prov_fentry;

/* Helpers for providers. */
int prov_glob(const char *pat, const char *s); /* fnmatch with "" = any */
/* Raw tracepoint attach (syscall, proc, sched). */
int prov_attach_raw_tp(struct lcc *cc, struct lprog *p, const char *tp);
/* perf_event_open + PERF_EVENT_IOC_SET_BPF. */
int prov_attach_perf(struct lcc *cc, struct lprog *p, void *attr, int pid, int cpu);
/* ctx is a raw tracepoint's u64 args[]: loads args[i]. */
int prov_raw_arg(struct cg *cg, int i);
/* Reads field `off` of the task_struct pointer in vtask (BTF offsets). */
int prov_task_field(struct cg *cg, int vtask, const char *field, struct type *t);
/* Id of a tracefs event, mounting tracefs when needed; -1 + cc_error. */
int prov_tracefs_id(struct lcc *cc, const char *cat, const char *name, struct loc loc);
const char *prov_tracefs_dir(void);

#endif
