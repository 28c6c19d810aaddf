package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.CorpusFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The export options on the command line: script --folded, report --pprof/--flamegraph, jperf flamegraph. */
class ExportCommandTest {
    @TempDir
    Path tmp;
    static String data;
    static String kallsyms;

    @BeforeAll
    static void setUp() {
        CorpusFixture.installBinaries();
        data = CorpusFixture.data("b-callchains-bpf").toString();
        kallsyms = CorpusFixture.kallsyms().toString();
    }

    @Test
    void scriptFolded() {
        Run r = Run.of("script", "--folded", "-i", data, "--kallsyms", kallsyms);
        assertEquals(0, r.rc(), r.err());
        long samples = 0;
        for (String l : r.out().lines().toList()) {
            assertTrue(l.matches("[^; ][^;]*(;[^;]+)* \\d+"), l);
            samples += Long.parseLong(l.substring(l.lastIndexOf(' ') + 1));
        }
        assertEquals(14694, samples);
        assertTrue(r.out().contains(";bpf_prog_b6a1b5bdb8a35599_subprogs_main;bpf_prog_904d8356ffe3e4ed_mix_a "));
    }

    @Test
    void reportPprofAndFlamegraphFiles() throws Exception {
        Path p = tmp.resolve("p.pb.gz");
        Run r = Run.of("report", "-i", data, "--kallsyms", kallsyms, "--pprof", p.toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals("", r.out());
        byte[] b = Files.readAllBytes(p);
        assertTrue(b.length > 1000 && (b[0] & 0xff) == 0x1f && (b[1] & 0xff) == 0x8b, "not gzip");
        Path f = tmp.resolve("f.html");
        r = Run.of("flamegraph", "-i", data, "--kallsyms", kallsyms, "-o", f.toString(), "--comms", "workload");
        assertEquals(0, r.rc(), r.err());
        String page = Files.readString(f);
        assertTrue(page.startsWith("<!DOCTYPE html>") && page.contains("bpf_prog_904d8356ffe3e4ed_mix_a"));
        assertTrue(!page.contains("\"swapper\""), "--comms workload kept swapper");
        r = Run.of("report", "-i", data, "--kallsyms", kallsyms, "--flamegraph=-");
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().startsWith("<!DOCTYPE html>") && r.out().contains("\"swapper\""));
    }

    /** --max-stack and -U shape the exported stacks as they shape report's graphs: fewer frames, smaller pages. */
    @Test
    void flamegraphTakesMaxStackAndHideUnresolved() {
        Run all = Run.of("report", "-i", data, "--kallsyms", kallsyms, "--flamegraph=-");
        assertEquals(0, all.rc(), all.err());
        for (String option : new String[] {"--max-stack=2", "-U"}) {
            Run r = Run.of("report", "-i", data, "--kallsyms", kallsyms, option, "--flamegraph=-");
            assertEquals(0, r.rc(), r.err());
            assertTrue(r.out().startsWith("<!DOCTYPE html>"), option);
            assertTrue(r.out().length() < all.out().length(), option + " left the stacks as they were");
        }
    }

    @Test
    void unwritableOutputIsOneLine() {
        Path bad = tmp.resolve("missing").resolve("p.pb.gz");
        Run r = Run.of("report", "-i", data, "--pprof=" + bad);
        assertEquals(1, r.rc());
        assertEquals("jperf report: cannot write " + bad + ": no such directory", r.err().strip());
        r = Run.of("flamegraph", "-i", data, "-o", "/dev/full");
        assertEquals(1, r.rc());
        assertEquals("jperf flamegraph: cannot write /dev/full: No space left on device", r.err().strip());
    }
}
