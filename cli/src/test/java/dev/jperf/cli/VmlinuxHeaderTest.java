package dev.jperf.cli;

import dev.jperf.loader.BpfSource;
import dev.jperf.loader.VmlinuxHeader;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfCDump;
import dev.jperf.format.elf.ElfFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jperf record -e prog.bpf.c} on sources that include a vmlinux.h their directory lacks
 * (every sample of samples/bpf): jperf writes it from the running kernel's BTF with its own C
 * dumper into its cache (here the test's directory, never ~/.cache), once per kernel, and clang
 * compiles against it; recorded, each sample's programs are in the recording.
 */
class VmlinuxHeaderTest {
    private static final Path SOURCES = Path.of(System.getProperty("jperf.root", ".."), "samples", "bpf");
    private static final Path VMLINUX = Path.of("/sys/kernel/btf/vmlinux");
    /** Samples whose fentry/fexit programs need a target set before loading (perf's bperf and bpf_counter set one). */
    private static final Map<String, String> TARGET_NEEDED = Map.of(
            "bperf_follower.bpf.c", "'on_switch'", "bpf_prog_profiler.bpf.c", "'XXX'");

    @TempDir
    Path dir;

    private static List<Path> samples() throws Exception {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(SOURCES, "*.bpf.c")) {
            for (Path p : s) {
                out.add(p);
            }
        }
        out.sort(null);
        assertFalse(out.isEmpty(), "no sources in " + SOURCES);
        return out;
    }

    private static void assumeClangAndBtf() {
        boolean clang = false;
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            clang |= !d.isEmpty() && Files.isExecutable(Path.of(d, "clang"));
        }
        assumeTrue(clang, "clang is not installed: record -e prog.bpf.c then says so in one line");
        assumeTrue(Files.isReadable(VMLINUX), "this kernel has no readable " + VMLINUX);
    }

    @Test
    void everySampleCompilesAgainstJperfsVmlinuxH() throws Exception {
        assumeClangAndBtf();
        Path cache = dir.resolve("vmlinux-cache");
        String old = System.setProperty("jperf.vmlinux.dir", cache.toString());
        try {
            for (Path src : samples()) {
                assertTrue(VmlinuxHeader.needed(src), src + " includes vmlinux.h, its directory has none");
                Path out = Files.createDirectories(dir.resolve("out-" + src.getFileName()));
                Path obj = BpfSource.compile(src, out);
                ElfFile elf = ElfFile.open(obj);
                assertTrue(elf.section(".BTF").isPresent(), obj + " has BTF");
            }
            Path header = cache.resolve(VmlinuxHeader.kernelKey()).resolve("vmlinux.h");
            StringBuilder want = new StringBuilder();
            BtfCDump.header(Btf.load(VMLINUX), new int[0], want);
            assertEquals(want.toString(), Files.readString(header, StandardCharsets.UTF_8));
            try (DirectoryStream<Path> s = Files.newDirectoryStream(cache)) {
                int n = 0;
                for (Path p : s) {
                    n++;
                }
                assertEquals(1, n, "one header per kernel");
            }
            // cached: the next compile reads it, it is not written again
            FileTime t = FileTime.fromMillis(1_000_000L);
            Files.setLastModifiedTime(header, t);
            BpfSource.compile(samples().get(0), Files.createDirectories(dir.resolve("again")));
            assertEquals(t, Files.getLastModifiedTime(header));
        } finally {
            if (old == null) {
                System.clearProperty("jperf.vmlinux.dir");
            } else {
                System.setProperty("jperf.vmlinux.dir", old);
            }
        }
    }

    @Test
    void aVmlinuxHBesideTheSourceIsTheOneUsed() throws Exception {
        Path src = dir.resolve("p.bpf.c");
        Files.writeString(src, "#include \"local.h\"\n");
        Files.writeString(dir.resolve("local.h"), "  #  include <vmlinux.h>\n");
        assertTrue(VmlinuxHeader.needed(src), "included through a header of its directory");
        Files.writeString(dir.resolve("vmlinux.h"), "");
        assertFalse(VmlinuxHeader.needed(src), "the directory's own vmlinux.h is on the include path");
        Files.writeString(src, "#include \"bpf_helpers.h\" // vmlinux.h\n");
        Files.delete(dir.resolve("vmlinux.h"));
        assertFalse(VmlinuxHeader.needed(src));
    }

    @Test
    void everySampleRecordsThroughDashE() throws Exception {
        assumeClangAndBtf();
        Privilege.assumeBpf();
        Path cache = dir.resolve("vmlinux-cache");
        for (Path src : samples()) {
            Path data = dir.resolve(src.getFileName() + ".data");
            Path log = dir.resolve(src.getFileName() + ".log");
            String java = ProcessHandle.current().info().command().orElse("java");
            Process p = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-Djperf.vmlinux.dir=" + cache,
                    "-cp", System.getProperty("java.class.path"), Main.class.getName(), "record", "-q", "-a",
                    "--duration", "1", "-o", data.toString(), "-e", src.toString())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            assertTrue(p.waitFor(180, TimeUnit.SECONDS), "record -e " + src + " did not end");
            String out = Files.readString(log);
            assertFalse(out.contains("clang failed"), out);
            String target = TARGET_NEEDED.get(src.getFileName().toString());
            if (target != null) {
                // compiled; the loader then asks for the program's attach target, which only perf's users set
                assertTrue(out.contains("failed to find kernel BTF type ID of " + target), out);
                continue;
            }
            assertEquals(0, p.exitValue(), out);
            Run s = Run.of("script", "-i", data.toString(), "--show-bpf-events");
            assertEquals(0, s.rc(), s.err());
            for (String prog : programs(src)) {
                assertTrue(s.out().contains("_" + prog), prog + " of " + src + " is not in the recording's BPF events");
            }
        }
    }

    /** The programs a sample defines: the function after each SEC("...") of a program section. */
    private static List<String> programs(Path src) throws Exception {
        List<String> out = new ArrayList<>();
        List<String> lines = Files.readAllLines(src);
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i).strip();
            if (!l.startsWith("SEC(\"") || l.startsWith("SEC(\".maps") || l.startsWith("SEC(\"license")
                    || l.startsWith("SEC(\"maps")) {
                continue;
            }
            String decl = lines.get(i + 1);
            String head = decl.substring(0, decl.indexOf('(')).strip();
            out.add(head.substring(head.lastIndexOf(' ') + 1).replace("*", ""));
        }
        return out;
    }
}
