package dev.jperf.bpf;

import dev.jperf.format.btf.BtfWriter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.bpf.BpfProgInfoLayout;
import dev.jperf.format.bpf.Uapi;
import dev.jperf.nativeshim.Fd;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code jperf bpf btf list|show|dump} against bpftool 7.1 run live on the same input: the
 * running kernel's vmlinux BTF in C, every object of testdata/bpf-objects raw (plain, -j, -p)
 * and in C, BTF objects and a map this test loads (show, dump by id and through the map), and
 * bpftool's errors (an ordinary user's refusals included): the same stdout, the same
 * {@code Error:} line, the same exit code.
 */
class BtfAgreementTest {
    private static final Path OBJECTS = Path.of(System.getProperty("jperf.testdata", "../testdata"))
            .resolve("bpf-objects/obj");
    private static final Path VMLINUX = Path.of(BtfCommands.SYSFS_VMLINUX);
    private static final String[][] MODES = {{}, {"-j"}, {"-p"}};

    private final List<Integer> fds = new ArrayList<>();

    private static String bpftool() {
        String b = BpftoolAgreementTest.findBpftool();
        assumeTrue(b != null, "bpftool is not installed (Debian package bpftool): nothing to compare with");
        return b;
    }

    @Test
    void vmlinuxInCIsBpftools() throws Exception {
        String bpftool = bpftool();
        assumeTrue(Files.isReadable(VMLINUX), "this kernel has no readable " + VMLINUX);
        Result bt = bpftool(bpftool, List.of(), "dump", "file", VMLINUX.toString(), "format", "c");
        Result jp = jperf(List.of(), "dump", "file", VMLINUX.toString(), "format", "c");
        assertEquals(0, bt.code, bt.err);
        assertTrue(bt.out.contains("struct task_struct {"), "bpftool's dump has the kernel's types");
        assertEquals(bt, jp);
    }

    @Test
    void vmlinuxRawIsBpftools() throws Exception {
        String bpftool = bpftool();
        assumeTrue(Files.isReadable(VMLINUX), "this kernel has no readable " + VMLINUX);
        for (String[] mode : new String[][] {{}, {"-j"}}) {
            assertEquals(bpftool(bpftool, List.of(mode), "dump", "file", VMLINUX.toString()),
                    jperf(List.of(mode), "dump", "file", VMLINUX.toString()), String.join(" ", mode));
        }
    }

    @Test
    void everyTestdataObjectDumpsAsBpftoolDumpsIt() throws Exception {
        String bpftool = bpftool();
        List<Path> objects;
        try (Stream<Path> s = Files.list(OBJECTS)) {
            objects = s.filter(p -> p.toString().endsWith(".bpf.o")).sorted().toList();
        }
        assertFalse(objects.isEmpty(), "no objects in " + OBJECTS);
        for (Path o : objects) {
            for (String[] mode : MODES) {
                assertEquals(bpftool(bpftool, List.of(mode), "dump", "file", o.toString(), "format", "raw"),
                        jperf(List.of(mode), "dump", "file", o.toString(), "format", "raw"), o + " raw " + String.join(" ", mode));
            }
            Result c = bpftool(bpftool, List.of(), "dump", "file", o.toString(), "format", "c");
            assertEquals(c, jperf(List.of(), "dump", "file", o.toString(), "format", "c"), o + " c");
        }
    }

    @Test
    void errorsAreBpftools() throws Exception {
        String bpftool = bpftool();
        Path object = OBJECTS.resolve("kprobe.bpf.o");
        String[][] cases = {
            {"dump", "file", "/nonexistent/btf"},
            {"dump", "file", OBJECTS.resolve("../README.md").toString()},
            {"dump", "file", OBJECTS.toString()},
            {"dump", "file", object.toString(), "format", "xml"},
            {"dump", "file", object.toString(), "format"},
            {"dump", "file", object.toString(), "bogus"},
            {"dump", "nothing", "x"},
            {"dump", "id", "12x"},
            {"show", "di", "1"},
            {"show", "id", "1"},
            {"show", "id", "4000000000"},
            {"dump", "prog", "id"},
            {"dump", "map"},
            {"dump"},
            {"bogus"},
            {"help"},
            {"show", "1"},
        };
        for (String[] c : cases) {
            for (String[] mode : MODES) {
                assertEquals(bpftool(bpftool, List.of(mode), c), jperf(List.of(mode), c), String.join(" ", c) + " " + String.join(" ", mode));
            }
        }
        assertEquals(bpftool(bpftool, List.of("-j"), "dump", "file", object.toString(), "format", "c"),
                jperf(List.of("-j"), "dump", "file", object.toString(), "format", "c"));
    }

    @Test
    void baseBtfIsBpftools() throws Exception {
        String bpftool = bpftool();
        assumeTrue(Files.isReadable(VMLINUX), "this kernel has no readable " + VMLINUX);
        String object = OBJECTS.resolve("kprobe.bpf.o").toString();
        // an object's BTF read as split BTF over vmlinux's: ids and string offsets continue the base's
        for (String base : new String[] {VMLINUX.toString(), "/nonexistent/base"}) {
            // (with -j, bpftool leaves a base it cannot parse without its JSON writer's last newline)
            for (String[] mode : base.equals(VMLINUX.toString()) ? new String[][] {{}, {"-j"}} : new String[][] {{}}) {
                List<String> bt = new ArrayList<>(List.of(mode));
                bt.add("-B");
                bt.add(base);
                assertEquals(bpftool(bpftool, bt, "dump", "file", object), jperfWithBase(List.of(mode), base, "dump", "file", object),
                        base + " " + String.join(" ", mode));
            }
        }
    }

