package dev.jperf.format.header;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class CpuListTest {
    @Test
    void rangesAndSinglesAscendingOnce() {
        assertEquals(List.of(0, 1, 2, 3, 5), CpuList.parse("0-3,5\n"));
        assertEquals(List.of(0, 1, 7), CpuList.parse(" 7 , 1,0,1 ,"));
        assertEquals(List.of(4), CpuList.parse("4-4"));
    }

    @Test
    void badListsAreOneMessage() {
        for (String bad : new String[] {"a", "3-1", "-1", "0-2000000000", "1-", "0,,x"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CpuList.parse(bad), bad);
            assertEquals("bad CPU list '" + bad + "'", e.getMessage());
        }
    }
}
