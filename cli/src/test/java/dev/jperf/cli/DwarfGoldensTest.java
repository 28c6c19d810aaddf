package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jperf.format.Corpus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The committed DWARF recordings (testdata/dwarf: C without frame pointers, C++ with exceptions, a
 * callback under libc's qsort, recorded by perf 6.1 with --call-graph dwarf) unwound by jperf from
 * the file and the binaries kept beside it: script's chains and report's call graph equal perf's
 * goldens line for line (made with --no-inline: InlineFramesTest compares the inline frames with perf run live).
 */
class DwarfGoldensTest {
    static List<Path> cases() {
        return Corpus.dwarfFiles();
    }

    @ParameterizedTest
    @MethodSource("cases")
    void scriptChainsArePerfs(Path data) throws Exception {
        Run r = Run.of("script", "--no-inline", "--buildid-dir", Corpus.dwarfBuildIdDir().toString(), "-i", data.toString(), "-F",
                "comm,tid,ip,sym,dso");
        assertEquals(0, r.rc(), r.err());
        assertEquals(new String(Corpus.unxz(data.resolveSibling("script.txt.xz")), StandardCharsets.UTF_8), r.out());
    }

    @ParameterizedTest
    @MethodSource("cases")
    void reportCallGraphIsPerfs(Path data) throws Exception {
        Run r = Run.of("report", "--no-inline", "--buildid-dir", Corpus.dwarfBuildIdDir().toString(), "-i",
                data.toString(), "--no-children", "--stdio", "-g", "caller");
        assertEquals(0, r.rc(), r.err());
        assertEquals(Files.readString(data.resolveSibling("report.txt")), withoutTip(r.out()));
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
}
