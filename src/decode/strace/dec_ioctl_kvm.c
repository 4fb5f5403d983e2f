// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl requests of /dev/kvm, its VMs and vcpus (type KVMIO, 0xae), as
 * strace 6.1 decodes them on x86-64: the capability KVM_CHECK_EXTENSION
 * asks about, the guest memory slot, the register sets (abridged without
 * -v: rax, rsp, rbp, rip, rflags; cs), the cpuid tables, the descriptors
 * KVM_CREATE_VM and KVM_CREATE_VCPU return, and with -e kvm=vcpu the
 * reason KVM_RUN returned (" = 0 (KVM_EXIT_HLT)"). The recorder captures
 * the structs by the size and direction each request encodes, and reads
 * the exit reason through the vcpu in the kernel (bpf/kvm.h). Every
 * struct here is made of fixed-width fields: an i386 caller's are the
 * same.
 */
#include <linux/kvm.h>
#include <string.h>

#include <sonde/events.h>
#include <sonde/payload.h>

#include "decode/strace/strace_int.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The recorder's kernel side knows these by number (payload.h). */
_Static_assert(SONDE_KVMIO == KVMIO && SONDE_KVM_CREATE_VM == KVM_CREATE_VM &&
		       SONDE_KVM_CREATE_VCPU == KVM_CREATE_VCPU && SONDE_KVM_RUN == KVM_RUN &&
		       SONDE_KVM_GET_SUPPORTED_CPUID == KVM_GET_SUPPORTED_CPUID &&
		       SONDE_KVM_GET_EMULATED_CPUID == KVM_GET_EMULATED_CPUID &&
		       SONDE_KVM_SET_CPUID2 == KVM_SET_CPUID2 &&
		       SONDE_KVM_CPUID_ENTRY == sizeof(struct kvm_cpuid_entry2),
	       "bpf/kvm.h's KVM request numbers");

