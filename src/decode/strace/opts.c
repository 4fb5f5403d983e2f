// SPDX-License-Identifier: GPL-2.0
/* strace's output options, parsed into struct sonde_strace_opts. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sonde/analysis.h>

#include "decode/strace/strace_int.h"

#define STATUS_ALL                                                                  \
	(SONDE_STATUS_SUCCESSFUL | SONDE_STATUS_FAILED | SONDE_STATUS_UNFINISHED |  \
	 SONDE_STATUS_UNAVAILABLE | SONDE_STATUS_DETACHED)

void sonde_strace_opts_init(struct sonde_strace_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->strsize = 32;
	o->acolumn = 40;
	o->rel_digits = 6;
	o->dur_digits = 6;
}

void sonde_strace_opts_release(struct sonde_strace_opts *o)
{
	struct sonde_strace_paths *ps = o->paths;

	sonde_inject_free(&o->inject);
	if (!ps)
		return;
	for (unsigned int i = 0; i < ps->n; i++)
		free(ps->p[i].path);
	free(ps->p);
	free(ps);
	o->paths = NULL;
}

/* Adds path to -P's set unless it is there already (strace's storepath):
 * 0, 1 when it was there, -ENOMEM. path is taken over on success. */
static int paths_store(struct sonde_strace_paths *ps, char *path, int from)
{
	for (unsigned int i = 0; i < ps->n; i++)
		if (!strcmp(ps->p[i].path, path))
			return 1;
	if (ps->n == ps->cap) {
		unsigned int cap = ps->cap ? 2 * ps->cap : 4;
		struct sonde_strace_path *p = realloc(ps->p, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		ps->p = p;
		ps->cap = cap;
	}
	ps->p[ps->n].path = path;
	ps->p[ps->n++].from = from;
	return 0;
}

/* -P PATH: the path as given, and what realpath(3) makes of it here. */
static int opt_path(struct sonde_strace_opts *o, const char *v, char *err, size_t errlen)
{
	char *dup, *real;
	int e, at;

	if (!v || !*v) {
		snprintf(err, errlen, "-P needs a path");
		return -EINVAL;
	}
	if (!o->paths && !(o->paths = calloc(1, sizeof(*o->paths))))
		goto oom;
	dup = strdup(v);
	if (!dup)
		goto oom;
	at = (int)o->paths->n;
	e = paths_store(o->paths, dup, -1);
	if (e) {
		free(dup);
		if (e < 0)
			goto oom;
		return 0;
	}
	real = realpath(v, NULL);
	if (!real || !strcmp(real, v)) {
		free(real);
		return 0;
	}
	e = paths_store(o->paths, real, at);
	if (e)
		free(real);
	if (e < 0)
		goto oom;
	return 0;
oom:
	snprintf(err, errlen, "-P %s: out of memory", v ? v : "");
	return -ENOMEM;
}

/* What -q, -qq and -qqq suppress, with -e quiet= on top. */
static void quiet_update(struct sonde_strace_opts *o)
{
	static const uint8_t level[] = {
		0,
		SONDE_QUIET_ATTACH | SONDE_QUIET_PERSONALITY,
		SONDE_QUIET_ATTACH | SONDE_QUIET_PERSONALITY | SONDE_QUIET_EXIT,
		SONDE_QUIET_ALL,
	};

	o->quiet = o->quiet_set | level[o->qflag < 3 ? o->qflag : 3];
}

/* A name of a set option and its bits. */
struct name_bits {
	const char *name;
	uint8_t bits;
};

/*
 * KEY=SET of names from a table, comma separated, "!" taking the
 * complement within all: 0 with the set in *out, or -EINVAL naming the
 * unknown one and listing the others (what, e.g. "status").
 */
static int parse_name_set(const struct name_bits *names, size_t n, uint8_t all,
			  const char *what, const char *v, uint8_t *out, char *err,
			  size_t errlen)
{
	int neg = *v == '!', e = 0;
	char *dup = strdup(v + neg), *tok, *save = NULL;
	uint8_t set = 0;

	if (!dup)
		return -ENOMEM;
	for (tok = strtok_r(dup, ",", &save); tok && !e; tok = strtok_r(NULL, ",", &save)) {
		size_t i, len;

		for (i = 0; i < n && strcmp(tok, names[i].name); i++)
			;
		if (i < n) {
			set |= names[i].bits;
			continue;
		}
		len = (size_t)snprintf(err, errlen, "-e %s=: unknown '%s' (", what, tok);
		for (i = 0; i < n && len < errlen; i++)
			len += (size_t)snprintf(err + len, errlen - len, "%s%s", i ? ", " : "",
						names[i].name);
		if (len < errlen)
			snprintf(err + len, errlen - len, ")");
		e = -EINVAL;
	}
	free(dup);
	if (!e)
		*out = neg ? (uint8_t)(all & ~set) : set;
	return e;
}

/* -t and --absolute-timestamps: strace refuses them together. */
static int ts_conflict(char *err, size_t errlen)
{
	snprintf(err, errlen, "-t and --absolute-timestamps cannot be given together");
	return -EINVAL;
}

/* A precision, s ms us ns, as its digits after the second; -1 if not. */
static int ts_precision(const char *v)
{
	static const char *const names[] = { "s", "ms", "us", "ns" };

	for (int i = 0; i < 4; i++)
		if (!strcmp(v, names[i]))
			return 3 * i;
	return -1;
}

/*
 * --absolute-timestamps[=[format:]FORMAT[,[precision:]PRECISION]]: FORMAT
 * none, time (of day) or unix (seconds since the epoch), PRECISION s,
 * ms, us or ns; a bare word is whichever it names. Alone: time, s (-t).
 */
static int parse_abs_ts(struct sonde_strace_opts *o, const char *v, char *err, size_t errlen)
{
	char buf[64], *tok, *save = NULL;
	int fmt = 1, digits = 0, d;

	if (o->tstamp && !o->ts_long)
		return ts_conflict(err, errlen);
	if (v && strlen(v) >= sizeof(buf))
		goto bad;
	snprintf(buf, sizeof(buf), "%s", v ? v : "");
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int want_fmt = !strncmp(tok, "format:", 7), want_prec = !strncmp(tok, "precision:", 10);
		const char *w = want_fmt ? tok + 7 : want_prec ? tok + 10 : tok;

		if (!want_prec && !strcmp(w, "none"))
			fmt = 0;
		else if (!want_prec && !strcmp(w, "time"))
			fmt = 1;
		else if (!want_prec && !strcmp(w, "unix"))
			fmt = 3;
		else if (!want_fmt && (d = ts_precision(w)) >= 0)
			digits = d;
		else
			goto bad;
	}
	o->ts_long = 1;
	o->tstamp = (uint8_t)fmt;
	o->ts_digits = (uint8_t)digits;
	return 0;
bad:
	snprintf(err, errlen,
		 "invalid --absolute-timestamps argument '%s': [format:]none|time|unix and/or "
		 "[precision:]s|ms|us|ns, comma separated", v);
	return -EINVAL;
}

