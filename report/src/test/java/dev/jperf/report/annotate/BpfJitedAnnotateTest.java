package dev.jperf.report.annotate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.PerfDataFile;
import dev.jperf.report.CorpusFixture;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A JITed BPF function's instructions from the file alone (HEADER_BPF_PROG_INFO's jited_prog_insns):
 * every instruction of the function, contiguous from its KSYMBOL address to its end, the shares
 * adding up to the function's samples, and the BTF source line the sampled instructions belong to
 * matching the per-line table above it.
 */
class BpfJitedAnnotateTest {
    private static final Pattern INSN = Pattern.compile("^( {8}|[ \\d]{4}\\d\\.\\d\\d) :  *([0-9a-f]+):  (.*)$");

    @Test
    void linesHotShowsItsJitedCode() {
        DisassemblerAgreementTest.assumeDisassembler();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PerfDataFile f = PerfDataFile.open(CorpusFixture.data("e-preloaded-bpf"))) {
            Annotate.run(f, new Annotate.Options("lines_hot", false, CorpusFixture.kallsyms(), CorpusFixture.buildIdDir()),
                    out, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        }
        String s = out.toString(StandardCharsets.UTF_8);
        int at = s.indexOf("JITed x86-64 code of bpf_prog_d8e0d1431ff1b30f_lines_hot for cpu-clock:ppp (5112 samples)");
        assertTrue(at >= 0, s);
        List<long[]> insns = new ArrayList<>();
        double sum = 0;
        boolean sourceLineShown = false;
        for (String l : s.substring(at).lines().skip(2).toList()) {
            if (l.isEmpty()) {
                break;
            }
            Matcher m = INSN.matcher(l);
            if (!m.matches()) {
                assertTrue(l.startsWith("         :\t"), l);
                sourceLineShown = true;
                continue;
            }
            insns.add(new long[] {Long.parseUnsignedLong(m.group(2), 16)});
            if (!m.group(1).isBlank()) {
                sum += Double.parseDouble(m.group(1).trim());
            }
            assertTrue(!m.group(3).startsWith("(bad)"), l);
        }
        assertTrue(sourceLineShown, "no source line above the instructions");
        assertTrue(insns.size() > 10, "instructions: " + insns.size());
        assertEquals(100.0, sum, 0.5);
        for (int i = 1; i < insns.size(); i++) {
            assertTrue(Long.compareUnsigned(insns.get(i - 1)[0], insns.get(i)[0]) < 0);
        }
    }
}