/* What KVM_CHECK_EXTENSION asks about, by value, as <linux/kvm.h> lists them. */
/* clang-format off */
static const struct xlat_ent kvm_cap_e[] = {
	 XE(KVM_CAP_IRQCHIP), XE(KVM_CAP_HLT), XE(KVM_CAP_MMU_SHADOW_CACHE_CONTROL),
	 XE(KVM_CAP_USER_MEMORY), XE(KVM_CAP_SET_TSS_ADDR), XE(KVM_CAP_VAPIC),
	 XE(KVM_CAP_EXT_CPUID), XE(KVM_CAP_CLOCKSOURCE), XE(KVM_CAP_NR_VCPUS),
	 XE(KVM_CAP_NR_MEMSLOTS), XE(KVM_CAP_PIT), XE(KVM_CAP_NOP_IO_DELAY),
	 XE(KVM_CAP_PV_MMU), XE(KVM_CAP_MP_STATE), XE(KVM_CAP_COALESCED_MMIO),
	 XE(KVM_CAP_SYNC_MMU), XE(KVM_CAP_IOMMU), XE(KVM_CAP_DESTROY_MEMORY_REGION_WORKS),
	 XE(KVM_CAP_USER_NMI), XE(KVM_CAP_SET_GUEST_DEBUG), XE(KVM_CAP_REINJECT_CONTROL),
	 XE(KVM_CAP_IRQ_ROUTING), XE(KVM_CAP_IRQ_INJECT_STATUS), XE(KVM_CAP_ASSIGN_DEV_IRQ),
	 XE(KVM_CAP_JOIN_MEMORY_REGIONS_WORKS), XE(KVM_CAP_MCE), XE(KVM_CAP_IRQFD),
	 XE(KVM_CAP_PIT2), XE(KVM_CAP_SET_BOOT_CPU_ID), XE(KVM_CAP_PIT_STATE2),
	 XE(KVM_CAP_IOEVENTFD), XE(KVM_CAP_SET_IDENTITY_MAP_ADDR), XE(KVM_CAP_XEN_HVM),
	 XE(KVM_CAP_ADJUST_CLOCK), XE(KVM_CAP_INTERNAL_ERROR_DATA), XE(KVM_CAP_VCPU_EVENTS),
	 XE(KVM_CAP_S390_PSW), XE(KVM_CAP_PPC_SEGSTATE), XE(KVM_CAP_HYPERV),
	 XE(KVM_CAP_HYPERV_VAPIC), XE(KVM_CAP_HYPERV_SPIN), XE(KVM_CAP_PCI_SEGMENT),
	 XE(KVM_CAP_PPC_PAIRED_SINGLES), XE(KVM_CAP_INTR_SHADOW), XE(KVM_CAP_DEBUGREGS),
	 XE(KVM_CAP_X86_ROBUST_SINGLESTEP), XE(KVM_CAP_PPC_OSI), XE(KVM_CAP_PPC_UNSET_IRQ),
	 XE(KVM_CAP_ENABLE_CAP), XE(KVM_CAP_XSAVE), XE(KVM_CAP_XCRS),
	 XE(KVM_CAP_PPC_GET_PVINFO), XE(KVM_CAP_PPC_IRQ_LEVEL), XE(KVM_CAP_ASYNC_PF),
	 XE(KVM_CAP_TSC_CONTROL), XE(KVM_CAP_GET_TSC_KHZ), XE(KVM_CAP_PPC_BOOKE_SREGS),
	 XE(KVM_CAP_SPAPR_TCE), XE(KVM_CAP_PPC_SMT), XE(KVM_CAP_PPC_RMA),
	 XE(KVM_CAP_MAX_VCPUS), XE(KVM_CAP_PPC_HIOR), XE(KVM_CAP_PPC_PAPR),
	 XE(KVM_CAP_SW_TLB), XE(KVM_CAP_ONE_REG), XE(KVM_CAP_S390_GMAP),
	 XE(KVM_CAP_TSC_DEADLINE_TIMER), XE(KVM_CAP_S390_UCONTROL), XE(KVM_CAP_SYNC_REGS),
	 XE(KVM_CAP_PCI_2_3), XE(KVM_CAP_KVMCLOCK_CTRL), XE(KVM_CAP_SIGNAL_MSI),
	 XE(KVM_CAP_PPC_GET_SMMU_INFO), XE(KVM_CAP_S390_COW), XE(KVM_CAP_PPC_ALLOC_HTAB),
	 XE(KVM_CAP_READONLY_MEM), XE(KVM_CAP_IRQFD_RESAMPLE), XE(KVM_CAP_PPC_BOOKE_WATCHDOG),
	 XE(KVM_CAP_PPC_HTAB_FD), XE(KVM_CAP_S390_CSS_SUPPORT), XE(KVM_CAP_PPC_EPR),
	 XE(KVM_CAP_ARM_PSCI), XE(KVM_CAP_ARM_SET_DEVICE_ADDR), XE(KVM_CAP_DEVICE_CTRL),
	 XE(KVM_CAP_IRQ_MPIC), XE(KVM_CAP_PPC_RTAS), XE(KVM_CAP_IRQ_XICS),
	 XE(KVM_CAP_ARM_EL1_32BIT), XE(KVM_CAP_SPAPR_MULTITCE), XE(KVM_CAP_EXT_EMUL_CPUID),
	 XE(KVM_CAP_HYPERV_TIME), XE(KVM_CAP_IOAPIC_POLARITY_IGNORED),
	 XE(KVM_CAP_ENABLE_CAP_VM), XE(KVM_CAP_S390_IRQCHIP), XE(KVM_CAP_IOEVENTFD_NO_LENGTH),
	 XE(KVM_CAP_VM_ATTRIBUTES), XE(KVM_CAP_ARM_PSCI_0_2), XE(KVM_CAP_PPC_FIXUP_HCALL),
	 XE(KVM_CAP_PPC_ENABLE_HCALL), XE(KVM_CAP_CHECK_EXTENSION_VM),
	 XE(KVM_CAP_S390_USER_SIGP), XE(KVM_CAP_S390_VECTOR_REGISTERS),
	 XE(KVM_CAP_S390_MEM_OP), XE(KVM_CAP_S390_USER_STSI), XE(KVM_CAP_S390_SKEYS),
	 XE(KVM_CAP_MIPS_FPU), XE(KVM_CAP_MIPS_MSA), XE(KVM_CAP_S390_INJECT_IRQ),
	 XE(KVM_CAP_S390_IRQ_STATE), XE(KVM_CAP_PPC_HWRNG), XE(KVM_CAP_DISABLE_QUIRKS),
	 XE(KVM_CAP_X86_SMM), XE(KVM_CAP_MULTI_ADDRESS_SPACE), XE(KVM_CAP_GUEST_DEBUG_HW_BPS),
	 XE(KVM_CAP_GUEST_DEBUG_HW_WPS), XE(KVM_CAP_SPLIT_IRQCHIP),
	 XE(KVM_CAP_IOEVENTFD_ANY_LENGTH), XE(KVM_CAP_HYPERV_SYNIC), XE(KVM_CAP_S390_RI),
	 XE(KVM_CAP_SPAPR_TCE_64), XE(KVM_CAP_ARM_PMU_V3), XE(KVM_CAP_VCPU_ATTRIBUTES),
	 XE(KVM_CAP_MAX_VCPU_ID), XE(KVM_CAP_X2APIC_API), XE(KVM_CAP_S390_USER_INSTR0),
	 XE(KVM_CAP_MSI_DEVID), XE(KVM_CAP_PPC_HTM), XE(KVM_CAP_SPAPR_RESIZE_HPT),
	 XE(KVM_CAP_PPC_MMU_RADIX), XE(KVM_CAP_PPC_MMU_HASH_V3), XE(KVM_CAP_IMMEDIATE_EXIT),
	 XE(KVM_CAP_MIPS_VZ), XE(KVM_CAP_MIPS_TE), XE(KVM_CAP_MIPS_64BIT),
	 XE(KVM_CAP_S390_GS), XE(KVM_CAP_S390_AIS), XE(KVM_CAP_SPAPR_TCE_VFIO),
	 XE(KVM_CAP_X86_DISABLE_EXITS), XE(KVM_CAP_ARM_USER_IRQ),
	 XE(KVM_CAP_S390_CMMA_MIGRATION), XE(KVM_CAP_PPC_FWNMI), XE(KVM_CAP_PPC_SMT_POSSIBLE),
	 XE(KVM_CAP_HYPERV_SYNIC2), XE(KVM_CAP_HYPERV_VP_INDEX),
	 XE(KVM_CAP_S390_AIS_MIGRATION), XE(KVM_CAP_PPC_GET_CPU_CHAR), XE(KVM_CAP_S390_BPB),
	 XE(KVM_CAP_GET_MSR_FEATURES), XE(KVM_CAP_HYPERV_EVENTFD),
	 XE(KVM_CAP_HYPERV_TLBFLUSH), XE(KVM_CAP_S390_HPAGE_1M), XE(KVM_CAP_NESTED_STATE),
	 XE(KVM_CAP_ARM_INJECT_SERROR_ESR), XE(KVM_CAP_MSR_PLATFORM_INFO),
	 XE(KVM_CAP_PPC_NESTED_HV), XE(KVM_CAP_HYPERV_SEND_IPI), XE(KVM_CAP_COALESCED_PIO),
	 XE(KVM_CAP_HYPERV_ENLIGHTENED_VMCS), XE(KVM_CAP_EXCEPTION_PAYLOAD),
	 XE(KVM_CAP_ARM_VM_IPA_SIZE), XE(KVM_CAP_MANUAL_DIRTY_LOG_PROTECT),
	 XE(KVM_CAP_HYPERV_CPUID), XE(KVM_CAP_MANUAL_DIRTY_LOG_PROTECT2),
	 XE(KVM_CAP_PPC_IRQ_XIVE), XE(KVM_CAP_ARM_SVE), XE(KVM_CAP_ARM_PTRAUTH_ADDRESS),
	 XE(KVM_CAP_ARM_PTRAUTH_GENERIC), XE(KVM_CAP_PMU_EVENT_FILTER),
	 XE(KVM_CAP_ARM_IRQ_LINE_LAYOUT_2), XE(KVM_CAP_HYPERV_DIRECT_TLBFLUSH),
	 XE(KVM_CAP_PPC_GUEST_DEBUG_SSTEP), XE(KVM_CAP_ARM_NISV_TO_USER),
	 XE(KVM_CAP_ARM_INJECT_EXT_DABT), XE(KVM_CAP_S390_VCPU_RESETS),
	 XE(KVM_CAP_S390_PROTECTED), XE(KVM_CAP_PPC_SECURE_GUEST), XE(KVM_CAP_HALT_POLL),
	 XE(KVM_CAP_ASYNC_PF_INT), XE(KVM_CAP_LAST_CPU), XE(KVM_CAP_SMALLER_MAXPHYADDR),
	 XE(KVM_CAP_S390_DIAG318), XE(KVM_CAP_STEAL_TIME), XE(KVM_CAP_X86_USER_SPACE_MSR),
	 XE(KVM_CAP_X86_MSR_FILTER), XE(KVM_CAP_ENFORCE_PV_FEATURE_CPUID),
	 XE(KVM_CAP_SYS_HYPERV_CPUID), XE(KVM_CAP_DIRTY_LOG_RING),
	 XE(KVM_CAP_X86_BUS_LOCK_EXIT), XE(KVM_CAP_PPC_DAWR1), XE(KVM_CAP_SET_GUEST_DEBUG2),
	 XE(KVM_CAP_SGX_ATTRIBUTE), XE(KVM_CAP_VM_COPY_ENC_CONTEXT_FROM), XE(KVM_CAP_PTP_KVM),
	 XE(KVM_CAP_HYPERV_ENFORCE_CPUID), XE(KVM_CAP_SREGS2), XE(KVM_CAP_EXIT_HYPERCALL),
	 XE(KVM_CAP_PPC_RPT_INVALIDATE), XE(KVM_CAP_BINARY_STATS_FD),
	 XE(KVM_CAP_EXIT_ON_EMULATION_FAILURE), XE(KVM_CAP_ARM_MTE),
	 XE(KVM_CAP_VM_MOVE_ENC_CONTEXT_FROM), XE(KVM_CAP_VM_GPA_BITS), XE(KVM_CAP_XSAVE2),
	 XE(KVM_CAP_SYS_ATTRIBUTES), XE(KVM_CAP_PPC_AIL_MODE_3),
	 XE(KVM_CAP_S390_MEM_OP_EXTENSION), XE(KVM_CAP_PMU_CAPABILITY),
	 XE(KVM_CAP_DISABLE_QUIRKS2), XE(KVM_CAP_VM_TSC_CONTROL),
	 XE(KVM_CAP_SYSTEM_EVENT_DATA), XE(KVM_CAP_ARM_SYSTEM_SUSPEND),
	 XE(KVM_CAP_S390_PROTECTED_DUMP), XE(KVM_CAP_X86_TRIPLE_FAULT_EVENT),
	 XE(KVM_CAP_X86_NOTIFY_VMEXIT), XE(KVM_CAP_VM_DISABLE_NX_HUGE_PAGES),
	 XE(KVM_CAP_S390_ZPCI_OP), XE(KVM_CAP_S390_CPU_TOPOLOGY),
	 XE(KVM_CAP_DIRTY_LOG_RING_ACQ_REL),
};
/* clang-format on */
static const struct xlat x_kvm_cap = { kvm_cap_e, N(kvm_cap_e), 0 };

