// SPDX-License-Identifier: GPL-2.0
/*
 * profile-N and tick-N: perf software CPU-clock events running a
 * BPF_PROG_TYPE_PERF_EVENT program. profile fires on every CPU at N Hz
 * (or every N units), tick on one CPU. N takes DTrace's suffixes: ns, us,
 * ms, s/sec, m/min, h/hour, d/day, hz (the default for profile; tick
 * defaults to hz too). arg0 is the kernel PC (0 in user mode), arg1 the
 * user PC (0 in kernel mode).
 */
#include <ctype.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lang/prov.h"

/* Parses "97", "10ms", "1s", "100hz": period in ns (aux[1]) or frequency
 * in Hz (aux[2]). */
static int parse_rate(const char *s, long *period, long *hz)
{
	static const struct {
		const char *u;
		long ns;
	} units[] = { { "ns", 1 },
		      { "nsec", 1 },
		      { "us", 1000 },
		      { "usec", 1000 },
		      { "ms", 1000000 },
		      { "msec", 1000000 },
		      { "s", 1000000000 },
		      { "sec", 1000000000 },
		      { "m", 60000000000 },
		      { "min", 60000000000 },
		      { "h", 3600000000000 },
		      { "hour", 3600000000000 },
		      { "d", 86400000000000 },
		      { "day", 86400000000000 } };
	char *e;
	long v = strtol(s, &e, 10);

	if (e == s || v <= 0)
		return -1;
	*period = *hz = 0;
	if (!*e || !strcmp(e, "hz")) {
		*hz = v;
		return v > 100000 ? -1 : 0;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(e, units[i].u)) {
			if (v > INT64_MAX / units[i].ns)
				return -1;
			*period = v * units[i].ns;
			return *period < 10000 ? -1 : 0; /* below 10us would swamp a CPU */
		}
	return -1;
}

static int rate_match(struct lcc *cc, struct probe_desc *pd, const char *f[4], struct clause *c,
		      const struct provider *self)
{
	const char *prefix = self->name;
	size_t pl = strlen(prefix);
	struct lprobe *lp;
	long period, hz;

	if (f[0][0] && strcmp(f[0], prefix))
		return 0;
	if (strncmp(f[3], prefix, pl) || f[3][pl] != '-' || f[1][0] || f[2][0])
		return 0;
	if (parse_rate(f[3] + pl + 1, &period, &hz)) {
		cc_error(cc, pd->loc,
			 "bad rate in %s: write %s-97 (Hz), %s-10ms, %s-1s (at most 100000 Hz, at "
			 "least 10us)",
			 f[3], prefix, prefix, prefix);
		return -1;
	}
	lp = probe_add(cc, self, c);
	snprintf(lp->f[0], sizeof(lp->f[0]), "%s", prefix);
	snprintf(lp->f[3], sizeof(lp->f[3]), "%s", f[3]);
	snprintf(lp->attach, sizeof(lp->attach), "%s", f[3]);
	lp->aux[1] = period;
	lp->aux[2] = hz;
	return 1;
}

static int profile_match(struct lcc *cc, struct probe_desc *pd, const char *f[4], struct clause *c)
{
	return rate_match(cc, pd, f, c, &prov_profile);
}

static int tick_match(struct lcc *cc, struct probe_desc *pd, const char *f[4], struct clause *c)
{
	return rate_match(cc, pd, f, c, &prov_tick);
}

static struct type *pe_arg_type(struct lcc *cc, const struct lprobe *p, int i)
{
	(void)cc;
	(void)p;
	return i < 2 ? &t_u64 : NULL;
}

/* ctx is struct bpf_perf_event_data: pt_regs first; ip at 128, cs at 136 */
static int pe_arg(struct cg *cg, int i)
{
	int ip = ir_vreg(cg->ir), cs = ir_vreg(cg->ir), zero = ir_label(cg->ir);
	int done = ir_label(cg->ir);

	if (i > 1)
		return cg_imm(cg, 0);
	ir_ldx(cg->ir, BPF_DW, ip, cg->vctx, 128);
	ir_ldx(cg->ir, BPF_DW, cs, cg->vctx, 136);
	ir_alui(cg->ir, BPF_AND, cs, 3);
	/* user mode when the privilege level in cs is 3 */
	ir_jmpi(cg->ir, i == 0 ? BPF_JNE : BPF_JEQ, cs, 0, zero);
	ir_ja(cg->ir, done);
	ir_bind(cg->ir, zero);
	ir_movi(cg->ir, ip, 0);
	ir_bind(cg->ir, done);
	return ip;
}

static int pe_attach(struct lcc *cc, struct lprog *p)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
	};
	int ncpu = p->prov == &prov_tick ? 1 : (int)sysconf(_SC_NPROCESSORS_ONLN);

	if (p->aux[2]) {
		attr.freq = 1;
		attr.sample_freq = p->aux[2];
	} else {
		attr.sample_period = p->aux[1];
	}
	for (int cpu = 0; cpu < ncpu; cpu++)
		if (prov_attach_perf(cc, p, &attr, -1, cpu))
			return -1;
	return 0;
}

const struct provider prov_profile = {
	.name = "profile",
	.desc = "timed sampling on every CPU",
	.type = BPF_PROG_TYPE_PERF_EVENT,
	.match = profile_match,
	.arg_type = pe_arg_type,
	.arg = pe_arg,
	.args = pe_arg,
	.attach = pe_attach,
};

const struct provider prov_tick = {
	.name = "tick",
	.desc = "timed events on one CPU",
	.type = BPF_PROG_TYPE_PERF_EVENT,
	.match = tick_match,
	.arg_type = pe_arg_type,
	.arg = pe_arg,
	.args = pe_arg,
	.attach = pe_attach,
};
