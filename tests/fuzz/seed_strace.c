// SPDX-License-Identifier: GPL-2.0
/*
 * Writes seeds for fuzz_strace into argv[1], in its input format (see
 * fuzz_strace.c): calls whose pointers name payload slots, so that the
 * mutations start from memory the decoders accept: a path, a read buffer,
 * an iovec array pointing at another slot, a msghdr with its name, iovec
 * and control data, a netlink socket and a request on it, a poll array.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define SLOT_ADDR(s) (0x100000000ull + (uint64_t)(s) * 0x10000)

struct seed {
	uint8_t b[4096];
	size_t n;
};

static void put(struct seed *s, const void *p, size_t n)
{
	memcpy(s->b + s->n, p, n);
	s->n += n;
}

static void u8(struct seed *s, uint8_t v)
{
	put(s, &v, 1);
}

/* A call: args with slot[i] >= 0 point at that slot, others are vals. */
static void call(struct seed *s, uint16_t nr, const int slot[6], const uint64_t val[6],
		 int64_t ret, uint8_t npl)
{
	uint8_t mask = 0;

	for (int i = 0; i < 6; i++)
		if (slot[i] >= 0)
			mask |= 1 << i;
	put(s, &nr, 2);
	u8(s, mask);
	for (int i = 0; i < 6; i++) {
		if (slot[i] >= 0)
			u8(s, (uint8_t)slot[i]);
		else
			put(s, &val[i], 8);
	}
	put(s, &ret, 8);
	u8(s, npl);
}

static void payload(struct seed *s, uint8_t slot, uint8_t phase, uint8_t flags, uint8_t arg,
		    const void *data, uint16_t len)
{
	uint32_t req = len;

	u8(s, slot);
	u8(s, phase);
	u8(s, flags);
	u8(s, arg);
	put(s, &req, 4);
	put(s, &len, 2);
	put(s, data, len);
}

static int save(const char *dir, const char *name, const struct seed *s)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(s->b, 1, s->n, f) != s->n)
		return -1;
	return fclose(f);
}

static void seed_files(struct seed *s)
{
	int openat_s[6] = { -1, 0, -1, -1, -1, -1 }, read_s[6] = { -1, 1, -1, -1, -1, -1 };
	uint64_t openat_v[6] = { (uint64_t)-100, 0, 0x80000, 0, 0, 0 };
	uint64_t read_v[6] = { 3, 0, 64, 0, 0, 0 };

	u8(s, 0x01); /* -v */
	call(s, 257, openat_s, openat_v, 3, 1);
	payload(s, 0, 0, 0x6, 1, "/etc/passwd", 11);
	call(s, 0, read_s, read_v, 5, 1);
	payload(s, 1, 1, 0, 1, "root:", 5);
}

static void seed_vectors(struct seed *s)
{
	int wv_s[6] = { -1, 2, -1, -1, -1, -1 }, sm_s[6] = { -1, 3, -1, -1, -1, -1 };
	uint64_t wv_v[6] = { 1, 0, 1, 0, 0, 0 }, sm_v[6] = { 4, 0, 0, 0, 0, 0 };
	uint64_t iov[2] = { SLOT_ADDR(1), 5 };
	uint64_t msg[7] = { SLOT_ADDR(4), 16, SLOT_ADDR(2), 1, SLOT_ADDR(5), 24, 0 };
	uint8_t sin[16] = { 2, 0, 0, 80, 127, 0, 0, 1 };
	uint8_t cmsg[24] = { 20, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 7, 0, 0, 0 };

	u8(s, 0x40); /* -yy */
	call(s, 20, wv_s, wv_v, 5, 2); /* writev */
	payload(s, 2, 0, 0, 1, iov, sizeof(iov));
	payload(s, 1, 0, 0, 1, "hello", 5);
	call(s, 46, sm_s, sm_v, 5, 5); /* sendmsg */
	payload(s, 3, 0, 0, 1, msg, sizeof(msg) - 8);
	payload(s, 4, 0, 0, 1, sin, sizeof(sin));
	payload(s, 2, 0, 0, 1, iov, sizeof(iov));
	payload(s, 1, 0, 0, 1, "hello", 5);
	payload(s, 5, 0, 0, 1, cmsg, sizeof(cmsg));
}

static void seed_netlink(struct seed *s)
{
	int sock_s[6] = { -1, -1, -1, -1, -1, -1 }, st_s[6] = { -1, 6, -1, -1, -1, -1 };
	uint64_t sock_v[6] = { 16, 3 | 0x80000, 0, 0, 0, 0 }, st_v[6] = { 3, 0, 32, 0, 0, 0 };
	/* nlmsghdr RTM_GETADDR|NLM_F_REQUEST|NLM_F_DUMP, then an ifaddrmsg
	 * and one IFA_LABEL attribute */
	uint8_t nl[32] = { 32, 0, 0, 0, 22, 0, 1, 3, 1, 0, 0, 0, 0, 0, 0, 0,
			   2, 0, 0, 0, 1, 0, 0, 0, 7, 0, 3, 0, 'l', 'o', 0, 0 };

	u8(s, 0x00);
	call(s, 41, sock_s, sock_v, 3, 0); /* socket(AF_NETLINK, ..., NETLINK_ROUTE) */
	call(s, 44, st_s, st_v, 32, 1);    /* sendto */
	payload(s, 6, 0, 0, 1, nl, sizeof(nl));
}

static void seed_poll(struct seed *s)
{
	int p_s[6] = { 7, -1, -1, -1, -1, -1 };
	uint64_t p_v[6] = { 0, 2, 100, 0, 0, 0 };
	uint8_t in[16] = { 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0 };
	uint8_t out[16] = { 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 4, 0, 0, 0 };

	u8(s, 0x09); /* -v -s 4 */
	call(s, 7, p_s, p_v, 1, 2);
	payload(s, 7, 0, 0, 0, in, sizeof(in));
	payload(s, 7, 1, 0, 0, out, sizeof(out));
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fill)(struct seed *s);
	} seeds[] = {
		{ "files", seed_files },
		{ "vectors", seed_vectors },
		{ "netlink", seed_netlink },
		{ "poll", seed_poll },
	};

	if (argc != 2)
		return 2;
	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		struct seed s = { .n = 0 };

		seeds[i].fill(&s);
		if (save(argv[1], seeds[i].name, &s))
			return 1;
	}
	return 0;
}
