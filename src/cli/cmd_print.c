// SPDX-License-Identifier: GPL-2.0
/*
 * sonde print: one line per event of a trace, in time order, through one
 * of the renderers of src/decode/render.c (text, flight, json). A new
 * output format is a new renderer there: this file only maps options.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sonde/analysis.h>
#include <sonde/format.h>
#include <sonde/render.h>
#include <sonde/strace.h>

#include "cli/cli.h"
#include "cli/filter_opts.h"

#define PRINT_USAGE                                                                           \
	"usage: sonde print [options] FILE\n"                                                 \
	"\n"                                                                                  \
	"Print the events of a trace recorded by 'sonde record', one line per\n"              \
	"event in time order: syscalls as strace prints them, arguments decoded\n"            \
	"(flags, structs, strings and buffers from the memory the trace captured,\n"          \
	"the address where it captured none; raw hex for syscalls without a\n"                \
	"decoder), scheduler and process events as --- ... --- and +++ ... +++\n"             \
	"lines.\n"                                                                            \
	"\n"                                                                                  \
	"Output:\n"                                                                           \
	"      --format=FMT        text (default), flight (hh:mm:ss.uuuuuu #CPU PID\n"        \
	"                          event, as the kernel flight recorder), json\n"             \
	"      --json              NDJSON, one object per event (= --format=json);\n"         \
	"                          decoded syscalls carry \"argv\", their arguments\n"        \
	"                          by name: {\"pathname\":\"/x\",\"flags\":[\"O_RDONLY\"]}\n" \
	"      --payload=ENC       json: each call's captured memory in \"payload\"\n"        \
	"                          (lengths, unreadable, the bytes); ENC is hex or\n"         \
	"                          base64\n"                                                  \
	"      --strace            exactly as strace -f -o prints the calls (with\n"          \
	"                          strace's +++ lines, no scheduler events)\n"                \
	"      --raw               text: raw hex arguments for every syscall\n"               \
	"  -s N                    bytes of strings and buffers shown (text: 32, as\n"        \
	"                          strace; json: every captured byte)\n"                      \
	"  -v                      text: structs and arrays in full (strace -v)\n"            \
	"  -X raw|abbrev|verbose   text: constants as numbers, names (default) or\n"          \
	"                          both, as strace -X\n"                                      \
	"  -x, -xx                 text: non-ASCII strings (-xx: all) in hex\n"               \
	"  -y                      text, --strace: descriptors with what they refer\n"      \
	"                          to, 3</etc/passwd>, 4<socket:[1234]> (strace -y);\n"    \
	"                          --json: \"fd_paths\", {\"4\":\"socket:[1234]\"};\n"  \
	"                          -yy: sockets by endpoints, TCP:[1.2.3.4:80]\n"            \
	"      --decode-fds SET    what -y shows, as strace: path socket dev pidfd\n"      \
	"                          all none (-y is path, -yy all)\n"                         \
	"  -T                      --strace: show durations <0.000012> (text\n"               \
	"                          shows them unless --no-dur)\n"                             \
	"  -P PATH                 --strace: only calls that access PATH, by a path\n"       \
	"                          argument or a descriptor referring to it, as\n"           \
	"                          strace -P (repeatable; PATH and its realpath here)\n"    \
	"  -e signal=SET           --strace: signals shown (--- SIG ---, +++ killed\n"       \
	"                          by +++): names, numbers, all, none, ! negates\n"          \
	"  -q, -qq, -qqq           --strace: -qq drops +++ exited lines; -e quiet=SET\n"      \
	"                          as strace (quiet=path-resolution: no -P notes)\n"        \
	"  -n                      --strace: syscall numbers, [ 257] openat(...)\n"         \
	"  -i                      --strace: each call's instruction pointer, as strace\n"   \
	"                          -i (a trace recorded with sonde record --ip)\n"           \
	"  -k                      --strace, --json: each call's stack, as strace -k\n"     \
	"                          (a trace recorded with sonde record --user-stack)\n"     \
	"  -Y, --decode-pids=comm  --strace: command names after pids, 1234<sh>\n"        \
	"      --decode-pids=pidns --strace: a containerised tracee's pids followed by\n"   \
	"                          the host's, 1 /* 4242 in strace's PID NS */\n"          \
	"                          (strace -Y; names the trace knows)\n"                  \
	"  -e raw=SET              --strace: SET's arguments and results in hex\n"          \
	"  -e read=FDS, write=FDS  --strace: hexdumps of the data read, written\n"          \
	"  -o, --output FILE       write to FILE instead of standard output\n"                \
	"  -t, -tt, -ttt           text: prefix wall-clock time (hh:mm:ss,\n"                 \
	"                          hh:mm:ss.us, seconds.us since the epoch)\n"                \
	"  -r                      text: prefix seconds since the previous line\n"            \
	"      --relative          text: prefix seconds since the first event\n"              \
	"      --no-dur            text: leave out the <duration> of syscalls\n"              \
	"      --utc               wall-clock times in UTC instead of local time\n"           \
	"\n"                                                                                  \
	"Filters (syscall filters leave other events alone; drop those with\n"                \
	"--events or --no-sched):\n" FILTER_USAGE "\n"                                        \
	"A truncated file (recorder killed, disk full) or damaged chunks give a\n"            \
	"warning on standard error and everything readable is printed (exit\n"                \
	"status 0). A file that is not a readable sonde trace is an error (exit\n"            \
	"status 1); bad options exit with status 2.\n"                                        \
	"\n"                                                                                  \
	"See sonde-print(1) for the line formats and the JSON fields.\n"

