// SPDX-License-Identifier: GPL-2.0
/*
 * sonde strace: strace's command line, sonde's recorder. Records the
 * command (or -p processes) with payload capture and prints the calls as
 * they happen, through the recorder's live sink, with the strace decoders
 * exactly as strace would print them; -c summarises at the end. --json
 * streams the same records through the JSON renderer instead (the objects
 * of `sonde print --json`) and -c --json gives `sonde stat --json`'s
 * report. No trace file is written unless --trace-file asks for one.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include <sonde/analysis.h>
#include <sonde/format.h>
#include <sonde/payload.h>
#include <sonde/record.h>
#include <sonde/render.h>
#include <sonde/strace.h>
#include "cli/cli.h"
#include "cli/strace_cli.h"
#include "cli/strace_count.h"

enum {
	OPT_SNAPLEN = 256,
	OPT_TRACEFILE,
	OPT_LIVEBUF,
	OPT_JSON,
	OPT_PAYLOAD,
	OPT_TRACE,  /* --trace=SET: -e trace=SET */
	OPT_SIGNAL, /* --signal=SET */
	OPT_STATUS, /* --status=SET */
	OPT_QUIET,  /* --quiet[=SET] */
	OPT_RAW,    /* --raw=SET */
	OPT_SECCOMP,
	OPT_FF,     /* --output-separately: -ff */
	OPT_DECODE_FDS, /* --decode-fds=SET */
	OPT_DECODE_PIDS, /* --decode-pids=SET */
	OPT_ABBREV,	 /* --abbrev=SET: -e abbrev=SET, and the same for: */
	OPT_VERBOSE,
	OPT_READ,
	OPT_WRITE,
	OPT_ABS_TS,	 /* strace's long options with no letter of theirs */
	OPT_REL_TS,
	OPT_SYS_TIMES,
	OPT_STR_HEX,
	OPT_TIPS,
	OPT_KVM,
	OPT_INJECT,
	OPT_FAULT,
};

static const struct option strace_longopts[] = {
	{ "snaplen", required_argument, NULL, OPT_SNAPLEN },
	{ "trace-file", required_argument, NULL, OPT_TRACEFILE },
	{ "live-buffer", required_argument, NULL, OPT_LIVEBUF },
	{ "output", required_argument, NULL, 'o' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "payload", required_argument, NULL, OPT_PAYLOAD },
	{ "help", no_argument, NULL, 'h' },
	/* strace's long forms */
	{ "trace", required_argument, NULL, OPT_TRACE },
	{ "signal", required_argument, NULL, OPT_SIGNAL },
	{ "status", required_argument, NULL, OPT_STATUS },
	{ "quiet", optional_argument, NULL, OPT_QUIET },
	{ "trace-path", required_argument, NULL, 'P' },
	{ "summary-only", no_argument, NULL, 'c' },
	{ "summary", no_argument, NULL, 'C' },
	{ "summary-sort-by", required_argument, NULL, 'S' },
	{ "summary-wall-clock", no_argument, NULL, 'w' },
	{ "summary-columns", required_argument, NULL, 'U' },
	{ "summary-syscall-overhead", required_argument, NULL, 'O' },
	{ "follow-forks", no_argument, NULL, 'f' },
	{ "output-separately", no_argument, NULL, OPT_FF },
	{ "successful-only", no_argument, NULL, 'z' },
	{ "failed-only", no_argument, NULL, 'Z' },
	{ "raw", required_argument, NULL, OPT_RAW },
	{ "decode-fds", required_argument, NULL, OPT_DECODE_FDS },
	{ "decode-pids", required_argument, NULL, OPT_DECODE_PIDS },
	{ "attach", required_argument, NULL, 'p' },
	{ "columns", required_argument, NULL, 'a' },
	{ "string-limit", required_argument, NULL, 's' },
	{ "no-abbrev", no_argument, NULL, 'v' },
	{ "const-print-style", required_argument, NULL, 'X' },
	{ "output-append-mode", no_argument, NULL, 'A' },
	{ "abbrev", required_argument, NULL, OPT_ABBREV },
	{ "verbose", required_argument, NULL, OPT_VERBOSE },
	{ "read", required_argument, NULL, OPT_READ },
	{ "write", required_argument, NULL, OPT_WRITE },
	{ "absolute-timestamps", optional_argument, NULL, OPT_ABS_TS },
	{ "relative-timestamps", optional_argument, NULL, OPT_REL_TS },
	{ "syscall-times", optional_argument, NULL, OPT_SYS_TIMES },
	{ "strings-in-hex", optional_argument, NULL, OPT_STR_HEX },
	{ "detach-on", required_argument, NULL, 'b' },
	{ "daemonize", optional_argument, NULL, 'D' },
	{ "debug", no_argument, NULL, 'd' },
	{ "tips", optional_argument, NULL, OPT_TIPS },
	{ "kvm", required_argument, NULL, OPT_KVM },
	{ "inject", required_argument, NULL, OPT_INJECT },
	{ "fault", required_argument, NULL, OPT_FAULT },
	{ "instruction-pointer", no_argument, NULL, 'i' },
	{ "stack-traces", no_argument, NULL, 'k' },
	{ "syscall-number", no_argument, NULL, 'n' },
	{ "interruptible", required_argument, NULL, 'I' },
	{ "seccomp-bpf", no_argument, NULL, OPT_SECCOMP },
	{ "version", no_argument, NULL, 'V' },
	{ "env", required_argument, NULL, 'E' },
	{ "user", required_argument, NULL, 'u' },
	{ 0 },
};

