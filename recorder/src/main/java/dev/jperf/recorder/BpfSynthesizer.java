package dev.jperf.recorder;

import dev.jperf.format.bpf.BpfFormatException;
import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.format.bpf.BpilArray;
import dev.jperf.loader.BpfObjInfo;
import dev.jperf.format.bpf.Uapi;
import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfException;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;

/**
 * BPF programs that are loaded when recording starts, as perf synthesizes them (bpf-metadata.md
 * §9 step 3): for each program id its bpf_prog_info and BTF, one KSYMBOL per JITed function with
 * perf's name, one BPF_EVENT PROG_LOAD; then a KSYMBOL per BPF trampoline/dispatcher image.
 */
final class BpfSynthesizer {
    private final Bpf bpf = new Bpf();
    private boolean imagesPossible;
    private final BpfCapture capture;
    private final SyntheticRecords out;

    BpfSynthesizer(BpfCapture capture, SyntheticRecords out) {
        this.capture = capture;
        this.out = out;
    }

    /** Returns the number of programs synthesized. No privilege (EPERM) ends the walk quietly, as for perf. */
    int loadedPrograms() {
        int n = 0;
        int id = 0;
        while (true) {
            try {
                id = bpf.progGetNextId(id);
            } catch (NativeException e) {
                return n; // EPERM / EINVAL: no BPF privilege, nothing to synthesize
            }
            if (id == 0) {
                return n;
            }
            if (capture.seen(id)) {
                continue;
            }
            int fd;
            try {
                fd = bpf.progGetFdById(id);
            } catch (NativeException e) {
                continue; // unloaded meanwhile
            }
            try {
                BpfProgInfo info = BpfObjInfo.progInfo(bpf, fd, BpilArray.PERF_DEFAULT_MASK);
                byte[] btf = null;
                if (info.btfId() != 0) {
                    btf = capture.hasBtf(info.btfId()) ? capture.btf(info.btfId()) : BpfObjInfo.btfBlob(bpf, info.btfId(), BpfCapture.MAX_BTF_SIZE);
                }
                capture.add(info, btf);
                imagesPossible |= usesImage(info.type());
                if (records(info, btf)) {
                    n++;
                }
            } catch (NativeException | IllegalStateException | BpfFormatException e) {
                // a program that cannot be described is skipped, as perf skips it
            } finally {
                Fd.close(fd);
            }
        }
    }

    /**
     * Whether a loaded program may run through a trampoline (fentry/fexit, freplace, LSM,
     * struct_ops) or the XDP dispatcher: only then can kallsyms hold images worth its full read.
     */
    boolean imagesPossible() {
        return imagesPossible;
    }

    static boolean usesImage(int progType) {
        return progType == Uapi.BPF_PROG_TYPE_XDP || progType == Uapi.BPF_PROG_TYPE_TRACING
                || progType == Uapi.BPF_PROG_TYPE_STRUCT_OPS || progType == Uapi.BPF_PROG_TYPE_EXT
                || progType == Uapi.BPF_PROG_TYPE_LSM;
    }

    /** KSYMBOL per function with perf's name + BPF_EVENT; false when the arrays disagree (perf skips those). */
    private boolean records(BpfProgInfo info, byte[] btfBytes) {
        int n = info.nrJitedKsyms();
        if (n == 0 || n != info.nrJitedFuncLens() || n != info.nrProgTags()) {
            return false;
        }
        Btf btf = null;
        if (btfBytes != null && info.nrFuncInfo() == n) {
            try {
                btf = Btf.parse(btfBytes);
            } catch (BtfException e) {
                // named as perf names programs without BTF
            }
        }
        long[] addrs = info.jitedKsyms();
        int[] lens = info.jitedFuncLens();
        for (int i = 0; i < n; i++) {
            out.ksymbol(addrs[i], lens[i], info.perfName(i, btf));
        }
        out.bpfProgLoad(info.id(), info.tag());
        return true;
    }

    /** KSYMBOLs (one page each) for the BPF trampoline and dispatcher images. */
    void images(KernelMaps kallsyms, int pageSize) {
        for (KernelMaps.Image i : kallsyms.images()) {
            out.ksymbol(i.addr(), pageSize, i.name());
        }
    }
}
