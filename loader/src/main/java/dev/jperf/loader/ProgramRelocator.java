package dev.jperf.loader;

import dev.jperf.format.bpf.Uapi;
import dev.jperf.nativeshim.Errno;
import java.util.Comparator;
import java.util.List;

/**
 * The relocation step of a load (libbpf's bpf_object__relocate): CO-RE relocations of every
 * autoload (sub)program, then per main program its calls (each .text subprogram it calls
 * appended once, at its first call, with its relocations and func/line info) and its data
 * references (map fds, global data offsets, externs). A program that cannot be relocated is
 * refused with the reason; the others go on.
 */
final class ProgramRelocator {
    /** MAP_LDIMM64_POISON_BASE: what an ld_imm64 of a map that was not created calls. */
    static final int MAP_LDIMM64_POISON_BASE = 2001000000;

    private final BpfObject o;
    private final KernelBtf vmlinux;

    ProgramRelocator(BpfObject o, KernelBtf vmlinux) {
        this.o = o;
        this.vmlinux = vmlinux;
    }

    void relocate() {
        if (o.btfExt != null && !o.btfExt.coreRelo.isEmpty()) {
            relocateCore();
        }
        Comparator<Reloc> byInsn = Comparator.comparingInt(Reloc::insnIdx).thenComparing(Reloc::type);
        for (BpfProgram p : o.programs) {
            p.relocs.sort(byInsn);
            for (Reloc r : p.relocs) {
                if (r.type() == Reloc.Type.SUBPROG_ADDR) {
                    Insns.setSrc(p.insns, r.insnIdx(), Uapi.BPF_PSEUDO_FUNC);
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
                p.refuse(e.getMessage(), e.errno);
            }
        }
        for (BpfProgram p : o.programs) {
            if (o.isSubprog(p) || !p.autoload || p.error != null) {
                continue;
            }
            relocateData(p);
        }
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
                    p.refuse(e.getMessage(), e.errno);
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
                m.refuse(why, errno);
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
                        + relo.type(), Errno.EINVAL);
            }
            long subInsnIdx;
            int imm = Insns.imm(main.insns, at);
            if (relo != null) {
                subInsnIdx = relo.type() == Reloc.Type.CALL ? relo.symOff() / 8 + imm + 1 : (relo.symOff() + imm) / 8;
            } else if (Insns.isPseudoFunc(main.insns, at)) {
                throw new RelocException("prog '" + prog.name + "': missing subprog addr relo for insn #" + insnIdx,
                        Errno.EINVAL);
            } else {
                subInsnIdx = (long) prog.secInsnOff + insnIdx + imm + 1;
            }
            BpfProgram sub = subInsnIdx >= 0 && subInsnIdx <= Integer.MAX_VALUE ? o.findProg(o.textShndx, (int) subInsnIdx) : null;
            if (sub == null) {
                throw new RelocException("prog '" + prog.name + "': no .text section found yet sub-program call exists",
                        Errno.EINVAL);
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
                    throw new RelocException("prog '" + prog.name + "': missing .BTF.ext function info", Errno.ENOENT);
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
                    throw new RelocException("prog '" + prog.name + "': missing .BTF.ext line info", Errno.ENOENT);
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
                        Insns.setSrc(in, i, Uapi.BPF_PSEUDO_MAP_FD);
                        Insns.setImm(in, i, m.fd);
                    } else {
                        poisonMapLdimm64(in, i, r.mapIdx());
                    }
                }
                case DATA -> {
                    BpfMap m = o.maps.get(r.mapIdx());
                    Insns.setImm(in, i + 1, Insns.imm(in, i) + r.symOff());
                    if (m.fd >= 0) {
                        Insns.setSrc(in, i, Uapi.BPF_PSEUDO_MAP_VALUE);
                        Insns.setImm(in, i, m.fd);
                    } else {
                        poisonMapLdimm64(in, i, r.mapIdx());
                    }
                }
                case EXTERN_VAR -> {
                    Extern e = o.externs.get(r.symOff());
                    if (e.type == Extern.Type.KCFG) {
                        Insns.setSrc(in, i, Uapi.BPF_PSEUDO_MAP_VALUE);
                        Insns.setImm(in, i, o.maps.get(o.kconfigMapIdx).fd);
                        Insns.setImm(in, i + 1, e.kcfgDataOff);
                    } else if (e.ksymTypeId != 0 && e.set) {
                        Insns.setSrc(in, i, Uapi.BPF_PSEUDO_BTF_ID);
                        Insns.setImm(in, i, e.kernelBtfId);
                        Insns.setImm(in, i + 1, 0);
                    } else {
                        Insns.setImm(in, i, (int) e.ksymAddr);
                        Insns.setImm(in, i + 1, (int) (e.ksymAddr >>> 32));
                    }
                }
                case EXTERN_FUNC -> {
                    Extern e = o.externs.get(r.symOff());
                    Insns.setSrc(in, i, Uapi.BPF_PSEUDO_KFUNC_CALL);
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

}
