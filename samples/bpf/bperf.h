/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What jperf's bperf leader and follower programs share (the layout perf's bperf uses, so a
 * leader pinned by either can be followed by the other): a one-slot per-CPU array of
 * struct bpf_perf_event_value, and the follower's filter kinds.
 */
#ifndef JPERF_BPERF_H
#define JPERF_BPERF_H

typedef struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(struct bpf_perf_event_value));
	__uint(max_entries, 1);
} reading_map;

enum bperf_filter_type {
	BPERF_FILTER_GLOBAL = 1,
	BPERF_FILTER_CPU,
	BPERF_FILTER_PID,
	BPERF_FILTER_TGID,
};

/* the follower's .bss: which filter applies, and whether it counts yet (off until the run starts) */
struct bperf_control {
	__u32 type;	/* enum bperf_filter_type */
	__u32 enabled;
};

static long (*bpf_perf_event_read_value)(void *map, __u64 flags, struct bpf_perf_event_value *buf,
					 __u32 buf_size) = (void *)55;

#endif