enum {
	OPT_FORMAT = FOPT_FIRST_FREE,
	OPT_JSON,
	OPT_RELATIVE,
	OPT_NO_DUR,
	OPT_UTC,
	OPT_STRACE,
	OPT_RAW,
	OPT_PAYLOAD,
	OPT_SIGNAL,
	OPT_DECODE_FDS,
	OPT_DECODE_PIDS,
};

static const struct option print_longopts[] = {
	FILTER_LONGOPTS,
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "output", required_argument, NULL, 'o' },
	{ "relative", no_argument, NULL, OPT_RELATIVE },
	{ "no-dur", no_argument, NULL, OPT_NO_DUR },
	{ "utc", no_argument, NULL, OPT_UTC },
	{ "strace", no_argument, NULL, OPT_STRACE },
	{ "raw", no_argument, NULL, OPT_RAW },
	{ "payload", required_argument, NULL, OPT_PAYLOAD },
	{ "signal", required_argument, NULL, OPT_SIGNAL },
	{ "decode-fds", required_argument, NULL, OPT_DECODE_FDS },
	{ "decode-pids", required_argument, NULL, OPT_DECODE_PIDS },
	{ "trace-path", required_argument, NULL, 'P' },
	{ 0 },
};

struct print_args {
	const char *format;
	const char *output;
	const char *file;
	struct sonde_render_opts ropts;
	struct sonde_scan_opts scan;
	int nt; /* number of -t */
	int strace;
	int strsize_set, no_strace_opt; /* -s given; an option --strace lacks */
	struct sonde_strace_opts so; /* --strace; -X, -x for every format */
	int fdpaths; /* -y: 1, -yy: 2 */
	const char *strace_only; /* an option only --strace has */
};

/* Names the formats the renderer table has, so a new renderer shows up
 * here without an edit. */
static void print_bad_format(const char *name)
{
	const struct sonde_renderer *const *r = sonde_renderers();
	char list[256] = "";

	for (size_t i = 0; r[i]; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
			 r[i]->name);
	cli_err("print", "unknown --format '%s': use one of %s", name, list);
}

static int print_strsize(const char *arg, unsigned int *v)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-' || n == 0 || n > UINT32_MAX) {
		cli_err("print", "bad -s '%s': give the number of bytes to show (1 or more)", arg);
		return -1;
	}
	*v = (unsigned int)n;
	return 0;
}