/* struct kvm_run's exit_reason (KVM_RUN's result with -e kvm=vcpu). */
static const struct xlat_ent kvm_exit_e[] = {
	XE(KVM_EXIT_UNKNOWN),
	XE(KVM_EXIT_EXCEPTION),
	XE(KVM_EXIT_IO),
	XE(KVM_EXIT_HYPERCALL),
	XE(KVM_EXIT_DEBUG),
	XE(KVM_EXIT_HLT),
	XE(KVM_EXIT_MMIO),
	XE(KVM_EXIT_IRQ_WINDOW_OPEN),
	XE(KVM_EXIT_SHUTDOWN),
	XE(KVM_EXIT_FAIL_ENTRY),
	XE(KVM_EXIT_INTR),
	XE(KVM_EXIT_SET_TPR),
	XE(KVM_EXIT_TPR_ACCESS),
	XE(KVM_EXIT_S390_SIEIC),
	XE(KVM_EXIT_S390_RESET),
	XE(KVM_EXIT_DCR),
	XE(KVM_EXIT_NMI),
	XE(KVM_EXIT_INTERNAL_ERROR),
	XE(KVM_EXIT_OSI),
	XE(KVM_EXIT_PAPR_HCALL),
	XE(KVM_EXIT_S390_UCONTROL),
	XE(KVM_EXIT_WATCHDOG),
	XE(KVM_EXIT_S390_TSCH),
	XE(KVM_EXIT_EPR),
	XE(KVM_EXIT_SYSTEM_EVENT),
	XE(KVM_EXIT_S390_STSI),
	XE(KVM_EXIT_IOAPIC_EOI),
	XE(KVM_EXIT_HYPERV),
	XE(KVM_EXIT_ARM_NISV),
	XE(KVM_EXIT_X86_RDMSR),
	XE(KVM_EXIT_X86_WRMSR),
	XE(KVM_EXIT_DIRTY_RING_FULL),
	XE(KVM_EXIT_AP_RESET_HOLD),
	XE(KVM_EXIT_X86_BUS_LOCK),
	XE(KVM_EXIT_XEN),
	XE(KVM_EXIT_RISCV_SBI),
	XE(KVM_EXIT_RISCV_CSR),
	XE(KVM_EXIT_NOTIFY),
};
static const struct xlat x_kvm_exit = { kvm_exit_e, N(kvm_exit_e), 0 };

