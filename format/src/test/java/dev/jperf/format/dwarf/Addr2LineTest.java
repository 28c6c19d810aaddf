package dev.jperf.format.dwarf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.elf.ElfFile;
import dev.jperf.format.elf.ElfSection;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Addr2Line} against binutils' {@code addr2line -a -i -f} run on the same file: every
 * address of the text of a C program with nested inline functions (test resources dwarf/inl.c)
 * built here by gcc with each DWARF version and compression, and addresses all over libc's text
 * through libc6-dbg's debug file; hostile .debug_info/.debug_abbrev bytes end in warnings.
 */
class Addr2LineTest {
    @TempDir
    Path tmp;

    private static String run(Path dir, List<String> cmd) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, cmd.get(0) + " is not installed (apt-get install gcc binutils): it builds and checks the test binaries");
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        return p.exitValue() == 0 ? out : null;
    }

    private Path build(String flags) throws Exception {
        Files.copy(Path.of("src/test/resources/dwarf/inl.c"), tmp.resolve("inl.c"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Path bin = tmp.resolve("inl" + flags.replaceAll("[^a-z0-9]", ""));
        List<String> cmd = new ArrayList<>(List.of("gcc"));
        cmd.addAll(List.of(flags.split(" ")));
        cmd.addAll(List.of("-o", bin.toString(), "inl.c"));
        assumeTrue(run(tmp, cmd) != null, "gcc cannot build with " + flags);
        return bin;
    }

    /** addr2line's answer for each address, one string per address: its records, "function TAB file:line" joined by " <- ". */
    private List<String> addr2line(Path elf, List<Long> addrs) throws Exception {
        List<String> out = new ArrayList<>();
        for (int from = 0; from < addrs.size(); from += 2000) {
            List<String> cmd = new ArrayList<>(List.of("addr2line", "-a", "-i", "-f", "-e", elf.toString()));
            for (long a : addrs.subList(from, Math.min(addrs.size(), from + 2000))) {
                cmd.add("0x" + Long.toHexString(a));
            }
            String text = run(tmp, cmd);
            assertTrue(text != null, "addr2line failed");
            StringBuilder cur = null;
            List<String> lines = text.lines().toList();
            for (int i = 0; i < lines.size(); i++) {
                String l = lines.get(i);
                if (l.startsWith("0x")) {
                    if (cur != null) {
                        out.add(cur.toString());
                    }
                    cur = new StringBuilder();
                    continue;
                }
                String where = lines.get(++i);
                int disc = where.indexOf(" (discriminator");
                if (disc >= 0) {
                    where = where.substring(0, disc);
                }
                if (where.endsWith(":?")) {
                    where = where.substring(0, where.length() - 1) + "0";
                }
                if (cur.length() > 0) {
                    cur.append(" <- ");
                }
                cur.append(l).append('\t').append(where);
            }
            if (cur != null) {
                out.add(cur.toString());
            }
        }
        // without a line addr2line names the ELF symbol around the address: not debug information
        // (and the preceding STT_FILE symbol's name, line 0)
        out.replaceAll(s -> s.endsWith(":0") && !s.contains(" <- ") ? "??\t??:0" : s);
        return out;
    }

    private static String ours(Addr2Line a, long addr) {
        List<Addr2Line.Frame> frames = a.frames(addr);
        if (frames.isEmpty()) {
            return "??\t??:0";
        }
        StringBuilder b = new StringBuilder();
        for (Addr2Line.Frame f : frames) {
            if (b.length() > 0) {
                b.append(" <- ");
            }
            b.append(f.function() == null ? "??" : f.function()).append('\t').append(f.file() == null ? "??" : f.file())
                    .append(':').append(f.line());
        }
        return b.toString();
    }

    private void compare(Path elf, Path debug, List<Long> addrs) throws Exception {
        Addr2Line a = Addr2Line.of(DebugSections.of(ElfFile.open(debug)));
        assertEquals(List.of(), a.warnings());
        List<String> want = addr2line(debug, addrs);
        assertEquals(addrs.size(), want.size());
        int inlined = 0;
        List<String> diffs = new ArrayList<>();
        for (int i = 0; i < addrs.size(); i++) {
            String got = ours(a, addrs.get(i));
            String w = want.get(i);
            if (got.startsWith("??\t") && !got.equals("??\t??:0") && !w.contains(" <- ")) {
                // outside every DWARF function (padding) addr2line names the ELF symbol before the address
                w = "??" + w.substring(w.indexOf('\t'));
                want.set(i, w);
            }
            if (!got.equals(w)) {
                diffs.add("0x" + Long.toHexString(addrs.get(i)) + "\n  want " + want.get(i) + "\n  got  " + got);
            }
            inlined += want.get(i).contains(" <- ") ? 1 : 0;
        }
        assertEquals(List.of(), diffs.subList(0, Math.min(diffs.size(), 20)), elf + ": " + diffs.size() + " of " + addrs.size());
        assertTrue(elf.toString().contains("libc") || inlined > 20, "addresses in inlined code: " + inlined);
    }

    /** Every byte address of the file's executable sections. */
    private static List<Long> textAddresses(ElfFile elf) {
        List<Long> out = new ArrayList<>();
        for (ElfSection s : elf.sections()) {
            if ((s.flags() & ElfSection.SHF_EXECINSTR) != 0 && s.type() != ElfSection.SHT_NOBITS) {
                for (long a = s.addr(); a < s.addr() + s.size(); a++) {
                    out.add(a);
                }
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"-g -O2", "-g -O3", "-gdwarf-4 -O2", "-gdwarf-3 -O2", "-gdwarf-2 -O2", "-g -O2 -gz=zlib",
        "-g -O2 -gz=zstd", "-g -O2 -gsplit-dwarf -gno-split-dwarf", "-g -O2 -fno-omit-frame-pointer"})
    void framesAsAddr2line(String flags) throws Exception {
        Path bin = build(flags);
        compare(bin, bin, textAddresses(ElfFile.open(bin)));
    }

    /** libc's text through libc6-dbg's debug file (DWARF 5, assembly and C, many inlined calls). */
    @Test
    void libcAsAddr2line() throws Exception {
        Path libc = Path.of("/usr/lib/x86_64-linux-gnu/libc.so.6");
        assumeTrue(Files.isRegularFile(libc), "no " + libc);
        ElfFile elf = ElfFile.open(libc);
        String id = HexFormat.of().formatHex(elf.buildId().orElseThrow());
        Path debug = Path.of("/usr/lib/debug/.build-id/" + id.substring(0, 2) + "/" + id.substring(2) + ".debug");
        assumeTrue(Files.isRegularFile(debug), "no libc debug file " + debug + " (apt-get install libc6-dbg)");
        List<Long> all = textAddresses(elf);
        Random r = new Random(7);
        List<Long> some = new ArrayList<>();
        for (int i = 0; i < 6000; i++) {
            some.add(all.get(r.nextInt(all.size())));
        }
        compare(libc, debug, some);
    }

    /** Cut and scrambled .debug_info and .debug_abbrev: warnings, never an exception, a hang or a huge allocation. */
    @Test
    void hostileDebugInfoIsWarnings() throws Exception {
        Path bin = build("-g -O2");
        DebugSections ds = DebugSections.of(ElfFile.open(bin));
        byte[] info = ds.section(".debug_info").orElseThrow();
        byte[] abbrev = ds.section(".debug_abbrev").orElseThrow();
        byte[] str = ds.section(".debug_str").orElse(null);
        byte[] lineStr = ds.section(".debug_line_str").orElse(null);
        byte[] rng = ds.section(".debug_rnglists").orElse(null);
        Addr2Line clean = Addr2Line.of(ds);
        List<Long> addrs = textAddresses(ElfFile.open(bin));
        Random random = new Random(42);
        int warned = 0;
        for (int i = 0; i < 1500; i++) {
            boolean hitInfo = random.nextBoolean();
            byte[] src = hitInfo ? info : abbrev;
            byte[] b = java.util.Arrays.copyOf(src, i % 3 == 0 ? random.nextInt(src.length + 1) : src.length);
            for (int k = 0; k < 1 + random.nextInt(8) && b.length > 0; k++) {
                b[random.nextInt(b.length)] = (byte) random.nextInt(256);
            }
            List<String> w = new ArrayList<>();
            DebugInfo d = new DebugInfo(hitInfo ? b : info, hitInfo ? abbrev : b, str, lineStr, null, null, null, rng,
                    ByteOrder.LITTLE_ENDIAN, w);
            for (DebugInfo.Unit u : d.units()) {
                try {
                    DebugInfo.Scopes s = d.scopes(u);
                    for (int f = 0; f < s.count; f++) {
                        d.name(s.nameDie[f]);
                    }
                } catch (DwarfException e) {
                    w.add(e.getMessage());
                }
            }
            warned += w.isEmpty() ? 0 : 1;
            for (String m : w) {
                assertTrue(m.startsWith(".debug_") && !m.contains("\n"), m);
            }
        }
        assertTrue(warned > 100, "scrambled sections warned about: " + warned);
        // a unit claiming 4 GiB; an abbreviation whose attribute list runs off the section
        List<String> w = new ArrayList<>();
        new DebugInfo(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xef, 5, 0}, abbrev, null, null, null, null, null,
                null, ByteOrder.LITTLE_ENDIAN, w);
        assertTrue(w.get(0).contains("runs past"), w.toString());
        assertTrue(addrs.stream().anyMatch(x -> clean.frames(x).size() > 1), "the clean sections' inline chains");
    }
}
