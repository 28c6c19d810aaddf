package dev.jperf.format.btf;

/** BTF_KIND_* numbers as in uapi linux/btf.h. */
public enum BtfKind {
    UNKN(0), INT(1), PTR(2), ARRAY(3), STRUCT(4), UNION(5), ENUM(6), FWD(7), TYPEDEF(8),
    VOLATILE(9), CONST(10), RESTRICT(11), FUNC(12), FUNC_PROTO(13), VAR(14), DATASEC(15),
    FLOAT(16), DECL_TAG(17), TYPE_TAG(18), ENUM64(19);

    private static final BtfKind[] BY_NUMBER = values();

    private final int number;

    BtfKind(int number) {
        this.number = number;
    }

    public int number() {
        return number;
    }

    /** The kind with this number, or null for a number this reader does not know. */
    public static BtfKind of(int number) {
        return number >= 0 && number < BY_NUMBER.length ? BY_NUMBER[number] : null;
    }
}