/* --trace=, --signal=, --status=, --quiet[=SET]: -e KEY=SET, or -q. */
static int strace_long_e(struct strace_cli *c, const char *key, const char *v)
{
	char err[256], *e = NULL;
	int r;

	if (key && asprintf(&e, "%s=%s", key, v) < 0) {
		cli_err("strace", "out of memory");
		return -ENOMEM;
	}
	r = sonde_strace_opt(&c->so, key ? 'e' : 'q', e, err, sizeof(err));
	free(e);
	if (r)
		cli_err("strace", "%s", err);
	return r;
}

/* strace's -I values, checked so that a script's typo fails as it would. */
static int strace_interruptible_ok(const char *v)
{
	static const char *const ok[] = { "1", "2", "3", "4", "anywhere", "waiting", "never",
					  "never_tstp" };

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!strcmp(v, ok[i]))
			return 1;
	return 0;
}

/* strace options sonde has no counterpart of, with the reason (1), or 0
 * for a letter strace lacks too. */
static int strace_refused(int letter)
{
	static const struct { int letter; const char *why; } refused[] = {
		{ 'd', "-d (strace's debugging output of its own work): sonde has none" },
		{ OPT_TIPS, "--tips: strace's tips; 'sonde help strace' says what sonde takes" },
	};

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (refused[i].letter == letter) {
			cli_err("strace", "%s", refused[i].why);
			return 1;
		}
	return 0;
}

/* -D, -DD, -DDD, --daemonize[=grandchild|pgroup|pgrp|session]. */
static int strace_daemon_opt(struct strace_cli *c, const char *v)
{
	static const struct {
		const char *name;
		int how;
	} how[] = {
		{ "grandchild", SONDE_DAEMON_GRANDCHILD },
		{ "pgroup", SONDE_DAEMON_PGROUP },
		{ "pgrp", SONDE_DAEMON_PGROUP },
		{ "session", SONDE_DAEMON_SESSION },
	};

	if (!v) {
		if (++c->daemon <= SONDE_DAEMON_SESSION)
			return 0;
		cli_err("strace", "too many -D's (%d): -DDD, a new session, is the most",
			c->daemon);
		return -EINVAL;
	}
	for (size_t i = 0; i < sizeof(how) / sizeof(how[0]); i++)
		if (!strcmp(v, how[i].name)) {
			c->daemon = how[i].how;
			return 0;
		}
	cli_err("strace", "--daemonize=%s: use grandchild, pgroup (pgrp) or session", v);
	return -EINVAL;
}

