/* SPDX-License-Identifier: GPL-2.0 */
/* Recorder internals shared by the files of src/record/. */
#ifndef SONDE_REC_INT_H
#define SONDE_REC_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <linux/types.h>
#include <sonde/events.h>
#include <sonde/format.h>
#include <sonde/inject.h>
#include <sonde/record.h>
#include <sonde/record_bpf.h>
#include "record/rec_live.h"

struct sonde_bpf;
struct ring_buffer;

/* rec_bpf.c: the skeleton, the per-CPU rings, the traced set. */
struct rec_bpf {
	struct sonde_bpf *skel;
	unsigned int ncpus;
	size_t ring_bytes;
	int *ring_fds;   /* one RINGBUF per possible CPU */
	int inflight_fd; /* task storage with the in-flight syscalls */
	int inject_marks_fd; /* -e inject: marks of tampered calls */
	int flush_fd;    /* flush_batch, run on a CPU with BPF_PROG_TEST_RUN */
};

int rec_bpf_load(struct rec_bpf *b, const struct sonde_record_opts *o, char *err, size_t errlen);
int rec_bpf_attach(struct rec_bpf *b, char *err, size_t errlen);
void rec_bpf_detach(struct rec_bpf *b);
void rec_bpf_close(struct rec_bpf *b);
void rec_bpf_trace_tgid(struct rec_bpf *b, pid_t tgid);
void rec_bpf_untrace_tgid(struct rec_bpf *b, pid_t tgid);
int rec_bpf_is_traced(const struct rec_bpf *b, pid_t tgid);
/* Are user stacks recorded (--user-stack)? */
int rec_bpf_user_stack(const struct rec_bpf *b);
uint64_t rec_bpf_ntraced(const struct rec_bpf *b);
/* Calls fn for every tgid in the traced set. */
void rec_bpf_for_each_traced(const struct rec_bpf *b, void (*fn)(pid_t tgid, void *arg),
			     void *arg);
/* 1 if cpu's slot holds a traced call still in flight at detach time (its
 * owner was running it, or was switched out unreported), else 0. */
int rec_bpf_cpu_slot(const struct rec_bpf *b, unsigned int cpu, pid_t *tgid, pid_t *tid,
		     struct sonde_inflight *out);
/* Has every CPU whose record batch holds records write it to its ring
 * (an IPI per such CPU). */
int rec_bpf_flush_batches(const struct rec_bpf *b);
/* After detaching: the records left in cpu's batch (*len bytes), which is
 * emptied. */
const void *rec_bpf_take_batch(struct rec_bpf *b, unsigned int cpu, size_t *len);
/* Loss counts not yet reported in the stream, and the run total. */
void rec_bpf_cpu_lost(const struct rec_bpf *b, unsigned int cpu, uint64_t *pending,
		      uint64_t *first_ts, uint64_t *total);
/* The in-flight syscall of thread tid; 1 if one is active, 0 if not,
 * -errno if the thread is gone. */
int rec_bpf_inflight(const struct rec_bpf *b, pid_t tid, struct sonde_inflight *out);
/* Installs a call thread tid entered before it was traced, unless the
 * thread already has one in flight. 0 or -errno. */
int rec_bpf_set_inflight(const struct rec_bpf *b, pid_t tid, const struct sonde_inflight *in);

/* rec_consumer.c: drains the rings into the writer on its own thread. */
struct rec_consumer {
	struct ring_buffer *rb;
	struct rec_bpf *b;
	struct sonde_writer *w; /* NULL: live sink only */
	const char *path;       /* w's file, for messages */
	struct rec_live *live;
	pthread_t thread;
	int started;
	atomic_int stop;
	unsigned int ncpus;
	struct rec_cpu_ctx *ctx;
	uint64_t by_type[SONDE_REC_TYPE_MAX];
	uint64_t lost_ring;   /* counts carried by LOST records seen */
	uint64_t lost_writer; /* appends that failed */
	uint64_t bad;         /* malformed ring records (never expected) */
	uint64_t flush_err;   /* failed batch flushes */
	int write_err;        /* first append error (-errno) */
	int file_err;         /* the writer's file error, once reported */
};

int rec_consumer_init(struct rec_consumer *c, struct rec_bpf *b, struct sonde_writer *w,
		      char *err, size_t errlen);
