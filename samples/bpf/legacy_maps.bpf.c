// SPDX-License-Identifier: GPL-2.0
/*
 * A legacy map (struct bpf_map_def in the "maps" section, as perf's bpf_map() macro and libbpf
 * before 1.0 wrote them) whose key and value BTF come from a ____btf_map_<name> marker struct,
 * counting sys_enter_openat calls per process.
 */
#include "vmlinux.h"
#include "jperf_bpf.h"

struct bpf_map_def {
	unsigned int type;
	unsigned int key_size;
	unsigned int value_size;
	unsigned int max_entries;
	unsigned int map_flags;
};

struct opens {
	__u64 count;
	__u64 last_ns;
};

struct bpf_map_def SEC("maps") opens_by_pid = {
	.type = BPF_MAP_TYPE_HASH,
	.key_size = sizeof(__u32),
	.value_size = sizeof(struct opens),
	.max_entries = 1024,
};

/* perf's BPF_ANNOTATE_KV_PAIR(opens_by_pid, __u32, struct opens) */
struct ____btf_map_opens_by_pid {
	__u32 key;
	struct opens value;
};
struct ____btf_map_opens_by_pid __attribute__((section(".maps." "opens_by_pid"), used)) ____btf_map_opens_by_pid = {};

SEC("tracepoint/syscalls/sys_enter_openat")
int count_openat(void *ctx)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	struct opens zero = {}, *o;

	o = bpf_map_lookup_elem(&opens_by_pid, &pid);
	if (!o) {
		bpf_map_update_elem(&opens_by_pid, &pid, &zero, BPF_NOEXIST);
		o = bpf_map_lookup_elem(&opens_by_pid, &pid);
		if (!o)
			return 0;
	}
	o->count++;
	o->last_ns = bpf_ktime_get_ns();
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
