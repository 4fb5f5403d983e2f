// SPDX-License-Identifier: GPL-2.0
/*
 * Offline mode (-r TRACE.sonde): the same compiled BPF programs, run by a
 * small BPF interpreter over a recorded trace instead of by the kernel.
 * Running the very instructions the live mode loads, rather than a second
 * evaluator of the AST, is what guarantees a script means the same thing
 * live and offline.
 *
 * Emulation:
 *  - maps are host memory: arrays as one block, hashes as entry lists;
 *    per-CPU maps have one copy (the trace is replayed on one "CPU");
 *  - each record becomes the context its live provider would see: a fake
 *    struct pt_regs for syscalls, fake task_structs (fields at their BTF
 *    offsets) for proc and sched events;
 *  - helpers read the current thread from the record (pid, tid, comm
 *    table kept from exec/comm/fork records, time stamp); where the live
 *    tracepoint runs in another task's context (the waker of a wakeup,
 *    the sender of a signal), that task is current, as it is live;
 *  - bpf_probe_read_* only copy from the fake structures; anything else
 *    reads as zeros and fails, as a faulting read does in the kernel.
 *    User memory is not in the trace: copyin() yields zeros and
 *    copyinstr() "". Built-ins the trace does not hold (uid, gid,
 *    curthread and what derives from it) are refused at compile time.
 */
#include <errno.h>
#include <linux/types.h>
#include <stdlib.h>
#include <string.h>

#include <sonde/events.h>
#include <sonde/format.h>
#include <sonde/syscalls.h>

#include "lang/agg.h"
#include "lang/prov.h"
#include "lang/rt.h"

struct oentry {
	struct oentry *next;
	unsigned char *key, *val;
};

struct omap {
	struct lmap *m;
	unsigned char *vals; /* arrays */
	struct oentry *head; /* hashes, newest first */
	int n;
};

#define NTASK 4
#define TASK_SIZE 16384

struct ovm {
	struct lcc *cc;
	struct rt *rt;
	struct omap maps[MAX_MAPS];
	uint64_t ts;
	uint32_t pid, tid, cpu;
	char comm[16];
	unsigned char regs[256];
	unsigned char *task[NTASK];
	int task_size;
	struct comm_ent {
		uint32_t tid;
		char comm[16];
	} * comms;
	int ncomms, capcomms;
	int ring_token;
};

static struct omap *omap_of(struct ovm *vm, uint64_t p)
{
	for (int i = 0; i < vm->cc->nmaps; i++)
		if ((uint64_t)&vm->maps[i] == p)
			return &vm->maps[i];
	return NULL;
}

static int is_array(const struct lmap *m)
{
	return m->type == BPF_MAP_TYPE_ARRAY || m->type == BPF_MAP_TYPE_PERCPU_ARRAY;
}

static void *map_lookup(struct omap *om, const void *key)
{
	if (om->m->type == BPF_MAP_TYPE_ARRAY_OF_MAPS)
		return om; /* the "ring": any non-NULL token */
	if (is_array(om->m)) {
		uint32_t k;

		memcpy(&k, key, 4);
		return k < (uint32_t)om->m->max_entries ? om->vals + (size_t)k * om->m->val_size
							: NULL;
	}
	for (struct oentry *e = om->head; e; e = e->next)
		if (!memcmp(e->key, key, om->m->key_size))
			return e->val;
	return NULL;
}

static long map_update(struct omap *om, const void *key, const void *val, uint64_t flags)
{
	void *v = map_lookup(om, key);
	struct oentry *e;

	if (v) {
		if (flags == BPF_NOEXIST)
			return -EEXIST;
		memmove(v, val, om->m->val_size);
		return 0;
	}
	if (is_array(om->m))
		return -E2BIG;
	if (flags == BPF_EXIST)
		return -ENOENT;
	if (om->n >= om->m->max_entries)
		return -E2BIG;
	e = calloc(1, sizeof(*e));
	e->key = malloc(om->m->key_size);
	e->val = malloc(om->m->val_size);
	memcpy(e->key, key, om->m->key_size);
	memcpy(e->val, val, om->m->val_size);
	e->next = om->head;
	om->head = e;
	om->n++;
	return 0;
}

