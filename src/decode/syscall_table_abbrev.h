/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Short names of the class and flag bits, for the two syscall tables'
 * rows only (syscall_table.c, syscall_table_i386.c): one row per line.
 */
#ifndef SONDE_DECODE_SYSCALL_TABLE_ABBREV_H
#define SONDE_DECODE_SYSCALL_TABLE_ABBREV_H

#include <sonde/syscalls.h>

#define F SONDE_SCC_FILE
#define D SONDE_SCC_DESC
#define P SONDE_SCC_PROCESS
#define N SONDE_SCC_NETWORK
#define M SONDE_SCC_MEMORY
#define S SONDE_SCC_SIGNAL
#define I SONDE_SCC_IPC
#define C SONDE_SCC_CREDS
#define CL SONDE_SCC_CLOCK
#define ST SONDE_SCC_STAT
#define LST SONDE_SCC_LSTAT
#define FST SONDE_SCC_FSTAT
#define SF SONDE_SCC_STATFS
#define FSF SONDE_SCC_FSTATFS
#define SFA SONDE_SCC_STATFS_LIKE
#define PU SONDE_SCC_PURE
#define RA SONDE_SCF_RET_ADDR

#endif