/*
 * The strace options in both outputs: --strace takes them all; the other
 * formats -X and -x (and -s, -v, -t..., -r of their own; -y: text, --json).
 */
static int print_opts_finish(struct print_args *a)
{
	static const char *const names[] = {
		[OPT_RELATIVE] = "--relative", [OPT_NO_DUR] = "--no-dur", [OPT_RAW] = "--raw"
	};

	if (a->strace && a->no_strace_opt) {
		cli_err("print", "%s does not apply to --strace (strace has no such option)",
			names[a->no_strace_opt]);
		return -1;
	}
	if (!a->strace && a->strace_only) {
		cli_err("print", "%s is for --strace (strace's text output)", a->strace_only);
		return -1;
	}
	if (a->so.stack_trace && !a->strace && strcmp(a->format, "json")) {
		cli_err("print", "-k (each call's stack) is for --strace and --json");
		return -1;
	}
	a->ropts.stack = a->so.stack_trace;
	if (!a->strace && a->so.show_time) {
		cli_err("print", "-T is for --strace: text shows durations unless --no-dur");
		return -1;
	}
	a->ropts.xlat = a->so.xlat;
	a->ropts.xstr = a->so.xstr;
	a->so.verbose = (uint8_t)a->ropts.verbose;
	if (a->strsize_set)
		a->so.strsize = a->ropts.strsize;
	a->so.tstamp = (uint8_t)(a->nt > 3 ? 3 : a->nt);
	a->so.relative = a->ropts.ts == SONDE_TS_DELTA;
	a->so.decode_fds = (uint8_t)a->fdpaths;
	return 0;
}

/* -e signal=, quiet=, raw=, read=, write=, abbrev=, verbose=, decode-fds=,
 * decode-pids= (and their strace aliases): --strace's, not a filter. A bare
 * set is trace='s; trace= and status= are filters, kvm= and inject= are
 * refused by filter_opt. */
static int print_strace_expr(const char *v)
{
	int q = sonde_strace_qual(v);

	return q >= 0 && q != SONDE_Q_TRACE && q != SONDE_Q_STATUS && q != SONDE_Q_KVM &&
	       q != SONDE_Q_INJECT;
}

/* -P, -q, -n, -e signal=/quiet=/raw=, --signal=: strace options of --strace;
 * --decode-fds (-e decode-fds=), which -y's level follows. */
static int print_strace_opt(struct print_args *a, int opt, const char *v)
{
	char err[256], *e = NULL;
	int rc;

	if ((opt == OPT_SIGNAL || opt == OPT_DECODE_FDS || opt == OPT_DECODE_PIDS) &&
	    asprintf(&e, "%s=%s",
		     opt == OPT_SIGNAL ? "signal" : opt == OPT_DECODE_FDS ? "decode-fds" : "decode-pids",
		     v) < 0) {
		cli_err("print", "out of memory");
		return -1;
	}
	rc = sonde_strace_opt(&a->so, e ? 'e' : opt, e ? e : v, err, sizeof(err));
	free(e);
	if (rc) {
		cli_err("print", "%s", err);
		return -1;
	}
	/* --decode-fds is -y's: every format has it */
	if (opt == OPT_DECODE_FDS || (opt == 'e' && sonde_strace_qual(v) == SONDE_Q_DECODE_FDS))
		return 0;
	a->strace_only = opt == 'P'	    ? "-P"
			 : opt == 'q'	    ? "-q"
			 : opt == 'n'	    ? "-n"
			 : opt == 'i'	    ? "-i"
			 : opt == 'Y' || opt == OPT_DECODE_PIDS ? "-Y"
			 : opt == OPT_SIGNAL ? "--signal"
					     : "-e signal=/quiet=/raw=/read=/write=/abbrev=/verbose=";
	return 0;
}

