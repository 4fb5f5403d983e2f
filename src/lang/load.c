// SPDX-License-Identifier: GPL-2.0
/*
 * Maps and program loading through libbpf's low-level API (bpf_map_create,
 * bpf_prog_load on raw instructions): no ELF object, no skeleton. A
 * rejected program is reloaded with a verifier log, and the instruction
 * the verifier stopped at is mapped back to the script line:column that
 * generated it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/types.h>
#include <sonde/syscalls.h>

#include "lang/cg.h"
#include "lang/prov.h"
#include "lang/rt.h"

int map_add(struct lcc *cc, const char *name, enum bpf_map_type type, int ksz, int vsz, int max,
	    const char *option)
{
	struct lmap *m;

	if (cc->nmaps == MAX_MAPS) {
		cc_error(cc, (struct loc){ 0, 0 },
			 "too many maps (variables and aggregations): at most %d", MAX_MAPS);
		return 0;
	}
	m = &cc->maps[cc->nmaps];
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->type = type;
	m->key_size = ksz;
	m->val_size = vsz;
	m->max_entries = max;
	m->fd = -1;
	m->inner = -1;
	m->option = option;
	return cc->nmaps++;
}

/* Constant strings live in one read-only array value, each zero padded to
 * a multiple of 8 (see cgstr.c). Identical strings are stored once. */
int rodata_add(struct lcc *cc, const char *s, int len, int cap)
{
	int size = (cap + 7) & ~7, off;

	for (off = 0; off + size <= cc->rosize; off += 8) {
		int same = !memcmp(cc->ro + off, s, len);

		for (int i = len; same && i < size; i++)
			same = !cc->ro[off + i];
		if (same)
			return off;
	}
	off = cc->rosize;
	cc->ro = realloc(cc->ro, cc->rosize + size);
	if (!cc->ro)
		abort();
	memset(cc->ro + off, 0, size);
	memcpy(cc->ro + off, s, len);
	cc->rosize += size;
	return off;
}

static int map_create_one(struct lcc *cc, struct lmap *m)
{
	LIBBPF_OPTS(bpf_map_create_opts, o);

	if (m->type == BPF_MAP_TYPE_ARRAY_OF_MAPS)
		o.inner_map_fd = cc->maps[m->inner].fd;
	if (m == &cc->maps[cc->m_rodata])
		o.map_flags = BPF_F_RDONLY_PROG;
	m->fd = bpf_map_create(m->type, m->name, m->key_size, m->val_size, m->max_entries, &o);
	if (m->fd < 0) {
		int e = errno;

		cc_error(cc, (struct loc){ 0, 0 },
			 "cannot create map %s (%d entries of %d+%d bytes): %s%s%s%s", m->name,
			 m->max_entries, m->key_size, m->val_size, strerror(e),
			 m->option ? "; lower it with -x " : "", m->option ? m->option : "",
			 m->option ? "=N" : "");
		return -1;
	}
	return 0;
}

int maps_create(struct lcc *cc)
{
	int inner = -1;

	for (int i = 0; i < cc->nmaps; i++) {
		struct lmap *m = &cc->maps[i];

		if (m->type == BPF_MAP_TYPE_ARRAY_OF_MAPS) {
			/* the template inner ring, then one ring per CPU */
			inner = map_add(cc, "ring_tmpl", BPF_MAP_TYPE_RINGBUF, 0, 0, cc->o->bufsize,
					"bufsize");
			m->inner = inner;
			if (map_create_one(cc, &cc->maps[inner]))
				return -1;
			m = &cc->maps[i];
		}
		if (m->fd < 0 && map_create_one(cc, m))
			return -1;
	}
	if (cc->rosize) {
		int k = 0;

		if (bpf_map_update_elem(cc->maps[cc->m_rodata].fd, &k, cc->ro, 0) ||
		    bpf_map_freeze(cc->maps[cc->m_rodata].fd)) {
			cc_error(cc, (struct loc){ 0, 0 }, "cannot fill rodata: %s",
				 strerror(errno));
			return -1;
		}
	}
	if (cc->m_scnames >= 0)
		for (unsigned int nr = 0; nr < sonde_syscall_count() && nr < SONDE_NR_SYSCALLS;
		     nr++) {
			char name[32] = { 0 };
			const char *s = sonde_syscall_name(nr);

			if (!s)
				continue;
			snprintf(name, sizeof(name), "%s", s);
			bpf_map_update_elem(cc->maps[cc->m_scnames].fd, &nr, name, 0);
		}
	for (int c = 0; cc->m_ring0 >= 0 && c < cc->ncpus; c++)
		rt_ring_fd(cc, c, cc->maps[cc->m_ring0 + c].fd);
	/* many CPUs: one RINGBUF per possible CPU in the array of maps */
	if (cc->m_rings >= 0)
		for (int cpu = 0; cpu < cc->ncpus; cpu++) {
			int fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "ring", 0, 0, cc->o->bufsize,
						NULL);

			if (fd < 0 || bpf_map_update_elem(cc->maps[cc->m_rings].fd, &cpu, &fd, 0)) {
				cc_error(cc, (struct loc){ 0, 0 },
					 "cannot create the output ring of CPU %d (%ld bytes): %s; "
					 "lower -x bufsize",
					 cpu, cc->o->bufsize, strerror(errno));
				if (fd >= 0)
					close(fd);
				return -1;
			}
			rt_ring_fd(cc, cpu, fd);
		}
	return 0;
}