/* --relative-timestamps[=PRECISION], --syscall-times[=PRECISION]. */
static int parse_digits(const char *name, const char *v, uint8_t *digits, char *err,
			size_t errlen)
{
	int d = v ? ts_precision(v) : 6;

	if (d < 0) {
		snprintf(err, errlen, "invalid --%s argument '%s': s, ms, us or ns", name, v);
		return -EINVAL;
	}
	*digits = (uint8_t)d;
	return 0;
}

/* --strings-in-hex[=none|non-ascii-chars|non-ascii|all]: -x is non-ascii,
 * -xx all, and alone it is all. */
static int parse_strhex(struct sonde_strace_opts *o, const char *v, char *err, size_t errlen)
{
	static const char *const names[] = { "none", "non-ascii", "all", "non-ascii-chars" };

	for (int i = 0; i < 4; i++)
		if (!v ? i == 2 : !strcmp(v, names[i])) {
			o->xstr = (uint8_t)i;
			return 0;
		}
	snprintf(err, errlen,
		 "invalid --strings-in-hex argument '%s': none, non-ascii-chars, non-ascii or all", v);
	return -EINVAL;
}

int sonde_strace_long_opt(struct sonde_strace_opts *o, const char *name, const char *value,
			  char *err, size_t errlen)
{
	if (!strcmp(name, "absolute-timestamps"))
		return parse_abs_ts(o, value, err, errlen);
	if (!strcmp(name, "relative-timestamps")) {
		o->relative = 1;
		return parse_digits(name, value, &o->rel_digits, err, errlen);
	}
	if (!strcmp(name, "syscall-times")) {
		o->show_time = 1;
		return parse_digits(name, value, &o->dur_digits, err, errlen);
	}
	if (!strcmp(name, "strings-in-hex"))
		return parse_strhex(o, value, err, errlen);
	snprintf(err, errlen, "--%s: not an option of strace's sonde knows", name);
	return -EINVAL;
}