static long map_delete(struct omap *om, const void *key)
{
	for (struct oentry **pp = &om->head; *pp; pp = &(*pp)->next)
		if (!memcmp((*pp)->key, key, om->m->key_size)) {
			struct oentry *e = *pp;

			*pp = e->next;
			free(e->key);
			free(e->val);
			free(e);
			om->n--;
			return 0;
		}
	return -ENOENT;
}

/* Memory probe_read may copy from: the fake context structures and every
 * map value block (strings passed around in scratch, keys...). */
static int readable(struct ovm *vm, uint64_t a, uint64_t n)
{
	if (a >= (uint64_t)vm->regs && a + n <= (uint64_t)vm->regs + sizeof(vm->regs))
		return 1;
	for (int i = 0; i < NTASK; i++)
		if (a >= (uint64_t)vm->task[i] && a + n <= (uint64_t)vm->task[i] + vm->task_size)
			return 1;
	for (int i = 0; i < vm->cc->nmaps; i++) {
		struct omap *om = &vm->maps[i];

		if (om->vals && a >= (uint64_t)om->vals &&
		    a + n <= (uint64_t)om->vals + (uint64_t)om->m->val_size * om->m->max_entries)
			return 1;
		for (struct oentry *e = om->head; e; e = e->next)
			if (a >= (uint64_t)e->val && a + n <= (uint64_t)e->val + om->m->val_size)
				return 1;
	}
	return 0;
}

static long probe_read(struct ovm *vm, uint64_t dst, uint64_t n, uint64_t src, int str)
{
	if (!n)
		return 0;
	if (!str || !readable(vm, src, n)) {
		if (!readable(vm, src, n)) {
			memset((void *)dst, 0, n);
			return -EFAULT;
		}
		memmove((void *)dst, (void *)src, n);
		return 0;
	}
	for (uint64_t i = 0; i < n; i++) {
		((char *)dst)[i] = ((char *)src)[i];
		if (!((char *)src)[i])
			return i + 1;
	}
	((char *)dst)[n - 1] = 0;
	return n;
}

static uint64_t helper(struct ovm *vm, int id, uint64_t *r)
{
	struct omap *om;

	switch (id) {
	case BPF_FUNC_map_lookup_elem:
		om = omap_of(vm, r[1]);
		return om ? (uint64_t)map_lookup(om, (void *)r[2]) : 0;
	case BPF_FUNC_map_update_elem:
		om = omap_of(vm, r[1]);
		return om ? (uint64_t)map_update(om, (void *)r[2], (void *)r[3], r[4])
			  : (uint64_t)-EINVAL;
	case BPF_FUNC_map_delete_elem:
		om = omap_of(vm, r[1]);
		return om ? (uint64_t)map_delete(om, (void *)r[2]) : (uint64_t)-EINVAL;
	case BPF_FUNC_probe_read_kernel:
		return probe_read(vm, r[1], r[2], r[3], 0);
	case BPF_FUNC_probe_read_kernel_str:
		return probe_read(vm, r[1], r[2], r[3], 1);
	case BPF_FUNC_probe_read_user:
	case BPF_FUNC_probe_read_user_str:
		/* user memory is not recorded: zeros, "" (not a fault, which
		 * would report an error for every copyin) */
		memset((void *)r[1], 0, r[2]);
		return id == BPF_FUNC_probe_read_user_str;
	case BPF_FUNC_ktime_get_ns:
		return vm->ts;
	case BPF_FUNC_get_smp_processor_id:
		return vm->cpu;
	case BPF_FUNC_get_current_pid_tgid:
		return (uint64_t)vm->pid << 32 | vm->tid;
	case BPF_FUNC_get_current_uid_gid:
		return 0;
	case BPF_FUNC_get_current_comm:
		memset((void *)r[1], 0, r[2]);
		memcpy((void *)r[1], vm->comm, r[2] < 16 ? r[2] - 1 : 15);
		return 0;
	case BPF_FUNC_get_current_task:
		return 0;
	case BPF_FUNC_get_stack:
		memset((void *)r[2], 0, r[3]);
		return 0;
	case BPF_FUNC_ringbuf_output:
		rt_record(vm->rt, (void *)r[2], r[3]);
		return 0;
	default:
		return -EINVAL;
	}
}

