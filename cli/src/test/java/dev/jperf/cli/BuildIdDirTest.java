package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.CorpusFixture;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --buildid-dir}: the build-id cache the readers look the vdso (and binaries, kallsyms) up
 * in, given after the command or before it as perf takes it. The corpus names the recording VM's
 * vdso by build-id: with a cache holding it its samples are named, with an empty one they are not.
 */
class BuildIdDirTest {
    @TempDir
    Path empty;

    private static final String VDSO_ROW = "[.] __vdso_clock_gettime";

    @Test
    void theReadersLookTheVdsoUpInTheGivenCache() {
        String data = CorpusFixture.data("a-system-wide-bpf").toString();
        String kallsyms = CorpusFixture.kallsyms().toString();
        String cache = CorpusFixture.buildIdDir().toString();
        Run named = Run.of("report", "--buildid-dir", cache, "-i", data, "--stdio", "--sort", "sym", "--kallsyms", kallsyms);
        assertEquals(0, named.rc(), named.err());
        assertTrue(named.out().contains(VDSO_ROW), named.out());
        Run global = Run.of("--buildid-dir", cache, "report", "-i", data, "--stdio", "--sort", "sym", "--kallsyms", kallsyms);
        assertEquals(named.out().replaceAll("# \\(Tip.*", ""), global.out().replaceAll("# \\(Tip.*", ""));
        Run none = Run.of("--buildid-dir=" + empty, "report", "-i", data, "--stdio", "--sort", "sym", "--kallsyms", kallsyms);
        assertEquals(0, none.rc(), none.err());
        assertFalse(none.out().contains(VDSO_ROW), none.out());
        // the command's own option wins over the global one
        Run both = Run.of("--buildid-dir", empty.toString(), "report", "--buildid-dir", cache, "-i", data, "--stdio",
                "--sort", "sym", "--kallsyms", kallsyms);
        assertTrue(both.out().contains(VDSO_ROW), both.out());
        Run script = Run.of("script", "--buildid-dir", cache, "-i", data, "-F", "ip,sym", "--kallsyms", kallsyms);
        assertTrue(script.out().contains("__vdso_clock_gettime"), "script names vdso samples");
    }
}
