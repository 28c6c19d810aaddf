package dev.jperf.loader;

import com.sun.jna.Memory;
import dev.jperf.format.btf.Btf;
import dev.jperf.format.header.SystemCpus;
import dev.jperf.format.btf.BtfKind;
import dev.jperf.format.btf.BtfType;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.format.bpf.Uapi;
import dev.jperf.nativeshim.BpfProgLoadAttr;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import java.io.IOException;

/**
 * The load phase of one object, in libbpf 1.1's order (bpf_object_load): kernel BTF when needed,
 * externs, BTF_LOAD, MAP_CREATE (internal maps filled and .rodata/.kconfig frozen), relocations
 * (CO-RE, subprogram calls with .text appended as each main program first calls it, data), then
 * PROG_LOAD of each autoload program. Holds every fd it opened until {@link #close}.
 */
final class ObjectLoader {
    /** BPF_LOG_BUF_SIZE: libbpf's first verifier log buffer (UINT32_MAX >> 8). */
    static final int BPF_LOG_BUF_SIZE = (int) (0xffffffffL >>> 8);
    /**
     * The largest verifier log asked for: 64 MiB (libbpf stops doubling at UINT_MAX / 2, but the log
     * becomes one Java string, and its last lines are what a user reads).
     */
    static final long MAX_LOG_BUF_SIZE = 64L << 20;
    /** The most BTF of a target program read (a program's own BTF is small; this bounds a hostile size). */
    static final long MAX_PROG_BTF_SIZE = 64L << 20;

    private final BpfObject o;
    private final LoadOptions options;
    private final Bpf bpf = new Bpf();
    private final Probes probes = new Probes(bpf);
    private KernelBtf vmlinux;
    private int btfFd = -1;

    ObjectLoader(BpfObject o, LoadOptions options) {
        this.o = o;
        this.options = options;
    }

    void load() throws BpfObjectException {
        boolean ok = false;
        try {
            if (needsVmlinux()) {
                vmlinux = KernelBtf.load(options.kernelBtf());
            }
            resolveExterns();
            loadBtf();
            createMaps();
            new ProgramRelocator(o, vmlinux).relocate();
            loadPrograms();
            if (allLoaded()) {
                for (BpfMap m : o.maps) {
                    if (m.type == Uapi.BPF_MAP_TYPE_PROG_ARRAY && m.initSlots.length > 0) {
                        initSlots(m); // as libbpf: after the programs load; a slot's program not loaded fails the load
                    }
                }
            }
            ok = true;
        } catch (dev.jperf.format.btf.BtfException | IndexOutOfBoundsException | ClassCastException
                | IllegalArgumentException e) {
            // hostile BTF or instructions the open phase could not see through
            throw new BpfObjectException(o.path + ": malformed object at load (" + e.getMessage() + ")", Errno.EINVAL);
        } finally {
            if (!ok) {
                close();
            }
        }
    }

    private boolean needsVmlinux() {
        if (o.btfExt != null && !o.btfExt.coreRelo.isEmpty()) {
            return true;
        }
        for (Extern e : o.externs) {
            if (e.type == Extern.Type.KSYM && e.ksymTypeId != 0) {
                return true;
            }
        }
        for (BpfProgram p : o.programs) {
            if (!p.autoload || p.progType() < 0) {
                continue;
            }
            int t = p.progType();
            if (t == Uapi.BPF_PROG_TYPE_STRUCT_OPS || t == Uapi.BPF_PROG_TYPE_LSM || t == Uapi.BPF_PROG_TYPE_TRACING) {
                return true;
            }
        }
        return false;
    }

    // ---- externs ----

    /** A func ksym's prototype against the kernel's, as libbpf checks it (BTF it cannot follow: not compatible). */
    private static boolean protoCompatible(Btf lb, int lproto, Btf kb, int kproto) {
        try {
            return CoreMatch.typesAreCompat(lb, lproto, kb, kproto, 32);
        } catch (CoreError e) {
            return false;
        }
    }

