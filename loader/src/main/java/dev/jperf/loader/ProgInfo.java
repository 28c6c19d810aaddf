package dev.jperf.loader;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.format.bpf.BpfProgInfoLayout;

/**
 * What the kernel holds of a loaded program (bpf_prog_info): its id, type, xlated instructions,
 * and how much BTF it got (its BTF object's id, 0 without; func_info and line_info counts).
 */
public record ProgInfo(int id, int type, byte[] xlated, int btfId, int nrFuncInfo, int nrLineInfo) {
    /** BPF_OBJ_GET_INFO_BY_FD twice: the sizes, then the xlated instructions. */
    static ProgInfo of(Bpf bpf, int fd) {
        Memory info = new Memory(BpfProgInfoLayout.SIZE);
        info.clear();
        bpf.objGetInfoByFd(fd, info, BpfProgInfoLayout.SIZE);
        int id = info.getInt(BpfProgInfoLayout.ID);
        int type = info.getInt(BpfProgInfoLayout.TYPE);
        int len = info.getInt(BpfProgInfoLayout.XLATED_PROG_LEN);
        int btfId = info.getInt(BpfProgInfoLayout.BTF_ID);
        int nrFuncInfo = info.getInt(BpfProgInfoLayout.NR_FUNC_INFO);
        int nrLineInfo = info.getInt(BpfProgInfoLayout.NR_LINE_INFO);
        byte[] xlated = new byte[0];
        if (len > 0) {
            Memory insns = new Memory(len);
            info.clear();
            info.setInt(BpfProgInfoLayout.XLATED_PROG_LEN, len);
            info.setLong(BpfProgInfoLayout.XLATED_PROG_INSNS, Pointer.nativeValue(insns));
            bpf.objGetInfoByFd(fd, info, BpfProgInfoLayout.SIZE);
            int got = Math.min(len, info.getInt(BpfProgInfoLayout.XLATED_PROG_LEN));
            xlated = insns.getByteArray(0, got);
        }
        return new ProgInfo(id, type, xlated, btfId, nrFuncInfo, nrLineInfo);
    }

    /** The loaded program's info ({@code p} must be loaded). */
    public static ProgInfo of(BpfProgram p) {
        if (p.fd < 0) {
            throw new IllegalStateException("program '" + p.name + "' is not loaded");
        }
        return of(new Bpf(), p.fd);
    }
}