static int64_t sx(uint64_t v, int size)
{
	int sh = 64 - 8 * size;

	return (int64_t)(v << sh) >> sh;
}

static int bytes(int size)
{
	return size == BPF_B ? 1 : size == BPF_H ? 2 : size == BPF_W ? 4 : 8;
}

static uint64_t load(uint64_t a, int n)
{
	uint64_t v = 0;

	memcpy(&v, (void *)a, n);
	return v;
}

/* Executes one program; insn limit guards against a runaway loop. */
static void vm_run(struct ovm *vm, const struct lprog *p, const void *ctx)
{
	uint64_t r[11] = { 0 }, stack[64];
	const struct bpf_insn *in = p->low.insns;
	long steps = 0;

	r[1] = (uint64_t)ctx;
	r[10] = (uint64_t)(stack + 64);
	for (int pc = 0; pc < p->low.n && steps++ < 4000000; pc++) {
		const struct bpf_insn *i = &in[pc];
		int cls = BPF_CLASS(i->code), op = BPF_OP(i->code), sz;
		uint64_t *d = &r[i->dst_reg],
			 s = BPF_SRC(i->code) == BPF_X ? r[i->src_reg] : (uint64_t)(int64_t)i->imm;
		int taken;

		switch (cls) {
		case BPF_ALU64:
			switch (op) {
			case BPF_ADD:
				*d += s;
				break;
			case BPF_SUB:
				*d -= s;
				break;
			case BPF_MUL:
				*d *= s;
				break;
			case BPF_DIV:
				if (i->off)
					*d = s ? (uint64_t)((int64_t)s == -1
								    ? -(int64_t)*d
								    : (int64_t)*d / (int64_t)s)
					       : 0;
				else
					*d = s ? *d / s : 0;
				break;
			case BPF_MOD:
				if (i->off)
					*d = s ? (uint64_t)((int64_t)s == -1
								    ? 0
								    : (int64_t)*d % (int64_t)s)
					       : *d;
				else
					*d = s ? *d % s : *d;
				break;
			case BPF_OR:
				*d |= s;
				break;
			case BPF_AND:
				*d &= s;
				break;
			case BPF_XOR:
				*d ^= s;
				break;
			case BPF_LSH:
				*d <<= (s & 63);
				break;
			case BPF_RSH:
				*d >>= (s & 63);
				break;
			case BPF_ARSH:
				*d = (uint64_t)((int64_t)*d >> (s & 63));
				break;
			case BPF_NEG:
				*d = -*d;
				break;
			case BPF_MOV:
				*d = s;
				break;
			}
			break;
		case BPF_LDX:
			sz = bytes(BPF_SIZE(i->code));
			*d = load(r[i->src_reg] + i->off, sz);
			if (BPF_MODE(i->code) == 0x80)
				*d = (uint64_t)sx(*d, sz);
			break;
		case BPF_STX:
			sz = bytes(BPF_SIZE(i->code));
			if (BPF_MODE(i->code) == BPF_ATOMIC) {
				uint64_t old = load(*d + i->off, sz),
					 nv = i->imm == BPF_XCHG ? r[i->src_reg]
								 : old + r[i->src_reg];

				memcpy((void *)(*d + i->off), &nv, sz);
				if (i->imm & BPF_FETCH)
					r[i->src_reg] = old;
			} else {
				memcpy((void *)(*d + i->off), &r[i->src_reg], sz);
			}
			break;
		case BPF_ST:
			sz = bytes(BPF_SIZE(i->code));
			{
				uint64_t v = (uint64_t)(int64_t)i->imm;

				memcpy((void *)(*d + i->off), &v, sz);
			}
			break;
		case BPF_LD:
			if (i->src_reg == BPF_PSEUDO_MAP_FD)
				*d = (uint64_t)&vm->maps[i->imm - 1];
			else if (i->src_reg == BPF_PSEUDO_MAP_VALUE)
				*d = (uint64_t)(vm->maps[i->imm - 1].vals + in[pc + 1].imm);
			else
				*d = (uint32_t)i->imm | (uint64_t)(uint32_t)in[pc + 1].imm << 32;
			pc++;
			break;
		case BPF_JMP:
			if (op == BPF_EXIT)
				return;
			if (op == BPF_CALL) {
				r[0] = helper(vm, i->imm, r);
				break;
			}
			switch (op) {
			case BPF_JA:
				taken = 1;
				break;
			case BPF_JEQ:
				taken = *d == s;
				break;
			case BPF_JNE:
				taken = *d != s;
				break;
			case BPF_JGT:
				taken = *d > s;
				break;
			case BPF_JGE:
				taken = *d >= s;
				break;
			case BPF_JLT:
				taken = *d < s;
				break;
			case BPF_JLE:
				taken = *d <= s;
				break;
			case BPF_JSGT:
				taken = (int64_t)*d > (int64_t)s;
				break;
			case BPF_JSGE:
				taken = (int64_t)*d >= (int64_t)s;
				break;
			case BPF_JSLT:
				taken = (int64_t)*d < (int64_t)s;
				break;
			case BPF_JSLE:
				taken = (int64_t)*d <= (int64_t)s;
				break;
			case BPF_JSET:
				taken = (*d & s) != 0;
				break;
			default:
				taken = 0;
			}
			if (taken)
				pc += i->off;
			break;
		}
	}
}

