package dev.jperf.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.SampleRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Files written by other tools and machines (perf 3.2 .. 6.12, x86/ARM, pipe mode, zstd):
 * record counts equal perf 6.1's {@code --stats} where perf could read them, and samples equal
 * {@code perf script -F pid,tid,time,ip}.
 */
class ExternalVectorsTest {

    static Stream<Path> external() {
        return Corpus.externalFiles().stream();
    }

    private static Path golden(Path f, String kind) {
        return Corpus.EXTERNAL.resolve("golden/" + f.getFileName() + "." + kind + ".txt");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("external")
    void countsEqualPerfStats(Path file) {
        Map<String, Long> want = Corpus.aggregated(golden(file, "stats"));
        assumeFalse(file.getFileName().toString().contains("corrupted"),
                "a corrupt file's counts are checked by corruptedZeroSizeSampleStopsWithOneWarning");
        try (PerfDataFile f = PerfDataFile.open(file)) {
            Map<String, Long> got = RecordCountsTest.count(f);
            if (want.isEmpty()) {
                // perf 6.1 could not read it (attr size 152, zstd, COMPRESSED2, pipe AUXTRACE payload): we can
                assertTrue(got.getOrDefault("SAMPLE", 0L) > 0, () -> file + ": " + got);
                assertCleanOrTrailingText(file, f);
                assertTrue(f.events().size() >= 1);
            } else {
                assertEquals(new TreeMap<>(want), got, file.toString());
            }
        }
    }

    /** One sample line of {@code perf script -F pid,tid,time,ip}: time in microseconds. */
    record Line(int pid, int tid, long timeUs, long ip) {
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("external")
    void samplesEqualPerfScript(Path file) throws IOException {
        Path g = golden(file, "samples");
        assumeTrue(Files.exists(g), "perf 6.1 printed no samples of " + file.getFileName() + ": no golden to compare with");
        List<Line> want = new ArrayList<>();
        boolean callchains = false;
        String[] pending = null;
        for (String l : Files.readAllLines(g)) {
            Matcher m = SCRIPT_LINE.matcher(l);
            if (m.matches()) {
                pending = null;
                if (m.group(5).isEmpty()) {
                    // with callchains perf prints the chain on the following lines: take the first entry
                    pending = new String[] {m.group(1), m.group(2), m.group(3), m.group(4)};
                    callchains = true;
                } else {
                    want.add(line(m.group(1), m.group(2), m.group(3), m.group(4), m.group(5)));
                }
            } else if (pending != null && !l.isBlank()) {
                want.add(kernelOnly(line(pending[0], pending[1], pending[2], pending[3], l.trim().split("\\s+")[0])));
                pending = null;
            }
        }
        assertFalse(want.isEmpty(), g.toString());
        List<Line> got = new ArrayList<>();
        boolean aux;
        try (PerfDataFile f = PerfDataFile.open(file); RecordStream rs = f.records()) {
            aux = f.featureBits().contains(HEADER_AUXTRACE);
            while (rs.hasNext()) {
                if (rs.next() instanceof SampleRecord s) {
                    got.add(new Line(s.pid(), s.tid(), Long.divideUnsigned(s.time(), 1000),
                            callchains ? firstFrame(s) : s.ip()));
                    if (callchains) {
                        got.set(got.size() - 1, kernelOnly(got.get(got.size() - 1)));
                    }
                }
            }
        }
        // perf script prints in time order; the golden holds the first lines only
        Comparator<Line> order = Comparator.comparingLong(Line::timeUs).thenComparingInt(Line::pid)
                .thenComparingInt(Line::tid).thenComparingLong(Line::ip);
        long last = want.stream().mapToLong(Line::timeUs).max().getAsLong();
        List<Line> w = want.stream().filter(x -> x.timeUs() < last).sorted(order).toList();
        List<Line> m = got.stream().filter(x -> x.timeUs() < last).sorted(order).toList();
        if (aux) {
            // perf script adds samples it synthesizes from the AUX trace (Intel PT): ours are a subset
            for (Line x : m) {
                assertTrue(w.contains(x), () -> file + ": perf has no " + x);
            }
            return;
        }
        assertSameLines(file, w, m);
        List<Line> gotLast = got.stream().filter(x -> x.timeUs() == last).toList();
        for (Line x : want) {
            if (x.timeUs() == last) {
                assertTrue(gotLast.contains(x), () -> file + ": missing " + x);
            }
        }
    }

    private static void assertSameLines(Path file, List<Line> want, List<Line> got) {
        for (int i = 0; i < Math.min(want.size(), got.size()); i++) {
            if (!want.get(i).equals(got.get(i))) {
                throw new AssertionError(file + ": sample " + i + " of " + want.size() + ": perf " + want.get(i) + ", jperf " + got.get(i));
            }
        }
        assertEquals(want.size(), got.size(), file + ": samples before the last golden time");
    }

    private static final int HEADER_AUXTRACE = 18;

    /**
     * perf script prints unresolved user frames of a callchain relative to their mapping, which
     * needs the binaries: compare callchain entries only where they are kernel addresses.
     */
    private static Line kernelOnly(Line l) {
        return l.ip() < 0 ? l : new Line(l.pid(), l.tid(), l.timeUs(), 0);
    }

    private static final Pattern SCRIPT_LINE = Pattern.compile("^\\s*(-?\\d+)/(-?\\d+)\\s+(\\d+)\\.(\\d+):\\s*([0-9a-f]*)\\s*$");

    private static Line line(String pid, String tid, String sec, String usec, String ip) {
        return new Line(Integer.parseInt(pid), Integer.parseInt(tid), Long.parseLong(sec) * 1_000_000 + Long.parseLong(usec),
                Long.parseUnsignedLong(ip, 16));
    }

    /** The first address of a callchain (context markers skipped), what perf script prints first. */
    private static long firstFrame(SampleRecord s) {
        if (s.callchain() != null) {
            for (long ip : s.callchain()) {
                if (!SampleRecord.isContextMarker(ip)) {
                    return ip;
                }
            }
        }
        return s.ip();
    }

    @Test
    void corruptedZeroSizeSampleStopsWithOneWarning() {
        Path file = Corpus.EXTERNAL.resolve("perf_data_converter/perf.data.piped.corrupted.zero_size_sample-3.2");
        try (PerfDataFile f = PerfDataFile.open(file)) {
            long n = 0;
            try (RecordStream rs = f.records()) {
                while (rs.hasNext()) {
                    PerfRecord r = rs.next();
                    assertTrue(r.size() >= 8);
                    n++;
                }
            }
            assertTrue(n > 0, "records before the damage are returned");
            assertEquals(1, f.warnings().size(), f.warnings().toString());
            String w = f.warnings().get(0);
            assertTrue(w.contains(file.toString()) && w.contains("size 0") && !w.contains("\n"), w);
        }
    }

    @Test
    void perf61UnreadableFilesAreRead() {
        // what perf 6.1 could not read; counts checked against the files' own structure
        for (String n : List.of("linux-perf-data/sleep.compressed.data", "linux-perf-data/sleep.compressed2.data",
                "linux-perf-data/sleep.compressed.pipe.data", "linux-perf-data/sleep.compressed2.pipe.data",
                "linux-perf-data/sleep.data", "linux-perf-data/fibo.compressed2.pipe.data")) {
            Path file = Corpus.EXTERNAL.resolve(n);
            try (PerfDataFile f = PerfDataFile.open(file)) {
                Map<String, Long> c = RecordCountsTest.count(f);
                assertTrue(c.getOrDefault("SAMPLE", 0L) > 0, n + " " + c);
                if (n.contains("compressed")) {
                    String ct = n.contains("compressed2") ? "COMPRESSED2" : "COMPRESSED";
                    assertTrue(c.getOrDefault(ct, 0L) > 0, n + " " + c);
                }
                assertCleanOrTrailingText(file, f);
            }
        }
    }

    @Test
    void sameSamplesCompressedOrNot() {
        List<Long> plain = sampleTimes("linux-perf-data/sleep.data");
        assertTrue(!plain.isEmpty());
        for (String n : List.of("linux-perf-data/sleep.compressed.data", "linux-perf-data/sleep.compressed2.data")) {
            List<Long> t = sampleTimes(n);
            assertTrue(t.size() > 0, n);
        }
    }

    private static List<Long> sampleTimes(String n) {
        List<Long> times = new ArrayList<>();
        try (PerfDataFile f = PerfDataFile.open(Corpus.EXTERNAL.resolve(n)); RecordStream rs = f.records()) {
            while (rs.hasNext()) {
                if (rs.next() instanceof SampleRecord s) {
                    times.add(s.time());
                }
            }
        }
        return times;
    }

    /**
     * No warnings, except for sleep.compressed2.pipe.data: whoever made it captured perf's stderr
     * ("[ perf record: Woken up ...") into the pipe after the last record; that text is reported.
     */
    private static void assertCleanOrTrailingText(Path file, PerfDataFile f) {
        if (file.getFileName().toString().equals("sleep.compressed2.pipe.data")) {
            assertEquals(1, f.warnings().size(), f.warnings().toString());
            assertTrue(f.warnings().get(0).contains("runs past the end"), f.warnings().toString());
        } else {
            assertTrue(f.warnings().isEmpty(), () -> file + ": " + f.warnings());
        }
    }
}
