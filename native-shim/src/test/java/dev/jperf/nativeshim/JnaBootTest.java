package dev.jperf.nativeshim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.Platform;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class JnaBootTest {
    @Test
    void pointsJnaAtAnOwnerOnlyCopyOfTheLibraryInTheJar() throws Exception {
        String before = System.getProperty(JnaBoot.BOOT_PATH);
        System.clearProperty(JnaBoot.BOOT_PATH);
        try {
            JnaBoot.prepare();
            String dir = System.getProperty(JnaBoot.BOOT_PATH);
            assertNotNull(dir, "a cache directory under the user's home is expected here");
            assertEquals(JnaBoot.cacheDir(), Path.of(dir).getParent());
            assertEquals("true", System.getProperty(JnaBoot.NO_UNPACK), "nothing to unpack: no scan for stale copies");
            String file = System.mapLibraryName("jnidispatch");
            byte[] copy = Files.readAllBytes(Path.of(dir, file));
            try (InputStream in = JnaBoot.class.getClassLoader()
                    .getResourceAsStream("com/sun/jna/" + Platform.RESOURCE_PREFIX + "/" + file)) {
                assertArrayEquals(in.readAllBytes(), copy);
            }
            // a second start reuses the copy and sets the same path
            System.clearProperty(JnaBoot.BOOT_PATH);
            JnaBoot.prepare();
            assertEquals(dir, System.getProperty(JnaBoot.BOOT_PATH));
            // an explicit setting is left alone
            System.setProperty(JnaBoot.BOOT_PATH, "/nowhere");
            JnaBoot.prepare();
            assertEquals("/nowhere", System.getProperty(JnaBoot.BOOT_PATH));
        } finally {
            if (before == null) {
                System.clearProperty(JnaBoot.BOOT_PATH);
            } else {
                System.setProperty(JnaBoot.BOOT_PATH, before);
            }
        }
    }

    @Test
    void jnaSearchesTheStandardDirectoriesWithoutRunningLdconfig() {
        String before = System.getProperty(JnaBoot.PLATFORM_PATH);
        System.clearProperty(JnaBoot.PLATFORM_PATH);
        try {
            JnaBoot.platformLibraryPath();
            String path = System.getProperty(JnaBoot.PLATFORM_PATH);
            assertNotNull(path);
            for (String dir : path.split(java.io.File.pathSeparator)) {
                assertTrue(Files.isDirectory(Path.of(dir)), dir);
            }
            assertTrue(path.contains("/usr/lib"), path);
            // libc, loaded by its versioned name, needs no more of a path (signal 0: a liveness check)
            Sched.kill((int) ProcessHandle.current().pid(), 0);
            System.setProperty(JnaBoot.PLATFORM_PATH, "/nowhere");
            JnaBoot.platformLibraryPath();
            assertEquals("/nowhere", System.getProperty(JnaBoot.PLATFORM_PATH), "an explicit setting is left alone");
        } finally {
            if (before == null) {
                System.clearProperty(JnaBoot.PLATFORM_PATH);
            } else {
                System.setProperty(JnaBoot.PLATFORM_PATH, before);
            }
        }
    }
}
