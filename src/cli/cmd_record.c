// SPDX-License-Identifier: GPL-2.0
/* sonde record: options, then sonde_record_run(), then the summary. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <sonde/inject.h>
#include <sonde/record.h>
#include <sonde/payload.h>
#include "cli/cli.h"

#define MAX_PIDS 1024

static const char record_usage[] =
	"usage: sonde record [-o FILE] [OPTIONS] -- CMD [ARGS...]\n"
	"       sonde record [-o FILE] [OPTIONS] -p PID[,PID...]\n"
	"       sonde record [-o FILE] [OPTIONS] --comm NAME\n"
	"\n"
	"Record the system calls, scheduler events and process life cycle of an\n"
	"application into a trace file (read it with 'sonde print' and 'sonde stat').\n"
	"\n"
	"CMD is started stopped and traced from its first instruction (its execve is\n"
	"the first recorded call), with every thread and process it creates, across\n"
	"execve, until all of them have exited. sonde exits with CMD's status (128+N\n"
	"if CMD was killed by signal N; 127 if CMD is not found, 126 if it cannot be\n"
	"executed).\n"
	"\n"
	"Options:\n"
	"  -o, --output FILE    trace file (default: " SONDE_RECORD_DEFAULT_OUTPUT
	", created 0600)\n"
	"  -p, --pid PID[,...]  attach to running processes (a TID selects its process)\n"
	"                       and the processes they create from then on\n"
	"      --comm NAME      trace every process whose command name is NAME, from\n"
	"                       its start or its exec into NAME, and its descendants;\n"
	"                       runs until SIGINT/SIGTERM or --duration\n"
	"  -e trace=SET         record only these syscalls: names and strace classes\n"
	"                       (%file %desc %process %network %memory %signal %ipc\n"
	"                       %creds %clock %stat), comma separated, '!' negates;\n"
	"                       open@64, %file@32, open@x32: one personality's\n"
	"  -Z, --failed-only    record only syscalls that returned an error\n"
	"      --inject SPEC, -e inject=SPEC  tamper with CMD's calls as strace's\n"
	"                       -e inject= does (error=, retval=, signal=, delay_*=,\n"
	"                       poke_*=, when=; sonde-strace(1)); the calls of\n"
	"                       -e trace= only; not with -p or --comm\n"
	"      --fault SPEC, -e fault=SPEC  the same with error= (ENOSYS by default)\n"
	"  -s, --snaplen N|full user memory captured per call: data buffers of file\n"
	"                       and socket I/O (the bytes the call produced or\n"
	"                       consumed), paths, argv, structs; suffix K/M; default\n"
	"                       256K; full = 2M; 0 = metadata only. Stored once per\n"
	"                       distinct content (the summary gives the dedup ratio)\n"
	"      --no-sched       no context-switch and wakeup records\n"
	"      --ip             each call's user instruction pointer (for strace -i)\n"
	"      --user-stack[=N] each call's user stack, unwound by 'sonde print\n"
	"                       --strace -k': the registers, N bytes of stack from\n"
	"                       the stack pointer up (suffix K/M; default 256K, at\n"
	"                       most 1M), and the files each process maps\n"
	"      --ring-size SIZE per-CPU ring buffer (power of two, suffix K/M/G;\n"
	"                       default 64M with payloads, 16M with -s 0)\n"
	"      --buffer-size SIZE  memory for chunks waiting to be compressed,\n"
	"                       made ready before CMD starts (suffix K/M/G, whole\n"
	"                       8M chunks); default 64M with payloads, 2 chunks\n"
	"                       per CPU with -s 0; more is allocated on demand\n"
	"  -d, --duration SECS  stop recording after SECS seconds\n"
	"      --compression-level N  zstd level of the trace chunks, 1 (fast) to\n"
	"                       19 (small); default 3\n"
	"      --json           print the end-of-run summary as one JSON object\n"
	"  -q, --quiet          no progress messages, no summary\n"
	"\n"
	"SIGINT and SIGTERM stop the recording and finish the file; CMD keeps its own\n"
	"signal handling. The summary on stderr gives events, bytes written and lost\n"
	"events (lost events also appear in the trace where they happened).\n"
	"Needs root (CAP_BPF and CAP_PERFMON) and a kernel with BTF.\n";

enum { OPT_COMM = 256, OPT_NO_SCHED, OPT_RING, OPT_BUFFER, OPT_JSON, OPT_ZSTD, OPT_IP,
       OPT_USTACK, OPT_INJECT, OPT_FAULT };

static const struct option record_longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "pid", required_argument, NULL, 'p' },
	{ "comm", required_argument, NULL, OPT_COMM },
	{ "trace", required_argument, NULL, 'e' },
	{ "failed-only", no_argument, NULL, 'Z' },
	{ "snaplen", required_argument, NULL, 's' },
	{ "no-sched", no_argument, NULL, OPT_NO_SCHED },
	{ "ip", no_argument, NULL, OPT_IP },
	{ "user-stack", optional_argument, NULL, OPT_USTACK },
	{ "ring-size", required_argument, NULL, OPT_RING },
	{ "buffer-size", required_argument, NULL, OPT_BUFFER },
	{ "duration", required_argument, NULL, 'd' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "compression-level", required_argument, NULL, OPT_ZSTD },
	{ "quiet", no_argument, NULL, 'q' },
	{ "inject", required_argument, NULL, OPT_INJECT },
	{ "fault", required_argument, NULL, OPT_FAULT },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

struct record_cli {
	struct sonde_record_opts o;
	struct sonde_inject inject; /* --inject, --fault */
	pid_t pids[MAX_PIDS];
	int have_filter;
	int json;
};