static const struct {
	const char *match, *hint;
} vhints[] = {
	{ "invalid mem access 'scalar'", "this dereferences an integer: cast it to a kernel struct "
					 "pointer, or read user memory with copyin()/copyinstr()" },
	{ "min value is negative",
	  "an index or size may be negative: check it first (if (x >= 0))" },
	{ "unbounded memory access",
	  "an index has no upper bound: compare it with the size first" },
	{ "too large", "the clause is too long for the verifier: split it into several clauses" },
	{ "complexity",
	  "the clause is too complex for the verifier: split it or use fewer string operations" },
	{ "too complex", "the clause has too many branches for the verifier: split it into several "
			 "clauses or use fewer string comparisons" },
	{ "invalid access to map value",
	  "an access falls outside a buffer: use a smaller size or -x strsize" },
	{ "unknown func", "this kernel lacks a BPF helper the clause needs" },
	{ "back-edge", "a loop the verifier cannot bound" },
	{ "R0 !read_ok", "a value is used before it is set" },
};

/* The control-flow check runs before any instruction is traced, so its
 * rejections ("unreachable insn N", "back-edge from insn N to M", "jump
 * out of range from insn N to M") name the instruction in the reason
 * only; -1 when the reason names none. */
static int reason_insn(const char *reason)
{
	const char *p = strstr(reason, "insn ");
	int insn;

	return p && sscanf(p + 5, "%d", &insn) == 1 ? insn : -1;
}

/* The verifier log ends with the failing instruction "N: (..) ..." and the
 * reason; map N to the script location recorded at lowering. */
static void verifier_error(struct lcc *cc, struct lprog *p, const char *log)
{
	const char *reason = "", *hint = "change the clause", *line = log, *last = NULL;
	int insn = -1;
	char rbuf[256];

	while (line && *line) {
		const char *nl = strchr(line, '\n');
		int k;

		if (sscanf(line, "%d: (", &k) == 1)
			insn = k;
		else if (line[0] && strncmp(line, "processed", 9) &&
			 strncmp(line, "verification time", 17) &&
			 strncmp(line, "stack depth", 11) && line[0] != ';' && line[0] != '\n')
			last = line;
		line = nl ? nl + 1 : NULL;
	}
	if (last) {
		snprintf(rbuf, sizeof(rbuf), "%.*s", (int)strcspn(last, "\n"), last);
		reason = rbuf;
	}
	for (size_t i = 0; i < sizeof(vhints) / sizeof(vhints[0]); i++)
		if (strstr(log, vhints[i].match))
			hint = vhints[i].hint;
	if (insn < 0)
		insn = reason_insn(reason);
	if (insn >= 0 && insn < p->low.n && p->low.locs[insn].line)
		cc_error(cc, p->low.locs[insn],
			 "the kernel verifier rejected the code for this expression (BPF "
			 "instruction %d: %s): %s; -v shows the full verifier log",
			 insn, reason, hint);
	else
		cc_error(cc, (struct loc){ 0, 0 },
			 "the kernel verifier rejected the program for %s (%s): %s; -v shows the "
			 "full verifier log",
			 p->attach, reason, hint);
}

int progs_load(struct lcc *cc)
{
	int fds[MAX_MAPS];
	char err[512];

	for (int i = 0; i < cc->nmaps; i++)
		fds[i] = cc->maps[i].fd;
	for (int pi = 0; pi < cc->nprogs; pi++) {
		struct lprog *p = &cc->progs[pi];
		LIBBPF_OPTS(bpf_prog_load_opts, o);
		char *log;

		if (!p->low.n && ir_lower(&p->ir, fds, &p->low, err, sizeof(err))) {
			cc_error(cc, (struct loc){ 0, 0 }, "%s", err);
			return -1;
		}
		o.expected_attach_type = p->eatype;
		o.attach_btf_id = p->btf_id;
		p->fd = bpf_prog_load(p->type, "sonde", "GPL", p->low.insns, p->low.n, &o);
		if (p->fd >= 0)
			continue;
		/* retry with a log to explain the rejection */
		log = calloc(1, 16 << 20);
		o.log_buf = log;
		o.log_size = 16 << 20;
		o.log_level = 1;
		p->fd = bpf_prog_load(p->type, "sonde", "GPL", p->low.insns, p->low.n, &o);
		if (p->fd >= 0) {
			free(log);
			continue;
		}
		if (cc->o->verbose)
			fprintf(stderr, "%s\n", log);
		if (!log[0])
			cc_error(cc, (struct loc){ 0, 0 }, "cannot load the program for %s: %s",
				 p->attach, strerror(errno));
		else
			verifier_error(cc, p, log);
		free(log);
		return -1;
	}
	return 0;
}

void cc_release(struct lcc *cc)
{
	for (int pi = 0; pi < cc->nprogs; pi++) {
		struct lprog *p = &cc->progs[pi];

		for (int k = 0; k < p->nlinks; k++)
			close(p->links[k]);
		free(p->links);
		if (p->fd >= 0)
			close(p->fd);
		ir_free(&p->ir);
		lowered_free(&p->low);
	}
	free(cc->progs);
	for (int i = 0; i < cc->nmaps; i++)
		if (cc->maps[i].fd >= 0)
			close(cc->maps[i].fd);
	free(cc->probes);
	free(cc->ro);
	free(cc->acts);
	while (cc->vars) {
		struct var *v = cc->vars;

		cc->vars = v->next;
		free(v);
	}
	while (cc->aggs) {
		struct agg *a = cc->aggs;

		cc->aggs = a->next;
		free(a);
	}
}
