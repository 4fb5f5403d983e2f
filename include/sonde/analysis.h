/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Offline analysis of a record stream (libsonde, src/analysis/): the task
 * table (who is tid N), record filters, per-syscall statistics and log2
 * latency histograms. `sonde print` and `sonde stat` are thin layers over
 * this; the script language's offline mode reuses it.
 *
 * Everything here consumes records one at a time, in the reader's time
 * order, and trusts nothing in them: hdr.size is checked against the
 * fixed size of the type before a field is read (sonde_rec_fits).
 */
#ifndef SONDE_ANALYSIS_H
#define SONDE_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>
#include <sonde/events.h>
#include <sonde/syscalls.h>

struct sonde_meta;

/* Fixed size of a record type (0 if unknown); tails come on top. */
size_t sonde_rec_fixed_size(unsigned int type);
/* True when rec is a known type whose hdr.size covers its fixed part and,
 * for exec and proc, the tail lengths it announces. */
int sonde_rec_fits(const struct sonde_hdr *rec);
/*
 * The descriptor list of a PROC record (SONDE_PROC_FDS): *off starts at
 * 0; each call returns 1 with the next descriptor, its path (path_len
 * bytes, not NUL-terminated) and SONDE_PROC_FD_* flags, 0 at the end or at
 * an entry that does not fit in the record.
 */
int sonde_proc_fd_next(const struct sonde_hdr *rec, size_t *off, int *fd, const char **path,
		       size_t *path_len, unsigned int *flags);
/*
 * A path stored as the kernel side walks it (payload.h FDPATH, events.h
 * IMAGE): n bytes of components leaf first, each NUL-terminated, joined
 * root first into out. 0, or -1 when it does not fit.
 */
int sonde_path_components(const uint8_t *data, size_t n, char *out, size_t len);
/* Its inverse: path ("/a/b/c") as components leaf first ("c\0b\0a\0")
 * into out; their length, or -1 when they do not fit in len. */
int sonde_path_to_components(const char *path, char *out, size_t len);
/* The path of an IMAGE record; -1 when it does not fit or rec is not one. */
int sonde_image_path(const struct sonde_hdr *rec, char *out, size_t len);
/* "syscall", "switch", ... for a record type, or NULL. */
const char *sonde_rec_type_name(unsigned int type);
/* Record type of a name ("sched" is not one: see sonde_filter). */
int sonde_rec_type_lookup(const char *name);

/* ---- Task table: what every tid was called, and its process. ---- */

struct sonde_task {
	uint32_t tid;
	uint32_t pid;		       /* thread group; 0 until known */
	uint32_t ppid;		       /* parent process; 0 until known */
	char comm[SONDE_COMM_LEN + 1]; /* NUL-terminated */
	uint32_t nr;		       /* strace -n: the last call it entered */
	uint64_t ip;		       /* strace -i: that call's instruction pointer */
	/* Outside the initial pid namespace (a nspid record): the
	 * namespace's inode, the task's tid there, and the time of the
	 * record (a fork of the same time keeps them); ns_inum 0: the
	 * initial namespace, the numbers of every record. */
	uint64_t ns_inum;
	uint32_t ns_tid;
	uint64_t ns_ts;
	/* strace -Y: the name its lines start with (strace reads it again
	 * only as some calls return: decode/strace/pidname.h), until when a
	 * call that renames it runs, whether its last traced call failed,
	 * and since when its /proc entry is gone (a thread that exited, a
	 * process reaped; 0: it is not) */
	char lead[SONDE_COMM_LEN + 1];
	uint64_t refresh_end;
	uint8_t last_failed;
	uint64_t gone_at;
};

struct sonde_tasks;

struct sonde_tasks *sonde_tasks_new(void);
void sonde_tasks_free(struct sonde_tasks *t);
/* Learns names and relations from switch, fork, exec, comm and proc. */
void sonde_tasks_update(struct sonde_tasks *t, const struct sonde_hdr *rec);
/* The task, or NULL if the trace never named it. */
const struct sonde_task *sonde_tasks_find(const struct sonde_tasks *t, uint32_t tid);
/* The task, made on first sight; NULL only when out of memory. */
struct sonde_task *sonde_tasks_get(struct sonde_tasks *t, uint32_t tid);
/*
 * An id that task tid passed or got (a pid, tid, process group or
 * session: all pids) as the initial namespace numbers it: id itself when
 * tid lives there, else the task its namespace numbers id (0 when the
 * trace holds none: a task outside the namespace, or never traced).
 */
uint32_t sonde_tasks_ns_global(const struct sonde_tasks *t, uint32_t tid, uint32_t id);

/* ---- Filters shared by print, stat and the script language. ---- */

