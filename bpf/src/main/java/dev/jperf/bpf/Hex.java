package dev.jperf.bpf;

import dev.jperf.format.json.JsonWriter;

/** bpftool's hex printers: fprint_hex (plain) and print_hex_data_json. */
final class Hex {
    private Hex() {}

    /** fprint_hex: bytes as {@code %02x}, {@code sep} between, two spaces after 8, a newline after 16. */
    static void plain(StringBuilder out, byte[] data, int off, int n, String sep) {
        for (int i = 0; i < n; i++) {
            if (i != 0) {
                if (i % 16 == 0) {
                    out.append('\n');
                } else if (i % 8 == 0) {
                    out.append("  ");
                } else {
                    out.append(sep);
                }
            }
            appendByte(out, data[off + i]);
        }
    }

    /** print_hex_data_json: an array of "0x%02x" strings. */
    static void json(JsonWriter jw, byte[] data, int off, int n) {
        jw.startArray();
        StringBuilder b = new StringBuilder(6);
        for (int i = 0; i < n; i++) {
            b.setLength(0);
            b.append("\"0x");
            appendByte(b, data[off + i]);
            jw.raw(b.append('"').toString());
        }
        jw.endArray();
    }

    static void appendByte(StringBuilder out, byte v) {
        out.append(Character.forDigit((v >> 4) & 0xf, 16)).append(Character.forDigit(v & 0xf, 16));
    }
}
