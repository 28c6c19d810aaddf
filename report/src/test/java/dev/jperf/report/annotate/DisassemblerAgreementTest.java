package dev.jperf.report.annotate;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.elf.ElfFile;
import dev.jperf.format.elf.ElfSection;
import dev.jperf.nativeshim.Capstone;
import dev.jperf.nativeshim.X86Disassembler;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The disassembler's text against GNU objdump's ({@code objdump -d --no-show-raw-insn}, the
 * instruction part of each line as perf 6.1's symbol__parse_objdump_line keeps it, trailing blanks
 * stripped) over the whole {@code .text} of the corpus binaries and the JDK's libjvm.so: the share
 * of instructions whose text is equal, and both tools' time (docs/DESIGN.md has the numbers). What
 * is left are objdump's names of GOT slots from dynamic relocations ({@code <stdout@GLIBC_2.2.5>}).
 */
class DisassemblerAgreementTest {
    static void assumeDisassembler() {
        String why = Capstone.unavailable();
        Assumptions.assumeTrue(why == null, why);
    }

    /** x87 stack registers, {@code %st(N)}, are registers: the memory operand rewrite leaves them (it once threw). */
    @Test
    void x87RegistersAreNoMemoryOperands() {
        assumeDisassembler();
        // fcmovnb %st(4),%st; fadd %st(4),%st; fstp %st(1); fld %st(2)
        byte[] code = {(byte) 0xdb, (byte) 0xc4, (byte) 0xd8, (byte) 0xc4, (byte) 0xdd, (byte) 0xd9, (byte) 0xd9, (byte) 0xc2};
        StringBuilder text = new StringBuilder();
        try (dev.jperf.nativeshim.X86Disassembler d = new dev.jperf.nativeshim.X86Disassembler(a -> null)) {
            d.decode(code, 0, code.length, 0x1000, (address, size, t) -> text.append(t).append('\n'));
        }
        String[] lines = text.toString().split("\n");
        assertTrue(lines.length == 4 && lines[0].startsWith("fcmovnb %st(4),") && lines[1].startsWith("fadd   %st(4)")
                && lines[2].equals("fstp   %st(1)") && lines[3].equals("fld    %st(2)"), text.toString());
    }

    @Test
    void corpusBinariesAgreeWithObjdump() throws Exception {
        assumeDisassembler();
        Corpus.installBinaries();
        for (String b : new String[] {"workload", "workload-stripped", "loader"}) {
            double share = measure(Corpus.INSTALLED.resolve("src").resolve(b));
            assertTrue(share >= 0.98, b + ": " + share);
        }
    }

    @Test
    void libjvmAgreesWithObjdump() throws Exception {
        assumeDisassembler();
        Path jvm = Path.of(System.getProperty("java.home"), "lib", "server", "libjvm.so");
        Assumptions.assumeTrue(Files.isRegularFile(jvm), "no " + jvm);
        double share = measure(jvm);
        assertTrue(share >= 0.995, "libjvm.so: " + share);
    }

    /** The share of .text's instructions whose text equals objdump's; prints it with the times and the commonest differences. */
    static double measure(Path binary) throws Exception {
        dev.jperf.format.PerfOracle.assumeInstalled();
        Assumptions.assumeTrue(new ProcessBuilder("objdump", "--version").start().waitFor() == 0, "no objdump");
        ElfFile elf = ElfFile.open(binary);
        ElfSection text = elf.section(".text").orElseThrow();
        byte[] bytes = elf.sectionBytes(text);
        ObjdumpSymbols syms = ObjdumpSymbols.of(elf);
        Map<Long, String> ours = new HashMap<>();
        long t0 = System.nanoTime();
        try (X86Disassembler d = new X86Disassembler(syms)) {
            d.decode(bytes, 0, bytes.length, text.addr(), (a, size, t) -> ours.put(a, t));
        }
        long t1 = System.nanoTime();
        Process p = new ProcessBuilder("objdump", "-d", "--no-show-raw-insn", "-j", ".text", binary.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        long total = 0;
        long equal = 0;
        Map<String, Integer> diffs = new TreeMap<>();
        Map<String, String> example = new HashMap<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                int colon = line.indexOf(":\t");
                if (colon < 0 || !line.startsWith(" ")) {
                    continue;
                }
                long a = Long.parseUnsignedLong(line.substring(0, colon).trim(), 16);
                String od = line.substring(colon + 2).stripTrailing();
                total++;
                String us = ours.get(a);
                if (od.equals(us)) {
                    equal++;
                } else {
                    String key = od.split(" ")[0] + " / " + (us == null ? "-" : us.split(" ")[0]);
                    diffs.merge(key, 1, Integer::sum);
                    example.putIfAbsent(key, od + "  |  " + us);
                }
            }
        }
        p.waitFor(300, TimeUnit.SECONDS);
        long t2 = System.nanoTime();
        double share = total == 0 ? 0 : (double) equal / total;
        System.out.printf(Locale.ROOT, "%s: %d instructions, %.4f equal; jperf %.0f ms, objdump %.0f ms%n", binary,
                total, share, (t1 - t0) / 1e6, (t2 - t1) / 1e6);
        diffs.entrySet().stream().sorted((x, y) -> y.getValue() - x.getValue()).limit(25)
                .forEach(e -> System.out.println("  " + e.getValue() + "  " + example.get(e.getKey())));
        return share;
    }
}
