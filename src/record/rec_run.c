// SPDX-License-Identifier: GPL-2.0
/*
 * sonde_record_run(): the recorder's life cycle.
 *
 *   checks (command, privileges, BTF) -> fork the command stopped -> load
 *   BPF, create rings -> open the trace file -> attach -> fill the traced
 *   set (command child, -p, --comm) -> consumer thread -> release it ->
 *   wait (set empty / signal / duration) -> detach -> final drain ->
 *   pending losses, unfinished syscalls -> close the file -> reap.
 *
 * Records made by user space (PROC, UNFINISHED) go to stream ncpus, the
 * first user-space stream of the file; kernel records to their CPU's.
 *
 * SIGINT and SIGTERM are blocked in every recorder thread and taken with
 * sigtimedwait() by the main loop, so a signal never interrupts a write
 * half-way; the command gets a clean signal mask before its execve.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "record/payload.h"
#include "record/rec_int.h"

#define WAIT_TICK_NS 20000000L /* main loop period */
#define STALE_CHECK_NS 1000000000ull
/* How long a stop signal waits for the traced processes to finish dying. */
#define STOP_GRACE_NS 300000000ull
#define CAP_BPF_BIT 39
#define CAP_PERFMON_BIT 38
#define CAP_SYS_ADMIN_BIT 21


static int cap_effective(int cap)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return 0;
	return (d[cap / 32].effective >> (cap % 32)) & 1;
}

int record_check_env(char *err, size_t errlen)
{
	if (!cap_effective(CAP_SYS_ADMIN_BIT) &&
	    !(cap_effective(CAP_BPF_BIT) && cap_effective(CAP_PERFMON_BIT))) {
		snprintf(err, errlen,
			 "needs root (CAP_BPF and CAP_PERFMON) to load BPF programs; run with sudo");
		return -EPERM;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		snprintf(err, errlen,
			 "/sys/kernel/btf/vmlinux is missing: this kernel has no BTF; sonde needs a "
			 "kernel built with CONFIG_DEBUG_INFO_BTF=y");
		return -ENOENT;
	}
	return 0;
}

int record_resolve(const struct sonde_record_opts *o, char *path, struct sonde_record_summary *sum,
		   char *err, size_t errlen)
{
	int e = sonde_resolve_cmd(o->argv[0], path, PATH_MAX);

	if (e) {
		snprintf(err, errlen, "%s: %s", o->argv[0],
			 e == -ENOENT ? "command not found" : strerror(-e));
		sum->cmd_error = e;
	}
	return e;
}

/* Old kernels charge BPF memory to RLIMIT_MEMLOCK; 5.11+ to the memcg.
 * Raising it is best effort and never fatal. */
static void record_raise_memlock(void)
{
	struct rlimit r = { RLIM_INFINITY, RLIM_INFINITY };

	setrlimit(RLIMIT_MEMLOCK, &r);
}

/*
 * Chunk buffers made ready before the command starts. Without payloads,
 * two per CPU: a tar | cat run of 0.2 s spent 38 ms of its recorder's CPU
 * zeroing fresh ones, on CPUs tar and cat needed. With payloads, a burst
 * (tar's 490 MB) queues tens of chunks for the compression thread; made
 * while the program runs, each 8 MiB buffer cost 4-10 ms of page faults
 * on the benchmark VM (bench/README.md): 64 MiB by default, --buffer-size
 * for more.
 */
static unsigned int record_buffer_chunks(const struct sonde_record_opts *o, unsigned int ncpus)
{
	size_t b = o->buffer_bytes;

	if (!b && !o->snaplen && !o->user_stack)
		return 2 * ncpus;
	if (!b)
		b = SONDE_RECORD_DEFAULT_BUFFER;
	return (unsigned int)((b + SONDE_RECORD_CHUNK - 1) / SONDE_RECORD_CHUNK);
}

static int record_open_writer(struct sonde_writer **w, const struct sonde_record_opts *o,
			      unsigned int ncpus, char *err, size_t errlen)
{
	/* One compression thread keeps zstd off the consumer thread. Level 3
	 * and 8 MiB chunks: with transform 2 (src/format/xform.c) the tar
	 * benchmark's chunks take 6.5 bytes per syscall at level 3, in a fifth
	 * of the CPU time level 9 needs for 5.7; on 2 CPUs that time is taken
	 * from the traced application (level 19 could not keep up with the
	 * syscall loop and lost a quarter of the events). */
	struct sonde_writer_opts wo = {
		.threads = 1,
		.zstd_level = o->zstd_level ? o->zstd_level : SONDE_RECORD_DEFAULT_ZSTD,
		.chunk_bytes = SONDE_RECORD_CHUNK,
		.prefault_chunks = record_buffer_chunks(o, ncpus),
	};
	struct sonde_meta m = { .version = SONDE_FORMAT_VERSION };
	struct timespec mono, wall;
	struct utsname u;

	if (o->live && o->live_only)
		return 0;
	uname(&u);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &wall);
	m.host = u.nodename;
	m.kernel = u.release;
	m.machine = u.machine;
	m.ncpus = ncpus;
	m.mono_ref_ns = (uint64_t)mono.tv_sec * 1000000000ull + mono.tv_nsec;
	m.wall_ref_ns = (uint64_t)wall.tv_sec * 1000000000ull + wall.tv_nsec;
	m.cmdline = o->cmdline ? o->cmdline : "sonde record";
	m.nsyscalls = sonde_syscall_count();
	m.syscall_names = sonde_syscall_table();
	return sonde_writer_open(w, o->output ? o->output : SONDE_RECORD_DEFAULT_OUTPUT, &m, &wo,
				 err, errlen);
}

