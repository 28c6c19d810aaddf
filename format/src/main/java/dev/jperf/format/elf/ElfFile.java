package dev.jperf.format.elf;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * A read-only ELF file (32 or 64 bit, either byte order): section and program headers, symbol
 * tables, notes (GNU build-id), {@code .gnu_debuglink} and relocation tables. The file is mapped;
 * headers are read at open, symbol tables only when asked for. Every offset and count read from the
 * file is checked against the file's size before use, so a hostile file fails with one
 * {@link ElfException} line and never an allocation sized by an unchecked field.
 */
public final class ElfFile {
    public static final int ET_REL = 1;
    public static final int ET_EXEC = 2;
    public static final int ET_DYN = 3;
    public static final int EM_386 = 3;
    public static final int EM_ARM = 40;
    public static final int EM_X86_64 = 62;
    public static final int EM_AARCH64 = 183;
    public static final int NT_GNU_BUILD_ID = 3;

    private final String name;
    private final ByteBuffer buf;
    private final boolean is64;
    private final int type;
    private final int machine;
    private final List<ElfSection> sections;
    private final List<ElfProgramHeader> programHeaders;

    private ElfFile(String name, ByteBuffer buf) throws ElfException {
        this.name = name;
        this.buf = buf;
        if (buf.limit() < 16 || buf.get(0) != 0x7f || buf.get(1) != 'E' || buf.get(2) != 'L' || buf.get(3) != 'F') {
            throw new ElfException(name + ": not an ELF file");
        }
        int cls = buf.get(4);
        if (cls != 1 && cls != 2) {
            throw new ElfException(name + ": bad ELF class " + cls);
        }
        is64 = cls == 2;
        int data = buf.get(5);
        if (data != 1 && data != 2) {
            throw new ElfException(name + ": bad ELF data encoding " + data);
        }
        buf.order(data == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
        try {
            need(0, is64 ? 64 : 52, "ELF header");
            type = u16(16);
            machine = u16(18);
            long phoff = is64 ? buf.getLong(32) : u32(28);
            long shoff = is64 ? buf.getLong(40) : u32(32);
            int phentsize = u16(is64 ? 54 : 42);
            int phnum = u16(is64 ? 56 : 44);
            int shentsize = u16(is64 ? 58 : 46);
            long shnum = u16(is64 ? 60 : 48);
            int shstrndx = u16(is64 ? 62 : 50);
            if (shoff != 0 && shnum == 0 && shentsize > 0) {
                // more than 0xff00 sections: the real count is in section 0's sh_size
                need(shoff, shentsize, "section header 0");
                shnum = is64 ? buf.getLong((int) shoff + 32) : u32((int) shoff + 20);
            }
            programHeaders = readProgramHeaders(phoff, phentsize, phnum);
            sections = readSections(shoff, shentsize, shnum, shstrndx);
        } catch (IndexOutOfBoundsException | BufferUnderflowException e) {
            throw new ElfException(name + ": truncated ELF headers");
        }
    }

    /** Opens and maps {@code file}. */
    public static ElfFile open(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size > Integer.MAX_VALUE) {
                throw new ElfException(file + ": ELF file over 2 GiB not supported");
            }
            ByteBuffer b = ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
            return new ElfFile(file.toString(), b);
        }
    }

    /** Parses an ELF image held in memory ({@code name} is used in messages). */
    public static ElfFile of(String name, byte[] image) throws ElfException {
        return new ElfFile(name, ByteBuffer.wrap(image));
    }

    public String name() {
        return name;
    }

    /** The byte order of the file's data (EI_DATA). */
    public java.nio.ByteOrder order() {
        return buf.order();
    }

    public boolean is64() {
        return is64;
    }

    /** e_type: {@link #ET_EXEC}, {@link #ET_DYN}, ... */
    public int type() {
        return type;
    }

    /** e_machine: {@link #EM_X86_64}, ... */
    public int machine() {
        return machine;
    }

    public List<ElfSection> sections() {
        return sections;
    }

    public List<ElfProgramHeader> programHeaders() {
        return programHeaders;
    }

    /** The first section called {@code sectionName}. */
    public Optional<ElfSection> section(String sectionName) {
        for (ElfSection s : sections) {
            if (s.name().equals(sectionName)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    public Optional<ElfSection> section(int index) {
        return index >= 0 && index < sections.size() ? Optional.of(sections.get(index)) : Optional.empty();
    }

    /** The PT_LOAD segment containing {@code vaddr}, as perf's elf_read_program_header finds it. */
    public Optional<ElfProgramHeader> loadSegmentFor(long vaddr) {
        for (ElfProgramHeader p : programHeaders) {
            if (p.type() == ElfProgramHeader.PT_LOAD && p.containsVaddr(vaddr)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** The GNU build-id (NT_GNU_BUILD_ID note), from the note sections, else from PT_NOTE segments. */
    public Optional<byte[]> buildId() throws ElfException {
        for (ElfSection s : sections) {
            if (s.type() == ElfSection.SHT_NOTE && s.type() != ElfSection.SHT_NOBITS) {
                byte[] id = findBuildIdNote(s.offset(), s.size());
                if (id != null) {
                    return Optional.of(id);
                }
            }
        }
        for (ElfProgramHeader p : programHeaders) {
            if (p.type() == ElfProgramHeader.PT_NOTE) {
                byte[] id = findBuildIdNote(p.offset(), p.filesz());
                if (id != null) {
                    return Optional.of(id);
                }
            }
        }
        return Optional.empty();
    }

    /** The {@code .gnu_debuglink} section, when present and well formed. */
    public Optional<ElfDebugLink> debugLink() throws ElfException {
        Optional<ElfSection> s = section(".gnu_debuglink");
        if (s.isEmpty() || s.get().type() == ElfSection.SHT_NOBITS) {
            return Optional.empty();
        }
        ElfSection sec = s.get();
        need(sec.offset(), sec.size(), ".gnu_debuglink");
        int start = (int) sec.offset();
        int end = start + (int) sec.size();
        int nul = start;
        while (nul < end && buf.get(nul) != 0) {
            nul++;
        }
        int crcAt = start + ((nul - start + 1 + 3) & ~3);
        if (nul == start || crcAt + 4 > end) {
            return Optional.empty();
        }
        return Optional.of(new ElfDebugLink(string(start, nul - start), buf.getInt(crcAt)));
    }

    /** The symbols of a SHT_SYMTAB or SHT_DYNSYM section, index 0 included (as in the file). */
    public List<ElfSymbol> symbols(ElfSection symtab) throws ElfException {
        int n = symbolCount(symtab);
        if (n == 0) {
            return List.of();
        }
        ElfSection strtab = stringTableOf(symtab);
        List<ElfSymbol> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(symbolAt(symtab, strtab, i));
        }
        return out;
    }

    /**
     * Entries of a symbol table section (0 for SHT_NOBITS or an empty one); its bytes and its
     * string table's are checked to be in the file, as {@link #symbols} checks them.
     */
    public int symbolCount(ElfSection symtab) throws ElfException {
        if (symtab.type() == ElfSection.SHT_NOBITS || symtab.size() == 0) {
            return 0;
        }
        need(symtab.offset(), symtab.size(), symtab.name());
        stringTableOf(symtab);
        return (int) (symtab.size() / (is64 ? 24 : 16));
    }

    /** Entry {@code i} of a symbol table section (0 <= i < {@link #symbolCount}), without reading the others. */
    public ElfSymbol symbol(ElfSection symtab, int i) throws ElfException {
        java.util.Objects.checkIndex(i, symbolCount(symtab));
        return symbolAt(symtab, stringTableOf(symtab), i);
    }

    private ElfSection stringTableOf(ElfSection symtab) throws ElfException {
        ElfSection strtab = section(symtab.link())
                .orElseThrow(() -> new ElfException(name + ": " + symtab.name() + " has no string table"));
        need(strtab.offset(), strtab.size(), strtab.name());
        return strtab;
    }

    private ElfSymbol symbolAt(ElfSection symtab, ElfSection strtab, int i) throws ElfException {
        int o = (int) symtab.offset() + (int) (i * (is64 ? 24L : 16L));
        long nameOff;
        long value;
        long size;
        int info;
        int other;
        int shndx;
        if (is64) {
            nameOff = u32(o);
            info = buf.get(o + 4) & 0xff;
            other = buf.get(o + 5) & 0xff;
            shndx = u16(o + 6);
            value = buf.getLong(o + 8);
            size = buf.getLong(o + 16);
        } else {
            nameOff = u32(o);
            value = u32(o + 4);
            size = u32(o + 8);
            info = buf.get(o + 12) & 0xff;
            other = buf.get(o + 13) & 0xff;
            shndx = u16(o + 14);
        }
        return new ElfSymbol(stringAt(strtab, nameOff), value, size, info, other, shndx);
    }

    /**
     * The symbol index (r_info's symbol part) of every entry of a SHT_REL or SHT_RELA section, in
     * file order.
     */
    public int[] relocationSymbols(ElfSection rel) throws ElfException {
        boolean rela = rel.type() == ElfSection.SHT_RELA;
        long entsize = rel.entsize() != 0 ? rel.entsize() : (is64 ? (rela ? 24 : 16) : (rela ? 12 : 8));
        if (entsize < (is64 ? 16 : 8)) {
            throw new ElfException(name + ": " + rel.name() + ": bad entry size " + entsize);
        }
        need(rel.offset(), rel.size(), rel.name());
        int n = (int) (rel.size() / entsize);
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            int o = (int) (rel.offset() + i * entsize);
            out[i] = is64 ? (int) (buf.getLong(o + 8) >>> 32) : (int) (u32(o + 4) >>> 8);
        }
        return out;
    }

    /** Every entry of a SHT_REL or SHT_RELA section, in file order. */
    public List<ElfRelocation> relocations(ElfSection rel) throws ElfException {
        boolean rela = rel.type() == ElfSection.SHT_RELA;
        long entsize = rel.entsize() != 0 ? rel.entsize() : (is64 ? (rela ? 24 : 16) : (rela ? 12 : 8));
        if (entsize < (is64 ? (rela ? 24 : 16) : (rela ? 12 : 8))) {
            throw new ElfException(name + ": " + rel.name() + ": bad entry size " + entsize);
        }
        need(rel.offset(), rel.size(), rel.name());
        int n = (int) (rel.size() / entsize);
        List<ElfRelocation> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int o = (int) (rel.offset() + i * entsize);
            if (is64) {
                long info = buf.getLong(o + 8);
                out.add(new ElfRelocation(buf.getLong(o), (int) (info >>> 32), (int) info, rela ? buf.getLong(o + 16) : 0));
            } else {
                long info = u32(o + 4);
                out.add(new ElfRelocation(u32(o), (int) (info >>> 8), (int) (info & 0xff), rela ? buf.getInt(o + 8) : 0));
            }
        }
        return out;
    }

    /** The bytes of a section (a copy); empty for SHT_NOBITS. */
    public byte[] sectionBytes(ElfSection s) throws ElfException {
        if (s.type() == ElfSection.SHT_NOBITS) {
            return new byte[0];
        }
        need(s.offset(), s.size(), s.name());
        byte[] b = new byte[(int) s.size()];
        buf.get((int) s.offset(), b);
        return b;
    }

    private List<ElfProgramHeader> readProgramHeaders(long phoff, int phentsize, int phnum) throws ElfException {
        if (phoff == 0 || phnum == 0) {
            return List.of();
        }
        if (phentsize < (is64 ? 56 : 32)) {
            throw new ElfException(name + ": bad program header size " + phentsize);
        }
        need(phoff, (long) phentsize * phnum, "program headers");
        List<ElfProgramHeader> out = new ArrayList<>(phnum);
        for (int i = 0; i < phnum; i++) {
            int o = (int) (phoff + (long) i * phentsize);
            if (is64) {
                out.add(new ElfProgramHeader(buf.getInt(o), buf.getInt(o + 4), buf.getLong(o + 8), buf.getLong(o + 16),
                        buf.getLong(o + 24), buf.getLong(o + 32), buf.getLong(o + 40), buf.getLong(o + 48)));
            } else {
                out.add(new ElfProgramHeader(buf.getInt(o), buf.getInt(o + 24), u32(o + 4), u32(o + 8), u32(o + 12),
                        u32(o + 16), u32(o + 20), u32(o + 28)));
            }
        }
        return Collections.unmodifiableList(out);
    }

    private List<ElfSection> readSections(long shoff, int shentsize, long shnum, int shstrndx) throws ElfException {
        if (shoff == 0 || shnum == 0) {
            return List.of();
        }
        if (shentsize < (is64 ? 64 : 40)) {
            throw new ElfException(name + ": bad section header size " + shentsize);
        }
        need(shoff, shentsize * shnum, "section headers");
        int n = (int) shnum;
        long[][] raw = new long[n][];
        for (int i = 0; i < n; i++) {
            int o = (int) (shoff + (long) i * shentsize);
            raw[i] = is64
                    ? new long[] {u32(o), u32(o + 4), buf.getLong(o + 8), buf.getLong(o + 16), buf.getLong(o + 24),
                        buf.getLong(o + 32), u32(o + 40), u32(o + 44), buf.getLong(o + 48), buf.getLong(o + 56)}
                    : new long[] {u32(o), u32(o + 4), u32(o + 8), u32(o + 12), u32(o + 16), u32(o + 20), u32(o + 24),
                        u32(o + 28), u32(o + 32), u32(o + 36)};
        }
        long[] strHdr = shstrndx < n ? raw[shstrndx] : null;
        List<ElfSection> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long[] r = raw[i];
            String secName = "";
            if (strHdr != null && strHdr[1] != ElfSection.SHT_NOBITS && r[0] < strHdr[5]) {
                secName = stringAt(strHdr[4], strHdr[5], r[0]);
            }
            out.add(new ElfSection(i, secName, (int) r[1], r[2], r[3], r[4], r[5], (int) r[6], (int) r[7], r[8], r[9]));
        }
        return Collections.unmodifiableList(out);
    }

    private byte[] findBuildIdNote(long offset, long size) throws ElfException {
        if (size <= 0 || Long.compareUnsigned(offset, buf.limit()) >= 0) {
            return null;
        }
        need(offset, size, "note");
        return buildIdNote(buf, (int) offset, (int) (offset + size));
    }

    /**
     * The GNU build-id among ELF notes (a note section's or segment's bytes, or /sys/kernel/notes),
     * from {@code notes}' position to its limit, in its byte order.
     */
    public static Optional<byte[]> buildIdInNotes(ByteBuffer notes) {
        return Optional.ofNullable(buildIdNote(notes, notes.position(), notes.limit()));
    }

    /** The NT_GNU_BUILD_ID note's descriptor among the notes in {@code b} from {@code p} to {@code end}, else null. */
    private static byte[] buildIdNote(ByteBuffer b, int p, int end) {
        while ((long) p + 12 <= end) {
            long namesz = Integer.toUnsignedLong(b.getInt(p));
            long descsz = Integer.toUnsignedLong(b.getInt(p + 4));
            int ntype = b.getInt(p + 8);
            long nameAt = p + 12L;
            long descAt = nameAt + ((namesz + 3) & ~3L);
            long next = descAt + ((descsz + 3) & ~3L);
            if (next > end) {
                return null;
            }
            if (ntype == NT_GNU_BUILD_ID && namesz == 4 && b.get((int) nameAt) == 'G' && b.get((int) nameAt + 1) == 'N'
                    && b.get((int) nameAt + 2) == 'U' && descsz > 0 && descsz <= 64) {
                byte[] id = new byte[(int) descsz];
                b.get((int) descAt, id);
                return id;
            }
            p = (int) next;
        }
        return null;
    }

    /** Bound on what {@link #readBuildId} reads of a program header table or a note segment. */
    private static final int NOTE_READ_LIMIT = 1 << 20;

    /**
     * The GNU build-id from the PT_NOTE segments of {@code file}, read with a few positional reads
     * (the recorder's pass over the DSOs with samples, as perf's filename__read_build_id): no
     * mapping, whose first use in the JDK links a lambda, a recording's only one (~3 ms at its end).
     * Empty when the file is not ELF or has no such note.
     */
    public static Optional<byte[]> readBuildId(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer h = readAt(ch, 0, 64);
            if (h.limit() < 52 || h.get(0) != 0x7f || h.get(1) != 'E' || h.get(2) != 'L' || h.get(3) != 'F'
                    || (h.get(4) != 1 && h.get(4) != 2) || (h.get(5) != 1 && h.get(5) != 2)) {
                return Optional.empty();
            }
            boolean wide = h.get(4) == 2;
            h.order(h.get(5) == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
            if (wide && h.limit() < 64) {
                return Optional.empty();
            }
            long phoff = wide ? h.getLong(32) : Integer.toUnsignedLong(h.getInt(28));
            int phentsize = Short.toUnsignedInt(h.getShort(wide ? 54 : 42));
            int phnum = Short.toUnsignedInt(h.getShort(wide ? 56 : 44));
            if (phoff <= 0 || phnum == 0 || phentsize < (wide ? 56 : 32) || (long) phentsize * phnum > NOTE_READ_LIMIT) {
                return Optional.empty();
            }
            ByteBuffer ph = readAt(ch, phoff, phentsize * phnum).order(h.order());
            for (int i = 0; (i + 1) * phentsize <= ph.limit(); i++) {
                int at = i * phentsize;
                if (ph.getInt(at) != ElfProgramHeader.PT_NOTE) {
                    continue;
                }
                long offset = wide ? ph.getLong(at + 8) : Integer.toUnsignedLong(ph.getInt(at + 4));
                long size = wide ? ph.getLong(at + 32) : Integer.toUnsignedLong(ph.getInt(at + 16));
                if (offset < 0 || size <= 0 || size > NOTE_READ_LIMIT) {
                    continue;
                }
                ByteBuffer notes = readAt(ch, offset, (int) size).order(h.order());
                byte[] id = buildIdNote(notes, 0, notes.limit());
                if (id != null) {
                    return Optional.of(id);
                }
            }
            return Optional.empty();
        }
    }

    /** Up to {@code len} bytes at {@code pos} (fewer at the end of the file). */
    private static ByteBuffer readAt(FileChannel ch, long pos, int len) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(len);
        while (b.hasRemaining()) {
            int n = ch.read(b, pos + b.position());
            if (n < 0) {
                break;
            }
        }
        return b.flip();
    }

    private String stringAt(ElfSection strtab, long off) throws ElfException {
        if (off == 0) {
            return "";
        }
        if (off >= strtab.size()) {
            throw new ElfException(name + ": string offset " + off + " past the end of " + strtab.name());
        }
        return stringAt(strtab.offset(), strtab.size(), off);
    }

    private String stringAt(long tabOff, long tabSize, long off) throws ElfException {
        need(tabOff, tabSize, "string table");
        int start = (int) (tabOff + off);
        int end = (int) (tabOff + tabSize);
        int p = start;
        while (p < end && buf.get(p) != 0) {
            p++;
        }
        return string(start, p - start);
    }

    private String string(int at, int len) {
        byte[] b = new byte[len];
        buf.get(at, b);
        return new String(b, StandardCharsets.UTF_8);
    }

    private void need(long offset, long len, String what) throws ElfException {
        if (offset < 0 || len < 0 || offset > buf.limit() || len > buf.limit() - offset) {
            throw new ElfException(name + ": " + what + " at offset " + offset + " (+" + len + ") past the end of the file ("
                    + buf.limit() + " bytes)");
        }
    }

    private int u16(int at) {
        return buf.getShort(at) & 0xffff;
    }

    private long u32(int at) {
        return buf.getInt(at) & 0xffffffffL;
    }
}
