package dev.jperf.recorder.stat;

import dev.jperf.loader.BpfObjInfo;
import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.format.bpf.BpilArray;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.BpfAttrLayout;
import dev.jperf.format.bpf.Uapi;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;

/**
 * The kernel's BPF statistics, on for as long as this is open: BPF_ENABLE_STATS
 * (BPF_STATS_RUN_TIME) returns an fd that keeps run_time_ns and run_cnt counting while it is
 * held, for this process only, and closing it turns them off again unless someone else holds
 * one (never the kernel.bpf_stats_enabled sysctl, which would change the machine for everyone).
 */
final class BpfStatsSession implements AutoCloseable {
    private final int fd;

    private BpfStatsSession(int fd) {
        this.fd = fd;
    }

    static BpfStatsSession enable(Bpf bpf) {
        try {
            return new BpfStatsSession(bpf.enableStats(BpfAttrLayout.BPF_STATS_RUN_TIME));
        } catch (NativeException e) {
            if (e.errno() == Errno.EPERM || e.errno() == Errno.EACCES) {
                throw new StatException("no permission to enable BPF statistics (" + e.getMessage()
                        + "): run as root or grant CAP_SYS_ADMIN", e);
            }
            throw new StatException("cannot enable BPF statistics: " + e.getMessage(), e);
        }
    }

    /**
     * What perf's bpf_counter does first: an fentry program attached to the target program. It
     * returns the kernel's refusal as one line, or null when the kernel took the program (it is
     * unloaded again at once: counting events inside it needs programs jperf's object loader
     * builds).
     */
    static String probeFentry(Bpf bpf, int targetFd) {
        // the main function's BTF id: func_info[0].type_id
        BpfProgInfo info = BpfObjInfo.progInfo(bpf, targetFd, BpilArray.FUNC_INFO.mask());
        int btfFunc = info.btfId() != 0 && !info.funcInfo().isEmpty() ? info.funcInfo().get(0).typeId() : 0;
        byte[] returnZero = {(byte) 0xb7, 0, 0, 0, 0, 0, 0, 0, (byte) 0x95, 0, 0, 0, 0, 0, 0, 0};
        try {
            int fd = bpf.progLoad(Uapi.BPF_PROG_TYPE_TRACING, returnZero, "GPL", "jperf_fentry",
                    BpfAttrLayout.BPF_TRACE_FENTRY, btfFunc, targetFd);
            Fd.close(fd);
            return null;
        } catch (NativeException e) {
            return e.getMessage();
        }
    }

    @Override
    public void close() {
        Fd.close(fd);
    }
}
