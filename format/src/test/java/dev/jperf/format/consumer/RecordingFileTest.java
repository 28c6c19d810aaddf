package dev.jperf.format.consumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jperf.format.Corpus;
import dev.jperf.format.PerfDataException;
import dev.jperf.format.PerfDataFile;
import dev.jperf.format.RecordStream;
import dev.jperf.format.bpf.BpfSymbol;
import dev.jperf.format.record.BpfEventRecord;
import dev.jperf.format.record.KsymbolRecord;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.RecordType;
import dev.jperf.format.record.SampleRecord;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The reading API on the corpus: file and time order, damage through the sink, pipes, BPF lookup. */
class RecordingFileTest {
    static Stream<Path> corpusFiles() {
        Assumptions.assumeTrue(Files.isDirectory(Corpus.CORPUS), "no corpus at " + Corpus.CORPUS);
        return Corpus.corpusFiles().stream();
    }

    /** type@offset of each record. */
    private static List<String> keys(Iterable<PerfRecord> records) {
        List<String> out = new ArrayList<>();
        for (PerfRecord r : records) {
            out.add(r.type() + "@" + r.offset());
        }
        return out;
    }

    @ParameterizedTest
    @MethodSource("corpusFiles")
    void fileOrderIsTheRecordStreams(Path file) {
        List<String> stream = new ArrayList<>();
        try (PerfDataFile f = PerfDataFile.open(file); RecordStream rs = f.records()) {
            while (rs.hasNext()) {
                PerfRecord r = rs.next();
                stream.add(r.type() + "@" + r.offset());
            }
        }
        List<String> warnings = new ArrayList<>();
        try (RecordingFile f = RecordingFile.open(file, warnings::add)) {
            assertEquals(stream, keys(f.records()));
            // a file can be read again
            assertEquals(stream, keys(f.records()));
        }
        assertEquals(List.of(), warnings, file + ": an intact file");
    }

    /** The same records in time order: each once, the kernel's sorted within what FINISHED_ROUND allows. */
    @ParameterizedTest
    @MethodSource("corpusFiles")
    void timeOrderHoldsEveryRecordButRounds(Path file) {
        try (RecordingFile f = RecordingFile.open(file)) {
            List<String> fileOrder = new ArrayList<>(keys(f.records()));
            fileOrder.removeIf(k -> k.startsWith(RecordType.PERF_RECORD_FINISHED_ROUND + "@"));
            List<String> timeOrder = keys(f.inTimeOrder());
            assertEquals(fileOrder.stream().sorted().toList(), timeOrder.stream().sorted().toList());
            long last = 0;
            int samples = 0;
            for (PerfRecord r : f.inTimeOrder()) {
                if (r instanceof SampleRecord s && s.time() != 0 && s.time() != -1) {
                    assertTrue(Long.compareUnsigned(s.time(), last) >= 0, file + ": sample at " + s.offset() + " out of order");
                    last = s.time();
                    samples++;
                }
            }
            assertTrue(samples > 1000, file + ": " + samples + " samples");
        }
    }

    static Stream<Path> scriptGoldens() {
        return corpusFiles().map(Path::getParent).flatMap(d -> Stream.of("script.txt", "script.txt.xz", "script-nocpu.txt")
                .map(d::resolve).filter(Files::isRegularFile).limit(1));
    }

    /** {@code comm pid/tid [cpu] secs.usecs: rest}: perf script's line heads (callchain lines have none). */
    private static final Pattern HEAD = Pattern.compile("^\\s*.+?\\s+-?\\d+/(-?\\d+)\\s+(?:\\[\\d+\\]\\s+)?(\\d+)\\.(\\d{6}): (.*)$");
    private static final Pattern KSYMBOL = Pattern.compile("^PERF_RECORD_KSYMBOL addr ([0-9a-f]+) .*");
    private static final Pattern BPF_EVENT = Pattern.compile("^PERF_RECORD_BPF_EVENT type \\d+, flags \\d+, id (\\d+)$");

