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
 * kernel recorded. It formats a call's two halves at once, and lines in
 * the order calls entered, so lookups do not come in strace's order: a
 * slot also keeps the time of the lookup that filled it, serves only
 * lines at or after it, and is filled again by an earlier lookup that
 * finds the socket.
 */
#include <stdint.h>
#include <stdlib.h>
#include <linux/types.h>

#include <sonde/events.h>
#include <sonde/payload.h>
#include <sonde/strace.h>
#include "decode/strace/sdcache.h"

#define SDCACHE_SLOTS 1024u

struct sdslot {
	struct sonde_sockinfo si; /* si.ino 0: empty */
	uint64_t at;		  /* when the lookup that filled it ran */
};

struct sdcache {
	struct sdslot slot[SDCACHE_SLOTS];
};

const struct sonde_sockinfo *sdcache_get(struct sdcache **c,
					 const struct sonde_sockinfo *now, uint64_t when)
{
	struct sdslot *e = *c ? &(*c)->slot[now->ino % SDCACHE_SLOTS] : NULL;

	if (e && e->si.ino == now->ino && e->at <= when)
		return &e->si;
	if (!now->ino || !sonde_sockinfo_found(now))
		return now;
	if (!*c && !(*c = calloc(1, sizeof(**c))))
		return now;
	e = &(*c)->slot[now->ino % SDCACHE_SLOTS];
	e->si = *now;
	e->at = when;
	return &e->si;
}

void sdcache_free(struct sdcache *c)
{
	free(c);
}
