package dev.jperf.loader;

import dev.jperf.format.bpf.Uapi;
import dev.jperf.format.kallsyms.KallsymsIndex;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.BpfProgLoadAttr;
import dev.jperf.nativeshim.Fd;
import dev.jperf.format.io.ProcFs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What libbpf asks the running kernel (get_kernel_version, its kernel feature probes), asked once per load. */
final class Probes {
    static final int BPF_FUNC_get_attach_cookie = 174;
    private final Bpf bpf;
    private Boolean cookie;
    private Boolean wrapper;
    /** /proc/kallsyms, read at the first question; null until then. */
    private KallsymsIndex kallsyms;

    Probes(Bpf bpf) {
        this.bpf = bpf;
    }

    /** The kernel release, as uname -r prints it. */
    static String release() {
        try {
            return ProcFs.readText(Path.of("/proc/sys/kernel/osrelease"));
        } catch (IOException e) {
            return "";
        }
    }

    /** get_kernel_version: KERNEL_VERSION(major, minor, patch) of /proc/version_signature (Ubuntu) or the release. */
    static int kernelVersion() {
        String v = release();
        try {
            String[] sig = ProcFs.readText(Path.of("/proc/version_signature")).split(" ");
            if (sig.length >= 3) {
                v = sig[2];
            }
        } catch (IOException e) {
            // not Ubuntu: the release it is
        }
        String[] p = v.split("[^0-9]", 4);
        if (p.length < 3) {
            return 0;
        }
        try {
            int major = Integer.parseInt(p[0]);
            int minor = Integer.parseInt(p[1]);
            int patch = Integer.parseInt(p[2]);
            return (major << 16) + (minor << 8) + Math.min(patch, 255);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** FEAT_BPF_COOKIE: a tracepoint program calling bpf_get_attach_cookie() loads. */
    boolean bpfCookie() {
        if (cookie == null) {
            byte[] insns = new byte[24];
            insns[0] = (byte) Insns.BPF_CALL_INSN;
            Insns.setImm(insns, 0, BPF_FUNC_get_attach_cookie);
            insns[8] = (byte) 0xb7; // mov64 r0, 0
            insns[16] = (byte) 0x95; // exit
            int fd = bpf.progLoad(new BpfProgLoadAttr(Uapi.BPF_PROG_TYPE_TRACEPOINT, 0, insns, "GPL", 0, 0, "", 0,
                    null, 0, null, 0, 0, 0), null, 0);
            cookie = fd >= 0;
            if (fd >= 0) {
                Fd.close(fd);
            }
        }
        return cookie;
    }

    /**
     * FEAT_SYSCALL_WRAPPER: libbpf creates a kprobe on __x64_sys_bpf (through the kprobe PMU, else
     * tracefs's kprobe_events). Without either there is no kprobe to create and the answer is no;
     * with one, the wrapper exists when kallsyms has the symbol.
     */
    boolean syscallWrapper() {
        if (wrapper == null) {
            boolean kprobes = Files.exists(Path.of("/sys/bus/event_source/devices/kprobe/type"))
                    || Files.exists(Path.of("/sys/kernel/tracing/kprobe_events"))
                    || Files.exists(Path.of("/sys/kernel/debug/tracing/kprobe_events"));
            wrapper = kprobes && kallsyms().kernelIndexOf("__x64_sys_bpf") >= 0;
        }
        return wrapper;
    }

    /** /proc/kallsyms, read once for this load (no symbols when unreadable). */
    KallsymsIndex kallsyms() {
        if (kallsyms == null) {
            kallsyms = KallsymsIndex.readOrEmpty(Path.of("/proc/kallsyms"));
        }
        return kallsyms;
    }
}
