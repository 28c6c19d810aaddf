package dev.jperf.report.symbol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.format.bpf.BpilArray;
import dev.jperf.format.btf.Btf;
import dev.jperf.format.feature.BpfProgInfos;
import dev.jperf.format.feature.Features;
import dev.jperf.format.record.BranchStack;
import dev.jperf.format.record.KsymbolRecord;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.RecordStream;
import dev.jperf.report.CorpusFixture;
import dev.jperf.report.session.Frame;
import dev.jperf.report.session.Machine;
import dev.jperf.report.session.SampleFilter;
import dev.jperf.report.session.Session;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JITed BPF code named from HEADER_BPF_PROG_INFO alone (no KSYMBOL record applied), on a file
 * recorded elsewhere (perf_data_converter's branch_stack_spec: 35 programs, one with 7 functions,
 * BPF_BTF for some). Expected names are computed here from the raw arrays (jited_ksyms,
 * jited_func_lens, prog_tags, func_info + BTF) by perf's synthesize_bpf_prog_name rule, and checked
 * against the file's own KSYMBOL records. None of the file's 8 samples (ip, 16 branch entries
 * each, no callchains) is inside a JIT range, so every function's first, middle and last byte
 * is resolved instead.
 */
class BpfProgInfoNamesTest {
    static final Path FILE = CorpusFixture.EXTERNAL.resolve("perf_data_converter/perf.data.branch_stack_spec");
    private static final int PERF_RECORD_MISC_KERNEL = 1;

    @TempDir
    Path tmp;

    /** A JITed function as the raw arrays give it, with the name perf would synthesize. */
    record Expected(long start, long len, String name) {
    }

    @Test
    void everyJitedFunctionIsNamedFromProgInfoAlone() throws Exception {
        Assumptions.assumeTrue(Files.isRegularFile(FILE), "no " + FILE);
        try (PerfDataFile f = PerfDataFile.open(FILE)) {
            List<Expected> expected = expected(f.features());
            assertEquals(41, expected.size(), "35 programs, one of them with 7 functions");
            Machine m = new Machine(new SymbolResolver(hermetic()));
            m.setBpfProgSymbols(() -> BpfProgSymbols.of(f.features().bpfPrograms()));
            for (Expected e : expected) {
                for (long ip : new long[] {e.start, e.start + e.len / 2, e.start + e.len - 1}) {
                    Frame fr = m.resolve(m.thread(0), PERF_RECORD_MISC_KERNEL, ip);
                    assertNotNull(fr.symbol(), e.name + " at 0x" + Long.toHexString(ip));
                    assertEquals(e.name, fr.symbol().name(), "0x" + Long.toHexString(ip));
                    assertEquals('k', fr.level());
                }
                Frame after = m.resolve(m.thread(0), PERF_RECORD_MISC_KERNEL, e.start + e.len);
                assertTrue(after.symbol() == null || !after.symbol().name().equals(e.name), "past the end of " + e.name);
                Frame before = m.resolve(m.thread(0), PERF_RECORD_MISC_KERNEL, e.start - 1);
                assertTrue(before.symbol() == null || !before.symbol().name().equals(e.name), "before " + e.name);
            }
            // the names perf's header print and the recording kernel's KSYMBOLs give agree here
            Map<Long, String> ksyms = ksymbolNames(f);
            for (Expected e : expected) {
                assertEquals(ksyms.get(e.start), e.name, "KSYMBOL at 0x" + Long.toHexString(e.start));
            }
        }
    }

    @Test
    void samplesAndBranchesInJitRangesAreNamed() throws Exception {
        Assumptions.assumeTrue(Files.isRegularFile(FILE), "no " + FILE);
        try (PerfDataFile f = PerfDataFile.open(FILE)) {
            List<Expected> expected = expected(f.features());
            Session s = new Session(f, new SymbolResolver(hermetic()), new Session.Options(false, SampleFilter.NONE));
            List<long[]> addrs = new ArrayList<>();
            int[] samples = {0};
            s.run(r -> {
                samples[0]++;
                List<Long> a = new ArrayList<>();
                a.add(r.record().ip());
                BranchStack b = r.record().branchStack();
                if (b != null) {
                    for (int i = 0; i < b.nr(); i++) {
                        a.add(b.from()[i]);
                        a.add(b.to()[i]);
                    }
                }
                addrs.add(a.stream().mapToLong(Long::longValue).toArray());
            });
            assertEquals(8, samples[0]);
            int inJit = 0;
            for (long[] a : addrs) {
                for (long ip : a) {
                    Optional<Expected> e = expected.stream()
                            .filter(x -> Long.compareUnsigned(ip, x.start) >= 0 && Long.compareUnsigned(ip, x.start + x.len) < 0)
                            .findFirst();
                    if (e.isPresent()) {
                        inJit++;
                        Frame fr = s.machine().resolve(s.machine().thread(0), PERF_RECORD_MISC_KERNEL, ip);
                        assertEquals(e.get().name, fr.symbol() == null ? null : fr.symbol().name());
                    }
                }
            }
            // a fact of this file (all its samples and branches are in kernel text): documented, so a
            // changed file is noticed
            assertEquals(0, inJit, "sample/branch addresses inside JIT ranges");
        }
    }

    private SymbolResolver.Options hermetic() {
        return new SymbolResolver.Options(null, null, tmp, tmp, tmp.resolve("no-kallsyms"), tmp.resolve("no-notes"), tmp);
    }

    /** perf's synthesize_bpf_prog_name over the raw bpf_prog_info arrays. */
    static List<Expected> expected(Features fs) {
        List<Expected> out = new ArrayList<>();
        for (BpfProgInfo p : fs.bpfProgInfos().map(BpfProgInfos::programs).orElse(List.of())) {
            ByteBuffer ks = le(p.array(BpilArray.JITED_KSYMS));
            ByteBuffer lens = le(p.array(BpilArray.JITED_FUNC_LENS));
            byte[] tags = p.array(BpilArray.PROG_TAGS);
            ByteBuffer fi = p.has(BpilArray.FUNC_INFO) ? le(p.array(BpilArray.FUNC_INFO)) : null;
            int n = p.nrJitedKsyms();
            Btf btf = p.btfId() == 0 ? null : fs.btf(p.btfId()).orElse(null);
            for (int i = 0; i < n; i++) {
                String name = "bpf_prog_" + HexFormat.of().formatHex(tags, i * 8, i * 8 + 8);
                if (btf != null) {
                    int typeId = fi.getInt(i * p.funcInfoRecSize() + 4);
                    name += "_" + btf.name(typeId);
                } else if (i == 0 && n == 1) {
                    name += p.name().isEmpty() ? "" : "_" + p.name();
                } else {
                    name += "_F";
                }
                out.add(new Expected(ks.getLong(i * 8), Integer.toUnsignedLong(lens.getInt(i * 4)), name));
            }
        }
        return out;
    }

    private static ByteBuffer le(byte[] b) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static Map<Long, String> ksymbolNames(PerfDataFile f) {
        Map<Long, String> out = new HashMap<>();
        try (RecordStream rs = f.records()) {
            while (rs.hasNext()) {
                PerfRecord r = rs.next();
                if (r instanceof KsymbolRecord k && k.ksymType() == KsymbolRecord.PERF_RECORD_KSYMBOL_TYPE_BPF) {
                    out.putIfAbsent(k.addr(), k.name());
                }
            }
        }
        return out;
    }
}