static void run_attach(struct ovm *vm, const char *attach, const void *ctx)
{
	for (int i = 0; i < vm->cc->nprogs; i++)
		if (!strcmp(vm->cc->progs[i].attach, attach) &&
		    vm->cc->progs[i].prov != &prov_dtrace)
			vm_run(vm, &vm->cc->progs[i], ctx);
}

static void comm_set(struct ovm *vm, uint32_t tid, const char *comm)
{
	int i;

	for (i = 0; i < vm->ncomms; i++)
		if (vm->comms[i].tid == tid)
			break;
	if (i == vm->ncomms) {
		if (vm->ncomms == vm->capcomms) {
			vm->capcomms = vm->capcomms ? 2 * vm->capcomms : 256;
			vm->comms = realloc(vm->comms, vm->capcomms * sizeof(*vm->comms));
		}
		vm->ncomms++;
	}
	vm->comms[i].tid = tid;
	memset(vm->comms[i].comm, 0, 16);
	snprintf(vm->comms[i].comm, 16, "%.15s", comm);
}

static const char *comm_get(struct ovm *vm, uint32_t tid)
{
	for (int i = 0; i < vm->ncomms; i++)
		if (vm->comms[i].tid == tid)
			return vm->comms[i].comm;
	return "";
}

static void current(struct ovm *vm, const struct sonde_hdr *h, uint64_t ts)
{
	vm->ts = ts;
	vm->pid = h->pid;
	vm->tid = h->tid;
	vm->cpu = h->cpu;
	memset(vm->comm, 0, sizeof(vm->comm));
	snprintf(vm->comm, sizeof(vm->comm), "%.15s", comm_get(vm, h->tid));
}