/* -y and --decode-fds say the same thing: strace refuses them together. */
static int y_conflict(char *err, size_t errlen)
{
	snprintf(err, errlen, "-y and --decode-fds cannot be given together");
	return -EINVAL;
}

/* -e decode-fds=SET (--decode-fds): -y is path, -yy all. */
static int parse_decode_fds(struct sonde_strace_opts *o, const char *v, char *err,
			    size_t errlen)
{
	static const struct name_bits names[] = {
		{ "path", SONDE_FD_PATH }, { "socket", SONDE_FD_SOCKET }, { "dev", SONDE_FD_DEV },
		{ "pidfd", SONDE_FD_PIDFD }, { "all", SONDE_FD_ALL }, { "none", 0 },
	};
	uint8_t set;
	int e = parse_name_set(names, sizeof(names) / sizeof(names[0]), SONDE_FD_ALL,
			       "decode-fds", v, &set, err, errlen);

	if (e)
		return e;
	if (o->decode_fds && !(o->fd_kinds & SONDE_FD_GIVEN))
		return y_conflict(err, errlen);
	o->fd_kinds = set | SONDE_FD_GIVEN;
	/* what the recorder and the JSON output need: paths, or also the
	 * sockets' endpoints */
	o->decode_fds = !set ? 0 : set & ~SONDE_FD_PATH ? 2 : 1;
	return 0;
}

/*
 * -e decode-pids=SET (--decode-pids): comm is -Y; pidns follows the pids
 * a tracee in another pid namespace passes and gets with the initial
 * namespace's (the trace's nspid records), as strace does with its own.
 */
static int parse_decode_pids(struct sonde_strace_opts *o, const char *v, char *err,
			     size_t errlen)
{
	static const struct name_bits names[] = {
		{ "comm", 1 }, { "pidns", 2 }, { "all", 3 }, { "none", 0 },
	};
	uint8_t set;
	int e = parse_name_set(names, sizeof(names) / sizeof(names[0]), 3, "decode-pids", v,
			       &set, err, errlen);

	if (e)
		return e;
	o->decode_pids = set & 1;
	o->pidns = !!(set & 2);
	return 0;
}

/* s holds every number: a set given as all (its padding zeroed, as
 * sonde_sc_set_parse leaves it). */
static int sc_set_is_all(const struct sonde_sc_set *s)
{
	struct sonde_sc_set all;

	memset(&all, 0, sizeof(all));
	sonde_sc_set_fill(&all);
	return !memcmp(s, &all, sizeof(all));
}

/*
 * -e abbrev=SET: the calls whose structs, arrays and environment are
 * abbreviated; the others print in full (abbrev=none is -v, all the
 * default).
 */
static int parse_abbrev(struct sonde_strace_opts *o, const char *v, char *err, size_t errlen)
{
	struct sonde_sc_set s, none;
	int e = sonde_sc_set_parse(&s, v, err, errlen);

	if (e)
		return e;
	o->abbrev_on = 0;
	o->verbose = 0;
	if (sc_set_is_all(&s))
		return 0;
	sonde_sc_set_parse(&none, "none", err, errlen);
	if (!memcmp(&s, &none, sizeof(s))) {
		o->verbose = 1;
		return 0;
	}
	o->abbrev = s;
	o->abbrev_on = 1;
	return 0;
}

/*
 * -e verbose=SET: the calls whose structs and arrays are shown; the
 * others print them as addresses. all, the default, costs no lookup.
 */
