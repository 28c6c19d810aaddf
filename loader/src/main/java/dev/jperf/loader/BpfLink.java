package dev.jperf.loader;

import dev.jperf.format.io.ProcFs;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.jperf.format.bpf.Uapi;
import dev.jperf.format.elf.ElfFile;
import dev.jperf.format.elf.ElfProgramHeader;
import dev.jperf.format.elf.ElfSection;
import dev.jperf.format.elf.ElfSymbol;
import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.Ioctl;
import dev.jperf.nativeshim.Mount;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.nativeshim.PerfEventOpen;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A loaded program attached to where it runs, as libbpf's bpf_program__attach does by section:
 * raw_tp and tp_btf/fentry/fexit/lsm (BPF_RAW_TRACEPOINT_OPEN), tracepoint (a tracefs event id,
 * mounting tracefs when it is not mounted, through a perf event), kprobe/ksyscall and
 * uprobe/uretprobe (the kprobe and uprobe PMUs, no tracefs), iter (a link); and, given their
 * target, perf_event (a sampling event), xdp and tc (an interface). Closing detaches.
 */
public final class BpfLink implements AutoCloseable {
    static final String TRACEFS = "/sys/kernel/tracing";
    static final String DEBUGFS_TRACING = "/sys/kernel/debug/tracing";
    static final int BPF_TCX_INGRESS = 46;
    static final int BPF_TCX_EGRESS = 47;

    private final String what;
    private int fd;
    /** A perf event the link's program runs on, closed with the link (-1: none). */
    private int perfFd;

    private BpfLink(String what, int fd, int perfFd) {
        this.what = what;
        this.fd = fd;
        this.perfFd = perfFd;
    }

    /** What the program is attached to, e.g. "tracepoint sched/sched_switch". */
    public String target() {
        return what;
    }

    @Override
    public void close() {
        Fd.close(fd);
        Fd.close(perfFd);
        fd = -1;
        perfFd = -1;
    }

    /**
     * What {@code jperf bpf run}, {@code record --bpf-object} and a generated skeleton's
     * {@code attach()} do with a loaded program: a perf_event program on a cpu-clock event per
     * online CPU at {@link AttachedObjects#PERF_EVENT_FREQ} Hz, any other as {@link #attach}
     * reads its section. One link per attachment; on failure none is left open.
     */
    public static java.util.List<BpfLink> autoAttach(BpfProgram p) throws BpfObjectException {
        java.util.List<BpfLink> links = new java.util.ArrayList<>();
        SectionDef d = p.sectionDef();
        if (d != null && d.progType() == Uapi.BPF_PROG_TYPE_PERF_EVENT) {
            try {
                for (int cpu : AttachedObjects.onlineCpus()) {
                    links.add(cpuClock(p, cpu, AttachedObjects.PERF_EVENT_FREQ));
                }
            } catch (BpfObjectException | RuntimeException e) {
                for (BpfLink l : links) {
                    l.close();
                }
                throw e;
            }
            return links;
        }
        links.add(attach(p));
        return links;
    }

    /**
     * Whether {@link #autoAttach} has a target for the program without being told one: a
     * perf_event program, or a section naming where it runs (a tracepoint, a kernel function, a
     * binary and function...). xdp, tc, socket and cgroup programs, and a section without its
     * target ({@code SEC("kprobe")}), need one from the caller ({@link #xdp}, {@link #tc},
     * {@link #uprobe}...), as libbpf's skeleton leaves them unattached.
     */
    public static boolean autoAttachable(BpfProgram p) {
        SectionDef d = p.sectionDef();
        if (d == null) {
            return false;
        }
        if (d.progType() == Uapi.BPF_PROG_TYPE_PERF_EVENT) {
            return true;
        }
        String target = SectionDef.target(p.sectionName());
        switch (d.attach()) {
            case TRACE: case LSM: case ITER:
                return true;
            case RAW_TRACEPOINT: case TRACEPOINT: case KPROBE: case KSYSCALL: case UPROBE:
                return target != null && !target.isEmpty();
            default:
                return false;
        }
    }