static int parse_args(struct strace_cli *c, int argc, char **argv)
{
	char err[256];
	int opt, longi = 0;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv,
				  "+:fFo:p:cCs:a:trTvX:yYxzZqe:P:S:U:O:whnikVI:E:u:Ab:D",
				  strace_longopts, &longi)) != -1) {
		const char *key = NULL;

		switch (opt) {
		case OPT_TRACE: key = "trace"; break;
		case OPT_SIGNAL: key = "signal"; break;
		case OPT_STATUS: key = "status"; break;
		case OPT_QUIET: key = optarg ? "quiet" : NULL; break;
		case OPT_RAW: key = "raw"; break;
		case OPT_DECODE_FDS: key = "decode-fds"; break;
		case OPT_DECODE_PIDS: key = "decode-pids"; break;
		case OPT_ABBREV: key = "abbrev"; break;
		case OPT_VERBOSE: key = "verbose"; break;
		case OPT_READ: key = "read"; break;
		case OPT_WRITE: key = "write"; break;
		case OPT_KVM: key = "kvm"; break;
		case OPT_INJECT: key = "inject"; break;
		case OPT_FAULT: key = "fault"; break;
		}
		if (key || opt == OPT_QUIET) {
			if (strace_long_e(c, key, optarg))
				return -EINVAL;
			continue;
		}
		switch (opt) {
		case 'f': c->follow += c->follow < 2; break; /* -ff: 2 */
		case OPT_FF: c->follow = 2; break;
		case 'F': c->follow = 1; break;
		case 'o': c->out_path = optarg; break;
		case 'p': {
			char err[160];

			if (strace_launch_pids(c->pids, &c->npids, MAX_PIDS, optarg, err,
					       sizeof(err))) {
				cli_err("strace", "%s", err);
				return -EINVAL;
			}
			break;
		}
		case 'b':
			if (strcmp(optarg, "execve")) {
				cli_err("strace", "Syscall '%s' for -b isn't supported (only execve)",
					optarg);
				return -EINVAL;
			}
			c->so.detach_execve = 1;
			break;
		case 'D':
			if (strace_daemon_opt(c, optarg))
				return -EINVAL;
			break;
		case 'd':
		case OPT_TIPS:
			strace_refused(opt);
			return -EINVAL;
		case OPT_ABS_TS:
		case OPT_REL_TS:
		case OPT_SYS_TIMES:
		case OPT_STR_HEX:
			if (sonde_strace_long_opt(&c->so, strace_longopts[longi].name, optarg, err,
						  sizeof(err))) {
				cli_err("strace", "%s", err);
				return -EINVAL;
			}
			break;
		case 'A': c->so.append = 1; break;
		case 'c': c->count = 1; break;
		case 'C': c->count = c->count_and_print = 1; break;
		case 'h': fputs(strace_usage, stdout); return 1;
		case 'w': break; /* sonde's -c times are wall-clock latencies */
		case 'V':
			printf("sonde strace -- version %s (strace 6.1's options)\n", SONDE_VERSION);
			return 1;
		case OPT_SECCOMP: break; /* the syscall filter is always in the kernel */
		case 'E':
			if (strace_launch_env(&c->launch, optarg)) {
				cli_err("strace", "-E %s: out of memory", optarg);
				return -ENOMEM;
			}
			break;
		case 'u':
			if (strace_launch_user(&c->launch, optarg, err, sizeof(err))) {
				cli_err("strace", "%s", err);
				return -EINVAL;
			}
			break;
		case 'I':
			/* strace's -I says when it blocks fatal signals while
			 * the tracee is stopped; sonde never stops it. */
			if (!strace_interruptible_ok(optarg)) {
				cli_err("strace", "-I %s: expected 1..4 or anywhere, waiting, never, never_tstp",
					optarg);
				return -EINVAL;
			}
			break;
		case 'S': {
			int k = sonde_stats_sort_lookup(optarg);

			if (k < 0) {
				cli_err("strace", "-S %s: sort by time, calls, errors, name, avg-time, max-time, min-time or nothing",
					optarg);
				return -EINVAL;
			}
			c->cnt.sort = (enum sonde_stats_sort)k;
			break;
		}
		case 'U': {
			char why[96];

			if (strace_count_cols_parse(&c->cnt, optarg, why, sizeof(why))) {
				cli_err("strace", "-U %s: %s; columns: time-percent, total-time, min-time, max-time, avg-time, calls, errors, name",
					optarg, why);
				return -EINVAL;
			}
			break;
		}
		case 'O':
			if (sonde_time_parse(optarg, &c->cnt.overhead_ns)) {
				cli_err("strace", "-O %s: expected a non-negative time, unit s, ms, us (default) or ns",
					optarg);
				return -EINVAL;
			}
			break;
		case OPT_SNAPLEN:
			if (sonde_snaplen_parse(optarg, &c->ro.snaplen)) {
				cli_err("strace", "--snaplen %s: expected bytes (suffix K or M, at most 2M) or 'full'",
					optarg);
				return -EINVAL;
			}
			break;
		case OPT_TRACEFILE: c->trace_file = optarg; break;
		case OPT_JSON: c->json = 1; break;
		case OPT_PAYLOAD:
			if (!strcmp(optarg, "hex")) {
				c->ropts.payload = SONDE_PAYLOAD_HEX;
			} else if (!strcmp(optarg, "base64")) {
				c->ropts.payload = SONDE_PAYLOAD_BASE64;
			} else {
				cli_err("strace", "unknown --payload '%s': use hex or base64", optarg);
				return -EINVAL;
			}
			break;
		case OPT_LIVEBUF: {
			unsigned long long n;

			if (cli_parse_bytes(optarg, &n) || n < (1u << 16) || n > SIZE_MAX) {
				cli_err("strace", "--live-buffer %s: expected bytes, at least 64K (suffix K or M)",
					optarg);
				return -EINVAL;
			}
			c->live_bytes = n;
			break;
		}
		case '?':
		case ':':
			if (opt == '?' && strace_refused(optopt))
				return -EINVAL;
			cli_bad_option("strace", argv, opt);
			return -EINVAL;
		default:
			c->strsize_set |= opt == 's';
			if (sonde_strace_opt(&c->so, opt, optarg, err, sizeof(err))) {
				cli_err("strace", "%s", err);
				return -EINVAL;
			}
		}
	}
	if (optind >= argc && !c->npids) {
		cli_err("strace", "must have a command to run or -p PID; 'sonde help strace'");
		return -EINVAL;
	}
	if (c->daemon && optind >= argc) {
		cli_err("strace", "-D runs sonde beside a command it starts: give the command, "
				  "not -p");
		return -EINVAL;
	}
	if (optind >= argc && (c->launch.env || c->launch.user_set)) {
		cli_err("strace", "-E and -u apply to a command sonde starts, not to -p");
		return -EINVAL;
	}
	if (c->so.inject.n && (c->npids || c->so.paths)) {
		cli_err("strace", "%s",
			c->npids ? "-e inject and -e fault tamper with a command sonde starts (a "
				   "seccomp filter installed before its execve), not with -p"
				 : "-e inject with -P: sonde cannot tamper with only the calls on "
				   "a path (its supervisor sees numbers and arguments, not paths); "
				   "use -e trace= to narrow it");
		return -EINVAL;
	}
	if (c->so.detach_execve && c->json) {
		cli_err("strace", "-b execve applies to strace's text output, not to --json");
		return -EINVAL;
	}
	if (c->so.paths && c->json) {
		cli_err("strace", "-P applies to strace's text output, not to --json; filter the JSON objects by \"fd_paths\" (-y) instead");
		return -EINVAL;
	}
	if (c->follow == 2 && (c->count || c->json)) {
		cli_err("strace", "-ff writes strace's text, a file per process: not with %s",
			c->json ? "--json" : "-c or -C");
		return -EINVAL;
	}
	/* -o |CMD, -o !CMD: the output piped to a shell command, as strace. */
	c->out_piped = c->out_path && (c->out_path[0] == '|' || c->out_path[0] == '!');
	if (c->out_piped && c->follow == 2) {
		cli_err("strace", "-o %s pipes the output to one command; -ff writes a file per process: not both",
			c->out_path);
		return -EINVAL;
	}
	/* Without -o, -ff is -f (as in strace). */
	if (c->follow == 2 && c->out_path)
		c->so.ff_prefix = c->out_path;
	if (c->ropts.payload && !c->json) {
		cli_err("strace", "--payload needs --json (strace's text shows data with -e read=FD, -e write=FD)");
		return -EINVAL;
	}
	if (c->strsize_set)
		c->ropts.strsize = c->so.strsize;
	strace_report_paths(&c->so, "strace");
	c->ropts.fd_paths = c->so.decode_fds;
	c->ropts.stack = c->so.stack_trace;
	/* Printed live, on the traced program's own file system and while
	 * its processes run (-Y reads /proc for pids the trace never named,
	 * as strace does for every pid). */
	c->so.resolve_links = 1;
	c->so.pids_proc = 1;
	return 0;
}

