package dev.jperf.report.symbol;

/**
 * Rust symbols as libiberty's rust-demangle.c prints them (perf and c++filt try it before the C++
 * demangler): legacy {@code _ZN...17h<hash>E} (hash shown only when verbose, {@code $LT$}-style
 * escapes decoded) and v0 {@code _R...} (paths, generics, types, consts, backrefs, punycode;
 * crate disambiguators shown only when verbose). One instance per symbol.
 */
final class RustDemangler {
    private static final int MAX_RECURSION = 500;
    private static final int MAX_OUTPUT = 1 << 18;
    private static final int MAX_STEPS = 1 << 20;

    private final String sym;
    private final int symStart;
    private int symLen;
    private final boolean verbose;
    private final boolean legacy;
    private int next;
    private boolean errored;
    private boolean skipping;
    private int recursion;
    private int steps;
    private long boundLifetimeDepth;
    private final StringBuilder out = new StringBuilder();

    private RustDemangler(String sym, int start, boolean legacy, boolean verbose) {
        this.sym = sym;
        this.symStart = start;
        this.legacy = legacy;
        this.verbose = verbose;
    }

    /** The demangled text, or null when {@code s} is not a Rust symbol. */
    static String demangle(String s, boolean verbose) {
        RustDemangler r;
        if (s.startsWith("_R")) {
            r = new RustDemangler(s, 2, false, verbose);
        } else if (s.startsWith("_ZN")) {
            r = new RustDemangler(s, 3, true, verbose);
        } else {
            return null;
        }
        try {
            return r.run() ? r.out.toString() : null;
        } catch (StackOverflowError e) {
            return null;
        }
    }

    private char at(int i) {
        return i < symLen ? sym.charAt(symStart + i) : '\0';
    }