    /** libbpf's auto-attach: the target read from the section name. One line when it cannot be done. */
    public static BpfLink attach(BpfProgram p) throws BpfObjectException {
        if (p.fd() < 0) {
            throw new BpfObjectException("prog '" + p.name() + "': not loaded");
        }
        SectionDef def = p.sectionDef();
        String target = SectionDef.target(p.sectionName());
        String where = "prog '" + p.name() + "' (section '" + p.sectionName() + "'): ";
        SectionDef.AttachKind kind = def == null ? SectionDef.AttachKind.NONE : def.attach();
        try {
            switch (kind) {
                case RAW_TRACEPOINT:
                    if (target == null || target.isEmpty()) {
                        throw new BpfObjectException(where + "no tracepoint name to attach to");
                    }
                    return new BpfLink("raw_tracepoint " + target, new Bpf().rawTracepointOpen(target, p.fd()), -1);
                case TRACE: case LSM:
                    return new BpfLink(p.sectionName(), new Bpf().rawTracepointOpen(null, p.fd()), -1);
                case TRACEPOINT: {
                    int slash = target == null ? -1 : target.indexOf('/');
                    if (slash <= 0) {
                        throw new BpfObjectException(where + "tracepoint must be category/name");
                    }
                    return tracepoint(p, target.substring(0, slash), target.substring(slash + 1));
                }
                case KPROBE: {
                    boolean ret = p.sectionName().startsWith("kretprobe");
                    if (target == null || target.isEmpty()) {
                        throw new BpfObjectException(where + "no function to probe");
                    }
                    int plus = target.indexOf('+');
                    String func = plus < 0 ? target : target.substring(0, plus);
                    long off = plus < 0 ? 0 : Long.decode(target.substring(plus + 1));
                    return probe(p, "kprobe", ret, func, off, -1);
                }
                case KSYSCALL: {
                    boolean ret = p.sectionName().startsWith("kretsyscall");
                    if (target == null || target.isEmpty()) {
                        throw new BpfObjectException(where + "no syscall to probe");
                    }
                    String func = (new Probes(new Bpf()).syscallWrapper() ? "__x64_sys_" : "sys_") + target;
                    return probe(p, "kprobe", ret, func, 0, -1);
                }
                case UPROBE: {
                    boolean ret = p.sectionName().startsWith("uretprobe");
                    if (target == null || target.isEmpty()) {
                        throw new BpfObjectException(where + "no binary:function in the section name; attach it with"
                                + " BpfLink.uprobe");
                    }
                    int colon = target.lastIndexOf(':');
                    if (colon <= 0) {
                        throw new BpfObjectException(where + "uprobe target must be binary:function[+offset]");
                    }
                    String spec = target.substring(colon + 1);
                    int plus = spec.indexOf('+');
                    String func = plus < 0 ? spec : spec.substring(0, plus);
                    long off = plus < 0 ? 0 : Long.decode(spec.substring(plus + 1));
                    return uprobe(p, ret, -1, resolveBinary(target.substring(0, colon)), func, off);
                }
                case ITER:
                    return new BpfLink(p.sectionName(), new Bpf().linkCreate(p.fd(), 0, Uapi.BPF_TRACE_ITER), -1);
                default:
                    throw new BpfObjectException(where + "no automatic attach for this section (it needs a target:"
                            + " a perf event, an interface, a cgroup...)");
            }
        } catch (NativeException e) {
            throw new BpfObjectException(where + "failed to attach: " + Errno.name(e.errno()) + ": " + Errno.text(e.errno()),
                    e.errno());
        } catch (NumberFormatException e) {
            throw new BpfObjectException(where + "bad offset in the section name");
        }
    }

    /** A perf_event program on an opened (sampling) perf event; the link owns neither fd's event. */
    public static BpfLink perfEvent(BpfProgram p, int perfEventFd) throws BpfObjectException {
        try {
            int link = new Bpf().linkCreate(p.fd(), perfEventFd, Uapi.BPF_PERF_EVENT);
            return new BpfLink("perf event fd " + perfEventFd, link, -1);
        } catch (NativeException e) {
            throw new BpfObjectException("prog '" + p.name() + "': failed to attach to perf event: " + Errno.name(e.errno())
                    + ": " + Errno.text(e.errno()), e.errno());
        }
    }

    /**
     * A perf_event program on a cpu-clock event sampling CPU {@code cpu} at {@code freq} Hz (what a
     * profiler's perf_event program runs on); the link owns the event.
     */
    public static BpfLink cpuClock(BpfProgram p, int cpu, long freq) throws BpfObjectException {
        ByteBuffer attr = PerfEventAttr.open(PerfEventAttr.PERF_TYPE_SOFTWARE, PerfEventAttr.PERF_COUNT_SW_CPU_CLOCK);
        attr.putLong(PerfEventAttr.SAMPLE_PERIOD, freq);
        attr.putLong(PerfEventAttr.FLAGS, PerfEventAttr.FLAG_FREQ | PerfEventAttr.FLAG_DISABLED);
        int pfd;
        try {
            pfd = PerfEventOpen.open(attr, -1, cpu, -1, PerfEventAttr.PERF_FLAG_FD_CLOEXEC, "cpu-clock");
        } catch (NativeException e) {
            throw new BpfObjectException("prog '" + p.name() + "': cpu-clock on cpu " + cpu + ": " + Errno.name(e.errno())
                    + ": " + Errno.text(e.errno()), e.errno());
        }
        return onPerfEvent(p, pfd, "cpu-clock cpu " + cpu + " at " + freq + " Hz");
    }

