package dev.jperf.recorder.stat;

import com.sun.jna.Memory;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.BpfAttrLayout;
import dev.jperf.format.bpf.BpfProgInfoLayout;
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
        Memory info = new Memory(BpfProgInfoLayout.SIZE);
        info.clear();
        bpf.objGetInfoByFd(targetFd, info, BpfProgInfoLayout.SIZE);
        int btfFunc = 0;
        if (info.getInt(BpfProgInfoLayout.BTF_ID) != 0 && info.getInt(BpfProgInfoLayout.NR_FUNC_INFO) > 0) {
            // the main function's BTF id: func_info[0].type_id
            int rec = info.getInt(BpfProgInfoLayout.FUNC_INFO_REC_SIZE);
            Memory funcs = new Memory((long) rec * info.getInt(BpfProgInfoLayout.NR_FUNC_INFO));
            Memory again = new Memory(BpfProgInfoLayout.SIZE);
            again.clear();
            again.setInt(BpfProgInfoLayout.NR_FUNC_INFO, info.getInt(BpfProgInfoLayout.NR_FUNC_INFO));
            again.setInt(BpfProgInfoLayout.FUNC_INFO_REC_SIZE, rec);
            again.setLong(BpfProgInfoLayout.FUNC_INFO, com.sun.jna.Pointer.nativeValue(funcs));
            bpf.objGetInfoByFd(targetFd, again, BpfProgInfoLayout.SIZE);
            btfFunc = funcs.getInt(4);
        }
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