static int parse_verbose(struct sonde_strace_opts *o, const char *v, char *err,
			 size_t errlen)
{
	struct sonde_sc_set s;
	int e = sonde_sc_set_parse(&s, v, err, errlen);

	if (e)
		return e;
	o->deref = s;
	o->deref_on = !sc_set_is_all(&s);
	return 0;
}

/* -e status=SET: how the calls shown ended. */
static int parse_status(struct sonde_strace_opts *o, const char *v, char *err, size_t errlen)
{
	static const struct name_bits names[] = {
		{ "successful", SONDE_STATUS_SUCCESSFUL }, { "failed", SONDE_STATUS_FAILED },
		{ "unfinished", SONDE_STATUS_UNFINISHED }, { "unavailable", SONDE_STATUS_UNAVAILABLE },
		{ "detached", SONDE_STATUS_DETACHED },	   { "all", STATUS_ALL },
		{ "none", 0 },
	};
	uint8_t set;
	int e = parse_name_set(names, sizeof(names) / sizeof(names[0]), STATUS_ALL, "status", v,
			       &set, err, errlen);

	if (e)
		return e;
	/* all is no filter; an empty set shows no call */
	o->status = set == STATUS_ALL ? 0 : set ? set : SONDE_STATUS_NONE;
	return 0;
}

/* quiet= sets: attach, exit, path-resolution, personality,
 * thread-execve (superseded), all, none; a leading '!' negates. */
