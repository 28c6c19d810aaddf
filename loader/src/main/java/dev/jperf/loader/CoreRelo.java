package dev.jperf.loader;

/** struct bpf_core_relo: a CO-RE relocation record of .BTF.ext (insn_off in bytes). */
record CoreRelo(int insnOff, int typeId, int accessStrOff, int kind) {
    // enum bpf_core_relo_kind
    static final int BPF_CORE_FIELD_BYTE_OFFSET = 0;
    static final int BPF_CORE_FIELD_BYTE_SIZE = 1;
    static final int BPF_CORE_FIELD_EXISTS = 2;
    static final int BPF_CORE_FIELD_SIGNED = 3;
    static final int BPF_CORE_FIELD_LSHIFT_U64 = 4;
    static final int BPF_CORE_FIELD_RSHIFT_U64 = 5;
    static final int BPF_CORE_TYPE_ID_LOCAL = 6;
    static final int BPF_CORE_TYPE_ID_TARGET = 7;
    static final int BPF_CORE_TYPE_EXISTS = 8;
    static final int BPF_CORE_TYPE_SIZE = 9;
    static final int BPF_CORE_ENUMVAL_EXISTS = 10;
    static final int BPF_CORE_ENUMVAL_VALUE = 11;
    static final int BPF_CORE_TYPE_MATCHES = 12;

    boolean fieldBased() {
        return fieldBased(kind);
    }

    boolean typeBased() {
        return typeBased(kind);
    }

    boolean enumvalBased() {
        return enumvalBased(kind);
    }

    static boolean fieldBased(int kind) {
        return kind >= BPF_CORE_FIELD_BYTE_OFFSET && kind <= BPF_CORE_FIELD_RSHIFT_U64;
    }

    static boolean typeBased(int kind) {
        return (kind >= BPF_CORE_TYPE_ID_LOCAL && kind <= BPF_CORE_TYPE_SIZE) || kind == BPF_CORE_TYPE_MATCHES;
    }

    static boolean enumvalBased(int kind) {
        return kind == BPF_CORE_ENUMVAL_EXISTS || kind == BPF_CORE_ENUMVAL_VALUE;
    }
}
