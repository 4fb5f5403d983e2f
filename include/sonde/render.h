/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Renderers: one record in, one (or a few) lines out (libsonde,
 * src/decode/render*.c). Each output format is a struct sonde_renderer of
 * function pointers, listed in the table in render.c; adding a format is
 * one file plus one line there:
 *
 *   text    strace-like "[pid N] openat(AT_FDCWD, "/x", O_RDONLY) = 3 <dur>"
 *   flight  the kernel flight recorder's "hh:mm:ss.uuuuuu #CPU PID event"
 *   json    NDJSON, one object per event
 *
 * A renderer sees every record the caller passes, in time order, after
 * the caller's filters. Syscalls come with the user memory captured for
 * them: sonde_render_record groups each syscall record with its payload
 * records (the strace decoders' grouping, include/sonde/strace.h) and
 * calls the renderer's call() with the pair; payload records themselves
 * never reach a renderer. It keeps a task table up to date (before
 * calling the renderer, so a renderer can name any task seen so far) and
 * counts records of types this build does not know, which no renderer is
 * asked to print.
 */
#ifndef SONDE_RENDER_H
#define SONDE_RENDER_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>
#include <sonde/events.h>

struct sonde_meta;
struct sonde_tasks;
struct sonde_call;

/* Timestamp column of the text renderer (strace's -t, -tt, -ttt, -r). */
enum sonde_ts_mode {
	SONDE_TS_NONE,
	SONDE_TS_TOD,	 /* -t: wall-clock hh:mm:ss */
	SONDE_TS_TOD_US, /* -tt: hh:mm:ss.uuuuuu */
	SONDE_TS_EPOCH,	 /* -ttt: seconds.uuuuuu since the epoch */
	SONDE_TS_DELTA,	 /* -r: seconds since the previous line */
	SONDE_TS_START,	 /* seconds since the first record rendered */
};

struct sonde_filter;

struct sonde_render_opts {
	enum sonde_ts_mode ts;
	int no_dur; /* text: leave out " <0.000012>" */
	int utc;    /* wall-clock times in UTC rather than local time */
	int raw;    /* text: raw hex arguments even where a decoder exists */
	int verbose; /* text: structs and arrays in full (strace's -v) */
	/* -s N: bytes of strings and buffers shown; 0 = the default (text:
	 * 32 as strace, json: every captured byte) */
	unsigned int strsize;
	int payload; /* json: each call's captured bytes, enum sonde_payload_enc */
	int fd_paths; /* text: 3</etc/passwd> (strace -y); json: "fd_paths",
		       * what each descriptor named refers to (1: -y; 2: -yy,
		       * sockets by their endpoints) */
	/* With fd_paths: the syscall filter (-e trace=, -z, -Z) applied here
	 * rather than before the renderer, so that the calls it hides still
	 * tell the descriptor tables what they opened (NULL: none). */
	const struct sonde_filter *shown;
	/* strace's -X (enum sonde_xlat_style) and -x (1, 2 for -xx): text */
	int xlat, xstr;
	int stack; /* json: "stack", each call's and signal's user stack
		    * unwound (-k; record --user-stack) */
	/* Options of renderers added later (e.g. strace-grade decoding);
	 * the built-in ones ignore it. */
	const void *ext;
};

enum sonde_payload_enc {
	SONDE_PAYLOAD_NONE,
	SONDE_PAYLOAD_HEX,
	SONDE_PAYLOAD_BASE64,
};

/* A growable output line: renderers build a line, then write it. */
struct sonde_line {
	char *buf;
	size_t len, cap;
	int oom; /* an append failed: the line is incomplete */
};

void sonde_line_reset(struct sonde_line *l);
void sonde_line_free(struct sonde_line *l);
void sonde_line_printf(struct sonde_line *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sonde_line_putc(struct sonde_line *l, char c);
/* Appends n bytes as a C string literal the way strace quotes strings:
 * "\t\n\v\f\r\"\\" escaped, other non-printable bytes in octal. */
void sonde_line_cstr(struct sonde_line *l, const char *s, size_t n);
/* Appends n bytes as a JSON string (quotes included). Valid UTF-8 is
 * kept, control characters become \uXXXX, and each byte of an invalid
 * UTF-8 sequence becomes \udcXX (Python's "surrogateescape": decoding
 * with it gives the original bytes back). */
void sonde_line_json_str(struct sonde_line *l, const char *s, size_t n);
/* Pads with spaces up to column col, or one space if already there. */
void sonde_line_tab(struct sonde_line *l, size_t col);

struct sonde_render;

struct sonde_renderer {
	const char *name;
	const char *summary;
	/* optional: set up r->priv */
	int (*open)(struct sonde_render *r);
	/* renders one record of a known type, already checked with
	 * sonde_rec_fits(); returns 0 or -errno */
	int (*record)(struct sonde_render *r, const struct sonde_hdr *rec);
	/* optional: renders one syscall with its captured memory (c->sc
	 * checked like rec); without it, syscalls go to record() */
	int (*call)(struct sonde_render *r, const struct sonde_call *c);
	/* optional: a call opts.shown hides: learn from it (descriptor
	 * tables), print nothing */
	int (*hidden)(struct sonde_render *r, const struct sonde_call *c);
	/* optional: flush what is held back, free r->priv */
	int (*close)(struct sonde_render *r);
};

struct sonde_render {
	const struct sonde_renderer *ops;
	FILE *out;
	const struct sonde_meta *meta; /* may be NULL */
	struct sonde_render_opts opts;
	struct sonde_tasks *tasks;
	struct sonde_line line; /* scratch line for the renderer */
	uint64_t first_ts;	/* ts of the first record rendered */
	uint64_t prev_ts;	/* ts of the previous line (for -r) */
	int started;
	uint64_t skipped; /* records of unknown or malformed types */
	void *priv;
	struct sonde_ustack *ustack; /* opts.stack: the address spaces */
	/* While a delivered signal is rendered: its payloads (its stack) */
	const struct sonde_payload *sig_pl;
	unsigned int sig_npl;
};

/*
 * render_stack.c: ,"KEY":[frames] for the stack in pl (payload.h's
 * SONDE_USTACK_EXIT or _ENTRY one: which), when r unwinds (opts.stack)
 * and pl holds one. Each frame {"pc","module","symbol","offset",
 * "file_offset"}; a last {"error"} when the walk ended on one.
 */
struct sonde_payload;
int sonde_render_json_stack(struct sonde_render *r, const char *key, uint32_t pid, uint32_t tid,
			    const struct sonde_payload *pl, unsigned int npl, unsigned int which);

extern const struct sonde_renderer sonde_render_text;
extern const struct sonde_renderer sonde_render_flight;
extern const struct sonde_renderer sonde_render_json;

/* The renderer called name, or NULL. */
const struct sonde_renderer *sonde_renderer_find(const char *name);
/* The registered renderers, NULL-terminated (for help texts). */
const struct sonde_renderer *const *sonde_renderers(void);

/* Opens a renderer writing to out. meta (names, clock reference) may be
 * NULL. Returns 0 or -errno (-EINVAL: no such renderer). */
int sonde_render_open(struct sonde_render **r, const char *name, FILE *out,
		      const struct sonde_meta *meta, const struct sonde_render_opts *opts);
/* Renders one record. Returns 0, or -errno when writing failed. */
int sonde_render_record(struct sonde_render *r, const struct sonde_hdr *rec);
/* Sets the time origin of --relative and -r (default: the first record
 * rendered), e.g. to the trace's first event when a filter hides it. */
void sonde_render_set_origin(struct sonde_render *r, uint64_t ts);
/* Renders what the grouping still holds (sonde_render_close does it
 * too), e.g. before reading r->skipped. Returns 0 or -errno. */
int sonde_render_flush(struct sonde_render *r);
/* The same for a live stream: renders what no record before t can change
 * (sonde_calls_advance). */
int sonde_render_advance(struct sonde_render *r, uint64_t t);
/* Flushes and frees r. Returns 0, or -errno if any output was lost
 * (disk full, closed pipe). Does not close r->out. */
int sonde_render_close(struct sonde_render *r);

/* Helpers for renderers. */

/* -y/-yy of the text and JSON renderers: an strace decoder used for its
 * descriptor tables only (r->opts.fd_paths: 1 paths, 2 socket endpoints
 * too); symbolic links resolve on this file system only for a trace made
 * on this host. NULL when out of memory. */
struct sonde_strace *sonde_render_fd_tables(const struct sonde_render *r);

/* Syscall name: the trace's own table, else the built-in one, else
 * strace's "syscall_0x1c3". buf (>= 24 bytes) backs the last form. */
const char *sonde_render_sc_name(const struct sonde_render *r, uint32_t nr, char *buf, size_t len);
/* Arity of the syscall the trace calls nr (6 when unknown). */
unsigned int sonde_render_sc_nargs(const struct sonde_render *r, uint32_t nr);
/* Whether its return value is an address (printed in hex). */
int sonde_render_sc_ret_addr(const struct sonde_render *r, uint32_t nr);
/* Whether the strace decoders can decode nr of this trace: they know the
 * syscall and the trace's table names nr as the built-in table does. */
int sonde_render_sc_decoded(const struct sonde_render *r, uint32_t nr);
/* Writes r->line plus a newline to r->out and resets the line. */
int sonde_render_emit(struct sonde_render *r);
/* Wall-clock "hh:mm:ss" + ".uuuuuu" when us, for a trace timestamp. */
void sonde_render_tod(const struct sonde_render *r, struct sonde_line *l, uint64_t ts, int us);
/* Appends the wait(2) status as strace does: "exited with 3",
 * "killed by SIGKILL", "killed by SIGSEGV (core dumped)". */
void sonde_render_exit_status(struct sonde_line *l, int32_t code);
/* Appends the TASK_* state bits of a switched-out task: long names
 * ("TASK_INTERRUPTIBLE") or ps letters ("S"). */
void sonde_render_task_state(struct sonde_line *l, uint32_t state, int letters);

#endif /* SONDE_RENDER_H */
