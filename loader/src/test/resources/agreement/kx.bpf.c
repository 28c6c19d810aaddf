#include "vmlinux.h"
#include "jperf_bpf.h"
#define __ksym __attribute__((section(".ksyms")))
extern struct task_struct *bpf_task_from_pid(s32 pid) __ksym;
extern void bpf_task_release(struct task_struct *p) __ksym;
static void *(*bpf_per_cpu_ptr)(const void *percpu_ptr, __u32 cpu) = (void *)153;
static long (*bpf_tail_call)(void *ctx, void *map, __u32 index) = (void *)12;

struct inner { __uint(type, BPF_MAP_TYPE_ARRAY); __uint(max_entries, 1); __type(key, __u32); __type(value, __u64); } inner1 SEC(".maps"), inner2 SEC(".maps");
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 2);
	__type(key, __u32);
	__array(values, struct inner);
} outer SEC(".maps") = { .values = { &inner1, &inner2 } };

__u64 seen;

SEC("tp_btf/sched_switch")
int kf(__u64 *ctx)
{
	struct task_struct *t = bpf_task_from_pid(1);
	__u32 k = 0;
	void *m = bpf_map_lookup_elem(&outer, &k);
	if (m) {
		__u64 *v = bpf_map_lookup_elem(m, &k);
		if (v) (*v)++;
	}
	if (t)
		bpf_task_release(t);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
