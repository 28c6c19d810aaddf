// SPDX-License-Identifier: GPL-2.0
/*
 * Counts execs per command (the comm after exec) in a hash map, the total in .bss; .rodata's
 * parent_tgid, set by the loader before load, keeps only the children of that process (0: all).
 * The program of samples/skeleton/ExecCount.java, loaded through a generated Java skeleton.
 */
#include "vmlinux.h"
#include "jperf_bpf.h"

const volatile __u32 parent_tgid = 0;   /* 0: every process */

__u64 total_execs;                      /* .bss: every exec counted */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, char[16]);
	__type(value, __u64);
} execs SEC(".maps");

SEC("tp/sched/sched_process_exec")
int on_exec(void *ctx)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct task_struct *parent;
	char comm[16] = {};
	__u64 one = 1, *n;
	__u32 ppid;

	if (parent_tgid) {
		CORE_READ(parent, task->real_parent);
		CORE_READ(ppid, parent->tgid);
		if (ppid != parent_tgid)
			return 0;
	}
	bpf_get_current_comm(comm, sizeof(comm));
	n = bpf_map_lookup_elem(&execs, comm);
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(&execs, comm, &one, BPF_NOEXIST);
	__sync_fetch_and_add(&total_execs, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
