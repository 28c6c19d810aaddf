package dev.jperf.format.bpf;

import dev.jperf.format.btf.Btf;
import java.util.Optional;

/**
 * struct bpf_func_info: {@code insnOff} is the index of the function's first translated
 * instruction, {@code typeId} a BTF FUNC in the program's BTF.
 */
public record BpfFuncInfo(int insnOff, int typeId) {
    /** sizeof(struct bpf_func_info). */
    public static final int SIZE = 8;

    /** The function's BTF name, if {@code btf} has a FUNC with this id. */
    public Optional<String> name(Btf btf) {
        return btf == null ? Optional.empty() : btf.funcName(typeId);
    }
}
