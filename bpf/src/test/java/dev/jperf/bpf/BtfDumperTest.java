package dev.jperf.bpf;

import dev.jperf.format.btf.BtfWriter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfDumper;
import dev.jperf.format.btf.BtfException;
import dev.jperf.format.json.JsonWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * BtfDumper on BTF and values the kernel would never hand out (a value shorter than its type,
 * huge arrays of empty elements, typedef loops, a struct inside itself, ids past the end): a clear
 * {@link BtfException} or bpftool's error return, never a hang or a read past the value.
 */
class BtfDumperTest {
    private static String dump(Btf btf, int id, byte[] data, int[] ret) {
        StringBuilder out = new StringBuilder();
        ret[0] = new BtfDumper(btf, new JsonWriter(out), false).dump(id, data, 0);
        return out.toString();
    }

    @Test
    void valueShorterThanItsTypeIsAnError() {
        BtfWriter w = new BtfWriter();
        int u64 = w.integer("unsigned long long", 8, 0, 64);
        int s = w.composite(BtfWriter.STRUCT, "s", 16, "a", u64, 0, 0, "b", u64, 64, 0);
        Btf btf = Btf.parse(w.bytes());
        BtfException e = assertThrows(BtfException.class, () -> dump(btf, s, new byte[12], new int[1]));
        assertTrue(e.getMessage().contains("runs past the value's 12 bytes"), e.getMessage());
        assertEquals("{\"a\":1,\"b\":2}", dump(btf, s, new byte[] {1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0},
                new int[1]));
    }

    @Test
    void hugeArrayOfEmptyElementsIsRefusedAtOnce() {
        BtfWriter w = new BtfWriter();
        int idx = w.integer("unsigned int", 4, 0, 32);
        int empty = w.composite(BtfWriter.STRUCT, "empty", 0);
        int arr = w.array(empty, idx, -1); // 4294967295 elements
        Btf btf = Btf.parse(w.bytes());
        assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> assertThrows(BtfException.class, () -> dump(btf, arr, new byte[8], new int[1])));
    }

    @Test
    void typedefLoopEndsWithBpftoolsError() {
        BtfWriter w = new BtfWriter();
        int a = w.ref(BtfWriter.TYPEDEF, "a", 2);
        w.ref(BtfWriter.TYPEDEF, "b", 1);
        Btf btf = Btf.parse(w.bytes());
        int[] ret = new int[1];
        assertEquals("", dump(btf, a, new byte[8], ret));
        assertEquals(-22, ret[0]); // btf__resolve_type: -EINVAL after MAX_RESOLVE_DEPTH
    }

    @Test
    void structInsideItselfIsAnError() {
        BtfWriter w = new BtfWriter();
        int s = w.composite(BtfWriter.STRUCT, "s", 4, "self", 1, 0, 0);
        Btf btf = Btf.parse(w.bytes());
        assertTimeoutPreemptively(Duration.ofSeconds(5),
                () -> assertThrows(BtfException.class, () -> dump(btf, s, new byte[4], new int[1])));
    }

    @Test
    void memberTypePastTheLastIdIsAnError() {
        BtfWriter w = new BtfWriter();
        int s = w.composite(BtfWriter.STRUCT, "s", 4, "x", 99, 0, 0);
        Btf btf = Btf.parse(w.bytes());
        BtfException e = assertThrows(BtfException.class, () -> dump(btf, s, new byte[4], new int[1]));
        assertTrue(e.getMessage().contains("99"), e.getMessage());
    }

    @Test
    void kindsBpftoolCannotPrintKeepItsMarkers() {
        BtfWriter w = new BtfWriter();
        int fl = w.ref(BtfWriter.FLOAT, "float", 4);
        int fwd = w.ref(BtfWriter.FWD, "later", 0);
        Btf btf = Btf.parse(w.bytes());
        int[] ret = new int[1];
        assertEquals("(unsupported-kind", dump(btf, fl, new byte[4], ret));
        assertEquals(-22, ret[0]);
        assertEquals("(fwd-kind-invalid)", dump(btf, fwd, new byte[4], ret));
        assertEquals("(unknown)", dump(btf, 0, new byte[4], ret));
    }
}
