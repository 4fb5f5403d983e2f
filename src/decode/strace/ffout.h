/* SPDX-License-Identifier: GPL-2.0 */
/*
 * strace's -ff -o PREFIX: each task's lines in a file of its own,
 * PREFIX.TID, without the pid prefix.
 */
#ifndef SONDE_STRACE_FFOUT_H
#define SONDE_STRACE_FFOUT_H

#include <stdint.h>
#include <stdio.h>

struct ffout;

/* append (-A): the files are appended to, never truncated. */
struct ffout *ffout_new(const char *prefix, int append);
/* tid's file, created (truncated) the first time tid has a line; NULL
 * with errno set if it cannot be opened. */
FILE *ffout_file(struct ffout *ff, uint32_t tid);
/* 0, or -EIO when a file could not be written. */
int ffout_flush(struct ffout *ff);
/* Closes every file; 0 or -EIO as ffout_flush. */
int ffout_free(struct ffout *ff);

#endif