static int parse_quiet(struct sonde_strace_opts *o, const char *v, char *err, size_t errlen)
{
	static const struct name_bits names[] = {
		{ "attach", SONDE_QUIET_ATTACH },
		{ "exit", SONDE_QUIET_EXIT },
		{ "exits", SONDE_QUIET_EXIT },
		{ "path-resolution", SONDE_QUIET_PATH_RESOLVE },
		{ "personality", SONDE_QUIET_PERSONALITY },
		{ "personalities", SONDE_QUIET_PERSONALITY },
		{ "thread-execve", SONDE_QUIET_SUPERSEDED },
		{ "superseded", SONDE_QUIET_SUPERSEDED },
		{ "all", SONDE_QUIET_ALL },
		{ "none", 0 },
	};
	int e = parse_name_set(names, sizeof(names) / sizeof(names[0]), SONDE_QUIET_ALL, "quiet",
			       v, &o->quiet_set, err, errlen);

	if (!e)
		quiet_update(o);
	return e;
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

/* -e KEY=: strace 6.1's qualifier names and aliases (filter_qualify.c). */
static const struct {
	const char *name;
	enum sonde_strace_qual q;
} quals[] = {
	{ "trace", SONDE_Q_TRACE },	{ "t", SONDE_Q_TRACE },
	{ "read", SONDE_Q_READ },	{ "reads", SONDE_Q_READ },	{ "r", SONDE_Q_READ },
	{ "write", SONDE_Q_WRITE },	{ "writes", SONDE_Q_WRITE },	{ "w", SONDE_Q_WRITE },
	{ "verbose", SONDE_Q_VERBOSE }, { "v", SONDE_Q_VERBOSE },
	{ "status", SONDE_Q_STATUS },
	{ "signal", SONDE_Q_SIGNAL },	{ "signals", SONDE_Q_SIGNAL },	{ "s", SONDE_Q_SIGNAL },
	{ "quiet", SONDE_Q_QUIET },	{ "silent", SONDE_Q_QUIET },	{ "silence", SONDE_Q_QUIET },
	{ "q", SONDE_Q_QUIET },
	{ "raw", SONDE_Q_RAW },		{ "x", SONDE_Q_RAW },
	{ "decode-fds", SONDE_Q_DECODE_FDS },	{ "decode-fd", SONDE_Q_DECODE_FDS },
	{ "decode-pids", SONDE_Q_DECODE_PIDS }, { "decode-pid", SONDE_Q_DECODE_PIDS },
	{ "kvm", SONDE_Q_KVM },
	{ "abbrev", SONDE_Q_ABBREV },	{ "a", SONDE_Q_ABBREV },
	{ "inject", SONDE_Q_INJECT },	{ "fault", SONDE_Q_INJECT },
};

int sonde_strace_qual(const char *expr)
{
	const char *eq = strchr(expr, '=');
	size_t klen = eq ? (size_t)(eq - expr) : 0;

	if (!eq)
		return SONDE_Q_TRACE;
	for (size_t i = 0; i < sizeof(quals) / sizeof(quals[0]); i++)
		if (strlen(quals[i].name) == klen && !strncmp(expr, quals[i].name, klen))
			return (int)quals[i].q;
	return -1;
}

static int opt_e(struct sonde_strace_opts *o, const char *v, char *err, size_t errlen)
{
	const char *eq = strchr(v, '=');
	size_t klen = eq ? (size_t)(eq - v) : 0;
	const char *val = eq ? eq + 1 : v;

	switch (sonde_strace_qual(v)) {
	case SONDE_Q_TRACE:
		o->filter_on = 1;
		return sonde_sc_set_parse(&o->trace, val, err, errlen);
	case SONDE_Q_READ:
		return parse_fdset(o->dump_read, val, err, errlen);
	case SONDE_Q_WRITE:
		return parse_fdset(o->dump_write, val, err, errlen);
	case SONDE_Q_VERBOSE:
		return parse_verbose(o, val, err, errlen);
	case SONDE_Q_STATUS:
		return parse_status(o, val, err, errlen);
	case SONDE_Q_SIGNAL:
		return parse_sigset(&o->sig_hide, val, err, errlen);
	case SONDE_Q_QUIET:
		return parse_quiet(o, val, err, errlen);
	case SONDE_Q_RAW:
		return sonde_sc_set_parse(&o->raw, val, err, errlen);
	case SONDE_Q_DECODE_FDS:
		return parse_decode_fds(o, val, err, errlen);
	case SONDE_Q_DECODE_PIDS:
		return parse_decode_pids(o, val, err, errlen);
	case SONDE_Q_ABBREV:
		return parse_abbrev(o, val, err, errlen);
	case SONDE_Q_KVM:
		/* strace 6.1 takes this one value, not a set */
		if (strcmp(val, "vcpu")) {
			snprintf(err, errlen, "invalid -e kvm= argument: '%s'", val);
			return -EINVAL;
		}
		o->kvm_vcpu = 1;
		return 0;
	case SONDE_Q_INJECT:
		/* The recorder's seccomp supervisor does it (inject.h). */
		return sonde_inject_parse(&o->inject, val, klen == 5 && !strncmp(v, "fault", 5),
					  err, errlen);
	}
	snprintf(err, errlen,
		 "-e %.*s=: unknown qualifier (trace, read, write, verbose, raw, status, signal, "
		 "quiet, abbrev, decode-fds, decode-pids, kvm, inject, fault)",
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
	case 't':
		if (o->ts_long)
			return ts_conflict(err, errlen);
		o->tstamp = o->tstamp < 3 ? o->tstamp + 1 : 3;
		return 0;
	case 'r':
		o->relative = 1;
		o->rel_digits = 6;
		return 0;
	case 'T':
		o->show_time = 1;
		o->dur_digits = 6;
		return 0;
	case 'n': o->show_nr = 1; return 0;
	case 'i': o->show_ip = 1; return 0;
	case 'k': o->stack_trace = 1; return 0;
	case 'Y': o->decode_pids = 1; return 0;
	case 'v':
		o->verbose = 1;
		o->abbrev_on = 0;
		return 0;
	case 'y':
		if (o->fd_kinds & SONDE_FD_GIVEN)
			return y_conflict(err, errlen);
		o->decode_fds = o->decode_fds ? 2 : 1;
		return 0;
	case 'z': o->status = SONDE_STATUS_SUCCESSFUL; return 0;
	case 'Z': o->status = SONDE_STATUS_FAILED; return 0;
	case 'x': o->xstr = o->xstr < 2 ? o->xstr + 1 : 2; return 0;
	case 'q':
		if (o->qflag < 3)
			o->qflag++;
		quiet_update(o);
		return 0;
	case 'P':
		return opt_path(o, value, err, errlen);
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