/* A fake task_struct with the fields the providers read. */
static uint64_t task(struct ovm *vm, int slot, uint32_t pid, uint32_t tid, const char *comm,
		     int exit_code)
{
	static const char *const f[] = { "pid", "tgid", "exit_code", "comm" };
	unsigned char *t = vm->task[slot];
	int off;

	memset(t, 0, vm->task_size);
	for (int k = 0; k < 4; k++) {
		off = lbtf_offsetof("task_struct", f[k]);
		if (off < 0 || off + 16 > vm->task_size)
			continue;
		if (k == 3)
			snprintf((char *)t + off, 16, "%.15s", comm);
		else
			memcpy(t + off, k == 0 ? &tid : k == 1 ? &pid : (uint32_t *)&exit_code, 4);
	}
	return (uint64_t)t;
}

static void on_record(struct ovm *vm, const struct sonde_hdr *h)
{
	uint64_t ctx[6] = { 0 };

	switch (h->type) {
	case SONDE_REC_SYSCALL: {
		const struct sonde_ev_syscall *e = (const void *)h;
		static const int off[6] = { 112, 104, 96, 56, 72, 64 };

		if (h->size < sizeof(*e))
			return;
		memset(vm->regs, 0, sizeof(vm->regs));
		for (int k = 0; k < 6; k++)
			memcpy(vm->regs + off[k], &e->args[k], 8);
		memcpy(vm->regs + 120, &(uint64_t){ e->nr }, 8);
		/* cs: the code segment the syscall provider tells i386 calls
		 * by (prov_syscall.c), 32-bit for those the record marks so. */
		memcpy(vm->regs + 136, &(uint64_t){ h->flags & SONDE_SC_COMPAT ? 0x23 : 0x33 }, 8);
		current(vm, h, h->ts);
		ctx[0] = (uint64_t)vm->regs;
		ctx[1] = e->nr;
		run_attach(vm, "sys_enter", ctx);
		if (h->flags & (SONDE_SC_NORETURN | SONDE_SC_UNFINISHED))
			return;
		current(vm, h, h->ts + e->dur);
		ctx[1] = (uint64_t)e->ret;
		run_attach(vm, "sys_exit", ctx);
		return;
	}
	case SONDE_REC_EXEC: {
		const struct sonde_ev_exec *e = (const void *)h;

		if (h->size < sizeof(*e))
			return;
		comm_set(vm, h->tid, e->comm);
		current(vm, h, h->ts);
		ctx[0] = task(vm, 0, h->pid, h->tid, e->comm, 0);
		run_attach(vm, "sched_process_exec", ctx);
		return;
	}
	case SONDE_REC_FORK: {
		const struct sonde_ev_fork *e = (const void *)h;

		if (h->size < sizeof(*e))
			return;
		comm_set(vm, e->child_tid, e->child_comm);
		current(vm, h, h->ts);
		ctx[0] = task(vm, 0, h->pid, h->tid, comm_get(vm, h->tid), 0);
		ctx[1] = task(vm, 1, e->child_pid, e->child_tid, e->child_comm, 0);
		run_attach(vm, "sched_process_fork", ctx);
		return;
	}
	case SONDE_REC_EXIT: {
		const struct sonde_ev_exit *e = (const void *)h;

		if (h->size < sizeof(*e))
			return;
		current(vm, h, h->ts);
		ctx[0] = task(vm, 0, h->pid, h->tid, comm_get(vm, h->tid), e->code);
		run_attach(vm, "sched_process_exit", ctx);
		return;
	}
	case SONDE_REC_SWITCH: {
		const struct sonde_ev_switch *e = (const void *)h;

		if (h->size < sizeof(*e))
			return;
		comm_set(vm, h->tid, e->prev_comm);
		comm_set(vm, e->next_tid, e->next_comm);
		current(vm, h, h->ts);
		ctx[1] = task(vm, 0, h->pid, h->tid, e->prev_comm, 0);
		ctx[2] = task(vm, 1, e->next_pid, e->next_tid, e->next_comm, 0);
		ctx[3] = e->prev_state;
		run_attach(vm, "sched_switch/off-cpu", ctx);
		run_attach(vm, "sched_switch/on-cpu", ctx);
		return;
	}
	case SONDE_REC_WAKEUP: {
		const struct sonde_ev_wakeup *e = (const void *)h;
		struct sonde_hdr waker = *h;

		if (h->size < sizeof(*e))
			return;
		ctx[0] = task(vm, 0, h->pid, h->tid, comm_get(vm, h->tid), 0);
		waker.pid = e->waker_pid;
		waker.tid = e->waker_tid;
		current(vm, &waker, h->ts);
		run_attach(vm, "sched_wakeup/wakeup", ctx);
		return;
	}
	case SONDE_REC_SIGGEN: {
		/* signal_generate(sig, info, task, group, result) runs in the
		 * sender's context, as live: current is the sender, the target
		 * is the task argument. info stays NULL: no provider reads it. */
		const struct sonde_ev_signal *e = (const void *)h;
		struct sonde_hdr sender = *h;

		if (h->size < sizeof(*e))
			return;
		ctx[0] = (uint64_t)(int64_t)e->si.signo;
		ctx[2] = task(vm, 0, h->pid, h->tid, comm_get(vm, h->tid), 0);
		ctx[3] = !!(h->flags & SONDE_SIG_GROUP);
		ctx[4] = (uint64_t)(int64_t)e->result;
		sender.pid = e->sender_pid;
		sender.tid = e->sender_tid;
		current(vm, &sender, h->ts);
		run_attach(vm, "signal_generate", ctx);
		return;
	}
	case SONDE_REC_COMM: {
		const struct sonde_ev_comm *e = (const void *)h;

		if (h->size >= sizeof(*e))
			comm_set(vm, h->tid, e->comm);
		return;
	}
	case SONDE_REC_PROC: {
		const struct sonde_ev_proc *e = (const void *)h;

		if (h->size >= sizeof(*e))
			comm_set(vm, h->tid, e->comm);
		return;
	}
	default:
		return;
	}
}

