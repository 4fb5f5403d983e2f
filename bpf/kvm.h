/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ioctls of KVM (bpf/ioctl.h dispatches them here by request type). For a
 * request of type KVMIO:
 *
 *   KVM_RUN, at exit        the vcpu's exit reason, read in the kernel:
 *                           task->files->fdt->fd[fd] -> struct file
 *                           (dentry "kvm-vcpu:N") -> private_data =
 *                           struct kvm_vcpu -> run = struct kvm_run
 *                           -> exit_reason (strace reads the same field
 *                           from the tracee's mapping of that struct)
 *   KVM_CREATE_VM/VCPU      at exit, what the new descriptor is (fdinfo.h)
 *   the cpuid2 requests     the struct and its nent entries, in the
 *                           direction each goes
 *   any other               the struct the request's size field gives, at
 *                           entry if it is written to the kernel, at exit
 *                           if read back; sizes up to 36 the plan's first
 *                           ioctl item already reads
 *
 * The request numbers are spelled out in payload.h (vmlinux.h does not
 * carry macros); src/decode/strace/dec_ioctl_kvm.c checks them against
 * <linux/kvm.h> at compile time.
 */
#ifndef SONDE_BPF_KVM_H
#define SONDE_BPF_KVM_H

/* The struct at addr a request's _IOC_SIZE names, at entry if it goes to
 * the kernel (_IOC_WRITE), at exit if it comes back (_IOC_READ); sizes up
 * to 36 the plan's first ioctl item already reads. */
static __always_inline void cap_ioc_size(struct cap_call *c, __u32 arg, __u32 req, __u64 addr)
{
	__u32 size = (req >> 16) & 0x3fff, dir = req >> 30;

	if (size > IOC_SMALL && (dir & (c->phase ? 2 : 1)))
		cap_len(c, arg, addr, size, size, size);
}

struct kvm_rec {
	struct sonde_ev_payload p;
	struct sonde_kvm_exit k;
};

/* Is f a vcpu? Its anonymous inode's dentry is "kvm-vcpu:ID". */
static __always_inline int kvm_is_vcpu(struct file *f)
{
	static const char want[] = "kvm-vcpu:";
	const unsigned char *dn = BPF_CORE_READ(f, f_path.dentry, d_name.name);
	char name[sizeof(want) - 1];

	if (!dn || bpf_probe_read_kernel(name, sizeof(name), dn))
		return 0;
	for (int i = 0; i < (int)sizeof(name); i++)
		if (name[i] != want[i])
			return 0;
	return 1;
}

static __always_inline void kvm_exit_reason(struct cap_call *c, __u32 arg)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct kvm_vcpu *v;
	struct kvm_rec *r;
	struct file *f;
	struct emit em;
	__u32 reason;

	/* A kernel built without KVM has no struct kvm_vcpu: then this is
	 * false at load and the verifier drops the reads below. */
	if (!bpf_core_type_exists(struct kvm_vcpu))
		return;
	f = fd_file(t, (int)cap_arg(c, 0));
	if (!f || !kvm_is_vcpu(f))
		return;
	v = (struct kvm_vcpu *)BPF_CORE_READ(f, private_data);
	reason = BPF_CORE_READ(v, run, exit_reason);
	if (emit_begin(&em, c->ts))
		return;
	r = emit_reserve(&em, sizeof(*r), c->ts);
	if (!r)
		return;
	facts_hdr(&r->p, c, arg, SONDE_PLR_PHASE_KVM, sizeof(r->k), em.cpu);
	r->k.exit_reason = reason;
	r->k._pad = 0;
	emit_submit(&em, r);
}

static __always_inline void cap_kvm(struct cap_call *c, __u32 arg, __u32 req, __u64 addr)
{
	__u32 size, nent = 0;

	switch (req) {
	case SONDE_KVM_RUN:
		if (c->phase)
			kvm_exit_reason(c, arg);
		return;
	case SONDE_KVM_CREATE_VM:
	case SONDE_KVM_CREATE_VCPU:
		if (c->phase)
			cap_fdinfo(c, arg, 0);
		return;
	case SONDE_KVM_SET_CPUID2:
	case SONDE_KVM_GET_SUPPORTED_CPUID:
	case SONDE_KVM_GET_EMULATED_CPUID:
		if (!c->phase != (req == SONDE_KVM_SET_CPUID2))
			return;
		bpf_probe_read_user(&nent, sizeof(nent), (void *)addr);
		if (nent > SONDE_KVM_CPUID_MAX)
			nent = SONDE_KVM_CPUID_MAX;
		size = 8 + nent * SONDE_KVM_CPUID_ENTRY;
		cap_len(c, arg, addr, size, size, size);
		return;
	}
	cap_ioc_size(c, arg, req, addr);
}

#endif /* SONDE_BPF_KVM_H */