static void set_inherited_fds(struct sonde_strace *st)
{
	char link[64], path[4096];

	for (int fd = 0; fd < 3; fd++) {
		ssize_t n;

		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, path, sizeof(path) - 1);
		if (n <= 0)
			continue;
		path[n] = 0;
		sonde_strace_set_fd(st, 0, fd, path);
	}
	if (getcwd(path, sizeof(path)))
		sonde_strace_set_fd(st, 0, -100, path);
}

static int renderer_counts(const struct strace_cli *c)
{
	return c->so.paths || c->so.detach_execve;
}

/* -b execve: strace's words as it leaves a process. */
static void on_detach(void *ctx, uint32_t tid)
{
	(void)ctx;
	fprintf(stderr, "sonde strace: Process %u detached\n", tid);
}

/* The exit of a thread not shown that ends its process: to the renderer
 * marked as such (no line of its own). */
static int live_exit_unshown(struct live_out *lo, const struct sonde_ev_exit *x)
{
	struct sonde_ev_exit e = *x;
	int rc;

	if (lo->c->json || (lo->c->count && !lo->c->count_and_print && !renderer_counts(lo->c)))
		return 0;
	e.hdr.size = sizeof(e);
	e.hdr.flags |= SONDE_EXIT_NOT_SHOWN;
	rc = sonde_strace_feed(lo->st, &e.hdr);
	if (rc == -EIO)
		lo->werr = errno;
	return rc == -EIO ? rc : 0;
}

