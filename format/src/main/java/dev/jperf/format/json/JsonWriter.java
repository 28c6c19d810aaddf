package dev.jperf.format.json;

/**
 * bpftool's json_writer (tools/bpf/bpftool/json_writer.c) in Java: the same separators, the same
 * pretty layout (a newline and four spaces per level before each name and closing bracket, values
 * of an array on one line) and the same string escapes, including its quirks as Debian's bpftool
 * 7.1 prints them, so that {@code jperf bpf ... --json} equals {@code bpftool -j ...} byte for
 * byte. Appends to a {@link StringBuilder}; not thread-safe.
 *
 * <p>For jperf's own JSON, which no bpftool wrote, {@link #standard} gives RFC 8259's escapes
 * instead of bpftool's quirks, and {@link #spaced} the one-line layout with {@code ", "} and
 * {@code ": "} (Python's json.dumps default) that jperf's JSON lines use; {@link #colonSpaced} makes
 * the latter {@code " : "}, perf stat's {@code -j} layout; {@link #scriptSafe} adds the escapes a
 * JSON value inside an HTML script element needs.
 */
public final class JsonWriter {
    private final StringBuilder out;
    private boolean pretty;
    private boolean spaced;
    private boolean standard;
    private boolean colonSpaced;
    private boolean scriptSafe;
    private int depth;
    /** The separator due before the next element: ',' or none. */
    private boolean comma;

    public JsonWriter(StringBuilder out) {
        this.out = out;
    }

    public StringBuilder out() {
        return out;
    }

    /** jsonw_pretty. */
    public JsonWriter pretty(boolean on) {
        pretty = on;
        return this;
    }

    /**
     * One line, {@code ", "} between elements and {@code ": "} after a name, instead of bpftool's
     * bare {@code ,} and {@code :}.
     */
    public JsonWriter spaced(boolean on) {
        spaced = on;
        return this;
    }

    /**
     * RFC 8259's string escapes instead of bpftool's: a backslash before a quote or backslash,
     * every other control character as a six-character u00XX escape.
     */
    public JsonWriter standard(boolean on) {
        standard = on;
        return this;
    }

    /** {@code " : "} after a name (perf stat's {@code -j}: print_counter_value_json's fprintf formats). */
    public JsonWriter colonSpaced(boolean on) {
        colonSpaced = on;
        return this;
    }

    /**
     * With {@link #standard}: also {@code <} (so no {@code </script>} ends the element early) and
     * U+2028/U+2029 (line ends to older JavaScript) as u-escapes.
     */
    public JsonWriter scriptSafe(boolean on) {
        scriptSafe = on;
        return this;
    }

    /** jsonw_reset: a new top-level value starts without a separator. */
    public void reset() {
        comma = false;
    }

    /** jsonw_destroy's output: the closing newline. */
    public void finish() {
        out.append('\n');
    }

    private void eol() {
        if (pretty) {
            out.append('\n');
            for (int i = 0; i < depth; i++) {
                out.append("    ");
            }
        }
    }

    private void eor() {
        if (comma) {
            out.append(spaced ? ", " : ",");
        }
        comma = true;
    }

    /**
     * perf's output_json_string (util/data-convert-json.c, what {@code perf data convert --to-json}
     * writes) over the string's UTF-8 bytes, quoted: RFC 8259's short escapes, other control bytes
     * as u00XX, and, because the C walks a signed char, every byte of a multi-byte character as
     * {@code \uffffffXX}, as perf 6.1 on x86-64 prints it.
     */
    public static String perfDataConvertString(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                byte[] bytes = s.substring(i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
                for (byte x : bytes) {
                    perfByte(b, x);
                }
                return b.append('"').toString();
            }
            perfByte(b, (byte) c);
        }
        return b.append('"').toString();
    }

    private static void perfByte(StringBuilder b, byte c) {
        switch (c) {
            case '"' -> b.append("\\\"");
            case '\\' -> b.append("\\\\");
            case '\b' -> b.append("\\b");
            case '\f' -> b.append("\\f");
            case '\n' -> b.append("\\n");
            case '\r' -> b.append("\\r");
            case '\t' -> b.append("\\t");
            default -> {
                if (c <= 0x1f) { // signed, as C's char: bytes >= 0x80 too, printed as %04x of a negative int
                    String hex = Integer.toHexString(c);
                    b.append("\\u");
                    for (int k = hex.length(); k < 4; k++) {
                        b.append('0');
                    }
                    b.append(hex);
                } else {
                    b.append((char) c);
                }
            }
        }
    }

    private void puts(String s) {
        out.append('"');
        if (standard) {
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '"' || c == '\\') {
                    out.append('\\').append(c);
                } else if (c < 0x20 || scriptSafe && (c == '<' || c == 0x2028 || c == 0x2029)) {
                    out.append("\\u").append(Character.forDigit(c >> 12, 16)).append(Character.forDigit(c >> 8 & 0xf, 16))
                            .append(Character.forDigit(c >> 4 & 0xf, 16)).append(Character.forDigit(c & 0xf, 16));
                } else {
                    out.append(c);
                }
            }
            out.append('"');
            return;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\f' -> out.append("\\f");
                case '\b' -> out.append("\\b");
                case '\\' -> out.append("\\n"); // json_writer.c's typo, still in Debian's bpftool 7.1
                case '"' -> out.append("\\\"");
                default -> out.append(c);
            }
        }
        out.append('"');
    }

    private void begin(char c) {
        eor();
        out.append(c);
        depth++;
        comma = false;
    }

    private void end(char c) {
        depth--;
        if (comma) {
            eol();
        }
        out.append(c);
        comma = true;
    }

    public void startObject() {
        begin('{');
    }

    public void endObject() {
        end('}');
    }

    public void startArray() {
        begin('[');
    }

    public void endArray() {
        end(']');
    }

    /** jsonw_name. */
    public void name(String name) {
        eor();
        eol();
        comma = false;
        puts(name);
        if (colonSpaced) {
            out.append(' ');
        }
        out.append(':');
        if (pretty || spaced || colonSpaced) {
            out.append(' ');
        }
    }

    /** jsonw_printf: {@code text} as it is, after a separator. */
    public void raw(String text) {
        eor();
        out.append(text);
    }

    public void string(String value) {
        eor();
        puts(value);
    }

    public void bool(boolean value) {
        raw(value ? "true" : "false");
    }

    public void nul() {
        raw("null");
    }

    /** jsonw_uint: {@code value} as an unsigned 64-bit number. */
    public void uint(long value) {
        raw(Long.toUnsignedString(value));
    }

    /** jsonw_int. */
    public void integer(long value) {
        raw(Long.toString(value));
    }

    public void stringField(String name, String value) {
        name(name);
        string(value);
    }

    public void boolField(String name, boolean value) {
        name(name);
        bool(value);
    }

    public void uintField(String name, long value) {
        name(name);
        uint(value);
    }

    public void intField(String name, long value) {
        name(name);
        integer(value);
    }
}
