// SPDX-License-Identifier: GPL-2.0
/* strace's output options, parsed into struct sonde_strace_opts. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/strace/strace_int.h"

void sonde_strace_opts_init(struct sonde_strace_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->strsize = 32;
	o->acolumn = 40;
}

static int parse_uint(const char *v, unsigned int *out, unsigned int max)
{
	char *end;
	unsigned long n;

	if (!v || !*v)
		return -EINVAL;
	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || *end || n > max)
		return -EINVAL;
	*out = (unsigned int)n;
	return 0;
}

/* read=/write= sets: "all", "none", "3,4", "!3" (all but 3). */
static int parse_fdset(uint64_t *set, const char *v, char *err, size_t errlen)
{
	int neg = 0;
	char *dup, *tok, *save = NULL;

	memset(set, 0, SONDE_STRACE_MAX_DUMP_FD / 8);
	if (*v == '!') {
		neg = 1;
		v++;
	}
	dup = strdup(v);
	if (!dup)
		return -ENOMEM;
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned int fd;

		if (!strcmp(tok, "all")) {
			memset(set, 0xff, SONDE_STRACE_MAX_DUMP_FD / 8);
			continue;
		}
		if (!strcmp(tok, "none"))
			continue;
		if (parse_uint(tok, &fd, SONDE_STRACE_MAX_DUMP_FD - 1)) {
			snprintf(err, errlen, "invalid descriptor '%s' (0-%d, all or none)",
				 tok, SONDE_STRACE_MAX_DUMP_FD - 1);
			free(dup);
			return -EINVAL;
		}
		set[fd / 64] |= 1ULL << (fd % 64);
	}
	free(dup);
	if (neg)
		for (int i = 0; i < SONDE_STRACE_MAX_DUMP_FD / 64; i++)
			set[i] = ~set[i];
	return 0;
}

/* signal= sets: "all", "none", "SIGCHLD,USR1,10", "!SIGCHLD"; stored as
 * the signals hidden, bit N-1 for signal N. */
static int parse_sigset(uint64_t *hide, const char *v, char *err, size_t errlen)
{
	uint64_t show = 0;
	int neg = 0;
	char *dup, *tok, *save = NULL;

	if (*v == '!') {
		neg = 1;
		v++;
	}
	dup = strdup(v);
	if (!dup)
		return -ENOMEM;
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned int n;
		int sig;

		if (!strcmp(tok, "all")) {
			show = ~0ULL;
			continue;
		}
		if (!strcmp(tok, "none"))
			continue;
		sig = parse_uint(tok, &n, 64) ? sonde_signal_lookup(tok) : (int)n;
		if (sig < 1 || sig > 64) {
			snprintf(err, errlen, "-e signal=: invalid signal '%s'", tok);
			free(dup);
			return -EINVAL;
		}
		show |= 1ULL << (sig - 1);
	}
	free(dup);
	*hide = neg ? show : ~show;
	return 0;
}

static int opt_e(struct sonde_strace_opts *o, const char *v, char *err,
		 size_t errlen)
{
	const char *eq = strchr(v, '=');
	size_t klen = eq ? (size_t)(eq - v) : 0;
	const char *val = eq ? eq + 1 : v;

	if (!eq || (klen == 5 && !strncmp(v, "trace", 5)) ||
	    (klen == 1 && v[0] == 't')) {
		o->filter_on = 1;
		return sonde_sc_set_parse(&o->trace, val, err, errlen);
	}
	if ((klen == 4 && !strncmp(v, "read", 4)) || (klen == 1 && v[0] == 'r'))
		return parse_fdset(o->dump_read, val, err, errlen);
	if ((klen == 5 && !strncmp(v, "write", 5)) || (klen == 1 && v[0] == 'w'))
		return parse_fdset(o->dump_write, val, err, errlen);
	if (klen == 7 && !strncmp(v, "verbose", 7)) {
		o->verbose = strcmp(val, "none") != 0;
		return 0;
	}
	if (klen == 6 && !strncmp(v, "status", 6)) {
		if (!strcmp(val, "successful")) {
			o->only_ok = 1;
			return 0;
		}
		if (!strcmp(val, "failed")) {
			o->only_failed = 1;
			return 0;
		}
		if (!strcmp(val, "all"))
			return 0;
		snprintf(err, errlen, "-e status=%s: sonde knows successful, failed and all", val);
		return -EINVAL;
	}
	if (klen == 6 && !strncmp(v, "signal", 6))
		return parse_sigset(&o->sig_hide, val, err, errlen);
	if ((klen == 6 && !strncmp(v, "abbrev", 6)) ||
	    (klen == 5 && !strncmp(v, "quiet", 5)))
		return 0; /* accepted for compatibility: no effect on sonde's output */
	snprintf(err, errlen, "-e %.*s=: unknown qualifier (trace, read, write, verbose, status, signal)",
		 (int)klen, v);
	return -EINVAL;
}

int sonde_strace_opt(struct sonde_strace_opts *o, int letter,
		     const char *value, char *err, size_t errlen)
{
	switch (letter) {
	case 's':
		if (parse_uint(value, &o->strsize, 1u << 30)) {
			snprintf(err, errlen, "-s %s: expected a byte count", value ? value : "");
			return -EINVAL;
		}
		return 0;
	case 'a':
		if (parse_uint(value, &o->acolumn, 1024)) {
			snprintf(err, errlen, "-a %s: expected a column number", value ? value : "");
			return -EINVAL;
		}
		return 0;
	case 't': o->tstamp = o->tstamp < 3 ? o->tstamp + 1 : 3; return 0;
	case 'r': o->relative = 1; return 0;
	case 'T': o->show_time = 1; return 0;
	case 'v': o->verbose = 1; return 0;
	case 'y': o->decode_fds = o->decode_fds ? 2 : 1; return 0;
	case 'z': o->only_ok = 1; return 0;
	case 'Z': o->only_failed = 1; return 0;
	case 'x': o->xstr = o->xstr < 2 ? o->xstr + 1 : 2; return 0;
	case 'q': o->quiet++; return 0;
	case 'X':
		if (value && !strcmp(value, "raw"))
			o->xlat = SONDE_XLAT_RAW;
		else if (value && !strcmp(value, "abbrev"))
			o->xlat = SONDE_XLAT_ABBREV;
		else if (value && !strcmp(value, "verbose"))
			o->xlat = SONDE_XLAT_VERBOSE;
		else {
			snprintf(err, errlen, "-X %s: expected raw, abbrev or verbose",
				 value ? value : "");
			return -EINVAL;
		}
		return 0;
	case 'e':
		if (!value) {
			snprintf(err, errlen, "-e needs an expression");
			return -EINVAL;
		}
		return opt_e(o, value, err, errlen);
	}
	snprintf(err, errlen, "-%c: not a strace output option", letter);
	return -EINVAL;
}