    private void resolveExterns() throws BpfObjectException {
        if (o.externs.isEmpty()) {
            return;
        }
        byte[] kcfg = o.kconfigMapIdx >= 0 ? o.maps.get(o.kconfigMapIdx).data : new byte[0];
        Kconfig.resolve(o.path, o.externs, kcfg, probes);
        for (Extern e : o.externs) {
            if (e.type != Extern.Type.KSYM) {
                continue;
            }
            if (e.ksymTypeId != 0) {
                int id = vmlinux.findByNameKind(e.name, e.isFunc ? BtfKind.FUNC : BtfKind.VAR);
                if (id > 0 && e.isFunc) {
                    int kproto = ((BtfType.Func) vmlinux.btf.type(id)).type();
                    int lproto = e.ksymTypeId;
                    if (!protoCompatible(o.btf.btf(), lproto, vmlinux.btf, kproto)) {
                        throw new BpfObjectException(o.path + ": extern (func ksym) '" + e.name
                                + "': func_proto doesn't match the kernel's", Errno.EINVAL);
                    }
                }
                if (id > 0) {
                    e.kernelBtfId = id;
                    e.set = true;
                } else if (!e.weak) {
                    throw new BpfObjectException(o.path + ": extern (" + (e.isFunc ? "func" : "var") + " ksym) '" + e.name
                            + "': not found in kernel BTF", Errno.ESRCH);
                }
            } else {
                long addr = probes.kallsyms().addressOf(e.name);
                if (addr != 0) {
                    e.kernelBtfId = 0;
                    e.set = true;
                    e.ksymAddr = addr;
                } else if (!e.weak) {
                    throw new BpfObjectException(o.path + ": extern (ksym) '" + e.name + "': not found in /proc/kallsyms",
                            Errno.ESRCH);
                }
            }
        }
    }

    // ---- BTF ----

    private void loadBtf() {
        if (o.btf == null) {
            return;
        }
        Btf b = o.btf.btf();
        // hidden global subprograms: their FUNC made static, for the verifier's more permissive mode
        for (BpfProgram p : o.programs) {
            if (!p.markBtfStatic || !o.isSubprog(p)) {
                continue;
            }
            for (int id = 1; id <= b.lastId(); id++) {
                if (b.kind(id) == BtfKind.FUNC && ((BtfType.Func) b.type(id)).linkage() == BtfTypes.BTF_FUNC_GLOBAL
                        && b.name(id).equals(p.name)) {
                    o.btf.setInfo(id, BtfKind.FUNC.number(), BtfTypes.BTF_FUNC_STATIC, false);
                    break;
                }
            }
        }
        byte[] blob = o.btf.bytes();
        int fd = bpf.btfLoad(blob, null);
        if (fd < 0) {
            // as libbpf: BTF the kernel refuses is optional; programs and maps load without it.
            // Asked again with a log, for the warning's reason.
            Memory log = new Memory(1 << 16);
            int again = bpf.btfLoad(blob, log);
            if (again >= 0) {
                fd = again;
            } else {
                String last = lastLine(log.getString(0, "UTF-8"));
                o.warnings.add("the kernel refused the object's BTF (" + errnoText(-again) + (last.isEmpty() ? "" : ": " + last)
                        + "); loading without it: no func/line info, maps without key/value types");
            }
        }
        btfFd = fd >= 0 ? fd : -1;
    }

    // ---- maps ----

