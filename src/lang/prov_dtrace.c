// SPDX-License-Identifier: GPL-2.0
/* dtrace provider: BEGIN, END and ERROR. Their programs are never
 * attached: the runtime runs BEGIN and END once with BPF_PROG_TEST_RUN (as
 * ply does), BEGIN after every other probe is attached and END when
 * tracing stops. ERROR clauses run inline where a fault happens
 * (cgfault.c); their own program is only compiled and verified. */
#include <string.h>

#include "lang/prov.h"

static int dt_match(struct lcc *cc, struct probe_desc *pd, const char *f[4], struct clause *c)
{
	static const char *const names[] = { "BEGIN", "END", "ERROR" };
	int n = 0;

	(void)pd;
	if (f[0][0] && strcmp(f[0], "dtrace"))
		return 0;
	for (int i = 0; i < 3; i++) {
		struct lprobe *lp;

		if (!prov_glob(f[3], names[i]) || f[1][0] || f[2][0] || !f[3][0])
			continue;
		lp = probe_add(cc, &prov_dtrace, c);
		snprintf(lp->f[0], sizeof(lp->f[0]), "dtrace");
		snprintf(lp->f[3], sizeof(lp->f[3]), "%s", names[i]);
		snprintf(lp->attach, sizeof(lp->attach), "%s", names[i]);
		n++;
	}
	return n;
}

static int dt_arg(struct cg *cg, int i)
{
	(void)i;
	return cg_imm(cg, 0);
}

static struct type *dt_arg_type(struct lcc *cc, const struct lprobe *p, int i)
{
	(void)cc;
	(void)p;
	(void)i;
	return NULL;
}

static int dt_attach(struct lcc *cc, struct lprog *p)
{
	(void)cc;
	(void)p;
	return 0; /* run by rt.c */
}

const struct provider prov_dtrace = {
	.name = "dtrace",
	.desc = "BEGIN, END and ERROR",
	.type = BPF_PROG_TYPE_RAW_TRACEPOINT,
	.match = dt_match,
	.arg_type = dt_arg_type,
	.arg = dt_arg,
	.args = dt_arg,
	.attach = dt_attach,
};
