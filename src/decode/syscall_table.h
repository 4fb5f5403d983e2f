/* SPDX-License-Identifier: GPL-2.0 */
/* The built-in x86-64 and i386 tables, private to src/decode/. */
#ifndef SONDE_DECODE_SYSCALL_TABLE_H
#define SONDE_DECODE_SYSCALL_TABLE_H

#include <sonde/syscalls.h>

/* Highest number in the table + 1 (file_setattr is 469). */
#define SONDE_SYSCALL_TAB_LEN 470

extern const struct sonde_syscall_info sonde_syscall_tab[SONDE_SYSCALL_TAB_LEN];

/* The i386 table (syscall_table_i386.c), by i386 number, as long. */
struct sonde_syscall_i386 {
	struct sonde_syscall_info info;
	short twin; /* the x86-64 number of the same call and layouts, or -1 */
};

extern const struct sonde_syscall_i386 sonde_syscall_i386_tab[SONDE_SYSCALL_TAB_LEN];

/*
 * The x32 call n (syscall_table_x32.c) as strace's x32 table names it:
 * the x86-64 call's name, "NAME#64" for a number x32 does not take (buf,
 * of len bytes, holds it), or NULL for a hole; *classes its classes.
 */
const char *sonde_syscall_x32_name(unsigned int n, char *buf, size_t len, unsigned int *classes);

#endif
