#define SEC(name) __attribute__((section(name), used))
struct xdp_md;
SEC("xdp")
int xdp_count(struct xdp_md *ctx)
{
	return 2; /* XDP_PASS */
}
char LICENSE[] SEC("license") = "GPL";
