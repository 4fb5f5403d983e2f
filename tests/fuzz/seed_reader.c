// SPDX-License-Identifier: GPL-2.0
/*
 * Writes seed traces for fuzz_reader into the directory given as argv[1]:
 * a small complete trace with every record type on three streams, one
 * without its footer, one with a single record, and traces whose
 * payloads went through the deduplicated store (PAYLOAD and BLOBINDEX
 * chunks, PLREF records), with and without the footer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sonde/format.h>
#include <sonde/payload.h>
#include "format/layout.h"

static const char *const names[] = { "read", "write", NULL, "close" };

/* Leaves the file as a killed recorder would: chunks, no footer. */
static int cut_footer(const char *path)
{
	struct sonde_trailer t;
	FILE *f = fopen(path, "rb");
	int ok;

	if (!f)
		return 1;
	ok = fseek(f, -(long)sizeof(t), SEEK_END) == 0 && fread(&t, sizeof(t), 1, f) == 1;
	fclose(f);
	return !ok || truncate(path, (off_t)t.index_off);
}

static int seed_write(const char *path, int nrec, int footer)
{
	struct sonde_meta m = { .host = "fuzzhost",
				.kernel = "6.18",
				.machine = "x86_64",
				.ncpus = 2,
				.mono_ref_ns = 1,
				.wall_ref_ns = 2,
				.cmdline = "sonde record -- true",
				.nsyscalls = 4,
				.syscall_names = names };
	struct sonde_writer *w;
	char err[256];
	union {
		struct sonde_hdr h;
		struct sonde_ev_syscall sc;
		struct sonde_ev_exec ex;
		uint8_t b[256];
	} u;

	if (sonde_writer_open(&w, path, &m, NULL, err, sizeof(err))) {
		fprintf(stderr, "seed_reader: %s\n", err);
		return 1;
	}
	for (int i = 0; i < nrec; i++) {
		/* Every type callers may append (PLREF is the writer's own). */
		int type = 1 + i % SONDE_REC_PAYLOAD;

		memset(&u, 0, sizeof(u));
		u.h = (struct sonde_hdr){ .ts = 1000 + 37 * i - (i % 5) * 20,
					  .pid = 10,
					  .tid = 10 + i % 3,
					  .type = type,
					  .size = 128,
					  .cpu = i % 3 };
		if (type == SONDE_REC_EXEC) {
			u.ex.filename_len = 8;
			u.ex.argv_len = 8;
			memcpy(u.b + sizeof(u.ex), "/bin/sh\0sh\0-c\0x", 16);
		}
		if (type == SONDE_REC_SYSCALL) {
			u.sc.nr = i % 4;
			u.sc.args[0] = i;
		}
		if (sonde_writer_append(w, i % 3, &u.h))
			return 1;
		if (i == nrec / 2 && sonde_writer_flush(w))
			return 1;
	}
	if (sonde_writer_close(w))
		return 1;
	return footer ? 0 : cut_footer(path);
}

/* One payload, cut in records of at most 16 KiB like the BPF side does. */
static int put_payload(struct sonde_writer *w, unsigned int stream, uint64_t ts, uint32_t tid,
		       const uint8_t *data, uint32_t len)
{
	static uint8_t buf[sizeof(struct sonde_ev_payload) + SONDE_PL_CHUNK];
	struct sonde_ev_payload *p = (void *)buf;

	for (uint32_t off = 0; off < len; off += SONDE_PL_CHUNK) {
		uint32_t n = len - off < SONDE_PL_CHUNK ? len - off : SONDE_PL_CHUNK;

		memset(buf, 0, sizeof(buf));
		p->hdr = (struct sonde_hdr){ .ts = ts, .pid = tid, .tid = tid,
					     .type = SONDE_REC_PAYLOAD,
					     .size = (uint16_t)((sizeof(*p) + n + 7) & ~7u),
					     .cpu = (uint16_t)stream };
		p->requested = p->returned = p->captured = len;
		p->offset = off;
		p->chunk = n;
		p->arg = 1;
		p->phase = 1;
		memcpy(buf + sizeof(*p), data + off, n);
		if (sonde_writer_append(w, stream, &p->hdr))
			return 1;
	}
	return 0;
}

/* The same 40 KB read on stream 0 in 8 KiB calls, written on stream 1 in
 * one call, plus a small inline payload: refs to shared blobs. */
static int seed_payloads(const char *path, int footer)
{
	struct sonde_meta m = { .ncpus = 2, .cmdline = "sonde record -- tar" };
	struct sonde_writer_opts o = { .chunk_bytes = 64 << 10 };
	static uint8_t data[40000];
	struct sonde_writer *w;
	uint64_t x = 1;
	char err[256];
	int rc = 0;

	for (size_t i = 0; i < sizeof(data); i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		data[i] = "abcdefgh \n"[(x >> 33) % 10];
	}
	if (sonde_writer_open(&w, path, &m, &o, err, sizeof(err))) {
		fprintf(stderr, "seed_reader: %s\n", err);
		return 1;
	}
	for (uint32_t off = 0, k = 0; off < sizeof(data); off += 8192, k++)
		rc |= put_payload(w, 0, 100 + k, 7, data + off,
				  sizeof(data) - off < 8192 ? sizeof(data) - off : 8192);
	rc |= put_payload(w, 1, 200, 8, data, sizeof(data));
	rc |= put_payload(w, 1, 300, 8, data, 40);
	if (rc || sonde_writer_close(w))
		return 1;
	return footer ? 0 : cut_footer(path);
}

int main(int argc, char **argv)
{
	char path[512];
	int err = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: seed_reader DIR\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/all-types.sonde", argv[1]);
	err |= seed_write(path, 60, 1);
	snprintf(path, sizeof(path), "%s/flushed.sonde", argv[1]);
	err |= seed_write(path, 40, 0);
	snprintf(path, sizeof(path), "%s/one.sonde", argv[1]);
	err |= seed_write(path, 1, 1);
	snprintf(path, sizeof(path), "%s/payloads.sonde", argv[1]);
	err |= seed_payloads(path, 1);
	snprintf(path, sizeof(path), "%s/payloads-cut.sonde", argv[1]);
	err |= seed_payloads(path, 0);
	return err;
}
