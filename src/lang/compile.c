// SPDX-License-Identifier: GPL-2.0
/*
 * The driver: options, the pass pipeline (see compile.h), -l, -S, and the
 * live run: attach, BEGIN, consume until exit()/the -c command ends/a
 * signal, END, final aggregation printout, drop report.
 */
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wordexp.h>
#include <sonde/record.h>

#include "lang/agg.h"
#include "lang/builtins.h"
#include "lang/prov.h"
#include "lang/rt.h"
#include "lang/sym.h"

void lang_opts_init(struct lang_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->target = -1;
	o->out = stdout;
	o->strsize = 128;
	o->bufsize = 256 << 10;
	o->aggsize = 4096;
	o->dynvarsize = 4096;
	o->nspec = 1;
}

int lang_opt_set(struct lang_opts *o, const char *nv, char *err, size_t errlen)
{
	static const struct {
		const char *name;
		size_t off;
		long min, max;
	} opts[] = {
		{ "strsize", offsetof(struct lang_opts, strsize), 8, 4096 },
		{ "bufsize", offsetof(struct lang_opts, bufsize), 4096, 1L << 30 },
		{ "aggsize", offsetof(struct lang_opts, aggsize), 1, 1 << 24 },
		{ "dynvarsize", offsetof(struct lang_opts, dynvarsize), 1, 1 << 24 },
		{ "nspec", offsetof(struct lang_opts, nspec), 1, 16 },
	};
	const char *eq = strchr(nv, '=');
	char *end;
	long v;

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		if (!eq || strncmp(nv, opts[i].name, eq - nv) || opts[i].name[eq - nv])
			continue;
		v = strtol(eq + 1, &end, 0);
		if (*end == 'k' || *end == 'K')
			v <<= 10, end++;
		else if (*end == 'm' || *end == 'M')
			v <<= 20, end++;
		if (*end || end == eq + 1 || v < opts[i].min || v > opts[i].max) {
			snprintf(err, errlen, "-x %s: the value must be a number from %ld to %ld",
				 opts[i].name, opts[i].min, opts[i].max);
			return -1;
		}
		if (!strcmp(opts[i].name, "bufsize") && (v & (v - 1))) {
			snprintf(err, errlen,
				 "-x bufsize: the ring size must be a power of two (e.g. 262144)");
			return -1;
		}
		if (!strcmp(opts[i].name, "strsize"))
			v = (v + 7) & ~7L;
		*(long *)((char *)o + opts[i].off) = v;
		return 0;
	}
	snprintf(err, errlen,
		 "unknown option '%s': use strsize=, bufsize=, aggsize=, dynvarsize=, nspec=", nv);
	return -1;
}

/* Line number of p in the script, for errors found before lexing. */
static int src_line(const struct lang_opts *o, const char *p)
{
	int line = 1;

	for (const char *s = o->src; s < p; s++)
		line += *s == '\n';
	return line;
}

/* "#pragma D option name=value" lines in the script: read before the
 * lexer runs, as they set sizes compilation depends on. */
static int pragmas(struct lang_opts *o, char *err, size_t errlen)
{
	const char *p = o->src;

	while ((p = strstr(p, "#pragma D option "))) {
		const char *line = p;
		char nv[128], msg[200];

		if (p != o->src && p[-1] != '\n') {
			p++;
			continue;
		}
		p += strlen("#pragma D option ");
		snprintf(nv, sizeof(nv), "%.*s", (int)strcspn(p, " \t\r\n"), p);
		if (!strcmp(nv, "quiet")) {
			o->quiet = 1;
			continue;
		}
		if (lang_opt_set(o, nv, msg, sizeof(msg))) {
			snprintf(err, errlen, "%s:%d:1: %s",
				 o->src_name ? o->src_name : "<program>", src_line(o, line), msg);
			return -1;
		}
	}
	return 0;
}

static void report(struct lcc *cc)
{
	const char *name = cc->o->src_name ? cc->o->src_name : "<program>";

	if (cc->lx.err[0])
		fprintf(stderr, "sonde script: %s:%s\n", name, cc->lx.err);
	else if (cc->err[0] >= '0' && cc->err[0] <= '9')
		fprintf(stderr, "sonde script: %s:%s\n", name, cc->err);
	else
		fprintf(stderr, "sonde script: %s\n", cc->err);
}

