// SPDX-License-Identifier: GPL-2.0
/*
 * The user stack of a call or a delivered signal in JSON (print --json -k,
 * sonde strace -k --json), unwound as the strace text is (src/stack/):
 *
 *   "stack":[{"pc":"0x7f..","module":"/usr/lib/.../libc.so.6",
 *             "symbol":"__write","offset":16,"file_offset":"0xf8350"},
 *            ...,{"error":"too many stack frames"}]
 *
 * "symbol" is absent where strace prints FILE() (no symbol at or below
 * the pc); names are as in the file, not demangled.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <sonde/render.h>
#include <sonde/stack.h>

struct json_frames {
	struct sonde_line *l;
	int n;
};

static int json_frame(void *ctx, const struct sonde_frame *f)
{
	struct json_frames *j = ctx;
	struct sonde_line *l = j->l;

	sonde_line_printf(l, "%s{", j->n++ ? "," : "");
	if (f->error) {
		sonde_line_printf(l, "\"error\":");
		sonde_line_json_str(l, f->error, strlen(f->error));
		if (f->pc)
			sonde_line_printf(l, ",\"pc\":\"%#" PRIx64 "\"", f->pc);
		sonde_line_printf(l, "}");
		return 0;
	}
	sonde_line_printf(l, "\"pc\":\"%#" PRIx64 "\",\"module\":", f->pc);
	sonde_line_json_str(l, f->module, strlen(f->module));
	if (f->symbol && *f->symbol) {
		sonde_line_printf(l, ",\"symbol\":");
		sonde_line_json_str(l, f->symbol, strlen(f->symbol));
		sonde_line_printf(l, ",\"offset\":%" PRIu64, f->sym_off);
	}
	sonde_line_printf(l, ",\"file_offset\":\"%#" PRIx64 "\"}", f->rel);
	return 0;
}

int sonde_render_json_stack(struct sonde_render *r, const char *key, uint32_t pid, uint32_t tid,
			    const struct sonde_payload *pl, unsigned int npl, unsigned int which)
{
	struct json_frames j = { .l = &r->line };
	int rc;

	if (!r->ustack || !sonde_pl_has_stack(pl, npl))
		return 0;
	sonde_line_printf(&r->line, ",\"%s\":[", key);
	rc = sonde_ustack_unwind(r->ustack, pid, tid, pl, npl, which, json_frame, &j);
	sonde_line_printf(&r->line, "]");
	return rc < 0 ? rc : 0;
}
