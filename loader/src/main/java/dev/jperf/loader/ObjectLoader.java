package dev.jperf.loader;

import com.sun.jna.Memory;
import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfKind;
import dev.jperf.format.btf.BtfType;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.BpfProgLoadAttr;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;

/**
 * The load phase of one object, in libbpf 1.1's order (bpf_object_load): kernel BTF when needed,
 * externs, BTF_LOAD, MAP_CREATE (internal maps filled and .rodata/.kconfig frozen), relocations
 * (CO-RE, subprogram calls with .text appended as each main program first calls it, data), then
 * PROG_LOAD of each autoload program. Holds every fd it opened until {@link #close}.
 */
final class ObjectLoader {
    /** BPF_LOG_BUF_SIZE: libbpf's first verifier log buffer (UINT32_MAX >> 8). */
    static final int BPF_LOG_BUF_SIZE = (int) (0xffffffffL >>> 8);
    /** The largest verifier log asked for (libbpf stops doubling at UINT_MAX / 2; a JVM heap is smaller). */
    static final long MAX_LOG_BUF_SIZE = 1L << 30;
    /** MAP_LDIMM64_POISON_BASE: what an ld_imm64 of a map that was not created calls. */
    static final int MAP_LDIMM64_POISON_BASE = 2001000000;

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
            relocate();
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
            throw new BpfObjectException(o.path + ": malformed object at load (" + e.getMessage() + ")", Errnos.EINVAL);
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
            if (!p.autoload || p.def == null) {
                continue;
            }
            int t = p.def.progType();
            if (t == Uapi.BPF_PROG_TYPE_STRUCT_OPS || t == Uapi.BPF_PROG_TYPE_LSM || t == Uapi.BPF_PROG_TYPE_TRACING) {
                return true;
            }
        }
        return false;
    }

    // ---- externs ----

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
                    if (CoreRelocator.typesAreCompat(o.btf.btf(), lproto, vmlinux.btf, kproto, 32) <= 0) {
                        throw new BpfObjectException(o.path + ": extern (func ksym) '" + e.name
                                + "': func_proto doesn't match the kernel's", Errnos.EINVAL);
                    }
                }
                if (id > 0) {
                    e.kernelBtfId = id;
                    e.set = true;
                } else if (!e.weak) {
                    throw new BpfObjectException(o.path + ": extern (" + (e.isFunc ? "func" : "var") + " ksym) '" + e.name
                            + "': not found in kernel BTF", Errnos.ESRCH);
                }
            } else {
                long addr = kallsymsAddress(e.name);
                if (addr != 0) {
                    e.kernelBtfId = 0;
                    e.set = true;
                    e.ksymAddr = addr;
                } else if (!e.weak) {
                    throw new BpfObjectException(o.path + ": extern (ksym) '" + e.name + "': not found in /proc/kallsyms",
                            Errnos.ESRCH);
                }
            }
        }
    }

    private static long kallsymsAddress(String sym) {
        try (var lines = Files.lines(Path.of("/proc/kallsyms"), StandardCharsets.UTF_8)) {
            for (String l : (Iterable<String>) lines::iterator) {
                int a = l.indexOf(' ');
                int b = l.indexOf(' ', a + 1);
                if (a > 0 && b > 0) {
                    int end = l.indexOf('\t', b + 1);
                    String name = end < 0 ? l.substring(b + 1) : l.substring(b + 1, end);
                    if (name.equals(sym)) {
                        return Long.parseUnsignedLong(l.substring(0, a), 16);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
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
        int fd = bpf.btfLoad(o.btf.bytes(), null);
        // as libbpf: BTF the kernel refuses is optional; programs and maps load without it
        btfFd = fd >= 0 ? fd : -1;
    }

    // ---- maps ----

    private void createMaps() throws BpfObjectException {
        for (BpfMap m : o.maps) {
            if (m.type == Uapi.BPF_MAP_TYPE_PERF_EVENT_ARRAY && m.maxEntries == 0) {
                m.maxEntries = possibleCpus();
            }
            int keyId = m.btfKeyTypeId;
            int valueId = m.btfValueTypeId;
            int fdBtf = btfFd >= 0 ? btfFd : 0;
            if (btfFd < 0) {
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

    /** libbpf_num_possible_cpus: the highest CPU of /sys/devices/system/cpu/possible, plus one. */
    static int possibleCpus() {
        try {
            String s = Files.readString(Path.of("/sys/devices/system/cpu/possible")).strip();
            int max = 0;
            for (String part : s.split(",")) {
                String[] r = part.split("-");
                max = Math.max(max, Integer.parseInt(r[r.length - 1].strip()));
            }
            return max + 1;
        } catch (IOException | RuntimeException e) {
            return Runtime.getRuntime().availableProcessors();
        }
    }

    /** "EPERM: Operation not permitted", libbpf's errno text with the errno's name first. */
    static String errnoText(int errno) {
        return Errno.name(errno) + ": " + Errno.text(errno);
    }

    // ---- relocation (bpf_object__relocate) ----

    private void relocate() {
        if (o.btfExt != null && !o.btfExt.coreRelo.isEmpty()) {
            relocateCore();
        }
        Comparator<Reloc> byInsn = Comparator.comparingInt(Reloc::insnIdx).thenComparing(Reloc::type);
        for (BpfProgram p : o.programs) {
            p.relocs.sort(byInsn);
            for (Reloc r : p.relocs) {
                if (r.type() == Reloc.Type.SUBPROG_ADDR) {
                    Insns.setSrc(p.insns, r.insnIdx(), Insns.BPF_PSEUDO_FUNC);
                }
            }
        }
        for (BpfProgram p : o.programs) {
            if (o.isSubprog(p) || !p.autoload || p.error != null) {
                continue;
            }
            try {
                for (BpfProgram s : o.programs) {
                    if (o.isSubprog(s)) {
                        s.subInsnOff = 0;
                    }
                }
                relocCode(p, p);
            } catch (RelocException e) {
                refuse(p, e.getMessage(), e.errno);
            }
        }
        for (BpfProgram p : o.programs) {
            if (o.isSubprog(p) || !p.autoload || p.error != null) {
                continue;
            }
            relocateData(p);
        }
    }

    private void refuse(BpfProgram p, String why, int errno) {
        p.error = why;
        p.errno = errno;
    }

    static final class RelocException extends Exception {
        final int errno;

        RelocException(String msg, int errno) {
            super(msg);
            this.errno = errno;
        }
    }

    private void relocateCore() {
        CoreRelocator core = new CoreRelocator(o.btf.btf(), vmlinux);
        for (BtfExt.Sec sec : o.btfExt.coreRelo) {
            String secName;
            try {
                secName = o.btf.btf().string(sec.sectionNameOff());
            } catch (RuntimeException e) {
                continue;
            }
            int secIdx = o.elf.section(secName).map(s -> s.index()).orElse(0);
            for (int i = 0; i < sec.count(); i++) {
                CoreRelo r = new CoreRelo(sec.u32(i, 0), sec.u32(i, 1), sec.u32(i, 2), sec.u32(i, 3));
                if (r.insnOff() % 8 != 0) {
                    continue;
                }
                int insnIdx = r.insnOff() / 8;
                BpfProgram p = o.findProg(secIdx, insnIdx);
                if (p == null || !p.autoload) {
                    continue;
                }
                int local = insnIdx - p.secInsnOff;
                p.relocs.add(new Reloc(Reloc.Type.CORE, local, -1, 0, r));
                if (p.error != null) {
                    continue;
                }
                try {
                    core.relocate(p.name, r, i, p.insns, local);
                } catch (CoreRelocator.CoreException e) {
                    refuse(p, e.getMessage(), e.errno);
                    failCallers(p, e.getMessage(), e.errno);
                }
            }
        }
    }

    /** A subprogram that cannot be relocated fails every program (libbpf fails the whole load). */
    private void failCallers(BpfProgram p, String why, int errno) {
        if (!o.isSubprog(p)) {
            return;
        }
        for (BpfProgram m : o.programs) {
            if (!o.isSubprog(m) && m.autoload && m.error == null) {
                refuse(m, why, errno);
            }
        }
    }

    private Reloc findRelo(BpfProgram p, int insnIdx) {
        for (Reloc r : p.relocs) {
            if (r.insnIdx() == insnIdx && r.type() != Reloc.Type.CORE) {
                return r;
            }
        }
        return null;
    }

    private void relocCode(BpfProgram main, BpfProgram prog) throws RelocException {
        relocFuncAndLineInfo(main, prog);
        for (int insnIdx = 0; insnIdx < prog.secInsnCnt; insnIdx++) {
            int at = prog.subInsnOff + insnIdx;
            if (!Insns.isSubprogCall(main.insns, at) && !Insns.isPseudoFunc(main.insns, at)) {
                continue;
            }
            Reloc relo = findRelo(prog, insnIdx);
            if (relo != null && relo.type() == Reloc.Type.EXTERN_FUNC) {
                continue;
            }
            if (relo != null && relo.type() != Reloc.Type.CALL && relo.type() != Reloc.Type.SUBPROG_ADDR) {
                throw new RelocException("prog '" + prog.name + "': unexpected relo for insn #" + insnIdx + ", type "
                        + relo.type(), Errnos.EINVAL);
            }
            long subInsnIdx;
            int imm = Insns.imm(main.insns, at);
            if (relo != null) {
                subInsnIdx = relo.type() == Reloc.Type.CALL ? relo.symOff() / 8 + imm + 1 : (relo.symOff() + imm) / 8;
            } else if (Insns.isPseudoFunc(main.insns, at)) {
                throw new RelocException("prog '" + prog.name + "': missing subprog addr relo for insn #" + insnIdx,
                        Errnos.EINVAL);
            } else {
                subInsnIdx = (long) prog.secInsnOff + insnIdx + imm + 1;
            }
            BpfProgram sub = subInsnIdx >= 0 && subInsnIdx <= Integer.MAX_VALUE ? o.findProg(o.textShndx, (int) subInsnIdx) : null;
            if (sub == null) {
                throw new RelocException("prog '" + prog.name + "': no .text section found yet sub-program call exists",
                        Errnos.EINVAL);
            }
            if (sub.subInsnOff == 0) {
                if (sub.error != null) {
                    throw new RelocException(sub.error, sub.errno);
                }
                sub.subInsnOff = main.insns.length / 8;
                byte[] grown = java.util.Arrays.copyOf(main.insns, main.insns.length + sub.insns.length);
                System.arraycopy(sub.insns, 0, grown, main.insns.length, sub.insns.length);
                main.insns = grown;
                if (main != sub) {
                    for (Reloc r : sub.relocs) {
                        main.relocs.add(r.shifted(sub.subInsnOff));
                    }
                }
                relocCode(main, sub);
            }
            Insns.setImm(main.insns, at, sub.subInsnOff - (prog.subInsnOff + insnIdx) - 1);
        }
    }

    // ---- .BTF.ext func_info / line_info (reloc_prog_func_and_line_info) ----

    private void relocFuncAndLineInfo(BpfProgram main, BpfProgram prog) throws RelocException {
        if (o.btfExt == null) {
            return;
        }
        if (main == prog || main.funcInfo != null) {
            byte[] add = adjustExtInfo(o.btfExt.funcInfo, prog);
            if (add == null) {
                if (main.funcInfo != null) {
                    throw new RelocException("prog '" + prog.name + "': missing .BTF.ext function info", Errnos.ENOENT);
                }
            } else {
                main.funcInfoRecSize = recSize(o.btfExt.funcInfo);
                main.funcInfo = concat(main.funcInfo, add);
            }
        }
        if (main == prog || main.lineInfo != null) {
            byte[] add = adjustExtInfo(o.btfExt.lineInfo, prog);
            if (add == null) {
                if (main.lineInfo != null) {
                    throw new RelocException("prog '" + prog.name + "': missing .BTF.ext line info", Errnos.ENOENT);
                }
            } else {
                main.lineInfoRecSize = recSize(o.btfExt.lineInfo);
                main.lineInfo = concat(main.lineInfo, add);
            }
        }
    }

    private static int recSize(List<BtfExt.Sec> secs) {
        return secs.isEmpty() ? 0 : secs.get(0).recSize();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        if (a == null) {
            return b;
        }
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** The records of {@code prog}'s instructions, insn_off turned into instructions of the main program; null if none. */
    private byte[] adjustExtInfo(List<BtfExt.Sec> secs, BpfProgram prog) {
        for (BtfExt.Sec sec : secs) {
            String name;
            try {
                name = o.btf.btf().string(sec.sectionNameOff());
            } catch (RuntimeException e) {
                continue;
            }
            if (name.isEmpty() || o.elf.section(name).map(s -> s.index()).orElse(-1) != prog.secIdx) {
                continue;
            }
            int first = -1;
            int last = -1;
            for (int i = 0; i < sec.count(); i++) {
                long insnOff = Integer.toUnsignedLong(sec.insnOff(i)) / 8;
                if (insnOff < prog.secInsnOff) {
                    continue;
                }
                if (insnOff >= prog.secInsnOff + prog.secInsnCnt) {
                    break;
                }
                if (first < 0) {
                    first = i;
                }
                last = i;
            }
            if (first < 0) {
                return null;
            }
            int rs = sec.recSize();
            byte[] out = java.util.Arrays.copyOfRange(sec.records(), first * rs, (last + 1) * rs);
            int adj = prog.subInsnOff - prog.secInsnOff;
            for (int p = 0; p < out.length; p += rs) {
                int off = (int) (Integer.toUnsignedLong(java.nio.ByteBuffer.wrap(out, p, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                        .getInt()) / 8) + adj;
                java.nio.ByteBuffer.wrap(out, p, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(off);
            }
            return out;
        }
        return null;
    }

    // ---- data relocations (bpf_object__relocate_data) ----

    private void relocateData(BpfProgram p) {
        byte[] in = p.insns;
        for (Reloc r : p.relocs) {
            int i = r.insnIdx();
            switch (r.type()) {
                case LD64 -> {
                    BpfMap m = o.maps.get(r.mapIdx());
                    if (m.fd >= 0) {
                        Insns.setSrc(in, i, Insns.BPF_PSEUDO_MAP_FD);
                        Insns.setImm(in, i, m.fd);
                    } else {
                        poisonMapLdimm64(in, i, r.mapIdx());
                    }
                }
                case DATA -> {
                    BpfMap m = o.maps.get(r.mapIdx());
                    Insns.setImm(in, i + 1, Insns.imm(in, i) + r.symOff());
                    if (m.fd >= 0) {
                        Insns.setSrc(in, i, Insns.BPF_PSEUDO_MAP_VALUE);
                        Insns.setImm(in, i, m.fd);
                    } else {
                        poisonMapLdimm64(in, i, r.mapIdx());
                    }
                }
                case EXTERN_VAR -> {
                    Extern e = o.externs.get(r.symOff());
                    if (e.type == Extern.Type.KCFG) {
                        Insns.setSrc(in, i, Insns.BPF_PSEUDO_MAP_VALUE);
                        Insns.setImm(in, i, o.maps.get(o.kconfigMapIdx).fd);
                        Insns.setImm(in, i + 1, e.kcfgDataOff);
                    } else if (e.ksymTypeId != 0 && e.set) {
                        Insns.setSrc(in, i, Insns.BPF_PSEUDO_BTF_ID);
                        Insns.setImm(in, i, e.kernelBtfId);
                        Insns.setImm(in, i + 1, 0);
                    } else {
                        Insns.setImm(in, i, (int) e.ksymAddr);
                        Insns.setImm(in, i + 1, (int) (e.ksymAddr >>> 32));
                    }
                }
                case EXTERN_FUNC -> {
                    Extern e = o.externs.get(r.symOff());
                    Insns.setSrc(in, i, Insns.BPF_PSEUDO_KFUNC_CALL);
                    Insns.setImm(in, i, e.set ? e.kernelBtfId : 0);
                    Insns.setOff(in, i, 0);
                }
                default -> {
                }
            }
        }
    }

    private static void poisonMapLdimm64(byte[] in, int i, int mapIdx) {
        Insns.setCall(in, i, MAP_LDIMM64_POISON_BASE + mapIdx);
        Insns.setCall(in, i + 1, MAP_LDIMM64_POISON_BASE + mapIdx);
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
        if (p.def == null) {
            refuse(p, where + "missing BPF prog type, check ELF section name '" + p.sectionName + "'", Errnos.EINVAL);
            return;
        }
        int progFlags = 0;
        if ((p.def.flags() & SectionDef.SEC_SLEEPABLE) != 0) {
            progFlags |= SectionDef.BPF_F_SLEEPABLE;
        }
        if (p.def.progType() == Uapi.BPF_PROG_TYPE_XDP && (p.def.flags() & SectionDef.SEC_XDP_FRAGS) != 0) {
            progFlags |= SectionDef.BPF_F_XDP_HAS_FRAGS;
        }
        if ((p.def.flags() & SectionDef.SEC_ATTACH_BTF) != 0) {
            String target = SectionDef.target(p.sectionName);
            if (target == null) {
                refuse(p, where + "no BTF-based attach target is specified", Errnos.EINVAL);
                return;
            }
            if (p.def.progType() == Uapi.BPF_PROG_TYPE_EXT) {
                refuse(p, where + "attach program FD is not set", Errnos.EINVAL);
                return;
            }
            int id = findAttachBtfId(target, p.def.expectedAttachType());
            if (id <= 0) {
                refuse(p, where + "failed to find kernel BTF type ID of '" + target + "': " + errnoText(Errnos.ESRCH),
                        Errnos.ESRCH);
                return;
            }
            p.attachBtfId = id;
        }
        boolean withBtf = btfFd >= 0;
        BpfProgLoadAttr attr = new BpfProgLoadAttr(p.def.progType(), p.def.expectedAttachType(), p.insns, o.license,
                o.kernVersion(), progFlags, p.name, withBtf ? btfFd : 0, withBtf ? p.funcInfo : null,
                p.funcInfoRecSize, withBtf ? p.lineInfo : null, p.lineInfoRecSize, p.attachBtfId, 0);
        int fd = bpf.progLoad(attr, null, 0);
        if (fd < 0) {
            // as libbpf: the first load runs without a log; the retry asks the verifier why
            int logLevel = Math.max(1, options.logLevel());
            Memory log = new Memory(BPF_LOG_BUF_SIZE);
            fd = bpf.progLoad(attr, log, logLevel);
            // as libbpf: a log too long for the buffer (ENOSPC) is asked for again with twice the room
            while (fd == -Errnos.ENOSPC && log.size() <= MAX_LOG_BUF_SIZE / 2) {
                log = new Memory(log.size() * 2);
                fd = bpf.progLoad(attr, log, logLevel);
            }
            if (fd < 0) {
                int errno = -fd;
                p.log = log.getString(0, "UTF-8");
                String last = lastLine(p.log);
                refuse(p, where + errnoText(errno) + (last.isEmpty() ? "" : ": " + last), errno);
                return;
            }
        }
        p.fd = fd;
        for (BpfMap m : o.maps) {
            if (m.internal == BpfMap.Internal.RODATA && m.fd >= 0) {
                bpf.progBindMap(fd, m.fd); // libbpf does not fail the load when binding fails
            }
        }
        p.id = ProgInfo.of(bpf, fd).id();
    }

    /** The verifier log's last non-empty line. */
    static String lastLine(String log) {
        String s = log.strip();
        return s.isEmpty() ? "" : s.substring(s.lastIndexOf('\n') + 1).strip();
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
            if (m.fd >= 0) {
                Fd.close(m.fd);
                m.fd = -1;
            }
        }
        if (btfFd >= 0) {
            Fd.close(btfFd);
            btfFd = -1;
        }
    }
}
