package dev.jperf.report.symbol;

/**
 * The Itanium C++ ABI demangler, following libiberty's cp-demangle.c (what perf and c++filt use)
 * so the text is the same: the name is parsed into a tree of components, then printed with a
 * stack of pending modifiers (pointers, references, cv-qualifiers, function and array types wrap
 * around the declarator) and template parameters resolved at print time against the enclosing
 * template. One instance per symbol; not thread-safe, not reused.
 *
 * <p>Hostile input: every failure is a {@link Fail} caught by {@link #demangle}; parse and print
 * depth, node count and output length are bounded, so nothing recurses or grows without limit.
 */
final class ItaniumDemangler {
    /** DMGL_PARAMS: print function parameters (and return types, clone suffixes). */
    static final int PARAMS = 1;
    /** DMGL_VERBOSE: full expansions of std:: abbreviations (Ss, So...). */
    static final int VERBOSE = 8;

    private static final int MAX_DEPTH = 1024;
    private static final int MAX_OUTPUT = 1 << 18;

    /** Thrown (without a stack trace) wherever cp-demangle returns NULL. */
    private static final class Fail extends RuntimeException {
        Fail() {
            super(null, null, false, false);
        }
    }

    private static final Fail FAIL = new Fail();

    // component types (demangle_component_type), only those this demangler builds
    private static final int NAME = 0, QUAL_NAME = 1, LOCAL_NAME = 2, TYPED_NAME = 3, TEMPLATE = 4,
            TEMPLATE_PARAM = 5, FUNCTION_PARAM = 6, CTOR = 7, DTOR = 8, VTABLE = 9, VTT = 10,
            CONSTRUCTION_VTABLE = 11, TYPEINFO = 12, TYPEINFO_NAME = 13, TYPEINFO_FN = 14, THUNK = 15,
            VIRTUAL_THUNK = 16, COVARIANT_THUNK = 17, JAVA_CLASS = 18, GUARD = 19, TLS_INIT = 20,
            TLS_WRAPPER = 21, REFTEMP = 22, HIDDEN_ALIAS = 23, TRANSACTION_CLONE = 24,
            NONTRANSACTION_CLONE = 25, SUB_STD = 26, RESTRICT = 27, VOLATILE = 28, CONST = 29,
            RESTRICT_THIS = 30, VOLATILE_THIS = 31, CONST_THIS = 32, REFERENCE_THIS = 33,
            RVALUE_REFERENCE_THIS = 34, TRANSACTION_SAFE = 35, NOEXCEPT = 36, THROW_SPEC = 37,
            VENDOR_TYPE_QUAL = 38, POINTER = 39, REFERENCE = 40, RVALUE_REFERENCE = 41, COMPLEX = 42,
            IMAGINARY = 43, BUILTIN_TYPE = 44, VENDOR_TYPE = 45, FUNCTION_TYPE = 46, ARRAY_TYPE = 47,
            PTRMEM_TYPE = 48, VECTOR_TYPE = 49, ARGLIST = 50, TEMPLATE_ARGLIST = 51,
            INITIALIZER_LIST = 52, OPERATOR = 53, EXTENDED_OPERATOR = 54, CAST = 55, CONVERSION = 56,
            NULLARY = 57, UNARY = 58, BINARY = 59, BINARY_ARGS = 60, TRINARY = 61, TRINARY_ARG1 = 62,
            TRINARY_ARG2 = 63, LITERAL = 64, LITERAL_NEG = 65, NUMBER = 66, DECLTYPE = 67,
            GLOBAL_CONSTRUCTORS = 68, GLOBAL_DESTRUCTORS = 69, LAMBDA = 70, DEFAULT_ARG = 71,
            UNNAMED_TYPE = 72, PACK_EXPANSION = 73, TAGGED_NAME = 74, CLONE = 75, TPARM_OBJ = 76,
            STRUCTURED_BINDING = 77;

    // builtin print kinds (d_builtin_type_print)
    private static final int P_DEFAULT = 0, P_INT = 1, P_UNSIGNED = 2, P_LONG = 3, P_UNSIGNED_LONG = 4,
            P_LONG_LONG = 5, P_UNSIGNED_LONG_LONG = 6, P_BOOL = 7, P_FLOAT = 8, P_VOID = 9;

    private record Builtin(String name, int print) {
    }

    /** cplus_demangle_builtin_types, indexed by letter - 'a' (26..: the D-prefixed ones). */
    private static final Builtin[] BUILTINS = {
        new Builtin("signed char", P_DEFAULT), new Builtin("bool", P_BOOL), new Builtin("char", P_DEFAULT),
        new Builtin("double", P_FLOAT), new Builtin("long double", P_FLOAT), new Builtin("float", P_FLOAT),
        new Builtin("__float128", P_FLOAT), new Builtin("unsigned char", P_DEFAULT), new Builtin("int", P_INT),
        new Builtin("unsigned int", P_UNSIGNED), null, new Builtin("long", P_LONG),
        new Builtin("unsigned long", P_UNSIGNED_LONG), new Builtin("__int128", P_DEFAULT),
        new Builtin("unsigned __int128", P_DEFAULT), null, null, null, new Builtin("short", P_DEFAULT),
        new Builtin("unsigned short", P_DEFAULT), null, new Builtin("void", P_VOID),
        new Builtin("wchar_t", P_DEFAULT), new Builtin("long long", P_LONG_LONG),
        new Builtin("unsigned long long", P_UNSIGNED_LONG_LONG), new Builtin("...", P_DEFAULT),
        new Builtin("decimal32", P_DEFAULT), new Builtin("decimal64", P_DEFAULT),
        new Builtin("decimal128", P_DEFAULT), new Builtin("half", P_FLOAT), new Builtin("char8_t", P_DEFAULT),
        new Builtin("char16_t", P_DEFAULT), new Builtin("char32_t", P_DEFAULT),
        new Builtin("decltype(nullptr)", P_DEFAULT),
    };

    private record Op(String code, String name, int args) {
    }

    /** cplus_demangle_operators, sorted by code for the binary search. */
    private static final Op[] OPS = {
        new Op("aN", "&=", 2), new Op("aS", "=", 2), new Op("aa", "&&", 2), new Op("ad", "&", 1),
        new Op("an", "&", 2), new Op("at", "alignof ", 1), new Op("aw", "co_await ", 1),
        new Op("az", "alignof ", 1), new Op("cc", "const_cast", 2), new Op("cl", "()", 2),
        new Op("cm", ",", 2), new Op("co", "~", 1), new Op("dV", "/=", 2), new Op("dX", "[...]=", 3),
        new Op("da", "delete[] ", 1), new Op("dc", "dynamic_cast", 2), new Op("de", "*", 1),
        new Op("di", "=", 2), new Op("dl", "delete ", 1), new Op("ds", ".*", 2), new Op("dt", ".", 2),
        new Op("dv", "/", 2), new Op("dx", "]=", 2), new Op("eO", "^=", 2), new Op("eo", "^", 2),
        new Op("eq", "==", 2), new Op("fL", "...", 3), new Op("fR", "...", 3), new Op("fl", "...", 2),
        new Op("fr", "...", 2), new Op("ge", ">=", 2), new Op("gs", "::", 1), new Op("gt", ">", 2),
        new Op("ix", "[]", 2), new Op("lS", "<<=", 2), new Op("le", "<=", 2),
        new Op("li", "operator\"\" ", 1), new Op("ls", "<<", 2), new Op("lt", "<", 2),
        new Op("mI", "-=", 2), new Op("mL", "*=", 2), new Op("mi", "-", 2), new Op("ml", "*", 2),
        new Op("mm", "--", 1), new Op("na", "new[]", 3), new Op("ne", "!=", 2), new Op("ng", "-", 1),
        new Op("nt", "!", 1), new Op("nw", "new", 3), new Op("nx", "noexcept", 1), new Op("oR", "|=", 2),
        new Op("oo", "||", 2), new Op("or", "|", 2), new Op("pL", "+=", 2), new Op("pl", "+", 2),
        new Op("pm", "->*", 2), new Op("pp", "++", 1), new Op("ps", "+", 1), new Op("pt", "->", 2),
        new Op("qu", "?", 3), new Op("rM", "%=", 2), new Op("rS", ">>=", 2),
        new Op("rc", "reinterpret_cast", 2), new Op("rm", "%", 2), new Op("rs", ">>", 2),
        new Op("sP", "sizeof...", 1), new Op("sZ", "sizeof...", 1), new Op("sc", "static_cast", 2),
        new Op("ss", "<=>", 2), new Op("st", "sizeof ", 1), new Op("sz", "sizeof ", 1),
        new Op("tr", "throw", 0), new Op("tw", "throw ", 1),
    };

    /** standard_subs: code, simple expansion, full expansion, name a ctor/dtor takes. */
    private static final String[][] STD_SUBS = {
        {"t", "std", "std", null},
        {"a", "std::allocator", "std::allocator", "allocator"},
        {"b", "std::basic_string", "std::basic_string", "basic_string"},
        {"s", "std::string", "std::basic_string<char, std::char_traits<char>, std::allocator<char> >", "basic_string"},
        {"i", "std::istream", "std::basic_istream<char, std::char_traits<char> >", "basic_istream"},
        {"o", "std::ostream", "std::basic_ostream<char, std::char_traits<char> >", "basic_ostream"},
        {"d", "std::iostream", "std::basic_iostream<char, std::char_traits<char> >", "basic_iostream"},
    };

