// SPDX-License-Identifier: GPL-2.0
/*
 * sonde strace: strace's command line, sonde's recorder. Records the
 * command (or -p processes) with payload capture into a temporary trace,
 * then renders it with the strace decoders exactly as strace would print
 * it, or summarises it like strace -c.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include <sonde/analysis.h>
#include <sonde/format.h>
#include <sonde/payload.h>
#include <sonde/record.h>
#include <sonde/strace.h>
#include "cli/cli.h"

#define MAX_PIDS 256

static const char strace_usage[] =
	"usage: sonde strace [-fcCvyxzZqrtT] [-o FILE] [-s N] [-a N] [-X FMT] [-e EXPR]...\n"
	"                    [--snaplen N|full] [--trace-file FILE] {-p PID | CMD [ARGS...]}\n"
	"\n"
	"Trace CMD (or the processes -p names) and print its system calls exactly as\n"
	"strace does, decoded from an eBPF recording: the traced program is never\n"
	"stopped by a debugger, and data buffers are captured in full up to --snaplen.\n"
	"\n"
	"strace options:\n"
	"  -f            show the calls of children and threads (prefixed with their pid)\n"
	"  -o FILE       write the trace to FILE instead of stderr\n"
	"  -p PID        attach to a running process (repeatable)\n"
	"  -c            count time, calls and errors per syscall (strace -c table)\n"
	"  -C            like -c, and print the calls too\n"
	"  -s N          show N bytes of strings and buffers (default 32)\n"
	"  -a N          align return values at column N (default 40)\n"
	"  -t, -tt, -ttt wall-clock time of day, with microseconds, in epoch seconds\n"
	"  -r            time since the previous call\n"
	"  -T            time spent in each call\n"
	"  -v            structs and environment in full\n"
	"  -X raw|abbrev|verbose  named constants as numbers, names, or both\n"
	"  -y            descriptors with their paths (rebuilt from the recording)\n"
	"  -x, -xx       non-ASCII strings, or all strings, in hex\n"
	"  -z, -Z        only successful, or only failed, calls\n"
	"  -q, -qq       quieter: -qq drops the +++ exit lines\n"
	"  -e trace=SET  syscalls to show: names and %classes, '!' negates\n"
	"  -e read=FDS, -e write=FDS  hexdump all data read from / written to FDS\n"
	"  -e status=successful|failed, -e verbose=all\n"
	"\n"
	"sonde options:\n"
	"  --snaplen N|full  payload bytes captured per call (default 256K; full = 2M)\n"
	"  --trace-file FILE keep the recording in FILE (read it with 'sonde print')\n"
	"\n"
	"Output is written once the command has finished. sonde exits with the\n"
	"command's status (127 if it is not found). Needs root (CAP_BPF, CAP_PERFMON).\n";

enum { OPT_SNAPLEN = 256, OPT_TRACEFILE };

static const struct option strace_longopts[] = {
	{ "snaplen", required_argument, NULL, OPT_SNAPLEN },
	{ "trace-file", required_argument, NULL, OPT_TRACEFILE },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

struct strace_cli {
	struct sonde_strace_opts so;
	struct sonde_record_opts ro;
	pid_t pids[MAX_PIDS];
	size_t npids;
	const char *out_path;
	const char *trace_file;
	int follow, count, count_and_print;
};

static int parse_snaplen(const char *v, uint32_t *out)
{
	char *end;
	unsigned long n;

	if (!strcmp(v, "full")) {
		*out = SONDE_SNAPLEN_MAX;
		return 0;
	}
	errno = 0;
	n = strtoul(v, &end, 0);
	if (errno || end == v)
		return -EINVAL;
	if (*end == 'k' || *end == 'K')
		n <<= 10, end++;
	else if (*end == 'm' || *end == 'M')
		n <<= 20, end++;
	if (*end || n > SONDE_SNAPLEN_MAX)
		return -EINVAL;
	*out = (uint32_t)n;
	return 0;
}

static int parse_args(struct strace_cli *c, int argc, char **argv)
{
	char err[256];
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "+fFo:p:cCs:a:trTvX:yxzZqe:h", strace_longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'f': c->follow = 1; break;
		case 'F': c->follow = 1; break;
		case 'o': c->out_path = optarg; break;
		case 'p': {
			char *end;
			long p = strtol(optarg, &end, 10);

			if (*end || p <= 0 || c->npids >= MAX_PIDS) {
				cli_err("strace", "-p %s: expected a process id", optarg);
				return -EINVAL;
			}
			c->pids[c->npids++] = (pid_t)p;
			break;
		}
		case 'c': c->count = 1; break;
		case 'C': c->count = c->count_and_print = 1; break;
		case 'h': fputs(strace_usage, stdout); return 1;
		case OPT_SNAPLEN:
			if (parse_snaplen(optarg, &c->ro.snaplen)) {
				cli_err("strace", "--snaplen %s: expected bytes (suffix K or M, at most 2M) or 'full'",
					optarg);
				return -EINVAL;
			}
			break;
		case OPT_TRACEFILE: c->trace_file = optarg; break;
		case '?':
			cli_err("strace", "bad option; 'sonde help strace' lists them");
			return -EINVAL;
		default:
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
	return 0;
}

/* strace -c: per-syscall calls, errors and time, sorted by time. */
struct count {
	uint64_t calls, errors, ns;
};

