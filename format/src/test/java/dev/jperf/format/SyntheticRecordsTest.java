package dev.jperf.format;

import static dev.jperf.format.header.PerfEventAttr.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.io.ByteSource;
import dev.jperf.format.record.BpfEventRecord;
import dev.jperf.format.record.KsymbolRecord;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.RecordType;
import dev.jperf.format.record.SampleRecord;
import dev.jperf.format.record.UnknownRecord;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Records built byte by byte: every sample_type bit in the kernel's order (spec §7.1), every
 * read_format, the KSYMBOL/BPF_EVENT size-inflation trap, unknown types, both byte orders.
 */
class SyntheticRecordsTest {
    enum Order {
        LITTLE(ByteOrder.LITTLE_ENDIAN), BIG(ByteOrder.BIG_ENDIAN);

        final ByteOrder order;

        Order(ByteOrder o) {
            order = o;
        }
    }

    private static final long ALL_SAMPLE_BITS = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID
            | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU
            | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK
            | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC
            | PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP
            | PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_AUX;

    private static List<PerfRecord> read(byte[] file, List<String> warnings) {
        List<PerfRecord> out = new ArrayList<>();
        try (PerfDataFile f = PerfDataFile.open("test", ByteSource.wrap("test", file)); RecordStream rs = f.records()) {
            while (rs.hasNext()) {
                out.add(rs.next());
            }
            warnings.addAll(f.warnings());
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void everySampleFieldInKernelOrder(Order o) {
        long rf = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID
                | PERF_FORMAT_LOST;
        TestFile t = new TestFile(o.order).attr(0, 0, ALL_SAMPLE_BITS, rf, FLAG_SAMPLE_ID_ALL, PERF_SAMPLE_BRANCH_HW_INDEX,
                0b1011, 0b11, 7, 8);
        TestFile.Buf b = t.buf()
                .u64(7) // IDENTIFIER
                .u64(0xffffffff81000010L) // IP
                .u32(100).u32(101) // TID
                .u64(123456789L) // TIME
                .u64(0xdead) // ADDR
                .u64(7) // ID
                .u64(55) // STREAM_ID
                .u32(1).u32(0) // CPU
                .u64(4000) // PERIOD
                .u64(2).u64(1000).u64(900).u64(11).u64(7).u64(0).u64(22).u64(8).u64(1) // READ group of 2
                .u64(3).u64(SampleRecord.PERF_CONTEXT_KERNEL).u64(0xffffffff81000010L).u64(0xffffffff81000020L) // CALLCHAIN
                .u32(4).put(new byte[] {1, 2, 3, 4}) // RAW: 4 + 4 bytes, a multiple of 8
                .u64(1).u64(9).u64(0x1000).u64(0x2000).u64(0x3) // BRANCH_STACK with hw_idx 9
                .u64(2).u64(0xa).u64(0xb).u64(0xc) // REGS_USER: abi 2, popcount(0b1011) = 3 regs
                .u64(8).put(new byte[] {9, 9, 9, 9, 9, 9, 9, 9}).u64(8) // STACK_USER size 8, dyn_size 8
                .u64(0x0003000200000001L) // WEIGHT_STRUCT
                .u64(0x51) // DATA_SRC
                .u64(0x61) // TRANSACTION
                .u64(0) // REGS_INTR abi 0: no registers
                .u64(0x7000) // PHYS_ADDR
                .u64(42) // CGROUP
                .u64(4096) // DATA_PAGE_SIZE
                .u64(2 << 20) // CODE_PAGE_SIZE
                .u64(8).put(new byte[] {5, 5, 5, 5, 5, 5, 5, 5}); // AUX
        t.record(RecordType.PERF_RECORD_SAMPLE, 1, b);
        List<String> w = new ArrayList<>();
        List<PerfRecord> rs = read(t.build(), w);
        assertEquals(List.of(), w);
        SampleRecord s = (SampleRecord) rs.get(0);
        assertEquals(7, s.id());
        assertEquals(0xffffffff81000010L, s.ip());
        assertEquals(100, s.pid());
        assertEquals(101, s.tid());
        assertEquals(123456789L, s.time());
        assertEquals(0xdead, s.addr());
        assertEquals(55, s.streamId());
        assertEquals(1, s.cpu());
        assertEquals(4000, s.period());
        assertEquals(1000, s.read().timeEnabled());
        assertEquals(900, s.read().timeRunning());
        assertArrayEquals(new long[] {11, 22}, s.read().values());
        assertArrayEquals(new long[] {7, 8}, s.read().ids());
        assertArrayEquals(new long[] {0, 1}, s.read().lost());
        assertArrayEquals(new long[] {SampleRecord.PERF_CONTEXT_KERNEL, 0xffffffff81000010L, 0xffffffff81000020L}, s.callchain());
        assertArrayEquals(new byte[] {1, 2, 3, 4}, s.raw());
        assertEquals(9, s.branchStack().hwIdx());
        assertArrayEquals(new long[] {0x1000}, s.branchStack().from());
        assertArrayEquals(new long[] {0x2000}, s.branchStack().to());
        assertArrayEquals(new long[] {3}, s.branchStack().flags());
        assertEquals(2, s.regsUser().abi());
        assertArrayEquals(new long[] {0xa, 0xb, 0xc}, s.regsUser().regs());
        assertEquals(8, s.stackUser().length);
        assertEquals(8, s.stackUserDynSize());
        assertEquals(0x0003000200000001L, s.weight());
        assertEquals(0x51, s.dataSrc());
        assertEquals(0x61, s.transaction());
        assertEquals(0, s.regsIntr().abi());
        assertEquals(0, s.regsIntr().regs().length);
        assertEquals(0x7000, s.physAddr());
        assertEquals(42, s.cgroup());
        assertEquals(4096, s.dataPageSize());
        assertEquals(2 << 20, s.codePageSize());
        assertArrayEquals(new byte[] {5, 5, 5, 5, 5, 5, 5, 5}, s.aux());
        assertTrue(s.exactIp() == false && s.cpumode() == 1);
    }

    @ParameterizedTest
    @ValueSource(longs = {0, PERF_FORMAT_TOTAL_TIME_ENABLED, PERF_FORMAT_ID | PERF_FORMAT_LOST,
        PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID | PERF_FORMAT_LOST})
    void readWithoutGroup(long rf) {
        TestFile t = new TestFile(ByteOrder.LITTLE_ENDIAN).attr(1, 0, PERF_SAMPLE_READ | PERF_SAMPLE_IP, rf, 0, 0, 0, 0, 1);
        TestFile.Buf b = t.buf().u64(0x400000).u64(77);
        int n = Long.bitCount(rf);
        for (int i = 0; i < n; i++) {
            b.u64(100 + i);
        }
        t.record(RecordType.PERF_RECORD_SAMPLE, 2, b);
        List<String> w = new ArrayList<>();
        SampleRecord s = (SampleRecord) read(t.build(), w).get(0);
        assertEquals(List.of(), w);
        assertArrayEquals(new long[] {77}, s.read().values());
        int k = 100;
        assertEquals((rf & PERF_FORMAT_TOTAL_TIME_ENABLED) != 0 ? k++ : -1, s.read().timeEnabled());
        assertEquals((rf & PERF_FORMAT_TOTAL_TIME_RUNNING) != 0 ? k++ : -1, s.read().timeRunning());
        if ((rf & PERF_FORMAT_ID) != 0) {
            assertArrayEquals(new long[] {k++}, s.read().ids());
        } else {
            assertNull(s.read().ids());
        }
        if ((rf & PERF_FORMAT_LOST) != 0) {
            assertArrayEquals(new long[] {k}, s.read().lost());
        }
        assertEquals(1000, s.period(), "fixed period from the attr");
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void inflatedKsymbolAndBpfEventTrailersAreParsedForward(Order o) {
        long st = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
        TestFile t = new TestFile(o.order).attr(1, 9, st, 0, FLAG_SAMPLE_ID_ALL, 0, 0, 0, 5, 6)
                .attr(1, 0, st, 0, FLAG_SAMPLE_ID_ALL, 0, 0, 0, 7);
        TestFile.Buf trailer = t.buf().u32(1).u32(2).u64(999).u64(6).u32(1).u32(0).u64(6);
        TestFile.Buf ks = t.buf().u64(0xffffffffc0001000L).u32(64).u16(1).u16(0).str8("bpf_prog_0123456789abcdef_x")
                .put(trailer.bytes());
        TestFile.Buf be = t.buf().u16(1).u16(0).u32(42).put(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}).put(trailer.bytes());
        // the kernel's inflation: header.size too large by another event's trailer, stale bytes after ours
        t.record(RecordType.PERF_RECORD_KSYMBOL, 0, ks, 32).record(RecordType.PERF_RECORD_BPF_EVENT, 0, be, 32)
                .record(RecordType.PERF_RECORD_KSYMBOL, 0, ks);
        List<String> w = new ArrayList<>();
        List<PerfRecord> rs = read(t.build(), w);
        assertEquals(List.of(), w);
        KsymbolRecord k = (KsymbolRecord) rs.get(0);
        assertEquals("bpf_prog_0123456789abcdef_x", k.name());
        assertEquals(999, k.sampleId().time());
        assertEquals(1, k.sampleId().cpu());
        assertEquals(0, k.sampleId().event().index(), "id 6 belongs to the first event");
        BpfEventRecord b = (BpfEventRecord) rs.get(1);
        assertEquals(42, b.id());
        assertEquals("0102030405060708", b.tagHex());
        assertEquals(999, b.sampleId().time());
        assertEquals(2, b.sampleId().tid());
        assertEquals(999, rs.get(2).sampleId().time());
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void unknownTypesAreSkippedAndCountedAndSizeZeroStops(Order o) {
        TestFile t = new TestFile(o.order).attr(1, 0, PERF_SAMPLE_IP | PERF_SAMPLE_TID, 0, 0, 0, 0, 0, 1);
        t.record(200, 0, t.buf().u64(1).u64(2)).record(RecordType.PERF_RECORD_SAMPLE, 2, t.buf().u64(0x1234).u32(5).u32(6))
                .record(RecordType.PERF_RECORD_FINISHED_ROUND, 0, t.buf());
        byte[] good = t.build();
        List<String> w = new ArrayList<>();
        List<PerfRecord> rs = read(good, w);
        assertEquals(List.of(), w);
        assertEquals(3, rs.size());
        assertTrue(rs.get(0) instanceof UnknownRecord u && u.type() == 200 && u.size() == 24);
        try (PerfDataFile f = PerfDataFile.open("test", ByteSource.wrap("test", good)); RecordStream s2 = f.records()) {
            while (s2.hasNext()) {
                s2.next();
            }
            assertEquals(1, s2.unknown());
            assertEquals(0, s2.skipped());
        }
        SampleRecord s = (SampleRecord) rs.get(1);
        assertEquals(0x1234, s.ip());
        assertEquals(6, s.tid());
        // a record of size 0 in the middle: stop there, keep what came before, one warning
        TestFile bad = new TestFile(o.order).attr(1, 0, PERF_SAMPLE_IP | PERF_SAMPLE_TID, 0, 0, 0, 0, 0, 1);
        bad.record(RecordType.PERF_RECORD_SAMPLE, 2, bad.buf().u64(0x1234).u32(5).u32(6));
        byte[] img = bad.record(RecordType.PERF_RECORD_SAMPLE, 2, bad.buf().u64(1).u32(1).u32(1)).build();
        // zero the size of the second record (the last 24 bytes of the image)
        int at = img.length - 24 + 6;
        img[at] = 0;
        img[at + 1] = 0;
        w.clear();
        rs = read(img, w);
        assertEquals(1, rs.size());
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).contains("has size 0"), w.get(0));
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void aBodyThatDoesNotFitItsSizeIsSkippedWithAWarning(Order o) {
        TestFile t = new TestFile(o.order).attr(1, 0, PERF_SAMPLE_CALLCHAIN, 0, 0, 0, 0, 0, 1);
        // callchain nr claims 1000 entries in a 24-byte record: no allocation by nr, record skipped
        t.record(RecordType.PERF_RECORD_SAMPLE, 2, t.buf().u64(1000).u64(1))
                .record(RecordType.PERF_RECORD_SAMPLE, 2, t.buf().u64(1).u64(0x42));
        List<String> w = new ArrayList<>();
        List<PerfRecord> rs = read(t.build(), w);
        assertEquals(1, rs.size());
        assertArrayEquals(new long[] {0x42}, ((SampleRecord) rs.get(0)).callchain());
        assertEquals(1, w.size());
        assertTrue(w.get(0).contains("callchain nr 1000 does not fit"), w.get(0));
    }
}
