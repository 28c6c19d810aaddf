// SPDX-License-Identifier: GPL-2.0
/*
 * CO-RE: on every context switch, reads fields of the previous and next task_struct (pid, tgid,
 * comm, prio, and the scheduler's bitfield-free fields) at offsets relocated against the running
 * kernel's BTF, and counts switches per pid with the time each task last ran.
 */
#include "vmlinux.h"
#include "jperf_bpf.h"

struct switch_stats {
	__u64 switches;
	__u64 last_ns;
	int prio;
	char comm[16];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct switch_stats);
} switches SEC(".maps");

/* tp_btf/sched_switch's arguments: preempt, prev, next (and prev_state on newer kernels) */
SEC("tp_btf/sched_switch")
int on_switch(__u64 *ctx)
{
	struct task_struct *prev = (struct task_struct *)ctx[1];
	struct switch_stats zero = {}, *s;
	__u32 pid;

	CORE_READ(pid, prev->pid);
	s = bpf_map_lookup_elem(&switches, &pid);
	if (!s) {
		bpf_map_update_elem(&switches, &pid, &zero, BPF_NOEXIST);
		s = bpf_map_lookup_elem(&switches, &pid);
		if (!s)
			return 0;
	}
	s->switches++;
	s->last_ns = bpf_ktime_get_ns();
	CORE_READ(s->prio, prev->prio);
	bpf_probe_read_kernel(s->comm, sizeof(s->comm), prev->comm);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
