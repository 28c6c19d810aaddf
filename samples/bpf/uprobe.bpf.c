// SPDX-License-Identifier: GPL-2.0
/*
 * A uprobe and a uretprobe on spin_step() of the samples workload jperf-sample-spin (found on
 * PATH, as libbpf resolves a binary named without a '/'): counts calls and sums the results.
 */
#include "vmlinux.h"
#include "jperf_bpf.h"

__u64 calls;
__u64 returned_sum;

SEC("uprobe/jperf-sample-spin:spin_step")
int on_step(struct pt_regs *ctx)
{
	__sync_fetch_and_add(&calls, 1);
	return 0;
}

SEC("uretprobe/jperf-sample-spin:spin_step")
int on_step_return(struct pt_regs *ctx)
{
	__sync_fetch_and_add(&returned_sum, ctx->ax);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
