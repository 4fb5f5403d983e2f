/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Syscall table, syscall classes, errno and signal names (libsonde,
 * src/decode/). The table is the x86-64 one; a trace file carries the table
 * it was recorded with, and readers prefer that one.
 */
#ifndef SONDE_SYSCALLS_H
#define SONDE_SYSCALLS_H

#include <stddef.h>
#include <stdint.h>
#include <sonde/events.h>

/* Class bits, after strace's trace=%file, %desc, ... */
enum sonde_sc_class {
	SONDE_SCC_FILE = 1 << 0,    /* %file: takes a file name */
	SONDE_SCC_DESC = 1 << 1,    /* %desc: takes or returns an fd */
	SONDE_SCC_PROCESS = 1 << 2, /* %process */
	SONDE_SCC_NETWORK = 1 << 3, /* %network */
	SONDE_SCC_MEMORY = 1 << 4,  /* %memory */
	SONDE_SCC_SIGNAL = 1 << 5,  /* %signal */
	SONDE_SCC_IPC = 1 << 6,     /* %ipc */
	SONDE_SCC_CREDS = 1 << 7,   /* %creds */
	SONDE_SCC_CLOCK = 1 << 8,   /* %clock */
	SONDE_SCC_STAT = 1 << 9,    /* %stat, %lstat, %fstat, %statfs... */
};

/* Name of syscall nr in the built-in table, or NULL. */
const char *sonde_syscall_name(unsigned int nr);
/* Number of a syscall name, or -1. */
int sonde_syscall_lookup(const char *name);
/* Class bits of syscall nr. */
unsigned int sonde_syscall_classes(unsigned int nr);
/* Number of entries in the built-in table (highest nr + 1). */
unsigned int sonde_syscall_count(void);
/* The built-in table, by number (NULL holes), for the trace header. */
const char *const *sonde_syscall_table(void);

/* A set of syscalls as a bitmap over SONDE_NR_SYSCALLS numbers. */
struct sonde_sc_set {
	uint64_t bits[SONDE_NR_SYSCALLS / 64];
};
static inline int sonde_sc_set_has(const struct sonde_sc_set *s, unsigned nr)
{
	return nr < SONDE_NR_SYSCALLS && (s->bits[nr / 64] >> (nr % 64)) & 1;
}
/*
 * Parses the value of strace's -e trace=EXPR: comma-separated syscall
 * names, %classes (%file, %desc, %process, %network/%net, %memory,
 * %signal, %ipc, %creds, %clock, %stat...), "all", "none", a leading "!"
 * negating the whole set. Returns 0, or -EINVAL with *err naming the bad
 * token.
 */
int sonde_sc_set_parse(struct sonde_sc_set *set, const char *expr, char *err,
		       size_t errlen);

/* "ENOENT" for 2, NULL if unknown. */
const char *sonde_errno_name(int err);
/* "SIGKILL" for 9, NULL if unknown. */
const char *sonde_signal_name(int sig);

#endif /* SONDE_SYSCALLS_H */