    private static boolean isAlnum(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private boolean run() {
        if (!legacy && !(sym.length() > symStart && Character.isUpperCase(sym.charAt(symStart))
                && sym.charAt(symStart) < 128)) {
            return false;
        }
        if (legacy && sym.indexOf("17h", symStart) < 0) {
            // most _ZN names are C++: without the hash segment they are not Rust
            return false;
        }
        for (int p = symStart; p < sym.length(); p++) {
            char c = sym.charAt(p);
            if (!legacy && c == '.') {
                break;
            }
            symLen++;
            if (c == '_' || isAlnum(c)) {
                continue;
            }
            if (legacy && (c == '$' || c == '.' || c == ':')) {
                continue;
            }
            return false;
        }
        if (legacy) {
            return runLegacy();
        }
        demanglePath(true);
        if (!errored && next < symLen) {
            skipping = true;
            demanglePath(false);
        }
        return !errored && next == symLen;
    }

    private boolean runLegacy() {
        // a .suffix after the final E is ignored
        boolean dotSuffix = true;
        while (symLen > 0 && !(dotSuffix && at(symLen - 1) == 'E')) {
            dotSuffix = at(symLen - 1) == '.';
            symLen--;
        }
        if (!(symLen > 0 && at(symLen - 1) == 'E')) {
            return false;
        }
        symLen--;
        if (!(symLen > 19 && at(symLen - 19) == '1' && at(symLen - 18) == '7' && at(symLen - 17) == 'h')) {
            return false;
        }
        int[] ident;
        do {
            ident = parseIdent();
            if (errored || ident[1] == 0) {
                return false;
            }
        } while (next < symLen);
        if (!isLegacyPrefixedHash(ident)) {
            return false;
        }
        next = 0;
        if (!verbose) {
            symLen -= 19;
        }
        do {
            if (next > 0) {
                print("::");
            }
            printLegacyIdent(parseIdent());
        } while (next < symLen && !errored);
        return !errored;
    }

    private boolean isLegacyPrefixedHash(int[] ident) {
        if (ident[1] != 17 || at(ident[0]) != 'h') {
            return false;
        }
        int seen = 0;
        for (int i = 0; i < 16; i++) {
            int nibble = lowerHex(at(ident[0] + 1 + i));
            if (nibble < 0) {
                return false;
            }
            seen |= 1 << nibble;
        }
        return Integer.bitCount(seen) >= 5;
    }

    private static int lowerHex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return 10 + c - 'a';
        }
        return -1;
    }

    private char nextChar() {
        if (next >= symLen) {
            errored = true;
            return '\0';
        }
        return at(next++);
    }

    private boolean eat(char c) {
        if (at(next) == c && next < symLen) {
            next++;
            return true;
        }
        return false;
    }

    /** {start, asciiLen, punycodeStart, punycodeLen} of an identifier (offsets into the symbol). */
    private int[] parseIdent() {
        boolean punycode = !legacy && eat('u');
        char c = nextChar();
        if (c < '0' || c > '9') {
            errored = true;
            return new int[4];
        }
        long len = c - '0';
        if (c != '0') {
            while (at(next) >= '0' && at(next) <= '9' && next < symLen) {
                len = len * 10 + (nextChar() - '0');
                if (len > symLen) {
                    errored = true;
                    return new int[4];
                }
            }
        }
        if (!legacy) {
            eat('_');
        }
        int start = next;
        if (start + len > symLen) {
            errored = true;
            return new int[4];
        }
        next += (int) len;
        int[] ident = {start, (int) len, 0, 0};
        if (punycode) {
            int asciiLen = (int) len;
            int pLen = 0;
            while (asciiLen > 0) {
                asciiLen--;
                if (at(start + asciiLen) == '_') {
                    break;
                }
                pLen++;
            }
            if (pLen == 0) {
                errored = true;
                return ident;
            }
            ident[1] = asciiLen;
            ident[2] = start + (int) len - pLen;
            ident[3] = pLen;
        }
        return ident;
    }

    private void print(String s) {
        if (errored || skipping) {
            return;
        }
        if (out.length() + s.length() > MAX_OUTPUT) {
            errored = true;
            return;
        }
        out.append(s);
    }

    private String text(int start, int len) {
        return sym.substring(symStart + start, symStart + start + len);
    }

    private void printLegacyIdent(int[] ident) {
        if (errored || skipping) {
            return;
        }
        int p = ident[0];
        int len = ident[1];
        if (len >= 2 && at(p) == '_' && at(p + 1) == '$') {
            p++;
            len--;
        }
        while (len > 0) {
            int used;
            if (at(p) == '$') {
                char c = legacyEscape(p, len);
                if (c == 0) {
                    print(text(p, len));
                    return;
                }
                print(String.valueOf(c));
                used = escapeLen;
            } else if (at(p) == '.') {
                if (len >= 2 && at(p + 1) == '.') {
                    print("::");
                    used = 2;
                } else {
                    print(".");
                    used = 1;
                }
            } else {
                used = 0;
                while (used < len && at(p + used) != '$' && at(p + used) != '.') {
                    used++;
                }
                print(text(p, used));
            }
            p += used;
            len -= used;
        }
    }

    private int escapeLen;

    private char legacyEscape(int p, int len) {
        if (len < 3 || at(p) != '$') {
            return 0;
        }
        p++;
        len--;
        char c = 0;
        int el;
        char a = at(p);
        char b = at(p + 1);
        if (a == 'C') {
            el = 1;
            c = ',';
        } else if (len > 2) {
            el = 2;
            if (a == 'S' && b == 'P') {
                c = '@';
            } else if (a == 'B' && b == 'P') {
                c = '*';
            } else if (a == 'R' && b == 'F') {
                c = '&';
            } else if (a == 'L' && b == 'T') {
                c = '<';
            } else if (a == 'G' && b == 'T') {
                c = '>';
            } else if (a == 'L' && b == 'P') {
                c = '(';
            } else if (a == 'R' && b == 'P') {
                c = ')';
            } else if (a == 'u' && len > 3) {
                el = 3;
                int hi = lowerHex(at(p + 1));
                int lo = lowerHex(at(p + 2));
                if (hi < 0 || lo < 0 || hi > 7) {
                    return 0;
                }
                c = (char) (hi << 4 | lo);
                if (c < 0x20) {
                    return 0;
                }
            }
        } else {
            return 0;
        }
        if (c == 0 || len <= el || at(p + el) != '$') {
            return 0;
        }
        escapeLen = 2 + el;
        return c;
    }

    // ---- v0 ----

    private boolean enter() {
        // backrefs may be followed many times: bound the total work as well as the depth
        if (++recursion > MAX_RECURSION || ++steps > MAX_STEPS) {
            errored = true;
            return false;
        }
        return true;
    }

    private long parseInteger62() {
        if (eat('_')) {
            return 0;
        }
        long x = 0;
        while (!eat('_') && !errored) {
            char c = nextChar();
            x *= 62;
            if (c >= '0' && c <= '9') {
                x += c - '0';
            } else if (c >= 'a' && c <= 'z') {
                x += 10 + (c - 'a');
            } else if (c >= 'A' && c <= 'Z') {
                x += 36 + (c - 'A');
            } else {
                errored = true;
                return 0;
            }
        }
        return x + 1;
    }

    private long parseOptInteger62(char tag) {
        if (!eat(tag)) {
            return 0;
        }
        return 1 + parseInteger62();
    }

    /** A backref target as a position, or -1 (errored) when it does not point backwards into the symbol. */
    private int backref() {
        long b = parseInteger62();
        if (errored || b < 0 || b >= next - 1) {
            errored = true;
            return -1;
        }
        return (int) b;
    }

    private void printIdent(int[] ident) {
        if (errored || skipping) {
            return;
        }
        if (ident[3] == 0) {
            print(text(ident[0], ident[1]));
            return;
        }
        String decoded = punycode(text(ident[0], ident[1]), text(ident[2], ident[3]));
        if (decoded == null) {
            errored = true;
            return;
        }
        print(decoded);
    }

    /** RFC 3492 decoding with '_' as the delimiter, as rust-demangle does it. */
    private static String punycode(String ascii, String puny) {
        StringBuilder outCp = new StringBuilder();
        int[] cps = ascii.codePoints().toArray();
        java.util.List<Integer> list = new java.util.ArrayList<>();
        for (int c : cps) {
            list.add(c);
        }
        long n = 0x80;
        long i = 0;
        long bias = 72;
        int p = 0;
        while (p < puny.length()) {
            long oldI = i;
            long w = 1;
            for (long k = 36;; k += 36) {
                if (p >= puny.length()) {
                    return null;
                }
                char c = puny.charAt(p++);
                int d;
                if (c >= 'a' && c <= 'z') {
                    d = c - 'a';
                } else if (c >= '0' && c <= '9') {
                    d = 26 + c - '0';
                } else {
                    return null;
                }
                i += d * w;
                if (i > Integer.MAX_VALUE) {
                    return null;
                }
                long t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
                if (d < t) {
                    break;
                }
                w *= 36 - t;
                if (w > Integer.MAX_VALUE) {
                    return null;
                }
            }
            int len = list.size() + 1;
            long delta = i - oldI;
            delta = oldI == 0 ? delta / 700 : delta / 2;
            delta += delta / len;
            long k = 0;
            while (delta > ((36 - 1) * 26) / 2) {
                delta /= 36 - 1;
                k += 36;
            }
            bias = k + (36 * delta) / (delta + 38);
            n += i / len;
            i %= len;
            if (n > 0x10FFFF || list.size() > 1024) {
                return null;
            }
            list.add((int) i, (int) n);
            i++;
        }
        for (int c : list) {
            outCp.appendCodePoint(c);
        }
        return outCp.toString();
    }

    private void demanglePath(boolean inValue) {
        if (errored) {
            return;
        }
        if (!enter()) {
            return;
        }
        char tag = nextChar();
        switch (tag) {
            case 'C' -> {
                long dis = parseOptInteger62('s');
                int[] name = parseIdent();
                printIdent(name);
                if (verbose) {
                    print("[");
                    print(Long.toHexString(dis));
                    print("]");
                }
            }
            case 'N' -> {
                char ns = nextChar();
                if (!Character.isLetter(ns) || ns >= 128) {
                    errored = true;
                    break;
                }
                demanglePath(inValue);
                long dis = parseOptInteger62('s');
                int[] name = parseIdent();
                boolean named = name[1] > 0 || name[3] > 0;
                if (ns >= 'A' && ns <= 'Z') {
                    print("::{");
                    print(ns == 'C' ? "closure" : ns == 'S' ? "shim" : String.valueOf(ns));
                    if (named) {
                        print(":");
                        printIdent(name);
                    }
                    print("#");
                    print(Long.toUnsignedString(dis));
                    print("}");
                } else if (named) {
                    print("::");
                    printIdent(name);
                }
            }
            case 'M', 'X', 'Y' -> {
                if (tag != 'Y') {
                    parseOptInteger62('s');
                    boolean was = skipping;
                    skipping = true;
                    demanglePath(inValue);
                    skipping = was;
                }
                print("<");
                demangleType();
                if (tag != 'M') {
                    print(" as ");
                    demanglePath(false);
                }
                print(">");
            }
            case 'I' -> {
                demanglePath(inValue);
                if (inValue) {
                    print("::");
                }
                print("<");
                for (int i = 0; !errored && !eat('E'); i++) {
                    if (i > 0) {
                        print(", ");
                    }
                    demangleGenericArg();
                }
                print(">");
            }
            case 'B' -> {
                int b = backref();
                if (!errored && !skipping) {
                    int old = next;
                    next = b;
                    demanglePath(inValue);
                    next = old;
                }
            }
            default -> errored = true;
        }
        recursion--;
    }

    private void demangleGenericArg() {
        if (eat('L')) {
            printLifetime(parseInteger62());
        } else if (eat('K')) {
            demangleConst();
        } else {
            demangleType();
        }
    }

    private void printLifetime(long lt) {
        print("'");
        if (lt == 0) {
            print("_");
            return;
        }
        long depth = boundLifetimeDepth - lt;
        if (depth >= 0 && depth < 26) {
            print(String.valueOf((char) ('a' + depth)));
        } else {
            print("_");
            print(Long.toUnsignedString(depth));
        }
    }

    private static String basicType(char tag) {
        return switch (tag) {
            case 'b' -> "bool";
            case 'c' -> "char";
            case 'e' -> "str";
            case 'u' -> "()";
            case 'a' -> "i8";
            case 's' -> "i16";
            case 'l' -> "i32";
            case 'x' -> "i64";
            case 'n' -> "i128";
            case 'i' -> "isize";
            case 'h' -> "u8";
            case 't' -> "u16";
            case 'm' -> "u32";
            case 'y' -> "u64";
            case 'o' -> "u128";
            case 'j' -> "usize";
            case 'f' -> "f32";
            case 'd' -> "f64";
            case 'z' -> "!";
            case 'p' -> "_";
            default -> null;
        };
    }

    private void demangleType() {
        if (errored) {
            return;
        }
        if (!enter()) {
            return;
        }
        char tag = nextChar();
        String basic = basicType(tag);
        if (basic != null) {
            print(basic);
            recursion--;
            return;
        }
        switch (tag) {
            case 'R', 'Q' -> {
                print("&");
                if (eat('L')) {
                    long lt = parseInteger62();
                    if (lt != 0) {
                        printLifetime(lt);
                        print(" ");
                    }
                }
                if (tag != 'R') {
                    print("mut ");
                }
                demangleType();
            }
            case 'P', 'O' -> {
                print(tag != 'P' ? "*mut " : "*const ");
                demangleType();
            }
            case 'A', 'S' -> {
                print("[");
                demangleType();
                if (tag == 'A') {
                    print("; ");
                    demangleConst();
                }
                print("]");
            }
            case 'T' -> {
                print("(");
                int i;
                for (i = 0; !errored && !eat('E'); i++) {
                    if (i > 0) {
                        print(", ");
                    }
                    demangleType();
                }
                if (i == 1) {
                    print(",");
                }
                print(")");
            }
            case 'F' -> {
                long old = boundLifetimeDepth;
                demangleBinder();
                if (eat('U')) {
                    print("unsafe ");
                }
                if (eat('K')) {
                    String abi;
                    if (eat('C')) {
                        abi = "C";
                    } else {
                        int[] id = parseIdent();
                        if (errored || id[1] == 0 || id[3] != 0) {
                            errored = true;
                            boundLifetimeDepth = old;
                            break;
                        }
                        abi = text(id[0], id[1]).replace('_', '-');
                    }
                    print("extern \"");
                    print(abi);
                    print("\" ");
                }
                print("fn(");
                for (int i = 0; !errored && !eat('E'); i++) {
                    if (i > 0) {
                        print(", ");
                    }
                    demangleType();
                }
                print(")");
                if (!eat('u')) {
                    print(" -> ");
                    demangleType();
                }
                boundLifetimeDepth = old;
            }
            case 'D' -> {
                print("dyn ");
                long old = boundLifetimeDepth;
                demangleBinder();
                for (int i = 0; !errored && !eat('E'); i++) {
                    if (i > 0) {
                        print(" + ");
                    }
                    demangleDynTrait();
                }
                boundLifetimeDepth = old;
                if (!eat('L')) {
                    errored = true;
                    break;
                }
                long lt = parseInteger62();
                if (lt != 0) {
                    print(" + ");
                    printLifetime(lt);
                }
            }
            case 'B' -> {
                int b = backref();
                if (!errored && !skipping) {
                    int old = next;
                    next = b;
                    demangleType();
                    next = old;
                }
            }
            default -> {
                next--;
                demanglePath(false);
            }
        }
        recursion--;
    }

    private void demangleBinder() {
        if (errored) {
            return;
        }
        long bound = parseOptInteger62('G');
        if (bound > 0) {
            if (bound > symLen) {
                errored = true;
                return;
            }
            print("for<");
            for (long i = 0; i < bound; i++) {
                if (i > 0) {
                    print(", ");
                }
                boundLifetimeDepth++;
                printLifetime(1);
            }
            print("> ");
        }
    }

    private void demangleDynTrait() {
        if (errored) {
            return;
        }
        boolean open = demanglePathMaybeOpenGenerics();
        while (eat('p')) {
            print(open ? ", " : "<");
            open = true;
            printIdent(parseIdent());
            print(" = ");
            demangleType();
        }
        if (open) {
            print(">");
        }
    }

    private boolean demanglePathMaybeOpenGenerics() {
        boolean open = false;
        if (errored || !enter()) {
            return false;
        }
        if (eat('B')) {
            int b = backref();
            if (!errored && !skipping) {
                int old = next;
                next = b;
                open = demanglePathMaybeOpenGenerics();
                next = old;
            }
        } else if (eat('I')) {
            demanglePath(false);
            print("<");
            open = true;
            for (int i = 0; !errored && !eat('E'); i++) {
                if (i > 0) {
                    print(", ");
                }
                demangleGenericArg();
            }
        } else {
            demanglePath(false);
        }
        recursion--;
        return open;
    }

    private void demangleConst() {
        if (errored || !enter()) {
            return;
        }
        if (eat('B')) {
            int b = backref();
            if (!errored && !skipping) {
                int old = next;
                next = b;
                demangleConst();
                next = old;
            }
            recursion--;
            return;
        }
        char ty = nextChar();
        switch (ty) {
            case 'p' -> {
                print("_");
                recursion--;
                return;
            }
            case 'h', 't', 'm', 'y', 'o', 'j' -> constUint();
            case 'a', 's', 'l', 'x', 'n', 'i' -> {
                if (eat('n')) {
                    print("-");
                }
                constUint();
            }
            case 'b' -> {
                long[] v = new long[1];
                if (hexNibbles(v) != 1 || v[0] > 1) {
                    errored = true;
                } else {
                    print(v[0] == 0 ? "false" : "true");
                }
            }
            case 'c' -> {
                long[] v = new long[1];
                int len = hexNibbles(v);
                if (len == 0 || len > 8) {
                    errored = true;
                } else {
                    print("'");
                    long c = v[0];
                    if (c == '\t') {
                        print("\\t");
                    } else if (c == '\r') {
                        print("\\r");
                    } else if (c == '\n') {
                        print("\\n");
                    } else if (c > ' ' && c < '~') {
                        print(String.valueOf((char) c));
                    } else {
                        print("\\u{");
                        print(Long.toHexString(c));
                        print("}");
                    }
                    print("'");
                }
            }
            default -> errored = true;
        }
        if (!errored && verbose) {
            print(": ");
            print(basicType(ty));
        }
        recursion--;
    }

    private void constUint() {
        long[] v = new long[1];
        int len = hexNibbles(v);
        if (len > 16) {
            print("0x");
            // as rust-demangle.c: from one digit late, up to and including the '_'
            print(text(next - len, len));
        } else if (len > 0) {
            print(Long.toUnsignedString(v[0]));
        } else {
            errored = true;
        }
    }

    private int hexNibbles(long[] value) {
        value[0] = 0;
        int len = 0;
        while (!eat('_')) {
            value[0] <<= 4;
            int nibble = lowerHex(nextChar());
            if (nibble < 0) {
                errored = true;
                return 0;
            }
            value[0] |= nibble;
            len++;
        }
        return len;
    }
}