    @Test
    void loadedObjectsShowAndDumpAsBpftoolShowsThem() throws Exception {
        String bpftool = bpftool();
        BtfWriter w = new BtfWriter();
        int u32 = w.integer("unsigned int", 4, 0, 32);
        int s8 = w.integer("char", 1, 1, 8);
        int color = w.enumeration("color", 4, true, "RED", -1, "GREEN", 2);
        int inner = w.composite(BtfWriter.STRUCT, "inner", 4, "flag", u32, 0, 3, "rest", u32, 3, 29);
        int pair = w.composite(BtfWriter.STRUCT, "pair", 16, "a", u32, 0, 0, "c", color, 32, 0, "in", inner, 64, 0,
                "tag", s8, 96, 0);
        int btf;
        try {
            btf = Sys.btfLoad(w.bytes());
        } catch (IllegalStateException e) {
            assumeTrue(false, "the kernel refuses BPF_BTF_LOAD here: " + e.getMessage());
            return;
        }
        fds.add(btf);
        for (int i = 0; i < 2; i++) {
            fds.add(Sys.mapCreate(1, "t_btf" + i, 4, 16, 4, 0, btf, u32, pair));
        }
        int btfId = btfId(btf);
        int mapId = mapId(fds.get(1));
        for (String[] mode : MODES) {
            String m = String.join(" ", mode);
            assertEquals(bpftool(bpftool, List.of(mode), "show", "id", Integer.toString(btfId)),
                    jperf(List.of(mode), "show", "id", Integer.toString(btfId)), "show " + m);
            assertEquals(bpftool(bpftool, List.of(mode), "dump", "id", Integer.toString(btfId)),
                    jperf(List.of(mode), "dump", "id", Integer.toString(btfId)), "dump id " + m);
            for (String which : new String[] {null, "key", "value", "kv", "all"}) {
                List<String> args = new ArrayList<>(List.of("dump", "map", "id", Integer.toString(mapId)));
                if (which != null) {
                    args.add(which);
                }
                String[] a = args.toArray(new String[0]);
                assertEquals(bpftool(bpftool, List.of(mode), a), jperf(List.of(mode), a), args + " " + m);
            }
        }
        assertEquals(bpftool(bpftool, List.of(), "dump", "map", "id", Integer.toString(mapId), "format", "c"),
                jperf(List.of(), "dump", "map", "id", Integer.toString(mapId), "format", "c"));
        // a program without BTF: bpftool's two lookups of BTF object 0 fail, each said
        ByteBuffer insns = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        insns.put((byte) 0xb7).put((byte) 0).putShort((short) 0).putInt(0); // r0 = 0
        insns.put((byte) 0x95).put((byte) 0).putShort((short) 0).putInt(0); // exit
        int prog = new dev.jperf.nativeshim.Bpf().progLoad(Uapi.BPF_PROG_TYPE_SOCKET_FILTER, insns.array(), "GPL",
                "t_btf_prog");
        fds.add(prog);
        String progId = Integer.toString(progIdOf(prog));
        for (String[] mode : MODES) {
            assertEquals(bpftool(bpftool, List.of(mode), "dump", "prog", "id", progId),
                    jperf(List.of(mode), "dump", "prog", "id", progId), "dump prog " + String.join(" ", mode));
        }
        Result list = jperf(List.of(), "list");
        assertTrue(list.out.contains(btfId + ": name <anon>  size "), list.out);
        assertTrue(list.out.contains("  map_ids "), list.out);
    }

    @AfterEach
    void close() {
        for (int fd : fds) {
            Fd.close(fd);
        }
    }

    private static int btfId(int fd) {
        com.sun.jna.Memory m = new com.sun.jna.Memory(32);
        m.clear();
        new dev.jperf.nativeshim.Bpf().objGetInfoByFd(fd, m, 32);
        return m.getInt(12);
    }

    private static int progIdOf(int fd) {
        com.sun.jna.Memory m = new com.sun.jna.Memory(BpfProgInfoLayout.SIZE);
        m.clear();
        new dev.jperf.nativeshim.Bpf().objGetInfoByFd(fd, m, BpfProgInfoLayout.SIZE);
        return m.getInt(BpfProgInfoLayout.ID);
    }

    private static int mapId(int fd) {
        com.sun.jna.Memory m = new com.sun.jna.Memory(88);
        m.clear();
        new dev.jperf.nativeshim.Bpf().objGetInfoByFd(fd, m, 88);
        return m.getInt(4);
    }

    /** What a command printed and returned. */
    record Result(String out, String err, int code) {
    }

    private static Result bpftool(String bpftool, List<String> mode, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(bpftool);
        cmd.addAll(mode);
        cmd.add("btf");
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile("btf-agree", ".out");
        try {
            Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).start();
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), cmd.toString());
            return new Result(Files.readString(out), errorLines(err), p.exitValue());
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** bpftool's {@code Error:} lines (libbpf's own warnings on stderr are not bpftool's output). */
    private static String errorLines(String err) {
        StringBuilder b = new StringBuilder();
        for (String l : err.split("\n", -1)) {
            if (l.startsWith("Error: ") || l.startsWith("Warning: ")) {
                b.append(l).append('\n');
            }
        }
        return b.toString();
    }

    /** The same command through {@link BtfCommandLine}, as {@code jperf bpf btf} runs it. */
    private static Result jperf(List<String> mode, String... args) {
        return jperfWithBase(mode, null, args);
    }

    /** With bpftool's {@code -B baseBtf}. */
    private static Result jperfWithBase(List<String> mode, String baseBtf, String... args) {
        boolean json = !mode.isEmpty();
        Output o = new Output(json, json && mode.get(0).equals("-p"));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = BtfCommandLine.run(o, List.of(args), baseBtf, new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(o.finish(), errorLines(err.toString(StandardCharsets.UTF_8)), code);
    }
}
