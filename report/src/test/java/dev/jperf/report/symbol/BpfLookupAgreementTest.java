package dev.jperf.report.symbol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.bpf.BpfPrograms;
import dev.jperf.format.bpf.BpfSymbol;
import dev.jperf.format.consumer.RecordingFile;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.SampleRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The reading API's {@code bpfPrograms().at(ip)} names every sample (ip and callchain) as report
 * names JITed BPF code from HEADER_BPF_PROG_INFO ({@link BpfProgSymbols}): the same function, by
 * perf's synthesized name, or nothing for both.
 */
class BpfLookupAgreementTest {
    static Stream<Path> files() {
        Assumptions.assumeTrue(Files.isDirectory(Corpus.CORPUS), "no corpus at " + Corpus.CORPUS);
        return Corpus.corpusFiles().stream();
    }

    @ParameterizedTest
    @MethodSource("files")
    void apiNamesAsReport(Path file) {
        int named = 0;
        try (RecordingFile f = RecordingFile.open(file)) {
            BpfPrograms programs = f.bpfPrograms();
            BpfProgSymbols report = BpfProgSymbols.of(programs);
            for (PerfRecord r : f.records()) {
                if (r instanceof SampleRecord s) {
                    for (int i = -1; i < s.callchainLength(); i++) {
                        long ip = i < 0 ? s.ip() : s.callchain(i);
                        BpfProgSymbols.JitedFunction theirs = report.find(ip);
                        BpfSymbol ours = programs.at(ip).orElse(null);
                        assertEquals(theirs == null ? null : theirs.name(), ours == null ? null : ours.perfName(),
                                file + ": 0x" + Long.toHexString(ip));
                        if (ours != null) {
                            assertEquals(theirs.progId(), ours.program().id());
                            named++;
                        }
                    }
                }
            }
            if (Files.isRegularFile(file.resolveSibling("bpf-lines.json")) && !f.header().pipe()) {
                assertTrue(named > 0, file + ": the corpus has samples in BPF programs here");
            }
        }
    }
}