static int live_record(void *ctx, const struct sonde_hdr *h)
{
	struct live_out *lo = ctx;
	struct strace_cli *c = lo->c;
	int e;

	/* strace's "Process N attached", once -p's process is traced, and
	 * -D's command when the output is standard error (nothing is
	 * printed before it). */
	if (h->type == SONDE_REC_PROC && !(h->flags & SONDE_PROC_FDS_CONT) &&
	    (h->flags & SONDE_PROC_LAUNCHED ? c->daemon && !c->out_path : c->npids > 0) &&
	    !(c->so.quiet & SONDE_QUIET_ATTACH))
		fprintf(stderr, "sonde strace: Process %u attached\n", h->pid);
	if (!lo->first_tid && h->type == SONDE_REC_SYSCALL)
		lo->first_tid = h->tid;
	/* Without -f only the first thread seen is shown; but the exit that
	 * ends its process may be another thread's (it releases the shown
	 * leader's exit line, which the kernel reports last). */
	if (!c->follow && lo->first_tid && h->tid != lo->first_tid &&
	    (h->type == SONDE_REC_SYSCALL || h->type == SONDE_REC_EXIT ||
	     h->type == SONDE_REC_PAYLOAD || h->type == SONDE_REC_SIGNAL ||
	     h->type == SONDE_REC_SIGGEN)) {
		if (h->type == SONDE_REC_EXIT && (h->flags & SONDE_EXIT_GROUP_DEAD) &&
		    h->size >= sizeof(struct sonde_ev_exit))
			return live_exit_unshown(lo, (const struct sonde_ev_exit *)h);
		return 0;
	}
	if (c->json)
		return live_json_record(lo, h);
	/* With -P or -b the renderer decides which calls count (on_call). */
	if (c->count && !renderer_counts(c) && h->type == SONDE_REC_SYSCALL &&
	    h->size >= sizeof(struct sonde_ev_syscall) &&
	    (!c->so.filter_on || sonde_sc_set_has_call(&c->so.trace, (const void *)h)))
		strace_count_add(lo->counts, (const void *)h, c->cnt.overhead_ns);
	if (c->count && !c->count_and_print && !renderer_counts(c))
		return 0;
	e = sonde_strace_feed(lo->st, h);
	if (e == -EIO) {
		lo->werr = errno;
		return e;
	}
	return 0;
}

