package dev.jperf.loader;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfKind;
import dev.jperf.format.btf.BtfType;
import dev.jperf.format.elf.ElfFile;
import dev.jperf.format.elf.ElfSection;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Hand-damaged objects: each fails to open with one line naming the problem. */
class HostileObjectsTest {
    static final Path OBJ = ExternalObjectsTest.DIR.resolve("obj");
    static byte[] bootstrap;
    static byte[] biostacks;

    @BeforeAll
    static void read() throws IOException {
        bootstrap = Files.readAllBytes(OBJ.resolve("bootstrap.bpf.o"));
        biostacks = Files.readAllBytes(OBJ.resolve("biostacks.bpf.o"));
    }

    static String fails(byte[] image, String... words) {
        BpfObjectException e = assertThrows(BpfObjectException.class, () -> BpfObject.open("hostile.bpf.o", image));
        String msg = e.getMessage();
        assertTrue(!msg.contains("\n"), msg);
        for (String w : words) {
            assertTrue(msg.contains(w), "'" + w + "' not in: " + msg);
        }
        return msg;
    }

    static ByteBuffer le(byte[] b) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Where section {@code name}'s header starts in the file. */
    static int header(byte[] image, String name) throws IOException {
        ElfSection s = ElfFile.of("x", image).section(name).orElseThrow();
        return (int) (le(image).getLong(0x28) + 64L * s.index());
    }

    @Test
    void truncatedElf() {
        fails(java.util.Arrays.copyOf(bootstrap, 40), "past the end of the file (40 bytes)");
        fails(java.util.Arrays.copyOf(bootstrap, bootstrap.length - 100), "hostile.bpf.o");
        fails(new byte[0], "not an ELF");
    }

    @Test
    void sectionPastTheEnd() throws IOException {
        byte[] b = bootstrap.clone();
        le(b).putLong(header(b, ".BTF") + 24, b.length - 10L);
        fails(b, ".BTF", "past the end");
        b = bootstrap.clone();
        le(b).putLong(header(b, "license") + 32, 1L << 40);
        fails(b, "license", "past the end");
    }

    @Test
    void badRelocation() throws IOException {
        byte[] b = bootstrap.clone();
        ElfSection rel = ElfFile.of("x", b).sections().stream().filter(s -> s.name().startsWith(".reltp/")).findFirst()
                .orElseThrow();
        // r_info's symbol of the first entry: past the symbol table
        le(b).putInt((int) rel.offset() + 12, 100000);
        fails(b, "symbol #100000 not found");
        b = bootstrap.clone();
        le(b).putLong((int) rel.offset(), 1L << 33);
        fails(b, "invalid offset");
        b = bootstrap.clone();
        le(b).putLong((int) rel.offset(), 3);
        fails(b, "invalid offset 0x3");
    }

    /** The .BTF section parsed, and where it sits in the file. */
    static Btf btf(byte[] image, int[] at) throws IOException {
        ElfFile elf = ElfFile.of("x", image);
        ElfSection s = elf.section(".BTF").orElseThrow();
        at[0] = (int) s.offset();
        return Btf.parse(elf.sectionBytes(s));
    }

    @Test
    void btfLoopAndOutOfRangeIds() throws IOException {
        byte[] b = bootstrap.clone();
        int[] at = new int[1];
        Btf btf = btf(b, at);
        // every TYPEDEF made to point at itself: map key types never resolve
        for (int id = 1; id <= btf.lastId(); id++) {
            if (btf.kind(id) == BtfKind.TYPEDEF) {
                le(b).putInt(at[0] + btf.typeOffset(id) + 8, id);
            }
        }
        fails(b, "map '");
        b = bootstrap.clone();
        for (int id = 1; id <= btf.lastId(); id++) {
            if (btf.kind(id) == BtfKind.PTR) {
                le(b).putInt(at[0] + btf.typeOffset(id) + 8, 0x7fffff00);
            }
        }
        fails(b, "map '");
        b = bootstrap.clone();
        // a VAR of .maps pointing past the last type
        for (int id = 1; id <= btf.lastId(); id++) {
            if (btf.kind(id) == BtfKind.DATASEC && btf.name(id).equals(".maps")) {
                le(b).putInt(at[0] + btf.typeOffset(id) + 12, btf.lastId() + 5);
            }
        }
        fails(b, "unexpected non-VAR type");
    }

    @Test
    void hugeCounts() throws IOException {
        byte[] b = bootstrap.clone();
        int[] at = new int[1];
        Btf btf = btf(b, at);
        // a STRUCT claiming 65535 members
        for (int id = 1; id <= btf.lastId(); id++) {
            if (btf.kind(id) == BtfKind.STRUCT) {
                int p = at[0] + btf.typeOffset(id) + 4;
                le(b).putInt(p, le(b).getInt(p) | 0xffff);
                break;
            }
        }
        fails(b, "BTF");
        // a .BTF.ext func_info section claiming 2^31 records
        b = bootstrap.clone();
        ElfSection ext = ElfFile.of("x", b).section(".BTF.ext").orElseThrow();
        int hdrLen = le(b).getInt((int) ext.offset() + 4);
        int funcOff = le(b).getInt((int) ext.offset() + 8);
        le(b).putInt((int) ext.offset() + hdrLen + funcOff + 8, 0x7fffffff);
        BpfObject o = null;
        try {
            o = BpfObject.open("hostile.bpf.o", b); // libbpf ignores .BTF.ext it cannot parse; so do we
        } catch (BpfObjectException e) {
            assertTrue(!e.getMessage().contains("\n"));
        }
        if (o != null) {
            assertTrue(o.btfExt == null);
        }
        // a .bss of 1 TiB (SHT_NOBITS: no bytes in the file back it)
        b = biostacks.clone();
        le(b).putLong(header(b, ".bss") + 32, 1L << 40);
        fails(b, ".bss", "too large");
    }

    @Test
    void notBpf() throws IOException {
        byte[] b = bootstrap.clone();
        le(b).putShort(18, (short) 62);
        fails(b, "not a BPF object");
        fails("not an object at all".getBytes(), "not an ELF");
    }

    @Test
    void missingFile(@org.junit.jupiter.api.io.TempDir Path tmp) {
        BpfObjectException e = assertThrows(BpfObjectException.class, () -> BpfObject.open(tmp.resolve("none.bpf.o")));
        assertTrue(e.getMessage().contains("no such file"), e.getMessage());
    }
}
