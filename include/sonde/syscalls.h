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
#include <string.h>
#include <linux/types.h>
#include <sonde/events.h>

/* Class bits, after strace's trace=%file, %desc, ... */
enum sonde_sc_class {
	SONDE_SCC_FILE = 1 << 0,	 /* %file: takes a file name */
	SONDE_SCC_DESC = 1 << 1,	 /* %desc: takes or returns an fd */
	SONDE_SCC_PROCESS = 1 << 2,	 /* %process */
	SONDE_SCC_NETWORK = 1 << 3,	 /* %network */
	SONDE_SCC_MEMORY = 1 << 4,	 /* %memory */
	SONDE_SCC_SIGNAL = 1 << 5,	 /* %signal */
	SONDE_SCC_IPC = 1 << 6,		 /* %ipc */
	SONDE_SCC_CREDS = 1 << 7,	 /* %creds */
	SONDE_SCC_CLOCK = 1 << 8,	 /* %clock */
	SONDE_SCC_STAT = 1 << 9,	 /* %stat: stat(2) itself */
	SONDE_SCC_LSTAT = 1 << 10,	 /* %lstat */
	SONDE_SCC_FSTAT = 1 << 11,	 /* %fstat: fstat, newfstatat, statx */
	SONDE_SCC_STATFS = 1 << 12,	 /* %statfs */
	SONDE_SCC_FSTATFS = 1 << 13,	 /* %fstatfs */
	SONDE_SCC_STATFS_LIKE = 1 << 14, /* in %%statfs only (ustat) */
	SONDE_SCC_PURE = 1 << 15,	 /* %pure: no args, always succeeds */
};
/* %%stat and %%statfs, strace's unions of the stat/statfs families. */
#define SONDE_SCC_ANY_STAT (SONDE_SCC_STAT | SONDE_SCC_LSTAT | SONDE_SCC_FSTAT)
#define SONDE_SCC_ANY_STATFS (SONDE_SCC_STATFS | SONDE_SCC_FSTATFS | SONDE_SCC_STATFS_LIKE)

/* sonde_syscall_info.flags */
#define SONDE_SCF_RET_ADDR 0x1 /* returns an address: print it in hex */

struct sonde_syscall_info {
	const char *name;	/* as strace spells it */
	unsigned char nargs;	/* arguments strace prints (its arity) */
	unsigned char flags;	/* SONDE_SCF_* */
	unsigned short classes; /* SONDE_SCC_* */
};

/*
 * nr is a recorded number: an x86-64 one, or an i386 call's
 * SONDE_NR_I386 + its number (events.h), which the same functions name
 * from the i386 table.
 */
/* Name of syscall nr in the built-in table, or NULL. */
const char *sonde_syscall_name(unsigned int nr);
/* Number of a syscall name, or -1. */
int sonde_syscall_lookup(const char *name);
/* Class bits of syscall nr. */
unsigned int sonde_syscall_classes(unsigned int nr);
/* What the i386 call n is recorded as: its x86-64 twin's number or
 * SONDE_NR_I386 + n (events.h). */
uint32_t sonde_syscall_i386_nr(unsigned int n);
/* The x86-64 twin of a recorded i386 call of another name (getuid32:
 * getuid), which takes the same arguments and layouts; -1 otherwise. */
int sonde_syscall_i386_twin(uint32_t nr);
/* Number of entries in the built-in x86-64 table (highest nr + 1). */
unsigned int sonde_syscall_count(void);
/* The built-in table, by number (NULL holes), for the trace header. */
const char *const *sonde_syscall_table(void);
/* Everything the table knows about nr, or NULL for a hole. */
const struct sonde_syscall_info *sonde_syscall_info(unsigned int nr);
/* Arguments of nr worth printing: its arity, or 6 when unknown. */
unsigned int sonde_syscall_nargs(unsigned int nr);
/*
 * True when a raw return value is an error (-4095..-1), the test the
 * kernel's IS_ERR_VALUE and strace use.
 */
static inline int sonde_syscall_failed(int64_t ret)
{
	return ret < 0 && ret >= -4095;
}

/*
 * A set of syscalls, by personality as strace's sets are (-e trace=open@32):
 * bitmaps over SONDE_NR_SYSCALLS numbers for the x86-64 calls and for the
 * i386 calls recorded as their x86-64 twin's number (events.h), one over
 * the SONDE_NR_I386 range (the other i386 calls), one over the x32 numbers
 * (SONDE_NR_X32: this kernel refuses them, a program may still make them);
 * others stands for every number past them (none is a real syscall:
 * invalid or negative numbers, which a program may still pass and strace
 * shows as syscall_0x186a0).
 */
struct sonde_sc_set {
	uint64_t bits[SONDE_NR_SYSCALLS / 64];
	uint64_t bits32[SONDE_NR_SYSCALLS / 64];
	uint64_t bits_i386[SONDE_NR_I386_LEN / 64];
	uint64_t bits_x32[SONDE_NR_X32_LEN / 64];
	uint8_t others;
};
/* The word and bit of the recorded call nr (i386: SONDE_SC_COMPAT set), or
 * NULL for a number past every range. */
