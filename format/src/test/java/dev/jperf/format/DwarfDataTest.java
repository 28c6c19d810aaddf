package dev.jperf.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.SampleRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * testdata/dwarf (dwarf/README.md): each recording parses whole, every sample carrying what a
 * DWARF unwinder needs as its attr says (the user registers of sample_regs_user under the 64-bit
 * ABI, sample_stack_user bytes of stack of which dyn_size are filled), and perf 6.1 run here on
 * it with the kept build-id cache prints its goldens again, byte for byte.
 */
class DwarfDataTest {
    static Stream<Path> files() {
        return Corpus.dwarfFiles().stream();
    }

    @ParameterizedTest
    @MethodSource("files")
    void everySampleCarriesRegistersAndStack(Path file) {
        long samples = 0;
        try (PerfDataFile f = PerfDataFile.open(file); RecordStream rs = f.records()) {
            PerfEventAttr attr = f.events().get(0).attr();
            assertTrue((attr.sampleType() & PerfEventAttr.PERF_SAMPLE_REGS_USER) != 0, file.toString());
            assertTrue((attr.sampleType() & PerfEventAttr.PERF_SAMPLE_STACK_USER) != 0, file.toString());
            assertTrue((attr.flags() & PerfEventAttr.FLAG_EXCLUDE_CALLCHAIN_USER) != 0, file.toString());
            while (rs.hasNext()) {
                PerfRecord r = rs.next();
                if (r instanceof SampleRecord s) {
                    samples++;
                    assertNotNull(s.regsUser(), "sample at " + s.offset());
                    // PERF_SAMPLE_REGS_ABI_64: a user task of this 64-bit machine
                    assertEquals(2, s.regsUser().abi(), "sample at " + s.offset());
                    assertEquals(Long.bitCount(attr.sampleRegsUser()), s.regsUser().regs().length);
                    assertEquals(attr.sampleStackUser(), s.stackUser().length, "sample at " + s.offset());
                    assertTrue(s.stackUserDynSize() > 0 && s.stackUserDynSize() <= attr.sampleStackUser(),
                            "dyn_size " + s.stackUserDynSize() + " of the sample at " + s.offset());
                }
            }
            assertEquals(List.of(), f.warnings());
        }
        assertTrue(samples >= 150, file + ": " + samples + " samples");
        assertTrue(file.toFile().length() < 2 << 20, file + " is over 2 MB");
    }

    @ParameterizedTest
    @MethodSource("files")
    void perfPrintsTheGoldensAgain(Path file) throws Exception {
        PerfOracle.assumeInstalled();
        Path bid = Corpus.dwarfBuildIdDir();
        PerfOracle.Result script = PerfOracle.perfWithBuildIdDir(bid, "script", "-i", file.toString(), "-F",
                "comm,tid,ip,sym,dso", "--no-inline");
        assertEquals(0, script.rc(), script.err());
        assertEquals(String.join("\n", Corpus.lines(file.resolveSibling("script.txt.xz"))).stripTrailing(),
                script.out().stripTrailing(), file + " script");
        PerfOracle.Result report = PerfOracle.perfWithBuildIdDir(bid, "report", "-i", file.toString(), "--no-children",
                "--stdio", "--no-inline", "-g", "caller");
        assertEquals(0, report.rc(), report.err());
        assertEquals(Files.readString(file.resolveSibling("report.txt")).stripTrailing(),
                PerfOracle.dropTip(report.out()).stripTrailing(), file + " report");
    }
}
