package dev.jperf.report.session;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ArenaTest {
    @Test
    void regionsStayInOneChunkAndKeepTheirValues() {
        LongArena a = new LongArena();
        int n = 1000;
        int[] at = new int[200];
        for (int r = 0; r < at.length; r++) {
            at[r] = a.allocate(n);
            long[] c = a.chunk(at[r]);
            int off = Arena.offsetOf(at[r]);
            assertTrue(off + n <= c.length, "region inside its chunk");
            Arrays.fill(c, off, off + n, r);
        }
        // 65 regions of 1000 fit a chunk of 65536: the 66th starts the next one
        assertEquals(0, Arena.chunkOf(at[64]));
        assertEquals(1, Arena.chunkOf(at[65]));
        assertEquals(0, Arena.offsetOf(at[65]));
        for (int r = 0; r < at.length; r++) {
            int off = Arena.offsetOf(at[r]);
            long[] want = new long[n];
            Arrays.fill(want, r);
            assertArrayEquals(want, Arrays.copyOfRange(a.chunk(at[r]), off, off + n));
        }
    }

    @Test
    void aRegionLongerThanAChunkGetsOneOfItsOwn() {
        IntArena a = new IntArena();
        int first = a.allocate(10);
        int big = a.allocate(Arena.CHUNK + 5);
        int after = a.allocate(3);
        assertEquals(0, Arena.chunkOf(first));
        assertEquals(1, Arena.chunkOf(big));
        assertEquals(0, Arena.offsetOf(big));
        assertEquals(Arena.CHUNK + 5, a.chunk(big).length);
        assertEquals(2, Arena.chunkOf(after));
        // after a reset the long chunk is reused, regions starting at its beginning only
        a.reset();
        a.allocate(Arena.CHUNK - 1);
        int again = a.allocate(Arena.CHUNK + 5);
        assertEquals(1, Arena.chunkOf(again));
        assertEquals(0, Arena.offsetOf(again));
    }

    @Test
    void resetDropsReferencesAndReusesChunks() {
        RefArena<String> a = new RefArena<>(String[]::new);
        int x = a.allocate(2);
        String[] chunk = a.chunk(x);
        chunk[Arena.offsetOf(x)] = "a";
        chunk[Arena.offsetOf(x) + 1] = "b";
        int y = a.allocate(Arena.CHUNK);
        a.chunk(y)[Arena.CHUNK - 1] = "c";
        a.reset();
        assertNull(chunk[0]);
        assertNull(chunk[1]);
        assertNull(a.chunk(y)[Arena.CHUNK - 1]);
        int z = a.allocate(1);
        assertSame(chunk, a.chunk(z));
        assertEquals(0, Arena.offsetOf(z));
    }

    @Test
    void emptyRegionsHaveAChunk() {
        RefArena<String> a = new RefArena<>(String[]::new);
        int z = a.allocate(0);
        assertEquals(0, Arena.chunkOf(z));
        assertTrue(a.chunk(z).length > 0);
    }
}