int rec_consumer_start(struct rec_consumer *c, char *err, size_t errlen);
/* Stops the thread after draining every ring one last time. */
void rec_consumer_stop(struct rec_consumer *c);
void rec_consumer_free(struct rec_consumer *c);
/* After detaching and stopping: appends the records still in the
 * programs' record batches. */
void rec_consumer_drain_batches(struct rec_consumer *c);
/* Appends a record produced by user space (from the main thread, while the
 * consumer thread is not running). */
int rec_consumer_append(struct rec_consumer *c, unsigned int stream, const struct sonde_hdr *h);
/* "writing PATH: error (the fix)" for the trace file's write error e. */
void rec_write_error(char *buf, size_t len, const char *path, int e);

/* rec_procs.c: /proc, the pre-existing processes, the end-of-run records. */
uint64_t rec_now_mono(void);
/* rec_maps.c: an attached process's mapped files, as image records
 * (record --user-stack). */
void rec_maps_write(struct rec_consumer *c, unsigned int stream, pid_t tgid);
int rec_proc_tgid(pid_t pid);
int rec_proc_is_dead(pid_t tgid);
int rec_proc_write(struct rec_consumer *c, unsigned int stream, pid_t tgid);
/* The descriptors of the command sonde started, stopped before its execve. */
int rec_proc_write_launched(struct rec_consumer *c, unsigned int stream, pid_t pid);
/* Per thread of tgid as it joins the traced set (after its bit is set):
 * its ids in its pid namespace (an nspid record, when not the initial
 * one) and the call it is blocked in, installed; returns how many
 * calls were. */
int rec_proc_attach_tasks(struct rec_bpf *b, struct rec_consumer *c, unsigned int stream,
			  pid_t tgid, uint64_t ts);
/* Adds every process whose comm is `comm` to the traced set. */
int rec_proc_add_comm(struct rec_bpf *b, struct rec_consumer *c, unsigned int stream,
		      const char *comm);
uint64_t rec_proc_unfinished(struct rec_bpf *b, struct rec_consumer *c, unsigned int stream,
			     const struct sonde_record_opts *o);
void rec_proc_flush_lost(struct rec_bpf *b, struct rec_consumer *c);

/* rec_procs.c: at most len - 1 bytes of /proc/<pid>/<name>, NUL-ended;
 * the length or -errno. */
ssize_t rec_proc_read(pid_t pid, const char *name, char *buf, size_t len);

/* rec_launch.c: the command, started stopped. */
struct rec_child {
	pid_t pid;
	int go_fd;  /* write end: one byte releases the child */
	int err_fd; /* read end: errno of a failed execve, or EOF */
	bool blocked;		      /* seen blocked in its read of the go pipe */
	bool adopted;		      /* -D: our grandparent, not our child */
	struct sonde_inject_sup *sup; /* -e inject's supervisor, or NULL */
};

/* Forks the command of o (argv, envp, run_as) blocked before its execve
 * of path; 0 or -errno with err set. */
int rec_child_spawn(struct rec_child *ch, const char *path, const struct sonde_record_opts *o,
		    char *err, size_t errlen);
/* Releases the child (and -e inject's supervisor, which marks calls in
 * marks_fd from then on); returns 0 or -errno of its failed execve. */
int rec_child_release(struct rec_child *ch, int marks_fd);
void rec_child_kill(struct rec_child *ch);

/* -D: the command sonde_record_daemonize left blocked in the caller. */
struct sonde_record_adopt {
	pid_t pid;
	int go_fd, go_read, err_fd; /* go_read: the number it reads go from */
};

/* Takes o->adopt's command as ch, as rec_child_spawn would have made it;
 * 0 or -errno with err set. */
int rec_child_adopt(struct rec_child *ch, const struct sonde_record_opts *o, char *err,
		    size_t errlen);

/* rec_run.c: privileges and BTF; 0 or -errno with err set. */
int record_check_env(char *err, size_t errlen);
/* o->argv[0] along PATH into path (PATH_MAX bytes); or -ENOENT/-EACCES
 * with err and sum->cmd_error set. */
int record_resolve(const struct sonde_record_opts *o, char *path, struct sonde_record_summary *sum,
		   char *err, size_t errlen);

#endif /* SONDE_REC_INT_H */