    /**
     * The order of perf's {@code script --show-bpf-events} (the goldens, its first 20000 lines
     * where cut), which report's session keeps too: samples (tid and time) and KSYMBOL / BPF_EVENT
     * records in the same sequence.
     */
    @ParameterizedTest
    @MethodSource("scriptGoldens")
    void timeOrderIsPerfScripts(Path golden) {
        List<String> perf = new ArrayList<>();
        for (String l : Corpus.lines(golden)) {
            Matcher m = HEAD.matcher(l);
            if (!m.matches()) {
                continue;
            }
            long usecs = Long.parseLong(m.group(2)) * 1_000_000 + Long.parseLong(m.group(3));
            Matcher k = KSYMBOL.matcher(m.group(4));
            Matcher b = BPF_EVENT.matcher(m.group(4));
            perf.add(k.matches() ? "ksymbol " + k.group(1) + " " + usecs
                    : b.matches() ? "bpf_event " + b.group(1) + " " + usecs : "sample " + m.group(1) + " " + usecs);
        }
        List<String> ours = new ArrayList<>();
        try (RecordingFile f = RecordingFile.open(golden.resolveSibling("perf.data"))) {
            for (PerfRecord r : f.inTimeOrder()) {
                if (ours.size() == perf.size()) {
                    break;
                }
                if (r instanceof SampleRecord s) {
                    ours.add("sample " + s.tid() + " " + s.time() / 1000);
                } else if (r instanceof KsymbolRecord k) {
                    ours.add("ksymbol " + Long.toHexString(k.addr()) + " " + k.sampleId().time() / 1000);
                } else if (r instanceof BpfEventRecord e) {
                    ours.add("bpf_event " + Integer.toUnsignedString(e.id()) + " " + e.sampleId().time() / 1000);
                }
            }
        }
        assertTrue(perf.size() > 1000, golden + ": " + perf.size() + " lines");
        assertEquals(perf, ours, golden.toString());
    }

    @Test
    void truncatedFileIsOneWarningAndItsRecords() {
        Path p = Corpus.CORPUS.resolve("h-damaged/truncated.data");
        Assumptions.assumeTrue(Files.isRegularFile(p), "no corpus");
        List<String> warnings = new ArrayList<>();
        int samples = 0;
        try (RecordingFile f = RecordingFile.open(p, warnings::add)) {
            assertEquals(List.of(), warnings, "said once the records were read (it names where they stopped)");
            for (PerfRecord r : f.inTimeOrder()) {
                if (r instanceof SampleRecord) {
                    samples++;
                }
            }
            assertEquals(List.of(p + ": data section claims 1307504 bytes but the file ends at 654164: records after 0x9fb38"
                    + " are missing (truncated file?)"), warnings);
        }
        assertEquals(1, warnings.size(), "not said again on close: " + warnings);
        assertEquals(11027, samples); // as DamagedFilesTest counts in file order
    }

    @Test
    void truncatedFileClosedUnreadIsOneWarning() {
        Path p = Corpus.CORPUS.resolve("h-damaged/truncated.data");
        Assumptions.assumeTrue(Files.isRegularFile(p), "no corpus");
        List<String> warnings = new ArrayList<>();
        try (RecordingFile f = RecordingFile.open(p, warnings::add)) {
            assertEquals("cpu-clock:ppp", f.events().get(0).name());
        }
        assertEquals(List.of(p + ": data section claims 1307504 bytes but the file ends at 654164: the records past the"
                + " end are missing (truncated file?)"), warnings);
    }

