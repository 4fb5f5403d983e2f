// SPDX-License-Identifier: GPL-2.0
/*
 * User-space function probes on uprobes:
 *   uprobe:/path/to/binary:function        entry, every process
 *   uretprobe:/path/to/binary:function     return
 *   pid$target:module:function:entry|return
 *     module: a.out (the executable), a library by name (libc, libc.so.6)
 *     or a path; only that process is traced.
 * Functions are ELF symbols (.symtab, then .dynsym) resolved with libelf;
 * globs are allowed. GNU indirect functions (IFUNC: libc's strlen,
 * memcpy...) are probed at the implementation their resolver picks.
 * Arguments follow the x86-64 C calling convention (rdi rsi rdx rcx r8
 * r9); in return probes arg0, arg1 and retval hold rax.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <gelf.h>
#include <libelf.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lang/prov.h"

static const int uarg_off[6] = { 112, 104, 96, 88, 72, 64 };
#define PT_AX 80
#define MAX_UPROBES 1000

static int is_ret(const struct lprobe *p)
{
	return p->aux[1];
}

/* Virtual address to file offset through the program headers. */
static long vaddr_to_off(Elf *e, unsigned long v)
{
	size_t n;

	if (elf_getphdrnum(e, &n))
		return -1;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, i, &ph) && ph.p_type == PT_LOAD && v >= ph.p_vaddr &&
		    v < ph.p_vaddr + ph.p_memsz)
			return v - ph.p_vaddr + ph.p_offset;
	}
	return -1;
}

struct usym {
	char name[128];
	long off;
};

static int sym_seen(struct usym *s, int n, long off)
{
	for (int i = 0; i < n; i++)
		if (s[i].off == off)
			return 1;
	return 0;
}

/*
 * The address an IFUNC symbol resolves to, as a vaddr of path, or 0. An
 * IFUNC's value is its resolver, run once by ld.so, so probing it would
 * never fire. The resolver picks by CPU features: sonde asks its own ld.so
 * (dlsym resolves IFUNCs) when it has path loaded too -- libc always --,
 * which picks what the traced process on this machine picks. Loading any
 * other library just to run its resolver is not done.
 */
static unsigned long ifunc_target(const char *path, const char *name)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_NOLOAD), *a;
	struct link_map *lm;
	unsigned long v = 0;

	if (!h)
		return 0;
	a = dlsym(h, name);
	if (a && !dlinfo(h, RTLD_DI_LINKMAP, &lm))
		v = (unsigned long)a - lm->l_addr;
	dlclose(h);
	return v;
}

/* A function symbol's vaddr: its own, or an IFUNC's target (0 if none). */
static unsigned long func_vaddr(const char *path, const GElf_Sym *s, const char *name)
{
	if (!s->st_value || s->st_shndx == SHN_UNDEF)
		return 0;
	if (GELF_ST_TYPE(s->st_info) == STT_GNU_IFUNC)
		return ifunc_target(path, name);
	return GELF_ST_TYPE(s->st_info) == STT_FUNC ? s->st_value : 0;
}

/* Function symbols of path matching pat; returns the count or -errno.
 * ifunc gets the first IFUNC matched whose target is unknown. */
static int elf_funcs(const char *path, const char *pat, struct usym *out, int max, char *ifunc,
		     size_t ifunclen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), n = 0;
	Elf *e;
	Elf_Scn *scn = NULL;

	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e) {
		close(fd);
		return -ENOEXEC;
	}
	while ((scn = elf_nextscn(e, scn)) && n < max) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && sh.sh_entsize && i < sh.sh_size / sh.sh_entsize && n < max;
		     i++) {
			GElf_Sym s;
			const char *name;
			unsigned long v;
			long off;

			if (!gelf_getsym(d, i, &s))
				continue;
			name = elf_strptr(e, sh.sh_link, s.st_name);
			if (!name || !name[0] || !prov_glob(pat, name))
				continue;
			v = func_vaddr(path, &s, name);
			if (!v && GELF_ST_TYPE(s.st_info) == STT_GNU_IFUNC && !ifunc[0])
				snprintf(ifunc, ifunclen, "%s", name);
			off = v ? vaddr_to_off(e, v) : -1;
			if (off < 0 || sym_seen(out, n, off))
				continue;
			snprintf(out[n].name, sizeof(out[n].name), "%s", name);
			out[n++].off = off;
		}
	}
	elf_end(e);
	close(fd);
	return n;
}