static struct ovm *g_vm;

static int oagg_read(struct rt *rt, struct agg *a, unsigned char **keys, uint64_t **vals, int *n)
{
	struct omap *om = &g_vm->maps[a->map];
	int ksz = a->nkeys ? a->key_size : 4, k = 0;

	(void)rt;
	*n = 0;
	*keys = calloc(om->n + 1, ksz);
	*vals = calloc(om->n + 1, a->val_size);
	if (!a->nkeys) {
		memcpy(*vals, om->vals, a->val_size);
		for (int w = 0; w < a->val_size / 8; w++)
			if ((*vals)[w])
				*n = 1;
		return 0;
	}
	for (struct oentry *e = om->head; e; e = e->next, k++) {
		memcpy(*keys + (size_t)k * ksz, e->key, ksz);
		memcpy(*vals + (size_t)k * (a->val_size / 8), e->val, a->val_size);
	}
	*n = k;
	return 0;
}

static void oagg_clear(struct rt *rt, struct agg *a, int drop_keys, long keep)
{
	struct omap *om = &g_vm->maps[a->map];

	(void)rt;
	if (!a->nkeys) {
		memset(om->vals, 0, a->val_size);
		return;
	}
	if (!drop_keys) {
		for (struct oentry *e = om->head; e; e = e->next)
			memset(e->val, 0, a->val_size);
		return;
	}
	while (om->n > labs(keep)) {
		struct oentry *m = NULL;

		for (struct oentry *e = om->head; e; e = e->next)
			if (!m || rt_trunc_first(keep, a->fn->value(a, (uint64_t *)e->val),
						 a->fn->value(a, (uint64_t *)m->val)))
				m = e;
		map_delete(om, m->key);
	}
}

static int check_providers(struct lcc *cc)
{
	for (int i = 0; i < cc->nprobes; i++) {
		const struct lprobe *p = &cc->probes[i];

		if (p->prov == &prov_dtrace || p->prov == &prov_syscall || p->prov == &prov_sched ||
		    p->prov == &prov_proc)
			continue;
		cc_error(cc, p->c->loc,
			 "probe %s:%s:%s:%s cannot run offline: a trace holds syscall, proc (exec, "
			 "exec-success, create, exit, signal-send) and sched events",
			 p->f[0], p->f[1], p->f[2], p->f[3]);
		return -1;
	}
	return 0;
}