#define SONDE_FILTER_MAX_PIDS 64
struct sonde_filter {
	/* syscall records: only these numbers (when has_sc) */
	int has_sc;
	struct sonde_sc_set sc;
	/* records involving one of these pids or tids (when npids) */
	unsigned int npids;
	uint32_t pids[SONDE_FILTER_MAX_PIDS];
	/* record types shown: bit (1 << type); 0 = all */
	uint32_t types;
	/* time window, CLOCK_MONOTONIC ns, inclusive */
	uint64_t since, until;
	/* syscall records: the SONDE_STATUS_* classes shown (strace's -e
	 * status=, -z, -Z), 0 = all */
	uint8_t status;
};

/*
 * How a call ended, as strace's -e status= classes it: it returned a
 * value or an error, it never returned (exit_group, a task killed inside
 * it: "= ?"), or recording stopped while it was blocked (strace detached).
 * strace's "unavailable" (the tracer could not read the result) never
 * happens here. SONDE_STATUS_NONE alone selects no call.
 */
#define SONDE_STATUS_ANY 0
#define SONDE_STATUS_SUCCESSFUL 0x1
#define SONDE_STATUS_FAILED 0x2
#define SONDE_STATUS_UNFINISHED 0x4
#define SONDE_STATUS_UNAVAILABLE 0x8
#define SONDE_STATUS_DETACHED 0x10
#define SONDE_STATUS_NONE 0x80
/* The class of a syscall record, failed meaning a return in -4095..-1. */
unsigned int sonde_syscall_status(const struct sonde_ev_syscall *e);

/* A filter that lets everything through. */
void sonde_filter_init(struct sonde_filter *f);
/* "-p 12,34": returns 0 or -EINVAL with *err naming the bad token. */
int sonde_filter_parse_pids(struct sonde_filter *f, const char *list, char *err, size_t errlen);
/*
 * Record types to show: comma list of syscall, switch, wakeup, fork, exec,
 * exit, comm, proc, lost, plus "sched" (switch,wakeup), "process"
 * (fork,exec,exit,comm,proc) and "all"; a leading "!" excludes instead.
 */
int sonde_filter_parse_types(struct sonde_filter *f, const char *list, char *err, size_t errlen);
/* True when rec passes every part of the filter. */
int sonde_filter_match(const struct sonde_filter *f, const struct sonde_hdr *rec);

/*
 * A --since/--until argument, resolved once the trace's first timestamp
 * is known:
 *   "1.5", "1.5s", "250ms", "40us", "100ns"  relative to the first event;
 *   "@123456789"                          raw CLOCK_MONOTONIC ns (as "ts"
 *                                         in --json output);
 *   "11:14:12[.226190]"                   wall-clock time of day (local
 *                                         time, as --format=flight prints
 *                                         it) on the day of the first event;
 *   "2026-01-31T11:14:12[.226190]" (or a space instead of T)
 *                                         local wall-clock date and time.
 */
struct sonde_time_arg {
	enum { SONDE_TIME_REL, SONDE_TIME_MONO, SONDE_TIME_TOD, SONDE_TIME_WALL } kind;
	int64_t ns; /* offset, mono ns, ns since midnight, or epoch ns */
};
int sonde_time_arg_parse(struct sonde_time_arg *t, const char *s, char *err, size_t errlen);
/* CLOCK_MONOTONIC ns the argument designates in this trace. */
uint64_t sonde_time_arg_resolve(const struct sonde_time_arg *t, const struct sonde_meta *meta,
				uint64_t first_ts);
/* Trace timestamp to wall-clock ns since the epoch (0 if no reference). */
int64_t sonde_ts_to_wall(const struct sonde_meta *meta, uint64_t ts);

/* ---- One filtered pass over a trace ---- */

struct sonde_reader;

struct sonde_scan_opts {
	struct sonde_filter filter;
	int has_since, has_until;
	struct sonde_time_arg since, until;
	/* when set, learns from every record, filtered out or not, so that
	 * a thread's name is known even if its exec was filtered out */
	struct sonde_tasks *tasks;
	/* called for every record that passes; non-zero stops the scan */
	int (*fn)(void *ctx, const struct sonde_hdr *rec);
	void *ctx;
	/* called with a message for every damaged chunk (may be NULL) */
	void (*warn)(void *warn_ctx, const char *msg);
	void *warn_ctx;
};

struct sonde_scan_stats {
	uint64_t records;    /* read from the file */
	uint64_t matched;    /* passed to fn */
	uint64_t bad_chunks; /* damaged chunks skipped */
	uint64_t first_ts;   /* ts of the first record in the file */
};

void sonde_scan_opts_init(struct sonde_scan_opts *o);
/* Reads r to the end (or past --until), applying the filters. Returns 0,
 * or what fn returned to stop the scan. */
int sonde_scan(struct sonde_reader *r, const struct sonde_scan_opts *o,
	       struct sonde_scan_stats *st);

/* ---- Log2 histograms ---- */

/*
 * Bucket 0 holds the value 0; bucket k >= 1 holds [2^(k-1), 2^k). The
 * same layout as bpftrace's hist() and DTrace's quantize() for
 * non-negative values.
 */
