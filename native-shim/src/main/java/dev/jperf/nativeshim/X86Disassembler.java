package dev.jperf.nativeshim;

import java.util.Locale;
import java.util.Set;

/**
 * x86-64 instructions as GNU objdump prints them in AT&T syntax ({@code objdump -d}, which perf
 * annotate runs and bpftool's libbfd disassembler shares), decoded by {@link Capstone} and its text
 * rewritten into objdump's: the mnemonic padded to 6 and a space, operands joined by "," without
 * a space, immediates in hex (negative ones as the operand size's two's complement), the size
 * suffix only where no register operand implies the size, a zero displacement that is encoded
 * shown as {@code 0x0}, scale 1 shown, branch targets as {@code ADDR <sym+off>} and RIP-relative
 * operands followed by objdump's {@code # ADDR <sym+off>} comment. docs/DESIGN.md lists how
 * often the text equals objdump's on real binaries and what still differs.
 */
public final class X86Disassembler implements AutoCloseable {
    /** Names an address as objdump does after it: {@code <sym>} or {@code <sym+0x10>}, or null when no symbol covers it. */
    public interface Symbols {
        String name(long address);
    }

    /** One instruction as objdump prints it. */
    public interface Sink {
        /**
         * @param address where it is
         * @param size its length
         * @param text objdump's text: mnemonic, operands and comment (no address, no bytes)
         */
        void insn(long address, int size, String text);
    }

    // mnemonics whose AT&T size suffix objdump drops when an operand is a register
    private static final Set<String> SUFFIXED = Set.of("mov", "add", "sub", "xor", "and", "or", "cmp", "test", "lea",
            "imul", "mul", "div", "idiv", "neg", "not", "inc", "dec", "shl", "shr", "sar", "sal", "rol", "ror", "rcl",
            "rcr", "adc", "sbb", "xchg", "cmpxchg", "xadd", "bt", "bts", "btr", "btc", "bsf", "bsr", "lzcnt", "tzcnt",
            "popcnt", "movabs", "bswap", "shld", "shrd", "cvtsi2sd", "cvtsi2ss", "cmovb", "cmovae", "cmove", "cmovne",
            "cmovbe", "cmova", "cmovs", "cmovns", "cmovp", "cmovnp", "cmovl", "cmovge", "cmovle", "cmovg", "cmovo",
            "cmovno", "movnti", "andn", "blsr", "blsi", "blsmsk", "bzhi", "sarx", "shlx", "shrx", "pdep", "pext",
            "rorx", "crc32", "vcvtsi2sd", "vcvtsi2ss", "lock", "cvttsd2si", "cvttss2si", "cvtsd2si", "cvtss2si");
    // objdump never writes a suffix on these in 64-bit code
    private static final Set<String> NEVER_SUFFIXED = Set.of("call", "jmp", "ret", "push", "pop", "leave", "enter",
            "lret", "iret", "sysret", "cwtl", "cltq", "cqto", "cltd");

    private static final java.util.regex.Pattern X87_REG = java.util.regex.Pattern.compile("%st\\((\\d)\\)");
    private static final java.util.regex.Pattern X87_MASKED = java.util.regex.Pattern.compile("%st\\[(\\d)\\]");

    private final Capstone capstone;
    private final Symbols symbols;
    private final boolean genericAddresses;
    private final StringBuilder sb = new StringBuilder(96);

    /**
     * @param symbols how branch targets and RIP-relative addresses are named; null prints bare addresses
     */
    public X86Disassembler(Symbols symbols) {
        this(symbols, false);
    }

    /**
     * @param genericAddresses addresses as libopcodes' generic_print_address writes them when its
     *     user gives no printer (bpftool's jited dump): {@code 0x%016x}, no symbol
     */
    public X86Disassembler(Symbols symbols, boolean genericAddresses) {
        this.capstone = Capstone.x86_64();
        this.symbols = symbols;
        this.genericAddresses = genericAddresses;
    }

    /** Decodes {@code code[from, to)}, the first byte at {@code address}. */
    public void decode(byte[] code, int from, int to, long address, Sink sink) {
        capstone.decode(code, from, to, address, (addr, size, mnemonic, operands) -> {
            int at = from + (int) (addr - address);
            String t;
            try {
                t = text(code, at, size, addr, mnemonic, operands);
            } catch (RuntimeException e) {
                // an operand form the rewriting does not know: Capstone's own text rather than no listing
                t = operands.isEmpty() ? mnemonic : mnemonic + " " + operands;
            }
            sink.insn(addr, size, t);
        });
    }

