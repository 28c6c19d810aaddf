package dev.jperf.format.dwarf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.elf.ElfFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The line tables of a C program (test resources dwarf/t.c, with an inline function from a header)
 * built here by gcc with each DWARF version and compression, row for row against {@code objdump
 * --dwarf=decodedline} of the same binary; and hostile .debug_line bytes end in one DwarfException.
 */
class LineTableTest {
    @TempDir
    Path tmp;

    private static final Pattern ROW = Pattern.compile("^(\\S+)\\s+(\\d+|-)\\s+(0x[0-9a-f]+)(?:\\s+\\d+)?(\\s+x)?\\s*$");

    /** {@code cmd}'s stdout; the test is skipped when the tool is missing. */
    private static String run(Path dir, String... cmd) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, cmd[0] + " is not installed (apt-get install gcc binutils): it builds and checks the test binaries");
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return p.exitValue() == 0 ? out : null;
    }

    private Path build(String... flags) throws Exception {
        for (String f : List.of("t.c", "t.h")) {
            Files.copy(Path.of("src/test/resources/dwarf", f), tmp.resolve(f), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        Path bin = tmp.resolve("t" + String.join("", flags).replaceAll("[^a-z0-9]", ""));
        List<String> cmd = new ArrayList<>(List.of("gcc"));
        cmd.addAll(List.of(flags));
        cmd.addAll(List.of("-o", bin.toString(), "t.c"));
        String out = run(tmp, cmd.toArray(String[]::new));
        assumeTrue(out != null, "gcc cannot build with " + List.of(flags));
        return bin;
    }

    @ParameterizedTest
    @ValueSource(strings = {"-g -O2", "-gdwarf-4 -O2", "-gdwarf-3 -O1", "-gdwarf-2 -O0", "-g -O2 -gz=zlib", "-g -O2 -gz=zstd",
        "-gdwarf-4 -O2 -gz=zlib-gnu"})
    void rowsAsObjdump(String flags) throws Exception {
        Path bin = build(flags.split(" "));
        String dump = run(tmp, "objdump", "--dwarf=decodedline", bin.toString());
        assertTrue(dump != null, "objdump failed");
        List<String> want = new ArrayList<>();
        for (String l : dump.lines().toList()) {
            Matcher m = ROW.matcher(l);
            if (m.matches()) {
                boolean end = m.group(2).equals("-");
                want.add(m.group(1) + " " + m.group(2) + " " + m.group(3) + (end ? "" : m.group(4) != null ? " x" : ""));
            }
        }
        List<String> got = new ArrayList<>();
        ElfFile elf = ElfFile.open(bin);
        for (LineTable t : DebugSections.of(elf).lineTables()) {
            for (LineRow r : t.rows()) {
                String file = t.file(r);
                String base = file == null ? "?" : file.substring(file.lastIndexOf('/') + 1);
                got.add(base + " " + (r.endSequence() ? "-" : Long.toString(r.line())) + " 0x" + Long.toHexString(r.address())
                        + (r.endSequence() ? "" : r.isStmt() ? " x" : ""));
            }
        }
        assertTrue(want.size() > 10, dump);
        assertEquals(want, got, flags);
    }

    /** Cut and scrambled .debug_line bytes: rows or one DwarfException, never another exception or a hang. */
    @Test
    void hostileBytesAreOneException() throws Exception {
        Path bin = build("-g", "-O2");
        byte[] line = DebugSections.of(ElfFile.open(bin)).section(".debug_line").orElseThrow();
        Random random = new Random(42);
        int refused = 0;
        for (int i = 0; i < 3000; i++) {
            byte[] b = java.util.Arrays.copyOf(line, i % 3 == 0 ? random.nextInt(line.length + 1) : line.length);
            for (int k = 0; k < 1 + random.nextInt(8) && b.length > 0; k++) {
                b[random.nextInt(b.length)] = (byte) random.nextInt(256);
            }
            try {
                LineTable.readAll(b, null, null, java.nio.ByteOrder.LITTLE_ENDIAN);
            } catch (DwarfException e) {
                refused++;
                assertTrue(e.getMessage().startsWith(".debug_line") || e.getMessage().contains("no string"), e.getMessage());
            }
        }
        assertTrue(refused > 100, "scrambled tables refused: " + refused);
        // a unit claiming 4 GiB and one with a huge directory count
        byte[] huge = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xef, 5, 0};
        assertTrue(assertThrowsDwarf(huge).contains("runs past"));
    }

    private static String assertThrowsDwarf(byte[] b) {
        try {
            LineTable.readAll(b, null, null, java.nio.ByteOrder.LITTLE_ENDIAN);
        } catch (DwarfException e) {
            return e.getMessage();
        }
        throw new AssertionError("no DwarfException");
    }
}