/* Maps every program needs; indices are fixed before code generation,
 * sizes that depend on it (scratch, globals) are set after. */
static int maps_plan(struct lcc *cc)
{
	cc->m_scratch = map_add(cc, "scratch", BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 1, NULL);
	cc->m_stats = map_add(cc, "stats", BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8 * DROP_NKINDS, 1, NULL);
	cc->m_rings = cc->m_ring0 = -1;
	if (cc->ncpus <= DIRECT_RING_CPUS)
		for (int c = 0; c < cc->ncpus; c++) {
			char name[16];
			int m;

			snprintf(name, sizeof(name), "ring%d", c);
			m = map_add(cc, name, BPF_MAP_TYPE_RINGBUF, 0, 0, cc->o->bufsize,
				    "bufsize");
			if (!c)
				cc->m_ring0 = m;
		}
	else
		cc->m_rings =
			map_add(cc, "rings", BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, 4, cc->ncpus, NULL);
	cc->m_globals = map_add(cc, "globals", BPF_MAP_TYPE_ARRAY, 4, 8, 1, NULL);
	cc->m_rodata = map_add(cc, "rodata", BPF_MAP_TYPE_ARRAY, 4, 8, 1, NULL);
	cc->m_zero = map_add(cc, "zero", BPF_MAP_TYPE_ARRAY, 4, 8, 1, NULL);
	for (struct var *v = cc->vars; v; v = v->next) {
		char name[24];
		int ksz = 8;

		if (v->s != VS_SELF && v->s != VS_ASSOC && v->s != VS_SELFA)
			continue;
		if (v->s != VS_SELF) {
			ksz = v->s == VS_SELFA ? 8 : 0; /* thread id first */
			for (int k = 0; k < v->nkeys; k++)
				ksz += type_slot_size(v->kt[k]);
		}
		snprintf(name, sizeof(name), "%s%s",
			 v->s == VS_SELF    ? "self_"
			 : v->s == VS_SELFA ? "selfa_"
					    : "",
			 v->name);
		v->map = map_add(cc, name, BPF_MAP_TYPE_HASH, ksz, type_slot_size(v->t),
				 cc->o->dynvarsize, "dynvarsize");
	}
	cc->maps[cc->m_zero].val_size = aggs_layout(cc);
	if (cc->maps[cc->m_zero].val_size < 8)
		cc->maps[cc->m_zero].val_size = 8;
	return cc_failed(cc) ? -1 : 0;
}

static int compile(struct lcc *cc)
{
	char zero[4096] = { 0 };

	lex_init(&cc->lx, cc->o->src, cc->o->argc, cc->o->argv, cc->o->target);
	if (cc->o->list && !strchr(cc->o->src, '{') ? parse_probes_only(&cc->lx, &cc->prog)
						    : parse_program(&cc->lx, &cc->prog))
		return -1;
	/* rodata offset 0: a zero block that reads as "" for any string */
	rodata_add(cc, zero, 0, cc->o->strsize);
	if (probes_match(cc))
		return -1;
	if (cc->o->list)
		return 0;
	if (sema_program(cc) || maps_plan(cc))
		return -1;
	for (int i = 0; i < cc->nprogs; i++)
		if (cc->progs[i].prov->prepare && cc->progs[i].prov->prepare(cc, &cc->progs[i]))
			return -1;
	if (cg_programs(cc))
		return -1;
	cc->maps[cc->m_scratch].val_size = (cc->scratch_size + 7) & ~7;
	cc->maps[cc->m_globals].val_size = cc->globals_size ? cc->globals_size : 8;
	cc->maps[cc->m_rodata].val_size = cc->rosize;
	return 0;
}

static void dump(struct lcc *cc, FILE *f)
{
	const char *names[MAX_MAPS];
	int fds[MAX_MAPS];
	char err[256];

	fprintf(f, "-- AST\n");
	ast_dump(f, &cc->prog);
	sema_dump(cc, f);
	fprintf(f, "-- maps\n");
	for (int i = 0; i < cc->nmaps; i++) {
		names[i] = cc->maps[i].name;
		fds[i] = i;
		fprintf(f, "  %-20s type %d key %d value %d entries %d\n", cc->maps[i].name,
			cc->maps[i].type, cc->maps[i].key_size, cc->maps[i].val_size,
			cc->maps[i].max_entries);
	}
	for (int pi = 0; pi < cc->nprogs; pi++) {
		struct lprog *p = &cc->progs[pi];

		if (ir_lower(&p->ir, fds, &p->low, err, sizeof(err))) {
			fprintf(f, "%s\n", err);
			continue;
		}
		fprintf(f, "-- program %d: %s %s (%d instructions, %d bytes of stack)\n", pi,
			p->prov->name, p->attach, p->low.n, p->low.stack);
		ir_dump_lowered(f, &p->low, names);
		lowered_free(&p->low);
	}
}

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static int ring_cb(void *ctx, void *data, size_t size)
{
	return rt_record(ctx, data, size);
}