/* -1: error, already reported. */
static int print_parse(int argc, char **argv, struct print_args *a)
{
	char err[256];
	int opt, rc;

	a->format = "text";
	sonde_scan_opts_init(&a->scan);
	sonde_strace_opts_init(&a->so);
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, FILTER_SHORTOPTS "o:trs:vX:xyTP:qnikY", print_longopts,
				  NULL)) != -1) {
		if (opt == 'P' || opt == 'q' || opt == 'n' || opt == 'i' || opt == 'Y' || opt == OPT_SIGNAL ||
		    opt == OPT_DECODE_FDS || opt == OPT_DECODE_PIDS || (opt == 'e' && print_strace_expr(optarg))) {
			if (print_strace_opt(a, opt, optarg))
				return -1;
			continue;
		}
		rc = filter_opt("print", opt, optarg, &a->scan);
		if (rc < 0)
			return -1;
		if (rc)
			continue;
		switch (opt) {
		case OPT_FORMAT:
			if (!sonde_renderer_find(optarg)) {
				print_bad_format(optarg);
				return -1;
			}
			a->format = optarg;
			break;
		case OPT_JSON:
			a->format = "json";
			break;
		case 'o':
			a->output = optarg;
			break;
		case 't':
			a->nt++;
			break;
		case 'r':
			a->ropts.ts = SONDE_TS_DELTA;
			break;
		case OPT_RELATIVE:
			a->ropts.ts = SONDE_TS_START;
			a->no_strace_opt = OPT_RELATIVE;
			break;
		case OPT_NO_DUR:
			a->ropts.no_dur = 1;
			a->no_strace_opt = OPT_NO_DUR;
			break;
		case OPT_UTC:
			a->ropts.utc = 1;
			break;
		case OPT_STRACE:
			a->strace = 1;
			break;
		case OPT_RAW:
			a->ropts.raw = 1;
			a->no_strace_opt = OPT_RAW;
			break;
		case 'v':
			a->ropts.verbose = 1;
			break;
		case 'k':
			a->so.stack_trace = 1;
			break;
		case 'y':
			a->fdpaths = a->fdpaths ? 2 : 1; /* -yy: socket endpoints */
			break;
		case 's':
			if (print_strsize(optarg, &a->ropts.strsize))
				return -1;
			a->strsize_set = 1;
			break;
		case 'X':
		case 'x':
		case 'T':
			if (sonde_strace_opt(&a->so, opt, opt == 'X' ? optarg : NULL, err,
					     sizeof(err))) {
				cli_err("print", "%s", err);
				return -1;
			}
			break;
		case OPT_PAYLOAD:
			if (!strcmp(optarg, "hex")) {
				a->ropts.payload = SONDE_PAYLOAD_HEX;
			} else if (!strcmp(optarg, "base64")) {
				a->ropts.payload = SONDE_PAYLOAD_BASE64;
			} else {
				cli_err("print", "unknown --payload '%s': use hex or base64",
					optarg);
				return -1;
			}
			break;
		default:
			cli_bad_option("print", argv, opt);
			return -1;
		}
	}
	if (a->nt)
		a->ropts.ts = a->nt == 1   ? SONDE_TS_TOD
			      : a->nt == 2 ? SONDE_TS_TOD_US
					   : SONDE_TS_EPOCH;
	if (optind == argc) {
		cli_err("print", "no trace file given; usage: sonde print "
				 "[options] FILE");
		return -1;
	}
	if (optind != argc - 1) {
		cli_err("print",
			"more than one trace file given ('%s', '%s'); "
			"print takes one FILE",
			argv[optind], argv[optind + 1]);
		return -1;
	}
	if (a->ropts.payload && (a->strace || strcmp(a->format, "json"))) {
		cli_err("print",
			"--payload needs --json (the %s output has no place for "
			"the bytes; print --strace -e read=/write= style dumps are "
			"'sonde strace -e read=FD')",
			a->strace ? "--strace" : a->format);
		return -1;
	}
	if (a->so.fd_kinds & SONDE_FD_GIVEN) {
		/* --decode-fds: its level of -y */
		if (a->fdpaths) {
			cli_err("print", "-y and --decode-fds cannot be given together");
			return -1;
		}
		a->fdpaths = a->so.decode_fds;
	}
	a->ropts.fd_paths = a->fdpaths;
	if (a->fdpaths && !a->strace && strcmp(a->format, "json") && strcmp(a->format, "text")) {
		cli_err("print", "-y needs text, --strace or --json (the %s output does not show "
				 "descriptor paths)", a->format);
		return -1;
	}
	a->file = argv[optind];
	return print_opts_finish(a);
}

