// SPDX-License-Identifier: GPL-2.0
/*
 * jperf record --off-cpu: where and for how long tasks wait. When a task is switched out asleep
 * (interruptible or not), its user stack and the time are noted; when it is switched in again,
 * the time it was away is added to the total of its (task, stack, sleep state). jperf reads the
 * totals once, when the recording ends, and writes each as an offcpu-time sample whose period is
 * the total in nanoseconds (perf's design and file layout, perf 5.19's --off-cpu).
 */
#include "vmlinux.h"
#include "jperf_bpf.h"

#define PF_KTHREAD 0x00200000
#define TASK_INTERRUPTIBLE 0x0001
#define TASK_UNINTERRUPTIBLE 0x0002

/* user frames kept per stack, as perf's off-CPU stacks */
#define STACK_DEPTH 32

struct sleep_start {
	__u64 ns;
	__u32 stack_id;
	__u32 state;
};

/* the layout jperf reads back (recorder's OffCpu): keep them in step */
struct off_cpu_key {
	__u32 pid;
	__u32 tgid;
	__u32 stack_id;
	__u32 state;
	__u64 cgroup_id;
};

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, STACK_DEPTH * sizeof(__u64));
	__uint(max_entries, 16384);
} stacks SEC(".maps");

/* tasks asleep now, by thread id */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 102400);
	__type(key, __u32);
	__type(value, struct sleep_start);
} asleep SEC(".maps");

/* nanoseconds off CPU per (task, stack, state) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 102400);
	__type(key, struct off_cpu_key);
	__type(value, __u64);
} off_cpu SEC(".maps");

/* -C and -p/-t/workload filters: sized by jperf before load */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u8);
} cpu_filter SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u8);
} task_filter SEC(".maps");

int enabled;
int has_cpu;
int has_task;
/* the task filter holds processes (a workload, -p), not threads (-t) */
int uses_tgid;

static __always_inline int watched(struct task_struct *t, int state)
{
	__u32 cpu, id;

	/* kernel threads have no user stack to blame */
	if (t->flags & PF_KTHREAD)
		return 0;
	/* asleep, whatever else is set: nanosleep and the freezer add TASK_FREEZABLE, killable waits TASK_WAKEKILL */
	if (!(state & (TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)))
		return 0;
	if (has_cpu) {
		cpu = bpf_get_smp_processor_id();
		if (!bpf_map_lookup_elem(&cpu_filter, &cpu))
			return 0;
	}
	if (has_task) {
		id = uses_tgid ? t->tgid : t->pid;
		if (!bpf_map_lookup_elem(&task_filter, &id))
			return 0;
	}
	return 1;
}

SEC("tp_btf/sched_switch")
int on_switch(__u64 *ctx)
{
	struct task_struct *prev = (struct task_struct *)ctx[1];
	struct task_struct *next = (struct task_struct *)ctx[2];
	/* sched_switch's prev_state (kernels since 5.18): what the task was switched out as */
	int state = (int)ctx[3];
	struct sleep_start *started, now;
	struct off_cpu_key key = {};
	__u64 *total, away;
	__u32 tid;

	if (!enabled)
		return 0;
	now.ns = bpf_ktime_get_ns();
	if (watched(prev, state)) {
		/* the stack of the task going to sleep: it is still the current task here */
		now.stack_id = bpf_get_stackid(ctx, &stacks, BPF_F_FAST_STACK_CMP | BPF_F_USER_STACK);
		/* the key's state is perf's: interruptible (1) or uninterruptible (2) */
		now.state = state & TASK_INTERRUPTIBLE ? TASK_INTERRUPTIBLE : TASK_UNINTERRUPTIBLE;
		tid = prev->pid;
		bpf_map_update_elem(&asleep, &tid, &now, BPF_ANY);
	}
	tid = next->pid;
	started = bpf_map_lookup_elem(&asleep, &tid);
	if (!started)
		return 0;
	key.pid = tid;
	key.tgid = next->tgid;
	key.stack_id = started->stack_id;
	key.state = started->state;
	away = now.ns - started->ns;
	bpf_map_delete_elem(&asleep, &tid);
	total = bpf_map_lookup_elem(&off_cpu, &key);
	if (!total && bpf_map_update_elem(&off_cpu, &key, &away, BPF_NOEXIST) == 0)
		return 0;
	/* the key was there, or another CPU added it meanwhile */
	if (!total)
		total = bpf_map_lookup_elem(&off_cpu, &key);
	if (total)
		__sync_fetch_and_add(total, away);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
