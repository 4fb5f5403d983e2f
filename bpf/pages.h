/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading user memory around pages that are not present (capture.bpf.h,
 * cap_chunk, for payloads with c->holes: a stack, ustack.h). The
 * non-faulting reads BPF may make fail whole when one page of the range
 * is not present; a stack has such pages: the part of a large local
 * buffer its function never touched, below frames that are all there.
 */
#ifndef SONDE_BPF_PAGES_H
#define SONDE_BPF_PAGES_H

static const __u8 cap_zero_page[4096];

/*
 * The n bytes at addr into dp at off, a page at a time, a page that is
 * not present as zeros. 0, or -1 when no page could be read.
 */
static __always_inline int cap_pages(struct bpf_dynptr *dp, __u32 off, __u32 n, __u64 addr)
{
	__u32 done = 0, k;
	int got = 0;

	for (int i = 0; i < SONDE_PL_CHUNK / 4096 + 1 && done < n; i++) {
		k = 4096 - ((addr + done) & 4095);
		if (k > n - done)
			k = n - done;
		if (bpf_probe_read_user_dynptr(dp, off + done, k, (void *)(addr + done)))
			bpf_dynptr_write(dp, off + done, (void *)cap_zero_page, k, 0);
		else
			got = 1;
		done += k;
	}
	return got ? 0 : -1;
}

#endif /* SONDE_BPF_PAGES_H */