    /** Damage in the header is said at open; the records are all there. */
    @Test
    void featureOffsetPastTheEndIsSaidAtOpen() {
        Path p = Corpus.CORPUS.resolve("h-damaged/bad-feature-offset.data");
        Assumptions.assumeTrue(Files.isRegularFile(p), "no corpus");
        List<String> warnings = new ArrayList<>();
        try (RecordingFile f = RecordingFile.open(p, warnings::add)) {
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).startsWith(p + ": feature BUILD_ID"), warnings.get(0));
            assertEquals(22655, samples(f.records()));
        }
        assertEquals(1, warnings.size(), warnings.toString());
    }

    @Test
    void unreadableIsAnException() {
        Path p = Corpus.CORPUS.resolve("h-damaged/bad-magic.data");
        Assumptions.assumeTrue(Files.isRegularFile(p), "no corpus");
        PerfDataException e = assertThrows(PerfDataException.class, () -> RecordingFile.open(p));
        assertTrue(e.getMessage().endsWith("bad-magic.data: not a perf.data file (bad magic)"), e.getMessage());
    }

    private static int samples(Iterable<PerfRecord> records) {
        int n = 0;
        for (PerfRecord r : records) {
            if (r instanceof SampleRecord) {
                n++;
            }
        }
        return n;
    }

    /** A pipe-mode file read as a stream: the records a mapped read of it gives, once. */
    @Test
    void pipeStream() throws IOException {
        Path p = Corpus.CORPUS.resolve("f-pipe/perf.data");
        Assumptions.assumeTrue(Files.isRegularFile(p), "no corpus");
        List<String> mapped;
        try (RecordingFile f = RecordingFile.open(p)) {
            assertTrue(f.header().pipe());
            mapped = keys(f.inTimeOrder());
        }
        List<String> warnings = new ArrayList<>();
        try (InputStream in = Files.newInputStream(p); RecordingFile f = RecordingFile.openPipe(in, warnings::add)) {
            assertTrue(f.header().pipe());
            assertEquals("pipe", f.name());
            assertEquals(mapped, keys(f.inTimeOrder()));
            assertEquals(List.of("cpu-clock:ppp", "dummy:HG"), f.events().stream().map(e -> e.name()).toList());
            assertThrows(IllegalStateException.class, () -> f.records().iterator());
        }
        assertEquals(List.of(), warnings);
    }

    @Test
    void truncatedPipeIsOneWarningAndItsRecords() throws IOException {
        Path p = Corpus.CORPUS.resolve("h-damaged/pipe-truncated.data");
        Assumptions.assumeTrue(Files.isRegularFile(p), "no corpus");
        List<String> warnings = new ArrayList<>();
        int samples;
        try (InputStream in = Files.newInputStream(p); RecordingFile f = RecordingFile.openPipe(in, warnings::add)) {
            samples = samples(f.records());
        }
        assertTrue(samples > 1000, samples + " samples");
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("pipe: the stream ends inside a record (offset 0x55d54"), warnings.get(0));
    }

    /** The records' damage is said as the first iteration meets it, once however often they are read. */
    @Test
    void recordDamageIsSaidOnce() {
        Path p = Corpus.CORPUS.resolve("h-damaged/pipe-truncated.data");
        Assumptions.assumeTrue(Files.isRegularFile(p), "no corpus");
        List<String> warnings = new ArrayList<>();
        try (RecordingFile f = RecordingFile.open(p, warnings::add)) {
            assertEquals(List.of(), warnings);
            int samples = samples(f.records());
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).startsWith(p + ": record at offset 0x55d54"), warnings.get(0));
            assertEquals(samples, samples(f.records()));
            assertEquals(samples, samples(f.inTimeOrder()));
        }
        assertEquals(1, warnings.size(), "not said again: " + warnings);
    }

    /** No array of a record is the record's own. */
    @Test
    void samplesAreImmutable() {
        Path p = Corpus.CORPUS.resolve("b-callchains-bpf/perf.data");
        Assumptions.assumeTrue(Files.isRegularFile(p), "no corpus");
        try (RecordingFile f = RecordingFile.open(p)) {
            for (PerfRecord r : f.records()) {
                if (r instanceof SampleRecord s && s.callchainLength() > 2) {
                    long[] chain = s.callchain();
                    long first = chain[0];
                    chain[0] = 42;
                    assertEquals(first, s.callchain()[0]);
                    assertEquals(first, s.callchain(0));
                    chain[0] = first;
                    assertArrayEquals(chain, s.callchain());
                    long[] ids = s.event().ids();
                    ids[0] ^= 1;
                    assertFalse(ids[0] == s.event().ids()[0]);
                    return;
                }
            }
        }
        throw new AssertionError("no sample with a callchain");
    }

    static Stream<Path> bpfLineGoldens() {
        // pipe mode: perf 6.1 stores no BPF_PROG_INFO in a stream (README of f-pipe)
        return corpusFiles().map(f -> f.resolveSibling("bpf-lines.json"))
                .filter(g -> Files.isRegularFile(g) && !g.getParent().getFileName().toString().equals("f-pipe"));
    }

    /**
     * {@code bpfPrograms().at(ip)} attributes the samples to the programs, JITed functions and
     * line_info entries (with their source) the corpus' per-line golden does (the functions by the
     * names perf's KSYMBOL records gave them), count for count.
     */
    @ParameterizedTest
    @MethodSource("bpfLineGoldens")
    void bpfLookupIsTheLineGoldens(Path golden) throws IOException {
        Map<String, Integer> functions = new HashMap<>();
        Map<String, Integer> lines = new HashMap<>();
        Map<String, String> sources = new HashMap<>();
        try (RecordingFile f = RecordingFile.open(golden.resolveSibling("perf.data"))) {
            for (PerfRecord r : f.records()) {
                if (r instanceof SampleRecord s) {
                    BpfSymbol b = f.bpfPrograms().at(s.ip()).orElse(null);
                    if (b == null) {
                        continue;
                    }
                    String fn = s.event().name() + " " + b.program().id() + " " + b.kernelName();
                    functions.merge(fn, 1, Integer::sum);
                    if (b.lineIndex() >= 0) {
                        String at = s.event().name() + " " + b.program().id() + " 0x"
                                + Long.toHexString(b.program().jitedLineInfo()[b.lineIndex()]);
                        lines.merge(at, 1, Integer::sum);
                        sources.put(at, b.line().map(l -> l.location() + " " + l.text()).orElse("?"));
                    }
                }
            }
        }
        int checked = 0;
        for (JsonNode ev : new ObjectMapper().readTree(golden.toFile()).get("events")) {
            for (JsonNode prog : ev.get("programs")) {
                String id = ev.get("event").asText() + " " + prog.get("id").asInt();
                for (JsonNode fn : prog.get("functions")) {
                    assertEquals(fn.get("samples").asInt(), functions.getOrDefault(id + " " + fn.get("ksym").asText(), 0),
                            golden + ": " + id + " " + fn.get("ksym").asText());
                    for (JsonNode l : fn.get("lines")) {
                        String at = id + " " + l.get("jited_addr").asText();
                        assertEquals(l.get("samples").asInt(), lines.getOrDefault(at, 0), golden + ": " + at);
                        assertEquals(l.get("file").asText() + ":" + l.get("line").asInt() + ":" + l.get("col").asInt()
                                + " " + l.get("src").asText(), sources.get(at), golden + ": " + at);
                        checked++;
                    }
                }
            }
        }
        assertTrue(checked > 10, golden + ": " + checked + " lines");
    }

    /** An address outside every program: nothing. */
    @ParameterizedTest
    @ValueSource(longs = {0, 0xffffffff81000000L, -1})
    void bpfLookupOutsidePrograms(long ip) {
        Path p = Corpus.CORPUS.resolve("e-preloaded-bpf/perf.data");
        Assumptions.assumeTrue(Files.isRegularFile(p), "no corpus");
        try (RecordingFile f = RecordingFile.open(p)) {
            assertEquals(2, f.bpfPrograms().all().size());
            assertTrue(f.bpfPrograms().at(ip).isEmpty());
        }
    }
}
