// SPDX-License-Identifier: GPL-2.0
/*
 * What user space adds to the stream: SONDE_REC_PROC records naming the
 * processes that existed before recording began, the syscalls still blocked
 * when it stops (SONDE_SC_UNFINISHED), and loss counts the kernel could not
 * emit itself.
 */
#include <ctype.h>
#include <sched.h>
#include <sys/stat.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "record/rec_int.h"
#include <sonde/payload.h>

uint64_t rec_now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

ssize_t rec_proc_read(pid_t pid, const char *name, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n >= 0)
		buf[n] = 0;
	return n;
}

/* What follows "FIELD:" in a status file's text, or NULL. */
static const char *status_find(const char *buf, const char *field)
{
	size_t fl = strlen(field);
	const char *p;

	for (p = buf; p; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (!strncmp(p, field, fl) && p[fl] == ':')
			return p + fl + 1;
	}
	return NULL;
}

static long status_field(pid_t pid, const char *field)
{
	char buf[2048];
	const char *v;

	if (rec_proc_read(pid, "status", buf, sizeof(buf)) < 0)
		return -1;
	v = status_find(buf, field);
	return v ? strtol(v, NULL, 10) : -1;
}

int rec_proc_tgid(pid_t pid)
{
	return (int)status_field(pid, "Tgid");
}

/*
 * Gone, or a zombie with no thread left. A zombie leader whose other
 * threads still run (the main thread called pthread_exit) also shows
 * state Z, but counts them in Threads.
 */
int rec_proc_is_dead(pid_t tgid)
{
	char buf[2048], *st, state;

	if (rec_proc_read(tgid, "status", buf, sizeof(buf)) < 0)
		return 1;
	st = strstr(buf, "\nState:");
	if (!st)
		return 0;
	state = st[8 + strspn(st + 8, " \t")];
	if (state != 'Z' && state != 'X')
		return 0;
	return status_field(tgid, "Threads") <= 1;
}

/* The CPU a thread last ran on (field 39 of /proc/PID/task/TID/stat). */
static unsigned int proc_last_cpu(pid_t tgid, pid_t tid)
{
	char name[64], buf[1024], *p;
	int field = 2;

	snprintf(name, sizeof(name), "task/%d/stat", (int)tid);
	if (rec_proc_read(tgid, name, buf, sizeof(buf)) < 0)
		return 0;
	p = strrchr(buf, ')'); /* comm may contain spaces and parentheses */
	if (!p)
		return 0;
	for (; *p && field < 39; p++)
		if (*p == ' ')
			field++;
	return (unsigned int)strtoul(p, NULL, 10);
}

static int is_pid_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* Largest record: hdr.size is 16 bits and a multiple of 8. */
#define PROC_REC_MAX 65528

static int fd_cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* The open descriptors of tgid, ascending; NULL when none are readable. */
static int *proc_fd_list(pid_t tgid, size_t *n)
{
	struct dirent *de;
	size_t cap = 0;
	char path[64];
	int *v = NULL;
	DIR *d;

	*n = 0;
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)tgid);
	d = opendir(path);
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		if (!is_pid_name(de->d_name))
			continue;
		if (*n == cap) {
			int *nv = realloc(v, (cap = cap ? cap * 2 : 64) * sizeof(*v));

			if (!nv)
				break;
			v = nv;
		}
		v[(*n)++] = atoi(de->d_name);
	}
	closedir(d);
	if (v)
		qsort(v, *n, sizeof(*v), fd_cmp);
	return v;
}

/* "flags:\t02100002" of /proc/PID/fdinfo/FD: O_CLOEXEC is 02000000. */
static int proc_fd_cloexec(pid_t tgid, int fd)
{
	char name[48], buf[512], *f;

	snprintf(name, sizeof(name), "fdinfo/%d", fd);
	if (rec_proc_read(tgid, name, buf, sizeof(buf)) <= 0)
		return 0;
	f = strstr(buf, "flags:");
	return f && (strtoul(f + 6, NULL, 8) & O_CLOEXEC);
}

/* A PROC record being filled: a full one goes out and the list goes on
 * in the next (SONDE_PROC_FDS_MORE, then SONDE_PROC_FDS_CONT). */
struct proc_out {
	struct rec_consumer *c;
	unsigned int stream;
	struct sonde_ev_proc *ev;
	size_t off;
	int err;
};

static void proc_send(struct proc_out *o)
{
	int e;

	o->ev->hdr.ts = rec_now_mono();
	o->ev->hdr.size = (uint16_t)o->off;
	o->ev->hdr.cpu = sched_getcpu() < 0 ? 0 : sched_getcpu();
	e = rec_consumer_append(o->c, o->stream, &o->ev->hdr);
	if (e && !o->err)
		o->err = e;
}