static int count_cmp(const void *a, const void *b, void *arg)
{
	const struct count *v = arg;
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	if (v[x].ns != v[y].ns)
		return v[x].ns < v[y].ns ? 1 : -1;
	if (v[x].calls != v[y].calls)
		return v[x].calls < v[y].calls ? 1 : -1;
	return x < y ? -1 : 1;
}

static void count_print(FILE *f, const struct count *v)
{
	unsigned int idx[SONDE_NR_SYSCALLS], n = 0;
	uint64_t tot_ns = 0, tot_calls = 0, tot_err = 0;
	const char *line = "------ ----------- ----------- --------- --------- ----------------\n";

	for (unsigned int i = 0; i < SONDE_NR_SYSCALLS; i++)
		if (v[i].calls) {
			idx[n++] = i;
			tot_ns += v[i].ns;
			tot_calls += v[i].calls;
			tot_err += v[i].errors;
		}
	qsort_r(idx, n, sizeof(idx[0]), count_cmp, (void *)v);
	fprintf(f, "%% time     seconds  usecs/call     calls    errors syscall\n%s", line);
	for (unsigned int k = 0; k < n; k++) {
		const struct count *c = &v[idx[k]];
		const char *name = sonde_syscall_name(idx[k]);
		char e[24] = "";

		if (c->errors)
			snprintf(e, sizeof(e), "%llu", (unsigned long long)c->errors);
		fprintf(f, "%6.2f %11.6f %11llu %9llu %9s %s\n",
			tot_ns ? 100.0 * (double)c->ns / (double)tot_ns : 0.0,
			(double)c->ns / 1e9,
			(unsigned long long)(c->ns / 1000 / c->calls),
			(unsigned long long)c->calls, e, name ? name : "?");
	}
	char te[24] = "";

	if (tot_err)
		snprintf(te, sizeof(te), "%llu", (unsigned long long)tot_err);
	fprintf(f, "%s%6.2f %11.6f %11llu %9llu %9s total\n", line, 100.0, (double)tot_ns / 1e9,
		(unsigned long long)(tot_calls ? tot_ns / 1000 / tot_calls : 0),
		(unsigned long long)tot_calls, te);
}

