// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink messages in the buffers of sendto, recvfrom, sendmsg, recvmsg,
 * sendmmsg and recvmmsg, shown as strace 6.1 shows them:
 *
 *   [{nlmsg_len=24, nlmsg_type=RTM_GETADDR, nlmsg_flags=NLM_F_REQUEST|
 *     NLM_F_DUMP, nlmsg_seq=1, nlmsg_pid=0}, {ifa_family=AF_INET, ...}]
 *
 * A buffer of one message is that message; of several (or of a message
 * and trailing bytes) a list of them. A message with a payload is the
 * pair [header, payload], a bare header just the header. Attribute lists
 * follow the same rules with struct nlattr. The buffer is captured
 * memory: every length in it is checked against what the call gave
 * (len) and read through st_peek, which fails past the capture.
 */
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/types.h>
#include <sonde/events.h>
#include <sonde/payload.h>
#include <sonde/syscalls.h>

#include "decode/strace/strace_int.h"
#include "decode/strace/netlink_int.h"

/* An array element strace could not read: "..." and its address. */
static void nl_unread(struct nl *n, uint64_t a, int in_array)
{
	if (in_array)
		sb_printf(n->s->o, "... /* %#llx */", (unsigned long long)a);
	else
		pr_addr(n->s, a);
}

/* The bytes of a value strace does not decode, in hex. */
static void nl_raw(struct nl *n, uint64_t a, uint32_t len)
{
	pr_buf(n->s, n->phase, a, len, 1);
}

/* strace's "..." for an array cut at -s elements. */
static int nl_cut(struct nl *n, unsigned int i)
{
	if (!st_array_cut(n->s, i))
		return 0;
	sb_puts(n->s->o, "...");
	return 1;
}

/* -------- attributes -------- */

static void nla_type(struct nl *n, uint16_t t, const struct nla_set *set)
{
	struct st *s = n->s;

	for (unsigned int i = 0; i < x_nla_f.n; i++) {
		if (!(t & x_nla_f.e[i].val))
			continue;
		pr_xval(s, &x_nla_f, x_nla_f.e[i].val, NULL);
		sb_putc(s->o, '|');
	}
	pr_xval(s, set->names, t & NLA_TYPE_MASK, set->dflt);
}

/* One attribute: {nla_len=8, nla_type=IFA_LOCAL}, or with its value
 * [{...}, inet_addr("127.0.0.1")]; len is what is left of the list. */
static void nla_one(struct nl *n, const struct nlattr *h, uint64_t a, uint32_t len,
		    const struct nla_set *set)
{
	struct st *s = n->s;
	uint32_t l = h->nla_len < len ? h->nla_len : len;
	unsigned int t = h->nla_type & NLA_TYPE_MASK;
	const struct nla_desc *d = t < set->n ? &set->d[t] : NULL;

	if (l > NLA_HDRLEN)
		sb_putc(s->o, '[');
	sb_printf(s->o, "{nla_len=%u, nla_type=", h->nla_len);
	nla_type(n, h->nla_type, set);
	sb_putc(s->o, '}');
	if (l <= NLA_HDRLEN)
		return;
	sb_puts(s->o, ", ");
	if (!d || !d->fn || !d->fn(n, a + NLA_HDRLEN, l - NLA_HDRLEN, d->arg))
		nl_raw(n, a + NLA_HDRLEN, l - NLA_HDRLEN);
	sb_putc(s->o, ']');
}

void nl_attrs(struct nl *n, uint64_t a, uint32_t len, const struct nla_set *set)
{
	struct st *s = n->s;
	int arr = 0;

	for (unsigned int i = 0;; i++) {
		struct nlattr h;
		uint32_t step, left = 0;
		uint64_t next = 0;

		if (len < NLA_HDRLEN) {
			nl_raw(n, a, len);
			break;
		}
		if (!st_peek(s, n->phase, a, &h, sizeof(h))) {
			nl_unread(n, a, arr);
			break;
		}
		if (nl_cut(n, i))
			break;
		step = NLA_ALIGN(h.nla_len);
		if (h.nla_len >= NLA_HDRLEN) {
			left = len >= step ? len - step : 0;
			if (left && a + step > a)
				next = a + step;
		}
		if (!arr && next) {
			sb_putc(s->o, '[');
			arr = 1;
		}
		nla_one(n, &h, a, len, set);
		if (!next)
			break;
		sb_puts(s->o, ", ");
		a = next;
		len = left;
	}
	if (arr)
		sb_putc(s->o, ']');
}