    /** An xdp program on interface {@code ifindex} (BPF_LINK_CREATE, BPF_XDP). */
    public static BpfLink xdp(BpfProgram p, int ifindex) throws BpfObjectException {
        return link(p, ifindex, Uapi.BPF_XDP, "xdp ifindex " + ifindex);
    }

    /** A tc (sched_cls) program on interface {@code ifindex}'s ingress or egress, through tcx. */
    public static BpfLink tc(BpfProgram p, int ifindex, boolean ingress) throws BpfObjectException {
        return link(p, ifindex, ingress ? BPF_TCX_INGRESS : BPF_TCX_EGRESS, "tc " + (ingress ? "ingress" : "egress")
                + " ifindex " + ifindex);
    }

    private static BpfLink link(BpfProgram p, int target, int attachType, String what) throws BpfObjectException {
        try {
            return new BpfLink(what, new Bpf().linkCreate(p.fd(), target, attachType), -1);
        } catch (NativeException e) {
            throw new BpfObjectException("prog '" + p.name() + "': failed to attach to " + what + ": " + Errno.name(e.errno())
                    + ": " + Errno.text(e.errno()), e.errno());
        }
    }

    /** The interface's index (/sys/class/net/NAME/ifindex). */
    public static int ifindex(String name) throws BpfObjectException {
        try {
            return Integer.parseInt(ProcFs.readText(Path.of("/sys/class/net", name, "ifindex")));
        } catch (IOException | NumberFormatException e) {
            throw new BpfObjectException("no network interface '" + name + "'", Errno.ENOENT);
        }
    }

    // ---- tracepoints ----

    private static BpfLink tracepoint(BpfProgram p, String category, String name) throws BpfObjectException {
        Path events = tracefs().resolve("events");
        Path idFile = events.resolve(category).resolve(name).resolve("id");
        long id;
        try {
            id = Long.parseLong(Files.readString(idFile).strip());
        } catch (IOException | NumberFormatException e) {
            throw new BpfObjectException("prog '" + p.name() + "': no tracepoint " + category + "/" + name + " (" + idFile
                    + ")", Errno.ENOENT);
        }
        ByteBuffer attr = PerfEventAttr.open(PerfEventAttr.PERF_TYPE_TRACEPOINT, id);
        int pfd = PerfEventOpen.open(attr, -1, 0, -1, PerfEventAttr.PERF_FLAG_FD_CLOEXEC, "tracepoint " + category + ":" + name);
        return onPerfEvent(p, pfd, "tracepoint " + category + "/" + name);
    }

    /** Where tracefs is, mounting it at /sys/kernel/tracing when neither place has it. */
    static Path tracefs() throws BpfObjectException {
        for (String dir : new String[] {TRACEFS, DEBUGFS_TRACING}) {
            if (Files.isDirectory(Path.of(dir, "events"))) {
                return Path.of(dir);
            }
        }
        try {
            Mount.mount("nodev", TRACEFS, "tracefs");
        } catch (NativeException e) {
            throw new BpfObjectException("tracefs is not mounted and mounting it on " + TRACEFS + " failed: "
                    + Errno.name(e.errno()) + ": " + Errno.text(e.errno()), e.errno());
        }
        return Path.of(TRACEFS);
    }

    // ---- kprobes and uprobes through their PMUs ----

    private static BpfLink probe(BpfProgram p, String pmu, boolean ret, String name, long offset, int pid)
            throws BpfObjectException {
        Path dev = Path.of("/sys/bus/event_source/devices", pmu);
        int type;
        int retBit;
        try {
            type = Integer.parseInt(Files.readString(dev.resolve("type")).strip());
            retBit = retprobeBit(dev);
        } catch (IOException | NumberFormatException e) {
            throw new BpfObjectException("prog '" + p.name() + "': cannot attach: this kernel has no " + pmu + " PMU ("
                    + dev + (pmu.equals("kprobe") ? "; kprobes are not configured" : "") + ")", Errno.EOPNOTSUPP);
        }
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        Memory str = new Memory(n.length + 1);
        str.write(0, n, 0, n.length);
        str.setByte(n.length, (byte) 0);
        ByteBuffer attr = PerfEventAttr.open(type, ret ? 1L << retBit : 0);
        attr.putLong(PerfEventAttr.CONFIG1, Pointer.nativeValue(str));
        attr.putLong(PerfEventAttr.CONFIG2, offset);
        int pfd = PerfEventOpen.open(attr, pid < 0 ? -1 : pid, pid == -1 ? 0 : -1, -1, PerfEventAttr.PERF_FLAG_FD_CLOEXEC,
                pmu + " " + name);
        str.clear(); // keeps the string reachable until the kernel has read it
        return onPerfEvent(p, pfd, (ret ? pmu.replace("probe", "retprobe") : pmu) + " " + name
                + (offset != 0 ? "+0x" + Long.toHexString(offset) : ""));
    }

