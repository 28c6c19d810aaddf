package dev.jperf.nativeshim;

/**
 * What BPF_PROG_LOAD is given (union bpf_attr's prog-load fields): {@code insns} are 8-byte
 * little-endian instructions, {@code funcInfo}/{@code lineInfo} whole bpf_func_info / bpf_line_info
 * records of their record sizes (empty when there are none), fds 0 when absent.
 */
public record BpfProgLoadAttr(int progType, int expectedAttachType, byte[] insns, String license, int kernVersion,
        int progFlags, String name, int progBtfFd, byte[] funcInfo, int funcInfoRecSize, byte[] lineInfo,
        int lineInfoRecSize, int attachBtfId, int attachBtfObjFd) {
}
