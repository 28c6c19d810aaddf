package dev.jperf.format.dwarf;

import dev.jperf.format.elf.ElfException;
import dev.jperf.format.elf.ElfFile;
import dev.jperf.format.elf.ElfSection;
import io.airlift.compress.zstd.ZstdDecompressor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Optional;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * The DWARF sections of an ELF file as their bytes, decompressed where the producer compressed them:
 * SHF_COMPRESSED (an Elf_Chdr, then zlib or zstd, as {@code -gz=zlib|zstd} writes) and the older
 * {@code .zdebug_*} sections ("ZLIB" and the size, big-endian). A decompressed size is checked
 * against a bound before anything is allocated.
 */
public final class DebugSections {
    static final long SHF_COMPRESSED = 0x800;
    static final int ELFCOMPRESS_ZLIB = 1;
    static final int ELFCOMPRESS_ZSTD = 2;
    /** Bound on one decompressed section. */
    static final long MAX_SECTION = 1L << 30;

    private final ElfFile elf;

    private DebugSections(ElfFile elf) {
        this.elf = elf;
    }

    public static DebugSections of(ElfFile elf) {
        return new DebugSections(elf);
    }

    /** The byte order of the file's data. */
    public ByteOrder order() {
        return elf.order();
    }

    /** The bytes of {@code name} (e.g. ".debug_line"), or of its ".zdebug" twin; empty when neither is there. */
    public Optional<byte[]> section(String name) throws DwarfException {
        try {
            Optional<ElfSection> s = elf.section(name);
            if (s.isPresent()) {
                byte[] raw = elf.sectionBytes(s.get());
                return Optional.of((s.get().flags() & SHF_COMPRESSED) != 0 ? chdr(raw, name) : raw);
            }
            Optional<ElfSection> z = elf.section(".z" + name.substring(1));
            if (z.isPresent()) {
                return Optional.of(zdebug(elf.sectionBytes(z.get()), z.get().name()));
            }
            return Optional.empty();
        } catch (ElfException e) {
            throw new DwarfException(e.getMessage());
        }
    }

    /** An SHF_COMPRESSED section: Elf32_Chdr or Elf64_Chdr, then the compressed bytes. */
    private byte[] chdr(byte[] raw, String name) throws DwarfException {
        ByteBuffer b = ByteBuffer.wrap(raw).order(elf.order());
        int header = elf.is64() ? 24 : 12;
        if (raw.length < header) {
            throw new DwarfException(name + ": compressed, but shorter than its header");
        }
        int type = b.getInt(0);
        long size = elf.is64() ? b.getLong(8) : Integer.toUnsignedLong(b.getInt(4));
        return switch (type) {
            case ELFCOMPRESS_ZLIB -> inflate(raw, header, size, name);
            case ELFCOMPRESS_ZSTD -> unzstd(raw, header, size, name);
            default -> throw new DwarfException(name + ": unknown compression type " + type);
        };
    }

    /** A .zdebug section: "ZLIB", the size in 8 big-endian bytes, then zlib. */
    private static byte[] zdebug(byte[] raw, String name) throws DwarfException {
        if (raw.length < 12 || raw[0] != 'Z' || raw[1] != 'L' || raw[2] != 'I' || raw[3] != 'B') {
            throw new DwarfException(name + ": not a ZLIB section");
        }
        long size = ByteBuffer.wrap(raw, 4, 8).order(ByteOrder.BIG_ENDIAN).getLong();
        return inflate(raw, 12, size, name);
    }

    private static void checkSize(long size, String name) throws DwarfException {
        if (size < 0 || size > MAX_SECTION) {
            throw new DwarfException(name + ": a decompressed size of " + size + " bytes is beyond " + MAX_SECTION);
        }
    }

    private static byte[] inflate(byte[] raw, int from, long size, String name) throws DwarfException {
        checkSize(size, name);
        Inflater inf = new Inflater();
        try {
            inf.setInput(raw, from, raw.length - from);
            byte[] out = new byte[(int) size];
            int n = 0;
            while (n < out.length && !inf.finished()) {
                int got = inf.inflate(out, n, out.length - n);
                if (got == 0 && (inf.needsInput() || inf.needsDictionary())) {
                    break;
                }
                n += got;
            }
            if (n != out.length) {
                throw new DwarfException(name + ": decompressed to " + n + " bytes, not the " + size + " its header says");
            }
            return out;
        } catch (DataFormatException e) {
            throw new DwarfException(name + ": bad zlib data (" + e.getMessage() + ")");
        } finally {
            inf.end();
        }
    }

    private static byte[] unzstd(byte[] raw, int from, long size, String name) throws DwarfException {
        checkSize(size, name);
        byte[] out = new byte[(int) size];
        try {
            int n = new ZstdDecompressor().decompress(raw, from, raw.length - from, out, 0, out.length);
            if (n != out.length) {
                throw new DwarfException(name + ": decompressed to " + n + " bytes, not the " + size + " its header says");
            }
            return out;
        } catch (RuntimeException e) {
            // aircompressor reports bad input as MalformedInputException, IllegalArgumentException or IllegalStateException
            throw new DwarfException(name + ": bad zstd data (" + e.getMessage() + ")");
        }
    }

    /** The line tables of the file's .debug_line, with the string sections they refer to. */
    public List<LineTable> lineTables() throws DwarfException {
        Optional<byte[]> line = section(".debug_line");
        if (line.isEmpty()) {
            return List.of();
        }
        return LineTable.readAll(line.get(), section(".debug_line_str").orElse(null), section(".debug_str").orElse(null), order());
    }
}