    /** objdump's text of one instruction Capstone decoded as {@code mnemonic operands}. */
    String text(byte[] code, int at, int size, long addr, String mnemonic, String operands) {
        if ("(bad)".equals(mnemonic)) {
            return "(bad)";
        }
        // x87 stack registers %st(i): parentheses that are no memory operand, kept out of the rewriting
        String ops = X87_REG.matcher(operands.replace(", ", ",")).replaceAll("%st[$1]");
        String prefix = "";
        // capstone folds a segment override and padding 0x66 of the long NOPs into the operand
        if (ops.startsWith("%cs:") && mnemonic.startsWith("nop")) {
            ops = ops.substring(4);
            StringBuilder p = new StringBuilder();
            int i = at;
            int sixes = 0;
            while (i < at + size && (code[i] == 0x66 || code[i] == 0x2e)) {
                if (code[i] == 0x66) {
                    sixes++;
                }
                i++;
            }
            for (int k = 1; k < sixes; k++) {
                p.append("data16 ");
            }
            p.append("cs ");
            prefix = p.toString();
        }
        int op = opcode(code, at, size);
        int opByte = op < at + size ? code[op] & 0xff : -1;
        if (size == 2 && code[at] == 0x66 && opByte == 0x90) {
            return "xchg   %ax,%ax";
        }
        if (opByte >= 0xd8 && opByte <= 0xdf && op + 1 < at + size && (code[op + 1] & 0xc0) == 0xc0) {
            ops = x87Registers(opByte, code[op + 1] & 0xff, ops);
        }
        String m = mnemonic;
        if (opByte == 0xe8 && op > at) {
            // the TLS general-dynamic call's padding prefixes, which objdump names
            StringBuilder p = new StringBuilder();
            for (int i = at; i < op; i++) {
                int c = code[i] & 0xff;
                p.append(c == 0x66 ? "data16 " : (c & 0xf0) == 0x40 ? rex(c) : "");
            }
            prefix = p.toString();
        } else if (m.startsWith("lea") && code[at] == 0x66 && op > at + 1) {
            prefix = "data16 ";
        }
        if (m.startsWith("rep ") || m.startsWith("lock ") || m.startsWith("repne ") || m.startsWith("notrack ")
                || m.startsWith("bnd ")) {
            int sp = m.indexOf(' ');
            prefix = prefix + m.substring(0, sp + 1);
            m = m.substring(sp + 1);
        }
        boolean stringOp = isStringOp(m);
        if (stringOp) {
            ops = ops.replace("(%rdi)", "%es:(%rdi)").replace("%es:%es:", "%es:");
            if (m.startsWith("movs") || m.startsWith("cmps") || m.startsWith("lods") || m.startsWith("outs")) {
                ops = ops.replace("(%rsi)", "%ds:(%rsi)").replace("%ds:%ds:", "%ds:");
            }
        }
        boolean shift = m.startsWith("sh") || m.startsWith("sa") || m.startsWith("ro") || m.startsWith("rc");
        boolean hasGpr = hasRegister(shift ? ops.replace("%cl,", "") : ops);
        boolean hasMem = ops.indexOf('(') >= 0 || absolute(ops, m);
        if (m.equals("movd") && operandBits("l", ops) == 64) {
            m = "movq"; // objdump's name for the 64-bit form
        } else if (stringOp && hasGpr) {
            m = m.substring(0, 4);
        } else {
            m = suffix(m, hasGpr, hasMem);
        }
        if (m.equals("movabsq")) {
            m = "movabs";
        }
        int bits = m.startsWith("push") ? 64 : operandBits(m, ops);
        if ((opByte == 0x83 || opByte == 0x6b) && ops.startsWith("$")) {
            // a sign-extended imm8 (capstone prints some unextended)
            long imm = code[at + size - 1];
            int comma = ops.indexOf(',');
            ops = "$" + imm + ops.substring(comma);
        }
        ops = immediates(ops, bits);
        if ((opByte == 0xd0 || opByte == 0xd1) && ops.startsWith("$0x1,")) {
            ops = ops.substring(5); // shift by one: objdump writes no count
        }
        if (hasMem) {
            ops = memory(ops, code, at, size);
            if (ops.indexOf('(') < 0 || absolute(ops, m)) {
                ops = absoluteHex(ops);
            }
        }
        String comment = null;
        if (isBranch(m) && ops.startsWith("0x")) {
            long target = Long.parseUnsignedLong(ops.substring(2), 16);
            ops = address(target) + named(target);
        } else {
            int rip = ops.indexOf("(%rip)");
            if (rip >= 0) {
                String d = ops.substring(0, rip);
                int start = Math.max(Math.max(d.lastIndexOf(','), d.lastIndexOf('*')), d.lastIndexOf(':')) + 1;
                d = d.substring(start);
                long disp = d.isEmpty() ? 0 : parseSigned(d);
                long target = addr + size + disp;
                comment = "        # " + address(target) + named(target);
            }
        }
        sb.setLength(0);
        sb.append(prefix);
        sb.append(m);
        if (!ops.isEmpty()) {
            for (int i = prefix.length() + m.length(); i < 6; i++) {
                sb.append(' ');
            }
            sb.append(' ').append(ops);
        }
        if (comment != null) {
            sb.append(comment);
        }
        if (sb.indexOf("%st[") >= 0) {
            return X87_MASKED.matcher(sb).replaceAll("%st($1)");
        }
        return sb.toString();
    }

