package dev.jperf.cli;

import static dev.jperf.report.CorpusFixture.CORPUS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.CorpusFixture;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** jperf script / annotate from the command line: bad input is one line, warnings as the other commands print them. */
class ScriptAnnotateCommandTest {
    private static String corpus(String c) {
        return CorpusFixture.data(c).toString();
    }

    @Test
    void missingOrDamagedFileIsOneLineAndNonZeroExit() {
        Path missing = CORPUS.resolve("h-damaged/no-such-file.data");
        Path magic = CORPUS.resolve("h-damaged/bad-magic.data");
        for (String cmd : new String[] {"script", "annotate"}) {
            for (Path p : new Path[] {missing, magic}) {
                Run r = Run.of(cmd, "-i", p.toString());
                // perf's exit code for an input it cannot open (BadInputTest checks it against perf)
                assertEquals(255, r.rc(), cmd + " " + p);
                assertEquals("", r.out());
                assertEquals(1, r.err().lines().count(), r.err());
                assertTrue(r.err().startsWith("jperf " + cmd + ": " + p), r.err());
            }
        }
    }

    @Test
    void badFieldAndMissingCpuAttributeAreOneLine() {
        Run r = Run.of("script", "-i", corpus("c-process"), "-F", "comm,cpu,ip");
        assertEquals(1, r.rc());
        assertEquals("jperf script: Samples for 'cpu-clock:ppp' event do not have CPU attribute set. Cannot print 'cpu'"
                + " field.\n", r.err());
        Run b = Run.of("script", "-i", corpus("c-process"), "-F", "comm,nonsense");
        assertEquals(1, b.rc());
        assertEquals(1, b.err().lines().count(), b.err());
    }

    @Test
    void truncatedFilePrintsWhatIsThereAndWarns() {
        Path t = CORPUS.resolve("h-damaged/truncated.data");
        Run r = Run.of("script", "-i", t.toString(), "-F", "pid,tid,time,ip");
        assertEquals(0, r.rc(), r.err());
        assertEquals(11027, r.out().lines().count());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("warning: " + t + ": data section claims 1307504 bytes"), r.err());
    }

    @Test
    void annotatePrintsTheSubprogramBreakdown() {
        // the corpus kallsyms: the running kernel's may name BPF programs loaded here meanwhile
        Run r = Run.of("annotate", "-i", corpus("a-system-wide-bpf"), "--kallsyms", CorpusFixture.kallsyms().toString(),
                "mix_a");
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("       3588   49.97%  mix_a             bpf_prog_904d8356ffe3e4ed_mix_a"), r.out());
        assertTrue(r.out().contains("Source code of bpf_prog_904d8356ffe3e4ed_mix_a for cpu-clock:ppp (3588 samples"),
                r.out());
    }

    @Test
    void helpIsThere() {
        assertEquals(0, Run.of("script", "--help").rc());
        assertEquals(0, Run.of("annotate", "--help").rc());
    }
}
