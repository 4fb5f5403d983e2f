/* SPDX-License-Identifier: GPL-2.0 */
/*
 * strace-grade decoding and rendering of syscall records (libsonde,
 * src/decode/strace/).
 *
 * A decoder sees one fused syscall record (struct sonde_ev_syscall: number,
 * six raw arguments, return value, entry time, duration) plus the user
 * memory captured for it ("payloads"). Each payload is the bytes found at
 * one user address, either at syscall entry (paths, strings, input
 * buffers and structs) or at exit (output buffers and structs, only the
 * bytes the call produced). Decoders ask for memory by (phase, address),
 * which is what strace's umoven() does against a live process; memory the
 * trace does not hold is printed as its address, exactly like strace
 * prints memory it cannot read.
 *
 *   sonde_call ──> sonde_ev_syscall   nr, args[6], ret, ts, dur
 *              └─> sonde_payload[]    {phase, arg, addr, lengths, bytes}
 *
 * The renderer turns a stream of records (syscalls, forks, execs, exits)
 * into strace's text, honouring strace's output options.
 */
#ifndef SONDE_STRACE_H
#define SONDE_STRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>
#include <sonde/events.h>
#include <sonde/inject.h>
#include <sonde/syscalls.h>

enum sonde_pl_phase {
	SONDE_PL_ENTRY = 0, /* read at sys_enter: what the kernel was given */
	SONDE_PL_EXIT = 1,  /* read at sys_exit: what the kernel produced */
	SONDE_PL_FDINFO = 2, /* not memory: struct sonde_fdinfo[] of the
			      * descriptors the call created (payload.h) */
	SONDE_PL_SOCKINFO = 3, /* not memory: struct sonde_sockinfo[] (-yy) */
	SONDE_PL_FDPATH = 4, /* not memory: a received descriptor's path,
			      * components leaf first (payload.h) */
	SONDE_PL_IP = 5,     /* not memory: addr is the user instruction
			      * pointer of the call (record --ip, payload.h) */
	SONDE_PL_REGS = 6,   /* not memory: the user registers, addr = sp
			      * (record --user-stack, payload.h) */
	SONDE_PL_STACK = 7,  /* the stack from sp (addr) up */
	SONDE_PL_KVM = 8,    /* not memory: KVM_RUN's struct sonde_kvm_exit
			      * (payload.h) */
};


/* sonde_payload.flags */
#define SONDE_PLF_UNREADABLE 0x1 /* the read faulted: no bytes, print addr */
#define SONDE_PLF_STRING 0x2     /* NUL-terminated read (path, argv...) */
#define SONDE_PLF_NUL 0x4        /* STRING: the NUL was found; data excludes it */
#define SONDE_PLF_EXEC 0x8       /* not captured: an execve argv string the
				  * entry read could not get, taken from the
				  * exec record the call produced (the feed,
				  * src/decode/strace/execargv.h) */

/*
 * Captured user memory of one call. Lengths make truncation explicit:
 * requested = what the call asked for (buffer length argument, struct
 * size, string limit), returned = what it produced or consumed (the
 * return value for read-like calls), captured = bytes present in data
 * (<= snaplen). captured < returned means the snaplen cut the data.
 */
struct sonde_payload {
	uint64_t addr;       /* user address the bytes were read from */
	const uint8_t *data; /* captured bytes; any alignment */
	uint32_t requested;
	uint32_t returned;
	uint32_t captured;
	uint8_t arg;   /* argument index (0-5) the memory hangs off */
	uint8_t phase; /* enum sonde_pl_phase */
	uint8_t flags; /* SONDE_PLF_* */
	uint8_t _pad;
};

/* One syscall as decoders see it. */
struct sonde_call {
	const struct sonde_ev_syscall *sc;
	const struct sonde_payload *pl; /* may be NULL when npl == 0 */
	unsigned int npl;
	/* The thread that entered the call when another returned from it:
	 * a non-leader's execve returns in the leader's pid (0 otherwise). */
	uint32_t entry_tid;
	/* 1 + the number of the call the thread made before this one (what
	 * a restart_syscall resumes), 0 when the trace holds none. */
	uint32_t prev_call;
};