    /**
     * objdump's operands of an x87 register form ({@code %st[i]} masked): the implicit operand is
     * {@code %st}, the encoded one {@code %st(i)} even for 0; Capstone leaves the implicit one out of the two-operand forms
     * (arithmetic, fcmov, f(u)comi(p)); fcom/fcomp, ffreep and the DD group keep one operand.
     */
    private static String x87Registers(int opByte, int modrm, String ops) {
        boolean destFirst = opByte == 0xdc || opByte == 0xde; // %st(i) is the destination: %st comes first
        if (destFirst && ops.startsWith("%st[0],")) {
            return "%st," + ops.substring(7);
        }
        if (!destFirst && ops.endsWith(",%st[0]")) {
            return ops.substring(0, ops.length() - 7) + ",%st";
        }
        if (ops.indexOf(',') >= 0 || !ops.startsWith("%st")) {
            return ops;
        }
        int reg = (modrm >>> 3) & 7;
        switch (opByte) {
            case 0xd8:
                return reg == 2 || reg == 3 ? ops : ops + ",%st";
            case 0xdc:
            case 0xde:
                return reg == 2 || reg == 3 ? ops : "%st," + ops;
            case 0xda:
            case 0xdb:
                return ops + ",%st";
            case 0xdf:
                return reg == 5 || reg == 6 ? ops + ",%st" : ops;
            default:
                return ops;
        }
    }

    /** Whether an operand is a bare absolute address (a memory operand without registers). */
    private static boolean absolute(String ops, String m) {
        if (isBranch(m)) {
            return false;
        }
        for (String o : operands(ops)) {
            String t = o.startsWith("*") ? o.substring(1) : o;
            int colon = t.indexOf(':');
            if (colon >= 0) {
                t = t.substring(colon + 1);
            }
            if (!t.isEmpty() && (Character.isDigit(t.charAt(0)) || t.charAt(0) == '-')) {
                return true;
            }
        }
        return false;
    }