static void proc_add_fd(struct proc_out *o, int fd, const char *path, size_t len, uint16_t flags)
{
	size_t need = SONDE_REC_ALIGN(sizeof(struct sonde_proc_fd) + len);
	struct sonde_proc_fd *e;

	if (o->off + need > PROC_REC_MAX) {
		o->ev->hdr.flags |= SONDE_PROC_FDS_MORE;
		proc_send(o);
		/* The continuation: the same header, no cmdline. */
		o->ev->hdr.flags = (o->ev->hdr.flags & ~SONDE_PROC_FDS_MORE) | SONDE_PROC_FDS_CONT;
		o->ev->cmdline_len = 0;
		o->off = sizeof(*o->ev);
	}
	e = (void *)((char *)o->ev + o->off);
	memset(e, 0, need);
	e->fd = fd;
	e->path_len = (uint16_t)len;
	e->flags = flags;
	memcpy(e + 1, path, len);
	o->off += need;
}

/*
 * Appends what each descriptor of tgid refers to, as /proc/PID/fd links
 * say ("/dev/pts/0", "pipe:[123]", "socket:[456]"), the working directory
 * first as fd AT_FDCWD (-100).
 */
static void proc_fds(struct proc_out *o, pid_t tgid)
{
	char link[64], path[PATH_MAX];
	size_t n;
	int *fds = proc_fd_list(tgid, &n);
	ssize_t len;

	o->ev->hdr.flags |= SONDE_PROC_FDS;
	snprintf(link, sizeof(link), "/proc/%d/cwd", (int)tgid);
	len = readlink(link, path, sizeof(path));
	if (len > 0 && len < (ssize_t)sizeof(path))
		proc_add_fd(o, -100, path, (size_t)len, 0);
	for (size_t i = 0; i < n; i++) {
		snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)tgid, fds[i]);
		len = readlink(link, path, sizeof(path));
		if (len <= 0 || len >= (ssize_t)sizeof(path))
			continue; /* closed meanwhile */
		proc_add_fd(o, fds[i], path, (size_t)len,
			    proc_fd_cloexec(tgid, fds[i]) ? SONDE_PROC_FD_CLOEXEC : 0);
	}
	free(fds);
}

static int proc_write(struct rec_consumer *c, unsigned int stream, pid_t tgid, uint16_t flags)
{
	struct proc_out o = { .c = c, .stream = stream, .ev = calloc(1, PROC_REC_MAX) };
	struct sonde_ev_proc *ev = o.ev;
	char comm[64];
	ssize_t n;

	if (!ev)
		return -ENOMEM;
	n = rec_proc_read(tgid, "comm", comm, sizeof(comm));
	if (n < 0) {
		free(ev);
		return (int)n;
	}
	if (n > 0 && comm[n - 1] == '\n')
		comm[n - 1] = 0;
	memcpy(ev->comm, comm, strnlen(comm, SONDE_COMM_LEN - 1));
	n = rec_proc_read(tgid, "cmdline", (char *)(ev + 1), SONDE_EXEC_DATA_MAX);
	ev->cmdline_len = n > 0 ? (uint32_t)n : 0;
	ev->ppid = (uint32_t)status_field(tgid, "PPid");
	ev->hdr.pid = tgid;
	ev->hdr.tid = tgid;
	ev->hdr.type = SONDE_REC_PROC;
	ev->hdr.flags = flags;
	o.off = SONDE_REC_ALIGN(sizeof(*ev) + ev->cmdline_len);
	proc_fds(&o, tgid);
	proc_send(&o);
	free(ev);
	return o.err;
}

/* The numbers of a status line ("NSpid:\t4242\t1"): how many, and the
 * last one, the innermost namespace's. */
static int status_last(const char *buf, const char *field, uint32_t *last)
{
	const char *p = status_find(buf, field);
	char *end;
	int n = 0;

	for (; p; p = end, n++) {
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		*last = (uint32_t)v;
	}
	return n;
}

/*
 * A thread of a process sonde attaches to that lives outside the initial
 * pid namespace: its ids there, as a fork would have recorded them
 * (events.h, struct sonde_ev_nspid; the namespace's inode is the one of
 * /proc/PID/task/TID/ns/pid).
 */