static int live_flush(void *ctx)
{
	struct live_out *lo = ctx;
	int e;

	if (lo->c->json)
		return live_json_flush(lo);
	e = sonde_strace_advance(lo->st, lo->sink->horizon);
	if (e == -EIO) {
		lo->werr = errno;
		return e;
	}
	return 0;
}

/* What a write error names: -o's file, -ff's files, or the output. */
static const char *out_name(const struct strace_cli *c)
{
	static char name[PATH_MAX + 8];

	if (!c->so.ff_prefix)
		return c->out_path ? c->out_path : "the output";
	snprintf(name, sizeof(name), "%s.PID", c->so.ff_prefix);
	return name;
}

/* -o FILE, or a buffered stream of our standard error (flushed per batch:
 * one write per batch instead of one per line). Close-on-exec: the
 * command must not inherit a descriptor strace would not give it. */
static FILE *open_output(const struct strace_cli *c)
{
	int fd;
	FILE *f;

	if (c->out_piped) {
		/* The command's end of the pipe only: "e" keeps ours out of the
		 * traced command. A command that exits early breaks the pipe:
		 * an EPIPE that stops tracing (reported), never a SIGPIPE that
		 * kills sonde (rec_launch.c gives the command the default). */
		f = popen(c->out_path + 1, "we");
		if (!f)
			cli_err("strace", "cannot start %s: %s", c->out_path + 1, strerror(errno));
		else
			signal(SIGPIPE, SIG_IGN);
		return f;
	}
	if (c->out_path && !c->so.ff_prefix) {
		f = fopen(c->out_path, c->so.append ? "ae" : "we");
		if (!f)
			cli_err("strace", "cannot write %s: %s", c->out_path, strerror(errno));
		return f;
	}
	fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		cli_err("strace", "standard error: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	return f;
}

static void count_call(void *ctx, const struct sonde_ev_syscall *sc)
{
	struct live_out *lo = ctx;

	strace_count_add(lo->counts, sc, lo->c->cnt.overhead_ns);
}

/* Returns 0 or -errno. */
static int live_init(struct live_out *lo, struct sonde_live_sink *sink, FILE *out)
{
	struct timespec mono, wall;

	sink->record = live_record;
	sink->flush = live_flush;
	sink->ctx = lo;
	lo->sink = sink;
	sink->max_bytes = lo->c->live_bytes;
	if (lo->c->json)
		return live_json_init(lo, out);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &wall);
	lo->c->so.wall_offset_ns = ((int64_t)wall.tv_sec - mono.tv_sec) * 1000000000ll +
				   (wall.tv_nsec - mono.tv_nsec);
	lo->c->so.pid_prefix = !lo->c->follow || lo->c->so.ff_prefix ? 0 :
			       lo->c->out_path				? 1 :
									  2;
	/* strace says it on standard error, in its output there only */
	if (lo->c->so.pid_prefix == 2 && !(lo->c->so.quiet & SONDE_QUIET_ATTACH))
		lo->c->so.attach_msg = "sonde strace";
	lo->counts = calloc(STRACE_COUNT_LEN, sizeof(*lo->counts));
	if (!lo->counts)
		return -ENOMEM;
	if (lo->c->count && renderer_counts(lo->c)) {
		/* -P decides on the descriptor tables, -b on the processes
		 * left: the renderer counts. */
		lo->c->so.on_call = count_call;
		lo->c->so.on_call_ctx = lo;
		lo->c->so.summary_only = !lo->c->count_and_print;
	}
	/* as strace: said with the output on stderr only */
	if (!lo->c->out_path)
		lo->c->so.on_detach = on_detach;
	lo->st = sonde_strace_new(&lo->c->so, out);
	if (!lo->st)
		return -ENOMEM;
	set_inherited_fds(lo->st);
	return 0;
}

