/* SPDX-License-Identifier: GPL-2.0 */
/* strace's cache of sock_diag answers, replayed offline (sdcache.c). */
#ifndef SONDE_STRACE_SDCACHE_H
#define SONDE_STRACE_SDCACHE_H

#include <stdint.h>

struct sdcache;
struct sonde_sockinfo;

/* What strace shows of a socket whose facts are now on a line of time
 * when: the facts it cached when it first found the socket, else now
 * (*c is made on the first socket found). */
const struct sonde_sockinfo *sdcache_get(struct sdcache **c,
					 const struct sonde_sockinfo *now, uint64_t when);
void sdcache_free(struct sdcache *c);

#endif