static void nspid_write(struct rec_consumer *c, unsigned int stream, pid_t tgid, pid_t tid)
{
	struct sonde_ev_nspid r;
	char name[64], buf[2048];
	uint32_t ns_tid = 0, ns_pid = 0;
	struct stat st;
	int n;

	snprintf(name, sizeof(name), "task/%d/status", (int)tid);
	if (rec_proc_read(tgid, name, buf, sizeof(buf)) <= 0)
		return;
	n = status_last(buf, "NSpid", &ns_tid);
	if (n < 2 || status_last(buf, "NStgid", &ns_pid) != n)
		return;
	snprintf(name, sizeof(name), "/proc/%d/task/%d/ns/pid", (int)tgid, (int)tid);
	if (stat(name, &st))
		return;
	memset(&r, 0, sizeof(r));
	r.hdr.ts = rec_now_mono();
	r.hdr.pid = (uint32_t)tgid;
	r.hdr.tid = (uint32_t)tid;
	r.hdr.type = SONDE_REC_NSPID;
	r.hdr.size = sizeof(r);
	r.hdr.cpu = sched_getcpu() < 0 ? 0 : (uint16_t)sched_getcpu();
	r.ns_inum = st.st_ino;
	r.ns_tid = ns_tid;
	r.ns_pid = ns_pid;
	r.level = (uint32_t)(n - 1);
	rec_consumer_append(c, stream, &r.hdr);
}

int rec_proc_write(struct rec_consumer *c, unsigned int stream, pid_t tgid)
{
	return proc_write(c, stream, tgid, 0);
}

int rec_proc_write_launched(struct rec_consumer *c, unsigned int stream, pid_t pid)
{
	return proc_write(c, stream, pid, SONDE_PROC_LAUNCHED);
}

/*
 * /proc/PID/task/TID/syscall of a thread blocked in a call: "NR A1 ... A6
 * SP PC" (numbers in hex but NR); "running" or "-1 SP PC" otherwise.
 */
static int attached_call(pid_t tgid, pid_t tid, uint64_t ts, struct sonde_inflight *in)
{
	char name[64], buf[512];
	unsigned long long a[6], sp, pc;
	int nr, n;

	snprintf(name, sizeof(name), "task/%d/syscall", (int)tid);
	if (rec_proc_read(tgid, name, buf, sizeof(buf)) <= 0)
		return 0;
	n = sscanf(buf, "%d %llx %llx %llx %llx %llx %llx %llx %llx", &nr, &a[0], &a[1], &a[2],
		   &a[3], &a[4], &a[5], &sp, &pc);
	if (n < 7 || nr < 0 || nr >= SONDE_NR_SYSCALLS)
		return 0;
	memset(in, 0, sizeof(*in));
	in->ts = ts;
	for (int i = 0; i < 6; i++)
		in->args[i] = a[i];
	in->nr = (uint32_t)nr;
	in->active = SONDE_INFLIGHT_ATTACHED;
	in->ip = n == 9 ? pc : 0;
	return 1;
}

int rec_proc_attach_tasks(struct rec_bpf *b, struct rec_consumer *c, unsigned int stream,
			  pid_t tgid, uint64_t ts)
{
	struct sonde_inflight in;
	struct dirent *de;
	char path[64];
	int n = 0;
	DIR *d;

	if (rec_bpf_user_stack(b))
		rec_maps_write(c, stream, tgid);
	snprintf(path, sizeof(path), "/proc/%d/task", (int)tgid);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (!is_pid_name(de->d_name))
			continue;
		nspid_write(c, stream, tgid, atoi(de->d_name));
		if (attached_call(tgid, atoi(de->d_name), ts, &in) &&
		    !rec_bpf_set_inflight(b, atoi(de->d_name), &in))
			n++;
	}
	closedir(d);
	return n;
}

int rec_proc_add_comm(struct rec_bpf *b, struct rec_consumer *c, unsigned int stream,
		      const char *comm)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	char buf[64];
	int found = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		pid_t pid;
		ssize_t n;

		if (!is_pid_name(de->d_name))
			continue;
		pid = atoi(de->d_name);
		n = rec_proc_read(pid, "comm", buf, sizeof(buf));
		if (n <= 0)
			continue;
		if (buf[n - 1] == '\n')
			buf[n - 1] = 0;
		if (strncmp(buf, comm, SONDE_COMM_LEN - 1))
			continue;
		if (pid == getpid())
			continue;
		rec_bpf_trace_tgid(b, pid);
		rec_proc_write(c, stream, pid);
		rec_proc_attach_tasks(b, c, stream, pid, rec_now_mono());
		found++;
	}
	closedir(d);
	return found;
}

struct unfinished_ctx {
	struct rec_bpf *b;
	struct rec_consumer *c;
	const struct sonde_record_opts *o;
	unsigned int stream;
	uint64_t n;
};