/* -------- attribute values -------- */

/* Reads an integer of size bytes; prints the address when it cannot. */
static int nla_get(struct nl *n, uint64_t a, void *v, size_t size)
{
	return st_fetch(n->s, n->phase, a, v, size);
}

/*
 * An integer attribute of size bytes (little-endian), printed with fmt as
 * unsigned, or sign-extended when sign is set. Returns 0 when the
 * attribute is too short for it (the caller prints it raw).
 */
static int nla_int(struct nl *n, uint64_t a, uint32_t len, size_t size, int sign,
		   const char *fmt)
{
	uint64_t v = 0;

	if (len < size)
		return 0;
	if (!nla_get(n, a, &v, size))
		return 1;
	if (sign && size < sizeof(v) && (v >> (size * 8 - 1) & 1))
		v |= ~0ull << (size * 8);
	sb_printf(n->s->o, fmt, (unsigned long long)v);
	return 1;
}

int nla_u8(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	(void)arg;
	return nla_int(n, a, len, 1, 0, "%llu");
}

int nla_u16(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	(void)arg;
	return nla_int(n, a, len, 2, 0, "%llu");
}

int nla_u32(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	(void)arg;
	return nla_int(n, a, len, 4, 0, "%llu");
}

int nla_x32(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	(void)arg;
	return nla_int(n, a, len, 4, 0, "%#llx");
}

int nla_s32(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	(void)arg;
	return nla_int(n, a, len, 4, 1, "%lld");
}

int nla_u64(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	(void)arg;
	return nla_int(n, a, len, 8, 0, "%llu");
}

int nla_ifindex(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	uint32_t v;

	(void)arg;
	if (len < sizeof(v))
		return 0;
	if (nla_get(n, a, &v, sizeof(v)))
		pr_ifindex(n->s, v);
	return 1;
}

/*
 * A string attribute, as strace 6.1 shows it: of its first -s bytes a
 * last NUL is dropped and ends the string; else "..." follows, even for
 * a whole string without its NUL. Embedded NULs show. With -x the NUL
 * makes the string hex: all bytes show, then "...".
 */
int nla_str(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	struct st *s = n->s;
	const struct sonde_payload *p = sonde_call_mem(s->c, n->phase, a, 1);
	const uint8_t *d;
	uint64_t have, show = len < s->opt->strsize ? len : s->opt->strsize;
	int more = 1;

	(void)arg;
	if (!p || (p->flags & SONDE_PLF_UNREADABLE)) {
		pr_unfetched(s, n->phase, a);
		return 1;
	}
	d = p->data + (a - p->addr);
	have = p->captured - (a - p->addr);
	if (show > have)
		show = have;
	else if (show && !d[show - 1] && !s->opt->xstr) {
		show--;
		more = 0;
	}
	pr_quoted(s, d, show, 0, more, 0);
	return 1;
}

/* A link-layer address: 00:00:00:00:00:00 (-X raw: its bytes in hex;
 * -X verbose: both). */
int nla_hwaddr(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	char num[32 * 4 + 3], sym[32 * 3];
	size_t k = 0, m = 0;
	uint8_t b[32];

	(void)arg;
	if (len > sizeof(b))
		return 0;
	if (!nla_get(n, a, b, len))
		return 1;
	num[k++] = '"';
	for (uint32_t i = 0; i < len; i++) {
		k += (size_t)snprintf(num + k, sizeof(num) - k, "\\x%02x", b[i]);
		m += (size_t)snprintf(sym + m, sizeof(sym) - m, i ? ":%02x" : "%02x", b[i]);
	}
	snprintf(num + k, sizeof(num) - k, "\"");
	sym[m] = 0;
	pr_symexpr(n->s, num, sym);
	return 1;
}

/* An address of the message's family: inet_addr("127.0.0.1"),
 * inet_pton(AF_INET6, "::1"); other families and short values raw. */
