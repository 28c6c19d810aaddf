package dev.jperf.format.bpf;

import java.util.Optional;

/**
 * An address resolved inside a BPF program: the program, the JITed function (subprogram) index,
 * its kernel name (as KSYMBOL / kallsyms show it) and perf's header name, the line record index
 * (-1 if none) and the source line when the program's BTF is available.
 */
public record BpfSymbol(BpfProgInfo program, int subprog, String kernelName, String perfName, int lineIndex,
                        Optional<BpfSourceLine> line) {
    /** Offset of the address from the start of the function. */
    public long offset(long ip) {
        return ip - program.jitedKsyms()[subprog];
    }
}
