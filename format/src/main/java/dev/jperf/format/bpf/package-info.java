/**
 * BPF program metadata as perf stores it (HEADER_BPF_PROG_INFO) and as the kernel returns it.
 *
 * <p>{@link dev.jperf.format.bpf.BpfProgInfo}: struct bpf_prog_info with its arrays; built by the
 * recorder with {@link dev.jperf.format.bpf.BpfProgInfo#fromKernel} (after the two-pass
 * BPF_OBJ_GET_INFO_BY_FD), read from files with {@link dev.jperf.format.bpf.BpfProgInfo#readPerfBpil}.
 * Names ({@code perfName}, {@code kernelName}) and the address lookup ({@code locate},
 * {@code sourceLine}) follow perf and libbpf; {@link dev.jperf.format.bpf.BpfPrograms} indexes a
 * recording's programs by id, KSYMBOL name and address.
 */
package dev.jperf.format.bpf;
