// SPDX-License-Identifier: GPL-2.0
/*
 * strace names a socket (-yy) and picks a netlink socket's protocol from
 * sock_diag's answer, which it caches by inode in 1024 slots (slot
 * inode & 1023, socketutils.c) for the rest of the run: a slot is filled
 * when a lookup finds its socket and only another socket found in the
 * same slot replaces it. So a socket keeps what strace first found of
 * it: a UDP socket printed once bound shows UDP:[0.0.0.0:PORT] after it
 * connects, a TCP socket printed once connected keeps its endpoints
 * after a reset unhashed it. sonde replays that cache over the facts the
 * kernel recorded, in the order lines are printed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <linux/types.h>

#include <sonde/events.h>
#include <sonde/payload.h>
#include <sonde/strace.h>
#include "decode/strace/sdcache.h"

#define SDCACHE_SLOTS 1024u

struct sdcache {
	struct sonde_sockinfo slot[SDCACHE_SLOTS]; /* ino 0: empty */
};

const struct sonde_sockinfo *sdcache_get(struct sdcache **c,
					 const struct sonde_sockinfo *now)
{
	struct sonde_sockinfo *e;

	if (*c && (*c)->slot[now->ino % SDCACHE_SLOTS].ino == now->ino)
		return &(*c)->slot[now->ino % SDCACHE_SLOTS];
	if (!now->ino || !sonde_sockinfo_found(now))
		return now;
	if (!*c && !(*c = calloc(1, sizeof(**c))))
		return now;
	e = &(*c)->slot[now->ino % SDCACHE_SLOTS];
	*e = *now;
	return e;
}

void sdcache_free(struct sdcache *c)
{
	free(c);
}