/*
 * The memory lookup of decoders: the payload of phase that covers
 * [addr, addr + len), or NULL. An unreadable payload at addr is returned
 * too (callers check SONDE_PLF_UNREADABLE) when no readable one covers
 * the range.
 */
const struct sonde_payload *sonde_call_mem(const struct sonde_call *c,
					   int phase, uint64_t addr,
					   uint64_t len);

/* The instruction pointer the call was made from (record --ip), or 0. */
uint64_t sonde_call_ip(const struct sonde_call *c);

enum sonde_xlat_style {
	SONDE_XLAT_ABBREV = 0, /* O_RDONLY|O_CLOEXEC (strace's default) */
	SONDE_XLAT_RAW,        /* 0x80000 */
	SONDE_XLAT_VERBOSE,    /* 0x80000 / * O_RDONLY|O_CLOEXEC * / */
};

/* -e read=/write= sets cover descriptors below this. */
#define SONDE_STRACE_MAX_DUMP_FD 1024

/* What -y (path), -yy (all) and --decode-fds= show after a descriptor. */
#define SONDE_FD_PATH 0x1   /* 3</etc/passwd> */
#define SONDE_FD_SOCKET 0x2 /* 3<TCP:[127.0.0.1:80->127.0.0.1:5555]> */
#define SONDE_FD_DEV 0x4    /* 3</dev/null<char 1:3>> */
#define SONDE_FD_PIDFD 0x8  /* 4<pid:1234> */
#define SONDE_FD_ALL 0xf
#define SONDE_FD_GIVEN 0x80 /* fd_kinds came from --decode-fds (none included) */

struct sonde_tasks;