    private void createMaps() throws BpfObjectException {
        for (BpfMap m : o.maps) {
            if (m.reused) {
                continue;
            }
            if (m.type == Uapi.BPF_MAP_TYPE_PERF_EVENT_ARRAY && m.maxEntries == 0) {
                m.maxEntries = possibleCpus();
            }
            int keyId = m.btfKeyTypeId;
            int valueId = m.btfValueTypeId;
            int fdBtf = btfFd >= 0 ? btfFd : 0;
            if (btfFd < 0) {
                // no BTF in the kernel: the map is created without types, and says so
                m.btfKeyTypeId = 0;
                m.btfValueTypeId = 0;
                keyId = 0;
                valueId = 0;
            }
            switch (m.type) {
                case Uapi.BPF_MAP_TYPE_PERF_EVENT_ARRAY, Uapi.BPF_MAP_TYPE_CGROUP_ARRAY, Uapi.BPF_MAP_TYPE_STACK_TRACE,
                        Uapi.BPF_MAP_TYPE_ARRAY_OF_MAPS, Uapi.BPF_MAP_TYPE_HASH_OF_MAPS, Uapi.BPF_MAP_TYPE_DEVMAP,
                        Uapi.BPF_MAP_TYPE_DEVMAP_HASH, Uapi.BPF_MAP_TYPE_CPUMAP, Uapi.BPF_MAP_TYPE_XSKMAP,
                        Uapi.BPF_MAP_TYPE_SOCKMAP, Uapi.BPF_MAP_TYPE_SOCKHASH, Uapi.BPF_MAP_TYPE_QUEUE,
                        Uapi.BPF_MAP_TYPE_STACK -> {
                    fdBtf = 0;
                    keyId = 0;
                    valueId = 0;
                    m.btfKeyTypeId = 0;
                    m.btfValueTypeId = 0;
                }
                default -> {
                }
            }
            int innerFd = 0;
            if (m.inner != null) {
                BpfMap in = m.inner;
                int inBtf = btfFd >= 0 && (in.btfKeyTypeId != 0 || in.btfValueTypeId != 0) ? btfFd : 0;
                innerFd = bpf.mapCreate(in.type, in.name, in.keySize, in.valueSize, in.maxEntries, in.flags, 0, inBtf,
                        inBtf != 0 ? in.btfKeyTypeId : 0, inBtf != 0 ? in.btfValueTypeId : 0, in.mapExtra);
                if (innerFd < 0 && inBtf != 0) {
                    innerFd = bpf.mapCreate(in.type, in.name, in.keySize, in.valueSize, in.maxEntries, in.flags, 0, 0, 0, 0,
                            in.mapExtra);
                }
                if (innerFd < 0) {
                    throw new BpfObjectException(o.path + ": map '" + m.name + "': failed to create inner map: "
                            + errnoText(-innerFd), -innerFd);
                }
            }
            int fd = bpf.mapCreate(m.type, m.name, m.keySize, m.valueSize, m.maxEntries, m.flags, innerFd, fdBtf, keyId,
                    valueId, m.mapExtra);
            if (fd < 0 && (keyId != 0 || valueId != 0)) {
                m.btfKeyTypeId = 0;
                m.btfValueTypeId = 0;
                fd = bpf.mapCreate(m.type, m.name, m.keySize, m.valueSize, m.maxEntries, m.flags, innerFd, 0, 0, 0,
                        m.mapExtra);
            }
            if (innerFd > 0) {
                Fd.close(innerFd); // the inner map was only the outer one's template
            }
            if (fd < 0) {
                throw new BpfObjectException(o.path + ": map '" + m.name + "': failed to create: " + errnoText(-fd), -fd);
            }
            m.fd = fd;
            if (m.initSlots.length > 0 && m.type != Uapi.BPF_MAP_TYPE_PROG_ARRAY) {
                initSlots(m);
            }
            if (m.internal != BpfMap.Internal.NONE) {
                int err = bpf.mapUpdateElem(fd, new byte[4], m.data);
                if (err < 0) {
                    throw new BpfObjectException(o.path + ": map '" + m.name + "': error setting initial map contents: "
                            + errnoText(-err), -err);
                }
                if (m.internal == BpfMap.Internal.RODATA || m.internal == BpfMap.Internal.KCONFIG) {
                    err = bpf.mapFreeze(fd);
                    if (err < 0) {
                        throw new BpfObjectException(o.path + ": map '" + m.name + "': error freezing map as read-only: "
                                + errnoText(-err), -err);
                    }
                }
            }
        }
    }

