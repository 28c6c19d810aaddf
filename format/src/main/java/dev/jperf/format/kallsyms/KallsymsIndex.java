package dev.jperf.format.kallsyms;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The one owner of a kallsyms file's symbols: every well-formed line ({@link KallsymsParser}) kept in
 * file order as arrays (address, type, name as a range of the file's bytes, module), with an index in
 * address order (stable: of several symbols at one address, file order decides) and an index by
 * name, both built when first asked. What each user keeps of it (perf's types, bpftool's order, the
 * kernel text range) is the user's; malformed lines are skipped and the first one is named
 * ({@link #firstMalformed}).
 */
public final class KallsymsIndex {
    /** The chunk a head read asks for: the kernel formats as much as a read asks, _text is on line 2 or 3. */
    private static final int HEAD_CHUNK = 4096;

    private final byte[] bytes;
    private final boolean complete;
    private final int n;
    private final long[] address;
    private final int[] nameAt;
    private final int[] nameLen;
    private final byte[] type;
    /** Index into {@link #moduleNames}, -1 for the kernel's own symbols. */
    private final int[] module;
    private final String[] moduleNames;
    private final int malformedLine;
    private final String malformedReason;
    /** Positions in address order; null until asked, {@link #inFileOrder} when the file is sorted. */
    private int[] byAddress;
    private final boolean sorted;
    /** Name hash chains: heads[hash & mask] -> first index, chain[i] -> next index of that bucket (file order). */
    private int[] heads;
    private int[] chain;

    private KallsymsIndex(byte[] bytes, int length, boolean complete) {
        this.bytes = bytes;
        this.complete = complete;
        // sized for the whole file at once (lines are ~45 bytes)
        int cap = Math.max(16, length / 40);
        long[] addr = new long[cap];
        int[] at = new int[cap];
        int[] len = new int[cap];
        byte[] typ = new byte[cap];
        int[] mod = new int[cap];
        List<String> mods = new ArrayList<>();
        int lastMod = -1;
        int count = 0;
        boolean inOrder = true;
        int badLine = 0;
        String badReason = null;
        KallsymsParser p = new KallsymsParser(bytes, 0, length, true);
        while (p.next()) {
            if (p.blank()) {
                continue;
            }
            boolean hex = p.parseAddress();
            if (!hex || !p.wellFormed()) {
                if (badReason == null) {
                    badLine = p.lineNumber();
                    badReason = hex ? "not a kallsyms line" : "bad address";
                }
                continue;
            }
            if (count == addr.length) {
                int c = count * 2;
                addr = Arrays.copyOf(addr, c);
                at = Arrays.copyOf(at, c);
                len = Arrays.copyOf(len, c);
                typ = Arrays.copyOf(typ, c);
                mod = Arrays.copyOf(mod, c);
            }
            int m = -1;
            if (p.hasModule()) {
                if (lastMod < 0 || !p.moduleIs(mods.get(lastMod))) {
                    String name = new String(bytes, p.moduleStart(), p.lineEnd() - p.moduleStart(),
                            StandardCharsets.ISO_8859_1);
                    lastMod = mods.indexOf(name);
                    if (lastMod < 0) {
                        lastMod = mods.size();
                        mods.add(name);
                    }
                }
                m = lastMod;
            }
            long a = p.address();
            if (count > 0 && Long.compareUnsigned(a, addr[count - 1]) < 0) {
                inOrder = false;
            }
            addr[count] = a;
            at[count] = p.nameStart();
            len[count] = p.nameEnd() - p.nameStart();
            typ[count] = (byte) p.type();
            mod[count] = m;
            count++;
        }
        this.n = count;
        this.address = addr;
        this.nameAt = at;
        this.nameLen = len;
        this.type = typ;
        this.module = mod;
        this.moduleNames = mods.toArray(new String[0]);
        this.sorted = inOrder;
        this.malformedLine = badLine;
        this.malformedReason = badReason;
    }

    /** The symbols of kallsyms text held in {@code file}. */
    public static KallsymsIndex of(byte[] file) {
        return new KallsymsIndex(file, file.length, true);
    }

    /** The whole file. */
    public static KallsymsIndex read(Path file) throws IOException {
        return of(Files.readAllBytes(file));
    }

    /** The whole file; no symbols when it cannot be read. */
    public static KallsymsIndex readOrEmpty(Path file) {
        try {
            return read(file);
        } catch (IOException e) {
            return of(new byte[0]);
        }
    }

    /**
     * The head of the file, up to the line of the kernel's symbol {@code name} (the whole file when
     * there is none): the kernel formats /proc/kallsyms as it is read (~40 ms of CPU for the whole),
     * so a caller that wants {@code _text} reads a page of it. {@link #complete} tells which it was.
     */
    public static KallsymsIndex readUntil(Path file, String name) throws IOException {
        byte[] buf = new byte[HEAD_CHUNK];
        int filled = 0;
        int scanned = 0;
        try (InputStream in = Files.newInputStream(file)) {
            for (int r; (r = in.read(buf, filled, buf.length - filled)) >= 0; ) {
                filled += r;
                KallsymsParser p = new KallsymsParser(buf, scanned, filled, false);
                while (p.next()) {
                    if (p.wellFormed() && !p.hasModule() && p.nameIs(name)) {
                        return new KallsymsIndex(buf, p.consumed(), false);
                    }
                }
                scanned = p.consumed();
                if (filled == buf.length) {
                    buf = Arrays.copyOf(buf, buf.length * 2);
                }
            }
        }
        return new KallsymsIndex(Arrays.copyOf(buf, filled), filled, true);
    }

    /** Whether the whole file was read (not only its head: {@link #readUntil}). */
    public boolean complete() {
        return complete;
    }

    /** The file's bytes the names are ranges of (the head only, when not {@link #complete}). */
    public byte[] bytes() {
        return bytes;
    }

    /** Number of symbols (well-formed lines). */
    public int size() {
        return n;
    }

    /**
     * Whether there are symbols and every address is 0: kallsyms as the kernel shows it to a user it
     * hides addresses from (kptr_restrict, perf_event_paranoid).
     */
    public boolean hidden() {
        if (n == 0) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (address[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /** 1-based number of the first malformed (not blank) line, 0 when there is none. */
    public int firstMalformed() {
        return malformedLine;
    }

    /** What is wrong with line {@link #firstMalformed} ("bad address", "not a kallsyms line"), or null. */
    public String malformedReason() {
        return malformedReason;
    }

    public long address(int i) {
        return address[i];
    }

    /** The symbol's type character (T, t, W, D, b, A...). */
    public char type(int i) {
        return (char) (type[i] & 0xff);
    }

    public int nameStart(int i) {
        return nameAt[i];
    }

    public int nameLength(int i) {
        return nameLen[i];
    }

    /** The name as a String (ISO-8859-1: kallsyms names are ASCII). */
    public String name(int i) {
        return new String(bytes, nameAt[i], nameLen[i], StandardCharsets.ISO_8859_1);
    }

    public boolean nameIs(int i, String s) {
        int at = nameAt[i];
        if (nameLen[i] != s.length()) {
            return false;
        }
        for (int k = 0; k < s.length(); k++) {
            if (bytes[at + k] != s.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** Whether the symbol is a module's ({@code \t[module]} after the name). */
    public boolean hasModule(int i) {
        return module[i] >= 0;
    }

    /** The module as written, brackets included ("[ext4]"); null for the kernel's own symbols. */
    public String module(int i) {
        return module[i] < 0 ? null : moduleNames[module[i]];
    }

    /** The {@code k}-th symbol in address order (unsigned; stable). */
    public int byAddress(int k) {
        if (sorted) {
            return k;
        }
        if (byAddress == null) {
            byAddress = addressOrder();
        }
        return byAddress[k];
    }

    /** Whether the file lists its symbols in address order (as /proc/kallsyms does). */
    public boolean inAddressOrder() {
        return sorted;
    }

    private int[] addressOrder() {
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> Long.compareUnsigned(address[x], address[y]));
        int[] o = new int[n];
        for (int i = 0; i < n; i++) {
            o[i] = order[i];
        }
        return o;
    }

    /**
     * The last symbol in address order whose address is at or below {@code addr} (unsigned): the one
     * an address inside a function falls in; -1 when every symbol is above it.
     */
    public int floor(long addr) {
        int lo = 0;
        int hi = n - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(address[byAddress(mid)], addr) <= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found < 0 ? -1 : byAddress(found);
    }

    /** The first symbol named {@code name} in file order (the kernel's or a module's), or -1. */
    public int indexOf(String name) {
        return find(name, false);
    }

    /** The first of the kernel's own symbols (not a module's) named {@code name}, or -1. */
    public int kernelIndexOf(String name) {
        return find(name, true);
    }

    /** The address of the first symbol named {@code name}; 0 when there is none. */
    public long addressOf(String name) {
        int i = indexOf(name);
        return i < 0 ? 0 : address[i];
    }

    private int find(String name, boolean kernelOnly) {
        if (heads == null) {
            indexNames();
        }
        int h = 0;
        for (int k = 0; k < name.length(); k++) {
            h = 31 * h + (name.charAt(k) & 0xff);
        }
        for (int i = heads[mix(h) & (heads.length - 1)]; i >= 0; i = chain[i]) {
            if ((!kernelOnly || module[i] < 0) && nameIs(i, name)) {
                return i;
            }
        }
        return -1;
    }

    private void indexNames() {
        int size = Integer.highestOneBit(Math.max(16, n * 2 - 1)) << 1;
        int[] head = new int[size];
        Arrays.fill(head, -1);
        int[] tail = new int[size];
        int[] next = new int[n];
        for (int i = 0; i < n; i++) {
            int h = 0;
            for (int k = nameAt[i], e = k + nameLen[i]; k < e; k++) {
                h = 31 * h + (bytes[k] & 0xff);
            }
            int b = mix(h) & (size - 1);
            next[i] = -1;
            // appended, so a chain walks in file order
            if (head[b] < 0) {
                head[b] = i;
            } else {
                next[tail[b]] = i;
            }
            tail[b] = i;
        }
        chain = next;
        heads = head;
    }

    private static int mix(int h) {
        return h ^ (h >>> 16);
    }
}
