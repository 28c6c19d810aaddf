package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.PerfOracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Inlined functions' frames in DWARF-unwound callchains (perf's append_inlines, on by default):
 * jperf's report call graphs, children entries, script chains and folded stacks equal perf 6.1's, run live
 * without --no-inline on the same file, for testdata/dwarf's recordings and for a gcc -O2 program
 * of static inline functions recorded here; --no-inline gives the chains without them.
 */
class InlineFramesTest {
    /** A gcc -O2 -g program whose hot loop is inlined three deep; recorded once for the class. */
    private static final String PROGRAM = """
            #include <stdlib.h>
            static volatile unsigned long sink;
            static inline __attribute__((always_inline)) unsigned long mix(unsigned long x) {
                for (int i = 0; i < 64; i++) x = x * 6364136223846793005UL + 1442695040888963407UL;
                return x;
            }
            static inline __attribute__((always_inline)) unsigned long step(unsigned long x) { return mix(x) ^ (x >> 7); }
            static inline __attribute__((always_inline)) unsigned long round_(unsigned long x) { return step(x) + 3; }
            __attribute__((noinline)) unsigned long outer(unsigned long x) {
                for (int i = 0; i < 2000; i++) x = round_(x);
                return x;
            }
            int main(int argc, char **argv) {
                long n = argc > 1 ? atol(argv[1]) : 3000;
                for (long i = 0; i < n; i++) sink += outer(i);
                return 0;
            }
            """;

    private static Path recorded;
    private static Path buildIds;

    @BeforeAll
    static void record() throws Exception {
        if (!PerfOracle.installed()) {
            return;
        }
        Path dir = Path.of("target", "inline-frames").toAbsolutePath();
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("inl.c"), PROGRAM);
        buildIds = dir.resolve("bid");
        recorded = dir.resolve("perf.data");
        run(dir, "gcc", "-O2", "-g", "-fomit-frame-pointer", "-o", dir.resolve("inl").toString(), dir.resolve("inl.c").toString());
        run(dir, "perf", "--buildid-dir", buildIds.toString(), "record", "-q", "-e", "cpu-clock:u", "-F", "2000",
                "--call-graph", "dwarf,8192", "-o", recorded.toString(), "--", dir.resolve("inl").toString(), "3000");
    }

    private static void run(Path dir, String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("log.txt").toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", cmd));
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + Files.readString(dir.resolve("log.txt")));
    }

    static Stream<Arguments> files() {
        List<Arguments> out = new ArrayList<>();
        for (Path p : Corpus.dwarfFiles()) {
            out.add(Arguments.of(p.getParent().getFileName().toString(), p, Corpus.dwarfBuildIdDir()));
        }
        out.add(Arguments.of("gcc -O2 static inline", null, null));
        return out.stream();
    }

    private static Path[] input(Path data, Path bid) {
        if (data != null) {
            return new Path[] {data, bid};
        }
        assumeTrue(recorded != null, "Linux perf is not installed; it records this test's program");
        return new Path[] {recorded, buildIds};
    }

    private static void same(Path[] in, boolean inline, String... args) throws Exception {
        List<String> a = new ArrayList<>(List.of(args));
        a.addAll(List.of("-i", in[0].toString()));
        if (!inline) {
            a.add(1, "--no-inline");
        }
        PerfOracle.Result theirs = PerfOracle.perfWithBuildIdDir(in[1], a.toArray(new String[0]));
        assertEquals(0, theirs.rc(), theirs.err());
        a.add(1, "--buildid-dir=" + in[1]);
        Run ours = Run.of(a.toArray(new String[0]));
        assertEquals(0, ours.rc(), ours.err());
        assertEquals(withoutTip(theirs.out()), withoutTip(ours.out()), String.join(" ", a));
        if (inline && in[0] == recorded) {
            assertTrue(ours.out().contains(" (inlined)"), "the program's chains have inlined frames");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    void scriptChains(String name, Path data, Path bid) throws Exception {
        PerfOracle.assumeInstalled();
        Path[] in = input(data, bid);
        same(in, true, "script", "-F", "comm,tid,ip,sym,dso");
        same(in, true, "script", "-F", "ip,sym,symoff,dso,srcline");
        same(in, false, "script", "-F", "comm,tid,ip,sym,dso");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    void reportCallGraphs(String name, Path data, Path bid) throws Exception {
        PerfOracle.assumeInstalled();
        Path[] in = input(data, bid);
        same(in, true, "report", "--stdio", "--no-children", "-g", "caller");
        same(in, true, "report", "--stdio", "--no-children", "-g", "callee");
        same(in, true, "report", "--stdio", "--children", "-g", "caller");
        same(in, false, "report", "--stdio", "--children", "-g", "caller");
    }

    /**
     * Folded stacks name inlined functions as perf's stackcollapse script does (perf's chains, names
     * without " (inlined)"), on the program recorded here: perf's scripting unwinds only where the
     * binaries are at their recorded paths, which testdata/dwarf's are not.
     */
    @Test
    void foldedStacks() throws Exception {
        PerfOracle.assumeInstalled();
        Path[] in = input(null, null);
        PerfOracle.Result theirs = PerfOracle.perfWithBuildIdDir(in[1], "script", "report", "stackcollapse", "-i",
                in[0].toString());
        assertEquals(0, theirs.rc(), theirs.err());
        Run ours = Run.of("script", "--buildid-dir=" + in[1], "--folded", "-i", in[0].toString());
        assertEquals(0, ours.rc(), ours.err());
        assertEquals(theirs.out(), ours.out());
    }

    private static String withoutTip(String report) {
        StringBuilder b = new StringBuilder();
        for (String l : report.split("(?<=\n)")) {
            if (!l.startsWith("# (Tip:")) {
                b.append(l);
            }
        }
        return b.toString();
    }

    @Test
    void inlineIsAnOption() {
        Run r = Run.of("report", "--inline", "--no-inline", "-i", "/nonexistent/perf.data");
        assertTrue(r.err().lines().count() == 1 && !r.err().contains("--inline"), r.err());
    }
}
