package dev.jperf.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jperf.format.record.AuxtraceRecord;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.SampleRecord;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every pipe-mode file read as a stream (stdin) gives the same records as read mapped. */
class StreamInputTest {

    static Stream<Path> pipeFiles() {
        return Stream.concat(Corpus.corpusFiles().stream(), Corpus.externalFiles().stream()).filter(p -> {
            try (PerfDataFile f = PerfDataFile.open(p)) {
                return f.isPipe();
            }
        });
    }

    /** Hands out at most 1000 bytes per read, like a pipe. */
    private static InputStream trickle(InputStream in) {
        return new FilterInputStream(in) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return super.read(b, off, Math.min(len, 1000));
            }
        };
    }

    private static List<String> summary(PerfDataFile f) {
        List<String> out = new ArrayList<>();
        try (RecordStream rs = f.records()) {
            while (rs.hasNext()) {
                PerfRecord r = rs.next();
                String s = r.offset() + " " + r.type() + " " + r.size();
                if (r instanceof SampleRecord x) {
                    s += " " + x.ip() + " " + x.time() + " " + x.event().index();
                } else if (r instanceof AuxtraceRecord a) {
                    s += " " + a.auxSize();
                }
                out.add(s);
            }
        }
        // the wording differs (a file knows its end, a stream does not), the number must not
        out.add(f.warnings().size() + " warnings");
        out.add(f.events().size() + " events, features " + f.featureBits());
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pipeFiles")
    void streamEqualsMapped(Path file) throws IOException {
        List<String> mapped;
        try (PerfDataFile f = PerfDataFile.open(file)) {
            mapped = summary(f);
        }
        try (InputStream in = trickle(Files.newInputStream(file)); PerfDataFile f = PerfDataFile.open("stdin", in)) {
            assertEquals(mapped, summary(f), file.toString());
        }
    }
}