    /** init_map_in_map_slots / init_prog_array_slots: slot i holds the fd of the map or program the definition names. */
    private void initSlots(BpfMap m) throws BpfObjectException {
        for (int i = 0; i < m.initSlots.length; i++) {
            Object t = m.initSlots[i];
            if (t == null) {
                continue;
            }
            int fd = t instanceof BpfMap tm ? tm.fd : ((BpfProgram) t).fd;
            String name = t instanceof BpfMap tm ? "map '" + tm.name + "'" : "prog '" + ((BpfProgram) t).name + "'";
            byte[] key = {(byte) i, (byte) (i >> 8), (byte) (i >> 16), (byte) (i >> 24)};
            byte[] value = {(byte) fd, (byte) (fd >> 8), (byte) (fd >> 16), (byte) (fd >> 24)};
            int err = bpf.mapUpdateElem(m.fd, key, value);
            if (err < 0) {
                throw new BpfObjectException(o.path + ": map '" + m.name + "': failed to initialize slot [" + i + "] to "
                        + name + " fd=" + fd + ": " + errnoText(-err), -err);
            }
        }
    }

    /** libbpf_num_possible_cpus (format's {@link SystemCpus#possibleCount}); the JVM's count when sysfs cannot tell. */
    static int possibleCpus() {
        try {
            return SystemCpus.possibleCount();
        } catch (IOException | IllegalArgumentException e) {
            return Runtime.getRuntime().availableProcessors();
        }
    }

    /** "EPERM: Operation not permitted", libbpf's errno text with the errno's name first. */
    static String errnoText(int errno) {
        return Errno.name(errno) + ": " + Errno.text(errno);
    }

    // ---- PROG_LOAD ----

    /** Whether every autoload program loaded (libbpf's load stops at the first that does not). */
    private boolean allLoaded() {
        for (BpfProgram p : o.programs) {
            if (!o.isSubprog(p) && p.autoload && p.fd < 0) {
                return false;
            }
        }
        return true;
    }

    private void loadPrograms() {
        for (BpfProgram p : o.programs) {
            if (o.isSubprog(p) || !p.autoload || p.error != null) {
                continue;
            }
            loadProgram(p);
        }
    }

    private void loadProgram(BpfProgram p) {
        String where = "prog '" + p.name + "' (section '" + p.sectionName + "'): ";
        if (p.progType() < 0) {
            p.refuse(where + "missing BPF prog type, check ELF section name '" + p.sectionName + "'", Errno.EINVAL);
            return;
        }
        int secFlags = p.def == null ? 0 : p.def.flags();
        int progFlags = 0;
        if ((secFlags & SectionDef.SEC_SLEEPABLE) != 0) {
            progFlags |= SectionDef.BPF_F_SLEEPABLE;
        }
        if (p.progType() == Uapi.BPF_PROG_TYPE_XDP && (secFlags & SectionDef.SEC_XDP_FRAGS) != 0) {
            progFlags |= SectionDef.BPF_F_XDP_HAS_FRAGS;
        }
        if ((secFlags & SectionDef.SEC_ATTACH_BTF) != 0) {
            String target = SectionDef.target(p.sectionName);
            if (target == null) {
                p.refuse(where + "no BTF-based attach target is specified", Errno.EINVAL);
                return;
            }
            if (p.progType() == Uapi.BPF_PROG_TYPE_EXT && p.attachProgFd == 0) {
                p.refuse(where + "attach program FD is not set", Errno.EINVAL);
                return;
            }
            int id = p.attachProgFd != 0 ? findProgBtfId(p.attachProgFd, p.attachFunc)
                    : findAttachBtfId(target, p.expectedAttachType());
            if (id <= 0 && p.attachProgFd != 0) {
                p.refuse(where + "failed to find BTF of '" + p.attachFunc + "' in the target program: "
                        + errnoText(Errno.ESRCH), Errno.ESRCH);
                return;
            }
            if (id <= 0) {
                p.refuse(where + "failed to find kernel BTF type ID of '" + target + "': " + errnoText(Errno.ESRCH),
                        Errno.ESRCH);
                return;
            }
            p.attachBtfId = id;
        }
        boolean withBtf = btfFd >= 0;
        BpfProgLoadAttr attr = new BpfProgLoadAttr(p.progType(), p.expectedAttachType(), p.insns, o.license,
                o.kernVersion(), progFlags, p.name, withBtf ? btfFd : 0, withBtf ? p.funcInfo : null,
                p.funcInfoRecSize, withBtf ? p.lineInfo : null, p.lineInfoRecSize, p.attachBtfId, p.attachProgFd);
        int fd = bpf.progLoad(attr, null, 0);
        if (fd < 0) {
            // as libbpf: the first load runs without a log; the retry asks the verifier why
            int logLevel = Math.max(1, options.logLevel());
            Memory log = new Memory(BPF_LOG_BUF_SIZE);
            fd = bpf.progLoad(attr, log, logLevel);
            // as libbpf: a log too long for the buffer (ENOSPC) is asked for again with twice the room
            while (fd == -Errno.ENOSPC && log.size() <= MAX_LOG_BUF_SIZE / 2) {
                log = new Memory(log.size() * 2);
                fd = bpf.progLoad(attr, log, logLevel);
            }
            if (fd < 0) {
                int errno = -fd;
                p.log = log.getString(0, "UTF-8");
                String last = lastLine(p.log);
                p.refuse(where + errnoText(errno) + (last.isEmpty() ? "" : ": " + last), errno);
                return;
            }
        }
        p.fd = fd;
        for (BpfMap m : o.maps) {
            if (m.internal == BpfMap.Internal.RODATA && m.fd >= 0) {
                bpf.progBindMap(fd, m.fd); // libbpf does not fail the load when binding fails
            }
        }
        p.id = BpfObjInfo.progInfo(bpf, fd, 0).id();
    }

