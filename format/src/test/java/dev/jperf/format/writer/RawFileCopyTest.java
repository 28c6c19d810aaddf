package dev.jperf.format.writer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RawFileCopyTest {
    @TempDir
    Path tmp;

    @Test
    void copyOfSystemWideFileReadsTheSameInPerf() throws Exception {
        PerfOracle.assumePerf();
        Path in = PerfOracle.corpus().resolve("a-system-wide-bpf/perf.data");
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(in)).order(ByteOrder.LITTLE_ENDIAN);
        long attrSize = b.getLong(16);
        int attrsOff = (int) b.getLong(24);
        int nAttrs = (int) (b.getLong(32) / attrSize);
        List<PerfDataWriter.EventAttr> events = new ArrayList<>();
        for (int i = 0; i < nAttrs; i++) {
            int e = attrsOff + i * (int) attrSize;
            int sz = b.getInt(e + 4);
            byte[] attr = new byte[sz];
            b.get(e, attr);
            int idsOff = (int) b.getLong(e + sz);
            long[] ids = new long[(int) (b.getLong(e + sz + 8) / 8)];
            for (int j = 0; j < ids.length; j++) {
                ids[j] = b.getLong(idsOff + 8 * j);
            }
            events.add(new PerfDataWriter.EventAttr(attr, ids));
        }
        int dataOff = (int) b.getLong(40);
        int dataSize = (int) b.getLong(48);
        Path out = tmp.resolve("perf.data");
        try (PerfDataWriter w = PerfDataWriter.create(out, events)) {
            w.append(b, dataOff, dataSize);
            int idx = dataOff + dataSize;
            for (int bit = 0; bit < 256; bit++) {
                if ((b.getLong(72 + 8 * (bit / 64)) & (1L << (bit % 64))) != 0) {
                    int off = (int) b.getLong(idx);
                    byte[] body = new byte[(int) b.getLong(idx + 8)];
                    b.get(off, body);
                    w.setFeature(bit, body);
                    idx += 16;
                }
            }
        }
        Files.setLastModifiedTime(out, Files.getLastModifiedTime(in));
        assertEquals(PerfOracle.headerOnly(in).out(), PerfOracle.headerOnly(out).out());
        assertEquals(PerfOracle.reportSortSym(in).out(), PerfOracle.reportSortSym(out).out());
    }
}