/* pid provider module: a.out, a library name, or a path. */
static int pid_module_path(struct lcc *cc, long pid, const char *mod, char *path, size_t len)
{
	char maps[64], line[1024];
	FILE *f;
	size_t ml = strlen(mod);

	if (mod[0] == '/') {
		snprintf(path, len, "%s", mod);
		return 0;
	}
	if ((!mod[0] || !strcmp(mod, "a.out")) && pid == cc->o->target && cc->o->target_exe[0]) {
		/* -c: the child has not exec'd yet */
		snprintf(path, len, "%s", cc->o->target_exe);
		return 0;
	}
	if (!mod[0] || !strcmp(mod, "a.out")) {
		snprintf(maps, sizeof(maps), "/proc/%ld/exe", pid);
		ssize_t n = readlink(maps, path, len - 1);

		if (n < 0)
			return -errno;
		path[n] = 0;
		return 0;
	}
	snprintf(maps, sizeof(maps), "/proc/%ld/maps", pid);
	f = fopen(maps, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *p = strchr(line, '/'), *b;

		if (!p)
			continue;
		p[strcspn(p, "\n")] = 0;
		b = strrchr(p, '/') + 1;
		if (!strncmp(b, mod, ml) && (b[ml] == 0 || b[ml] == '.' || b[ml] == '-')) {
			snprintf(path, len, "%s", p);
			fclose(f);
			return 0;
		}
	}
	fclose(f);
	return -ENOENT;
}

static int add_probes(struct lcc *cc, struct probe_desc *pd, struct clause *c,
		      const struct provider *pv, const char *path, const char *func, int ret,
		      long pid, const char *mod_shown)
{
	struct usym *syms = calloc(MAX_UPROBES + 1, sizeof(*syms));
	char ifunc[128] = "";
	int n = elf_funcs(path, func, syms, MAX_UPROBES + 1, ifunc, sizeof(ifunc));

	if (!n && ifunc[0]) {
		cc_error(cc, pd->loc,
			 "%s in %s is a GNU indirect function (IFUNC) whose implementation "
			 "sonde cannot resolve (the library is not loaded in sonde): probe "
			 "the implementation (nm -D shows 'i' for IFUNCs)",
			 ifunc, path);
		free(syms);
		return -1;
	}
	if (n < 0) {
		cc_error(cc, pd->loc, "cannot read symbols of %s: %s", path, strerror(-n));
		free(syms);
		return -1;
	}
	if (n > MAX_UPROBES) {
		cc_error(cc, pd->loc, "%s matches more than %d functions in %s: narrow the glob",
			 func, MAX_UPROBES, path);
		free(syms);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		struct lprobe *lp = probe_add(cc, pv, c);

		snprintf(lp->f[0], sizeof(lp->f[0]), "%s",
			 pid >= 0 ? pd->f[0]
			 : ret	  ? "uretprobe"
				  : "uprobe");
		if (pid >= 0)
			snprintf(lp->f[0], sizeof(lp->f[0]), "pid%ld", pid);
		snprintf(lp->f[1], sizeof(lp->f[1]), "%s", mod_shown);
		snprintf(lp->f[2], sizeof(lp->f[2]), "%s", syms[i].name);
		snprintf(lp->f[3], sizeof(lp->f[3]), "%s", ret ? "return" : "entry");
		snprintf(lp->attach, sizeof(lp->attach), "%s:%lx:%d:%ld", path, syms[i].off, ret,
			 pid);
		lp->aux[0] = syms[i].off;
		lp->aux[1] = ret;
		lp->aux[2] = pid;
	}
	free(syms);
	return n;
}

static int uprobe_match(struct lcc *cc, struct probe_desc *pd, const char *f[4], struct clause *c)
{
	int ret = !strcmp(f[0], "uretprobe");

	if (cc->o->no_fs)
		return 0;

	if (strcmp(f[0], "uprobe") && !ret)
		return 0;
	if (f[1][0] != '/' || !f[2][0]) {
		cc_error(cc, pd->loc, "write %s:/path/to/binary:function", f[0]);
		return -1;
	}
	if (f[3][0] && strcmp(f[3], "entry") && strcmp(f[3], "return")) {
		cc_error(cc, pd->loc, "the last field of a uprobe is entry or return");
		return -1;
	}
	if (!strcmp(f[3], "return"))
		ret = 1;
	if (access(f[1], R_OK)) {
		cc_error(cc, pd->loc, "cannot open %s: %s", f[1], strerror(errno));
		return -1;
	}
	return add_probes(cc, pd, c, &prov_uprobe, f[1], f[2], ret, -1, f[1]);
}

