// SPDX-License-Identifier: GPL-2.0
/*
 * jperf stat --bpf-counters' follower: one per run and event, an fexit program on the leader's
 * on_switch (the attach target is set at load: the leader program's fd and "on_switch"). It adds
 * the leader's diff_readings (the map is the leader's, reused by fd) to this run's accum_readings
 * slot chosen by the filter: every CPU (slot 0), or the slot the filter map gives for this CPU,
 * thread or process.
 */
#include "vmlinux.h"
#include "jperf_bpf.h"
#include "bperf.h"

reading_map diff_readings SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(struct bpf_perf_event_value));
	__uint(max_entries, 1);
} accum_readings SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, 1);
} filter SEC(".maps");

/* the run's filter and switch, set from user space through the .bss map (its only variable) */
struct bperf_control control = {};

SEC("fexit/on_switch")
int fexit_on_switch(void *ctx)
{
	struct bpf_perf_event_value *diff, *accum;
	__u32 key, zero = 0, *slot = &zero;

	if (!control.enabled)
		return 0;
	switch (control.type) {
	case BPERF_FILTER_GLOBAL:
		break;
	case BPERF_FILTER_CPU:
		key = bpf_get_smp_processor_id();
		slot = bpf_map_lookup_elem(&filter, &key);
		break;
	case BPERF_FILTER_PID:
		key = (__u32)bpf_get_current_pid_tgid();
		slot = bpf_map_lookup_elem(&filter, &key);
		break;
	case BPERF_FILTER_TGID:
		key = bpf_get_current_pid_tgid() >> 32;
		slot = bpf_map_lookup_elem(&filter, &key);
		break;
	default:
		return 0;
	}
	if (!slot)
		return 0;
	diff = bpf_map_lookup_elem(&diff_readings, &zero);
	accum = bpf_map_lookup_elem(&accum_readings, slot);
	if (!diff || !accum)
		return 0;
	accum->counter += diff->counter;
	accum->enabled += diff->enabled;
	accum->running += diff->running;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
