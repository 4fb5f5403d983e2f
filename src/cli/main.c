// SPDX-License-Identifier: GPL-2.0
/* sonde: git/perf-style dispatcher. The commands themselves are thin layers
 * over libsonde, one file each. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static const struct sonde_cmd *const commands[] = {
	&cmd_record,
	&cmd_print,
	&cmd_stat,
	&cmd_strace,
	&cmd_script,
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

void cli_err(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "sonde %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_bad_option(const char *cmd, char **argv, int opt)
{
	const char *arg = argv[optind - 1];
	/* getopt sets optopt to a long option's val too, which is no letter
	 * for the long-only ones: those are named as typed. */
	int letter = optopt > ' ' && optopt < 127;

	if (opt == ':' && letter)
		cli_err(cmd, "option -%c needs an argument", optopt);
	else if (opt == ':')
		cli_err(cmd, "option %s needs an argument", arg);
	else if (letter)
		cli_err(cmd, "unknown option -%c; 'sonde help %s' lists them", optopt, cmd);
	else
		cli_err(cmd, "unknown option '%s'; 'sonde help %s' lists them", arg, cmd);
}

/* A byte count with an optional K/M/G suffix (and B or iB); -1 if not. */
int cli_parse_bytes(const char *arg, unsigned long long *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || *arg == '-' || v > (1ull << 40))
		return -1;
	switch (*end) {
	case 'G': case 'g': v <<= 10; /* fall through */
	case 'M': case 'm': v <<= 10; /* fall through */
	case 'K': case 'k': v <<= 10; end++; break;
	}
	if (*end && strcmp(end, "B") && strcmp(end, "iB"))
		return -1;
	*out = v;
	return 0;
}

static const struct sonde_cmd *cmd_find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

static void usage_all(FILE *f)
{
	fprintf(f, "usage: sonde COMMAND [ARGS...]\n\n"
		   "Trace an application from the kernel up into its own code.\n\n"
		   "Commands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(f, "\nRun 'sonde help COMMAND' or 'man sonde-COMMAND' for details.\n");
}

static int cmd_help(int argc, char **argv)
{
	const struct sonde_cmd *c;

	if (argc < 2) {
		usage_all(stdout);
		return 0;
	}
	c = cmd_find(argv[1]);
	if (!c) {
		fprintf(stderr, "sonde help: no command '%s'; 'sonde help' lists them\n",
			argv[1]);
		return 2;
	}
	fputs(c->usage, stdout);
	return 0;
}

int main(int argc, char **argv)
{
	const struct sonde_cmd *c;

	if (argc < 2) {
		usage_all(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "-h"))
		return cmd_help(argc - 1, argv + 1);
	if (!strcmp(argv[1], "--version")) {
		printf("sonde %s\n", SONDE_VERSION);
		return 0;
	}
	c = cmd_find(argv[1]);
	if (!c) {
		fprintf(stderr, "sonde: '%s' is not a sonde command; 'sonde help' lists them\n",
			argv[1]);
		return 2;
	}
	if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
		fputs(c->usage, stdout);
		return 0;
	}
	return c->run(argc - 1, argv + 1);
}
