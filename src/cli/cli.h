/* SPDX-License-Identifier: GPL-2.0 */
/* sonde subcommands. Each lives in src/cli/cmd_NAME.c and is listed in the
 * table in main.c. */
#ifndef SONDE_CLI_H
#define SONDE_CLI_H

struct sonde_cmd {
	const char *name;
	const char *summary; /* one line for `sonde help` */
	const char *usage;   /* full text for `sonde help NAME` / --help */
	int (*run)(int argc, char **argv); /* argv[0] is the command name */
};

extern const struct sonde_cmd cmd_record;
extern const struct sonde_cmd cmd_print;
extern const struct sonde_cmd cmd_stat;
extern const struct sonde_cmd cmd_script;

/* Prints "sonde CMD: message" to stderr (printf-style). */
void cli_err(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
