package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jperf.report.CorpusFixture;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** perf's option parser lets a later occurrence of an option replace an earlier one; so does jperf. */
class RepeatedOptionTest {
    @Test
    void theLastSortWins() {
        Path data = CorpusFixture.data("a-system-wide-bpf");
        Run twice = Run.of("report", "-i", data.toString(), "--stdio", "--sort", "sym", "--sort", "comm");
        Run once = Run.of("report", "-i", data.toString(), "--stdio", "--sort", "comm");
        assertEquals(0, twice.rc(), twice.err());
        assertEquals(once.out().replaceAll("# \\(Tip:.*", ""), twice.out().replaceAll("# \\(Tip:.*", ""));
    }
}
