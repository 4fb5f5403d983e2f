// SPDX-License-Identifier: GPL-2.0
/*
 * The file header: 24 fixed bytes, then TLVs (tag, length, value padded to
 * 8 bytes) ending with an END tag. Unknown tags are skipped, so new
 * metadata never needs a version bump.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "format/layout.h"
#include "format/meta.h"

struct tlv_buf {
	uint8_t *p;
	size_t len, cap;
};

static int tlv_put(struct tlv_buf *b, uint16_t tag, const void *v1, size_t n1, const void *v2,
		   size_t n2)
{
	struct sonde_tlv t = { .tag = tag, .len = (uint32_t)(n1 + n2) };
	size_t need = b->len + sizeof(t) + sonde_align8(n1 + n2);

	if (need > SONDE_HDR_MAX)
		return -EINVAL;
	if (need > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		uint8_t *p;

		while (cap < need)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p)
			return -ENOMEM;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, &t, sizeof(t));
	b->len += sizeof(t);
	if (n1)
		memcpy(b->p + b->len, v1, n1);
	if (n2)
		memcpy(b->p + b->len + n1, v2, n2);
	memset(b->p + b->len + n1 + n2, 0, sonde_align8(n1 + n2) - n1 - n2);
	b->len += sonde_align8(n1 + n2);
	return 0;
}

static int tlv_put_str(struct tlv_buf *b, uint16_t tag, const char *s)
{
	size_t n;

	if (!s)
		return 0;
	n = strlen(s) + 1;
	if (n > SONDE_STR_MAX)
		return -EINVAL;
	return tlv_put(b, tag, s, n, NULL, 0);
}

/* u32 count, then the names NUL-terminated, "" for holes. */
static int tlv_put_syscalls(struct tlv_buf *b, const struct sonde_meta *m)
{
	uint32_t n = m->nsyscalls;
	size_t len = 0, off = 0;
	char *names;
	int err;

	if (!n || !m->syscall_names)
		return 0;
	if (n > SONDE_SYSCALLS_MAX)
		return -EINVAL;
	for (uint32_t i = 0; i < n; i++)
		len += (m->syscall_names[i] ? strlen(m->syscall_names[i]) : 0) + 1;
	names = malloc(len);
	if (!names)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		const char *s = m->syscall_names[i] ? m->syscall_names[i] : "";

		memcpy(names + off, s, strlen(s) + 1);
		off += strlen(s) + 1;
	}
	err = tlv_put(b, SONDE_TLV_SYSCALLS, &n, sizeof(n), names, len);
	free(names);
	return err;
}

int meta_encode(const struct sonde_meta *m, uint8_t **out, size_t *len, char *err, size_t errlen)
{
	struct sonde_file_hdr h = { .magic = SONDE_FILE_MAGIC, .version = SONDE_FORMAT_VERSION };
	uint64_t clock[2] = { m->mono_ref_ns, m->wall_ref_ns };
	struct tlv_buf b = { .cap = 4096, .len = sizeof(h) };
	int e = 0;

	b.p = calloc(1, b.cap); /* the fixed header is filled in last */
	if (!b.p)
		e = -ENOMEM;
	if (!e)
		e = tlv_put_str(&b, SONDE_TLV_HOST, m->host);
	if (!e)
		e = tlv_put_str(&b, SONDE_TLV_KERNEL, m->kernel);
	if (!e)
		e = tlv_put_str(&b, SONDE_TLV_MACHINE, m->machine);
	if (!e)
		e = tlv_put(&b, SONDE_TLV_NCPUS, &m->ncpus, 4, NULL, 0);
	if (!e)
		e = tlv_put(&b, SONDE_TLV_CLOCK_REF, clock, sizeof(clock), NULL, 0);
	if (!e)
		e = tlv_put_str(&b, SONDE_TLV_CMDLINE, m->cmdline);
	if (!e)
		e = tlv_put_syscalls(&b, m);
	if (!e)
		e = tlv_put(&b, SONDE_TLV_END, NULL, 0, NULL, 0);
	if (e) {
		snprintf(err, errlen, "%s",
			 e == -ENOMEM
				 ? "out of memory"
				 : "trace metadata too large (strings are limited to 1 MiB, "
				   "the syscall table to 65536 entries, the header to 16 MiB)");
		free(b.p);
		return e;
	}
	h.hdr_len = (uint32_t)b.len;
	memcpy(b.p, &h, sizeof(h));
	h.crc = sonde_crc32(b.p, b.len);
	memcpy(b.p, &h, sizeof(h));
	*out = b.p;
	*len = b.len;
	return 0;
}

