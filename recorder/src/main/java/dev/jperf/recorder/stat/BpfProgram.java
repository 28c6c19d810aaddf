package dev.jperf.recorder.stat;

import static dev.jperf.format.bpf.BpfProgInfoLayout.*;

import com.sun.jna.Memory;
import dev.jperf.format.bpf.BpfFuncInfo;
import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.format.bpf.BpfTypeNames;
import dev.jperf.format.btf.Btf;
import dev.jperf.nativeshim.Bpf;
import java.util.List;
import java.util.Optional;

/**
 * A loaded BPF program as stat and top show it: id, type and name (the BTF name of its main
 * function when it has BTF, as report names it, since prog_name is cut at 15 characters; else
 * prog_name), and its cumulative run counters (bpf_prog_info run_cnt and run_time_ns, which the
 * kernel advances only while BPF statistics are enabled).
 */
record BpfProgram(int id, int type, String name) {

    /** bpftool's names of enum bpf_prog_type (prog_type_name in libbpf), by value. */

    /** Describes the program behind {@code fd}; its name from BTF when it has some. */
    static BpfProgram describe(Bpf bpf, int id, int fd) {
        Memory info = new Memory(SIZE);
        info.clear();
        bpf.objGetInfoByFd(fd, info, SIZE);
        String progName = info.getString(NAME);
        int type = info.getInt(TYPE);
        if (info.getInt(BTF_ID) == 0) {
            return new BpfProgram(id, type, progName);
        }
        try {
            BpfProgInfo full = dev.jperf.recorder.BpfProgFetch.info(bpf, id, fd);
            List<BpfFuncInfo> funcs = full.funcInfo();
            Btf btf = Btf.parse(dev.jperf.recorder.BpfProgFetch.btf(bpf, full.btfId()));
            Optional<String> main = funcs.isEmpty() ? Optional.empty() : funcs.get(0).name(btf);
            return new BpfProgram(id, type, main.orElse(progName));
        } catch (RuntimeException e) {
            return new BpfProgram(id, type, progName); // BTF gone or unreadable: the kernel's short name
        }
    }

    /** bpftool's name of the program's type. */
    String typeName() {
        String name = BpfTypeNames.progType(type); // bpftool's names
        return name != null ? name : "type " + type;
    }

    /** {run_time_ns, run_cnt} of the program behind {@code fd} now. */
    static long[] runCounters(Bpf bpf, int fd, Memory info) {
        info.clear();
        bpf.objGetInfoByFd(fd, info, SIZE);
        return new long[] {info.getLong(RUN_TIME_NS), info.getLong(RUN_CNT)};
    }
}