/* Once recording ended: what the renderer still groups, then -c's
 * summary (strace's table, or with --json the JSON report). Returns 0 or
 * -errno. */
static int live_finish(struct live_out *lo, FILE *out)
{
	int e;

	if (!lo->c->json)
		return lo->c->count ? strace_count_print(out, lo->counts, &lo->c->cnt) : 0;
	e = live_json_flush(lo);
	if (!e && lo->c->count)
		e = live_json_report(lo, out);
	return e;
}

/* What the user must know once the run is over, on standard error. */
static void report_end(const struct strace_cli *c, const struct sonde_record_summary *sum,
		       const struct sonde_live_sink *sink)
{
	if (sum->lost_ring || sum->lost_writer)
		fprintf(stderr, "sonde strace: %llu events lost (see the +++ sonde lines)\n",
			(unsigned long long)(sum->lost_ring + sum->lost_writer));
	if (sink->stats.hidden)
		fprintf(stderr,
			"sonde strace: %llu events not shown: the output could not keep up%s\n",
			(unsigned long long)sink->stats.hidden,
			c->trace_file ? " (the trace file has them all)" :
					"; --trace-file FILE keeps them all");
	if (sum->stop_signal && sum->stop_signal != SIGPIPE && !(c->so.quiet & SONDE_QUIET_ATTACH))
		for (size_t i = 0; i < c->npids; i++)
			fprintf(stderr, "sonde strace: Process %d detached\n", (int)c->pids[i]);
}

/* The recorder's options from the command line. */
static void record_opts(struct strace_cli *c, struct sonde_live_sink *sink, int argc, char **argv)
{
	sonde_sc_set_fill(&c->ro.syscalls);
	c->ro.output = c->trace_file;
	c->ro.live = sink;
	c->ro.live_only = !c->trace_file;
	c->ro.argv = optind < argc ? argv + optind : NULL;
	strace_launch_apply(&c->launch, &c->ro);
	c->ro.pids = c->npids ? c->pids : NULL;
	c->ro.npids = c->npids;
	c->ro.no_sched = true;
	c->ro.ip = c->so.show_ip;
	if (c->so.stack_trace && (!c->count || c->count_and_print)) /* -c shows no stack */
		sonde_user_stack_parse(NULL, &c->ro.user_stack);
	c->ro.quiet = true;
	c->ro.cmdline = "sonde strace";
	if (c->so.inject.n) {
		/* strace tampers only with the calls it shows */
		if (c->so.filter_on)
			sonde_inject_restrict(&c->so.inject, &c->so.trace);
		c->ro.inject = &c->so.inject;
	}
}

