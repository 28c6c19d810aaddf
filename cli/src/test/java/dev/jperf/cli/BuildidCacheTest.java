package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.Corpus;
import dev.jperf.recorder.BuildIdCache;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jperf buildid-cache} and {@code perf buildid-cache} run the same operations, each on a cache
 * of its own (--buildid-dir): the same messages, listings and, at the end, the same files.
 */
class BuildidCacheTest {
    @TempDir
    Path tmp;

    @Test
    void sameOperationsSameCacheAsPerf() throws Exception {
        dev.jperf.format.PerfOracle.assumeInstalled();
        for (String bin : List.of("/bin/ls", "/bin/cat")) {
            assumeTrue(BuildIdCache.buildIdOf(Path.of(bin)).isPresent(), bin + " has no build-id here");
        }
        String data = Corpus.CORPUS.resolve("c-process/perf.data").toString();
        String libc = Path.of("/bin/ls").toRealPath().getParent().getParent().resolve("lib/x86_64-linux-gnu/libc.so.6").toString();
        List<List<String>> steps = new ArrayList<>(List.of(
                List.of("-a", "/bin/ls,/bin/cat", "-v"), List.of("-l"), List.of("-M", data),
                List.of("-r", "/bin/cat", "-v"), List.of("-l"), List.of("-p", "/bin/ls", "-v"),
                List.of("-u", "/bin/cat,/bin/ls", "-v"), List.of("-l"), List.of("-P", "-v"), List.of("-l"),
                List.of("-a", tmp.resolve("no-such-file").toString()), List.of("-r", "/bin/ls")));
        if (Files.exists(Path.of(libc))) {
            steps.add(3, List.of("-a", libc));
            steps.add(4, List.of("-M", data));
        }
        Path theirs = tmp.resolve("perf-cache");
        Path ours = tmp.resolve("jperf-cache");
        for (List<String> step : steps) {
            List<String> perf = new ArrayList<>(List.of("perf", "--buildid-dir", theirs.toString(), "buildid-cache"));
            perf.addAll(step);
            StatTest.Result p = StatTest.exec(perf);
            List<String> jperf = new ArrayList<>(List.of("--buildid-dir", ours.toString(), "buildid-cache"));
            jperf.addAll(step);
            Run r = Run.of(jperf.toArray(String[]::new));
            assertEquals(p.rc(), r.rc(), step + ": " + r.err());
            assertEquals(p.out(), r.out(), step.toString());
            // perf -v also says where it would fetch from (debuginfod), which jperf does not do
            assertEquals(p.err().lines().filter(l -> !l.startsWith("DEBUGINFOD_URLS=")).collect(Collectors.joining("\n")),
                    r.err().lines().collect(Collectors.joining("\n")), step.toString());
        }
        assertEquals(tree(theirs), tree(ours));
    }

    private static List<String> tree(Path root) throws Exception {
        try (Stream<Path> s = Files.walk(root)) {
            return s.map(p -> root.relativize(p).toString()).sorted().toList();
        }
    }
}
