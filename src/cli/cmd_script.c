// SPDX-License-Identifier: GPL-2.0
/* sonde script: D-style probe scripts compiled in-process to BPF
 * (src/lang/). This file only parses the command line. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "lang/lang.h"

static const char usage[] =
	"usage: sonde script [OPTIONS] 'PROGRAM' [ARG...]\n"
	"       sonde script [OPTIONS] -s FILE.d [ARG...]\n"
	"\n"
	"Runs a D-style probe program: clauses 'probe /predicate/ { actions }'.\n"
	"The program is compiled in-process to BPF; no compiler runs.\n"
	"\n"
	"Options:\n"
	"  -s FILE     read the program from FILE (also works as a #! interpreter)\n"
	"  -c CMD      run CMD, set $target to its pid, trace until it exits\n"
	"  -p PID      set $target to PID and trace until it exits\n"
	"  -o FILE     write output to FILE\n"
	"  -r TRACE    evaluate the program over a recorded trace (sonde record)\n"
	"  -l          list the probes the descriptions match, then exit\n"
	"  -S          dump the AST, types, maps and annotated BPF, then exit\n"
	"  -v          print the full verifier log when the kernel rejects the code\n"
	"  -q          quiet: only what the program prints, no CPU/ID/FUNCTION:NAME lines\n"
	"  -x OPT=VAL  strsize=128 bufsize=262144 aggsize=4096 dynvarsize=4096 nspec=1\n"
	"  --json      NDJSON output: printf, trace, aggregation and drops records\n"
	"\n"
	"Macro arguments after the program are $1, $2... ($$1 as a string).\n"
	"Examples:\n"
	"  sonde script 'syscall:::entry { @[execname] = count(); } tick-5s { exit(0); }'\n"
	"  sonde script -c ls 'syscall::openat:entry /pid == $target/ { printf(\"%s\\n\", "
	"copyinstr(arg1)); }'\n"
	"  sonde script 'syscall::read:return { @ = quantize(arg0); }'\n"
	"See docs/lang.md and sonde-script(1).\n";

static char *read_file(const char *path, char *err, size_t errlen)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "re") : stdin;
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	do {
		if (len + 4096 + 1 > cap) {
			cap = cap ? 2 * cap : 8192;
			if (cap > (16u << 20)) {
				snprintf(err, errlen, "%s: script larger than 16 MiB", path);
				free(buf);
				buf = NULL;
				break;
			}
			buf = realloc(buf, cap);
		}
		n = fread(buf + len, 1, 4096, f);
		len += n;
	} while (n > 0);
	/* fopen() succeeds on a directory; reading it fails with EISDIR */
	if (buf && ferror(f)) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		free(buf);
		buf = NULL;
	}
	if (f != stdin)
		fclose(f);
	if (buf)
		buf[len] = 0;
	if (buf && strlen(buf) != len) {
		snprintf(err, errlen, "%s: the script contains NUL bytes", path);
		free(buf);
		return NULL;
	}
	return buf;
}

static int run(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct lang_opts o;
	const char *file = NULL, *outpath = NULL;
	char *src = NULL, err[256];
	int c, ret;

	lang_opts_init(&o);
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:s:c:p:o:r:lSvx:qh", lopts, NULL)) != -1) {
		switch (c) {
		case 's':
			file = optarg;
			break;
		case 'c':
			o.cmd = optarg;
			break;
		case 'p': {
			char *e;

			o.target = strtol(optarg, &e, 10);
			if (*e || o.target <= 0) {
				cli_err("script", "-p needs a process id, not '%s'", optarg);
				return 2;
			}
			if (kill((pid_t)o.target, 0) && errno == ESRCH) {
				cli_err("script", "-p %ld: no such process", o.target);
				return 2;
			}
			break;
		}
		case 'o':
			outpath = optarg;
			break;
		case 'r':
			o.offline = optarg;
			break;
		case 'l':
			o.list = 1;
			break;
		case 'S':
			o.dump = 1;
			break;
		case 'v':
			o.verbose = 1;
			break;
		case 'q':
			o.quiet = 1;
			break;
		case 'x':
			if (lang_opt_set(&o, optarg, err, sizeof(err))) {
				cli_err("script", "%s", err);
				return 2;
			}
			break;
		case 'J':
			o.json = 1;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			cli_bad_option("script", argv, c);
			return 2;
		}
	}
	if (file) {
		src = read_file(file, err, sizeof(err));
		if (!src) {
			cli_err("script", "%s", err);
			return 2;
		}
		o.src_name = file;
	} else if (optind < argc) {
		src = strdup(argv[optind++]);
	} else {
		cli_err("script", "no program: give 'PROGRAM' or -s FILE (sonde help script)");
		return 2;
	}
	o.src = src;
	o.argc = argc - optind;
	o.argv = argv + optind;
	if (geteuid() != 0 && !o.list && !o.dump && !o.offline) {
		cli_err("script", "loading BPF programs needs root (or CAP_BPF and CAP_PERFMON): "
				  "run it with sudo");
		free(src);
		return 1;
	}
	if (outpath) {
		o.out = fopen(outpath, "we");
		if (!o.out) {
			cli_err("script", "cannot write %s: %s", outpath, strerror(errno));
			free(src);
			return 2;
		}
	}
	ret = lang_run(&o);
	if (o.out != stdout && fclose(o.out)) {
		cli_err("script", "writing %s failed: %s", outpath, strerror(errno));
		ret = 1;
	}
	free(src);
	return ret;
}

const struct sonde_cmd cmd_script = {
	.name = "script",
	.summary = "run a D-style probe script compiled to BPF",
	.usage = usage,
	.run = run,
};
