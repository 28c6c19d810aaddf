package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.NativeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code jperf bpf run}: samples' legacy-map program counts openat(2) calls per process in a map
 * whose key/value types come from perf's ____btf_map_ marker; after the run the map is dumped
 * typed through that BTF, and everything is unloaded.
 */
class BpfRunCommandTest {
    static final Path SAMPLES = Path.of(System.getProperty("jperf.root", ".."), "samples", "bpf", "obj");

    @Test
    void runsThenDumpsTheMapsTypedAndUnloads() throws IOException {
        Privilege.assumeBpf();
        Path obj = SAMPLES.resolve("legacy_maps.bpf.o");
        Thread opener = new Thread(() -> {
            for (int i = 0; i < 200; i++) {
                try {
                    Files.readAllBytes(obj); // openat(2) while the program runs
                    Thread.sleep(2);
                } catch (IOException | InterruptedException e) {
                    return;
                }
            }
        });
        opener.start();
        Run r = Run.of("bpf", "run", obj.toString(), "--duration", "0.5", "--json");
        opener.interrupt();
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.err().contains("attached to tracepoint syscalls/sys_enter_openat"), r.err());
        String line = r.out().lines().filter(l -> l.startsWith("{\"map\":\"opens_by_pid\"")).findFirst().orElseThrow();
        // typed through the marker struct: the value's fields by name, and some process counted
        long counted = 0;
        int id = -1;
        try (JsonParser p = new JsonFactory().createParser(line)) {
            while (p.nextToken() != null) {
                if (p.currentToken() == JsonToken.FIELD_NAME && p.currentName().equals("count")) {
                    p.nextToken();
                    counted += p.getLongValue();
                } else if (p.currentToken() == JsonToken.FIELD_NAME && p.currentName().equals("id") && id < 0) {
                    p.nextToken();
                    id = p.getIntValue();
                }
            }
        }
        assertTrue(counted > 0, line);
        assertTrue(line.contains("\"formatted\":{\"key\":"), line);
        // detached and unloaded when the command ended
        int mapId = id;
        NativeException gone = assertThrows(NativeException.class, () -> {
            for (long deadline = System.nanoTime() + 10_000_000_000L; System.nanoTime() < deadline; Thread.sleep(5)) {
                dev.jperf.nativeshim.Fd.close(new Bpf().mapGetFdById(mapId));
            }
        });
        assertTrue(gone.getMessage().contains("ENOENT"), gone.getMessage());
    }

    @Test
    void badObjectIsOneLine() throws IOException {
        Run r = Run.of("bpf", "run", "/nonexistent.bpf.o", "--duration", "0.1");
        assertEquals(1, r.rc());
        assertEquals(1, r.err().lines().count(), r.err());
        Run u = Run.of("bpf", "run", SAMPLES.resolve("legacy_maps.bpf.o").toString(), "--duration", "x");
        assertTrue(u.rc() != 0 && u.err().contains("--duration x"), u.err());
    }
}