/* -p lists tgid at an earlier place (the same PID twice, or a PID and
 * one of its TIDs): the process is attached once. */
static int pid_listed_before(const struct sonde_record_opts *o, size_t i, int tgid)
{
	for (size_t j = 0; j < i; j++)
		if (rec_proc_tgid(o->pids[j]) == tgid)
			return 1;
	return 0;
}

/* -p: every PID is mapped to its process (a TID names its thread group). */
static int record_add_pids(struct rec_bpf *b, struct rec_consumer *c,
			   const struct sonde_record_opts *o, char *err, size_t errlen)
{
	for (size_t i = 0; i < o->npids; i++) {
		int tgid = rec_proc_tgid(o->pids[i]);

		if (tgid <= 0) {
			snprintf(err, errlen, "no process with PID %d", (int)o->pids[i]);
			return -ESRCH;
		}
		if (pid_listed_before(o, i, tgid))
			continue;
		rec_bpf_trace_tgid(b, tgid);
		rec_proc_write(c, b->ncpus, tgid);
		rec_proc_attach_tasks(b, c, b->ncpus, tgid, rec_now_mono());
	}
	return 0;
}

/* Tells the user (and scripts waiting for it) that recording has begun. */
static void record_announce(const struct sonde_record_opts *o, int ncomm)
{
	if (o->quiet)
		return;
	for (size_t i = 0; i < o->npids; i++)
		if (!pid_listed_before(o, i, rec_proc_tgid(o->pids[i])))
			fprintf(stderr, "sonde record: attached to process %d\n",
				rec_proc_tgid(o->pids[i]));
	if (o->comm)
		fprintf(stderr, "sonde record: following processes named '%s' (%d running now)\n",
			o->comm, ncomm);
	if (!o->argv)
		fprintf(stderr, "sonde record: recording to %s; SIGINT (Ctrl-C) stops\n",
			o->output ? o->output : SONDE_RECORD_DEFAULT_OUTPUT);
}

/* A process that died between the /proc look-up and the bit being set
 * never fires the exit tracepoint that would clear it: drop such bits so
 * the run still ends when everything is gone. */
static void stale_one(pid_t tgid, void *arg)
{
	if (rec_proc_is_dead(tgid))
		rec_bpf_untrace_tgid(arg, tgid);
}

struct run {
	const struct sonde_record_opts *o;
	struct rec_bpf b;
	struct rec_consumer c;
	struct sonde_writer *w;
	struct rec_child ch;
	int child_status;
	int child_reaped;
	int stop_signal;
	int ncomm; /* --comm matches found in /proc at start */
};

static void run_reap(struct run *r, int flags)
{
	if (r->ch.pid > 0 && !r->ch.adopted && !r->child_reaped &&
	    waitpid(r->ch.pid, &r->child_status, flags) == r->ch.pid)
		r->child_reaped = 1;
}

/*
 * Ctrl-C on a terminal reaches the whole foreground process group: the
 * command gets the same SIGINT as sonde and is usually dying already. Keep
 * recording until the traced processes are gone (their interrupted calls
 * return, their exits are recorded) or the grace period ends, so the trace
 * ends where the command ended instead of a few microseconds earlier. A
 * command that handles the signal and runs on is left alone after it.
 */
static void run_grace(struct run *r)
{
	uint64_t end = rec_now_mono() + STOP_GRACE_NS;
	struct timespec tick = { 0, 5000000 };

	while (rec_bpf_ntraced(&r->b) && rec_now_mono() < end) {
		nanosleep(&tick, NULL);
		run_reap(r, WNOHANG);
	}
}