static const struct xlat_ent kvm_mem_e[] = {
	XE(KVM_MEM_LOG_DIRTY_PAGES),
	XE(KVM_MEM_READONLY),
};
static const struct xlat x_kvm_mem = { kvm_mem_e, N(kvm_mem_e), 0 };

/* KVM_CPUID_FLAG_SIGNIFCANT_INDEX: the kernel header's spelling. */
static const struct xlat_ent kvm_cpuid_e[] = {
	XE(KVM_CPUID_FLAG_SIGNIFCANT_INDEX),
	XE(KVM_CPUID_FLAG_STATEFUL_FUNC),
	XE(KVM_CPUID_FLAG_STATE_READ_NEXT),
};
static const struct xlat x_kvm_cpuid = { kvm_cpuid_e, N(kvm_cpuid_e), 0 };

/* Text only: the members strace leaves out without -v (JSON has all). */
static void kvm_cut(struct st *s)
{
	if (!s->j) {
		st_elem(s);
		sb_puts(s->o, "...");
	}
}

static void pr_mem_region(struct st *s, uint64_t a)
{
	struct kvm_userspace_memory_region r;

	if (!st_fetch(s, SONDE_PL_ENTRY, a, &r, sizeof(r)))
		return;
	st_obj_begin(s);
	pr_ulong_field(s, "slot", r.slot);
	st_field(s, "flags");
	pr_flags(s, &x_kvm_mem, r.flags, "KVM_MEM_???");
	pr_hex_field(s, "guest_phys_addr", r.guest_phys_addr);
	pr_ulong_field(s, "memory_size", r.memory_size);
	pr_hex_field(s, "userspace_addr", r.userspace_addr);
	st_obj_end(s);
}

