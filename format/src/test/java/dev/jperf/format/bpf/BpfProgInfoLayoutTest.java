package dev.jperf.format.bpf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.feature.TestFiles;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The perf_bpil layout rules of bpf-metadata.md §7 on entries built by hand. */
class BpfProgInfoLayoutTest {

    static BpfProgInfo sample() {
        return TestFiles.features(Corpus.CORPUS.resolve("a-system-wide-bpf/perf.data"))
                .bpfProgInfos().orElseThrow().byId(2152).orElseThrow();
    }

    /** A newer kernel's longer info (240 bytes) is read by its first 232 and written back as 232: perf 6.1 accepts only that. */
    @Test
    void longerInfoIsCutTo232() {
        byte[] entry = sample().toPerfBpil();
        ByteBuffer e = ByteBuffer.wrap(entry).order(ByteOrder.LITTLE_ENDIAN);
        int dataLen = e.getInt(4);
        byte[] longer = new byte[entry.length + 8];
        System.arraycopy(entry, 0, longer, 0, 16 + 232);
        Arrays.fill(longer, 16 + 232, 16 + 240, (byte) 0x5a); // fields this reader does not know
        System.arraycopy(entry, 16 + 232, longer, 16 + 240, dataLen);
        ByteBuffer l = ByteBuffer.wrap(longer).order(ByteOrder.LITTLE_ENDIAN);
        l.putInt(0, 240);
        BpfProgInfo p = BpfProgInfo.readPerfBpil(l);
        assertEquals(longer.length, l.position());
        assertEquals(sample(), p);
        assertEquals(232, ByteBuffer.wrap(p.toPerfBpil()).order(ByteOrder.LITTLE_ENDIAN).getInt(0));
        assertArrayEquals(entry, p.toPerfBpil());
    }

    /** A shorter (older kernel) info is zero-extended. */
    @Test
    void shorterInfoIsZeroExtended() {
        byte[] entry = sample().toPerfBpil();
        int dataLen = ByteBuffer.wrap(entry).order(ByteOrder.LITTLE_ENDIAN).getInt(4);
        byte[] shorter = new byte[entry.length - 8];
        System.arraycopy(entry, 0, shorter, 0, 16 + 224);
        System.arraycopy(entry, 16 + 232, shorter, 16 + 224, dataLen);
        ByteBuffer s = ByteBuffer.wrap(shorter).order(ByteOrder.LITTLE_ENDIAN);
        s.putInt(0, 224);
        BpfProgInfo p = BpfProgInfo.readPerfBpil(s);
        assertEquals(0, p.attachBtfId()); // offset 224: beyond the short info
        assertEquals(sample().jitedKsyms()[3], p.jitedKsyms()[3]);
    }

    /** Data area: arrays in bit order, each padded to 8 with zeros, pointer fields = offsets. */
    @Test
    void layoutAsPerfWritesIt() {
        BpfProgInfo p = sample();
        byte[] entry = p.toPerfBpil();
        ByteBuffer e = ByteBuffer.wrap(entry).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(232, e.getInt(0));
        assertEquals(BpilArray.PERF_DEFAULT_MASK, e.getLong(8));
        long expectOff = 0;
        for (BpilArray a : BpilArray.values()) {
            if (p.has(a)) {
                assertEquals(expectOff, e.getLong(16 + a.pointerOffset()), a.name());
                int len = p.array(a).length;
                for (int i = len; i < ((len + 7) & ~7); i++) {
                    assertEquals(0, entry[16 + 232 + (int) expectOff + i], a + " padding");
                }
                expectOff += (len + 7) & ~7;
            } else {
                assertEquals(0, e.getLong(16 + a.pointerOffset()), a + ": absent array keeps the kernel's 0");
            }
        }
        assertEquals(expectOff, e.getInt(4));
        assertEquals(entry.length, 16 + 232 + expectOff);
    }

    @Test
    void inconsistentInputIsRefusedWithAMessage() {
        BpfProgInfo p = sample();
        byte[] info = p.info();
        BpfFormatException wrongSize = assertThrows(BpfFormatException.class,
                () -> BpfProgInfo.fromKernel(info, Map.of(BpilArray.JITED_KSYMS, new byte[8])));
        assertTrue(wrongSize.getMessage().contains("JITED_KSYMS has 8 bytes, the info's count says 32"), wrongSize.getMessage());

        byte[] entry = p.toPerfBpil();
        ByteBuffer e = ByteBuffer.wrap(entry).order(ByteOrder.LITTLE_ENDIAN);
        e.putInt(16 + BpilArray.LINE_INFO.countOffset(), 1_000_000); // nr_line_info far beyond data_len
        BpfFormatException outside = assertThrows(BpfFormatException.class, () -> BpfProgInfo.readPerfBpil(e));
        assertTrue(outside.getMessage().contains("LINE_INFO") && outside.getMessage().contains("outside data_len"),
                outside.getMessage());

        ByteBuffer cut = ByteBuffer.wrap(Arrays.copyOf(entry, 100)).order(ByteOrder.LITTLE_ENDIAN);
        assertTrue(assertThrows(BpfFormatException.class, () -> BpfProgInfo.readPerfBpil(cut)).getMessage()
                .contains("only 84 left"));
    }

    /** perf's names without BTF: "_F" for multi-function programs, the prog name for single ones. */
    @Test
    void namesWithoutBtf() {
        BpfProgInfo p = sample();
        assertEquals("bpf_prog_fd5964cc2c90a235_F", p.perfName(0, null));
        assertEquals("bpf_prog_904d8356ffe3e4ed_F", p.perfName(1, null));
        assertEquals("bpf_prog_b6a1b5bdb8a35599_subprogs_main", p.kernelName(0, null));
    }
}
