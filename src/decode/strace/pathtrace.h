/* SPDX-License-Identifier: GPL-2.0 */
/* strace's -P: does a call access one of the paths (pathtrace.c). */
#ifndef SONDE_STRACE_PATHTRACE_H
#define SONDE_STRACE_PATHTRACE_H

#include <sonde/strace.h>

struct fdtab;

/* 1 when c accesses a path of ps, by a path argument or by a descriptor
 * fds names so (looked up before the call is applied to fds). */
int pathtrace_match(const struct sonde_strace_paths *ps, struct fdtab *fds,
		    const struct sonde_call *c);

#endif
