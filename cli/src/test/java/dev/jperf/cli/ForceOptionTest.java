package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A perf.data of another user (not root) is refused as perf refuses it, and read with -f/--force,
 * by report, script and inject: status and lines against perf 6.1's.
 */
class ForceOptionTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"report --stdio", "script", "report --stdio -f", "script --force", "report --header-only"})
    void anotherUsersFileAsPerf(String command) throws Exception {
        PerfOracle.assumeInstalled();
        CorpusFixture.installBinaries();
        Path data = dir.resolve("perf.data");
        Files.copy(CorpusFixture.data("c-process"), data, StandardCopyOption.REPLACE_EXISTING);
        giveToAnotherUser(data);
        String[] args = (command + " -i " + data + " --kallsyms " + CorpusFixture.kallsyms()).split(" ");
        String[] perf = ScriptFiltersTest.perf(args);
        String[] withCache = new String[args.length + 2];
        withCache[0] = "--buildid-dir";
        withCache[1] = CorpusFixture.buildIdDir().toString();
        System.arraycopy(args, 0, withCache, 2, args.length);
        Run ours = Run.of(withCache);
        assertEquals(Integer.parseInt(perf[0]), ours.rc(), ours.err());
        if (ours.rc() != 0) {
            assertEquals("", ours.out());
            assertTrue(perf[2].startsWith("File " + data + " not owned by current user or root (use -f to override)"), perf[2]);
            assertEquals("jperf " + args[0] + ": " + perf[2].lines().findFirst().orElseThrow(), ours.err().strip());
        } else {
            assertEquals(PerfOracle.withoutTip(perf[1]), PerfOracle.withoutTip(ours.out()));
        }
    }

    /**
     * inject: another user's file refused as perf refuses it (perf's line, exit 255), copied with
     * -f/--force; perf script reads jperf's copy as it reads perf's.
     */
    @ParameterizedTest
    @ValueSource(strings = {"", "-f", "--force"})
    void injectAnotherUsersFileAsPerf(String force) throws Exception {
        PerfOracle.assumeInstalled();
        CorpusFixture.installBinaries();
        Path data = dir.resolve("perf.data");
        Files.copy(CorpusFixture.data("c-process"), data, StandardCopyOption.REPLACE_EXISTING);
        giveToAnotherUser(data);
        String[] perf = ScriptFiltersTest.perf((force + " -i " + data + " -o " + dir.resolve("perf.out")).strip()
                .replaceFirst("^", "inject ").split(" "));
        Run ours = Run.of(("inject " + force + " -i " + data + " -o " + dir.resolve("jperf.out")).replace("  ", " ").split(" "));
        assertEquals(Integer.parseInt(perf[0]), ours.rc(), ours.err());
        if (force.isEmpty()) {
            assertEquals(255, ours.rc());
            assertEquals("jperf inject: " + perf[2].lines().findFirst().orElseThrow(), ours.err().strip());
        } else {
            assertEquals(0, ours.rc(), ours.err());
            String kallsyms = CorpusFixture.kallsyms().toString();
            String[] theirs = ScriptFiltersTest.perf("script", "-i", dir.resolve("perf.out").toString(), "--kallsyms", kallsyms);
            String[] mine = ScriptFiltersTest.perf("script", "-i", dir.resolve("jperf.out").toString(), "--kallsyms", kallsyms);
            assertEquals("0", mine[0], mine[2]);
            assertTrue(theirs[1].lines().count() > 10, theirs[1]);
            assertEquals(theirs[1], mine[1]);
        }
    }

    /** The file owned by a user other than the one running the test (nobody, or nobody's neighbour when that is us). */
    private static void giveToAnotherUser(Path data) throws java.io.IOException {
        int other = (Integer) Files.getAttribute(data, "unix:uid") == 65534 ? 65533 : 65534;
        try {
            Files.setAttribute(data, "unix:uid", other);
        } catch (java.io.IOException e) {
            Assumptions.abort("giving the file to another user needs root: " + e);
        }
    }
}