static int parse_pids(struct record_cli *c, const char *arg)
{
	const char *p = arg;

	while (*p) {
		char *end;
		long v;

		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || end == p || v <= 0 || v > 0x3fffffff || (*end && *end != ',')) {
			cli_err("record", "-p: '%s' is not a list of PIDs", arg);
			return -1;
		}
		if (c->o.npids == MAX_PIDS) {
			cli_err("record", "-p: at most %d PIDs", MAX_PIDS);
			return -1;
		}
		c->pids[c->o.npids++] = (pid_t)v;
		p = *end ? end + 1 : end;
	}
	return 0;
}

static int parse_ring(const char *arg, size_t *out)
{
	unsigned long long v;

	/* The kernel takes a ring's size as a u32 power of two: 2G at most. */
	if (cli_parse_bytes(arg, &v) || v < 4096 || v > (1ull << 31) || (v & (v - 1))) {
		cli_err("record", "--ring-size: '%s' must be a power of two from 4K to 2G", arg);
		return -1;
	}
	*out = v;
	return 0;
}

/* Up to the writer's queue (512M): buffers past it could never be used. */
static int parse_buffer(const char *arg, size_t *out)
{
	unsigned long long v;

	if (cli_parse_bytes(arg, &v) || !v || v > (512ull << 20)) {
		cli_err("record", "--buffer-size: '%s' must be a size from 1 to 512M", arg);
		return -1;
	}
	*out = v;
	return 0;
}

/* --inject=SPEC, --fault=SPEC, -e inject=, -e fault= (inject.h). */
static int parse_inject(struct record_cli *c, const char *spec, bool fault)
{
	char err[256];

	if (!sonde_inject_parse(&c->inject, spec, fault, err, sizeof(err)))
		return 0;
	cli_err("record", "%s", err);
	return -1;
}

static int parse_trace(struct record_cli *c, const char *arg)
{
	char err[256];

	if (!strncmp(arg, "inject=", 7))
		return parse_inject(c, arg + 7, false);
	if (!strncmp(arg, "fault=", 6))
		return parse_inject(c, arg + 6, true);
	if (!strncmp(arg, "trace=", 6))
		arg += 6;
	else if (!strncmp(arg, "t=", 2))
		arg += 2;
	else if (strchr(arg, '=')) {
		cli_err("record", "-e: trace=, inject= and fault= are supported, not '%s'", arg);
		return -1;
	}
	if (sonde_sc_set_parse(&c->o.syscalls, arg, err, sizeof(err))) {
		cli_err("record", "-e trace=%s: %s", arg, err);
		return -1;
	}
	c->have_filter = 1;
	return 0;
}