static void print_warn(void *ctx, const char *msg)
{
	cli_err("print", "warning: %s: %s", (const char *)ctx, msg);
}

struct print_ctx {
	struct sonde_render *render;
	const struct sonde_scan_stats *st;
	int rc;
};

static int print_one(void *ctx, const struct sonde_hdr *rec)
{
	struct print_ctx *p = ctx;

	/* Relative times count from the trace's first event, even when
	 * filters hide it. */
	if (!p->render->started)
		sonde_render_set_origin(p->render, p->st->first_ts);
	p->rc = sonde_render_record(p->render, rec);
	/* A write error (disk full, closed pipe) ends the scan. */
	return p->rc;
}

static int print_run(int argc, char **argv)
{
	struct print_args a = { 0 };
	struct print_ctx p = { 0 };
	struct sonde_scan_stats st;
	struct sonde_reader *r;
	struct sonde_scan_opts scan;
	struct sonde_filter shown;
	uint64_t skipped;
	FILE *out;
	int rc;

	if (print_parse(argc, argv, &a)) {
		sonde_strace_opts_release(&a.so);
		return 2;
	}
	r = trace_open("print", a.file);
	if (!r) {
		sonde_strace_opts_release(&a.so);
		return 1;
	}
	out = output_open("print", a.output, a.file);
	if (!out) {
		sonde_strace_opts_release(&a.so);
		sonde_reader_close(r);
		return 1;
	}
	if (a.strace) {
		/* The strace decoders (src/cli/cmd_strace.c) instead of a renderer. */
		strace_report_paths(&a.so, "print");
		rc = strace_print_scan(r, &a.scan, &a.so, out, a.file);
		rc = output_close("print", a.output, out, rc);
		sonde_strace_opts_release(&a.so);
		sonde_reader_close(r);
		return rc ? 1 : 0;
	}
	if (a.fdpaths && (a.scan.filter.has_sc || a.scan.filter.status != SONDE_STATUS_ANY)) {
		/* -y names descriptors from every call: the renderer sees them
		 * all and applies -e trace=, -z and -Z itself, as strace. */
		sonde_filter_init(&shown);
		shown.has_sc = a.scan.filter.has_sc;
		shown.sc = a.scan.filter.sc;
		shown.status = a.scan.filter.status;
		a.scan.filter.has_sc = 0;
		a.scan.filter.status = SONDE_STATUS_ANY;
		a.ropts.shown = &shown;
	}
	rc = sonde_render_open(&p.render, a.format, out, sonde_reader_meta(r), &a.ropts);
	if (rc) {
		cli_err("print", "cannot start the %s renderer: %s", a.format, strerror(-rc));
		output_close("print", a.output, out, 0);
		sonde_reader_close(r);
		return 1;
	}
	scan = a.scan;
	scan.fn = print_one;
	scan.ctx = &p;
	scan.tasks = p.render->tasks;
	p.st = &st;
	scan.warn = print_warn;
	scan.warn_ctx = (void *)a.file;
	sonde_scan(r, &scan, &st);
	rc = sonde_render_flush(p.render);
	if (rc && !p.rc)
		p.rc = rc;
	skipped = p.render->skipped;
	rc = sonde_render_close(p.render);
	if (!rc)
		rc = p.rc;
	rc = output_close("print", a.output, out, rc);
	trace_scan_report("print", a.file, &st, skipped);
	sonde_reader_close(r);
	return rc ? 1 : 0;
}

const struct sonde_cmd cmd_print = {
	.name = "print",
	.summary = "print the events of a trace (text, flight recorder, JSON)",
	.usage = PRINT_USAGE,
	.run = print_run,
};
