package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.PerfDataFile;
import dev.jperf.format.feature.BuildIds;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code jperf data convert --to-json} against {@code perf data convert --to-json} run live on corpus
 * files: the same bytes (headers, every sample, every callchain address with its symbol and DSO),
 * with a build-id cache holding the recording machine's kallsyms and vdso for both, so that kernel
 * addresses are named the same on any kernel; and perf's messages and exit codes.
 */
class DataConvertTest {
    @TempDir
    Path tmp;

    @BeforeAll
    static void perfIsHere() {
        dev.jperf.format.PerfOracle.assumeInstalled();
        Corpus.installBinaries();
    }

    /** A build-id cache with the corpus vdso and, under the recording's kernel build-id, the corpus kallsyms. */
    private Path cache(Path data) throws Exception {
        Path dir = tmp.resolve("cache");
        try (Stream<Path> s = Files.walk(Corpus.buildIdDir())) {
            for (Path p : s.toList()) {
                Path to = dir.resolve(Corpus.buildIdDir().relativize(p).toString());
                if (Files.isSymbolicLink(p)) {
                    Files.createSymbolicLink(to, Files.readSymbolicLink(p));
                } else if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                }
            }
        }
        try (PerfDataFile f = PerfDataFile.open(data)) {
            for (BuildIds.Entry e : f.features().buildIds().orElseThrow().entries()) {
                if (e.filename().equals("[kernel.kallsyms]")) {
                    String bid = e.buildIdHex();
                    Path entry = Files.createDirectories(dir.resolve("[kernel.kallsyms]").resolve(bid));
                    Files.copy(Corpus.kallsyms(), entry.resolve("kallsyms"));
                    Path link = dir.resolve(".build-id").resolve(bid.substring(0, 2)).resolve(bid.substring(2));
                    Files.createDirectories(link.getParent());
                    Files.createSymbolicLink(link, Path.of("../../[kernel.kallsyms]").resolve(bid));
                }
            }
        }
        return dir;
    }

    @ParameterizedTest
    @ValueSource(strings = {"c-process", "b-callchains-bpf", "g-two-events"})
    void sameJsonAsPerf(String kase) throws Exception {
        Path data = Corpus.CORPUS.resolve(kase).resolve("perf.data");
        Path cache = cache(data);
        Path theirs = tmp.resolve("perf.json");
        Path ours = tmp.resolve("jperf.json");
        StatTest.Result p = StatTest.exec("perf", "--buildid-dir", cache.toString(), "data", "convert", "-i", data.toString(),
                "--to-json", theirs.toString());
        assertEquals(0, p.rc(), p.err());
        Run r = Run.of("--buildid-dir", cache.toString(), "data", "convert", "-i", data.toString(), "--to-json", ours.toString());
        assertEquals(0, r.rc(), r.err());
        assertArrayEquals(Files.readAllBytes(theirs), Files.readAllBytes(ours), kase);
        assertEquals(p.err().replace(theirs.toString(), ours.toString()), r.err());
    }

    /**
     * Hostile names (quote, backslash, tab, a control byte, 2- and 4-byte UTF-8) in the command line,
     * comm and DSO of a recording made here: escaped as perf's output_json_string escapes them.
     */
    @Test
    void hostileNamesAsPerf() throws Exception {
        Path exe = tmp.resolve("a\"b\\c\t\u0001\u00e9\ud83d\ude00");
        Files.copy(Path.of("/tmp/corpus/src/workload"), exe);
        exe.toFile().setExecutable(true);
        Path bid = tmp.resolve("buildid");
        Path data = tmp.resolve("hostile.data");
        Run rec = Run.of("--buildid-dir", bid.toString(), "record", "-q", "-e", "cpu-clock:u", "-o", data.toString(), "--",
                exe.toString(), "0.2", "cpu", "1");
        assumeTrue(rec.rc() == 0, "jperf record: " + rec.err());
        Path theirs = tmp.resolve("perf.json");
        Path ours = tmp.resolve("jperf.json");
        StatTest.Result p = StatTest.exec("perf", "--buildid-dir", bid.toString(), "data", "convert", "-i", data.toString(),
                "--to-json", theirs.toString());
        assertEquals(0, p.rc(), p.err());
        assertTrue(Files.readString(theirs).contains("\\ufffffff0\\uffffff9f"), "perf escaped the emoji's bytes");
        Run r = Run.of("--buildid-dir", bid.toString(), "data", "convert", "-i", data.toString(), "--to-json", ours.toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals(Files.readString(theirs), Files.readString(ours));
    }

    /** perf's refusals: no format, --all and --tod with JSON, an existing output without -f. */
    @Test
    void refusalsAsPerf() throws Exception {
        String data = Corpus.CORPUS.resolve("c-process/perf.data").toString();
        Path out = tmp.resolve("exists.json");
        Files.writeString(out, "kept");
        for (List<String> args : List.of(List.of("-i", data), List.of("-i", data, "--to-json", out.toString() + ".new", "--all"),
                List.of("-i", data, "--to-json", out.toString() + ".new", "--tod"), List.of("-i", data, "--to-json", out.toString()))) {
            List<String> perf = new java.util.ArrayList<>(List.of("perf", "data", "convert"));
            perf.addAll(args);
            StatTest.Result p = StatTest.exec(perf);
            List<String> jperf = new java.util.ArrayList<>(List.of("data", "convert"));
            jperf.addAll(args);
            Run r = Run.of(jperf.toArray(String[]::new));
            assertEquals(p.rc(), r.rc(), args + ": " + r.err());
            assertEquals(p.err().strip(), r.err().strip(), args.toString());
        }
        assertEquals("kept", Files.readString(out));
        assertTrue(!Files.exists(Path.of(out + ".new")));
    }
}