#define SONDE_HIST_BUCKETS 65
unsigned int sonde_hist_bucket(uint64_t v);
/*
 * Prints the non-empty range of a histogram with ASCII bars, bpftrace's
 * way (K, M, G are powers of 1024), each line prefixed by indent:
 *   [1K, 2K)              12 |@@@@@@@@@@@@@@@@@@@@                |
 */
void sonde_hist_fprint(FILE *f, const uint64_t *hist, const char *indent);

/* ---- Per-syscall statistics ---- */

struct sonde_sc_stat {
	uint32_t nr;
	uint64_t calls;	 /* every record, returned or not */
	uint64_t errors; /* returned -4095..-1 */
	uint64_t timed;	 /* calls that returned: the ones with a duration */
	uint64_t total_ns, min_ns, max_ns;
	uint64_t hist[SONDE_HIST_BUCKETS]; /* durations in ns */
};

struct sonde_stats_group {
	uint32_t pid; /* 0 for the whole-trace group */
	uint64_t calls, errors, timed, total_ns;
	size_t nsc;
	struct sonde_sc_stat *sc; /* nsc entries, in first-seen order */
	uint16_t *idx;		  /* nr < SONDE_NR_SYSCALLS -> slot + 1 */
	size_t cap;
};

enum sonde_stats_flags {
	SONDE_STATS_PER_PROCESS = 1 << 0, /* keep a group per pid too */
};

enum sonde_stats_sort {
	SONDE_SORT_TIME, /* total time, descending (strace -c default) */
	SONDE_SORT_CALLS,
	SONDE_SORT_ERRORS,
	SONDE_SORT_AVG,
	SONDE_SORT_MAX,
	SONDE_SORT_NAME,
	SONDE_SORT_NR,	/* syscall number (strace -S nothing) */
	SONDE_SORT_MIN, /* shortest call, descending */
};

struct sonde_stats;

struct sonde_stats *sonde_stats_new(unsigned int flags);
void sonde_stats_free(struct sonde_stats *s);
/* Accounts one record; non-syscall records are ignored. Returns 0 or
 * -ENOMEM. */
int sonde_stats_add(struct sonde_stats *s, const struct sonde_hdr *rec);
const struct sonde_stats_group *sonde_stats_total(const struct sonde_stats *s);
/* Events the trace's LOST records count: calls the tables cannot show. */
uint64_t sonde_stats_lost(const struct sonde_stats *s);
/* Per-process groups, sorted by pid (only with SONDE_STATS_PER_PROCESS). */
size_t sonde_stats_ngroups(const struct sonde_stats *s);
const struct sonde_stats_group *sonde_stats_group(const struct sonde_stats *s, size_t i);
/*
 * How the rows a key ranks equal are ordered. SONDE_TIES_STAT (sonde
 * stat): more calls first, then by number; sorting by name, the numbers
 * names does not name come after the named ones. SONDE_TIES_STRACE
 * (strace -c's table): by number; sorting by name, the unnamed numbers
 * come first, as the "?" that table prints for them sorts.
 */
enum sonde_stats_ties {
	SONDE_TIES_STAT,
	SONDE_TIES_STRACE,
};
/* Sorts rows[0..n) in the given order (names: for SONDE_SORT_NAME).
 * Returns 0 or -ENOMEM. */
int sonde_stats_sort_rows(const struct sonde_sc_stat **rows, size_t n, enum sonde_stats_sort by,
			  enum sonde_stats_ties ties, const struct sonde_sc_names *names);
/* Fills rows[0..g->nsc) with the group's entries in the given order, with
 * sonde stat's ties. Returns 0 or -ENOMEM. */
int sonde_stats_sorted(const struct sonde_stats_group *g, const struct sonde_sc_stat **rows,
		       enum sonde_stats_sort by, const struct sonde_sc_names *names);
/* "time", "calls", ... and strace's -S names (time-total, count,
 * avg-time, max-time, min-time, syscall, nothing...) -> sort key; -1 if
 * unknown. */
int sonde_stats_sort_lookup(const char *name);

/*
 * Reports, as `sonde stat` prints them. Text: a table like strace -c per
 * group (the whole trace, then each process when the stats were made
 * with SONDE_STATS_PER_PROCESS), columns % time, seconds, usecs/call,
 * max usecs, calls, errors, syscall, and a total line; with hist, a log2
 * latency histogram per syscall after each table. JSON: one document,
 * {"total":{...},"processes":[{"pid":..,"comm":..,...}]}.
 */
struct sonde_stats_report {
	enum sonde_stats_sort sort;
	int hist;
	const struct sonde_sc_names *names;
	const struct sonde_tasks *tasks; /* names processes; may be NULL */
	/* The trace's payload store (captured vs stored bytes); NULL = none. */
	const struct sonde_reader_payload_stats *payload;
};
/* Return 0, -ENOMEM, or -EIO if writing to f failed. */
int sonde_stats_report_text(FILE *f, const struct sonde_stats *s,
			    const struct sonde_stats_report *o);
int sonde_stats_report_json(FILE *f, const struct sonde_stats *s,
			    const struct sonde_stats_report *o);

#endif /* SONDE_ANALYSIS_H */