    /** The retprobe bit of format/retprobe ("config:0"). */
    private static int retprobeBit(Path dev) throws IOException {
        String f = Files.readString(dev.resolve("format/retprobe")).strip();
        return Integer.parseInt(f.substring(f.indexOf(':') + 1));
    }

    /**
     * A uprobe (uretprobe with {@code ret}) on {@code function} of {@code binary} plus
     * {@code offset}, in process {@code pid} (-1: every process), through the uprobe PMU.
     */
    public static BpfLink uprobe(BpfProgram p, boolean ret, int pid, Path binary, String function, long offset)
            throws BpfObjectException {
        long fileOffset;
        try {
            fileOffset = functionFileOffset(binary, function) + offset;
        } catch (IOException e) {
            throw new BpfObjectException("prog '" + p.name() + "': " + binary + ": " + e.getMessage(), Errno.ENOENT);
        }
        try {
            return probe(p, "uprobe", ret, binary.toString(), fileOffset, pid);
        } catch (NativeException e) {
            throw new BpfObjectException("prog '" + p.name() + "': failed to attach uprobe " + binary + ":" + function + ": "
                    + Errno.name(e.errno()) + ": " + Errno.text(e.errno()), e.errno());
        }
    }

    /**
     * libbpf's resolve_full_path: a name with a '/' as it is; a library (".so" in its name) on
     * LD_LIBRARY_PATH then /usr/lib64:/usr/lib; any other name on PATH.
     */
    static Path resolveBinary(String file) throws BpfObjectException {
        if (file.contains("/")) {
            return Path.of(file);
        }
        String search = file.contains(".so")
                ? System.getenv().getOrDefault("LD_LIBRARY_PATH", "") + ":/usr/lib64:/usr/lib"
                : System.getenv().getOrDefault("PATH", "");
        for (String dir : search.split(":")) {
            if (!dir.isEmpty() && Files.isRegularFile(Path.of(dir, file))) {
                return Path.of(dir, file);
            }
        }
        throw new BpfObjectException("uprobe binary '" + file + "' not found on " + (file.contains(".so") ? "LD_LIBRARY_PATH"
                : "PATH"), Errno.ENOENT);
    }

    /** elf_find_func_offset: a function symbol's address turned into a file offset through its section or segment. */
    static long functionFileOffset(Path binary, String function) throws IOException {
        ElfFile elf = ElfFile.open(binary);
        for (ElfSection s : elf.sections()) {
            if (s.type() != ElfSection.SHT_SYMTAB && s.type() != ElfSection.SHT_DYNSYM) {
                continue;
            }
            for (ElfSymbol sym : elf.symbols(s)) {
                if (sym.type() != ElfSymbol.STT_FUNC || sym.shndx() == 0 || !sym.name().equals(function)) {
                    continue;
                }
                for (ElfProgramHeader ph : elf.programHeaders()) {
                    if (ph.type() == ElfProgramHeader.PT_LOAD && ph.containsVaddr(sym.value())) {
                        return sym.value() - ph.vaddr() + ph.offset();
                    }
                }
                ElfSection in = elf.section(sym.shndx()).orElseThrow(() -> new IOException("symbol in no section"));
                return sym.value() - in.addr() + in.offset();
            }
        }
        throw new IOException("no function '" + function + "'");
    }

    /** bpf_program__attach_perf_event: a BPF_PERF_EVENT link on the event, then the event enabled. */
    private static BpfLink onPerfEvent(BpfProgram p, int pfd, String what) throws BpfObjectException {
        int link = -1;
        try {
            link = new Bpf().linkCreate(p.fd(), pfd, Uapi.BPF_PERF_EVENT);
            Ioctl.enable(pfd);
        } catch (NativeException e) {
            if (link >= 0) {
                Fd.close(link); // created but the event would not enable: detach again
            }
            Fd.close(pfd);
            throw new BpfObjectException("prog '" + p.name() + "': failed to attach to " + what + ": "
                    + Errno.name(e.errno()) + ": " + Errno.text(e.errno()), e.errno());
        }
        return new BpfLink(what, link, pfd);
    }
}