    private static final class Node {
        int type;
        Node left;
        Node right;
        String s;
        int num;
        Op op;
        Builtin builtin;
        int printing;

        Node(int type) {
            this.type = type;
        }
    }

    private final String in;
    private final int options;
    private int pos;
    private Node[] subs;
    private int nsubs;
    private int nodes;
    private Node lastName;
    private boolean isExpression;
    private boolean isConversion;
    private int depth;
    private int unresolvedNameState;

    private ItaniumDemangler(String in, int options) {
        this.in = in;
        this.options = options;
        this.subs = new Node[Math.min(16, in.length() + 1)];
    }

    /** The demangled text, or null when {@code s} is not a mangled name this demangler reads. */
    static String demangle(String s, int options) {
        String r = demangle(s, options, 1);
        return r != RETRY ? r : demangle(s, options, 0);
    }

    private static final String RETRY = new String("retry");

    private static String demangle(String s, int options, int unresolvedNameState) {
        ItaniumDemangler d = new ItaniumDemangler(s, options);
        d.unresolvedNameState = unresolvedNameState;
        try {
            Node dc = d.top();
            if (dc != null) {
                Printer p = new Printer(options);
                p.comp(dc);
                return p.out.toString();
            }
        } catch (Fail | StackOverflowError e) {
            // not demangled (or retried below)
        }
        return d.unresolvedNameState < 0 ? RETRY : null;
    }

    private Node top() {
        Node dc;
        if (in.startsWith("_Z")) {
            dc = mangledName(true);
        } else if (in.startsWith("_GLOBAL_") && in.length() > 10 && ".$_".indexOf(in.charAt(8)) >= 0
                && (in.charAt(9) == 'D' || in.charAt(9) == 'I') && in.charAt(10) == '_') {
            boolean ctors = in.charAt(9) == 'I';
            pos = 11;
            Node inner;
            if (peek() == '_' && peekNext() == 'Z') {
                pos += 2;
                inner = encoding(false);
            } else {
                inner = name(in.substring(pos));
            }
            pos = in.length();
            dc = comp(ctors ? GLOBAL_CONSTRUCTORS : GLOBAL_DESTRUCTORS, inner, null);
        } else {
            return null;
        }
        if ((options & PARAMS) != 0 && pos < in.length()) {
            return null;
        }
        return dc;
    }

    // ---- input ----

    private char peek() {
        return pos < in.length() ? in.charAt(pos) : '\0';
    }

    private char peekNext() {
        return pos + 1 < in.length() ? in.charAt(pos + 1) : '\0';
    }

    private char next() {
        if (pos >= in.length()) {
            return '\0';
        }
        return in.charAt(pos++);
    }

    private boolean check(char c) {
        if (peek() != c || c == '\0') {
            return false;
        }
        pos++;
        return true;
    }

