package dev.jperf.report.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.jperf.report.session.Frame;
import dev.jperf.report.symbol.Symbol;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class CallchainNodeTest {
    /**
     * perf's match_chain (CCKEY_FUNCTION) between a node's first frame and a new one, as a
     * comparator of (new, node): symbol starts when both have a symbol, else addresses (one DSO
     * here). Not a total order: a frame without symbol sits by its address among symbols' starts.
     */
    private static final Comparator<Frame> MATCH_CHAIN = (f, node) -> {
        boolean both = f.symbol() != null && node.symbol() != null;
        long n = both ? node.symbol().start() : node.ip();
        long k = both ? f.symbol().start() : f.ip();
        return Long.compareUnsigned(n, k);
    };

    private static Frame frame(Random r) {
        long ip = 0x1000 + r.nextInt(400);
        if (r.nextBoolean()) {
            long start = ip & ~0x3fL;
            return new Frame(ip, ip, null, new Symbol(start, start + 0x40, "f" + start, Symbol.STT_FUNC, 1), '.');
        }
        return new Frame(ip, ip, null, null, '.');
    }

    /**
     * A node's children are searched as perf's rb-tree is (TreeMap: the same red-black shapes):
     * the same child found, the same new children made, in the same order; a sorted array's
     * binary search finds other children once symbol-less frames are among them.
     */
    @Test
    void childrenAreFoundAsPerfsRbTreeFindsThem() {
        Random r = new Random(5);
        for (int round = 0; round < 300; round++) {
            CallchainNode parent = new Callchain(new CallchainNodes()).root();
            TreeMap<Frame, Frame> ref = new TreeMap<>(MATCH_CHAIN);
            for (int i = 0; i < 200; i++) {
                Frame f = frame(r);
                Frame expected = ref.get(f);
                if (expected == null) {
                    ref.put(f, f);
                    expected = f;
                }
                assertSame(expected, parent.childFor(f).frame());
            }
            List<Frame> children = new ArrayList<>();
            for (int i = 0; i < parent.childCount(); i++) {
                children.add(parent.child(i).frame());
            }
            assertEquals(new ArrayList<>(ref.keySet()), children);
        }
    }
}