struct sonde_strace_opts {
	unsigned int strsize;  /* -s N: string bytes shown (default 32) */
	unsigned int acolumn;  /* -a N: column of " = " (default 40) */
	uint8_t tstamp;        /* 0, 1 = -t, 2 = -tt (time of day), 3 = -ttt
				* (seconds since the epoch) */
	uint8_t ts_long;       /* --absolute-timestamps given (strace refuses
				* it with -t): ts_digits, its precision, are
				* the digits after the second, 0, 3, 6 or 9;
				* else -t has none, -tt and -ttt 6 */
	uint8_t ts_digits;
	uint8_t relative;      /* -r */
	uint8_t rel_digits;    /* -r's digits: 6, --relative-timestamps= 0..9
				* (set by sonde_strace_opts_init) */
	uint8_t show_time;     /* -T */
	uint8_t dur_digits;    /* -T's digits: 6, --syscall-times= 0..9 */
	uint8_t verbose;       /* -v: structs and arrays in full */
	uint8_t kvm_vcpu;      /* -e kvm=vcpu: KVM_RUN's exit reason */
	uint8_t abbrev_on;     /* -e abbrev=SET: abbrev says, per call */
	uint8_t deref_on;      /* -e verbose=SET other than all: deref says,
				* per call */
	uint8_t xlat;          /* -X: enum sonde_xlat_style */
	uint8_t decode_fds;    /* -y: 1, -yy: 2 (socket endpoints) */
	uint8_t fd_kinds;      /* --decode-fds=SET: SONDE_FD_* shown with the
				* descriptors | SONDE_FD_GIVEN; 0: as
				* decode_fds (-y, -yy) says */
	uint8_t status;        /* -z, -Z, -e status=: the SONDE_STATUS_*
				* classes of calls shown, 0 = all */
	uint8_t xstr;          /* -x: 1 non-ASCII strings in hex, 2 all (-xx),
				* 3 non-ASCII characters in hex (the string's
				* others as they are) */
	uint8_t pid_prefix;    /* 0 none, 1 "PID  " (-f -o), 2 "[pid N] " (-f) */
	const char *attach_msg; /* pid_prefix 2: "NAME: Process N attached"
				 * lines for the tasks forked (NULL: none) */
	uint8_t append;        /* -A: -o's file (files, -ff) appended to */
	const char *ff_prefix; /* -ff -o PREFIX: each task's lines in
				* PREFIX.TID, calls never split (NULL: off) */
	uint8_t filter_on;     /* trace below is in force */
	uint8_t quiet;         /* SONDE_QUIET_*: -q levels and -e quiet= */
	uint8_t quiet_set;     /* -e quiet=SET alone */
	uint8_t qflag;         /* number of -q */
	uint8_t resolve_links; /* -y: resolve symbolic links in the paths on
				* the file system of this host, as strace's
				* /proc/PID/fd shows them (live, same host) */
	uint8_t summary_only;  /* -c: calls go to on_call, no line is printed */
	uint8_t detach_execve; /* -b execve: a process that execs (not the
				* command sonde started, at its first) is
				* shown no more, nor what it forks then */
	/* -b execve: told of each process left, "Process N detached" */
	void (*on_detach)(void *ctx, uint32_t tid);
	void *on_detach_ctx;
	uint8_t show_nr;       /* -n: "[NR] " before each line (strace's scno) */
	uint8_t show_ip;       /* -i: "[IP] " after it (record --ip) */
	uint8_t stack_trace;   /* -k: each call's stack (record --user-stack) */
	uint8_t decode_pids;   /* -Y: "PID<comm>" in line prefixes, arguments,
				* results and structs */
	uint8_t pids_proc;     /* -Y: a pid the trace never named is looked up
				* in /proc (live, as strace does) */
	uint8_t pidns;         /* --decode-pids=pidns: a tracee's pids in
				* another namespace followed by the initial
				* namespace's, "1 / * 4242 in strace's PID NS * /" */
	/* -Y: the renderer's names of tasks, set by it (NULL: none) */
	const struct sonde_tasks *pid_names;
	/* pidns: its task table, set by it (NULL: no translation) */
	const struct sonde_tasks *pid_ns;
	uint64_t sig_hide;     /* -e signal=: bit N-1 set hides signal N */
	struct sonde_strace_paths *paths; /* -P: NULL shows every call */
	/* -c with -P: each call -e trace= and -P select (whatever -z/-Z
	 * say), once the descriptor tables decided. */
	void (*on_call)(void *ctx, const struct sonde_ev_syscall *sc);
	void *on_call_ctx;
	struct sonde_sc_set trace; /* -e trace= */
	struct sonde_sc_set raw;   /* -e raw=: arguments and result in hex */
	struct sonde_sc_set abbrev; /* -e abbrev=: the calls abbreviated */
	/* -e verbose=: the calls whose structs and arrays the text shows;
	 * the others show their addresses, as strace does */
	struct sonde_sc_set deref;
	struct sonde_inject inject; /* -e inject=, -e fault=: for the recorder */
	uint64_t dump_read[SONDE_STRACE_MAX_DUMP_FD / 64];
	uint64_t dump_write[SONDE_STRACE_MAX_DUMP_FD / 64];
	int64_t wall_offset_ns; /* CLOCK_REALTIME - CLOCK_MONOTONIC, for -t */
};

/* -e quiet= elements (strace's), in sonde_strace_opts.quiet. */
#define SONDE_QUIET_ATTACH 0x1	    /* "Process N attached/detached" */
#define SONDE_QUIET_EXIT 0x2	    /* "+++ exited with N +++" */
#define SONDE_QUIET_PATH_RESOLVE 0x4 /* -P's "Requested path ... resolved" */
#define SONDE_QUIET_PERSONALITY 0x8 /* strace's "runs in N mode" (x86-64 only here) */
#define SONDE_QUIET_SUPERSEDED 0x10 /* strace's "superseded by execve" */
#define SONDE_QUIET_ALL 0x1f