static void run_wait(struct run *r, sigset_t *sigs)
{
	uint64_t start = rec_now_mono(), last_stale = start;
	struct timespec tick = { 0, WAIT_TICK_NS };
	siginfo_t si;

	for (;;) {
		int sig = sigtimedwait(sigs, &si, &tick);
		uint64_t now = rec_now_mono();

		if (sig == SIGINT || sig == SIGTERM) {
			r->stop_signal = sig;
			run_grace(r);
			return;
		}
		if (rec_live_failed(r->c.live)) {
			r->stop_signal = SIGPIPE; /* the live output broke */
			return;
		}
		run_reap(r, WNOHANG);
		if (r->o->duration > 0 && (double)(now - start) / 1e9 >= r->o->duration)
			return;
		if (r->o->comm)
			continue;
		if (now - last_stale >= STALE_CHECK_NS) {
			rec_bpf_for_each_traced(&r->b, stale_one, &r->b);
			last_stale = now;
		}
		if (!rec_bpf_ntraced(&r->b))
			return;
	}
}

/* After detaching, programs already running on other CPUs finish within
 * microseconds (they run with preemption disabled); wait that out before
 * the final drain so their records are in the rings. */
static void run_stop(struct run *r)
{
	struct timespec settle = { 0, 5000000 };

	rec_bpf_detach(&r->b);
	nanosleep(&settle, NULL);
	rec_consumer_stop(&r->c);
	rec_consumer_drain_batches(&r->c);
	rec_proc_flush_lost(&r->b, &r->c);
}

