// SPDX-License-Identifier: GPL-2.0
/*
 * Record validation, shared by the writer (nothing malformed goes in) and
 * the reader (nothing malformed comes out): after sonde_rec_check() returns
 * 0, every fixed field of a known record type and every tail length lies
 * within the record. Strings (comm, exec and proc tails) are bounded by
 * their lengths but are not guaranteed to be NUL-terminated.
 */
#include <errno.h>
#include <string.h>

#include <sonde/format.h>
#include <sonde/payload.h>

/* Smallest valid size of each known type: its fixed part. */
static const uint16_t rec_min_size[SONDE_REC_TYPE_MAX] = {
	[SONDE_REC_SYSCALL] = sizeof(struct sonde_ev_syscall),
	[SONDE_REC_SWITCH] = sizeof(struct sonde_ev_switch),
	[SONDE_REC_WAKEUP] = sizeof(struct sonde_ev_wakeup),
	[SONDE_REC_FORK] = sizeof(struct sonde_ev_fork),
	[SONDE_REC_EXEC] = sizeof(struct sonde_ev_exec),
	[SONDE_REC_EXIT] = sizeof(struct sonde_ev_exit),
	[SONDE_REC_COMM] = sizeof(struct sonde_ev_comm),
	[SONDE_REC_LOST] = sizeof(struct sonde_ev_lost),
	[SONDE_REC_PROC] = sizeof(struct sonde_ev_proc),
	[SONDE_REC_SIGNAL] = sizeof(struct sonde_ev_signal),
	[SONDE_REC_SIGGEN] = sizeof(struct sonde_ev_signal),
	[SONDE_REC_PAYLOAD] = sizeof(struct sonde_ev_payload),
	[SONDE_REC_PLREF] = sizeof(struct sonde_ev_plref),
	[SONDE_REC_NSPID] = sizeof(struct sonde_ev_nspid),
	[SONDE_REC_IMAGE] = sizeof(struct sonde_ev_image) + 8,
};

/* A reference's extents fit and add up to the bytes it stands for. */
static int rec_check_plref(const struct sonde_ev_plref *r)
{
	const struct sonde_plref_ext *x = (const void *)(r + 1);
	uint64_t sum = 0;

	if (r->nblobs > (r->p.hdr.size - sizeof(*r)) / sizeof(*x))
		return -EINVAL;
	if (r->p.chunk > SONDE_PLREF_SPAN_MAX)
		return -EINVAL;
	for (uint32_t i = 0; i < r->nblobs; i++) {
		uint32_t len;

		memcpy(&len, &x[i].len, sizeof(len));
		sum += len;
	}
	return sum == r->p.chunk ? 0 : -EINVAL;
}

/* Checks that the variable tail of exec/proc records fits in hdr.size. */
static int rec_check_tail(const struct sonde_hdr *rec)
{
	size_t need;

	switch (rec->type) {
	case SONDE_REC_EXEC: {
		const struct sonde_ev_exec *e = (const void *)rec;

		need = sizeof(*e) + (size_t)e->filename_len + e->argv_len;
		break;
	}
	case SONDE_REC_PROC: {
		const struct sonde_ev_proc *p = (const void *)rec;

		need = sizeof(*p) + (size_t)p->cmdline_len;
		break;
	}
	case SONDE_REC_PAYLOAD: {
		const struct sonde_ev_payload *p = (const void *)rec;

		need = sizeof(*p) + (size_t)p->chunk;
		break;
	}
	case SONDE_REC_PLREF:
		return rec_check_plref((const void *)rec);
	case SONDE_REC_IMAGE: /* the components and a NUL */
		need = sizeof(struct sonde_ev_image) + ((const struct sonde_ev_image *)rec)->path_len + 1;
		break;
	default:
		return 0;
	}
	return need <= rec->size ? 0 : -EINVAL;
}

int sonde_rec_check(const struct sonde_hdr *rec, size_t avail)
{
	if (avail < sizeof(*rec))
		return -EINVAL;
	if (rec->size < sizeof(*rec) || rec->size % 8 || rec->size > avail)
		return -EINVAL;
	if (rec->type == 0)
		return -EINVAL;
	/* Unknown (newer) types are valid: readers skip them by size. */
	if (rec->type >= SONDE_REC_TYPE_MAX)
		return 0;
	if (rec->size < rec_min_size[rec->type])
		return -EINVAL;
	return rec_check_tail(rec);
}