long meta_check_fixed(const uint8_t *hdr, uint64_t file_size, char *err, size_t errlen)
{
	struct sonde_file_hdr h;

	memcpy(&h, hdr, sizeof(h));
	if (memcmp(h.magic, SONDE_FILE_MAGIC, 8)) {
		snprintf(err, errlen, "not a sonde trace (bad magic)");
		return -EINVAL;
	}
	if (h.version == 0 || h.version > SONDE_FORMAT_VERSION) {
		snprintf(err, errlen,
			 "trace format version %u is not supported (this sonde reads "
			 "version %d); use a newer sonde",
			 h.version, SONDE_FORMAT_VERSION);
		return -EPROTONOSUPPORT;
	}
	if (h.hdr_len < sizeof(h) + sizeof(struct sonde_tlv) || h.hdr_len % 8 ||
	    h.hdr_len > SONDE_HDR_MAX) {
		snprintf(err, errlen, "trace header corrupt: header length %u is invalid",
			 h.hdr_len);
		return -EBADMSG;
	}
	if (h.hdr_len > file_size) {
		snprintf(err, errlen, "trace truncated inside its header (%u bytes, file has %llu)",
			 h.hdr_len, (unsigned long long)file_size);
		return -EBADMSG;
	}
	return h.hdr_len;
}

static const char *tlv_str(const uint8_t *v, uint32_t len)
{
	return len && v[len - 1] == 0 ? (const char *)v : NULL;
}

static int meta_syscalls(struct meta_store *st, const uint8_t *v, uint32_t len)
{
	const char *s = (const char *)v + 4, *end = (const char *)v + len;
	uint32_t n;

	if (len < 4)
		return -EBADMSG;
	memcpy(&n, v, 4);
	/* Each name takes at least its NUL: bounds n before allocating. */
	if (n > SONDE_SYSCALLS_MAX || n > len - 4 || st->names)
		return -EBADMSG;
	st->names = calloc(n ? n : 1, sizeof(*st->names));
	if (!st->names)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		const char *nul = memchr(s, 0, (size_t)(end - s));

		if (!nul)
			return -EBADMSG;
		st->names[i] = *s ? s : NULL;
		s = nul + 1;
	}
	st->meta.nsyscalls = n;
	st->meta.syscall_names = st->names;
	return 0;
}

/* Applies one TLV; unknown tags are ignored. */
static int meta_apply(struct meta_store *st, uint16_t tag, const uint8_t *v, uint32_t len)
{
	struct sonde_meta *m = &st->meta;
	const char *s = tlv_str(v, len);

	switch (tag) {
	case SONDE_TLV_HOST:
		return (m->host = s) ? 0 : -EBADMSG;
	case SONDE_TLV_KERNEL:
		return (m->kernel = s) ? 0 : -EBADMSG;
	case SONDE_TLV_MACHINE:
		return (m->machine = s) ? 0 : -EBADMSG;
	case SONDE_TLV_CMDLINE:
		return (m->cmdline = s) ? 0 : -EBADMSG;
	case SONDE_TLV_NCPUS:
		if (len != 4)
			return -EBADMSG;
		memcpy(&m->ncpus, v, 4);
		return 0;
	case SONDE_TLV_CLOCK_REF:
		if (len != 16)
			return -EBADMSG;
		memcpy(&m->mono_ref_ns, v, 8);
		memcpy(&m->wall_ref_ns, v + 8, 8);
		return 0;
	case SONDE_TLV_SYSCALLS:
		return meta_syscalls(st, v, len);
	default:
		return 0;
	}
}

int meta_decode(struct meta_store *st, uint8_t *buf, size_t len, char *err, size_t errlen)
{
	struct sonde_file_hdr h;
	size_t off = sizeof(h);
	uint32_t crc;
	int e;

	memset(st, 0, sizeof(*st));
	st->buf = buf;
	memcpy(&h, buf, sizeof(h));
	crc = h.crc;
	h.crc = 0;
	memcpy(buf, &h, sizeof(h));
	if (!sonde_crc_ok(crc, buf, len)) {
		snprintf(err, errlen, "trace header corrupt: checksum mismatch");
		return -EBADMSG;
	}
	st->meta.version = h.version;
	for (;;) {
		struct sonde_tlv t;

		if (len - off < sizeof(t)) {
			snprintf(err, errlen, "trace header corrupt: metadata has no end tag");
			return -EBADMSG;
		}
		memcpy(&t, buf + off, sizeof(t));
		off += sizeof(t);
		if (t.tag == SONDE_TLV_END)
			return 0;
		if (t.len > len - off || sonde_align8(t.len) > len - off) {
			snprintf(err, errlen,
				 "trace header corrupt: metadata tag %u overruns the header",
				 t.tag);
			return -EBADMSG;
		}
		e = meta_apply(st, t.tag, buf + off, t.len);
		if (e) {
			snprintf(err, errlen,
				 e == -ENOMEM ? "out of memory"
					      : "trace header corrupt: malformed metadata tag %u",
				 t.tag);
			return e;
		}
		off += sonde_align8(t.len);
	}
}

void meta_free(struct meta_store *st)
{
	free(st->buf);
	free(st->names);
	memset(st, 0, sizeof(*st));
}

int sonde_meta_this_host(const struct sonde_meta *m)
{
	struct utsname u;

	return m && m->host && m->kernel && !uname(&u) && !strcmp(m->host, u.nodename) &&
	       !strcmp(m->kernel, u.release);
}