    /** The verifier log's last non-empty line. */
    static String lastLine(String log) {
        String s = log.strip();
        return s.isEmpty() ? "" : s.substring(s.lastIndexOf('\n') + 1).strip();
    }

    /**
     * libbpf_find_prog_btf_id: the id of FUNC {@code name} in the BTF of the loaded program
     * {@code progFd}, or -1 (no BTF, no such function).
     */
    private int findProgBtfId(int progFd, String name) {
        int btfId = BpfObjInfo.progInfo(bpf, progFd, 0).btfId();
        if (btfId == 0) {
            return -1;
        }
        try {
            return Btf.parse(BpfObjInfo.btfBlob(bpf, btfId, MAX_PROG_BTF_SIZE)).findByName(name, BtfKind.FUNC);
        } catch (RuntimeException e) {
            return -1; // no such BTF object, an implausible size, or a BTF the format reader refuses: no function
        }
    }

    /** find_attach_btf_id in vmlinux: the prefix and kind by attach type (btf_get_kernel_prefix_kind). */
    private int findAttachBtfId(String name, int attachType) {
        String prefix = "";
        BtfKind kind = BtfKind.FUNC;
        if (attachType == Uapi.BPF_TRACE_RAW_TP) {
            prefix = "btf_trace_";
            kind = BtfKind.TYPEDEF;
        } else if (attachType == Uapi.BPF_LSM_MAC || attachType == Uapi.BPF_LSM_CGROUP) {
            prefix = "bpf_lsm_";
        } else if (attachType == Uapi.BPF_TRACE_ITER) {
            prefix = "bpf_iter_";
        }
        return vmlinux == null ? -1 : vmlinux.findByNameKind(prefix + name, kind);
    }

    void close() {
        for (BpfProgram p : o.programs) {
            if (p.fd >= 0) {
                Fd.close(p.fd);
                p.fd = -1;
            }
        }
        for (BpfMap m : o.maps) {
            m.unmap();
            if (m.fd >= 0) {
                if (!m.reused) {
                    Fd.close(m.fd);
                }
                m.fd = -1;
            }
        }
        if (btfFd >= 0) {
            Fd.close(btfFd);
            btfFd = -1;
        }
    }
}
