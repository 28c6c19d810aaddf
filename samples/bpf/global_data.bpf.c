// SPDX-License-Identifier: GPL-2.0
/*
 * Global data and subprograms: .rodata configuration a loader may change before load
 * (target_tgid, min_id), a .data counter with an initial value, .bss totals; a static subprogram
 * and a global one (verified on its own through its BTF func_info), called from raw_tp/sys_enter.
 */
#include "vmlinux.h"
#include "jperf_bpf.h"

const volatile __u32 target_tgid = 0;   /* 0: every process */
const volatile long min_id = 0;         /* count syscalls numbered at least this */

__u64 calls_seen = 1000;                /* .data: starts at 1000 to show the initial value */
__u64 calls_counted;                    /* .bss */
__u64 by_class[4];                      /* .bss: syscall ids bucketed by classify() */

static __noinline int classify(long id)
{
	if (id < 16)
		return 0;
	if (id < 64)
		return 1;
	if (id < 256)
		return 2;
	return 3;
}

__noinline int wanted(__u32 tgid, long id)
{
	if (target_tgid && tgid != target_tgid)
		return 0;
	return id >= min_id;
}

SEC("raw_tp/sys_enter")
int on_sys_enter(__u64 *ctx)
{
	long id = (long)ctx[1];
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	int c;

	__sync_fetch_and_add(&calls_seen, 1);
	if (!wanted(tgid, id))
		return 0;
	calls_counted++;
	c = classify(id);
	if (c >= 0 && c < 4)
		by_class[c]++;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