/* Runs BEGIN or END once: their programs are not attached anywhere. */
static void run_special(struct lcc *cc, const char *which)
{
	for (int i = 0; i < cc->nprogs; i++)
		if (cc->progs[i].prov == &prov_dtrace && !strcmp(cc->progs[i].attach, which)) {
			LIBBPF_OPTS(bpf_test_run_opts, o);

			bpf_prog_test_run_opts(cc->progs[i].fd, &o);
		}
}

/* The child of -c: waits on the pipe until the probes are attached. */
static void spawn_child(int go, const char *exe, char **argv)
{
	char c;

	if (read(go, &c, 1) != 1)
		_exit(127);
	execv(exe, argv);
	fprintf(stderr, "sonde script: %s: %s\n", argv[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

/*
 * -c CMD: splits CMD like a shell and resolves the program before anything
 * is traced, so that a command that cannot run fails early (as dtrace -c
 * and sonde record do) instead of running the script around a dead child;
 * o->target_exe names it for pid$target:a.out before the child has exec'd.
 * Returns 0, or the exit status of a shell that cannot run CMD: 127 (not
 * found), 126 (not executable), 1 (CMD does not split).
 */
static int spawn(struct lang_opts *o, pid_t *child, int *go, char *err, size_t errlen)
{
	wordexp_t we;
	int p[2], e = wordexp(o->cmd, &we, WRDE_NOCMD);

	if (e || !we.we_wordc) {
		if (!e || e == WRDE_NOSPACE)
			wordfree(&we);
		snprintf(err, errlen, "-c '%s': %s", o->cmd,
			 e ? "cannot split the command line" : "no command");
		return 1;
	}
	e = sonde_resolve_cmd(we.we_wordv[0], o->target_exe, sizeof(o->target_exe));
	if (e) {
		snprintf(err, errlen, "-c: %s: %s", we.we_wordv[0],
			 e == -ENOENT ? "command not found" : strerror(-e));
		wordfree(&we);
		return e == -ENOENT ? 127 : 126;
	}
	if (pipe2(p, O_CLOEXEC)) {
		snprintf(err, errlen, "-c: %s", strerror(errno));
		wordfree(&we);
		return 1;
	}
	*child = fork();
	if (*child == 0) {
		close(p[1]);
		spawn_child(p[0], o->target_exe, we.we_wordv);
	}
	close(p[0]);
	wordfree(&we);
	*go = p[1];
	if (*child < 0) {
		snprintf(err, errlen, "-c: cannot fork: %s", strerror(errno));
		return 1;
	}
	return 0;
}

/* vtimestamp bookkeeping first, so no switch of a thread it has seen is
 * missed once probes fire. */
static int attach_all(struct lcc *cc)
{
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < cc->nprogs; i++)
			if ((cc->progs[i].prov == &prov_vtime) == !pass &&
			    cc->progs[i].prov->attach(cc, &cc->progs[i]))
				return -1;
	return 0;
}

static int run_live(struct lcc *cc, pid_t child, int go)
{
	struct rt rt = { .cc = cc, .out = cc->o->out, .json = cc->o->json, .quiet = cc->o->quiet };
	struct ring_buffer *rb = NULL;
	struct sigaction sa = { .sa_handler = on_signal };
	time_t last = time(NULL);
	int status = 0;

	rt.ncpus = libbpf_num_possible_cpus();
	rt_init_kernel(&rt);
	for (int c = 0; c < cc->ncpus; c++) {
		if (!rb)
			rb = ring_buffer__new(cc->ring_fds[c], ring_cb, &rt, NULL);
		else
			ring_buffer__add(rb, cc->ring_fds[c], ring_cb, &rt);
	}
	if (!rb) {
		fprintf(stderr, "sonde script: cannot map the output rings: %s\n", strerror(errno));
		return 1;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	run_special(cc, "BEGIN");
	if (go >= 0) {
		if (write(go, "g", 1) != 1)
			fprintf(stderr, "sonde script: cannot start the -c command\n");
		close(go);
	}
	while (!rt.done && !interrupted) {
		ring_buffer__poll(rb, 100);
		if (child > 0 && waitpid(child, &status, WNOHANG) == child) {
			child = 0;
			break;
		}
		/* -p: trace until the process is gone */
		if (child <= 0 && cc->o->target > 0 && kill((pid_t)cc->o->target, 0) &&
		    errno == ESRCH)
			break;
		if (time(NULL) != last) {
			last = time(NULL);
			rt_drops(&rt);
		}
		/* keep $target's mappings for ustack() symbols after it exits */
		if (cc->o->target > 0 && cc->uses_ustack)
			rt_snapshot_maps((uint32_t)cc->o->target);
	}
	ring_buffer__consume(rb);
	rt.done = 0;
	run_special(cc, "END");
	ring_buffer__consume(rb);
	rt_print_aggs(&rt);
	rt_drops(&rt);
	ring_buffer__free(rb);
	rt_free(&rt);
	if (child > 0) {
		kill(child, SIGTERM);
		waitpid(child, &status, 0);
	}
	return rt.exit_code;
}

int lang_run(struct lang_opts *o)
{
	struct lcc *cc = calloc(1, sizeof(*cc));
	char err[256];
	int ret = 1, go = -1;
	pid_t child = -1;
	struct timespec mono, real;

	cc->o = o;
	cc->ncpus = libbpf_num_possible_cpus();
	cc->m_scnames = cc->m_spec = cc->m_vtime = -1;
	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	cc->wall_offset = (real.tv_sec - mono.tv_sec) * 1000000000LL + real.tv_nsec - mono.tv_nsec;
	if (pragmas(o, err, sizeof(err))) {
		fprintf(stderr, "sonde script: %s\n", err);
		goto out;
	}
	/* -l and -S list or compile pid$target probes of CMD as a run would */
	if (o->cmd) {
		int st = spawn(o, &child, &go, err, sizeof(err));

		if (st) {
			fprintf(stderr, "sonde script: %s\n", err);
			ret = st;
			goto out;
		}
		o->target = child;
	}
	if (compile(cc)) {
		report(cc);
		goto out;
	}
	if (o->list) {
		probes_list(cc, o->out);
		ret = 0;
		goto out;
	}
	if (o->dump) {
		dump(cc, o->out);
		ret = 0;
		goto out;
	}
	if (o->offline) {
		ret = offline_run(cc);
		goto out;
	}
	if (maps_create(cc) || progs_load(cc) || attach_all(cc)) {
		report(cc);
		goto out;
	}
	ret = run_live(cc, child, go);
	go = -1;
	child = -1;
out:
	if (go >= 0)
		close(go);
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	cc_release(cc);
	program_free(&cc->prog);
	lex_free(&cc->lx);
	free(cc->ring_fds);
	free(cc->tprecs);
	lbtf_free();
	types_free();
	sym_free();
	free(cc);
	return ret;
}

int lang_check(const char *src, char *err, size_t errlen)
{
	struct lang_opts o;
	struct lcc *cc = calloc(1, sizeof(*cc));
	int fds[MAX_MAPS], ret = -1;

	lang_opts_init(&o);
	o.src = src;
	o.no_fs = 1;
	o.target = 1;
	cc->o = &o;
	cc->ncpus = 2;
	cc->m_scnames = cc->m_spec = cc->m_vtime = -1;
	for (int i = 0; i < MAX_MAPS; i++)
		fds[i] = i + 1;
	if (!compile(cc)) {
		ret = 0;
		for (int i = 0; i < cc->nprogs && !ret; i++) {
			struct lowered low;

			ret = ir_lower(&cc->progs[i].ir, fds, &low, err, errlen);
			lowered_free(&low);
		}
	} else {
		snprintf(err, errlen, "%s", cc->lx.err[0] ? cc->lx.err : cc->err);
	}
	cc_release(cc);
	program_free(&cc->prog);
	lex_free(&cc->lx);
	lbtf_free();
	types_free();
	free(cc);
	return ret;
}
