/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Compiler state shared by the passes: variables, aggregations, output
 * actions, maps, probes and the BPF programs generated for them.
 *
 * Pipeline (compile.c):
 *   lex/parse -> probe matching (prov_*.c) -> sema.c (binding, types)
 *   -> cg*.c (IR per attach point) -> regalloc.c -> load.c -> attach
 *   -> rt.c (consume output records, aggregations, END, printing)
 *
 * One BPF program is generated per attach point (one raw tracepoint, one
 * uprobe, one perf event...). It holds every clause with a probe there,
 * in program order, each guarded by its probe filter and predicate, so
 * clauses run in the order D defines.
 */
#ifndef SONDE_LANG_COMPILE_H
#define SONDE_LANG_COMPILE_H

#include <bpf/bpf.h>
#include <stdint.h>
#include <stdio.h>

#include "lang/ast.h"
#include "lang/ir.h"
#include "lang/lang.h"
#include "lang/types.h"

#define MAX_KEYS 8
#define MAX_MAPS 64
/* Up to this many CPUs each ring is its own map, picked by CPU number in
 * the program; beyond, an ARRAY_OF_MAPS holds them (whose updates wait
 * for an RCU grace period each: ~8 ms per CPU of startup). */
#define DIRECT_RING_CPUS 16
#define MAX_ARGS 10

/* VS_SELFA: thread-local associative array self->a[k], keyed by thread id
 * then the tuple (DTrace's LDTAA/STTAA). Clause-local arrays do not exist
 * in D (D_ARR_LOCAL). */
enum vscope { VS_GLOBAL, VS_SELF, VS_THIS, VS_ASSOC, VS_SELFA };

struct var {
	enum vscope s;
	char *name;
	struct type *t;
	int nkeys; /* VS_ASSOC, VS_SELFA */
	struct type *kt[MAX_KEYS];
	int key_size;
	int off; /* VS_GLOBAL: in the globals value; VS_THIS: scratch */
	int map; /* VS_SELF, VS_ASSOC */
	struct loc loc;
	struct var *next;
};

struct aggfn;

struct agg {
	char *name; /* "@name" ("@" alone for the anonymous one) */
	int id;
	const struct aggfn *fn;
	int nkeys;
	struct type *kt[MAX_KEYS];
	int koff[MAX_KEYS];
	int key_size;
	int val_size;
	int nbuckets;
	int64_t p[5];	   /* lquantize/llquantize parameters */
	struct type *argt; /* type of the aggregated value */
	int map;
	struct loc loc;
	struct agg *next;
	/* runtime (rt.c) */
	int64_t normal; /* normalize() factor, 1 = none */
	int printed;	/* printa() ran: no default print at exit (DTrace) */
};

enum akind {
	A_PRINTF,
	A_TRACE,
	A_EXIT,
	A_PRINTA,
	A_CLEAR,
	A_TRUNC,
	A_NORMALIZE,
	A_DENORMALIZE,
	A_COMMIT,
	A_DISCARD,
	A_STACK,
	A_USTACK,
	A_PROBE,     /* non-quiet: "CPU ID FUNCTION:NAME" before a firing's records */
	A_PROBE_END, /* ... and the newline after them */
	A_ERROR,     /* a runtime fault (cgfault.c) */
};

struct arec_arg {
	struct type *t;
	int off; /* offset in the record */
};

/* An output action: the layout of the records it writes. Every record is
 *
 *   0       4       8
 *   +-------+-------+-----------------------------+
 *   | act id| specid| args, each 8-aligned ...     |
 *   +-------+-------+-----------------------------+
 */
struct action {
	enum akind k;
	int id;
	struct loc loc;
	char *fmt; /* printf/printa format, NULL for default */
	int nargs;
	struct arec_arg args[MAX_ARGS + 2];
	int size;
	struct agg *agg;
	int tsize;	       /* trace(): byte size of the traced value's type */
	struct clause *clause; /* A_PROBE: the clause and program that fired */
	int prog;
};

#define REC_HDR 8

struct lmap {
	char name[24];
	enum bpf_map_type type;
	int key_size, val_size, max_entries;
	int inner; /* ARRAY_OF_MAPS: index of the inner template */
	int fd;
	const char *option; /* -x option that sizes it, for errors */
};

struct provider;

/* A concrete probe a description matched. */
struct lprobe {
	const struct provider *prov;
	char f[4][128];	  /* provider, module, function, name */
	char attach[256]; /* attach point: probes sharing it share a program */
	long filter;	  /* provider-specific (syscall number...) */
	long aux[4];
	struct clause *c;
	int prog;
};

struct lprog {
	const struct provider *prov;
	char attach[256];
	long aux[4];
	enum bpf_prog_type type;
	enum bpf_attach_type eatype;
	int btf_id; /* tp_btf attach target */
	struct ir ir;
	struct lowered low;
	int fd;
	int *links; /* fds to close at the end */
	int nlinks;
	int first_probe; /* index of one of its probes */
};

struct lcc {
	struct lang_opts *o;
	struct lexer lx;
	struct program prog;
	char err[1024];
	struct var *vars;
	struct agg *aggs;
	int naggs;
	struct action *acts;
	int nacts;
	struct lmap maps[MAX_MAPS];
	int nmaps;
	int m_scratch, m_stats, m_rings, m_globals, m_rodata, m_zero, m_scnames, m_spec;
	int m_ring0; /* first of ncpus RINGBUF maps (direct selection), -1 */
	int m_vtime; /* vtimestamp bookkeeping (prov_vtime.c), -1 */
	char *ro;    /* constant strings, zero padded */
	int rosize;
	int globals_size;
	int scratch_size;
	struct lprobe *probes;
	int nprobes;
	struct lprog *progs;
	int nprogs;
	int ncpus;
	int *ring_fds;	      /* per-CPU output rings */
	int64_t wall_offset;  /* CLOCK_REALTIME - CLOCK_MONOTONIC */
	int uses_ustack;      /* snapshot $target's mappings while it runs */
	struct type **tprecs; /* tracepoint record types parsed so far */
	int ntprecs;
	int depth; /* sema_expr() recursion, bounded by AST_MAX_DEPTH */
};

/* Diagnostics: "LINE:COL: message" stored once in cc->err. */
void cc_error(struct lcc *cc, struct loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int cc_failed(const struct lcc *cc);

int map_add(struct lcc *cc, const char *name, enum bpf_map_type type, int ksz, int vsz, int max,
	    const char *option);
int rodata_add(struct lcc *cc, const char *s, int len, int cap);

/* prov.c */
int probes_match(struct lcc *cc);
/* Gives every probe without one a program (one per attach point). */
int probes_group(struct lcc *cc);
/* The probe of clause c in program prog whose filter is key (-1: any). */
const struct lprobe *probe_find(const struct lcc *cc, const struct clause *c, int prog, long key);
/* DTrace-style probe id: BEGIN 1, END 2, ERROR 3, then one per probe. */
int probe_number(const struct lcc *cc, const struct lprobe *p);
void probes_list(struct lcc *cc, FILE *f);
struct lprobe *probe_add(struct lcc *cc, const struct provider *p, struct clause *c);

/* sema.c */
int sema_program(struct lcc *cc);
struct var *var_find(struct lcc *cc, enum vscope s, const char *name);
void sema_dump(struct lcc *cc, FILE *f);

/* cg.c */
int cg_programs(struct lcc *cc);

/* offline.c: runs the programs over a recorded trace (-r) */
int offline_run(struct lcc *cc);

/* load.c */
int maps_create(struct lcc *cc);
int progs_load(struct lcc *cc);
void cc_release(struct lcc *cc);

#endif
