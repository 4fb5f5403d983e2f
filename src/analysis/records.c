// SPDX-License-Identifier: GPL-2.0
/*
 * Record types as analysis sees them: names, fixed sizes, and the check
 * that a record's hdr.size really covers what its type says it holds. The
 * reader only guarantees that hdr.size bytes are there (sonde_rec_check);
 * a hostile or newer file may still carry a record shorter than its type.
 */
#include <string.h>

#include <sonde/analysis.h>

static const struct {
	const char *name;
	size_t size;
} rec_types[SONDE_REC_TYPE_MAX] = {
	[SONDE_REC_SYSCALL] = { "syscall", sizeof(struct sonde_ev_syscall) },
	[SONDE_REC_SWITCH] = { "switch", sizeof(struct sonde_ev_switch) },
	[SONDE_REC_WAKEUP] = { "wakeup", sizeof(struct sonde_ev_wakeup) },
	[SONDE_REC_FORK] = { "fork", sizeof(struct sonde_ev_fork) },
	[SONDE_REC_EXEC] = { "exec", sizeof(struct sonde_ev_exec) },
	[SONDE_REC_EXIT] = { "exit", sizeof(struct sonde_ev_exit) },
	[SONDE_REC_COMM] = { "comm", sizeof(struct sonde_ev_comm) },
	[SONDE_REC_LOST] = { "lost", sizeof(struct sonde_ev_lost) },
	[SONDE_REC_PROC] = { "proc", sizeof(struct sonde_ev_proc) },
	[SONDE_REC_SIGNAL] = { "signal", sizeof(struct sonde_ev_signal) },
	[SONDE_REC_SIGGEN] = { "signal_generate", sizeof(struct sonde_ev_signal) },
	[SONDE_REC_NSPID] = { "nspid", sizeof(struct sonde_ev_nspid) },
	[SONDE_REC_IMAGE] = { "image", sizeof(struct sonde_ev_image) },
};

size_t sonde_rec_fixed_size(unsigned int type)
{
	return type < SONDE_REC_TYPE_MAX ? rec_types[type].size : 0;
}

int sonde_proc_fd_next(const struct sonde_hdr *rec, size_t *off, int *fd, const char **path,
		       size_t *path_len, unsigned int *flags)
{
	const struct sonde_ev_proc *p = (const void *)rec;
	const struct sonde_proc_fd *e;
	size_t at;

	if (rec->type != SONDE_REC_PROC || !(rec->flags & SONDE_PROC_FDS) || !sonde_rec_fits(rec))
		return 0;
	at = *off ? *off : SONDE_REC_ALIGN(sizeof(*p) + p->cmdline_len);
	if (at + sizeof(*e) > rec->size)
		return 0;
	e = (const void *)((const char *)rec + at);
	if (e->path_len > rec->size - at - sizeof(*e))
		return 0;
	*fd = e->fd;
	*path = (const char *)(e + 1);
	*path_len = e->path_len;
	*flags = e->flags;
	*off = SONDE_REC_ALIGN(at + sizeof(*e) + e->path_len);
	return 1;
}

const char *sonde_rec_type_name(unsigned int type)
{
	return type < SONDE_REC_TYPE_MAX ? rec_types[type].name : NULL;
}

int sonde_rec_type_lookup(const char *name)
{
	for (unsigned int t = 1; t < SONDE_REC_TYPE_MAX; t++)
		if (rec_types[t].name && !strcmp(rec_types[t].name, name))
			return t;
	return -1;
}

int sonde_rec_fits(const struct sonde_hdr *rec)
{
	size_t fixed = sonde_rec_fixed_size(rec->type);

	if (!fixed || rec->size < fixed)
		return 0;
	if (rec->type == SONDE_REC_EXEC) {
		const struct sonde_ev_exec *e = (const void *)rec;

		return (size_t)e->filename_len + e->argv_len <= rec->size - fixed;
	}
	if (rec->type == SONDE_REC_PROC) {
		const struct sonde_ev_proc *p = (const void *)rec;

		return p->cmdline_len <= rec->size - fixed;
	}
	if (rec->type == SONDE_REC_IMAGE)
		return (size_t)((const struct sonde_ev_image *)rec)->path_len < rec->size - fixed;
	return 1;
}

int sonde_path_components(const uint8_t *data, size_t n, char *out, size_t len)
{
	size_t o = 0;

	if (!len)
		return -1;
	out[0] = 0;
	for (size_t end = n; end > 0;) {
		size_t b = end - 1; /* the component's NUL */

		while (b > 0 && data[b - 1])
			b--;
		o += (size_t)snprintf(out + (o < len ? o : len), o < len ? len - o : 0, "/%.*s",
				      (int)(end - 1 - b), (const char *)data + b);
		end = b;
	}
	if (!o)
		o = (size_t)snprintf(out, len, "/");
	return o < len ? 0 : -1;
}

int sonde_path_to_components(const char *path, char *out, size_t len)
{
	size_t o = 0;
	const char *end = path + strlen(path);

	while (end > path) {
		const char *b = end;
		size_t n;

		while (b > path && b[-1] != '/')
			b--;
		n = (size_t)(end - b);
		if (n && o + n + 1 > len)
			return -1;
		if (n) {
			memcpy(out + o, b, n);
			out[o + n] = 0;
			o += n + 1;
		}
		end = b > path ? b - 1 : b;
	}
	return (int)o;
}

int sonde_image_path(const struct sonde_hdr *rec, char *out, size_t len)
{
	const struct sonde_ev_image *e = (const void *)rec;

	if (rec->type != SONDE_REC_IMAGE || !sonde_rec_fits(rec))
		return -1;
	return sonde_path_components((const uint8_t *)(e + 1), e->path_len, out, len);
}