/* --ip: the call's address, as sys_exit would have emitted it (payload.h). */
static void unfinished_ip(struct unfinished_ctx *u, const struct sonde_hdr *call,
			  const struct sonde_inflight *in)
{
	struct sonde_ev_payload p;

	memset(&p, 0, sizeof(p));
	p.hdr = *call;
	p.hdr.type = SONDE_REC_PAYLOAD;
	p.hdr.size = sizeof(p);
	p.hdr.flags = 0;
	p.addr = in->ip;
	p.nr = (uint16_t)in->nr;
	p.phase = SONDE_PLR_PHASE_IP;
	rec_consumer_append(u->c, u->stream, &p.hdr);
}

static void unfinished_emit(struct unfinished_ctx *u, pid_t tgid, pid_t tid,
			    const struct sonde_inflight *in, unsigned int cpu)
{
	struct sonde_ev_syscall r;

	if (!sonde_sc_set_has(&u->o->syscalls, in->nr, !!(in->flags & SONDE_SC_COMPAT)) ||
	    u->o->failed_only || in->active == SONDE_INFLIGHT_SKIP)
		return;
	memset(&r, 0, sizeof(r));
	r.hdr.ts = in->ts;
	r.hdr.pid = tgid;
	r.hdr.tid = tid;
	r.hdr.type = SONDE_REC_SYSCALL;
	r.hdr.size = sizeof(r);
	r.hdr.cpu = cpu;
	r.hdr.flags = SONDE_SC_UNFINISHED | (in->flags & SONDE_SC_COMPAT) |
		      (in->active == SONDE_INFLIGHT_ATTACHED ? SONDE_SC_ATTACHED : 0);
	memcpy(r.args, in->args, sizeof(r.args));
	r.nr = in->nr;
	if (u->o->ip && in->ip)
		unfinished_ip(u, &r.hdr, in);
	if (!rec_consumer_append(u->c, u->stream, &r.hdr))
		u->n++;
}

/* A thread switched out inside a syscall: its entry is in task storage
 * (a thread on a CPU at detach time is found through the CPU's slot). */
static void unfinished_thread(struct unfinished_ctx *u, pid_t tgid, pid_t tid)
{
	struct sonde_inflight in;
	unsigned int cpu;

	if (rec_bpf_inflight(u->b, tid, &in) != 1)
		return;
	for (cpu = 0; cpu < u->b->ncpus; cpu++) {
		struct sonde_inflight s;
		pid_t stgid, stid;

		if (rec_bpf_cpu_slot(u->b, cpu, &stgid, &stid, &s) && stid == tid)
			return; /* re-entered since; the slot is the newer call */
	}
	cpu = proc_last_cpu(tgid, tid);
	unfinished_emit(u, tgid, tid, &in, cpu < u->b->ncpus ? cpu : 0);
}

static void unfinished_tgid(pid_t tgid, void *arg)
{
	struct unfinished_ctx *u = arg;
	char path[64];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)tgid);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d)))
		if (is_pid_name(de->d_name))
			unfinished_thread(u, tgid, atoi(de->d_name));
	closedir(d);
}

/* Called after the programs are detached and the rings drained: every
 * active in-flight slot left is a call that has not returned. */
uint64_t rec_proc_unfinished(struct rec_bpf *b, struct rec_consumer *c, unsigned int stream,
			     const struct sonde_record_opts *o)
{
	struct unfinished_ctx u = { .b = b, .c = c, .o = o, .stream = stream };

	rec_bpf_for_each_traced(b, unfinished_tgid, &u);
	for (unsigned int cpu = 0; cpu < b->ncpus; cpu++) {
		struct sonde_inflight in;
		pid_t tgid, tid;

		if (rec_bpf_cpu_slot(b, cpu, &tgid, &tid, &in))
			unfinished_emit(&u, tgid, tid, &in, cpu);
	}
	return u.n;
}

void rec_proc_flush_lost(struct rec_bpf *b, struct rec_consumer *c)
{
	for (unsigned int cpu = 0; cpu < b->ncpus; cpu++) {
		struct sonde_ev_lost l;
		uint64_t pending, first, total;

		rec_bpf_cpu_lost(b, cpu, &pending, &first, &total);
		if (!pending)
			continue;
		memset(&l, 0, sizeof(l));
		l.hdr.ts = first;
		l.hdr.type = SONDE_REC_LOST;
		l.hdr.size = sizeof(l);
		l.hdr.cpu = cpu;
		l.count = pending;
		l.kind = SONDE_LOST_RING;
		rec_consumer_append(c, cpu, &l.hdr);
	}
}
