/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recorder (libsonde, src/record/): loads the BPF programs, follows a
 * set of processes (a command started stopped, -p PIDs, --comm matches and
 * everything they create) and writes their events to a trace file.
 */
#ifndef SONDE_RECORD_H
#define SONDE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/types.h>
#include <sonde/events.h>
#include <sonde/live.h>
#include <sonde/syscalls.h>

#define SONDE_RECORD_DEFAULT_OUTPUT "sonde.trace"
/* Per-CPU ring size without payloads (-s 0): holds ~0.1 s of the
 * syscall-loop benchmark's records (96-byte records at ~1.8 M/s) if the
 * consumer stalls; the loop stays lossless with 4M. It was 64M until
 * session 3: on the benchmark VM, clearing 128 MB of rings before the
 * command made tar's runs under sonde bimodal (bench/README.md, "Ring
 * size"), and it is memory a many-CPU machine pays per CPU. With payloads
 * the rings take bursts of file data (GB/s) and stay at 64M: at 16M an
 * ASan build of `sonde strace -e read=all` of tar | cat shed payloads. */
#define SONDE_RECORD_DEFAULT_RING (16u << 20)
#define SONDE_RECORD_DEFAULT_RING_PAYLOAD (64u << 20)
#define SONDE_RECORD_DEFAULT_ZSTD 3
#define SONDE_RECORD_CHUNK (8u << 20)
/* Chunk buffers made ready before the command starts, with payload
 * capture on (without it: two chunks per CPU). See rec_run.c. */
#define SONDE_RECORD_DEFAULT_BUFFER (64u << 20)

/* Who the started command runs as (strace -u): its supplementary groups,
 * then its group and user id, set before it is released. */
struct sonde_run_as {
	uid_t uid;
	gid_t gid;
	size_t ngroups;
	const gid_t *groups;
};

struct sonde_inject;
struct sonde_record_adopt; /* sonde_record_daemonize's command */

struct sonde_record_opts {
	const char *output;     /* trace file; NULL = SONDE_RECORD_DEFAULT_OUTPUT */
	char *const *argv;      /* command to start, or NULL */
	char *const *envp;      /* its environment; NULL = sonde's own */
	const struct sonde_run_as *run_as; /* its user; NULL = sonde's */
	const pid_t *pids;      /* -p: processes to attach to */
	size_t npids;
	const char *comm;       /* --comm: command name to follow, or NULL */
	struct sonde_sc_set syscalls; /* selected syscalls (all bits = all) */
	const struct sonde_inject *inject; /* tampering (inject.h), or NULL */
	/* Set by sonde_record_daemonize (-D): argv already runs, blocked, as
	 * this process's grandparent; NULL: sonde_record_run starts it. */
	const struct sonde_record_adopt *adopt;
	bool failed_only;       /* only syscalls that returned -errno */
	bool no_sched;          /* no switch/wakeup records */
	bool ip;                /* each call's instruction pointer (--ip) */
	uint32_t user_stack;    /* bytes of user stack per call (--user-stack),
				 * with the registers and mapped files; 0: none */
	size_t ring_bytes;      /* per-CPU ring; 0 = default; power of 2 */
	size_t buffer_bytes;    /* user-space chunk buffers ready at start, rounded
				 * up to SONDE_RECORD_CHUNK; 0 = default */
	double duration;        /* stop after this many seconds; 0 = no limit */
	int zstd_level;         /* 1..19; 0 = SONDE_RECORD_DEFAULT_ZSTD */
	const char *cmdline;    /* the sonde command line, for the header */
	bool quiet;             /* no progress messages on stderr */
	uint32_t snaplen;       /* payload bytes captured per call; 0 = none */
	struct sonde_live_sink *live; /* records also go to it as they come */
	bool live_only;         /* with live: no trace file (output unused) */
};