static int pid_match(struct lcc *cc, struct probe_desc *pd, const char *f[4], struct clause *c)
{
	char path[4096], *e;
	long pid;
	int n = 0;

	if (cc->o->no_fs)
		return 0;

	if (strncmp(f[0], "pid", 3))
		return 0;
	pid = strtol(f[0] + 3, &e, 10);
	if (e == f[0] + 3 || *e || pid <= 0) {
		cc_error(cc, pd->loc,
			 "write pid$target:module:function:entry (with -c or -p) or pidPID:...");
		return -1;
	}
	if (pid_module_path(cc, pid, f[1], path, sizeof(path))) {
		cc_error(cc, pd->loc,
			 "process %ld has no module '%s' (a.out, a library name such as libc, or a "
			 "path)",
			 pid, f[1]);
		return -1;
	}
	for (int ret = 0; ret < 2; ret++) {
		int r;

		if (!prov_glob(f[3], ret ? "return" : "entry"))
			continue;
		r = add_probes(cc, pd, c, &prov_pid, path, f[2][0] ? f[2] : "*", ret, pid,
			       f[1][0] ? f[1] : "a.out");
		if (r < 0)
			return -1;
		n += r;
	}
	return n;
}

static struct type *u_arg_type(struct lcc *cc, const struct lprobe *p, int i)
{
	(void)cc;
	if (is_ret(p))
		return i < 2 ? &t_s64 : NULL;
	return i < 6 ? &t_s64 : NULL;
}

static int u_arg(struct cg *cg, int i)
{
	int r = ir_vreg(cg->ir);

	if (cg->p->aux[1])
		ir_ldx(cg->ir, BPF_DW, r, cg->vctx, i < 2 ? PT_AX : 0);
	else if (i < 6)
		ir_ldx(cg->ir, BPF_DW, r, cg->vctx, uarg_off[i]);
	else
		ir_movi(cg->ir, r, 0);
	if (cg->p->aux[1] && i >= 2)
		ir_movi(cg->ir, r, 0);
	return r;
}

static int read_sysfs_int(const char *path, const char *prefix)
{
	char buf[64];
	FILE *f = fopen(path, "re");
	int v = -1;

	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		v = atoi(buf + strlen(prefix));
	fclose(f);
	return v;
}

static int u_attach(struct lcc *cc, struct lprog *p)
{
	struct perf_event_attr attr = { .size = sizeof(attr),
					.sample_period = 1,
					.wakeup_events = 1 };
	char path[256];
	int type = read_sysfs_int("/sys/bus/event_source/devices/uprobe/type", "");
	int bit = read_sysfs_int("/sys/bus/event_source/devices/uprobe/format/retprobe", "config:");
	long pid = p->aux[2];

	if (type < 0) {
		cc_error(cc, (struct loc){ 0, 0 },
			 "uprobes are not available (no /sys/bus/event_source/devices/uprobe)");
		return -1;
	}
	snprintf(path, sizeof(path), "%.*s", (int)strcspn(p->attach, ":"), p->attach);
	attr.type = type;
	attr.config = p->aux[1] ? 1ULL << (bit < 0 ? 0 : bit) : 0;
	attr.config1 = (unsigned long)path;
	attr.config2 = p->aux[0];
	/* The program runs from the probe's own handler for every hit, on
	 * any CPU: one perf event is enough (one per CPU would run it once
	 * per event). */
	return prov_attach_perf(cc, p, &attr, pid >= 0 ? pid : -1, pid >= 0 ? -1 : 0);
}

const struct provider prov_uprobe = {
	.name = "uprobe",
	.desc = "user function entry/return in every process (uprobe:, uretprobe:)",
	.type = BPF_PROG_TYPE_KPROBE,
	.match = uprobe_match,
	.arg_type = u_arg_type,
	.is_return = is_ret,
	.arg = u_arg,
	.args = u_arg,
	.attach = u_attach,
};

const struct provider prov_pid = {
	.name = "pid",
	.desc = "user function entry/return in one process (pid$target)",
	.type = BPF_PROG_TYPE_KPROBE,
	.match = pid_match,
	.arg_type = u_arg_type,
	.is_return = is_ret,
	.arg = u_arg,
	.args = u_arg,
	.attach = u_attach,
};