static void pr_regs(struct st *s, int phase, uint64_t a)
{
	static const char *const names[] = { "rax", "rbx", "rcx", "rdx", "rsi", "rdi",
					     "rsp", "rbp", "r8",  "r9",	 "r10", "r11",
					     "r12", "r13", "r14", "r15", "rip", "rflags" };
	struct kvm_regs r;
	const uint64_t *v = (const uint64_t *)&r;
	int full = s->j || s->opt->verbose;

	if (!st_fetch(s, phase, a, &r, sizeof(r)))
		return;
	st_obj_begin(s);
	for (size_t i = 0; i < N(names); i++) {
		/* abridged: rax, then rsp and rbp, then rip and rflags */
		if (!full && ((i >= 1 && i <= 5) || (i >= 8 && i <= 15))) {
			if (i == 1 || i == 8)
				kvm_cut(s);
			continue;
		}
		pr_hex_field(s, names[i], v[i]);
	}
	st_obj_end(s);
}

static void pr_segment(struct st *s, const char *name, const struct kvm_segment *g)
{
	st_field(s, name);
	st_obj_begin(s);
	pr_hex_field(s, "base", g->base);
	pr_ulong_field(s, "limit", g->limit);
	pr_ulong_field(s, "selector", g->selector);
	pr_ulong_field(s, "type", g->type);
	pr_ulong_field(s, "present", g->present);
	pr_ulong_field(s, "dpl", g->dpl);
	pr_ulong_field(s, "db", g->db);
	pr_ulong_field(s, "s", g->s);
	pr_ulong_field(s, "l", g->l);
	pr_ulong_field(s, "g", g->g);
	pr_ulong_field(s, "avl", g->avl);
	st_obj_end(s);
}

