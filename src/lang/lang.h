/* SPDX-License-Identifier: GPL-2.0 */
/* The sonde language: public entry point used by `sonde script`. */
#ifndef SONDE_LANG_LANG_H
#define SONDE_LANG_LANG_H

#include <stdio.h>

struct lang_opts {
	const char *src;      /* program text */
	const char *src_name; /* file name for diagnostics, NULL: command line */
	int argc;	      /* macro arguments $1... */
	char **argv;
	long target;	       /* $target, -1 when unset */
	const char *cmd;       /* -c: command line to run and trace */
	char target_exe[4096]; /* -c: the executable, for pid$target:a.out */
	int list;	       /* -l: list matching probes */
	int dump;	       /* -S: dump AST, types, BPF */
	int verbose;	       /* -v: verifier log on failure */
	int json;	       /* --json: NDJSON output */
	FILE *out;	       /* -o */
	const char *offline;   /* -r TRACE.sonde */
	/* -x options (and #pragma D option) */
	long strsize, bufsize, aggsize, dynvarsize, nspec;
	int no_fs; /* lang_check: no provider may open files */
};

/* Sets the defaults of every option. */
void lang_opts_init(struct lang_opts *o);
/* Applies "NAME=VALUE"; 0 or -1 with a message in err. */
int lang_opt_set(struct lang_opts *o, const char *nv, char *err, size_t errlen);
/* Compiles and runs the program; returns the process exit status. */
int lang_run(struct lang_opts *o);
/* Parses, type-checks and generates code (register allocation included)
 * without touching the kernel or files other than BTF: for the fuzzer and
 * unit tests. Returns 0, or -1 with the diagnostic in err. */
int lang_check(const char *src, char *err, size_t errlen);

#endif