static void run_summary(struct run *r, struct sonde_record_summary *s, uint64_t t0,
			uint64_t unfinished)
{
	struct sonde_writer_stats ws = { 0 };
	struct sonde_cap_cpu cap;
	struct rusage ru;

	if (r->w) {
		/* Every chunk through the payload store: final counts. */
		sonde_writer_flush(r->w);
		sonde_writer_stats(r->w, &ws);
	}
	rec_payload_stats(&r->b, &cap);
	s->snaplen = r->o->snaplen;
	s->payload_bytes = ws.payload_bytes;
	s->payload_stored = ws.payload_stored;
	s->payload_blobs = ws.payload_blobs;
	s->payload_file_bytes = ws.payload_file_bytes;
	s->payload_shed = cap.shed;
	s->payload_shed_bytes = cap.shed_bytes;
	s->payload_unreadable = cap.faults;
	/* What the file holds: records whose chunk could not be written
	 * (disk full) are lost, like the appends refused after that. */
	s->records = ws.records - ws.lost;
	s->raw_bytes = ws.raw_bytes;
	for (int t = 0; t < SONDE_REC_TYPE_MAX; t++)
		s->by_type[t] = r->c.by_type[t] - ws.lost_by_type[t];
	s->unfinished = unfinished;
	s->lost_ring = r->c.lost_ring;
	s->lost_writer = r->c.lost_writer + ws.lost;
	s->malformed = r->c.bad;
	s->duration_s = (double)(rec_now_mono() - t0) / 1e9;
	getrusage(RUSAGE_SELF, &ru);
	s->cpu_s = ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
		   (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	s->ncpus = r->b.ncpus;
	s->ring_bytes = r->b.ring_bytes;
	s->stop_signal = r->stop_signal;
}

/* The final error of a file that could not be written to the end. */
static void record_write_failed(const struct run *r, const struct sonde_record_summary *s,
				int e, char *err, size_t errlen)
{
	size_t n;

	rec_write_error(err, errlen, r->c.path, e);
	n = strlen(err);
	if (n < errlen)
		snprintf(err + n, errlen - n, ": %llu events lost; the trace is readable up to "
					      "its last complete chunk",
			 (unsigned long long)s->lost_writer);
}

static int run_setup(struct run *r, const char *path, char *err, size_t errlen)
{
	const struct sonde_record_opts *o = r->o;
	int e;

	/* The command first: it must be blocked on its pipe before it joins
	 * the traced set, and loading takes long enough for that. */
	if (o->argv) {
		e = o->adopt ? rec_child_adopt(&r->ch, o, err, errlen)
			     : rec_child_spawn(&r->ch, path, o, err, errlen);
		if (e)
			return e;
	}
	e = rec_bpf_load(&r->b, o, err, errlen);
	if (e)
		return e;
	e = record_open_writer(&r->w, o, r->b.ncpus, err, errlen);
	if (e)
		return e;
	e = rec_consumer_init(&r->c, &r->b, r->w, err, errlen);
	if (e)
		return e;
	r->c.path = o->output ? o->output : SONDE_RECORD_DEFAULT_OUTPUT;
	e = rec_live_start(&r->c.live, o->live, err, errlen);
	if (e)
		return e;
	e = rec_bpf_attach(&r->b, err, errlen);
	if (e)
		return e;
	if (o->argv) {
		rec_bpf_trace_tgid(&r->b, r->ch.pid);
		if (r->ch.blocked)
			rec_bpf_set_inflight(
				&r->b, r->ch.pid,
				&(struct sonde_inflight){ .active = SONDE_INFLIGHT_SKIP });
		/* What it inherits, for -y: pipes, terminals, sockets. */
		rec_proc_write_launched(&r->c, r->b.ncpus, r->ch.pid);
	}
	e = record_add_pids(&r->b, &r->c, o, err, errlen);
	if (e)
		return e;
	if (o->comm) {
		r->ncomm = rec_proc_add_comm(&r->b, &r->c, r->b.ncpus, o->comm);
		if (r->ncomm < 0) {
			snprintf(err, errlen, "scanning /proc: %s", strerror(-r->ncomm));
			return r->ncomm;
		}
	}
	return rec_consumer_start(&r->c, err, errlen);
}

/*
 * -e inject: the supervisor goes with the recorder. Tasks still under the
 * filter (recording stopped by a signal before they ended) then get
 * ENOSYS for the calls it names: seccomp's answer without a listener.
 */
static void run_inject_stop(struct run *r)
{
	uint64_t left = rec_bpf_ntraced(&r->b);

	if (!r->ch.sup)
		return;
	sonde_inject_stop(r->ch.sup);
	r->ch.sup = NULL;
	if (left)
		fprintf(stderr,
			"sonde: %llu process%s still under the -e inject filter: the calls "
			"it names now fail with ENOSYS\n",
			(unsigned long long)left, left > 1 ? "es are" : " is");
}

static void run_cleanup(struct run *r)
{
	if (r->ch.pid > 0 && !r->child_reaped && r->ch.go_fd >= 0)
		rec_child_kill(&r->ch);
	rec_consumer_stop(&r->c);
	rec_consumer_free(&r->c);
	rec_live_free(r->c.live);
	r->c.live = NULL;
	if (r->w)
		sonde_writer_close(r->w);
	r->w = NULL;
	rec_bpf_close(&r->b);
}

int sonde_record_run(const struct sonde_record_opts *o, struct sonde_record_summary *sum,
		     char *err, size_t errlen)
{
	struct run r = { .o = o, .ch = { .pid = -1, .go_fd = -1, .err_fd = -1 } };
	char path[PATH_MAX];
	sigset_t sigs, old;
	uint64_t t0, unfinished;
	struct stat st;
	int e;

	memset(sum, 0, sizeof(*sum));
	sum->cmd_status = -1;
	if (o->argv && (e = record_resolve(o, path, sum, err, errlen)))
		return e;
	if (o->inject && o->inject->n && (!o->argv || o->npids || o->comm)) {
		snprintf(err, errlen,
			 "-e inject and -e fault tamper with a command sonde starts "
			 "(a seccomp filter installed before its execve), not with "
			 "processes -p or --comm attach to");
		return -EINVAL;
	}
	for (size_t i = 0; i < o->npids; i++)
		if (rec_proc_tgid(o->pids[i]) <= 0) {
			snprintf(err, errlen, "no process with PID %d", (int)o->pids[i]);
			return -ESRCH;
		}
	e = record_check_env(err, errlen);
	if (e)
		return e;
	record_raise_memlock();
	/* Before any thread exists (writer, consumer), so all inherit it. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, &old);
	e = run_setup(&r, path, err, errlen);
	if (e)
		goto out;
	t0 = rec_now_mono();
	record_announce(o, r.ncomm);
	if (o->argv) {
		/* The caller reports it (sum->exec_error), in its own words. */
		sum->exec_error = rec_child_release(&r.ch, r.b.inject_marks_fd);
	}
	run_wait(&r, &sigs);
	run_stop(&r);
	run_inject_stop(&r);
	unfinished = rec_proc_unfinished(&r.b, &r.c, r.b.ncpus, o);
	rec_live_stop(r.c.live);
	run_summary(&r, sum, t0, unfinished);
	e = sonde_writer_close(r.w);
	r.w = NULL;
	if (e)
		record_write_failed(&r, sum, e, err, errlen);
	else if (r.c.write_err)
		snprintf(err, errlen, "writing %s: %s (%llu records could not be stored)",
			 o->output ? o->output : SONDE_RECORD_DEFAULT_OUTPUT,
			 strerror(-r.c.write_err), (unsigned long long)r.c.lost_writer);
	e = e ? e : r.c.write_err;
	if (!(o->live && o->live_only) &&
	    !stat(o->output ? o->output : SONDE_RECORD_DEFAULT_OUTPUT, &st))
		sum->file_bytes = st.st_size;
	if (!r.stop_signal)
		run_reap(&r, 0);
	else if (!r.ch.adopted) /* -D: its parent reaps it */
		for (int i = 0; i < 50 && !r.child_reaped; i++) {
			struct timespec t = { 0, WAIT_TICK_NS };

			run_reap(&r, WNOHANG);
			if (!r.child_reaped)
				nanosleep(&t, NULL);
		}
	sum->cmd_status = r.child_reaped ? r.child_status : -1;
out:
	run_cleanup(&r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return e;
}