    /** The operands: split at the commas outside parentheses. */
    private static java.util.List<String> operands(String ops) {
        java.util.List<String> l = new java.util.ArrayList<>(3);
        int depth = 0;
        int start = 0;
        for (int i = 0; i < ops.length(); i++) {
            char c = ops.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                l.add(ops.substring(start, i));
                start = i + 1;
            }
        }
        l.add(ops.substring(start));
        return l;
    }

    /** Bare absolute addresses in objdump's hex. */
    private static String absoluteHex(String ops) {
        java.util.List<String> parts = operands(ops);
        StringBuilder b = new StringBuilder(ops.length() + 4);
        for (int k = 0; k < parts.size(); k++) {
            String o = parts.get(k);
            int colon = o.indexOf(':');
            String head = colon >= 0 ? o.substring(0, colon + 1) : o.startsWith("*") ? "*" : "";
            String t = o.substring(head.length());
            if (k > 0) {
                b.append(',');
            }
            b.append(head);
            if (!t.isEmpty() && !t.contains("(") && !t.startsWith("0x") && (Character.isDigit(t.charAt(0)) || t.charAt(0) == '-')) {
                long v = parseSigned(t);
                b.append("0x").append(Long.toHexString(v));
            } else {
                b.append(t);
            }
        }
        return b.toString();
    }

    private static String rex(int c) {
        StringBuilder b = new StringBuilder("rex");
        if ((c & 0xf) != 0) {
            b.append('.');
            b.append((c & 8) != 0 ? "W" : "").append((c & 4) != 0 ? "R" : "").append((c & 2) != 0 ? "X" : "")
                    .append((c & 1) != 0 ? "B" : "");
        }
        return b.append(' ').toString();
    }

    private static boolean isStringOp(String m) {
        if (m.length() != 5) {
            return false;
        }
        String b = m.substring(0, 4);
        char c = m.charAt(4);
        return (c == 'b' || c == 'w' || c == 'l' || c == 'q')
                && (b.equals("stos") || b.equals("lods") || b.equals("scas") || b.equals("movs") || b.equals("cmps"));
    }

    private String address(long a) {
        return genericAddresses ? String.format(Locale.ROOT, "0x%016x", a) : Long.toHexString(a);
    }

    private String named(long target) {
        String n = symbols == null ? null : symbols.name(target);
        return n == null ? "" : " " + n;
    }

    private static boolean isBranch(String m) {
        return m.startsWith("j") || m.equals("call") || m.startsWith("loop") || m.equals("xbegin");
    }

    private static String suffix(String m, boolean hasGpr, boolean hasMem) {
        int n = m.length();
        if (n < 2) {
            return m;
        }
        char c = m.charAt(n - 1);
        if (c != 'b' && c != 'w' && c != 'l' && c != 'q') {
            return m;
        }
        String base = m.substring(0, n - 1);
        if (NEVER_SUFFIXED.contains(base)) {
            return base;
        }
        if (SUFFIXED.contains(base) && (hasGpr || !hasMem)) {
            return base;
        }
        return m;
    }

    /** Whether an operand is a general-purpose register (it gives the size: no suffix). */
    private static boolean hasRegister(String ops) {
        int i = 0;
        int depth = 0;
        while (i < ops.length()) {
            char c = ops.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == '%' && depth == 0) {
                int e = i + 1;
                while (e < ops.length() && Character.isLetterOrDigit(ops.charAt(e))) {
                    e++;
                }
                String r = ops.substring(i + 1, e);
                if (e < ops.length() && ops.charAt(e) == ':') {
                    i = e;
                    continue; // a segment
                }
                if (!r.startsWith("xmm") && !r.startsWith("ymm") && !r.startsWith("zmm") && !r.startsWith("st")
                        && !r.startsWith("mm") && !r.startsWith("k")) {
                    return true;
                }
            }
            i++;
        }
        return false;
    }

    /** The operand size objdump sign-extends an immediate to: a register operand's, else the suffix's. */
    private static int operandBits(String m, String ops) {
        int depth = 0;
        for (int i = 0; i < ops.length(); i++) {
            char c = ops.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == '%' && depth == 0) {
                int e = i + 1;
                while (e < ops.length() && Character.isLetterOrDigit(ops.charAt(e))) {
                    e++;
                }
                if (e < ops.length() && ops.charAt(e) == ':') {
                    continue;
                }
                int bits = registerBits(ops.substring(i + 1, e));
                if (bits > 0) {
                    return bits;
                }
            }
        }
        char last = m.charAt(m.length() - 1);
        return last == 'q' ? 64 : last == 'w' ? 16 : last == 'b' ? 8 : 32;
    }

    /** A general-purpose register's width, 0 for any other register. */
    private static int registerBits(String r) {
        if (r.startsWith("r") && r.length() >= 2 && Character.isDigit(r.charAt(1))) {
            char last = r.charAt(r.length() - 1);
            return last == 'd' ? 32 : last == 'w' ? 16 : last == 'b' ? 8 : 64;
        }
        switch (r) {
            case "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rsp", "rbp":
                return 64;
            case "eax", "ebx", "ecx", "edx", "esi", "edi", "esp", "ebp":
                return 32;
            case "ax", "bx", "cx", "dx", "si", "di", "sp", "bp":
                return 16;
            case "al", "bl", "cl", "dl", "ah", "bh", "ch", "dh", "sil", "dil", "spl", "bpl":
                return 8;
            default:
                return 0;
        }
    }

    /** {@code $N} (decimal from Capstone below 10, or negative) as objdump's hex. */
    private static String immediates(String ops, int bits) {
        if (ops.indexOf('$') < 0) {
            return ops;
        }
        StringBuilder b = new StringBuilder(ops.length() + 8);
        int i = 0;
        while (i < ops.length()) {
            char c = ops.charAt(i);
            if (c == '$') {
                int e = i + 1;
                while (e < ops.length() && ops.charAt(e) != ',') {
                    e++;
                }
                long v = parseSigned(ops.substring(i + 1, e));
                if (bits < 64) {
                    v &= (1L << bits) - 1;
                }
                b.append("$0x").append(Long.toHexString(v));
                i = e;
            } else {
                b.append(c);
                i++;
            }
        }
        return b.toString();
    }

    /** Memory operands: objdump's explicit scale 1 and, where the encoding has one, the zero displacement. */
    private static String memory(String ops, byte[] code, int at, int size) {
        StringBuilder b = new StringBuilder(ops.length() + 8);
        int i = 0;
        while (i < ops.length()) {
            int open = ops.indexOf('(', i);
            if (open < 0) {
                b.append(ops, i, ops.length());
                break;
            }
            int close = ops.indexOf(')', open);
            if (close < 0) {
                b.append(ops, i, ops.length());
                break;
            }
            // what precedes the '(' in this operand: a displacement, or nothing
            int opStart = Math.max(Math.max(ops.lastIndexOf(',', open - 1), ops.lastIndexOf(':', open - 1)),
                    ops.lastIndexOf('*', open - 1)) + 1;
            if (opStart < i) {
                opStart = i;
            }
            String disp = ops.substring(opStart, open);
            b.append(ops, i, opStart);
            if (!disp.isEmpty() && !disp.contains("0x")) {
                long v = parseSigned(disp);
                disp = (v < 0 ? "-0x" + Long.toHexString(-v) : "0x" + Long.toHexString(v));
            }
            b.append(disp);
            String inside = ops.substring(open + 1, close);
            // no base register: the encoding always has a displacement
            if (opStart == open && !inside.equals("%rip") && (inside.startsWith(",") || hasDisplacement(code, at, size))) {
                b.append("0x0");
            }
            String[] parts = inside.split(",");
            b.append('(').append(inside);
            if (parts.length == 2) {
                b.append(",1");
            }
            b.append(')');
            i = close + 1;
        }
        return b.toString();
    }

    /** Where the instruction's opcode starts: after the legacy prefixes and REX. */
    private static int opcode(byte[] code, int at, int size) {
        int i = at;
        int end = at + size;
        while (i < end) {
            int c = code[i] & 0xff;
            if (c == 0x66 || c == 0x67 || c == 0xf2 || c == 0xf3 || c == 0x2e || c == 0x3e || c == 0x26
                    || c == 0x36 || c == 0x64 || c == 0x65 || c == 0xf0) {
                i++;
            } else {
                break;
            }
        }
        if (i < end && (code[i] & 0xf0) == 0x40) {
            i++;
        }
        return i;
    }

    /** Whether the ModRM byte says a displacement is encoded (mod 01 or 10). */
    private static boolean hasDisplacement(byte[] code, int at, int size) {
        int i = opcode(code, at, size);
        int end = at + size;
        if (i >= end) {
            return false;
        }
        int c = code[i] & 0xff;
        if (c == 0xc5) {
            i += 3;
        } else if (c == 0xc4) {
            i += 4; // the opcode map is in the prefix
        } else if (c == 0x62) {
            i += 5;
        } else if (c == 0x0f) {
            int c2 = i + 1 < end ? code[i + 1] & 0xff : 0;
            i += (c2 == 0x38 || c2 == 0x3a) ? 3 : 2;
        } else {
            i++;
        }
        if (i >= end) {
            return false;
        }
        int mod = (code[i] & 0xff) >>> 6;
        return mod == 1 || mod == 2;
    }

    private static long parseSigned(String s) {
        boolean neg = s.startsWith("-");
        String t = neg ? s.substring(1) : s;
        long v = t.startsWith("0x") ? Long.parseUnsignedLong(t.substring(2), 16) : Long.parseLong(t);
        return neg ? -v : v;
    }

    @Override
    public void close() {
        capstone.close();
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "X86Disassembler[%s]", Capstone.LIBRARY);
    }
}
