#include "vmlinux.h"
#include "jperf_bpf.h"
#define __ksym __attribute__((section(".ksyms")))
extern struct task_struct *bpf_task_from_pid(s32 pid) __ksym;
extern void bpf_task_release(struct task_struct *p) __ksym;
static void *(*bpf_per_cpu_ptr)(const void *percpu_ptr, __u32 cpu) = (void *)153;
static long (*bpf_tail_call)(void *ctx, void *map, __u32 index) = (void *)12;

int tail(__u64 *ctx);
struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__array(values, int (__u64 *));
} jmp SEC(".maps") = { .values = { [1] = (void *)&tail } };

__u64 seen;

SEC("raw_tp/sys_enter")
int head(__u64 *ctx)
{
	bpf_tail_call(ctx, &jmp, 1);
	return 0;
}

SEC("raw_tp/sys_enter")
int tail(__u64 *ctx)
{
	seen++;
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
