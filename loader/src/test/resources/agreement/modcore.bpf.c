#include "vmlinux.h"
#include "jperf_bpf.h"

/* a type only a module's BTF has (ModuleBtfTest writes that module) */
struct jperf_mod_state {
	int a;
	long b;
} __attribute__((preserve_access_index));

long out;

SEC("raw_tp/sys_enter")
int modcore(__u64 *ctx)
{
	struct jperf_mod_state *s = (void *)ctx[0];
	long b = 0;

	bpf_probe_read_kernel(&b, sizeof(b), &s->b);
	out = b;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