static int parse_duration(struct record_cli *c, const char *arg)
{
	char *end;

	c->o.duration = strtod(arg, &end);
	if (end == arg || *end || !(c->o.duration > 0)) {
		cli_err("record", "--duration: '%s' is not a positive number of seconds", arg);
		return -1;
	}
	return 0;
}

static int parse_level(struct record_cli *c, const char *arg)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (end == arg || *end || v < 1 || v > 19) {
		cli_err("record", "--compression-level: '%s' is not a zstd level from 1 to 19", arg);
		return -1;
	}
	c->o.zstd_level = (int)v;
	return 0;
}

static int parse_opt(struct record_cli *c, char **argv, int opt)
{
	switch (opt) {
	case 'o': c->o.output = optarg; return 0;
	case 'p': return parse_pids(c, optarg);
	case OPT_COMM:
		if (!*optarg || strlen(optarg) >= SONDE_COMM_LEN) {
			cli_err("record", "--comm: a command name has 1 to %d characters",
				SONDE_COMM_LEN - 1);
			return -1;
		}
		c->o.comm = optarg;
		return 0;
	case 'e': return parse_trace(c, optarg);
	case 'Z': c->o.failed_only = true; return 0;
	case 's':
		if (!sonde_snaplen_parse(optarg, &c->o.snaplen))
			return 0;
		cli_err("record", "--snaplen: '%s' is not a byte count up to 2M (suffix K/M) or "
				  "'full'", optarg);
		return -1;
	case OPT_NO_SCHED: c->o.no_sched = true; return 0;
	case OPT_IP: c->o.ip = true; return 0;
	case OPT_USTACK:
		if (!sonde_user_stack_parse(optarg, &c->o.user_stack))
			return 0;
		cli_err("record", "--user-stack: '%s' is not a byte count from 8 to 1M (suffix K/M)",
			optarg);
		return -1;
	case OPT_RING: return parse_ring(optarg, &c->o.ring_bytes);
	case OPT_BUFFER: return parse_buffer(optarg, &c->o.buffer_bytes);
	case 'd': return parse_duration(c, optarg);
	case OPT_JSON: c->json = 1; return 0;
	case OPT_ZSTD: return parse_level(c, optarg);
	case OPT_INJECT: return parse_inject(c, optarg, false);
	case OPT_FAULT: return parse_inject(c, optarg, true);
	case 'q': c->o.quiet = true; return 0;
	case 'h': fputs(record_usage, stdout); exit(0);
	}
	cli_bad_option("record", argv, opt);
	return -1;
}