    private void expect(char c) {
        if (!check(c)) {
            throw FAIL;
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isUpper(char c) {
        return c >= 'A' && c <= 'Z';
    }

    private static boolean isLower(char c) {
        return c >= 'a' && c <= 'z';
    }

    private void enter() {
        if (++depth > MAX_DEPTH) {
            throw FAIL;
        }
    }

    // ---- node construction (d_make_*) ----

    private Node node(int type) {
        if (++nodes > 2 * in.length() + 16) {
            throw FAIL;
        }
        return new Node(type);
    }

    private Node comp(int type, Node left, Node right) {
        switch (type) {
            case QUAL_NAME, LOCAL_NAME, TYPED_NAME, TAGGED_NAME, TEMPLATE, CONSTRUCTION_VTABLE,
                    VENDOR_TYPE_QUAL, PTRMEM_TYPE, UNARY, BINARY, BINARY_ARGS, TRINARY, TRINARY_ARG1,
                    LITERAL, LITERAL_NEG, VECTOR_TYPE, CLONE -> {
                if (left == null || right == null) {
                    throw FAIL;
                }
            }
            case ARRAY_TYPE, INITIALIZER_LIST -> {
                if (right == null) {
                    throw FAIL;
                }
            }
            case FUNCTION_TYPE, RESTRICT, VOLATILE, CONST, ARGLIST, TEMPLATE_ARGLIST, RESTRICT_THIS,
                    VOLATILE_THIS, CONST_THIS, REFERENCE_THIS, RVALUE_REFERENCE_THIS, TRANSACTION_SAFE,
                    NOEXCEPT, THROW_SPEC -> {
                // filled in later or legitimately empty
            }
            default -> {
                if (left == null) {
                    throw FAIL;
                }
            }
        }
        Node n = node(type);
        n.left = left;
        n.right = right;
        return n;
    }

    private Node name(String s) {
        Node n = node(NAME);
        n.s = s;
        return n;
    }

    private Node sub(String s) {
        Node n = node(SUB_STD);
        n.s = s;
        return n;
    }

    private Node number(int type, int num) {
        Node n = node(type);
        n.num = num;
        return n;
    }

    private void addSubstitution(Node n) {
        if (n == null || nsubs >= in.length()) {
            throw FAIL;
        }
        if (nsubs == subs.length) {
            subs = java.util.Arrays.copyOf(subs, Math.min(subs.length * 2, in.length()));
        }
        subs[nsubs++] = n;
    }

    // ---- grammar ----

    private Node mangledName(boolean topLevel) {
        if (!check('_') && topLevel) {
            throw FAIL;
        }
        expect('Z');
        Node p = encoding(topLevel);
        if (topLevel && (options & PARAMS) != 0) {
            while (peek() == '.' && (isLower(peekNext()) || peekNext() == '_' || isDigit(peekNext()))) {
                p = cloneSuffix(p);
            }
        }
        return p;
    }

    private Node cloneSuffix(Node encoding) {
        int start = pos;
        int p = pos;
        if (at(p) == '.' && (isLower(at(p + 1)) || isDigit(at(p + 1)) || at(p + 1) == '_')) {
            p += 2;
            while (isLower(at(p)) || isDigit(at(p)) || at(p) == '_') {
                p++;
            }
        }
        while (at(p) == '.' && isDigit(at(p + 1))) {
            p += 2;
            while (isDigit(at(p))) {
                p++;
            }
        }
        pos = p;
        return comp(CLONE, encoding, name(in.substring(start, p)));
    }

    private char at(int p) {
        return p < in.length() ? in.charAt(p) : '\0';
    }

    private static boolean isFnQual(int t) {
        return t == RESTRICT_THIS || t == VOLATILE_THIS || t == CONST_THIS || t == REFERENCE_THIS
                || t == RVALUE_REFERENCE_THIS || t == TRANSACTION_SAFE || t == NOEXCEPT || t == THROW_SPEC;
    }

    private Node encoding(boolean topLevel) {
        enter();
        try {
            char peek = peek();
            if (peek == 'G' || peek == 'T') {
                return specialName();
            }
            Node dc = name(false);
            if (topLevel && (options & PARAMS) == 0) {
                while (isFnQual(dc.type)) {
                    dc = dc.left;
                }
                if (dc.type == LOCAL_NAME) {
                    Node dcr = dc.right;
                    while (isFnQual(dcr.type)) {
                        dcr = dcr.left;
                    }
                    dc.right = dcr;
                }
                return dc;
            }
            peek = peek();
            if (peek != '\0' && peek != 'E') {
                Node ftype = bareFunctionType(hasReturnType(dc));
                if (!topLevel && dc.type == LOCAL_NAME && ftype.type == FUNCTION_TYPE) {
                    ftype.left = null;
                }
                dc = comp(TYPED_NAME, dc, ftype);
            }
            return dc;
        } finally {
            depth--;
        }
    }

    private static boolean hasReturnType(Node dc) {
        if (dc == null) {
            return false;
        }
        return switch (dc.type) {
            case LOCAL_NAME -> hasReturnType(dc.right);
            case TEMPLATE -> !isCtorDtorOrConversion(dc.left);
            default -> isFnQual(dc.type) && hasReturnType(dc.left);
        };
    }

    private static boolean isCtorDtorOrConversion(Node dc) {
        if (dc == null) {
            return false;
        }
        return switch (dc.type) {
            case QUAL_NAME, LOCAL_NAME -> isCtorDtorOrConversion(dc.right);
            case CTOR, DTOR, CONVERSION -> true;
            default -> false;
        };
    }

    private Node name(boolean substable) {
        enter();
        try {
            char peek = peek();
            Node dc;
            boolean subst = false;
            switch (peek) {
                case 'N' -> dc = nestedName();
                case 'Z' -> dc = localName();
                case 'U' -> dc = unqualifiedName(null);
                default -> {
                    Node scope = null;
                    if (peek == 'S') {
                        if (peekNext() == 't') {
                            pos += 2;
                            scope = name("std");
                        } else {
                            scope = substitution(false);
                            subst = true;
                        }
                    }
                    dc = subst ? scope : unqualifiedName(scope);
                    if (peek() == 'I') {
                        if (!subst) {
                            addSubstitution(dc);
                        }
                        dc = comp(TEMPLATE, dc, templateArgs());
                        subst = false;
                    }
                }
            }
            if (substable && !subst) {
                addSubstitution(dc);
            }
            return dc;
        } finally {
            depth--;
        }
    }

    private Node nestedName() {
        expect('N');
        Node[] chain = cvQualifiers(true);
        Node rqual = refQualifier(null);
        Node prefix = prefix(true);
        if (prefix == null) {
            throw FAIL;
        }
        Node ret;
        if (chain[0] == null) {
            ret = prefix;
        } else {
            chain[1].left = prefix;
            ret = chain[0];
        }
        if (rqual != null) {
            rqual.left = ret;
            ret = rqual;
        }
        expect('E');
        return ret;
    }

    private Node prefix(boolean subst) {
        Node ret = null;
        for (;;) {
            char peek = peek();
            if (peek == 'D' && (peekNext() == 'T' || peekNext() == 't')) {
                if (ret != null) {
                    throw FAIL;
                }
                ret = type();
            } else if (peek == 'I') {
                if (ret == null) {
                    throw FAIL;
                }
                ret = comp(TEMPLATE, ret, templateArgs());
            } else if (peek == 'T') {
                if (ret != null) {
                    throw FAIL;
                }
                ret = templateParam();
            } else if (peek == 'M') {
                pos++;
                continue;
            } else if (peek == 'S') {
                if (ret != null) {
                    throw FAIL;
                }
                ret = substitution(true);
                continue;
            } else {
                ret = unqualifiedName(ret);
            }
            if (peek() == 'E') {
                break;
            }
            if (subst) {
                addSubstitution(ret);
            }
        }
        return ret;
    }

    private Node unqualifiedName(Node scope) {
        char peek = peek();
        Node ret;
        if (isDigit(peek)) {
            ret = sourceName();
        } else if (isLower(peek)) {
            boolean wasExpr = isExpression;
            if (peek == 'o' && peekNext() == 'n') {
                pos += 2;
                isExpression = false;
            }
            ret = operatorName();
            isExpression = wasExpr;
            if (ret.type == OPERATOR && ret.op.code.equals("li")) {
                ret = comp(UNARY, ret, sourceName());
            }
        } else if (peek == 'D' && peekNext() == 'C') {
            pos += 2;
            Node first = null;
            Node prev = null;
            do {
                Node next = comp(STRUCTURED_BINDING, sourceName(), null);
                if (prev != null) {
                    prev.right = next;
                } else {
                    first = next;
                }
                prev = next;
            } while (peek() != 'E' && peek() != '\0');
            expect('E');
            ret = first;
        } else if (peek == 'C' || peek == 'D') {
            ret = ctorDtorName();
        } else if (peek == 'L') {
            pos++;
            ret = sourceName();
            discriminator();
        } else if (peek == 'U') {
            ret = switch (peekNext()) {
                case 'l' -> lambda();
                case 't' -> unnamedType();
                default -> throw FAIL;
            };
        } else {
            throw FAIL;
        }
        if (peek() == 'B') {
            ret = abiTags(ret);
        }
        if (scope != null) {
            ret = comp(QUAL_NAME, scope, ret);
        }
        return ret;
    }

    private Node abiTags(Node dc) {
        Node hold = lastName;
        while (peek() == 'B') {
            pos++;
            dc = comp(TAGGED_NAME, dc, sourceName());
        }
        lastName = hold;
        return dc;
    }

    private Node sourceName() {
        int len = number();
        if (len <= 0) {
            throw FAIL;
        }
        Node ret = identifier(len);
        lastName = ret;
        return ret;
    }

    /** d_number: [n] digits; -1 on overflow as a failure. */
    private int number() {
        boolean negative = false;
        if (peek() == 'n') {
            negative = true;
            pos++;
        }
        long ret = 0;
        char c = peek();
        while (isDigit(c)) {
            ret = ret * 10 + (c - '0');
            if (ret > Integer.MAX_VALUE) {
                throw FAIL;
            }
            pos++;
            c = peek();
        }
        return (int) (negative ? -ret : ret);
    }

    private Node identifier(int len) {
        if (in.length() - pos < len) {
            throw FAIL;
        }
        String s = in.substring(pos, pos + len);
        pos += len;
        if (len >= 10 && s.startsWith("_GLOBAL_") && ".$_".indexOf(s.charAt(8)) >= 0 && s.charAt(9) == 'N') {
            return name("(anonymous namespace)");
        }
        return name(s);
    }

    private Node operatorName() {
        char c1 = next();
        char c2 = next();
        if (c1 == 'v' && isDigit(c2)) {
            Node n = comp(EXTENDED_OPERATOR, sourceName(), null);
            n.num = c2 - '0';
            return n;
        }
        if (c1 == 'c' && c2 == 'v') {
            boolean wasConversion = isConversion;
            isConversion = !isExpression;
            Node t = type();
            Node res = comp(isConversion ? CONVERSION : CAST, t, null);
            isConversion = wasConversion;
            return res;
        }
        int low = 0;
        int high = OPS.length;
        while (low < high) {
            int i = (low + high) >>> 1;
            Op p = OPS[i];
            if (c1 == p.code.charAt(0) && c2 == p.code.charAt(1)) {
                Node n = node(OPERATOR);
                n.op = p;
                return n;
            }
            if (c1 < p.code.charAt(0) || (c1 == p.code.charAt(0) && c2 < p.code.charAt(1))) {
                high = i;
            } else {
                low = i + 1;
            }
        }
        throw FAIL;
    }

    private Node ctorDtorName() {
        if (peek() == 'C') {
            boolean inheriting = false;
            if (peekNext() == 'I') {
                inheriting = true;
                pos++;
            }
            char k = peekNext();
            if (k < '1' || k > '5') {
                throw FAIL;
            }
            pos += 2;
            if (inheriting) {
                type();
            }
            return comp(CTOR, lastName, null);
        }
        char k = peekNext();
        if (k != '0' && k != '1' && k != '2' && k != '4' && k != '5') {
            throw FAIL;
        }
        pos += 2;
        return comp(DTOR, lastName, null);
    }

    private void discriminator() {
        if (peek() != '_') {
            return;
        }
        pos++;
        int underscores = 1;
        if (peek() == '_') {
            underscores++;
            pos++;
        }
        int d = number();
        if (d < 0) {
            throw FAIL;
        }
        if (underscores > 1 && d >= 10) {
            expect('_');
        }
    }

    private Node localName() {
        expect('Z');
        Node function = encoding(false);
        expect('E');
        Node nm;
        if (peek() == 's') {
            pos++;
            discriminator();
            nm = name("string literal");
        } else {
            int num = -1;
            if (peek() == 'd') {
                pos++;
                num = compactNumber();
            }
            nm = name(false);
            if (nm.type != LAMBDA && nm.type != UNNAMED_TYPE) {
                discriminator();
            }
            if (num >= 0) {
                Node d = number(DEFAULT_ARG, num);
                d.left = nm;
                nm = d;
            }
        }
        if (function.type == TYPED_NAME && function.right.type == FUNCTION_TYPE) {
            function.right.left = null;
        }
        return comp(LOCAL_NAME, function, nm);
    }

    private int compactNumber() {
        int num;
        if (peek() == '_') {
            num = 0;
        } else if (peek() == 'n') {
            throw FAIL;
        } else {
            num = number() + 1;
        }
        if (num < 0) {
            throw FAIL;
        }
        expect('_');
        return num;
    }

    private Node lambda() {
        expect('U');
        expect('l');
        Node tl = parmlist();
        expect('E');
        int num = compactNumber();
        Node ret = number(LAMBDA, num);
        ret.left = tl;
        return ret;
    }

    private Node unnamedType() {
        expect('U');
        expect('t');
        Node ret = number(UNNAMED_TYPE, compactNumber());
        addSubstitution(ret);
        return ret;
    }

    private boolean nextIsTypeQual() {
        char c = peek();
        if (c == 'r' || c == 'V' || c == 'K') {
            return true;
        }
        if (c == 'D') {
            c = peekNext();
            return c == 'x' || c == 'o' || c == 'O' || c == 'w';
        }
        return false;
    }

    /** d_cv_qualifiers: {first, last} of the qualifier chain (both null when none); last.left is to be filled. */
    private Node[] cvQualifiers(boolean memberFn) {
        Node first = null;
        Node last = null;
        while (nextIsTypeQual()) {
            char peek = next();
            int t;
            Node right = null;
            if (peek == 'r') {
                t = memberFn ? RESTRICT_THIS : RESTRICT;
            } else if (peek == 'V') {
                t = memberFn ? VOLATILE_THIS : VOLATILE;
            } else if (peek == 'K') {
                t = memberFn ? CONST_THIS : CONST;
            } else {
                peek = next();
                if (peek == 'x') {
                    t = TRANSACTION_SAFE;
                } else if (peek == 'o' || peek == 'O') {
                    t = NOEXCEPT;
                    if (peek == 'O') {
                        right = expression();
                        expect('E');
                    }
                } else {
                    t = THROW_SPEC;
                    right = parmlist();
                    expect('E');
                }
            }
            Node q = comp(t, null, right);
            if (first == null) {
                first = q;
            } else {
                last.left = q;
            }
            last = q;
        }
        if (!memberFn && peek() == 'F') {
            for (Node q = first; q != null; q = q == last ? null : q.left) {
                switch (q.type) {
                    case RESTRICT -> q.type = RESTRICT_THIS;
                    case VOLATILE -> q.type = VOLATILE_THIS;
                    case CONST -> q.type = CONST_THIS;
                    default -> {
                    }
                }
            }
        }
        return new Node[] {first, last};
    }

    private Node refQualifier(Node sub) {
        char peek = peek();
        if (peek == 'R' || peek == 'O') {
            pos++;
            return comp(peek == 'R' ? REFERENCE_THIS : RVALUE_REFERENCE_THIS, sub, null);
        }
        return sub;
    }

    private Node type() {
        enter();
        try {
            return type0();
        } finally {
            depth--;
        }
    }

    private Node type0() {
        if (nextIsTypeQual()) {
            Node[] chain = cvQualifiers(false);
            Node inner = peek() == 'F' ? functionType() : type();
            Node ret = chain[0];
            Node last = chain[1];
            last.left = inner;
            if (inner.type == RVALUE_REFERENCE_THIS || inner.type == REFERENCE_THIS) {
                // move the ref-qualifier outside the cv-qualifiers so they print in order
                Node fn = inner.left;
                inner.left = ret;
                ret = inner;
                last.left = fn;
            }
            addSubstitution(ret);
            return ret;
        }
        boolean canSubst = true;
        char peek = peek();
        Node ret;
        switch (peek) {
            case 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'l', 'm', 'n', 'o', 's', 't', 'v', 'w',
                    'x', 'y', 'z' -> {
                ret = builtin(peek - 'a');
                canSubst = false;
                pos++;
            }
            case 'u' -> {
                pos++;
                ret = comp(VENDOR_TYPE, sourceName(), null);
            }
            case 'F' -> ret = functionType();
            case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'N', 'Z' -> ret = name(false);
            case 'A' -> ret = arrayType();
            case 'M' -> ret = pointerToMemberType();
            case 'T' -> {
                ret = templateParam();
                if (peek() == 'I') {
                    if (!isConversion) {
                        addSubstitution(ret);
                        ret = comp(TEMPLATE, ret, templateArgs());
                    } else {
                        int savePos = pos;
                        int saveSubs = nsubs;
                        int saveNodes = nodes;
                        Node saveLast = lastName;
                        Node args;
                        try {
                            args = templateArgs();
                        } catch (Fail f) {
                            args = null;
                        }
                        if (args != null && peek() == 'I') {
                            addSubstitution(ret);
                            ret = comp(TEMPLATE, ret, args);
                        } else {
                            pos = savePos;
                            nsubs = saveSubs;
                            nodes = saveNodes;
                            lastName = saveLast;
                        }
                    }
                }
            }
            case 'S' -> {
                char pn = peekNext();
                if (isDigit(pn) || pn == '_' || isUpper(pn)) {
                    ret = substitution(false);
                    if (peek() == 'I') {
                        ret = comp(TEMPLATE, ret, templateArgs());
                    } else {
                        canSubst = false;
                    }
                } else {
                    ret = name(false);
                    if (ret.type == SUB_STD) {
                        canSubst = false;
                    }
                }
            }
            case 'O' -> {
                pos++;
                ret = comp(RVALUE_REFERENCE, type(), null);
            }
            case 'P' -> {
                pos++;
                ret = comp(POINTER, type(), null);
            }
            case 'R' -> {
                pos++;
                ret = comp(REFERENCE, type(), null);
            }
            case 'C' -> {
                pos++;
                ret = comp(COMPLEX, type(), null);
            }
            case 'G' -> {
                pos++;
                ret = comp(IMAGINARY, type(), null);
            }
            case 'U' -> {
                pos++;
                ret = sourceName();
                if (peek() == 'I') {
                    ret = comp(TEMPLATE, ret, templateArgs());
                }
                ret = comp(VENDOR_TYPE_QUAL, type(), ret);
            }
            case 'D' -> {
                canSubst = false;
                pos++;
                char c = next();
                switch (c) {
                    case 'T', 't' -> {
                        ret = comp(DECLTYPE, expression(), null);
                        expect('E');
                        canSubst = true;
                    }
                    case 'p' -> {
                        ret = comp(PACK_EXPANSION, type(), null);
                        canSubst = true;
                    }
                    case 'a' -> ret = name("auto");
                    case 'c' -> ret = name("decltype(auto)");
                    case 'f' -> ret = builtin(26);
                    case 'd' -> ret = builtin(27);
                    case 'e' -> ret = builtin(28);
                    case 'h' -> ret = builtin(29);
                    case 'u' -> ret = builtin(30);
                    case 's' -> ret = builtin(31);
                    case 'i' -> ret = builtin(32);
                    case 'n' -> ret = builtin(33);
                    case 'F' -> {
                        int n = number();
                        if (n <= 0) {
                            throw FAIL;
                        }
                        String suffix = check('x') ? "x" : "";
                        if (suffix.isEmpty()) {
                            expect('_');
                        }
                        Node b = node(BUILTIN_TYPE);
                        b.builtin = new Builtin("_Float" + n + suffix, P_FLOAT);
                        ret = b;
                    }
                    case 'v' -> {
                        Node dim;
                        if (peek() == '_') {
                            pos++;
                            dim = expression();
                        } else {
                            int n = number();
                            dim = number(NUMBER, n);
                        }
                        expect('_');
                        ret = comp(VECTOR_TYPE, dim, type());
                        canSubst = true;
                    }
                    default -> throw FAIL;
                }
            }
            default -> throw FAIL;
        }
        if (canSubst) {
            addSubstitution(ret);
        }
        return ret;
    }

    private Node builtin(int i) {
        Builtin b = i < BUILTINS.length ? BUILTINS[i] : null;
        if (b == null) {
            throw FAIL;
        }
        Node n = node(BUILTIN_TYPE);
        n.builtin = b;
        return n;
    }

    private Node functionType() {
        enter();
        try {
            expect('F');
            if (peek() == 'Y') {
                pos++;
            }
            Node ret = bareFunctionType(true);
            ret = refQualifier(ret);
            expect('E');
            return ret;
        } finally {
            depth--;
        }
    }

    private Node bareFunctionType(boolean hasReturnType) {
        if (peek() == 'J') {
            pos++;
            hasReturnType = true;
        }
        Node ret = hasReturnType ? type() : null;
        Node tl = parmlist();
        return comp(FUNCTION_TYPE, ret, tl);
    }

    private Node parmlist() {
        Node tl = null;
        Node last = null;
        for (;;) {
            char peek = peek();
            if (peek == '\0' || peek == 'E' || peek == '.' || peek == 'Q') {
                break;
            }
            if ((peek == 'R' || peek == 'O') && peekNext() == 'E') {
                break;
            }
            Node a = comp(ARGLIST, type(), null);
            if (tl == null) {
                tl = a;
            } else {
                last.right = a;
            }
            last = a;
        }
        if (tl == null) {
            throw FAIL;
        }
        if (tl.right == null && tl.left.type == BUILTIN_TYPE && tl.left.builtin.print == P_VOID) {
            tl.left = null;
        }
        return tl;
    }

    private Node arrayType() {
        expect('A');
        Node dim;
        char peek = peek();
        if (peek == '_') {
            dim = null;
        } else if (isDigit(peek)) {
            int s = pos;
            while (isDigit(peek())) {
                pos++;
            }
            dim = name(in.substring(s, pos));
        } else {
            dim = expression();
        }
        expect('_');
        return comp(ARRAY_TYPE, dim, type());
    }

    private Node pointerToMemberType() {
        expect('M');
        Node cl = type();
        Node mem = type();
        return comp(PTRMEM_TYPE, cl, mem);
    }

    private Node templateParam() {
        expect('T');
        return number(TEMPLATE_PARAM, compactNumber());
    }

    private Node templateArgs() {
        char c = peek();
        if (c != 'I' && c != 'J') {
            throw FAIL;
        }
        pos++;
        return templateArgs1();
    }

    private Node templateArgs1() {
        Node hold = lastName;
        if (peek() == 'E') {
            pos++;
            return comp(TEMPLATE_ARGLIST, null, null);
        }
        Node al = null;
        Node last = null;
        for (;;) {
            Node a = comp(TEMPLATE_ARGLIST, templateArg(), null);
            if (a.left == null) {
                throw FAIL;
            }
            if (al == null) {
                al = a;
            } else {
                last.right = a;
            }
            last = a;
            if (peek() == 'E') {
                pos++;
                break;
            }
            if (peek() == '\0') {
                throw FAIL;
            }
        }
        lastName = hold;
        return al;
    }

    private Node templateArg() {
        enter();
        try {
            switch (peek()) {
                case 'X' -> {
                    pos++;
                    Node ret = expression();
                    expect('E');
                    return ret;
                }
                case 'L' -> {
                    return exprPrimary();
                }
                case 'I', 'J' -> {
                    return templateArgs();
                }
                default -> {
                    return type();
                }
            }
        } finally {
            depth--;
        }
    }

    private Node exprPrimary() {
        expect('L');
        Node ret;
        if (peek() == '_' || peek() == 'Z') {
            ret = mangledName(false);
        } else {
            Node t = type();
            if (t.type == BUILTIN_TYPE && t.builtin == BUILTINS[33] && peek() == 'E') {
                pos++;
                return t;
            }
            int lt = LITERAL;
            if (peek() == 'n') {
                lt = LITERAL_NEG;
                pos++;
            }
            int s = pos;
            while (peek() != 'E') {
                if (peek() == '\0') {
                    throw FAIL;
                }
                pos++;
            }
            ret = comp(lt, t, name(in.substring(s, pos)));
        }
        expect('E');
        return ret;
    }

    private Node expression() {
        boolean was = isExpression;
        isExpression = true;
        try {
            return expression1();
        } finally {
            isExpression = was;
        }
    }

    private Node expression1() {
        enter();
        try {
            return expression1Inner();
        } finally {
            depth--;
        }
    }

    private Node expression1Inner() {
        char peek = peek();
        if (peek == 'L') {
            return exprPrimary();
        } else if (peek == 'T') {
            return templateParam();
        } else if (peek == 's' && peekNext() == 'r') {
            return unresolvedName();
        } else if (peek == 's' && peekNext() == 'p') {
            pos += 2;
            return comp(PACK_EXPANSION, expression1(), null);
        } else if (peek == 'f' && peekNext() == 'p') {
            pos += 2;
            int index;
            if (peek() == 'T') {
                pos++;
                index = 0;
            } else {
                index = compactNumber() + 1;
            }
            return number(FUNCTION_PARAM, index);
        } else if (isDigit(peek) || (peek == 'o' && peekNext() == 'n')) {
            if (peek == 'o') {
                pos += 2;
            }
            Node nm = unqualifiedName(null);
            if (peek() == 'I') {
                return comp(TEMPLATE, nm, templateArgs());
            }
            return nm;
        } else if ((peek == 'i' || peek == 't') && peekNext() == 'l') {
            pos += 2;
            Node t = null;
            if (peek == 't') {
                t = type();
            }
            if (peek() == '\0' || peekNext() == '\0') {
                throw FAIL;
            }
            return comp(INITIALIZER_LIST, t, exprlist('E'));
        }
        Node op = operatorName();
        String code = null;
        int args;
        if (op.type == OPERATOR) {
            code = op.op.code;
            if (code.equals("st")) {
                return comp(UNARY, op, type());
            }
            args = op.op.args;
        } else if (op.type == EXTENDED_OPERATOR) {
            args = op.num;
        } else if (op.type == CAST) {
            args = 1;
        } else {
            throw FAIL;
        }
        switch (args) {
            case 0:
                return comp(NULLARY, op, null);
            case 1: {
                boolean suffix = false;
                if (code != null && (code.charAt(0) == 'p' || code.charAt(0) == 'm') && code.charAt(1) == code.charAt(0)) {
                    suffix = !check('_');
                }
                Node operand;
                if (op.type == CAST && check('_')) {
                    operand = exprlist('E');
                } else if ("sP".equals(code)) {
                    operand = templateArgs1();
                } else {
                    operand = expression1();
                }
                if (suffix) {
                    operand = comp(BINARY_ARGS, operand, operand);
                }
                return comp(UNARY, op, operand);
            }
            case 2: {
                if (code == null) {
                    throw FAIL;
                }
                Node left;
                if (isNewCast(op)) {
                    left = type();
                } else if (code.charAt(0) == 'f') {
                    left = operatorName();
                } else if (code.equals("di")) {
                    left = unqualifiedName(null);
                } else {
                    left = expression1();
                }
                Node right;
                if (code.equals("cl")) {
                    right = exprlist('E');
                } else if (code.equals("dt") || code.equals("pt")) {
                    char p = peek();
                    if ((p == 'g' && peekNext() == 's') || (p == 's' && peekNext() == 'r')) {
                        right = expression1();
                    } else {
                        right = unqualifiedName(null);
                        if (peek() == 'I') {
                            right = comp(TEMPLATE, right, templateArgs());
                        }
                    }
                } else {
                    right = expression1();
                }
                return comp(BINARY, op, comp(BINARY_ARGS, left, right));
            }
            case 3: {
                if (code == null) {
                    throw FAIL;
                }
                Node first;
                Node second;
                Node third;
                if (code.equals("qu") || code.equals("dX")) {
                    first = expression1();
                    second = expression1();
                    third = expression1();
                } else if (code.charAt(0) == 'f') {
                    first = operatorName();
                    second = expression1();
                    third = expression1();
                } else if (code.charAt(0) == 'n') {
                    if (code.charAt(1) != 'w' && code.charAt(1) != 'a') {
                        throw FAIL;
                    }
                    first = exprlist('_');
                    second = type();
                    if (peek() == 'E') {
                        pos++;
                        third = null;
                    } else if (peek() == 'p' && peekNext() == 'i') {
                        pos += 2;
                        third = exprlist('E');
                    } else if (peek() == 'i' && peekNext() == 'l') {
                        third = expression1();
                    } else {
                        throw FAIL;
                    }
                } else {
                    throw FAIL;
                }
                return comp(TRINARY, op, comp(TRINARY_ARG1, first, comp(TRINARY_ARG2, second, third)));
            }
            default:
                throw FAIL;
        }
    }

    /**
     * d_unresolved_name: "sr". A::x is sr1AE1x now and was sr1A1x in the old mangling; the new
     * reading is tried first and the whole name is demangled again with the old one if that fails.
     */
    private Node unresolvedName() {
        pos += 2;
        char peek = peek();
        Node t;
        if (unresolvedNameState != 0 && (isDigit(peek) || isLower(peek) || peek == 'C' || peek == 'U' || peek == 'L')) {
            unresolvedNameState = -1;
            t = prefix(false);
            check('E');
        } else {
            t = type();
        }
        Node nm = unqualifiedName(t);
        if (peek() == 'I') {
            nm = comp(TEMPLATE, nm, templateArgs());
        }
        return nm;
    }

    private static boolean isNewCast(Node op) {
        if (op.type != OPERATOR) {
            return false;
        }
        String c = op.op.code;
        return c.equals("dc") || c.equals("sc") || c.equals("cc") || c.equals("rc");
    }

    private Node exprlist(char terminator) {
        if (peek() == terminator) {
            pos++;
            return comp(ARGLIST, null, null);
        }
        Node list = null;
        Node last = null;
        for (;;) {
            Node a = comp(ARGLIST, expression1(), null);
            if (a.left == null) {
                throw FAIL;
            }
            if (list == null) {
                list = a;
            } else {
                last.right = a;
            }
            last = a;
            if (peek() == terminator) {
                pos++;
                break;
            }
            if (peek() == '\0') {
                throw FAIL;
            }
        }
        return list;
    }

    private Node substitution(boolean prefix) {
        expect('S');
        char c = next();
        if (c == '_' || isDigit(c) || isUpper(c)) {
            long id = 0;
            if (c != '_') {
                do {
                    if (isDigit(c)) {
                        id = id * 36 + c - '0';
                    } else if (isUpper(c)) {
                        id = id * 36 + c - 'A' + 10;
                    } else {
                        throw FAIL;
                    }
                    if (id > Integer.MAX_VALUE) {
                        throw FAIL;
                    }
                    c = next();
                } while (c != '_');
                id++;
            }
            if (id >= nsubs) {
                throw FAIL;
            }
            return subs[(int) id];
        }
        boolean verbose = (options & VERBOSE) != 0;
        if (!verbose && prefix) {
            char p = peek();
            if (p == 'C' || p == 'D') {
                verbose = true;
            }
        }
        for (String[] s : STD_SUBS) {
            if (s[0].charAt(0) == c) {
                if (s[3] != null) {
                    lastName = sub(s[3]);
                }
                Node dc = sub(verbose ? s[2] : s[1]);
                if (peek() == 'B') {
                    dc = abiTags(dc);
                    addSubstitution(dc);
                }
                return dc;
            }
        }
        throw FAIL;
    }

    private Node specialName() {
        if (check('T')) {
            char c = next();
            switch (c) {
                case 'V':
                    return comp(VTABLE, type(), null);
                case 'T':
                    return comp(VTT, type(), null);
                case 'I':
                    return comp(TYPEINFO, type(), null);
                case 'S':
                    return comp(TYPEINFO_NAME, type(), null);
                case 'h':
                    callOffset('h');
                    return comp(THUNK, encoding(false), null);
                case 'v':
                    callOffset('v');
                    return comp(VIRTUAL_THUNK, encoding(false), null);
                case 'c':
                    callOffset('\0');
                    callOffset('\0');
                    return comp(COVARIANT_THUNK, encoding(false), null);
                case 'C': {
                    Node derived = type();
                    if (number() < 0) {
                        throw FAIL;
                    }
                    expect('_');
                    Node base = type();
                    return comp(CONSTRUCTION_VTABLE, base, derived);
                }
                case 'F':
                    return comp(TYPEINFO_FN, type(), null);
                case 'J':
                    return comp(JAVA_CLASS, type(), null);
                case 'H':
                    return comp(TLS_INIT, name(false), null);
                case 'W':
                    return comp(TLS_WRAPPER, name(false), null);
                case 'A':
                    return comp(TPARM_OBJ, templateArg(), null);
                default:
                    throw FAIL;
            }
        } else if (check('G')) {
            char c = next();
            switch (c) {
                case 'V':
                    return comp(GUARD, name(false), null);
                case 'R': {
                    Node nm = name(false);
                    Node n = number(NUMBER, number());
                    return comp(REFTEMP, nm, n);
                }
                case 'A':
                    return comp(HIDDEN_ALIAS, encoding(false), null);
                case 'T':
                    return comp(next() == 'n' ? NONTRANSACTION_CLONE : TRANSACTION_CLONE, encoding(false), null);
                default:
                    throw FAIL;
            }
        }
        throw FAIL;
    }

    private void callOffset(char c) {
        if (c == '\0') {
            c = next();
        }
        if (c == 'h') {
            number();
        } else if (c == 'v') {
            number();
            expect('_');
            number();
        } else {
            throw FAIL;
        }
        expect('_');
    }

    // ---- printing (d_print_*) ----

    private static final class Mod {
        Mod next;
        Node mod;
        boolean printed;
        Tpl templates;

        Mod(Mod next, Node mod, Tpl templates) {
            this.next = next;
            this.mod = mod;
            this.templates = templates;
        }

        Mod copy() {
            Mod m = new Mod(next, mod, templates);
            m.printed = printed;
            return m;
        }
    }

    private record Tpl(Tpl next, Node decl) {
    }

    private static final class Printer {
        final StringBuilder out = new StringBuilder(64);
        final int options;
        int recursion;
        Mod modifiers;
        Tpl templates;
        Node currentTemplate;
        int packIndex;
        int lambdaArg;
        char lastChar;

        Printer(int options) {
            this.options = options;
        }

        /** d_last_char: the last character appended, kept when an empty pack takes ", " back (as libiberty does). */
        private char last() {
            return lastChar;
        }

        private void append(String s) {
            if (out.length() + s.length() > MAX_OUTPUT) {
                throw FAIL;
            }
            if (!s.isEmpty()) {
                out.append(s);
                lastChar = s.charAt(s.length() - 1);
            }
        }

        private void append(char c) {
            if (out.length() >= MAX_OUTPUT) {
                throw FAIL;
            }
            out.append(c);
            lastChar = c;
        }

        void comp(Node dc) {
            if (dc == null || dc.printing > 1 || recursion > MAX_DEPTH) {
                throw FAIL;
            }
            dc.printing++;
            recursion++;
            try {
                inner(dc);
            } finally {
                dc.printing--;
                recursion--;
            }
        }

        private Node lookupTemplateArgument(Node dc) {
            if (templates == null) {
                throw FAIL;
            }
            return indexTemplateArgument(templates.decl.right, dc.num);
        }

        private static Node indexTemplateArgument(Node args, int i) {
            Node a;
            for (a = args; a != null; a = a.right) {
                if (a.type != TEMPLATE_ARGLIST) {
                    return null;
                }
                if (i <= 0) {
                    break;
                }
                --i;
            }
            if (i != 0 || a == null) {
                return null;
            }
            return a.left;
        }

        private void inner(Node dc) {
            Node modInner = null;
            switch (dc.type) {
                case NAME, SUB_STD -> append(dc.s);
                case TAGGED_NAME -> {
                    comp(dc.left);
                    append("[abi:");
                    comp(dc.right);
                    append(']');
                }
                case STRUCTURED_BINDING -> {
                    append('[');
                    for (Node n = dc; n != null; n = n.right) {
                        if (n != dc) {
                            append(", ");
                        }
                        comp(n.left);
                    }
                    append(']');
                }
                case QUAL_NAME, LOCAL_NAME -> {
                    comp(dc.left);
                    append("::");
                    Node local = dc.right;
                    if (local.type == DEFAULT_ARG) {
                        append("{default arg#");
                        append(Integer.toString(local.num + 1));
                        append("}::");
                        local = local.left;
                    }
                    comp(local);
                }
                case TYPED_NAME -> typedName(dc);
                case TEMPLATE -> {
                    Node holdCurrent = currentTemplate;
                    currentTemplate = dc;
                    Mod holdMods = modifiers;
                    modifiers = null;
                    comp(dc.left);
                    if (last() == '<') {
                        append(' ');
                    }
                    append('<');
                    comp(dc.right);
                    if (last() == '>') {
                        append(' ');
                    }
                    append('>');
                    modifiers = holdMods;
                    currentTemplate = holdCurrent;
                }
                case TEMPLATE_PARAM -> {
                    if (lambdaArg > 0) {
                        append("auto:");
                        append(Integer.toString(dc.num + 1));
                    } else {
                        Node a = lookupTemplateArgument(dc);
                        if (a != null && a.type == TEMPLATE_ARGLIST) {
                            a = indexTemplateArgument(a, packIndex);
                        }
                        if (a == null) {
                            throw FAIL;
                        }
                        Tpl hold = templates;
                        templates = hold.next;
                        comp(a);
                        templates = hold;
                    }
                }
                case TPARM_OBJ -> {
                    append("template parameter object for ");
                    comp(dc.left);
                }
                case CTOR -> comp(dc.left);
                case DTOR -> {
                    append('~');
                    comp(dc.left);
                }
                case VTABLE -> prefixed("vtable for ", dc.left);
                case VTT -> prefixed("VTT for ", dc.left);
                case CONSTRUCTION_VTABLE -> {
                    append("construction vtable for ");
                    comp(dc.left);
                    append("-in-");
                    comp(dc.right);
                }
                case TYPEINFO -> prefixed("typeinfo for ", dc.left);
                case TYPEINFO_NAME -> prefixed("typeinfo name for ", dc.left);
                case TYPEINFO_FN -> prefixed("typeinfo fn for ", dc.left);
                case THUNK -> prefixed("non-virtual thunk to ", dc.left);
                case VIRTUAL_THUNK -> prefixed("virtual thunk to ", dc.left);
                case COVARIANT_THUNK -> prefixed("covariant return thunk to ", dc.left);
                case JAVA_CLASS -> prefixed("java Class for ", dc.left);
                case GUARD -> prefixed("guard variable for ", dc.left);
                case TLS_INIT -> prefixed("TLS init function for ", dc.left);
                case TLS_WRAPPER -> prefixed("TLS wrapper function for ", dc.left);
                case REFTEMP -> {
                    append("reference temporary #");
                    comp(dc.right);
                    append(" for ");
                    comp(dc.left);
                }
                case HIDDEN_ALIAS -> prefixed("hidden alias for ", dc.left);
                case TRANSACTION_CLONE -> prefixed("transaction clone for ", dc.left);
                case NONTRANSACTION_CLONE -> prefixed("non-transaction clone for ", dc.left);
                case RESTRICT, VOLATILE, CONST -> {
                    for (Mod p = modifiers; p != null; p = p.next) {
                        if (!p.printed) {
                            if (p.mod.type != RESTRICT && p.mod.type != VOLATILE && p.mod.type != CONST) {
                                break;
                            }
                            if (p.mod.type == dc.type) {
                                comp(dc.left);
                                return;
                            }
                        }
                    }
                    modifier(dc, null);
                }
                case REFERENCE, RVALUE_REFERENCE -> {
                    Node sub = dc.left;
                    if (sub.type == TEMPLATE_PARAM) {
                        Node a = lookupTemplateArgument(sub);
                        if (a != null && a.type == TEMPLATE_ARGLIST) {
                            a = indexTemplateArgument(a, packIndex);
                        }
                        if (a == null) {
                            throw FAIL;
                        }
                        sub = a;
                    }
                    if (sub.type == REFERENCE || sub.type == dc.type) {
                        dc = sub;
                    } else if (sub.type == RVALUE_REFERENCE) {
                        modInner = sub.left;
                    }
                    modifier(dc, modInner);
                }
                case VENDOR_TYPE_QUAL, POINTER, COMPLEX, IMAGINARY, RESTRICT_THIS, VOLATILE_THIS, CONST_THIS,
                        REFERENCE_THIS, RVALUE_REFERENCE_THIS, TRANSACTION_SAFE, NOEXCEPT, THROW_SPEC ->
                    modifier(dc, null);
                case BUILTIN_TYPE -> append(dc.builtin.name);
                case VENDOR_TYPE -> comp(dc.left);
                case FUNCTION_TYPE -> {
                    if (dc.left != null) {
                        Mod dpm = new Mod(modifiers, dc, templates);
                        modifiers = dpm;
                        comp(dc.left);
                        modifiers = dpm.next;
                        if (dpm.printed) {
                            return;
                        }
                        append(' ');
                    }
                    functionType(dc, modifiers);
                }
                case ARRAY_TYPE -> arrayTypeComp(dc);
                case PTRMEM_TYPE, VECTOR_TYPE -> {
                    Mod dpm = new Mod(modifiers, dc, templates);
                    modifiers = dpm;
                    comp(dc.right);
                    if (!dpm.printed) {
                        mod(dc);
                    }
                    modifiers = dpm.next;
                }
                case ARGLIST, TEMPLATE_ARGLIST -> {
                    if (dc.left != null) {
                        comp(dc.left);
                    }
                    if (dc.right != null) {
                        append(", ");
                        int len = out.length();
                        comp(dc.right);
                        if (out.length() == len) {
                            out.setLength(len - 2);
                        }
                    }
                }
                case INITIALIZER_LIST -> {
                    if (dc.left != null) {
                        comp(dc.left);
                    }
                    append('{');
                    comp(dc.right);
                    append('}');
                }
                case OPERATOR -> {
                    String nm = dc.op.name;
                    append("operator");
                    if (isLower(nm.charAt(0))) {
                        append(' ');
                    }
                    append(nm.endsWith(" ") ? nm.substring(0, nm.length() - 1) : nm);
                }
                case EXTENDED_OPERATOR -> {
                    append("operator ");
                    comp(dc.left);
                }
                case CONVERSION -> {
                    append("operator ");
                    conversion(dc);
                }
                case NULLARY -> exprOp(dc.left);
                case UNARY -> unary(dc);
                case BINARY -> binary(dc);
                case BINARY_ARGS, TRINARY_ARG1, TRINARY_ARG2 -> throw FAIL;
                case TRINARY -> trinary(dc);
                case LITERAL, LITERAL_NEG -> literal(dc);
                case NUMBER -> append(Integer.toString(dc.num));
                case DECLTYPE -> {
                    append("decltype (");
                    comp(dc.left);
                    append(')');
                }
                case PACK_EXPANSION -> {
                    Node a = findPack(dc.left);
                    if (a == null) {
                        subexpr(dc.left);
                        append("...");
                        return;
                    }
                    int len = packLength(a);
                    for (int i = 0; i < len; i++) {
                        packIndex = i;
                        comp(dc.left);
                        if (i < len - 1) {
                            append(", ");
                        }
                    }
                }
                case FUNCTION_PARAM -> {
                    if (dc.num == 0) {
                        append("this");
                    } else {
                        append("{parm#");
                        append(Integer.toString(dc.num));
                        append('}');
                    }
                }
                case GLOBAL_CONSTRUCTORS -> prefixed("global constructors keyed to ", dc.left);
                case GLOBAL_DESTRUCTORS -> prefixed("global destructors keyed to ", dc.left);
                case LAMBDA -> {
                    append("{lambda(");
                    lambdaArg++;
                    comp(dc.left);
                    lambdaArg--;
                    append(")#");
                    append(Integer.toString(dc.num + 1));
                    append('}');
                }
                case UNNAMED_TYPE -> {
                    append("{unnamed type#");
                    append(Integer.toString(dc.num + 1));
                    append('}');
                }
                case CLONE -> {
                    comp(dc.left);
                    append(" [clone ");
                    comp(dc.right);
                    append(']');
                }
                default -> throw FAIL;
            }
        }

        private void prefixed(String s, Node n) {
            append(s);
            comp(n);
        }

        private void modifier(Node dc, Node modInner) {
            Mod dpm = new Mod(modifiers, dc, templates);
            modifiers = dpm;
            comp(modInner != null ? modInner : dc.left);
            if (!dpm.printed) {
                mod(dc);
            }
            modifiers = dpm.next;
        }

        private void typedName(Node dc) {
            Mod hold = modifiers;
            modifiers = null;
            Mod[] adpm = new Mod[4];
            int i = 0;
            Node typed = dc.left;
            while (typed != null) {
                if (i >= adpm.length) {
                    throw FAIL;
                }
                adpm[i] = new Mod(modifiers, typed, templates);
                modifiers = adpm[i];
                i++;
                if (!isFnQual(typed.type)) {
                    break;
                }
                typed = typed.left;
            }
            if (typed == null) {
                throw FAIL;
            }
            if (typed.type == LOCAL_NAME) {
                typed = typed.right;
                if (typed.type == DEFAULT_ARG) {
                    typed = typed.left;
                }
                while (typed != null && isFnQual(typed.type)) {
                    if (i >= adpm.length) {
                        throw FAIL;
                    }
                    adpm[i] = adpm[i - 1].copy();
                    adpm[i].next = adpm[i - 1];
                    modifiers = adpm[i];
                    adpm[i - 1].mod = typed;
                    adpm[i - 1].printed = false;
                    adpm[i - 1].templates = templates;
                    i++;
                    typed = typed.left;
                }
                if (typed == null) {
                    throw FAIL;
                }
            }
            Tpl holdTpl = templates;
            if (typed.type == TEMPLATE) {
                templates = new Tpl(templates, typed);
            }
            comp(dc.right);
            if (typed.type == TEMPLATE) {
                templates = holdTpl;
            }
            while (i > 0) {
                --i;
                if (!adpm[i].printed) {
                    append(' ');
                    mod(adpm[i].mod);
                }
            }
            modifiers = hold;
        }

        private void arrayTypeComp(Node dc) {
            Mod hold = modifiers;
            Mod[] adpm = new Mod[4];
            adpm[0] = new Mod(hold, dc, templates);
            modifiers = adpm[0];
            int i = 1;
            Mod p = hold;
            while (p != null && (p.mod.type == RESTRICT || p.mod.type == VOLATILE || p.mod.type == CONST)) {
                if (!p.printed) {
                    if (i >= adpm.length) {
                        throw FAIL;
                    }
                    adpm[i] = p.copy();
                    adpm[i].next = modifiers;
                    modifiers = adpm[i];
                    p.printed = true;
                    i++;
                }
                p = p.next;
            }
            comp(dc.right);
            modifiers = hold;
            if (adpm[0].printed) {
                return;
            }
            while (i > 1) {
                --i;
                mod(adpm[i].mod);
            }
            arrayType(dc, modifiers);
        }

        private void modList(Mod mods, boolean suffix) {
            if (mods == null) {
                return;
            }
            if (mods.printed || (!suffix && isFnQual(mods.mod.type))) {
                modList(mods.next, suffix);
                return;
            }
            mods.printed = true;
            Tpl hold = templates;
            templates = mods.templates;
            if (mods.mod.type == FUNCTION_TYPE) {
                functionType(mods.mod, mods.next);
                templates = hold;
                return;
            } else if (mods.mod.type == ARRAY_TYPE) {
                arrayType(mods.mod, mods.next);
                templates = hold;
                return;
            } else if (mods.mod.type == LOCAL_NAME) {
                Mod holdMods = modifiers;
                modifiers = null;
                comp(mods.mod.left);
                modifiers = holdMods;
                append("::");
                Node dc = mods.mod.right;
                if (dc.type == DEFAULT_ARG) {
                    append("{default arg#");
                    append(Integer.toString(dc.num + 1));
                    append("}::");
                    dc = dc.left;
                }
                while (isFnQual(dc.type)) {
                    dc = dc.left;
                }
                comp(dc);
                templates = hold;
                return;
            }
            mod(mods.mod);
            templates = hold;
            modList(mods.next, suffix);
        }

        private void mod(Node mod) {
            switch (mod.type) {
                case RESTRICT, RESTRICT_THIS -> append(" restrict");
                case VOLATILE, VOLATILE_THIS -> append(" volatile");
                case CONST, CONST_THIS -> append(" const");
                case TRANSACTION_SAFE -> append(" transaction_safe");
                case NOEXCEPT -> {
                    append(" noexcept");
                    if (mod.right != null) {
                        append('(');
                        comp(mod.right);
                        append(')');
                    }
                }
                case THROW_SPEC -> {
                    append(" throw");
                    if (mod.right != null) {
                        append('(');
                        comp(mod.right);
                        append(')');
                    }
                }
                case VENDOR_TYPE_QUAL -> {
                    append(' ');
                    comp(mod.right);
                }
                case POINTER -> append('*');
                case REFERENCE_THIS -> append(" &");
                case REFERENCE -> append('&');
                case RVALUE_REFERENCE_THIS -> append(" &&");
                case RVALUE_REFERENCE -> append("&&");
                case COMPLEX -> append(" _Complex");
                case IMAGINARY -> append(" _Imaginary");
                case PTRMEM_TYPE -> {
                    if (last() != '(') {
                        append(' ');
                    }
                    comp(mod.left);
                    append("::*");
                }
                case TYPED_NAME -> comp(mod.left);
                case VECTOR_TYPE -> {
                    append(" __vector(");
                    comp(mod.left);
                    append(')');
                }
                default -> comp(mod);
            }
        }

        private void functionType(Node dc, Mod mods) {
            boolean needParen = false;
            boolean needSpace = false;
            for (Mod p = mods; p != null; p = p.next) {
                if (p.printed) {
                    break;
                }
                switch (p.mod.type) {
                    case POINTER, REFERENCE, RVALUE_REFERENCE -> needParen = true;
                    case RESTRICT, VOLATILE, CONST, VENDOR_TYPE_QUAL, COMPLEX, IMAGINARY, PTRMEM_TYPE -> {
                        needSpace = true;
                        needParen = true;
                    }
                    default -> {
                    }
                }
                if (needParen) {
                    break;
                }
            }
            if (needParen) {
                if (!needSpace && last() != '(' && last() != '*') {
                    needSpace = true;
                }
                if (needSpace && last() != ' ') {
                    append(' ');
                }
                append('(');
            }
            Mod hold = modifiers;
            modifiers = null;
            modList(mods, false);
            if (needParen) {
                append(')');
            }
            append('(');
            if (dc.right != null) {
                comp(dc.right);
            }
            append(')');
            modList(mods, true);
            modifiers = hold;
        }

        private void arrayType(Node dc, Mod mods) {
            boolean needSpace = true;
            if (mods != null) {
                boolean needParen = false;
                for (Mod p = mods; p != null; p = p.next) {
                    if (!p.printed) {
                        if (p.mod.type == ARRAY_TYPE) {
                            needSpace = false;
                        } else {
                            needParen = true;
                            needSpace = true;
                        }
                        break;
                    }
                }
                if (needParen) {
                    append(" (");
                }
                modList(mods, false);
                if (needParen) {
                    append(')');
                }
            }
            if (needSpace) {
                append(' ');
            }
            append('[');
            if (dc.left != null) {
                comp(dc.left);
            }
            append(']');
        }

        private void conversion(Node dc) {
            Tpl hold = templates;
            if (currentTemplate != null) {
                templates = new Tpl(templates, currentTemplate);
            }
            if (dc.left.type != TEMPLATE) {
                comp(dc.left);
                templates = hold;
            } else {
                comp(dc.left.left);
                templates = hold;
                if (last() == '<') {
                    append(' ');
                }
                append('<');
                comp(dc.left.right);
                if (last() == '>') {
                    append(' ');
                }
                append('>');
            }
        }

        private void exprOp(Node dc) {
            if (dc.type == OPERATOR) {
                append(dc.op.name);
            } else {
                comp(dc);
            }
        }

        private void subexpr(Node dc) {
            boolean simple = dc.type == NAME || dc.type == QUAL_NAME || dc.type == INITIALIZER_LIST
                    || dc.type == FUNCTION_PARAM;
            if (!simple) {
                append('(');
            }
            comp(dc);
            if (!simple) {
                append(')');
            }
        }

        private void unary(Node dc) {
            Node op = dc.left;
            Node operand = dc.right;
            String code = null;
            if (op.type == OPERATOR) {
                code = op.op.code;
                if (code.equals("ad") && operand.type == TYPED_NAME && operand.left.type == QUAL_NAME
                        && operand.right.type == FUNCTION_TYPE) {
                    operand = operand.left;
                }
                if (operand.type == BINARY_ARGS) {
                    subexpr(operand.left);
                    exprOp(op);
                    return;
                }
            }
            if ("sZ".equals(code)) {
                append(Integer.toString(packLength(findPack(operand))));
                return;
            } else if ("sP".equals(code)) {
                int len = 0;
                for (Node a = operand; a != null && a.type == TEMPLATE_ARGLIST; a = a.right) {
                    Node e = a.left;
                    if (e == null) {
                        continue;
                    }
                    if (e.type == PACK_EXPANSION) {
                        len += packLength(findPack(e.left));
                    } else {
                        len++;
                    }
                }
                append(Integer.toString(len));
                return;
            }
            if (op.type != CAST) {
                exprOp(op);
            } else {
                append('(');
                comp(op.left);
                append(')');
            }
            if ("gs".equals(code)) {
                comp(operand);
            } else if ("st".equals(code) || "nx".equals(code)) {
                append('(');
                comp(operand);
                append(')');
            } else {
                subexpr(operand);
            }
        }

        private void binary(Node dc) {
            Node op = dc.left;
            if (dc.right.type != BINARY_ARGS) {
                throw FAIL;
            }
            if (isNewCast(op)) {
                exprOp(op);
                append('<');
                comp(dc.right.left);
                append(">(");
                comp(dc.right.right);
                append(')');
                return;
            }
            if (op.type != OPERATOR) {
                throw FAIL;
            }
            String code = op.op.code;
            if (code.charAt(0) == 'f') {
                // binary fold: (pack op ...) or (... op pack)
                Node operatorNode = dc.right.left;
                Node pack = dc.right.right;
                append('(');
                if (code.equals("fl")) {
                    append("...");
                    foldOp(operatorNode);
                    subexpr(pack);
                } else {
                    subexpr(pack);
                    foldOp(operatorNode);
                    append("...");
                }
                append(')');
                return;
            }
            if (code.equals("di") || code.equals("dx")) {
                if (code.equals("di")) {
                    append('.');
                    comp(dc.right.left);
                } else {
                    append('[');
                    comp(dc.right.left);
                    append(']');
                }
                Node init = dc.right.right;
                if (!isDesignatedInit(init)) {
                    append(" = ");
                }
                comp(init);
                return;
            }
            boolean gt = op.op.name.equals(">");
            if (gt) {
                append('(');
            }
            if (code.equals("cl") && dc.right.left.type == TYPED_NAME) {
                Node func = dc.right.left;
                if (func.right.type != FUNCTION_TYPE) {
                    throw FAIL;
                }
                subexpr(func.left);
            } else {
                subexpr(dc.right.left);
            }
            if (code.equals("ix")) {
                append('[');
                comp(dc.right.right);
                append(']');
            } else {
                if (!code.equals("cl")) {
                    exprOp(op);
                }
                subexpr(dc.right.right);
            }
            if (gt) {
                append(')');
            }
        }

        private static boolean isDesignatedInit(Node n) {
            if (n.type != BINARY && n.type != TRINARY) {
                return false;
            }
            if (n.left.type != OPERATOR) {
                return false;
            }
            String c = n.left.op.code;
            return c.equals("di") || c.equals("dx") || c.equals("dX");
        }

        private void foldOp(Node operatorNode) {
            exprOp(operatorNode);
        }

        private void trinary(Node dc) {
            if (dc.right.type != TRINARY_ARG1 || dc.right.right.type != TRINARY_ARG2) {
                throw FAIL;
            }
            Node op = dc.left;
            Node first = dc.right.left;
            Node second = dc.right.right.left;
            Node third = dc.right.right.right;
            String code = op.op.code;
            if (code.equals("fL") || code.equals("fR")) {
                append('(');
                subexpr(second);
                foldOp(first);
                append("...");
                foldOp(first);
                subexpr(third);
                append(')');
                return;
            }
            if (code.equals("dX")) {
                append('[');
                comp(first);
                append(" ... ");
                comp(second);
                append(']');
                if (!isDesignatedInit(third)) {
                    append(" = ");
                }
                comp(third);
                return;
            }
            if (code.equals("qu")) {
                subexpr(first);
                exprOp(op);
                subexpr(second);
                append(" : ");
                subexpr(third);
            } else {
                append("new ");
                if (first.left != null) {
                    subexpr(first);
                    append(' ');
                }
                comp(second);
                if (third != null) {
                    subexpr(third);
                }
            }
        }

        private void literal(Node dc) {
            int tp = P_DEFAULT;
            if (dc.left.type == BUILTIN_TYPE) {
                tp = dc.left.builtin.print;
                switch (tp) {
                    case P_INT, P_UNSIGNED, P_LONG, P_UNSIGNED_LONG, P_LONG_LONG, P_UNSIGNED_LONG_LONG -> {
                        if (dc.right.type == NAME) {
                            if (dc.type == LITERAL_NEG) {
                                append('-');
                            }
                            comp(dc.right);
                            switch (tp) {
                                case P_UNSIGNED -> append('u');
                                case P_LONG -> append('l');
                                case P_UNSIGNED_LONG -> append("ul");
                                case P_LONG_LONG -> append("ll");
                                case P_UNSIGNED_LONG_LONG -> append("ull");
                                default -> {
                                }
                            }
                            return;
                        }
                    }
                    case P_BOOL -> {
                        if (dc.right.type == NAME && dc.right.s.length() == 1 && dc.type == LITERAL) {
                            if (dc.right.s.charAt(0) == '0') {
                                append("false");
                                return;
                            } else if (dc.right.s.charAt(0) == '1') {
                                append("true");
                                return;
                            }
                        }
                    }
                    default -> {
                    }
                }
            }
            append('(');
            comp(dc.left);
            append(')');
            if (dc.type == LITERAL_NEG) {
                append('-');
            }
            if (tp == P_FLOAT) {
                append('[');
            }
            comp(dc.right);
            if (tp == P_FLOAT) {
                append(']');
            }
        }

        private Node findPack(Node dc) {
            if (dc == null) {
                return null;
            }
            switch (dc.type) {
                case TEMPLATE_PARAM: {
                    Node a = lookupTemplateArgument(dc);
                    return a != null && a.type == TEMPLATE_ARGLIST ? a : null;
                }
                case PACK_EXPANSION, LAMBDA, NAME, TAGGED_NAME, OPERATOR, BUILTIN_TYPE, SUB_STD,
                        FUNCTION_PARAM, UNNAMED_TYPE, DEFAULT_ARG, NUMBER:
                    return null;
                case EXTENDED_OPERATOR, CTOR, DTOR:
                    return findPack(dc.left);
                default: {
                    Node a = findPack(dc.left);
                    return a != null ? a : findPack(dc.right);
                }
            }
        }

        private static int packLength(Node dc) {
            int count = 0;
            while (dc != null && dc.type == TEMPLATE_ARGLIST && dc.left != null) {
                count++;
                dc = dc.right;
            }
            return count;
        }
    }
}