static void pr_dtable(struct st *s, const char *name, const struct kvm_dtable *d)
{
	st_field(s, name);
	st_obj_begin(s);
	pr_hex_field(s, "base", d->base);
	pr_ulong_field(s, "limit", d->limit);
	st_obj_end(s);
}

static void pr_sregs(struct st *s, int phase, uint64_t a)
{
	static const char *const segn[] = { "ds", "es", "fs", "gs", "ss", "tr", "ldt" };
	struct kvm_sregs r;
	const struct kvm_segment *const seg[] = {
		&r.ds, &r.es, &r.fs, &r.gs, &r.ss, &r.tr, &r.ldt
	};

	if (!st_fetch(s, phase, a, &r, sizeof(r)))
		return;
	st_obj_begin(s);
	pr_segment(s, "cs", &r.cs);
	if (!s->j && !s->opt->verbose) {
		st_obj_end_cut(s);
		return;
	}
	for (size_t i = 0; i < N(seg); i++)
		pr_segment(s, segn[i], seg[i]);
	pr_dtable(s, "gdt", &r.gdt);
	pr_dtable(s, "idt", &r.idt);
	pr_ulong_field(s, "cr0", r.cr0);
	pr_ulong_field(s, "cr2", r.cr2);
	pr_ulong_field(s, "cr3", r.cr3);
	pr_ulong_field(s, "cr4", r.cr4);
	pr_ulong_field(s, "cr8", r.cr8);
	pr_ulong_field(s, "efer", r.efer);
	pr_hex_field(s, "apic_base", r.apic_base);
	st_field(s, "interrupt_bitmap");
	st_arr_begin(s);
	for (size_t i = 0; i < N(r.interrupt_bitmap); i++) {
		st_elem(s);
		pr_hex(s, r.interrupt_bitmap[i]);
	}
	st_arr_end(s);
	st_obj_end(s);
}

