// SPDX-License-Identifier: GPL-2.0
/*
 * strace's text for `sonde print --strace` (a trace file), and what it
 * shares with `sonde strace`: -P's notes on standard error.
 */
#include <errno.h>
#include <stdio.h>

#include <sonde/analysis.h>
#include <sonde/format.h>
#include <sonde/strace.h>
#include "cli/cli.h"

/*
 * strace's note for each -P path that realpath(3) turned into another.
 * strace 6.1 resolves the paths before it turns -q, -qq, -qqq into quiet
 * elements: only -e quiet= silences the note (-qqq does not), checked
 * against it (tests/integration/strace_opts.sh).
 */
void strace_report_paths(const struct sonde_strace_opts *so, const char *cmd)
{
	const struct sonde_strace_paths *ps = so->paths;

	if (!ps || (so->quiet_set & SONDE_QUIET_PATH_RESOLVE))
		return;
	for (unsigned int i = 0; i < ps->n; i++)
		if (ps->p[i].from >= 0)
			fprintf(stderr, "sonde %s: Requested path \"%s\" resolved into \"%s\"\n", cmd,
				ps->p[ps->p[i].from].path, ps->p[i].path);
}

static int print_feed(void *ctx, const struct sonde_hdr *rec)
{
	int e = sonde_strace_feed(ctx, rec);

	return e == -EIO ? e : 0;
}

int strace_print_scan(struct sonde_reader *r, struct sonde_scan_opts *scan,
		      const struct sonde_strace_opts *so, FILE *out, const char *file)
{
	const struct sonde_meta *m = sonde_reader_meta(r);
	struct sonde_strace_opts o = *so;
	struct sonde_scan_stats stats;
	struct sonde_strace *st;
	int e;

	o.pid_prefix = 1;
	o.resolve_links = sonde_meta_this_host(m);
	if (o.decode_fds || o.paths || o.show_nr || o.show_ip || o.decode_pids || o.pidns) {
		/* -y and -P name descriptors from every call, -n numbers a
		 * task's lines with its last call (-i: a signal's line with
		 * the address of that call), -Y's names change with
		 * execve and prctl and end with the calls that reap: the
		 * renderer sees them all and applies -e trace=, -z and -Z
		 * itself, as strace. */
		o.filter_on = (uint8_t)scan->filter.has_sc;
		o.trace = scan->filter.sc;
		o.status = scan->filter.status;
		scan->filter.has_sc = 0;
		scan->filter.status = SONDE_STATUS_ANY;
	}
	o.wall_offset_ns = (int64_t)(m->wall_ref_ns - m->mono_ref_ns);
	st = sonde_strace_new(&o, out);
	if (!st)
		return -ENOMEM;
	scan->fn = print_feed;
	scan->ctx = st;
	e = sonde_scan(r, scan, &stats);
	if (!e)
		e = sonde_strace_flush(st);
	if (stats.bad_chunks)
		cli_err("print", "warning: %s: %llu damaged chunks skipped", file,
			(unsigned long long)stats.bad_chunks);
	if (!e && sonde_strace_lines_noip(st))
		cli_err("print",
			"warning: %s: %llu calls without an instruction pointer "
			"(-i prints ?s): record with 'sonde record --ip'",
			file, (unsigned long long)sonde_strace_lines_noip(st));
	if (!e && sonde_strace_lines_nostack(st))
		cli_err("print",
			"warning: %s: %llu calls without a stack (-k prints none): record with "
			"'sonde record --user-stack' (i386 calls have none)",
			file, (unsigned long long)sonde_strace_lines_nostack(st));
	sonde_strace_free(st);
	return e;
}
