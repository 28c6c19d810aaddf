package dev.jperf.loader;

import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.format.bpf.BpilArray;
import dev.jperf.nativeshim.Bpf;
import java.util.ArrayList;
import java.util.List;

/**
 * A program of a BPF object: an STT_FUNC symbol in an executable section. Programs in
 * {@code .text} are subprograms, appended to the programs that call them at load. Before load a
 * caller may set {@link #setAutoload}; after load {@link #fd()} / {@link #id()} name the kernel's
 * program, or {@link #error()} says why it was refused.
 */
public final class BpfProgram {
    final String name;
    final String sectionName;
    final int secIdx;
    final int secInsnOff;
    final int secInsnCnt;
    final SectionDef def;
    final boolean markBtfStatic;
    boolean autoload;
    /** The instructions; grows as subprograms are appended. */
    byte[] insns;
    List<Reloc> relocs = new ArrayList<>();
    /** Where this (sub)program's code starts in the main program being relocated. */
    int subInsnOff;
    byte[] funcInfo;
    int funcInfoRecSize;
    byte[] lineInfo;
    int lineInfoRecSize;
    int attachBtfId;
    /** bpf_program__set_attach_target's program: its fd (0: a kernel function) and function name. */
    int attachProgFd;
    String attachFunc;
    /** bpf_program__set_type / set_expected_attach_type: -1 while the section's definition decides. */
    int typeOverride = -1;
    int attachTypeOverride;
    int fd = -1;
    /** The object this program belongs to, set when the object is opened. */
    BpfObject owner;
    int id;
    String error;
    int errno;
    String log = "";

    BpfProgram(String name, String sectionName, int secIdx, int secInsnOff, byte[] insns, boolean autoload,
            boolean markBtfStatic) {
        this.name = name;
        this.sectionName = sectionName;
        this.secIdx = secIdx;
        this.secInsnOff = secInsnOff;
        this.secInsnCnt = insns.length / Insns.BPF_INSN_SZ;
        this.insns = insns;
        this.autoload = autoload;
        this.markBtfStatic = markBtfStatic;
        this.def = SectionDef.find(sectionName);
    }

    /** The function's name (what the kernel gets, cut to 15 characters). */
    public String name() {
        return name;
    }

    /** The ELF section name (without a leading '?'). */
    public String sectionName() {
        return sectionName;
    }

    /** libbpf's section definition for the section, null when it has none. */
    public SectionDef sectionDef() {
        return def;
    }

    /** Whether {@link BpfObject#load} loads it (a section starting with '?' says no). */
    public boolean autoload() {
        return autoload;
    }

    /** bpf_program__set_autoload: before load only. */
    public void setAutoload(boolean on) {
        configurable();
        autoload = on;
    }

    /**
     * bpf_program__set_attach_target: an fentry/fexit/freplace program traces {@code function} of
     * the loaded BPF program {@code progFd} (its BTF names the function) rather than a kernel
     * function; before load only. The caller keeps {@code progFd} open until the load is done.
     */
    public void setAttachTarget(int progFd, String function) {
        configurable();
        if (progFd <= 0 || function == null || function.isEmpty()) {
            throw new IllegalArgumentException("program '" + name + "': an attach target needs a program fd and a function");
        }
        attachProgFd = progFd;
        attachFunc = function;
    }

    /**
     * bpf_program__set_type and bpf_program__set_expected_attach_type (bpftool's {@code prog load
     * ... type T}): the program loads as {@code progType}, whatever its section says; the section's
     * flags (sleepable, BTF attach) still apply, as in libbpf 1.1. Before load only.
     */
    public void setType(int progType, int expectedAttachType) {
        configurable();
        typeOverride = progType;
        attachTypeOverride = expectedAttachType;
    }

    /** The type it loads as: the one set, else its section's (-1: neither). */
    int progType() {
        return typeOverride >= 0 ? typeOverride : def == null ? -1 : def.progType();
    }

    int expectedAttachType() {
        return typeOverride >= 0 ? attachTypeOverride : def == null ? 0 : def.expectedAttachType();
    }

    /** What the kernel holds of the loaded program: its bpf_prog_info with the xlated instructions. */
    public BpfProgInfo info() {
        if (fd < 0) {
            throw new IllegalStateException("program '" + name + "' is not loaded");
        }
        return BpfObjInfo.progInfo(new Bpf(), fd, BpilArray.XLATED_INSNS.mask());
    }

    /** The program's fd once loaded, else -1. */
    public int fd() {
        return fd;
    }

    /** The kernel's program id once loaded, else 0. */
    public int id() {
        return id;
    }

    /** Why the kernel (or the loader) refused the program, null when loaded or not tried. */
    public String error() {
        return error;
    }

    /** The errno of a refusal (positive), 0 otherwise. */
    public int errno() {
        return errno;
    }

    /** The verifier's log of a refused load (empty otherwise). */
    public String verifierLog() {
        return log;
    }

    void refuse(String why, int errno) {
        this.error = why;
        this.errno = errno;
    }

    boolean contains(int secIdx, int insnIdx) {
        return this.secIdx == secIdx && insnIdx >= secInsnOff && insnIdx < secInsnOff + secInsnCnt;
    }

    private void configurable() {
        if (owner != null) {
            owner.requireOpened("program '" + name + "'");
        }
    }
}