static void count_add(struct count *v, const struct sonde_ev_syscall *sc, const struct sonde_strace_opts *o)
{
	int failed = sc->ret < 0 && sc->ret >= -4095 && !(sc->hdr.flags & SONDE_SC_NORETURN);

	if (sc->nr >= SONDE_NR_SYSCALLS)
		return;
	if (o->filter_on && !sonde_sc_set_has(&o->trace, sc->nr))
		return;
	v[sc->nr].calls++;
	v[sc->nr].errors += failed;
	v[sc->nr].ns += sc->dur;
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

/* Reads the trace back and prints it. */
static int render(struct strace_cli *c, const char *trace, FILE *out)
{
	struct sonde_reader *r = NULL;
	struct sonde_strace *st = NULL;
	struct count *counts = NULL;
	const struct sonde_hdr *h;
	const struct sonde_meta *m;
	uint32_t first_tid = 0;
	char err[256];
	int e, rc = 0;

	e = sonde_reader_open(&r, trace, err, sizeof(err));
	if (e) {
		cli_err("strace", "reading the recording %s: %s", trace, err);
		return e;
	}
	m = sonde_reader_meta(r);
	c->so.wall_offset_ns = (int64_t)(m->wall_ref_ns - m->mono_ref_ns);
	c->so.pid_prefix = c->follow ? (c->out_path ? 1 : 2) : 0;
	st = sonde_strace_new(&c->so, out);
	counts = calloc(SONDE_NR_SYSCALLS, sizeof(*counts));
	if (!st || !counts) {
		rc = -ENOMEM;
		goto out;
	}
	set_inherited_fds(st);
	while ((e = sonde_reader_next(r, &h)) != 0) {
		if (e < 0) {
			cli_err("strace", "recording damaged: %s", sonde_reader_error(r));
			continue;
		}
		if (!first_tid && h->type == SONDE_REC_SYSCALL)
			first_tid = h->tid;
		/* Without -f only the command's first thread is shown. */
		if (!c->follow && first_tid && h->tid != first_tid &&
		    (h->type == SONDE_REC_SYSCALL || h->type == SONDE_REC_EXIT ||
		     h->type == SONDE_REC_PAYLOAD || h->type == SONDE_REC_SIGNAL ||
		     h->type == SONDE_REC_SIGGEN))
			continue;
		if (c->count && h->type == SONDE_REC_SYSCALL && h->size >= sizeof(struct sonde_ev_syscall))
			count_add(counts, (const void *)h, &c->so);
		if (c->count && !c->count_and_print)
			continue;
		e = sonde_strace_feed(st, h);
		if (e == -EIO) {
			cli_err("strace", "writing the output: %s", strerror(errno));
			rc = e;
			goto out;
		}
	}
	e = sonde_strace_flush(st);
	if (e)
		rc = e;
	if (c->count)
		count_print(out, counts);
out:
	free(counts);
	sonde_strace_free(st);
	sonde_reader_close(r);
	return rc;
}

static int print_feed(void *ctx, const struct sonde_hdr *rec)
{
	int e = sonde_strace_feed(ctx, rec);

	return e == -EIO ? e : 0;
}

int strace_print_scan(struct sonde_reader *r, struct sonde_scan_opts *scan, FILE *out,
		      const char *file)
{
	const struct sonde_meta *m = sonde_reader_meta(r);
	struct sonde_strace_opts o;
	struct sonde_scan_stats stats;
	struct sonde_strace *st;
	int e;

	sonde_strace_opts_init(&o);
	o.pid_prefix = 1;
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
	sonde_strace_free(st);
	return e;
}

static int cmd_strace_run(int argc, char **argv)
{
	struct strace_cli c = { 0 };
	struct sonde_record_summary sum = { 0 };
	char err[512], tmp[] = "/tmp/sonde-strace.XXXXXX";
	const char *trace;
	FILE *out = stderr;
	int e, status = 0, fd;

	sonde_strace_opts_init(&c.so);
	c.ro.snaplen = SONDE_SNAPLEN_DEFAULT;
	e = parse_args(&c, argc, argv);
	if (e)
		return e > 0 ? 0 : 2;
	trace = c.trace_file;
	if (!trace) {
		fd = mkstemp(tmp);
		if (fd < 0) {
			cli_err("strace", "creating a temporary trace in /tmp: %s", strerror(errno));
			return 1;
		}
		close(fd);
		trace = tmp;
	}
	memset(c.ro.syscalls.bits, 0xff, sizeof(c.ro.syscalls.bits));
	c.ro.output = trace;
	c.ro.argv = optind < argc ? argv + optind : NULL;
	c.ro.pids = c.npids ? c.pids : NULL;
	c.ro.npids = c.npids;
	c.ro.no_sched = true;
	c.ro.quiet = true;
	c.ro.cmdline = "sonde strace";
	e = sonde_record_run(&c.ro, &sum, err, sizeof(err));
	if (e) {
		if (sum.cmd_error == -ENOENT || sum.cmd_error == -EACCES) {
			fprintf(stderr, "sonde strace: %s\n", err);
			status = sum.cmd_error == -ENOENT ? 127 : 126;
		} else {
			cli_err("strace", "%s", err);
			status = 1;
		}
		goto out;
	}
	if (c.out_path) {
		out = fopen(c.out_path, "w");
		if (!out) {
			cli_err("strace", "cannot write %s: %s", c.out_path, strerror(errno));
			status = 1;
			goto out;
		}
	}
	if (render(&c, trace, out))
		status = 1;
	if (sum.lost_ring || sum.lost_writer)
		fprintf(stderr, "sonde strace: %llu events lost (see the +++ sonde lines)\n",
			(unsigned long long)(sum.lost_ring + sum.lost_writer));
	if (out != stderr && fclose(out)) {
		cli_err("strace", "writing %s: %s", c.out_path, strerror(errno));
		status = 1;
	}
	if (!status && sum.cmd_status >= 0)
		status = WIFSIGNALED(sum.cmd_status) ? 128 + WTERMSIG(sum.cmd_status) :
						       WEXITSTATUS(sum.cmd_status);
out:
	if (!c.trace_file)
		unlink(tmp);
	return status;
}

const struct sonde_cmd cmd_strace = {
	.name = "strace",
	.summary = "trace a command and print its syscalls exactly like strace",
	.usage = strace_usage,
	.run = cmd_strace_run,
};
