package dev.jperf.loader;

/**
 * An extern of the object (libbpf's struct extern_desc): a {@code .kconfig} variable (its offset
 * and size in the .kconfig map) or a {@code .ksyms} variable or function (resolved against
 * vmlinux BTF at load).
 */
final class Extern {
    enum Type { KCFG, KSYM }

    /** enum kcfg_type */
    enum KcfgType { UNKNOWN, CHAR, BOOL, INT, TRISTATE, CHAR_ARR }

    final String name;
    final Type type;
    final int symIdx;
    final int btfId;
    final boolean weak;
    // kcfg
    int kcfgSize;
    int kcfgAlign;
    KcfgType kcfgType;
    boolean kcfgSigned;
    int kcfgDataOff;
    // ksym: the local type behind the extern (0: typeless), and once resolved the kernel's id
    int ksymTypeId;
    boolean isFunc;
    int kernelBtfId;
    long ksymAddr;
    boolean set;

    Extern(String name, Type type, int symIdx, int btfId, boolean weak) {
        this.name = name;
        this.type = type;
        this.symIdx = symIdx;
        this.btfId = btfId;
        this.weak = weak;
    }
}
