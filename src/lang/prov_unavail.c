// SPDX-License-Identifier: GPL-2.0
/* fbt, kprobe and fentry providers: listed so that scripts using them get
 * a clear answer instead of "no probe matched". On these kernels fentry
 * and fexit programs are refused at load (EPERM under lockdown) and
 * kprobes are not built in. */
#include <string.h>

#include "lang/prov.h"

static int unavail_match(struct lcc *cc, struct probe_desc *pd, const char *f[4], struct clause *c)
{
	(void)c;
	if (!f[0][0])
		return 0;
	cc_error(cc, pd->loc,
		 "provider '%s' is unavailable on this kernel: it needs %s, which %s; use the "
		 "tracepoint:, syscall: or uprobe: providers instead",
		 f[0],
		 !strncmp(f[0], "f", 1) && strcmp(f[0], "fbt") ? "fentry/fexit programs"
							       : "kprobes (or fentry)",
		 !strncmp(f[0], "f", 1) && strcmp(f[0], "fbt")
			 ? "the kernel refuses (EPERM under lockdown)"
			 : "this kernel does not have (kprobes are not built in, fentry is refused "
			   "under lockdown)");
	return -1;
}

const struct provider prov_fbt = {
	.name = "fbt",
	.desc = "unavailable: kernel function boundary tracing",
	.match = unavail_match,
};

const struct provider prov_kprobe = {
	.name = "kprobe",
	.desc = "unavailable: kprobes are not built into this kernel",
	.match = unavail_match,
};

const struct provider prov_fentry = {
	.name = "fentry",
	.desc = "unavailable: fentry/fexit are refused under lockdown",
	.match = unavail_match,
};