int nla_inet(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	uint8_t b[16];
	size_t size = n->af == AF_INET ? 4 : n->af == AF_INET6 ? 16 : 0;

	(void)arg;
	if (!size || len < size) {
		nl_raw(n, a, len);
		return 1;
	}
	if (!nla_get(n, a, b, size))
		return 1;
	if (size == 4)
		pr_inet_addr(n->s, b);
	else
		pr_inet6_addr(n->s, b);
	return 1;
}

static int nla_xlat_get(struct nl *n, uint64_t a, uint32_t len,
			const struct nla_xlat *o, uint64_t *v)
{
	*v = 0;
	if (len > sizeof(*v) || len < o->size)
		return 0;
	return nla_get(n, a, v, o->size ? o->size : len) ? 2 : 1;
}

int nla_flags(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	const struct nla_xlat *o = arg;
	uint64_t v;
	int r = nla_xlat_get(n, a, len, o, &v);

	if (r == 2)
		pr_flags(n->s, o->x, v, o->dflt);
	return r != 0;
}

int nla_xval(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	const struct nla_xlat *o = arg;
	uint64_t v;
	int r = nla_xlat_get(n, a, len, o, &v);

	if (r == 2)
		pr_xval(n->s, o->x, v, o->dflt);
	return r != 0;
}

void nl_field(struct nl *n, const char *name)
{
	sb_printf(n->s->o, ", %s=", name);
}

void nl_xval_bare(struct nl *n, const struct xlat *x, uint64_t v)
{
	if (xlat_name(x, v))
		pr_xval(n->s, x, v, NULL);
	else
		sb_printf(n->s->o, "%#llx", (unsigned long long)v);
}

/* An index of nl_idx_array: [NAME], [5 /\* DFLT *\/] when unnamed; -X
 * raw the number, -X verbose the number and the name. */
static void nl_index(struct nl *n, uint32_t i, const struct xlat *x, const char *dflt)
{
	struct st *s = n->s;
	const char *name = xlat_name(x, i);

	if (s->opt->xlat == SONDE_XLAT_RAW)
		sb_printf(s->o, "[%u]=", i);
	else if (!name)
		sb_printf(s->o, "[%u /* %s */]=", i, dflt);
	else if (s->opt->xlat == SONDE_XLAT_VERBOSE)
		sb_printf(s->o, "[%u /* %s */]=", i, name);
	else
		sb_printf(s->o, "[%s]=", name);
}

void nl_idx_array(struct nl *n, uint64_t a, uint32_t cnt, uint32_t esz, int sgn,
		  const struct xlat *x, const char *dflt)
{
	struct st *s = n->s;

	sb_putc(s->o, '[');
	for (uint32_t i = 0; i < cnt; i++) {
		uint64_t v = 0;

		if (i)
			sb_puts(s->o, ", ");
		if (nl_cut(n, i))
			break;
		if (!st_peek(s, n->phase, a + (uint64_t)i * esz, &v, esz)) {
			nl_unread(n, a + (uint64_t)i * esz, 1);
			break;
		}
		nl_index(n, i, x, dflt);
		if (esz == 4 && sgn)
			sb_printf(s->o, "%d", (int32_t)v);
		else if (sgn)
			sb_printf(s->o, "%lld", (long long)v);
		else
			sb_printf(s->o, "%llu", (unsigned long long)v);
	}
	sb_putc(s->o, ']');
}

int nla_meminfo(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	(void)arg;
	if (len < 4)
		return 0;
	nl_idx_array(n, a, len / 4, 4, 0, &x_sk_meminfo, "SK_MEMINFO_???");
	return 1;
}

/* -------- messages -------- */

/* struct nlmsghdr at a, len bytes left of the buffer: 1 when read. */
static int nl_hdr_fetch(struct nl *n, struct nlmsghdr *h, uint64_t a, uint64_t len,
			int in_array)
{
	if (len < sizeof(*h)) {
		nl_raw(n, a, (uint32_t)len);
		return 0;
	}
	if (st_peek(n->s, n->phase, a, h, sizeof(*h)))
		return 1;
	nl_unread(n, a, in_array);
	return 0;
}

