package dev.jperf.cli;

import dev.jperf.loader.BpfSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.jperf.loader.BpfObject;
import dev.jperf.loader.LoadOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code jperf bpf load} and {@code jperf record --bpf-object} on the external objects. */
class BpfLoadCommandTest {
    /** testdata/bpf-objects: the parent pom sets jperf.testdata; the default is where it lies seen from a module. */
    static final Path OBJ = Path.of(System.getProperty("jperf.testdata", "../testdata"), "bpf-objects", "obj");

    @TempDir
    Path dir;

    /** The "code" of every xlated instruction of the JSON's first program. */
    static List<Integer> codes(String json) throws IOException {
        List<Integer> out = new ArrayList<>();
        try (JsonParser p = new JsonFactory().createParser(json)) {
            while (p.nextToken() != null) {
                if (p.currentToken() == JsonToken.FIELD_NAME && p.currentName().equals("code")) {
                    p.nextToken();
                    out.add(p.getIntValue());
                }
            }
        }
        return out;
    }

    @Test
    void jsonHasProgramsXlatedAndMaps() throws Exception {
        Privilege.assumeBpf();
        Run r = Run.of("bpf", "load", OBJ.resolve("bootstrap.bpf.o").toString(), "-p", "handle_exec", "--json");
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("\"name\":\"handle_exec\",\"section\":\"tp/sched/sched_process_exec\",\"loaded\":true,\"id\":"),
                r.out());
        assertTrue(!r.out().contains("handle_exit"), "-p loads only the program named");
        // every instruction the kernel holds for that program, as the loader loads it here
        List<Integer> want = new ArrayList<>();
        try (BpfObject o = BpfObject.open(OBJ.resolve("bootstrap.bpf.o"))) {
            o.program("handle_exit").setAutoload(false);
            o.load(LoadOptions.DEFAULT);
            byte[] x = o.program("handle_exec").info().xlatedProgInsns();
            for (int k = 0; k < x.length; k += 8) {
                want.add(x[k] & 0xff);
            }
        }
        assertTrue(!want.isEmpty());
        assertEquals(want, codes(r.out()));
        assertTrue(r.out().contains("{\"name\":\"bootstra.rodata\",\"type\":2,\"key_size\":4,\"value_size\":8,\"max_entries\":1,"
                + "\"flags\":1152,"), r.out());
    }

    @Test
    void refusedProgramNamesErrnoAndVerifier() {
        Privilege.assumeBpf();
        Run r = Run.of("bpf", "load", OBJ.resolve("softirqs.bpf.o").toString(), "-p", "softirq_exit");
        assertEquals(1, r.rc());
        assertTrue(r.out().contains("softirq_exit") && r.out().contains("EACCES: Permission denied"), r.out());
        assertTrue(r.err().contains("-- verifier log of 'softirq_exit' (last " + BpfLoadCommand.LOG_TAIL + " lines"), r.err());
        Run all = Run.of("bpf", "load", OBJ.resolve("softirqs.bpf.o").toString(), "-p", "softirq_exit", "--log");
        assertTrue(all.err().lines().count() > r.err().lines().count(), "--log prints the whole log");
    }

    @Test
    void badObjectIsOneLine() throws IOException {
        Path bad = dir.resolve("bad.bpf.o");
        Files.write(bad, java.util.Arrays.copyOf(Files.readAllBytes(OBJ.resolve("bootstrap.bpf.o")), 3000));
        Run r = Run.of("bpf", "load", bad.toString());
        assertEquals(1, r.rc());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("jperf bpf load: " + bad + ": "), r.err());
    }

    /** jperf record ARGS in a JVM of its own, then the recording's BPF events as script prints them. */
    private String recordBpfEvents(String... args) throws Exception {
        Path data = dir.resolve("perf.data");
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "record", "-q", "-a", "--duration", "1", "-o", data.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("record.log").toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "record did not end");
        assertEquals(0, p.exitValue(), Files.readString(dir.resolve("record.log")));
        Run s = Run.of("script", "-i", data.toString(), "--show-bpf-events");
        assertEquals(0, s.rc(), s.err());
        return s.out();
    }

    @Test
    void recordWithBpfObjectCapturesItsPrograms() throws Exception {
        Privilege.assumeBpf();
        String events = recordBpfEvents("--bpf-object", OBJ.resolve("runqlat.bpf.o").toString());
        for (String prog : List.of("handle_sched_switch", "sched_switch", "handle_sched_wakeup")) {
            assertTrue(events.contains("_" + prog), prog + " not in the recording's BPF events");
        }
    }

    @Test
    void recordCompilesABpfSourceWithClang() throws Exception {
        Privilege.assumeBpf();
        boolean clang = Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                .anyMatch(d -> Files.isExecutable(Path.of(d, "clang")));
        assumeTrue(clang, "clang is not installed: record -e prog.bpf.c then says so in one line");
        Path src = dir.resolve("hello.bpf.c");
        Files.writeString(src, """
                #define SEC(name) __attribute__((section(name), used))
                typedef unsigned long long __u64;
                SEC("raw_tp/sys_enter") int jperf_hello(__u64 *ctx) { return 0; }
                char LICENSE[] SEC("license") = "GPL";
                """);
        assertTrue(recordBpfEvents("-e", src.toString()).contains("_jperf_hello"), "the compiled program was not recorded");
    }
}
