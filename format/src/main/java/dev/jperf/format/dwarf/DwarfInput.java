package dev.jperf.format.dwarf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A cursor over one DWARF section: fixed-size little/big-endian values, LEB128 numbers and
 * NUL-terminated strings, every read bounded by the section (or by a unit's end once
 * {@link #limit(long)} is set), each failure a {@link DwarfException} naming the section and offset.
 */
final class DwarfInput {
    private final ByteBuffer buf;
    private final String section;
    private int pos;
    private int limit;

    DwarfInput(byte[] bytes, ByteOrder order, String section) {
        this.buf = ByteBuffer.wrap(bytes).order(order);
        this.section = section;
        this.limit = bytes.length;
    }

    int position() {
        return pos;
    }

    void seek(long p) throws DwarfException {
        if (p < 0 || p > limit) {
            throw error(p, "offset out of the section");
        }
        pos = (int) p;
    }

    int limit() {
        return limit;
    }

    /** Bounds later reads to {@code end} (a unit's end), which must lie within the section. */
    void limit(long end) throws DwarfException {
        if (end < pos || end > buf.capacity()) {
            throw error(pos, "a unit length of " + (end - pos) + " runs past the section's end");
        }
        limit = (int) end;
    }

    boolean atEnd() {
        return pos >= limit;
    }

    private void need(int n) throws DwarfException {
        if (n < 0 || limit - pos < n) {
            throw error(pos, "truncated");
        }
    }

    DwarfException error(long at, String why) {
        return new DwarfException(section + " at 0x" + Long.toHexString(at) + ": " + why);
    }

    int u8() throws DwarfException {
        need(1);
        return buf.get(pos++) & 0xff;
    }

    int u16() throws DwarfException {
        need(2);
        int v = buf.getShort(pos) & 0xffff;
        pos += 2;
        return v;
    }

    long u32() throws DwarfException {
        need(4);
        long v = Integer.toUnsignedLong(buf.getInt(pos));
        pos += 4;
        return v;
    }

    long u64() throws DwarfException {
        need(8);
        long v = buf.getLong(pos);
        pos += 8;
        return v;
    }

    /** An unsigned value of {@code size} bytes (1, 2, 4 or 8): an address or an offset. */
    long unsigned(int size) throws DwarfException {
        return switch (size) {
            case 1 -> u8();
            case 2 -> u16();
            case 4 -> u32();
            case 8 -> u64();
            default -> throw error(pos, "unsupported size " + size);
        };
    }

    void skip(long n) throws DwarfException {
        if (n < 0 || n > limit - pos) {
            throw error(pos, "truncated");
        }
        pos += (int) n;
    }

    long uleb() throws DwarfException {
        long v = 0;
        int shift = 0;
        while (true) {
            int b = u8();
            if (shift < 64) {
                v |= (long) (b & 0x7f) << shift;
            }
            shift += 7;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
    }

    long sleb() throws DwarfException {
        long v = 0;
        int shift = 0;
        int b;
        do {
            b = u8();
            if (shift < 64) {
                v |= (long) (b & 0x7f) << shift;
            }
            shift += 7;
        } while ((b & 0x80) != 0);
        if (shift < 64 && (b & 0x40) != 0) {
            v |= -1L << shift;
        }
        return v;
    }

    /** A NUL-terminated string (UTF-8) at the cursor. */
    String cstring() throws DwarfException {
        int start = pos;
        while (true) {
            if (pos >= limit) {
                throw error(start, "unterminated string");
            }
            if (buf.get(pos) == 0) {
                break;
            }
            pos++;
        }
        byte[] b = new byte[pos - start];
        buf.get(start, b);
        pos++;
        return new String(b, StandardCharsets.UTF_8);
    }

    /** The NUL-terminated string at {@code offset} of a string section ({@code .debug_str}, {@code .debug_line_str}). */
    static String stringAt(byte[] section, long offset, String name) throws DwarfException {
        if (section == null || offset < 0 || offset >= section.length) {
            throw new DwarfException(name + ": no string at 0x" + Long.toHexString(offset));
        }
        int end = (int) offset;
        while (end < section.length && section[end] != 0) {
            end++;
        }
        if (end == section.length) {
            throw new DwarfException(name + " at 0x" + Long.toHexString(offset) + ": unterminated string");
        }
        return new String(section, (int) offset, end - (int) offset, StandardCharsets.UTF_8);
    }
}