static void nl_type(struct nl *n, uint16_t type)
{
	const struct xlat *x = &x_nlmsg_ctl;
	const char *dflt = "NLMSG_???";

	if (type >= NLMSG_MIN_TYPE && n->proto == NETLINK_ROUTE) {
		x = &x_nlmsg_route;
		dflt = "RTM_???";
	} else if (type >= NLMSG_MIN_TYPE && n->proto == NETLINK_SOCK_DIAG) {
		x = &x_nlmsg_sock_diag;
		dflt = "SOCK_DIAG_???";
	} else if (type >= NLMSG_MIN_TYPE && n->proto == NETLINK_GENERIC) {
		x = nl_genl_families();
		dflt = "GENERIC_FAMILY_???";
	} else if (type >= NLMSG_MIN_TYPE && n->proto == NETLINK_AUDIT) {
		x = &x_nlmsg_audit;
		dflt = "AUDIT_???";
	}
	pr_xval(n->s, x, type, dflt);
}

/* The flags of a message: the common ones and those of its kind (a
 * request to get, to make, to delete; an acknowledgement). */
static const struct xlat *nl_flags_of(const struct nl *n, uint16_t type)
{
	if (type < NLMSG_MIN_TYPE)
		return type == NLMSG_ERROR ? &x_nlm_f_ack : &x_nlm_f;
	if (n->proto == NETLINK_SOCK_DIAG)
		return &x_nlm_f_get;
	if (n->proto != NETLINK_ROUTE)
		return &x_nlm_f;
	/* RTM_DELACTION takes NLM_F_ROOT as a get does. */
	if (type == RTM_DELACTION)
		return &x_nlm_f_get;
	switch (type & 3) {
	case 0:
		return &x_nlm_f_new;
	case 1:
		return &x_nlm_f_del;
	case 2:
		return &x_nlm_f_get;
	}
	return &x_nlm_f;
}

static void nl_hdr(struct nl *n, const struct nlmsghdr *h)
{
	struct st *s = n->s;

	sb_printf(s->o, "{nlmsg_len=%u, nlmsg_type=", h->nlmsg_len);
	nl_type(n, h->nlmsg_type);
	sb_puts(s->o, ", nlmsg_flags=");
	pr_flags(s, nl_flags_of(n, h->nlmsg_type), h->nlmsg_flags, "NLM_F_???");
	sb_printf(s->o, ", nlmsg_seq=%u, nlmsg_pid=", h->nlmsg_seq);
	pr_pid(s, (uint64_t)(int64_t)(int)h->nlmsg_pid);
	sb_putc(s->o, '}');
}

static void nl_msg(struct nl *n, const struct nlmsghdr *h, uint64_t a, uint64_t len);

/* The cookie an error acknowledgement carries: [1, 2, 3]. */
static int nla_cookie(struct nl *n, uint64_t a, uint32_t len, const void *arg)
{
	uint8_t b;

	(void)arg;
	sb_putc(n->s->o, '[');
	for (uint32_t i = 0; i < len; i++) {
		if (i)
			sb_puts(n->s->o, ", ");
		if (nl_cut(n, i))
			break;
		if (!st_peek(n->s, n->phase, a + i, &b, 1)) {
			nl_unread(n, a + i, 1);
			break;
		}
		sb_printf(n->s->o, "%u", b);
	}
	sb_putc(n->s->o, ']');
	return 1;
}

static const struct nla_desc nlmsgerr_nla[] = {
	[1] = { nla_str, NULL },
	[2] = { nla_u32, NULL },
	[3] = { nla_cookie, NULL },
};
static const struct nla_set nlmsgerr_set = NLA_SET(&x_nlmsgerr_attrs,
						   "NLMSGERR_ATTR_???", nlmsgerr_nla);

/* error=-ENOENT; 0 and numbers without a name as they are. */
static void nl_errno(struct nl *n, int32_t e)
{
	pr_errno_text(n->s, (uint32_t)e, 1);
}

/*
 * NLMSG_ERROR: {error=-ENODEV, msg=[the request, echoed]}; an
 * acknowledgement with NLM_F_CAPPED echoes only the request's header.
 * Extended acknowledgements add attributes after the echo, and strace
 * 6.1 then shows the pair [{error=..., msg=...}, [attributes]].
 */