/* strace's defaults. */
void sonde_strace_opts_init(struct sonde_strace_opts *o);
/* Frees what options own (-P's paths); o is back to no -P. */
void sonde_strace_opts_release(struct sonde_strace_opts *o);
/*
 * Applies one strace option given as a letter and its value (NULL when it
 * takes none): 's', 'a', 't', 'r', 'T', 'v', 'X', 'y', 'z', 'Z', 'x',
 * 'e' (trace=, read=, write=, signal=, status=, quiet=, verbose=, raw=...),
 * 'q', 'P', 'n'. Returns 0, or -EINVAL/-ENOMEM with err naming the problem.
 */
int sonde_strace_opt(struct sonde_strace_opts *o, int letter,
		     const char *value, char *err, size_t errlen);
/* strace 6.1's -e qualifiers, each alias folded into its name. */
enum sonde_strace_qual {
	SONDE_Q_TRACE, SONDE_Q_READ, SONDE_Q_WRITE, SONDE_Q_VERBOSE, SONDE_Q_STATUS,
	SONDE_Q_SIGNAL, SONDE_Q_QUIET, SONDE_Q_RAW, SONDE_Q_DECODE_FDS, SONDE_Q_DECODE_PIDS,
	SONDE_Q_KVM, SONDE_Q_ABBREV, SONDE_Q_INJECT,
};
/* The qualifier of -e KEY=VALUE (t=, reads=, x=... as strace spells them;
 * a bare VALUE is trace=), or -1 when KEY is none of strace's. */
int sonde_strace_qual(const char *expr);
/*
 * strace's long options that have no letter of the same meaning, by name
 * without "--", value NULL when none was given: absolute-timestamps,
 * relative-timestamps, syscall-times (each with a precision), and
 * strings-in-hex. 0, or -EINVAL with err naming the problem.
 */
int sonde_strace_long_opt(struct sonde_strace_opts *o, const char *name, const char *value,
			  char *err, size_t errlen);
/*
 * -P's paths: each one given, and after it what realpath(3) made of it
 * on this host when that differs (strace compares path arguments as
 * given, and descriptors by their /proc/PID/fd name, absolute). The
 * resolved entries say which one they come from, for strace's
 * "Requested path "X" resolved into "Y"" note (SONDE_QUIET_PATH_RESOLVE).
 */
struct sonde_strace_path {
	char *path;
	int from; /* index of the path it resolves, -1 for one given */
};
struct sonde_strace_paths {
	unsigned int n, cap;
	struct sonde_strace_path *p;
};

struct sonde_strace;

/* A renderer writing to out. Returns NULL on allocation failure. */
struct sonde_strace *sonde_strace_new(const struct sonde_strace_opts *o,
				      FILE *out);
void sonde_strace_free(struct sonde_strace *st);
/*
 * -y: tells the renderer what descriptor fd of process pid refers to when
 * the trace starts; fd -100 (AT_FDCWD) sets the working directory. pid 0
 * sets what every task seen for the first time inherits (sonde strace
 * passes its own 0, 1, 2 and working directory that way).
 */
int sonde_strace_set_fd(struct sonde_strace *st, uint32_t pid, int fd,
			const char *path);
/*
 * The name /proc/PID/fd/N gives a descriptor the kernel described at the
 * call that created it (include/sonde/payload.h, struct sonde_fdinfo):
 * "socket:[INO]", "pipe:[INO]", "anon_inode:[eventfd]". -ENOENT for files
 * with a path (memfd...), which the descriptor tables know better.
 */
struct sonde_fdinfo;
int sonde_fdinfo_name(const struct sonde_fdinfo *fi, char *buf, size_t len);
/* -yy's name of a socket, as strace builds it from sock_diag:
 * "TCP:[127.0.0.1:80->127.0.0.1:5555]", "UNIX-STREAM:[12->13,"/x"]",
 * "NETLINK:[ROUTE:123]", else "PROTO:[INO]". */
