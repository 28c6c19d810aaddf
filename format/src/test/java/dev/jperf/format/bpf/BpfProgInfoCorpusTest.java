package dev.jperf.format.bpf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jperf.format.Corpus;
import dev.jperf.format.btf.Btf;
import dev.jperf.format.feature.BpfProgInfos;
import dev.jperf.format.feature.Features;
import dev.jperf.format.feature.TestFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * BpfProgInfo against the kernel's own line tables (bpf-prog-lines*.json, fetched by the loader
 * while the program was loaded) and the per-line golden (bpf-lines.json), for every corpus case
 * that has them (file mode; pipe mode stores no prog info).
 */
class BpfProgInfoCorpusTest {
    static final ObjectMapper JSON = new ObjectMapper();

    static Stream<Path> kernelTables() throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(Corpus.CORPUS)) {
            for (Path d : dirs.sorted().toList()) {
                if (d.getFileName().toString().equals("f-pipe") || !Files.isDirectory(d)) {
                    continue; // pipe mode: BPF_PROG_INFO is empty there (checked in FeaturesTest)
                }
                try (Stream<Path> fs = Files.list(d)) {
                    fs.filter(f -> f.getFileName().toString().matches("bpf-prog-lines.*\\.json")).sorted().forEach(out::add);
                }
            }
        }
        return out.stream();
    }

    static long addr(JsonNode n) {
        return Long.parseUnsignedLong(n.asText().substring(2), 16);
    }

    @ParameterizedTest
    @MethodSource("kernelTables")
    void matchesTheKernelsLineTables(Path table) throws IOException {
        Features features = TestFiles.features(table.getParent().resolve("perf.data"));
        BpfProgInfos infos = features.bpfProgInfos().orElseThrow();
        for (JsonNode prog : JSON.readTree(table.toFile())) {
            BpfProgInfo p = infos.byId(prog.get("id").asInt()).orElseThrow(() -> new AssertionError(table + ": no prog " + prog.get("id")));
            Btf btf = features.btf(p.btfId()).orElseThrow();
            assertEquals(prog.get("tag").asText(), p.tagHex());
            assertEquals(prog.get("btf_id").asInt(), p.btfId());
            assertEquals(prog.get("name").asText(), p.name());
            JsonNode funcs = prog.get("functions");
            assertEquals(funcs.size(), p.subprogCount());
            for (JsonNode f : funcs) {
                int i = f.get("index").asInt();
                assertEquals(addr(f.get("addr")), p.jitedKsyms()[i]);
                assertEquals(f.get("len").asInt(), p.jitedFuncLens()[i]);
                assertEquals(f.get("insn_off").asInt(), p.funcInfo().get(i).insnOff());
                assertEquals(f.get("name").asText(), p.funcInfo().get(i).name(btf).orElseThrow());
                assertEquals(f.get("tag").asText(), p.progTagHex(i));
                assertEquals(f.get("ksym").asText(), p.kernelName(i, btf));
                assertEquals(f.get("perf_synth_name").asText(), p.perfName(i, btf));
            }
            JsonNode lines = prog.get("lines");
            assertEquals(lines.size(), p.lineInfo().size());
            long[] jited = p.jitedLineInfo();
            for (int k = 0; k < lines.size(); k++) {
                JsonNode l = lines.get(k);
                BpfSourceLine s = p.lineInfo().get(k).resolve(btf);
                assertEquals(l.get("insn_off").asInt(), p.lineInfo().get(k).insnOff());
                assertEquals(addr(l.get("jited_addr")), jited[k]);
                assertEquals(new BpfSourceLine(l.get("file").asText(), l.get("line").asInt(), l.get("col").asInt(),
                        l.get("src").asText()), s, "line " + k);
                // the line's own address, and the byte before the next line, map to this line
                long a = jited[k];
                BpfLocation at = p.locate(a).orElseThrow();
                assertEquals(a, jited[at.lineIndex()]);
                assertTrue(at.lineIndex() >= k);
                if (k + 1 < lines.size() && jited[k + 1] > a + 1) {
                    p.locate(jited[k + 1] - 1).filter(x -> x.subprog() == at.subprog())
                            .ifPresent(before -> assertEquals(at.lineIndex(), before.lineIndex()));
                }
            }
            // outside every function: nothing
            assertFalse(p.locate(p.jitedKsyms()[0] - 1).isPresent());
            long[] ks = p.jitedKsyms();
            int last = ks.length - 1;
            assertFalse(p.locate(ks[last] + p.jitedFuncLens()[last]).isPresent());
        }
    }

    static Stream<Path> lineGoldens() throws IOException {
        return kernelTables().map(t -> t.resolveSibling("bpf-lines.json")).distinct();
    }

    /** Every line the golden attributes samples to is found again from its JIT address. */
    @ParameterizedTest
    @MethodSource("lineGoldens")
    void locatesTheGoldenLines(Path golden) throws IOException {
        Features features = TestFiles.features(golden.getParent().resolve("perf.data"));
        BpfProgInfos infos = features.bpfProgInfos().orElseThrow();
        int checked = 0;
        for (JsonNode ev : JSON.readTree(golden.toFile()).get("events")) {
            for (JsonNode prog : ev.get("programs")) {
                BpfProgInfo p = infos.byId(prog.get("id").asInt()).orElseThrow();
                Btf btf = features.btf(p.btfId()).orElseThrow();
                for (JsonNode f : prog.get("functions")) {
                    for (JsonNode l : f.get("lines")) {
                        BpfLocation loc = p.locate(addr(l.get("jited_addr"))).orElseThrow();
                        assertEquals(f.get("index").asInt(), loc.subprog());
                        BpfSourceLine s = p.sourceLine(addr(l.get("jited_addr")), btf).orElseThrow();
                        assertEquals(l.get("line").asInt(), s.line());
                        assertEquals(l.get("col").asInt(), s.column());
                        assertEquals(l.get("src").asText(), s.text());
                        assertEquals(l.get("file").asText(), s.file());
                        checked++;
                    }
                }
            }
        }
        assertTrue(checked > 10, golden + ": only " + checked + " lines");
    }

    /** The recorder's path: raw kernel info (pointer fields = its buffers) + arrays gives the same value and bytes. */
    @ParameterizedTest
    @MethodSource("kernelTables")
    void fromKernelEqualsWhatPerfStored(Path table) {
        Features features = TestFiles.features(table.getParent().resolve("perf.data"));
        for (BpfProgInfo stored : features.bpfProgInfos().orElseThrow().programs()) {
            byte[] kernel = stored.info();
            ByteBuffer b = ByteBuffer.wrap(kernel).order(ByteOrder.LITTLE_ENDIAN);
            Map<BpilArray, byte[]> arrays = new EnumMap<>(BpilArray.class);
            long fakeAddress = 0x7f0000001000L;
            for (BpilArray a : BpilArray.values()) {
                if (stored.has(a)) {
                    b.putLong(a.pointerOffset(), fakeAddress += 0x1000);
                    arrays.put(a, stored.array(a));
                }
            }
            BpfProgInfo rebuilt = BpfProgInfo.fromKernel(kernel, arrays);
            assertEquals(stored, rebuilt);
            assertArrayEquals(stored.toPerfBpil(), rebuilt.toPerfBpil());
            assertEquals(BpilArray.PERF_DEFAULT_MASK, rebuilt.arrays());
        }
    }
}