static void nl_err(struct nl *n, uint64_t a, uint32_t len, int capped)
{
	struct st *s = n->s;
	struct nlmsghdr h;
	uint32_t m = 0, left;
	int32_t e;
	int attrs;

	if (len < sizeof(e)) {
		nl_raw(n, a, len);
		return;
	}
	if (!st_fetch(s, n->phase, a, &e, sizeof(e)))
		return;
	a += sizeof(e);
	left = len - sizeof(e);
	if (left >= sizeof(h) && st_peek(s, n->phase, a, &h, sizeof(h))) {
		m = capped ? sizeof(h) : h.nlmsg_len;
		if (m > left)
			m = left;
	}
	attrs = m && left > m;
	sb_puts(s->o, attrs ? "[{error=" : "{error=");
	nl_errno(n, e);
	if (left) {
		sb_puts(s->o, ", msg=");
		if (nl_hdr_fetch(n, &h, a, left, 0))
			nl_msg(n, &h, a, m);
	}
	sb_putc(s->o, '}');
	if (attrs) {
		sb_puts(s->o, ", ");
		nl_attrs(n, a + m, left - m, &nlmsgerr_set);
		sb_putc(s->o, ']');
	}
}

static void nl_payload(struct nl *n, const struct nlmsghdr *h, uint64_t a, uint32_t len)
{
	int32_t v;

	if (h->nlmsg_type == NLMSG_ERROR) {
		nl_err(n, a, len, h->nlmsg_flags & NLM_F_CAPPED);
		return;
	}
	if ((h->nlmsg_type >= NLMSG_MIN_TYPE || h->nlmsg_type == NLMSG_DONE) &&
	    ((n->proto == NETLINK_ROUTE && nl_route_payload(n, h->nlmsg_type, a, len)) ||
	     (n->proto == NETLINK_SOCK_DIAG && nl_diag_payload(n, h, a, len))))
		return;
	if (h->nlmsg_type == NLMSG_DONE && len == sizeof(v)) {
		if (st_fetch(n->s, n->phase, a, &v, sizeof(v)))
			sb_printf(n->s->o, "%d", v);
		return;
	}
	nl_raw(n, a, len);
}

/* A message: its header, and [header, payload] when it has one. */
static void nl_msg(struct nl *n, const struct nlmsghdr *h, uint64_t a, uint64_t len)
{
	struct st *s = n->s;
	uint32_t l = h->nlmsg_len < len ? h->nlmsg_len : (uint32_t)len;

	if (l > NLMSG_HDRLEN)
		sb_putc(s->o, '[');
	nl_hdr(n, h);
	if (l <= NLMSG_HDRLEN)
		return;
	sb_puts(s->o, ", ");
	nl_payload(n, h, a + NLMSG_HDRLEN, l - NLMSG_HDRLEN);
	sb_putc(s->o, ']');
}

void pr_netlink(struct st *s, int phase, uint64_t a, uint64_t len, int proto)
{
	struct nl n = { .s = s, .phase = phase, .proto = proto };
	struct nlmsghdr h;
	int arr = 0;

	for (unsigned int i = 0; nl_hdr_fetch(&n, &h, a, len, arr); i++) {
		uint32_t step = NLMSG_ALIGN(h.nlmsg_len);
		uint64_t next = 0, left = 0;

		if (nl_cut(&n, i))
			break;
		if (h.nlmsg_len >= NLMSG_HDRLEN) {
			left = len >= step ? len - step : 0;
			if (left && a + step > a)
				next = a + step;
		}
		if (!arr && next) {
			sb_putc(s->o, '[');
			arr = 1;
		}
		nl_msg(&n, &h, a, len);
		if (!next)
			break;
		sb_puts(s->o, ", ");
		a = next;
		len = left;
	}
	if (arr)
		sb_putc(s->o, ']');
}

int st_netlink_proto(struct st *s, int fd)
{
	const struct sonde_sockinfo *si;

	/* -e verbose= leaving the call out: strace shows bytes */
	if (!s->fds || s->j || !st_deref(s))
		return ST_NL_NONE;
	si = fdtab_sockinfo(s->fds, s->sc->hdr.tid, fd, s->sc->hdr.ts + s->sc->dur);
	if (!si || si->family != AF_NETLINK)
		return ST_NL_NONE;
	/* sock_diag does not list a netlink socket without a port id
	 * (not bound yet: a first sendto binds it): strace knows it is
	 * netlink but not which protocol. */
	if (!sonde_sockinfo_found(si))
		return ST_NL_UNKNOWN;
	return si->protocol;
}
