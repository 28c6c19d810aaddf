package dev.jperf.report.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class EntryTreeTest {
    /**
     * Not a total order, as perf's sort__sym_cmp: two entries of "no symbol" (level '.') compare by
     * address, any other pair by "DSO" (cpu) first, the symbol-less one first on a tie, then by
     * address. Which entry a search finds then depends on the tree's shape.
     */
    private static final Comparator<HistEntry> SYM_LIKE = (n, node) -> {
        if (n.level == '.' && node.level == '.') {
            return Long.compare(n.ip, node.ip);
        }
        if (n.cpu != node.cpu) {
            return Integer.compare(n.cpu, node.cpu);
        }
        if (n.level != node.level) {
            return n.level == '.' ? -1 : 1;
        }
        return Long.compare(n.ip, node.ip);
    };

    private static HistEntry entry(Random r) {
        return new HistEntry("c", null, null, null, r.nextInt(60), r.nextBoolean() ? '.' : 's', r.nextInt(4));
    }

    /** TreeMap's get-then-put, as the search trees were before (same shapes, same finds). */
    @Test
    void findsAndOrdersAsTreeMapDoes() {
        Random r = new Random(3);
        for (int round = 0; round < 200; round++) {
            EntryTree tree = new EntryTree(SYM_LIKE, round % 2 == 0);
            TreeMap<HistEntry, HistEntry> ref = new TreeMap<>(SYM_LIKE);
            for (int i = 0; i < 300; i++) {
                HistEntry e = entry(r);
                HistEntry expected = ref.get(e);
                if (expected == null) {
                    ref.put(e, e);
                }
                assertSame(expected, tree.findOrInsert(e));
                HistEntry probe = entry(r);
                assertSame(ref.get(probe), tree.get(probe));
                assertSame(ref.lowerKey(probe), tree.lower(probe));
            }
            assertEquals(new ArrayList<>(ref.keySet()), tree.keys());
            assertEquals(ref.size(), tree.size());
        }
    }

    /**
     * A search result remembered at a version holds, while its entry's path stamp is not above
     * that version, through insertions (rotations) and entries whose comparisons change.
     */
    @Test
    void aSearchResultHoldsWhileItsEntrysPathStampDoes() {
        Random r = new Random(11);
        int held = 0;
        for (int round = 0; round < 100; round++) {
            EntryTree tree = new EntryTree(SYM_LIKE, true);
            List<HistEntry> inserted = new ArrayList<>();
            Map<List<Object>, HistEntry> found = new HashMap<>();
            Map<List<Object>, Integer> at = new HashMap<>();
            for (int i = 0; i < 400; i++) {
                HistEntry k = entry(r);
                List<Object> key = List.of(k.ip, k.level, k.cpu);
                HistEntry was = found.get(key);
                HistEntry now = tree.findOrInsert(k);
                if (now == null) {
                    now = k;
                    inserted.add(k);
                }
                if (was != null && was.pathStamp <= at.get(key)) {
                    assertSame(was, now, "a held search result is what the search finds");
                    held++;
                }
                found.put(key, now);
                at.put(key, tree.version());
                if (r.nextInt(20) == 0) {
                    // an entry's comparisons change (perf gives a found entry the sample's map)
                    HistEntry c = inserted.get(r.nextInt(inserted.size()));
                    c.cpu = r.nextInt(4);
                    tree.changed(c);
                }
            }
        }
        assertEquals(true, held > 2_000, "most results held: " + held);
    }
}
