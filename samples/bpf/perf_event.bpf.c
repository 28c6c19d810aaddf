// SPDX-License-Identifier: GPL-2.0
/*
 * A perf_event program: on every sample of the event it is attached to (a cpu-clock per CPU
 * under jperf record --bpf-object), counts samples per CPU and per process.
 */
#include "vmlinux.h"
#include "jperf_bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} samples_per_cpu SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u64);
} samples_per_tgid SEC(".maps");

SEC("perf_event")
int on_sample(struct bpf_perf_event_data *ctx)
{
	__u32 zero = 0, tgid = bpf_get_current_pid_tgid() >> 32;
	__u64 one = 1, *n;

	n = bpf_map_lookup_elem(&samples_per_cpu, &zero);
	if (n)
		(*n)++;
	n = bpf_map_lookup_elem(&samples_per_tgid, &tgid);
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(&samples_per_tgid, &tgid, &one, BPF_NOEXIST);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