static inline uint64_t *sonde_sc_set_word(const struct sonde_sc_set *s, unsigned nr, int i386,
					  unsigned int *bit)
{
	const uint64_t *w = NULL;
	unsigned int k = nr;

	if (nr < SONDE_NR_SYSCALLS) {
		w = i386 ? s->bits32 : s->bits;
	} else if (nr - SONDE_NR_I386 < SONDE_NR_I386_LEN) {
		w = s->bits_i386;
		k = nr - SONDE_NR_I386;
	} else if (nr - SONDE_NR_X32 < SONDE_NR_X32_LEN) {
		w = s->bits_x32;
		k = nr - SONDE_NR_X32;
	}
	*bit = k % 64;
	return w ? (uint64_t *)&w[k / 64] : NULL;
}
/* Is the recorded call nr in the set? i386 is its SONDE_SC_COMPAT flag. */
static inline int sonde_sc_set_has(const struct sonde_sc_set *s, unsigned nr, int i386)
{
	unsigned int bit;
	const uint64_t *w = sonde_sc_set_word(s, nr, i386, &bit);

	return w ? (int)((*w >> bit) & 1) : s->others;
}
/* Every number, as when no -e trace= is given. */
static inline void sonde_sc_set_fill(struct sonde_sc_set *s)
{
	memset(s, 0, sizeof(*s)); /* the padding too: sets are compared whole */
	memset(s->bits, 0xff, sizeof(s->bits));
	memset(s->bits32, 0xff, sizeof(s->bits32));
	memset(s->bits_i386, 0xff, sizeof(s->bits_i386));
	memset(s->bits_x32, 0xff, sizeof(s->bits_x32));
	s->others = 1;
}
/* A recorded number as the program passed it: the kernel takes the
 * number as an int, so -1 is 0xffffffffffffffff in strace's syscall_0x... */
static inline uint64_t sonde_syscall_nr_wide(uint32_t nr)
{
	return (uint64_t)(int64_t)(int32_t)nr;
}
/* Is the recorded call sc in the set? */
static inline int sonde_sc_set_has_call(const struct sonde_sc_set *s,
					const struct sonde_ev_syscall *sc)
{
	return sonde_sc_set_has(s, sc->nr, !!(sc->hdr.flags & SONDE_SC_COMPAT));
}
static inline void sonde_sc_set_add(struct sonde_sc_set *s, unsigned nr, int i386)
{
	unsigned int bit;
	uint64_t *w = sonde_sc_set_word(s, nr, i386, &bit);

	if (w)
		*w |= (uint64_t)1 << bit;
}
/* Every syscall of the tables (each personality) in one of the SONDE_SCC_*
 * bits of mask. */
void sonde_sc_set_classes(struct sonde_sc_set *s, unsigned int mask);
/* Number of x86-64 syscalls in the set. */
unsigned int sonde_sc_set_count(const struct sonde_sc_set *s);
/* s keeps only the calls that t has too. */
void sonde_sc_set_and(struct sonde_sc_set *s, const struct sonde_sc_set *t);
/*
 * Parses the value of strace's -e trace=EXPR: comma-separated syscall
 * names, %classes (%file, %desc, %process, %network/%net, %memory,
 * %signal, %ipc, %creds, %clock, %pure, %stat, %lstat, %fstat, %%stat,
 * %statfs, %fstatfs, %%statfs; the seven historic ones also without
 * "%"), /REGEX (extended regex on names), NUMBER, "all", each of them
 * with a personality suffix or none (@64: x86-64, @32: i386, @x32; none:
 * every personality), "?NAME" (no error when NAME is unknown), "none" as
 * the whole list, a leading "!" negating the whole set. Returns
 * 0, or -EINVAL with *err naming the bad token and the fix.
 */
int sonde_sc_set_parse(struct sonde_sc_set *set, const char *expr, char *err, size_t errlen);

/*
 * The syscall names of one trace: its own table (struct sonde_meta) where
 * it names a number, else the built-in table, else "syscall_0x1c3" (as
 * strace). meta may be NULL and must outlive the object.
 */
struct sonde_meta;
struct sonde_sc_names;
struct sonde_sc_names *sonde_sc_names_new(const struct sonde_meta *meta);
void sonde_sc_names_free(struct sonde_sc_names *n);
/* buf (>= 24 bytes) backs the "syscall_0x..." form. */
const char *sonde_sc_names_name(const struct sonde_sc_names *n, uint32_t nr, char *buf, size_t len);
/* Arity (6 when unknown) and whether the return value is an address. */
unsigned int sonde_sc_names_nargs(const struct sonde_sc_names *n, uint32_t nr);
int sonde_sc_names_ret_addr(const struct sonde_sc_names *n, uint32_t nr);

/* "ENOENT" for 2, NULL if unknown (kernel-internal ones included). */
const char *sonde_errno_name(int err);
/*
 * Text strace prints after the name: "No such file or directory"; the
 * kernel-internal restart codes get strace's wording ("To be restarted if
 * SA_RESTART is set"). Never NULL (uses buf, len >= 32, if needed).
 */
const char *sonde_errno_text(int err, char *buf, size_t len);
/*
 * True for the codes a syscall only returns when a signal interrupted it
 * and the kernel restarts it (ERESTARTSYS...): strace prints "= ? NAME".
 */
int sonde_errno_is_restart(int err);
/* Number of an errno name ("ENOENT" -> 2), or -1. */
int sonde_errno_lookup(const char *name);
/* "SIGKILL" for 9, "SIGRT_2" for 34 (strace's spelling), NULL if unknown. */
const char *sonde_signal_name(int sig);
/* Number of a signal name, with or without "SIG" ("KILL", "SIGRT_2"), or -1. */
int sonde_signal_lookup(const char *name);

#endif /* SONDE_SYSCALLS_H */