/* A command that cannot be started, or a recorder that cannot: the exit
 * status. */
static int start_failed(const struct sonde_record_summary *sum, const char *err)
{
	if (sum->cmd_error == -ENOENT || sum->cmd_error == -EACCES) {
		fprintf(stderr, "sonde strace: %s\n", err);
		return sum->cmd_error == -ENOENT ? 127 : 126;
	}
	cli_err("strace", "%s", err);
	return 1;
}

static int cmd_strace_run(int argc, char **argv)
{
	struct strace_cli c = { 0 };
	struct sonde_record_summary sum = { 0 };
	struct sonde_live_sink sink = { 0 };
	struct live_out lo = { .c = &c };
	char err[512];
	FILE *out = NULL;
	int e, status = 0;

	sonde_strace_opts_init(&c.so);
	c.ro.snaplen = SONDE_SNAPLEN_DEFAULT;
	e = parse_args(&c, argc, argv);
	if (e) {
		status = e > 0 ? 0 : 2;
		goto out;
	}
	record_opts(&c, &sink, argc, argv);
	/* -D: from here on this is the recorder, a grandchild; before the
	 * output opens, so that -o |CMD is not the command's child. */
	if (c.daemon && (e = sonde_record_daemonize(&c.ro, c.daemon, &sum, err, sizeof(err)))) {
		status = start_failed(&sum, err);
		goto out;
	}
	out = open_output(&c);
	if (!out) {
		status = 1;
		goto out;
	}
	setvbuf(out, NULL, _IOFBF, 1 << 16);
	e = live_init(&lo, &sink, out);
	if (e) {
		cli_err("strace", "cannot start the output: %s", strerror(-e));
		status = 1;
		goto out;
	}
	e = sonde_record_run(&c.ro, &sum, err, sizeof(err));
	if (e && !sink.error) {
		status = start_failed(&sum, err);
		goto out;
	}
	if (sink.error) {
		cli_err("strace", "writing %s: %s; stopped tracing", out_name(&c),
			lo.werr ? strerror(lo.werr) : strerror(-sink.error));
		status = 1;
	}
	if (!sink.error && (e = live_finish(&lo, out))) {
		cli_err("strace", "writing %s: %s", out_name(&c),
			strerror(lo.werr ? lo.werr : -e));
		status = 1;
	} else if (fflush(out) && !sink.error) {
		cli_err("strace", "writing %s: %s", out_name(&c),
			strerror(errno));
		status = 1;
	}
	/* strace's words for a command that could not be started. */
	if (sum.exec_error)
		fprintf(stderr, "sonde strace: exec: %s\n", strerror(-sum.exec_error));
	report_end(&c, &sum, &sink);
	if (!status && sum.cmd_status >= 0)
		status = WIFSIGNALED(sum.cmd_status) ? 128 + WTERMSIG(sum.cmd_status) :
						       WEXITSTATUS(sum.cmd_status);
out:
	/* Write errors were reported above, once. */
	sonde_render_close(lo.render);
	sonde_stats_free(lo.stats);
	free(lo.counts);
	sonde_strace_free(lo.st);
	sonde_strace_opts_release(&c.so);
	strace_launch_free(&c.launch);
	/* pclose waits for the command, as strace does at its exit. */
	if (out && (c.out_piped ? pclose(out) == -1 : fclose(out) != 0) && !status)
		status = 1;
	return status;
}

const struct sonde_cmd cmd_strace = {
	.name = "strace",
	.summary = "trace a command and print its syscalls exactly like strace",
	.usage = strace_usage,
	.run = cmd_strace_run,
};
