package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.CorpusFixture;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * perf's option parser lets a later occurrence of an option replace an earlier one, except where the
 * option collects (record's -e); so does jperf.
 */
class RepeatedOptionTest {
    @Test
    void theLastSortWins() {
        Path data = CorpusFixture.data("a-system-wide-bpf");
        Run twice = Run.of("report", "-i", data.toString(), "--stdio", "--sort", "sym", "--sort", "comm");
        Run once = Run.of("report", "-i", data.toString(), "--stdio", "--sort", "comm");
        assertEquals(0, twice.rc(), twice.err());
        assertEquals(once.out().replaceAll("# \\(Tip:.*", ""), twice.out().replaceAll("# \\(Tip:.*", ""));
    }

    @Test
    void aNegatedSwitchReplacesTheSwitch() {
        Path data = CorpusFixture.data("a-system-wide-bpf");
        Run negated = Run.of("report", "-i", data.toString(), "--stdio", "--header-only", "--no-header-only");
        Run plain = Run.of("report", "-i", data.toString(), "--stdio");
        assertEquals(0, negated.rc(), negated.err());
        assertEquals(plain.out().replaceAll("# \\(Tip:.*", ""), negated.out().replaceAll("# \\(Tip:.*", ""));
        assertTrue(Run.of("report", "-i", data.toString(), "--no-header-only", "--header-only").out()
                .startsWith("# ========\n# captured on"), "--header-only last wins");
    }

    /** The first -e is still there after the second: an unknown one fails the recording before it starts. */
    @Test
    void everyEventIsKept() {
        Run r = Run.of("record", "-q", "-e", "no-such-event", "-e", "cpu-clock", "-o", "/dev/null", "--", "true");
        assertEquals(1, r.rc());
        assertTrue(r.err().startsWith("jperf record: unknown event 'no-such-event'"), r.err());
    }
}