struct sonde_sockinfo;
void sonde_sockinfo_name(const struct sonde_sockinfo *si, char *buf, size_t len);
/* Whether sock_diag would find the socket (the name above is not the
 * bare "PROTO:[INO]"): an inet socket bound to a port, a netlink socket
 * with a port id, a UNIX socket with a name or a peer. */
int sonde_sockinfo_found(const struct sonde_sockinfo *si);
/*
 * -y for other renderers (print --json -y): with st made with out NULL
 * (it prints nothing, sonde_strace_record only learns from fork, exit and
 * proc records), appends to members "FD":"PATH" for every descriptor the
 * strace line of the call names, as -y would decorate it (arguments before
 * the call's effect, return value and fd arrays after), and applies the
 * call to the descriptor tables. 0 or -ENOMEM.
 */
struct sonde_line;
int sonde_strace_fd_paths(struct sonde_strace *st, const struct sonde_call *c,
			  struct sonde_line *members);
/*
 * -y for the text renderer (print -y): sonde_strace_text below with the
 * descriptors decorated from st's tables (st as for sonde_strace_fd_paths,
 * its -y/-yy level and link resolution; o gives the rest of the style),
 * 3</etc/passwd>, and the call applied to the tables. -ENOENT when the
 * syscall has no decoder: nothing is appended nor applied (call
 * sonde_strace_fd_paths to apply it).
 */
int sonde_strace_text_fds(struct sonde_strace *st, const struct sonde_strace_opts *o,
			  const struct sonde_call *c, struct sonde_line *call,
			  struct sonde_line *ret);
/* Renders one syscall (with its payloads). */
int sonde_strace_call(struct sonde_strace *st, const struct sonde_call *c);
/*
 * Renders or accounts any other record: fork (fd tables are inherited or
 * shared), exec (close-on-exec descriptors go), exit (+++ lines).
 * Unknown record types are ignored.
 */
int sonde_strace_record(struct sonde_strace *st, const struct sonde_hdr *rec);
/*
 * Takes records in the reader's (time) order, any type: groups each
 * syscall with its payload records (same tid and entry time), reassembles
 * chunked payloads and renders. A successful execve or execveat is
 * rendered once the exec record it produced came (or time passed its
 * exit): argv strings the recorder could not read at entry are taken
 * from that record (SONDE_PLF_EXEC). Call sonde_strace_flush() at the end.
 */
int sonde_strace_feed(struct sonde_strace *st, const struct sonde_hdr *rec);
/*
 * A line is printed once its call has returned and strace's layout of it
 * is known: whole, or split into "<unfinished ...>" and "<... resumed>"
 * when a line of another task comes in between. sonde_strace_advance
 * says no record with a timestamp before t will come (live output: the
 * reorder window's horizon) and prints what that settles;
 * sonde_strace_flush says nothing more will come and prints everything.
 * Both write out the stream.
 */
int sonde_strace_advance(struct sonde_strace *st, uint64_t t);
int sonde_strace_flush(struct sonde_strace *st);
/*
 * The same grouping for any consumer: records in the reader's order go
 * in; each syscall comes out with its payloads (chunks reassembled,
 * however the trace stores them) through call, every other record except
 * payloads through record, in order. Both return 0 or -errno; an error
 * stops nothing but is returned by the feed/flush that triggered it.
 */
struct sonde_calls;
struct sonde_calls *sonde_calls_new(int (*call)(void *ctx, const struct sonde_call *c),
				    int (*record)(void *ctx, const struct sonde_hdr *rec),
				    void *ctx);
/* A delivered signal with the payloads of its time and thread (its
 * stack, record --user-stack) goes to fn instead of record. */
