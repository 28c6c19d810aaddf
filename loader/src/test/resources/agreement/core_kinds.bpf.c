#include "vmlinux.h"
#include "jperf_bpf.h"

/* a local flavor of task_struct with a field the kernel does not have, and one it has */
struct task_struct___local {
	int pid;
	long no_such_field;
} __attribute__((preserve_access_index));
struct no_such_type___x { int a; };
enum cgroup_subsys_id___local { cpu_cgrp_id___local = 1, not_in_kernel___local = 99 };

__u64 out[12];

SEC("tp_btf/sched_switch")
int kinds(__u64 *ctx)
{
	struct task_struct___local *t = (void *)ctx[1];
	int pid = 0;

	out[0] = __builtin_btf_type_id(*(struct task_struct *)0, 0);
	out[1] = __builtin_btf_type_id(*(struct task_struct *)0, 1);
	out[2] = __builtin_preserve_type_info(*(struct task_struct *)0, 0);
	out[3] = __builtin_preserve_type_info(*(struct no_such_type___x *)0, 0);
	out[4] = __builtin_preserve_type_info(*(struct task_struct *)0, 1);
	out[5] = __builtin_preserve_type_info(*(struct rq *)0, 1);
	out[6] = __builtin_preserve_enum_value(*(enum cgroup_subsys_id___local *)cpu_cgrp_id___local, 0);
	out[7] = __builtin_preserve_enum_value(*(enum cgroup_subsys_id___local *)not_in_kernel___local, 0);
	out[8] = __builtin_preserve_enum_value(*(enum cgroup_subsys_id___local *)cpu_cgrp_id___local, 1);
	out[9] = __builtin_preserve_field_info(t->no_such_field, 2);
	if (__builtin_preserve_field_info(t->no_such_field, 2))
		out[10] = t->no_such_field;   /* poisoned, and dead */
	bpf_probe_read_kernel(&pid, sizeof(pid), &t->pid);
	out[11] = pid;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