/* Parses a snaplen: bytes (suffix K or M), or "full" (SONDE_SNAPLEN_MAX);
 * 0 or -EINVAL. */
int sonde_snaplen_parse(const char *s, uint32_t *out);
/* --user-stack[=N]: NULL is the default (SONDE_USTACK_DEFAULT); N from 8
 * to SONDE_USTACK_MAX, suffix K, rounded up to 8. 0 or -EINVAL. */
int sonde_user_stack_parse(const char *s, uint32_t *out);

/* Resolves a command name along PATH like a shell (a name with a '/' is
 * used as is): 0 with the executable in path, -ENOENT or -EACCES.
 * sonde record and sonde script -c report what cannot run before tracing. */
int sonde_resolve_cmd(const char *cmd, char *path, size_t len);

struct sonde_record_summary {
	uint64_t records;       /* records written to the file */
	uint64_t by_type[SONDE_REC_TYPE_MAX];
	uint64_t unfinished;    /* syscalls still blocked at stop */
	uint64_t lost_ring;     /* events the kernel could not store */
	uint64_t lost_writer;   /* records the file could not take */
	uint64_t malformed;     /* ring records with a bad header, dropped */
	uint64_t raw_bytes;     /* record bytes before compression */
	uint64_t file_bytes;    /* size of the trace file */
	double duration_s;      /* wall time recording */
	double cpu_s;           /* CPU time of the recorder (all threads) */
	int cmd_status;         /* wait(2) status of the command; -1 if none */
	int cmd_error;          /* -ENOENT/-EACCES: the command cannot be run */
	int exec_error;         /* -errno: its execve (or -u's set-up) failed */
	int stop_signal;        /* signal that stopped recording, or 0 */
	unsigned int ncpus;
	size_t ring_bytes;
	/* Payload capture (docs/design/payloads.md); bytes are data bytes. */
	uint32_t snaplen;
	uint64_t payload_bytes;      /* captured and stored in the trace */
	uint64_t payload_stored;     /* after deduplication */
	uint64_t payload_blobs;      /* distinct blobs */
	uint64_t payload_file_bytes; /* payload store on disk, compressed */
	uint64_t payload_shed;       /* payloads dropped under ring pressure */
	uint64_t payload_shed_bytes;
	uint64_t payload_unreadable; /* reads that faulted */
};

/*
 * Records until every traced process has exited (a command or -p PIDs),
 * the duration elapsed, or SIGINT/SIGTERM arrived (with --comm: only the
 * latter two). Returns 0, or a negative errno with *err naming the problem
 * and the fix; sum->cmd_error is set when that problem is a command that
 * cannot be run (the caller maps it to status 127/126 like a shell).
 */
int sonde_record_run(const struct sonde_record_opts *opts, struct sonde_record_summary *sum,
		     char *err, size_t errlen);

/* strace -D, -DD, -DDD (--daemonize=grandchild|pgroup|session): the
 * recorder runs in a grandchild, in the caller's process group, in a new
 * one, or in a new session. */
enum sonde_daemonize {
	SONDE_DAEMON_OFF,
	SONDE_DAEMON_GRANDCHILD,
	SONDE_DAEMON_PGROUP,
	SONDE_DAEMON_SESSION,
};

/*
 * Splits the caller in two, so that o->argv runs in the calling process:
 * it keeps the caller's parent and pid, and its exit status goes straight
 * to that parent. The calling process waits until the recorder releases
 * it, then execs the command: this call never returns there, unless the
 * command cannot run or tracing is impossible (-errno, err set, and
 * sum->cmd_error as sonde_record_run sets it). In the grandchild it
 * returns 0 with o->adopt set: sonde_record_run then traces and releases
 * that command. Call it before creating threads or children.
 */
int sonde_record_daemonize(struct sonde_record_opts *o, enum sonde_daemonize how,
			   struct sonde_record_summary *sum, char *err, size_t errlen);

#endif /* SONDE_RECORD_H */