void sonde_calls_on_signal(struct sonde_calls *g,
			   int (*fn)(void *ctx, const struct sonde_hdr *rec,
				     const struct sonde_payload *pl, unsigned int npl));
int sonde_calls_feed(struct sonde_calls *g, const struct sonde_hdr *rec);
/* No record before t will come (live: the reorder window's horizon):
 * hands on what that settles. A successful execve waits for the exec
 * record it produced (its argv strings, SONDE_PLF_EXEC) until then. */
int sonde_calls_advance(struct sonde_calls *g, uint64_t t);
int sonde_calls_flush(struct sonde_calls *g);
void sonde_calls_free(struct sonde_calls *g);

/* Lines written so far. */
uint64_t sonde_strace_lines(const struct sonde_strace *st);
/* -i: call lines printed without an instruction pointer ("????"): the
 * trace was recorded without --ip, or the call entered before it began. */
uint64_t sonde_strace_lines_noip(const struct sonde_strace *st);
/* -k: calls shown whose trace holds no stack (recorded without
 * --user-stack, or i386 calls). */
uint64_t sonde_strace_lines_nostack(const struct sonde_strace *st);

/*
 * Formats one call as strace would, without prefix, timestamps or the
 * trailing newline ("openat(AT_FDCWD, \"/x\", O_RDONLY) = 3"), into buf.
 * Uses st's fd table for -y when st is not NULL. Returns the length the
 * full text has (snprintf-like).
 */
size_t sonde_strace_format(struct sonde_strace *st,
			   const struct sonde_strace_opts *o,
			   const struct sonde_call *c, char *buf, size_t len);

struct sonde_line;
/*
 * The same decoders for other renderers (src/decode/render_*.c):
 *
 * sonde_strace_text: strace's text of one call in two parts, "name(args)"
 * appended to call and the return value ("3", "-1 ENOENT (No such file or
 * directory)", "?") to ret, in o's style (-s, -v, -X, -x), without -y.
 *
 * sonde_strace_json: appends to args the JSON object of the named
 * arguments, {"dirfd":"AT_FDCWD","pathname":"/etc/passwd",...}, keys
 * being the kernel's parameter names; and to res the members (no braces)
 * of what the call returned besides its value, e.g. "flags":[...] for
 * fcntl(F_GETFL), "revents":[...] for poll. JSON values: numbers
 * (decimal), addresses "0x7ffd..." (null for NULL), strings (bytes that
 * are not UTF-8 as \udcXX, see sonde_line_json_str), flag sets arrays of
 * names, enums a name, structs objects, memory that was not captured
 * {"addr":"0x...","unreadable":BOOL}. Only o->strsize applies (strings
 * and buffers cut to it; 0 = all captured bytes); structs and arrays are
 * always whole (-v). A string or buffer cut short (strsize, snaplen) is
 * {"data":"...","truncated":true,"length":N}, N the whole length when
 * known.
 *
 * Both return 0, or -ENOENT when the syscall has no decoder (nothing is
 * appended: print its raw arguments).
 */
int sonde_strace_text(const struct sonde_strace_opts *o, const struct sonde_call *c,
		      struct sonde_line *call, struct sonde_line *ret);
int sonde_strace_json(const struct sonde_strace_opts *o, const struct sonde_call *c,
		      struct sonde_line *args, struct sonde_line *res);
/* The kernel's name of argument i of syscall nr ("pathname"), or NULL. */
const char *sonde_strace_arg_name(unsigned int nr, unsigned int i);

struct sonde_cap_plan;
/*
 * The user memory the decoder of syscall nr reads (include/sonde/payload.h),
 * for the recorder's capture programs. Returns 1 when there is some.
 */
int sonde_strace_capture_plan(unsigned int nr, struct sonde_cap_plan *p);

/* Syscall numbers with a dedicated decoder (for reports and tests). */
unsigned int sonde_strace_decoded_count(void);
int sonde_strace_is_decoded(unsigned int nr);

#endif /* SONDE_STRACE_H */
