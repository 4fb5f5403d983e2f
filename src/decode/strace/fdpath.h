/* SPDX-License-Identifier: GPL-2.0 */
/* Paths of the offline descriptor tables (fdpath.c, used by fdtab.c). */
#ifndef SONDE_STRACE_FDPATH_H
#define SONDE_STRACE_FDPATH_H

#include <stddef.h>
#include <stdint.h>

/* path made absolute against base (an absolute directory, or NULL when
 * path is absolute) and cleaned lexically into out; -1 when it cannot be. */
int fdpath_resolve(const char *base, const char *path, char *out, size_t len);
/* The absolute path abs with its symbolic links resolved on this host. */
void fdpath_links(char *abs, size_t len);
/* /proc/self and /proc/thread-self in abs replaced by the task's own
 * directory, /proc/PID and /proc/PID/task/TID. */
void fdpath_proc_self(char *abs, size_t len, uint32_t pid, uint32_t tid);

#endif
