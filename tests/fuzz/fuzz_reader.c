// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the trace reader: any bytes are a trace file. The
 * reader must return errors, never crash, hang or read out of bounds; what
 * it returns is rendered by every renderer of sonde print (text with -v -yy,
 * flight, JSON with payloads), which must cope with any valid record. Built
 * by tests/fuzz/run.sh with checksums disabled so inputs reach the chunk
 * decoders.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <sonde/format.h>
#include <sonde/render.h>

/* Touches every byte the API promises to be valid. */
static unsigned int touch(const void *p, size_t n)
{
	const unsigned char *b = p;
	unsigned int sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += b[i];
	return sum;
}

static void touch_meta(const struct sonde_meta *m)
{
	volatile size_t n = 0;

	if (m->host)
		n += strlen(m->host);
	if (m->kernel)
		n += strlen(m->kernel);
	if (m->machine)
		n += strlen(m->machine);
	if (m->cmdline)
		n += strlen(m->cmdline);
	for (uint32_t i = 0; i < m->nsyscalls; i++)
		if (m->syscall_names[i])
			n += strlen(m->syscall_names[i]);
}

/* Reads to the end (bounded, so a reader bug that loops shows as a
 * timeout rather than hiding); returns the last ts seen. */
static uint64_t drain(struct sonde_reader *r, struct sonde_render **rd, int nrd)
{
	const struct sonde_hdr *rec;
	volatile unsigned int sum = 0;
	uint64_t last = 0;

	for (int i = 0; i < 1000000; i++) {
		int n = sonde_reader_next(r, &rec);

		if (n == 0)
			break;
		if (n < 0) {
			sum += touch(sonde_reader_error(r), strlen(sonde_reader_error(r)));
			continue;
		}
		if (sonde_rec_check(rec, rec->size))
			__builtin_trap(); /* the reader returned an invalid record */
		sum += touch(rec, rec->size);
		for (int k = 0; k < nrd; k++)
			if (rd[k])
				sonde_render_record(rd[k], rec);
		last = rec->ts;
	}
	return last;
}

#define NRENDER 3

/* sonde print's renderers, into /dev/null; a NULL slot is skipped. */
static void renderers_open(struct sonde_render **rd, const struct sonde_meta *m)
{
	static const struct sonde_render_opts text = { .verbose = 1, .fd_paths = 2,
						       .ts = SONDE_TS_TOD_US };
	static const struct sonde_render_opts json = { .payload = SONDE_PAYLOAD_HEX,
						       .fd_paths = 2 };
	static const struct sonde_render_opts flight = { .strsize = 4 };
	static FILE *out;

	if (!out)
		out = fopen("/dev/null", "w");
	rd[0] = rd[1] = rd[2] = NULL;
	if (!out)
		return;
	if (sonde_render_open(&rd[0], "text", out, m, &text))
		rd[0] = NULL;
	if (sonde_render_open(&rd[1], "json", out, m, &json))
		rd[1] = NULL;
	if (sonde_render_open(&rd[2], "flight", out, m, &flight))
		rd[2] = NULL;
}

static void renderers_close(struct sonde_render **rd)
{
	for (int k = 0; k < NRENDER; k++)
		if (rd[k])
			sonde_render_close(rd[k]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sonde_render *rd[NRENDER];
	struct sonde_reader_stats st;
	struct sonde_reader *r;
	char err[256];
	uint64_t last;

	if (sonde_reader_open_mem(&r, data, size, err, sizeof(err))) {
		if (!memchr(err, 0, sizeof(err)) || !err[0])
			__builtin_trap(); /* errors must be named */
		return 0;
	}
	touch_meta(sonde_reader_meta(r));
	renderers_open(rd, sonde_reader_meta(r));
	last = drain(r, rd, NRENDER);
	renderers_close(rd);
	sonde_reader_stats(r, &st);
	sonde_reader_seek(r, last / 2);
	drain(r, rd, 0);
	sonde_reader_close(r);
	return 0;
}
