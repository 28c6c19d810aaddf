package dev.jperf.report.annotate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.PerfDataFile;
import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * jperf annotate of user-space functions against perf annotate --stdio run live on the same corpus
 * file, the whole output: the same functions in the same order with the same headers, objdump's
 * lines as perf numbers them (the -l lines of the program's and of libc's debug information, from
 * libc6-dbg when installed) and the same instruction lines (percent, address, text).
 */
class NativeAnnotateTest {
    private static final Pattern INSN = Pattern.compile("^ +\\d+\\.\\d+ : .*");

    private static String jperf(String kase, String symbol, Set<String> dsos, String type, boolean raw) {
        return jperf(kase, symbol, dsos, type, raw, Annotate.Display.DEFAULT);
    }

    private static String jperf(String kase, String symbol, Set<String> dsos, String type, boolean raw,
            Annotate.Display display) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (PerfDataFile f = PerfDataFile.open(CorpusFixture.data(kase))) {
            Annotate.run(f, new Annotate.Options(symbol, false, CorpusFixture.kallsyms(), CorpusFixture.buildIdDir(), dsos,
                    type, raw, display), out, new PrintStream(err, true, StandardCharsets.UTF_8));
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The output cut at perf's per-symbol headers: each block's header, then its instruction lines. */
    private static List<List<String>> blocks(String s) {
        List<List<String>> out = new ArrayList<>();
        for (String l : s.lines().toList()) {
            if (l.startsWith(" Percent |")) {
                out.add(new ArrayList<>(List.of(l)));
            } else if (!out.isEmpty() && (INSN.matcher(l).matches() || l.startsWith("---"))) {
                out.get(out.size() - 1).add(l);
            }
        }
        return out;
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "c-process||",
        "c-process|--asm-raw|",
        "c-process|--percent-type|local-hits",
        "c-process|--percent-type|global-period",
        "c-process|--percent-type|global-hits",
        "c-process-stripped||",
        "c-process|-s|crunch_primes",
        "c-process|-d|libc.so.6",
        "c-process|-l|",
        "c-process|--no-source|",
        "c-process|--percent-limit|2.3",
    })
    void agreesWithPerf(String kase, String option, String value) throws Exception {
        DisassemblerAgreementTest.assumeDisassembler();
        PerfOracle.assumeInstalled();
        CorpusFixture.installBinaries();
        List<String> args = new ArrayList<>(List.of("annotate", "--stdio", "-i", CorpusFixture.data(kase).toString()));
        String symbol = null;
        Set<String> dsos = null;
        String type = null;
        boolean raw = false;
        Annotate.Display display = Annotate.Display.DEFAULT;
        if (option != null) {
            args.add(option);
            if (value != null) {
                args.add(value);
            }
            switch (option) {
                case "--asm-raw" -> raw = true;
                case "--percent-type" -> type = value;
                case "-s" -> symbol = value;
                case "-d" -> dsos = Set.of(value);
                case "-l" -> display = new Annotate.Display(true, false, false, 0, null, true);
                case "--no-source" -> display = new Annotate.Display(false);
                case "--percent-limit" -> display = new Annotate.Display(true, false, false, Double.parseDouble(value), null, false);
                default -> throw new IllegalArgumentException(option);
            }
        }
        String perf = PerfOracle.run(args.toArray(String[]::new));
        assertFalse(blocks(perf).isEmpty(), "perf annotated nothing");
        assertEquals(perf, jperf(kase, symbol, dsos, type, raw, display));
    }

    /**
     * A kernel function: perf 6.1 needs the recorded kernel's vmlinux (none here) and prints nothing
     * of it on stdout, its error once; jperf the same stdout and one line naming the build-id.
     */
    @org.junit.jupiter.api.Test
    void kernelFunctionsAsPerf() throws Exception {
        PerfOracle.assumeInstalled();
        CorpusFixture.installBinaries();
        for (String sym : new String[] {"do_syscall_64", null}) {
            List<String> args = new ArrayList<>(List.of("annotate", "--stdio", "-i", CorpusFixture.data("c-process").toString()));
            if (sym != null) {
                args.add(sym);
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            try (PerfDataFile f = PerfDataFile.open(CorpusFixture.data("c-process"))) {
                Annotate.run(f, new Annotate.Options(sym, false, CorpusFixture.kallsyms(), CorpusFixture.buildIdDir(), null,
                        null, false), out, new PrintStream(err, true, StandardCharsets.UTF_8));
            }
            assertEquals(PerfOracle.run(args.toArray(String[]::new)), out.toString(StandardCharsets.UTF_8), String.valueOf(sym));
            List<String> lines = err.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("vmlinux")).toList();
            assertEquals(1, lines.size(), err.toString(StandardCharsets.UTF_8));
            assertTrue(lines.get(0).startsWith("jperf annotate: cannot annotate do_syscall_64: no vmlinux with build id "),
                    lines.get(0));
        }
    }

    @ParameterizedTest
    @CsvSource({"c-process"})
    void percentsOfAFunctionAddUp(String kase) {
        DisassemblerAgreementTest.assumeDisassembler();
        CorpusFixture.installBinaries();
        List<List<String>> ours = blocks(jperf(kase, "crunch_primes", null, null, false));
        assertEquals(1, ours.size());
        double sum = 0;
        for (String l : ours.get(0)) {
            if (INSN.matcher(l).matches()) {
                sum += Double.parseDouble(l.substring(0, l.indexOf(':')).trim());
            }
        }
        assertTrue(Math.abs(sum - 100) < 0.5, "sum " + sum);
    }
}
