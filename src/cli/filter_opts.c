// SPDX-License-Identifier: GPL-2.0
/* Options and file handling shared by print and stat. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <sonde/format.h>
#include <sonde/strace.h>

#include "cli/cli.h"
#include "cli/filter_opts.h"

/* -e status=SET, as sonde strace (and strace) take it. */
static int filter_opt_status(const char *cmd, const char *arg, struct sonde_scan_opts *o)
{
	struct sonde_strace_opts so;
	char err[512];

	sonde_strace_opts_init(&so);
	if (sonde_strace_opt(&so, 'e', arg, err, sizeof(err))) {
		cli_err(cmd, "%s", err);
		return -1;
	}
	o->filter.status = so.status;
	return 0;
}

/* -e accepts "trace=SET", "t=SET" and a bare SET, as strace does, and
 * "status=SET". */
static int filter_opt_expr(const char *cmd, const char *arg, struct sonde_scan_opts *o)
{
	const char *eq = strchr(arg, '=');
	int q = sonde_strace_qual(arg);
	char err[512];

	if (eq) {
		if (q == SONDE_Q_TRACE) {
			arg = eq + 1;
		} else if (q == SONDE_Q_STATUS) {
			return filter_opt_status(cmd, arg, o);
		} else if (strcspn(arg, ",!%/?") > (size_t)(eq - arg)) {
			cli_err(cmd,
				"-e %s: only the trace= and status= qualifiers are supported "
				"here (e.g. -e trace=%%file,read)",
				arg);
			return -1;
		}
	}
	if (sonde_sc_set_parse(&o->filter.sc, arg, err, sizeof(err))) {
		cli_err(cmd, "-e trace=%s: %s", arg, err);
		return -1;
	}
	o->filter.has_sc = 1;
	return 0;
}

static int filter_opt_time(const char *cmd, const char *name, const char *arg,
			   struct sonde_time_arg *t, int *has)
{
	char err[512];

	if (sonde_time_arg_parse(t, arg, err, sizeof(err))) {
		cli_err(cmd, "--%s: %s", name, err);
		return -1;
	}
	*has = 1;
	return 0;
}

int filter_opt(const char *cmd, int opt, const char *arg, struct sonde_scan_opts *o)
{
	char err[512];
	int rc = 0;

	switch (opt) {
	case 'p':
		rc = sonde_filter_parse_pids(&o->filter, arg, err, sizeof(err));
		if (rc)
			cli_err(cmd, "-p: %s", err);
		break;
	case 'e':
		rc = filter_opt_expr(cmd, arg, o);
		break;
	case 'Z':
		o->filter.status = SONDE_STATUS_FAILED;
		break;
	case 'z':
		o->filter.status = SONDE_STATUS_SUCCESSFUL;
		break;
	case FOPT_EVENTS:
		rc = sonde_filter_parse_types(&o->filter, arg, err, sizeof(err));
		if (rc)
			cli_err(cmd, "--events: %s", err);
		break;
	case FOPT_NO_SCHED:
		rc = sonde_filter_parse_types(&o->filter, "!sched", err, sizeof(err));
		break;
	case FOPT_SINCE:
		rc = filter_opt_time(cmd, "since", arg, &o->since, &o->has_since);
		break;
	case FOPT_UNTIL:
		rc = filter_opt_time(cmd, "until", arg, &o->until, &o->has_until);
		break;
	default:
		return 0;
	}
	return rc ? -1 : 1;
}

struct sonde_reader *trace_open(const char *cmd, const char *path)
{
	struct sonde_reader *r;
	char err[512] = "";
	int rc = sonde_reader_open(&r, path, err, sizeof(err));

	if (rc) {
		cli_err(cmd, "cannot read %s: %s", path, err[0] ? err : strerror(-rc));
		return NULL;
	}
	if (sonde_reader_truncated(r))
		cli_err(cmd,
			"warning: %s is truncated (no footer: the recorder was "
			"killed or the disk filled up); showing every complete "
			"chunk",
			path);
	return r;
}

void trace_scan_report(const char *cmd, const char *path, const struct sonde_scan_stats *st,
		       uint64_t skipped)
{
	if (st->bad_chunks)
		cli_err(cmd,
			"warning: %s: %" PRIu64 " damaged chunk(s) skipped; "
			"the events in them are missing from this output",
			path, st->bad_chunks);
	if (skipped)
		cli_err(cmd,
			"note: %" PRIu64 " record(s) of types this sonde does "
			"not know, or malformed, were not shown",
			skipped);
}

FILE *output_open(const char *cmd, const char *path, const char *input)
{
	struct stat a, b;
	FILE *f;

	if (!path)
		return stdout;
	/* fopen "w" would empty the trace before it is read. */
	if (!stat(path, &a) && !stat(input, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
		cli_err(cmd, "-o %s is the trace being read; choose another output file", path);
		return NULL;
	}
	f = fopen(path, "w");
	if (!f)
		cli_err(cmd, "cannot create %s: %s", path, strerror(errno));
	return f;
}

int output_close(const char *cmd, const char *path, FILE *f, int render_rc)
{
	int bad = render_rc || fflush(f) || ferror(f);
	int err = errno;

	if (f != stdout && fclose(f) && !bad) {
		bad = 1;
		err = errno;
	}
	if (!bad)
		return 0;
	if (render_rc && render_rc != -EIO)
		err = -render_rc;
	cli_err(cmd, "writing %s failed: %s", path ? path : "standard output",
		strerror(err ? err : EIO));
	return -1;
}
