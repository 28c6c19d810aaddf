package dev.jperf.format.writer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.PerfOracle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What Linux perf 6.1 accepts from the writer beyond a plain copy. */
class PerfCompatibilityTest {
    @TempDir
    Path tmp;

    /**
     * A 6.18 kernel's attr is 136 bytes (VER8); perf 6.1 refuses a file carrying it as
     * "incompatible file format". Written through the writer, the same events read as perf's own.
     */
    @Test
    void attrsFromA136ByteKernelAttrAreReadByPerf() throws Exception {
        PerfOracle.assumeInstalled();
        Path in = Corpus.CORPUS.resolve("a-system-wide-bpf/perf.data");
        CorpusInput c = CorpusInput.read(in);
        List<PerfDataWriter.EventAttr> kernelSized = new ArrayList<>();
        for (PerfDataWriter.EventAttr e : c.events()) {
            byte[] a = Arrays.copyOf(e.attr(), 136);
            ByteBuffer.wrap(a).order(ByteOrder.LITTLE_ENDIAN).putInt(4, 136);
            kernelSized.add(new PerfDataWriter.EventAttr(a, e.ids()));
        }
        Path out = tmp.resolve("perf.data");
        try (PerfDataWriter w = PerfDataWriter.create(out, kernelSized)) {
            w.append(c.records().duplicate());
            c.setFeatures(w);
        }
        Files.setLastModifiedTime(out, Files.getLastModifiedTime(in));
        PerfOracle.Result header = PerfOracle.headerOnly(out);
        assertEquals(0, header.rc(), header.err());
        assertTrue(header.out().contains("type = 1, size = 128,"), header.out());
        assertEquals(PerfOracle.headerOnly(in).out(), header.out());
        PerfOracle.Result report = PerfOracle.reportSortSym(out);
        assertEquals(0, report.rc(), report.err());
        assertTrue(report.out().contains("Samples: 22K of event 'cpu-clock:ppp'"), report.out());
        assertEquals(PerfOracle.reportSortSym(in).out(), report.out());
    }

    /**
     * perf 6.1 drops BPF_PROG_INFO (and every later feature) when an entry's info_len exceeds its
     * 232 bytes; a body from a newer writer (info_len 240) is written as 232-byte entries, and perf
     * prints the same BPF program info as for the original.
     */
    @Test
    void bpfProgInfoFromANewerWriterIsReadByPerf() throws Exception {
        PerfOracle.assumeInstalled();
        Path in = Corpus.CORPUS.resolve("a-system-wide-bpf/perf.data");
        CorpusInput c = CorpusInput.read(in);
        byte[] body = c.features()[25];
        ByteBuffer b = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);
        int count = b.getInt(0);
        assertTrue(count > 0);
        ByteBuffer wide = ByteBuffer.allocate(body.length + 8 * count).order(ByteOrder.LITTLE_ENDIAN);
        wide.putInt(count);
        int p = 4;
        for (int i = 0; i < count; i++) {
            int infoLen = b.getInt(p);
            int dataLen = b.getInt(p + 4);
            assertEquals(232, infoLen);
            wide.putInt(240).putInt(dataLen).putLong(b.getLong(p + 8));
            wide.put(body, p + 16, 232).putLong(0);
            wide.put(body, p + 16 + 232, dataLen);
            p += 16 + infoLen + dataLen;
        }
        Path out = tmp.resolve("perf.data");
        try (PerfDataWriter w = PerfDataWriter.create(out, c.events())) {
            w.append(c.records().duplicate());
            c.setFeatures(w);
            w.setFeature(25, wide.array());
        }
        Files.setLastModifiedTime(out, Files.getLastModifiedTime(in));
        PerfOracle.Result header = PerfOracle.headerOnly(out);
        assertTrue(header.out().contains("sub_prog 3: bpf_prog_4a3cf986b23077d4_fold_c"), header.out());
        assertEquals(PerfOracle.headerOnly(in).out(), header.out());
        assertTrue(!header.err().contains("invalid bpf_prog_info"), header.err());
    }
}
