/* SPDX-License-Identifier: GPL-2.0 */
/* The built-in x86-64 table (syscall_table.c), private to src/decode/. */
#ifndef SONDE_DECODE_SYSCALL_TABLE_H
#define SONDE_DECODE_SYSCALL_TABLE_H

#include <sonde/syscalls.h>

/* Highest number in the table + 1 (file_setattr is 469). */
#define SONDE_SYSCALL_TAB_LEN 470

extern const struct sonde_syscall_info sonde_syscall_tab[SONDE_SYSCALL_TAB_LEN];

#endif
