package dev.jperf.format.btf;

import java.util.List;

/**
 * One decoded BTF type (struct btf_type plus its kind-specific trailing data). {@code id} is the
 * type id (1-based; 0 is void), {@code name} the resolved name ("" when anonymous).
 */
public sealed interface BtfType {
    int id();

    String name();

    BtfKind kind();

    /** INT: {@code encoding} holds BTF_INT_SIGNED (1), BTF_INT_CHAR (2), BTF_INT_BOOL (4). */
    record Int(int id, String name, int size, int encoding, int bitOffset, int bits) implements BtfType {
        public static final int SIGNED = 1;
        public static final int CHAR = 2;
        public static final int BOOL = 4;

        public BtfKind kind() {
            return BtfKind.INT;
        }
    }

    /** PTR, TYPEDEF, VOLATILE, CONST, RESTRICT, TYPE_TAG: a name (maybe empty) and the referenced type. */
    record Ref(int id, String name, BtfKind kind, int type) implements BtfType {
    }

    record Array(int id, String name, int elemType, int indexType, int nelems) implements BtfType {
        public BtfKind kind() {
            return BtfKind.ARRAY;
        }
    }

    /** A struct/union member; {@code bitOffset} and {@code bitfieldSize} already split for kind_flag types. */
    record Member(String name, int type, int bitOffset, int bitfieldSize) {
    }

    /** STRUCT or UNION. */
    record Composite(int id, String name, BtfKind kind, int size, List<Member> members) implements BtfType {
        public Composite {
            members = List.copyOf(members);
        }
    }

    record EnumValue(String name, long value) {
    }

    /** ENUM (values sign- or zero-extended per kind_flag) or ENUM64. */
    record Enum(int id, String name, BtfKind kind, int size, boolean signed, List<EnumValue> values) implements BtfType {
        public Enum {
            values = List.copyOf(values);
        }
    }

    /** FWD: {@code union} is the kind_flag (0 struct, 1 union). */
    record Fwd(int id, String name, boolean union) implements BtfType {
        public BtfKind kind() {
            return BtfKind.FWD;
        }
    }

    /** FUNC: linkage 0 static, 1 global, 2 extern (stored in vlen); {@code type} is a FUNC_PROTO. */
    record Func(int id, String name, int type, int linkage) implements BtfType {
        public BtfKind kind() {
            return BtfKind.FUNC;
        }
    }

    record Param(String name, int type) {
    }

    record FuncProto(int id, String name, int returnType, List<Param> params) implements BtfType {
        public FuncProto {
            params = List.copyOf(params);
        }

        public BtfKind kind() {
            return BtfKind.FUNC_PROTO;
        }
    }

    record Var(int id, String name, int type, int linkage) implements BtfType {
        public BtfKind kind() {
            return BtfKind.VAR;
        }
    }

    record VarSecInfo(int type, int offset, int size) {
    }

    record DataSec(int id, String name, int size, List<VarSecInfo> vars) implements BtfType {
        public DataSec {
            vars = List.copyOf(vars);
        }

        public BtfKind kind() {
            return BtfKind.DATASEC;
        }
    }

    record Float(int id, String name, int size) implements BtfType {
        public BtfKind kind() {
            return BtfKind.FLOAT;
        }
    }

    /** DECL_TAG: {@code componentIdx} -1 tags the type itself, else a member/param index. */
    record DeclTag(int id, String name, int type, int componentIdx) implements BtfType {
        public BtfKind kind() {
            return BtfKind.DECL_TAG;
        }
    }
}
