package dev.jperf.report.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.PerfDataException;
import dev.jperf.format.PerfDataFile;
import dev.jperf.format.consumer.RecordingFile;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.RecordType;
import dev.jperf.report.symbol.SymbolResolver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The reading API's time order ({@code RecordingFile.inTimeOrder}, typed records) is the order in
 * which report's session delivers the kernel's records (flat samples through OrderedEvents), on
 * every corpus file and external vector that opens: samples and side band, record for record.
 */
class TimeOrderAgreementTest {
    static Stream<Path> files() {
        Assumptions.assumeTrue(Files.isDirectory(Corpus.CORPUS), "no corpus at " + Corpus.CORPUS);
        List<Path> all = new ArrayList<>(Corpus.corpusFiles());
        if (Files.isDirectory(Corpus.EXTERNAL)) {
            all.addAll(Corpus.externalFiles());
        }
        return all.stream();
    }

    @ParameterizedTest
    @MethodSource("files")
    void sessionOrderIsTheApis(Path file, @TempDir Path buildIds) {
        List<String> session = new ArrayList<>();
        try (PerfDataFile f = PerfDataFile.open(file)) {
            SymbolResolver resolver = new SymbolResolver(SymbolResolver.Options.defaults(Corpus.kallsyms(), null, buildIds));
            new Session(f, resolver, new Session.Options(false, SampleFilter.NONE)).run(new SampleConsumer() {
                @Override
                public void sample(ResolvedSample s) {
                    session.add(key(s.record()));
                }

                @Override
                public void sideBand(PerfRecord r) {
                    session.add(key(r));
                }
            });
        } catch (PerfDataException e) {
            Assumptions.abort(file + " does not open: " + e.getMessage());
        }
        List<String> api = new ArrayList<>();
        try (RecordingFile f = RecordingFile.open(file)) {
            for (PerfRecord r : f.inTimeOrder()) {
                // the session hands on the kernel's records (the tools' ones are its own business)
                if (r.type() < RecordType.PERF_RECORD_USER_TYPE_START) {
                    api.add(key(r));
                }
            }
        }
        assertTrue(!api.isEmpty() || session.isEmpty(), file.toString());
        assertEquals(session, api, file.toString());
    }

    private static String key(PerfRecord r) {
        return RecordType.name(r.type()) + "@" + r.offset();
    }
}