int offline_run(struct lcc *cc)
{
	struct rt rt = {
		.cc = cc, .out = cc->o->out, .json = cc->o->json, .quiet = cc->o->quiet, .ncpus = 1
	};
	struct ovm *vm = calloc(1, sizeof(*vm));
	struct sonde_reader *r = NULL;
	const struct sonde_hdr *h;
	int fds[MAX_MAPS], ret = 1, n;
	char err[256];

	vm->cc = cc;
	vm->rt = &rt;
	g_vm = vm;
	vm->task_size = TASK_SIZE;
	for (int i = 0; i < NTASK; i++)
		vm->task[i] = calloc(1, TASK_SIZE);
	if (check_providers(cc))
		goto out_err;
	if (sonde_reader_open(&r, cc->o->offline, err, sizeof(err))) {
		fprintf(stderr, "sonde script: %s: %s\n", cc->o->offline, err);
		goto out;
	}
	for (int i = 0; i < cc->nmaps; i++) {
		struct lmap *m = &cc->maps[i];

		fds[i] = i + 1;
		vm->maps[i].m = m;
		if (is_array(m))
			vm->maps[i].vals = calloc(m->max_entries, m->val_size);
	}
	if (cc->rosize)
		memcpy(vm->maps[cc->m_rodata].vals, cc->ro, cc->rosize);
	if (cc->m_scnames >= 0)
		for (unsigned int nr = 0; nr < sonde_syscall_count() && nr < SONDE_NR_SYSCALLS;
		     nr++)
			if (sonde_syscall_name(nr))
				snprintf((char *)vm->maps[cc->m_scnames].vals + 32 * nr, 32, "%s",
					 sonde_syscall_name(nr));
	for (int pi = 0; pi < cc->nprogs; pi++)
		if (ir_lower(&cc->progs[pi].ir, fds, &cc->progs[pi].low, err, sizeof(err))) {
			fprintf(stderr, "sonde script: %s\n", err);
			goto out;
		}
	rt.agg_read = oagg_read;
	rt.agg_clear = oagg_clear;
	for (int i = 0; i < cc->nprogs; i++)
		if (cc->progs[i].prov == &prov_dtrace && !strcmp(cc->progs[i].attach, "BEGIN"))
			vm_run(vm, &cc->progs[i], vm->regs);
	while (!rt.done && (n = sonde_reader_next(r, &h)) != 0) {
		if (n < 0) {
			fprintf(stderr, "sonde script: %s: %s (skipped)\n", cc->o->offline,
				sonde_reader_error(r));
			continue;
		}
		on_record(vm, h);
	}
	rt.done = 0;
	for (int i = 0; i < cc->nprogs; i++)
		if (cc->progs[i].prov == &prov_dtrace && !strcmp(cc->progs[i].attach, "END"))
			vm_run(vm, &cc->progs[i], vm->regs);
	rt_print_aggs(&rt);
	if (rt.spec_drops)
		fprintf(stderr, "sonde script: %llu speculative records dropped\n",
			(unsigned long long)rt.spec_drops);
	ret = rt.exit_code;
	goto out;
out_err:
	fprintf(stderr, "sonde script: %s%s\n", cc->err[0] >= '0' && cc->err[0] <= '9' ? "" : "",
		cc->err);
out:
	if (r)
		sonde_reader_close(r);
	for (int i = 0; i < cc->nmaps; i++) {
		free(vm->maps[i].vals);
		while (vm->maps[i].head)
			map_delete(&vm->maps[i], vm->maps[i].head->key);
	}
	for (int i = 0; i < NTASK; i++)
		free(vm->task[i]);
	free(vm->comms);
	rt_free(&rt);
	free(vm);
	return ret;
}
