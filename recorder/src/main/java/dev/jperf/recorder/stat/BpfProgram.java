package dev.jperf.recorder.stat;

import dev.jperf.format.bpf.BpfFuncInfo;
import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.format.bpf.BpfTypeNames;
import dev.jperf.format.bpf.BpilArray;
import dev.jperf.format.btf.Btf;
import dev.jperf.loader.BpfObjInfo;
import dev.jperf.nativeshim.Bpf;
import java.util.List;
import java.util.Optional;

/**
 * The row key of stat -b and bpf top: a program's id, type and display name. A view of
 * {@link BpfProgInfo}, kept because the name needs the program's BTF (the name of its main
 * function, as report names it, since prog_name is cut at 15 characters; else prog_name), which
 * is fetched once per program, not on every refresh.
 */
record BpfProgram(int id, int type, String name) {

    /** Describes the program behind {@code fd}; its name from BTF when it has some. */
    static BpfProgram describe(Bpf bpf, int id, int fd) {
        BpfProgInfo info = BpfObjInfo.progInfo(bpf, fd, 0);
        if (info.btfId() == 0) {
            return new BpfProgram(id, info.type(), info.name());
        }
        try {
            List<BpfFuncInfo> funcs = BpfObjInfo.progInfo(bpf, fd, BpilArray.FUNC_INFO.mask()).funcInfo();
            Btf btf = Btf.parse(BpfObjInfo.btfBlob(bpf, info.btfId(), 64L << 20));
            Optional<String> main = funcs.isEmpty() ? Optional.empty() : funcs.get(0).name(btf);
            return new BpfProgram(id, info.type(), main.orElse(info.name()));
        } catch (RuntimeException e) {
            return new BpfProgram(id, info.type(), info.name()); // BTF gone or unreadable: the kernel's short name
        }
    }

    /** bpftool's name of the program's type. */
    String typeName() {
        String name = BpfTypeNames.progType(type); // bpftool's names
        return name != null ? name : "type " + type;
    }

    /** {run_time_ns, run_cnt} of the program behind {@code fd} now. */
    static long[] runCounters(Bpf bpf, int fd) {
        BpfProgInfo info = BpfObjInfo.progInfo(bpf, fd, 0);
        return new long[] {info.runTimeNs(), info.runCnt()};
    }
}
