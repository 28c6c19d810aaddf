// SPDX-License-Identifier: GPL-2.0
/*
 * jperf stat -b's profiler (perf's bpf_prog_profiler): one per target program and event, an
 * fentry and an fexit program on the target's main function (the attach target is set at load:
 * the target program's fd and its function's BTF name, "XXX" is a placeholder). fentry reads the
 * event on this CPU (the perf event in `events` at this CPU's index) into fentry_readings; fexit
 * reads it again and adds what it grew by during the run to accum_readings, so only the target's
 * own runs are counted.
 */
#include "vmlinux.h"
#include "jperf_bpf.h"
#include "bperf.h"

/* max_entries: the number of possible CPUs, set before load */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(int));
} events SEC(".maps");

reading_map fentry_readings SEC(".maps");
reading_map accum_readings SEC(".maps");

SEC("fentry/XXX")
int fentry_XXX(void *ctx)
{
	struct bpf_perf_event_value *before;
	__u32 zero = 0;

	/* looked up before reading, so that the lookup is not counted */
	before = bpf_map_lookup_elem(&fentry_readings, &zero);
	if (!before)
		return 0;
	bpf_perf_event_read_value(&events, bpf_get_smp_processor_id(), before, sizeof(*before));
	return 0;
}

SEC("fexit/XXX")
int fexit_XXX(void *ctx)
{
	struct bpf_perf_event_value after, *before, *accum;
	__u32 zero = 0;

	/* read first, so that the map updates are not counted */
	if (bpf_perf_event_read_value(&events, bpf_get_smp_processor_id(), &after, sizeof(after)))
		return 0;
	before = bpf_map_lookup_elem(&fentry_readings, &zero);
	/* only a run whose fentry reading succeeded is accounted */
	if (!before || !before->counter)
		return 0;
	accum = bpf_map_lookup_elem(&accum_readings, &zero);
	if (!accum)
		return 0;
	accum->counter += after.counter - before->counter;
	accum->enabled += after.enabled - before->enabled;
	accum->running += after.running - before->running;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
