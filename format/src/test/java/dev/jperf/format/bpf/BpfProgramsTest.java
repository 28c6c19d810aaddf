package dev.jperf.format.bpf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.feature.Features;
import dev.jperf.format.feature.TestFiles;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BpfProgramsTest {

    @Test
    void namesFromKsymbolsAndHeaderFindTheProgram() {
        Features f = TestFiles.features(Corpus.CORPUS.resolve("a-system-wide-bpf/perf.data"));
        BpfPrograms progs = f.bpfPrograms();
        // kernel name (program tag), perf's synthesized name (prog_tags[0]) and a subprogram: same program
        for (String name : new String[] {"bpf_prog_b6a1b5bdb8a35599_subprogs_main",
                "bpf_prog_fd5964cc2c90a235_subprogs_main", "bpf_prog_904d8356ffe3e4ed_mix_a"}) {
            assertEquals(2152, progs.byKsymName(name).orElseThrow().id(), name);
        }
        assertTrue(progs.byKsymName("bpf_prog_0000000000000000_x").isEmpty());
        assertTrue(progs.byKsymName("bpf_trampoline_6442").isEmpty());

        BpfProgInfo p = progs.byId(2152).orElseThrow();
        long ip = 0xffffffffc0025cb6L; // inside mix_a: the golden's hottest line record
        BpfSymbol s = progs.resolve(p, ip).orElseThrow();
        assertEquals(1, s.subprog());
        assertEquals("bpf_prog_904d8356ffe3e4ed_mix_a", s.kernelName());
        assertEquals(22, s.line().orElseThrow().line());
        assertEquals(10, s.line().orElseThrow().column());
        assertEquals("./subprogs.bpf.c:22:10", s.line().orElseThrow().location());
        assertEquals(0xffffffffc0025cb6L - 0xffffffffc0025c94L, s.offset(ip));
        assertEquals(java.util.List.of(p), progs.containing(ip));
    }

    /** d-bpf-storm: 200 programs, JIT addresses reused - an address alone is ambiguous, names are not. */
    @Test
    void reusedAddressesInTheStorm() {
        Features f = TestFiles.features(Corpus.CORPUS.resolve("d-bpf-storm/perf.data"));
        BpfPrograms progs = f.bpfPrograms();
        Map<Long, Integer> starts = new HashMap<>();
        int storm = 0;
        for (BpfProgInfo p : progs.all()) {
            if (p.name().equals("storm_tiny")) {
                storm++;
                starts.merge(p.jitedKsyms()[0], 1, Integer::sum);
                assertEquals(p, progs.byKsymName(p.kernelName(0, null)).orElseThrow());
            }
        }
        assertEquals(200, storm);
        long reused = starts.entrySet().stream().filter(e -> e.getValue() > 1).findFirst().orElseThrow().getKey();
        assertTrue(progs.containing(reused).size() > 1);
    }
}
