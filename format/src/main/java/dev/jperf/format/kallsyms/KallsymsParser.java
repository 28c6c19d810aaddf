package dev.jperf.format.kallsyms;

import java.nio.charset.StandardCharsets;

/**
 * The one parser of kallsyms text ({@code /proc/kallsyms}, or its copy in a build-id cache): lines
 * {@code ADDR TYPE NAME} for the kernel and {@code ADDR TYPE NAME\t[MODULE]} for modules (the
 * kernel's s_show). A cursor over bytes: {@link #next} moves to the next line and finds its fields
 * as ranges of the bytes, nothing is allocated per line and the address is parsed only when asked
 * ({@link #parseAddress}), so one pass over a 5 MB file costs a few milliseconds. It reads a whole
 * file or chunks as they come: without {@code atEnd} a last line with no line break is left for
 * the next chunk ({@link #consumed}). What a reader keeps, and what it does with a malformed line
 * ({@link #wellFormed} false), is the reader's.
 */
public final class KallsymsParser {
    private final byte[] b;
    private final int limit;
    private final boolean atEnd;
    /** Start of the line after the current one. */
    private int next;
    private int lineNumber;
    private int lineStart;
    /** End of the current line, without its line break (and a carriage return before it). */
    private int lineEnd;
    /** The first space of the line (end of the address), or lineEnd. */
    private int addressEnd;
    private boolean wellFormed;
    private int nameStart;
    private int nameEnd;
    private long address;

    /**
     * The lines of {@code b[from, to)}; {@code atEnd}: the bytes end where the file ends, so a last
     * line without a line break is a line too.
     */
    public KallsymsParser(byte[] b, int from, int to, boolean atEnd) {
        this.b = b;
        this.next = from;
        this.limit = to;
        this.atEnd = atEnd;
    }

    /** The lines of a whole file. */
    public static KallsymsParser of(byte[] file) {
        return new KallsymsParser(file, 0, file.length, true);
    }

    /**
     * Moves to the next line; false when none is left (or the rest is a line the next chunk ends).
     * One scan over the line's bytes: the address to its space, the name to its tab, the module.
     */
    public boolean next() {
        int p = next;
        if (p >= limit) {
            return false;
        }
        int sp = p;
        while (sp < limit && b[sp] != ' ' && b[sp] != '\n') {
            sp++;
        }
        // "ADDR T NAME": a type character between two spaces, the name after them (may be empty)
        boolean fields = sp + 2 < limit && b[sp] == ' ' && b[sp + 1] != '\n' && b[sp + 2] == ' ';
        int name = fields ? sp + 3 : sp;
        int tab = -1;
        int eol = name;
        while (eol < limit && b[eol] != '\n') {
            if (b[eol] == '\t' && tab < 0) {
                tab = eol;
            }
            eol++;
        }
        if (eol == limit && !atEnd) {
            return false;
        }
        next = eol + 1;
        lineNumber++;
        lineStart = p;
        int end = eol > p && b[eol - 1] == '\r' ? eol - 1 : eol;
        lineEnd = end;
        addressEnd = Math.min(sp, end);
        wellFormed = fields && sp > p && name <= end;
        if (wellFormed) {
            nameStart = name;
            nameEnd = tab >= 0 && tab < end ? tab : end;
        } else {
            nameStart = nameEnd = end;
        }
        return true;
    }

    /** Bytes of the whole lines returned so far, from the start given: where the next chunk starts. */
    public int consumed() {
        return Math.min(next, limit);
    }

    /** 1-based number of the current line among those this parser returned. */
    public int lineNumber() {
        return lineNumber;
    }

    public int lineStart() {
        return lineStart;
    }

    public int lineEnd() {
        return lineEnd;
    }

    /** Whether the line is empty or white space only. */
    public boolean blank() {
        for (int i = lineStart; i < lineEnd; i++) {
            if (!Character.isWhitespace(b[i])) {
                return false;
            }
        }
        return true;
    }

    /** Whether the line is {@code ADDR TYPE NAME[\tMODULE]} (the address's digits not checked). */
    public boolean wellFormed() {
        return wellFormed;
    }

    /**
     * Parses the address (the hex digits before the first space: one to 16, no prefix) for
     * {@link #address}; false if it has another character or more digits. An empty address is
     * not well formed.
     */
    public boolean parseAddress() {
        long v = 0;
        for (int i = lineStart; i < addressEnd; i++) {
            int d = hexDigit(b[i]);
            if (d < 0 || i - lineStart >= 16) {
                return false;
            }
            v = v << 4 | d;
        }
        address = v;
        return true;
    }

    /** The address {@link #parseAddress} read (0 where kptr_restrict hides addresses). */
    /** An ASCII hex digit's value, else -1 (what Character.digit(c, 16) gives for a byte, without its tables). */
    private static int hexDigit(int c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        int lower = c | 0x20;
        return lower >= 'a' && lower <= 'f' ? lower - 'a' + 10 : -1;
    }

    public long address() {
        return address;
    }

    /** The symbol's type character (T, t, W, D, b, A...); only on a well-formed line. */
    public char type() {
        return (char) (b[addressEnd + 1] & 0xff);
    }

    public int nameStart() {
        return nameStart;
    }

    /** End of the name: its tab before the module, or the line's end. */
    public int nameEnd() {
        return nameEnd;
    }

    /** Whether the symbol is a module's ({@code \t[module]} after the name). */
    public boolean hasModule() {
        return nameEnd < lineEnd;
    }

    /** Start of the module as written, brackets included ("[ext4]"); the line's end without one. */
    public int moduleStart() {
        return hasModule() ? nameEnd + 1 : lineEnd;
    }

    public boolean nameIs(String s) {
        return same(nameStart, nameEnd, s);
    }

    public boolean moduleIs(String s) {
        return hasModule() && same(nameEnd + 1, lineEnd, s);
    }

    /** The name as a String (ISO-8859-1: kallsyms names are ASCII). */
    public String name() {
        return new String(b, nameStart, nameEnd - nameStart, StandardCharsets.ISO_8859_1);
    }

    /** Whether {@code b[from, to)} is the ASCII string {@code s}. */
    private boolean same(int from, int to, String s) {
        if (to - from != s.length()) {
            return false;
        }
        for (int i = 0; i < to - from; i++) {
            if (b[from + i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
