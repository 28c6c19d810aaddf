// SPDX-License-Identifier: GPL-2.0
/*
 * jperf stat --bpf-counters' leader: one per event attr, shared by every concurrent run. On each
 * context switch it reads the event's counter on this CPU (the perf event in `events` at this
 * CPU's slot) and leaves in diff_readings what it grew by since the previous switch here; the
 * followers (fexit on on_switch) add that difference to their own totals.
 */
#include "vmlinux.h"
#include "jperf_bpf.h"
#include "bperf.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(int));
	/* the perf events stay in the map after the fds that put them there are closed */
	__uint(map_flags, BPF_F_PRESERVE_ELEMS);
} events SEC(".maps");

reading_map prev_readings SEC(".maps");
reading_map diff_readings SEC(".maps");

SEC("raw_tp/sched_switch")
int on_switch(void *ctx)
{
	struct bpf_perf_event_value now, *prev, *diff;
	__u32 zero = 0;

	prev = bpf_map_lookup_elem(&prev_readings, &zero);
	diff = bpf_map_lookup_elem(&diff_readings, &zero);
	if (!prev || !diff)
		return 0;
	if (bpf_perf_event_read_value(&events, bpf_get_smp_processor_id(), &now, sizeof(now)))
		return 0;
	diff->counter = now.counter - prev->counter;
	diff->enabled = now.enabled - prev->enabled;
	diff->running = now.running - prev->running;
	*prev = now;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