static void pr_cpuid_entry(struct st *s, const void *p)
{
	struct kvm_cpuid_entry2 e;

	memcpy(&e, p, sizeof(e));
	st_obj_begin(s);
	pr_hex_field(s, "function", e.function);
	pr_hex_field(s, "index", e.index);
	st_field(s, "flags");
	pr_flags(s, &x_kvm_cpuid, e.flags, "KVM_CPUID_FLAG_???");
	pr_hex_field(s, "eax", e.eax);
	pr_hex_field(s, "ebx", e.ebx);
	pr_hex_field(s, "ecx", e.ecx);
	pr_hex_field(s, "edx", e.edx);
	st_obj_end(s);
}

/* {nent=N, entries=[...]}: the entries themselves only with -v. */
static void pr_cpuid2(struct st *s, int phase, uint64_t a)
{
	struct kvm_cpuid2 c;

	if (!st_fetch(s, phase, a, &c, sizeof(c)))
		return;
	st_obj_begin(s);
	pr_ulong_field(s, "nent", c.nent);
	st_field(s, "entries");
	if (!s->j && !s->opt->verbose) {
		sb_puts(s->o, c.nent ? "[...]" : "[]");
	} else {
		pr_mem_array_of(s, phase, a + sizeof(c), c.nent, sizeof(struct kvm_cpuid_entry2),
				pr_cpuid_entry);
	}
	st_obj_end(s);
}

/* A struct the call fills: its address when it failed. */
static void pr_out(struct st *s, uint64_t a, void (*pr)(struct st *, int, uint64_t))
{
	st_entry_end(s);
	if (st_ok(s))
		pr(s, SONDE_PL_EXIT, a);
	else
		pr_addr(s, a);
}

/* -e kvm=vcpu: " (KVM_EXIT_IO)" after KVM_RUN's 0 (JSON: always). */
static void rv_exit_reason(struct st *s)
{
	struct sonde_kvm_exit k;
	const char *n;

	if (!st_ok(s) || (!s->j && !s->opt->kvm_vcpu))
		return;
	for (unsigned int i = 0; i < s->c->npl; i++) {
		const struct sonde_payload *p = &s->c->pl[i];

		if (p->phase != SONDE_PL_KVM || p->captured < sizeof(k) ||
		    (p->flags & SONDE_PLF_UNREADABLE))
			continue;
		memcpy(&k, p->data, sizeof(k));
		n = xlat_name(&x_kvm_exit, k.exit_reason);
		st_res_name(s, "exit_reason", n ? n : "KVM_EXIT_???");
		return;
	}
}

int ioctl_kvm(struct st *s, uint32_t req, uint64_t a)
{
	switch (req) {
	case KVM_CREATE_VM:
		s->rkind = R_FD;
		return 0;
	case KVM_CREATE_VCPU:
		s->rkind = R_FD;
		st_sep(s);
		pr_uint(s, (uint32_t)a);
		return 1;
	case KVM_CHECK_EXTENSION:
		st_sep(s);
		pr_xval(s, &x_kvm_cap, a, "KVM_CAP_???");
		return 1;
	case KVM_SET_USER_MEMORY_REGION:
		st_sep(s);
		pr_mem_region(s, a);
		return 1;
	case KVM_SET_REGS:
		st_sep(s);
		pr_regs(s, SONDE_PL_ENTRY, a);
		return 1;
	case KVM_GET_REGS:
		st_sep(s);
		pr_out(s, a, pr_regs);
		return 1;
	case KVM_SET_SREGS:
		st_sep(s);
		pr_sregs(s, SONDE_PL_ENTRY, a);
		return 1;
	case KVM_GET_SREGS:
		st_sep(s);
		pr_out(s, a, pr_sregs);
		return 1;
	case KVM_SET_CPUID2:
		st_sep(s);
		pr_cpuid2(s, SONDE_PL_ENTRY, a);
		return 1;
	case KVM_GET_SUPPORTED_CPUID:
	case KVM_GET_EMULATED_CPUID:
		st_sep(s);
		pr_out(s, a, pr_cpuid2);
		return 1;
	case KVM_RUN:
		rv_exit_reason(s);
		return 0;
	}
	return 0;
}