static char *join_argv(int argc, char **argv)
{
	size_t len = 1;
	char *s;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	if (!s)
		return NULL;
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

static const char *const type_names[SONDE_REC_TYPE_MAX] = {
	[SONDE_REC_SYSCALL] = "syscalls", [SONDE_REC_SWITCH] = "switches",
	[SONDE_REC_WAKEUP] = "wakeups",   [SONDE_REC_FORK] = "forks",
	[SONDE_REC_EXEC] = "execs",       [SONDE_REC_EXIT] = "exits",
	[SONDE_REC_COMM] = "renames",     [SONDE_REC_LOST] = "lost_records",
	[SONDE_REC_PROC] = "procs",       [SONDE_REC_PAYLOAD] = "payloads",
	[SONDE_REC_SIGNAL] = "signals",   [SONDE_REC_SIGGEN] = "signals_sent",
	[SONDE_REC_NSPID] = "pid_namespaces", [SONDE_REC_IMAGE] = "images",
};

static double dedup_ratio(const struct sonde_record_summary *s)
{
	return s->payload_stored ? (double)s->payload_bytes / s->payload_stored : 1.0;
}

static void summary_json(const struct record_cli *c, const struct sonde_record_summary *s)
{
	fprintf(stderr, "{\"output\":\"");
	for (const char *p = c->o.output; *p; p++)
		fprintf(stderr, (*p == '"' || *p == '\\') ? "\\%c" : (unsigned char)*p < 0x20 ?
			"\\u%04x" : "%c", *p);
	fprintf(stderr, "\",\"events\":%llu", (unsigned long long)s->records);
	for (int t = 1; t < SONDE_REC_TYPE_MAX; t++)
		if (type_names[t])
			fprintf(stderr, ",\"%s\":%llu", type_names[t],
				(unsigned long long)s->by_type[t]);
	fprintf(stderr,
		",\"snaplen\":%u,\"payload_bytes\":%llu,\"payload_stored\":%llu,"
		"\"payload_dedup\":%.3f,\"payload_blobs\":%llu,\"payload_file_bytes\":%llu,"
		"\"payload_shed\":%llu,\"payload_shed_bytes\":%llu,\"payload_unreadable\":%llu",
		s->snaplen, (unsigned long long)s->payload_bytes,
		(unsigned long long)s->payload_stored, dedup_ratio(s),
		(unsigned long long)s->payload_blobs, (unsigned long long)s->payload_file_bytes,
		(unsigned long long)s->payload_shed, (unsigned long long)s->payload_shed_bytes,
		(unsigned long long)s->payload_unreadable);
	fprintf(stderr,
		",\"unfinished\":%llu,\"lost\":%llu,\"lost_ring\":%llu,\"lost_writer\":%llu,"
		"\"malformed\":%llu,"
		"\"raw_bytes\":%llu,\"file_bytes\":%llu,\"duration_s\":%.6f,\"cpu_s\":%.6f,"
		"\"ncpus\":%u,\"ring_bytes\":%zu,\"status\":%d,\"stop_signal\":%d}\n",
		(unsigned long long)s->unfinished,
		(unsigned long long)(s->lost_ring + s->lost_writer),
		(unsigned long long)s->lost_ring, (unsigned long long)s->lost_writer,
		(unsigned long long)s->malformed, (unsigned long long)s->raw_bytes,
		(unsigned long long)s->file_bytes, s->duration_s, s->cpu_s, s->ncpus,
		s->ring_bytes, s->cmd_status, s->stop_signal);
}

static void summary_text(const struct record_cli *c, const struct sonde_record_summary *s)
{
	uint64_t ev = s->records ? s->records : 1;

	fprintf(stderr, "sonde record: %s: %llu events in %.3f s (%.0f/s), %llu lost\n",
		c->o.output, (unsigned long long)s->records, s->duration_s,
		s->duration_s > 0 ? s->records / s->duration_s : 0.0,
		(unsigned long long)(s->lost_ring + s->lost_writer));
	fprintf(stderr, "sonde record:  ");
	for (int t = 1; t < SONDE_REC_TYPE_MAX; t++)
		if (s->by_type[t] && type_names[t])
			fprintf(stderr, " %s %llu", type_names[t],
				(unsigned long long)s->by_type[t]);
	if (s->unfinished)
		fprintf(stderr, " (%llu unfinished)", (unsigned long long)s->unfinished);
	fprintf(stderr, "\nsonde record:   %llu bytes on disk (%.2f per event, %llu raw), "
			"recorder CPU %.3f s\n",
		(unsigned long long)s->file_bytes, (double)s->file_bytes / ev,
		(unsigned long long)s->raw_bytes, s->cpu_s);
	if (s->snaplen)
		fprintf(stderr, "sonde record:   payloads: %llu bytes captured, %llu stored in %llu "
				"blobs (dedup %.2fx), %llu on disk; %llu shed (%llu bytes), %llu "
				"unreadable\n",
			(unsigned long long)s->payload_bytes, (unsigned long long)s->payload_stored,
			(unsigned long long)s->payload_blobs, dedup_ratio(s),
			(unsigned long long)s->payload_file_bytes, (unsigned long long)s->payload_shed,
			(unsigned long long)s->payload_shed_bytes,
			(unsigned long long)s->payload_unreadable);
	if (s->payload_shed)
		fprintf(stderr, "sonde record: note: %llu payloads (%llu bytes) were shed: the rings "
				"filled faster than they were drained; a larger --ring-size (e.g. "
				"256M) keeps them\n",
			(unsigned long long)s->payload_shed,
			(unsigned long long)s->payload_shed_bytes);
	if (s->malformed)
		fprintf(stderr, "sonde record: warning: %llu malformed records from the kernel "
				"were dropped (a sonde bug: please report it)\n",
			(unsigned long long)s->malformed);
	if (s->lost_ring + s->lost_writer)
		fprintf(stderr, "sonde record: warning: %llu events lost (%llu: ring full, try "
				"a larger --ring-size; %llu: file write errors)\n",
			(unsigned long long)(s->lost_ring + s->lost_writer),
			(unsigned long long)s->lost_ring, (unsigned long long)s->lost_writer);
}

static int record_status(const struct record_cli *c, const struct sonde_record_summary *s)
{
	/* Without a command (-p, --comm) a stop by SIGINT/SIGTERM is the
	 * normal end; a command still running when the recording was stopped
	 * has no status yet: report the interruption like a shell. */
	if (s->cmd_status < 0)
		return c->o.argv && s->stop_signal ? 128 + s->stop_signal : 0;
	if (WIFEXITED(s->cmd_status))
		return WEXITSTATUS(s->cmd_status);
	if (WIFSIGNALED(s->cmd_status))
		return 128 + WTERMSIG(s->cmd_status);
	return 1;
}

static int record_fail(struct record_cli *c, int status)
{
	sonde_inject_free(&c->inject);
	return status;
}

static int record_run(int argc, char **argv)
{
	struct record_cli c = { 0 };
	struct sonde_record_summary s;
	char err[512] = "";
	int opt, e;

	sonde_sc_set_fill(&c.o.syscalls);
	c.o.output = SONDE_RECORD_DEFAULT_OUTPUT;
	c.o.snaplen = SONDE_SNAPLEN_DEFAULT;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:o:p:e:Zs:d:qh", record_longopts, NULL)) != -1)
		if (parse_opt(&c, argv, opt))
			return record_fail(&c, 2);
	c.o.pids = c.pids;
	if (optind < argc)
		c.o.argv = argv + optind;
	if (!c.o.argv && !c.o.npids && !c.o.comm) {
		cli_err("record", "nothing to trace: give a command after '--', -p PID or --comm "
				  "NAME ('sonde help record')");
		return record_fail(&c, 2);
	}
	if (c.inject.n && (c.o.npids || c.o.comm)) {
		cli_err("record", "--inject and --fault tamper with a command sonde starts (a "
				  "seccomp filter installed before its execve), not with -p or --comm");
		return record_fail(&c, 2);
	}
	if (c.inject.n) {
		/* as strace: only the calls it traces */
		if (c.have_filter)
			sonde_inject_restrict(&c.inject, &c.o.syscalls);
		c.o.inject = &c.inject;
	}
	c.o.cmdline = join_argv(argc, argv);
	e = sonde_record_run(&c.o, &s, err, sizeof(err));
	free((char *)c.o.cmdline);
	sonde_inject_free(&c.inject);
	if (s.cmd_error) {
		cli_err("record", "%s", err);
		return s.cmd_error == -ENOENT ? 127 : 126;
	}
	/* Even with -q: the command did not run (ENOEXEC, a missing #!
	 * interpreter), which its status alone does not say. */
	if (s.exec_error)
		cli_err("record", "%s: %s", c.o.argv[0], strerror(-s.exec_error));
	if ((s.records || s.lost_ring + s.lost_writer) && !c.o.quiet) {
		if (c.json)
			summary_json(&c, &s);
		else
			summary_text(&c, &s);
	}
	if (e) {
		cli_err("record", "%s", err);
		return 1;
	}
	return record_status(&c, &s);
}

const struct sonde_cmd cmd_record = {
	.name = "record",
	.summary = "record an application's syscalls, scheduling and processes to a file",
	.usage = record_usage,
	.run = record_run,
};
