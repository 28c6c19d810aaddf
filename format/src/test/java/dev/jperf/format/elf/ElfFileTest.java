package dev.jperf.format.elf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.Corpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class ElfFileTest {
    static final Path SRC = Corpus.CORPUS.resolve("src");

    @Test
    void readsHeadersSymbolsAndBuildIdOfAPieExecutable() throws Exception {
        ElfFile f = ElfFile.open(SRC.resolve("workload"));
        assertTrue(f.is64());
        assertEquals(ElfFile.ET_DYN, f.type());
        assertEquals(ElfFile.EM_X86_64, f.machine());
        assertEquals("5d58802dbd5059c8c6befdb67800af9942d1930c", HexFormat.of().formatHex(f.buildId().orElseThrow()));
        ElfSection symtab = f.section(".symtab").orElseThrow();
        List<ElfSymbol> syms = f.symbols(symtab);
        ElfSymbol crunch = syms.stream().filter(s -> s.name().equals("crunch_primes")).findFirst().orElseThrow();
        assertEquals(0x1440, crunch.value());
        assertEquals(77, crunch.size());
        assertEquals(ElfSymbol.STT_FUNC, crunch.type());
        assertEquals(ElfSymbol.STB_GLOBAL, crunch.bind());
        assertTrue(syms.stream().anyMatch(s -> s.name().equals("scramble.constprop.0") && s.bind() == ElfSymbol.STB_LOCAL));
        ElfProgramHeader text = f.loadSegmentFor(0x1440).orElseThrow();
        assertEquals(0x1000, text.offset());
    }

    @Test
    void strippedBinaryHasOnlyDynsymAndPltRelocations() throws Exception {
        ElfFile f = ElfFile.open(SRC.resolve("workload-stripped"));
        assertTrue(f.section(".symtab").isEmpty());
        ElfSection dynsym = f.section(".dynsym").orElseThrow();
        List<ElfSymbol> syms = f.symbols(dynsym);
        assertTrue(syms.stream().anyMatch(s -> s.name().equals("syscall_burst")));
        ElfSection rela = f.section(".rela.plt").orElseThrow();
        int[] idx = f.relocationSymbols(rela);
        assertTrue(Arrays.stream(idx).anyMatch(i -> syms.get(i).name().equals("getppid")));
    }

    @Test
    void debugLinkOfASystemLibrary() throws Exception {
        Path libc = Path.of("/usr/lib/x86_64-linux-gnu/libc.so.6");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isRegularFile(libc), "no glibc at " + libc);
        ElfFile f = ElfFile.open(libc);
        ElfDebugLink link = f.debugLink().orElseThrow();
        assertTrue(link.fileName().endsWith(".debug"), link.fileName());
        assertFalse(f.programHeaders().isEmpty());
    }

    @Test
    void hostileInputIsOneClearError() throws Exception {
        byte[] good = Files.readAllBytes(SRC.resolve("workload"));
        assertThrows(ElfException.class, () -> ElfFile.of("x", new byte[] {1, 2, 3}));
        assertThrows(ElfException.class, () -> ElfFile.of("x", Arrays.copyOf(good, 40)));
        // section header table offset past the end of the file
        byte[] bad = good.clone();
        bad[40] = (byte) 0xff;
        bad[41] = (byte) 0xff;
        bad[42] = (byte) 0xff;
        ElfException e = assertThrows(ElfException.class, () -> ElfFile.of("bad", bad));
        assertTrue(e.getMessage().startsWith("bad: "), e.getMessage());
        // a truncated copy: headers fine, tables cut
        byte[] cut = Arrays.copyOf(good, 0x3000);
        assertThrows(ElfException.class, () -> ElfFile.of("cut", cut));
        assertArrayEquals(new byte[] {0x7f, 'E', 'L', 'F'}, Arrays.copyOf(good, 4));
    }

    /** The recorder's read of a build-id (positional reads of the PT_NOTE segments) finds what the mapped file's does. */
    @Test
    void readBuildIdAgreesWithTheMappedFile(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        List<Path> files = new java.util.ArrayList<>(List.of(SRC.resolve("workload"),
                Path.of(System.getProperty("java.home"), "lib", "server", "libjvm.so"),
                Path.of(System.getProperty("java.home"), "bin", "java")));
        for (String lib : List.of("/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/aarch64-linux-gnu/libc.so.6", "/bin/sh")) {
            if (Files.isReadable(Path.of(lib))) {
                files.add(Path.of(lib).toRealPath());
            }
        }
        for (Path f : files) {
            assertArrayEquals(ElfFile.open(f).buildId().orElseThrow(), ElfFile.readBuildId(f).orElseThrow(), f.toString());
        }
        assertEquals("5d58802dbd5059c8c6befdb67800af9942d1930c",
                HexFormat.of().formatHex(ElfFile.readBuildId(SRC.resolve("workload")).orElseThrow()));
        // not ELF, empty, cut inside the headers or the notes, a program header table pointing past the end
        byte[] good = Files.readAllBytes(SRC.resolve("workload"));
        Path x = tmp.resolve("x");
        for (byte[] bad : List.of(new byte[0], "#!/bin/sh\n".getBytes(), Arrays.copyOf(good, 40), Arrays.copyOf(good, 64),
                Arrays.copyOf(good, 0x300))) {
            Files.write(x, bad);
            assertTrue(ElfFile.readBuildId(x).isEmpty(), bad.length + " bytes");
        }
        byte[] far = good.clone();
        far[32] = (byte) 0xf0; // e_phoff's low byte
        far[37] = 0x7f;
        Files.write(x, far);
        assertTrue(ElfFile.readBuildId(x).isEmpty());
    }

    /** Notes as /sys/kernel/notes holds them: the build-id after another note, none when cut short. */
    @Test
    void buildIdAmongNotes() {
        java.nio.ByteBuffer n = java.nio.ByteBuffer.allocate(64).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        n.putInt(4).putInt(4).putInt(1).put("Xen\0".getBytes()).putInt(7); // another owner's note
        n.putInt(4).putInt(8).putInt(ElfFile.NT_GNU_BUILD_ID).put("GNU\0".getBytes()).putLong(0x0807060504030201L);
        n.flip();
        assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, ElfFile.buildIdInNotes(n.duplicate().order(n.order())).orElseThrow());
        assertTrue(ElfFile.buildIdInNotes(n.duplicate().order(n.order()).limit(n.limit() - 1)).isEmpty());
    }
}
