package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.Ioctl;
import dev.jperf.nativeshim.PerfEventOpen;
import dev.jperf.recorder.stat.PrivateBpffsDir;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jperf bpf net|cgroup|perf|iter|struct_ops} against bpftool 7.1 run live on objects this
 * test makes: a veth pair with an XDP program (generic mode) and clsact tc filters, a cgroup v2
 * directory and its child with cgroup_skb programs attached, a raw tracepoint and a tracepoint
 * perf event with programs held by this process, task iterators pinned, a TCP congestion control
 * registered as struct_ops. Each command runs through bpftool and jperf in plain, {@code -j}
 * and {@code -p}: stdout, stderr from bpftool's {@code Error:} line on (libbpf's lines before it
 * compared where jperf writes them too) and the exit code must be the same; what one attaches, the
 * other must list as it lists its own.
 */
class BpfNetCgroupPerfAgreementTest {
    private static final String[][] MODES = {{}, {"-j"}, {"-p"}};
    /** r0 = imm; exit */
    private static final int SCHED_CLS = 3, TRACEPOINT = 5, XDP = 6, CGROUP_SKB = 8, RAW_TRACEPOINT = 17;

    private String bpftool;
    private PrivateBpffsDir bpffs;
    private final List<Integer> fds = new ArrayList<>();
    private final List<Runnable> cleanup = new ArrayList<>();

    record Result(String out, String err, int rc) {}

    @BeforeEach
    void setUp() throws IOException {
        bpftool = find("bpftool");
        assumeTrue(bpftool != null, "bpftool is not installed (Debian package bpftool): nothing to compare with");
        bpffs = PrivateBpffsDir.create("jperf-bpfnet");
    }

    @AfterEach
    void tearDown() throws Exception {
        for (int i = cleanup.size() - 1; i >= 0; i--) {
            cleanup.get(i).run();
        }
        for (int fd : fds) {
            Fd.close(fd);
        }
        if (bpffs != null) {
            bpffs.close();
        }
    }

    @Test
    void netAgrees() throws Exception {
        assumeTrue(find("ip") != null && find("tc") != null, "iproute2 (ip, tc) is not installed: no device to set up");
        String a = "jpn" + ProcessHandle.current().pid() % 100000;
        String b = a + "p";
        Result made = exec(List.of(find("ip"), "link", "add", a, "type", "veth", "peer", "name", b));
        assumeTrue(made.rc() == 0, "no veth device here: " + made.err());
        cleanup.add(() -> quietly(find("ip"), "link", "del", a));
        String xdp = pin(XDP, 2, "jp_xdp_pass");
        String cls = pin(SCHED_CLS, 0, "jp_tc_ok");
        String xdp2 = pin(XDP, 2, "jp_xdp_other");
        for (String[] mode : MODES) {
            agree(mode, "net", "show", "dev", a);
        }
        // the XDP program, attached by bpftool then by jperf: each lists what the other attached
        for (String[] mode : MODES) {
            Result r = bpftool(mode, "net", "attach", "xdpgeneric", "pinned", xdp, "dev", a);
            assertEquals(0, r.rc(), r.toString());
            for (String[] m : MODES) {
                agree(m, "net", "show", "dev", a);
            }
            agree(mode, "net", "attach", "xdpgeneric", "pinned", xdp2, "dev", a);
            agree(mode, "net", "detach", "xdpgeneric", "dev", a);
            assertEquals(0, jperf(mode, "net", "attach", "xdpg", "pinned", xdp, "dev", a).rc());
            agree(mode, "net", "attach", "xdpgeneric", "pinned", xdp2, "dev", a);
            agree(mode, "net", "show", "dev", a);
            assertEquals(0, jperf(mode, "net", "attach", "xdpgeneric", "pinned", xdp2, "dev", a, "overwrite").rc());
            agree(mode, "net", "list", "dev", a);
            assertEquals(0, jperf(mode, "net", "detach", "xdpgeneric", "dev", a).rc());
            agree(mode, "net", "show", "dev", a);
        }
        assertEquals(0, bpftool(new String[0], "net", "attach", "xdpgeneric", "pinned", xdp, "dev", a).rc());
        assertEquals(0, exec(List.of(find("tc"), "qdisc", "add", "dev", a, "clsact")).rc());
        for (String dir : new String[] {"ingress", "egress"}) {
            Result r = exec(List.of(find("tc"), "filter", "add", "dev", a, dir, "bpf", "da", "pinned", cls));
            assertEquals(0, r.rc(), r.err());
        }
        for (String[] mode : MODES) {
            agree(mode, "net", "show", "dev", a);
            agree(mode, "net", "show", "dev", b);
            agree(mode, "net");
        }
        String[][] bad = {
            {"net", "show", "dev", "jpnone0"},
            {"net", "show", "dav", a},
            {"net", "show", "dev"},
            {"net", "attach", "xdpgeneric", "pinned", xdp, "dev", a},
            {"net", "attach", "xdpgeneric", "pinned", xdp, "dev", a, "overwrit", "x"},
            {"net", "attach", "xdpgeneric", "pinned", xdp, "dev", a, "bogus"},
            {"net", "attach", "xdpgeneric", "pinned", xdp, "dev", "jpnone0"},
            {"net", "attach", "xdpgeneric", "pinned", xdp, "dov", a},
            {"net", "attach", "tc", "pinned", xdp, "dev", a},
            {"net", "attach", "xdpgeneric", "id", "0", "dev", a},
            {"net", "attach", "xdpgeneric", "pinned", xdp},
            {"net", "detach", "xdpgeneric", "dev"},
            {"net", "detach", "xdpdrv", "dev", a},
            {"net", "detach", "tcx", "dev", a},
            {"net", "detach", "xdpgeneric", "dev", "jpnone0"},
        };
        int i = 0;
        for (String[] w : bad) {
            agree(MODES[i++ % MODES.length], w);
        }
    }

    @Test
    void cgroupAgrees() throws Exception {
        String root = cgroup2Root();
        assumeTrue(root != null, "cgroup v2 is not mounted");
        Path top = Files.createTempDirectory(Path.of(root), "jperf-cg");
        Path sub = Files.createDirectory(top.resolve("sub"));
        cleanup.add(() -> {
            try {
                Files.deleteIfExists(sub);
                Files.deleteIfExists(top);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        String p1 = pin(CGROUP_SKB, 1, "jp_skb_ingress_long_name");
        String p2 = pin(CGROUP_SKB, 1, "jp_skb_b");
        String t = top.toString();
        String s = sub.toString();
        for (String[] mode : MODES) {
            agree(mode, "cgroup", "show", t);
            agree(mode, "cgroup", "tree", t);
        }
        assertEquals(0, bpftool(new String[0], "cgroup", "attach", t, "ingress", "pinned", p1, "multi").rc());
        assertEquals(0, jperf(new String[0], "cgroup", "attach", t, "cgroup_inet_ingress", "pinned", p2, "multi").rc());
        assertEquals(0, jperf(new String[] {"-j"}, "cgroup", "attach", s, "egress", "pinned", p2).rc());
        assertEquals(0, bpftool(new String[0], "cgroup", "attach", s, "ingress", "pinned", p1, "override").rc());
        for (String[] mode : MODES) {
            agree(mode, "cgroup", "show", t);
            agree(mode, "cgroup", "list", s);
            agree(mode, "cgroup", "show", s, "effective");
            agree(mode, "cgroup", "tree", t);
            agree(mode, "cgroup", "tree", t, "eff");
            agree(mode, "cgroup", "tree", t + "/");
            agree(mode, "cgroup", "tree");
        }
        String[][] bad = {
            {"cgroup", "show", t + "/none"},
            {"cgroup", "show"},
            {"cgroup", "show", t, "bogus"},
            {"cgroup", "show", t, "effective", "effective"},
            {"cgroup", "tree", t + "/none"},
            {"cgroup", "tree", t, "eff", "eff"},
            {"cgroup", "attach", t, "ingress", "pinned"},
            {"cgroup", "attach", t + "/none", "ingress", "pinned", p1},
            {"cgroup", "attach", t, "bogus", "pinned", p1},
            {"cgroup", "attach", t, "ingress", "pinned", p1, "multi", "bogus"},
            {"cgroup", "attach", t, "ingress", "id", "0"},
            {"cgroup", "attach", t, "ingress", "pinned", p1},
            {"cgroup", "detach", t, "egress", "pinned", p1},
            {"cgroup", "detach", t, "ingress"},
            {"cgroup", "bogus"},
        };
        int i = 0;
        for (String[] w : bad) {
            agree(MODES[i++ % MODES.length], w);
        }
        // detached by each through the other's attach
        assertEquals(0, jperf(new String[0], "cgroup", "detach", t, "ingress", "pinned", p1).rc());
        assertEquals(0, bpftool(new String[0], "cgroup", "detach", t, "ingress", "pinned", p2).rc());
        assertEquals(0, bpftool(new String[] {"-j"}, "cgroup", "detach", s, "egress", "pinned", p2).rc());
        assertEquals(0, jperf(new String[] {"-p"}, "cgroup", "detach", s, "ingress", "pinned", p1).rc());
        for (String[] mode : MODES) {
            agree(mode, "cgroup", "tree", t);
        }
    }

    @Test
    void perfAgrees() throws Exception {
        int raw = load(RAW_TRACEPOINT, 0, "jp_raw_tp");
        fds.add(new Bpf().rawTracepointOpen("sched_switch", raw));
        Path id = Path.of("/sys/kernel/tracing/events/sched/sched_switch/id");
        if (Files.isReadable(id)) {
            int tp = load(TRACEPOINT, 0, "jp_tp");
            ByteBuffer attr = ByteBuffer.allocate(128).order(ByteOrder.nativeOrder());
            attr.putInt(0, 2).putInt(4, 128).putLong(8, Long.parseLong(Files.readString(id).strip())).putLong(16, 1);
            int ev = PerfEventOpen.open(attr, -1, 0, -1, 0, "sched:sched_switch");
            fds.add(ev);
            Ioctl.setBpf(ev, tp);
        }
        long pid = ProcessHandle.current().pid();
        for (String[] mode : MODES) {
            Result b = bpftool(mode, "perf");
            Result j = jperf(mode, "perf", "list");
            assertEquals(b.rc(), j.rc());
            assertEquals(b.err(), j.err());
            String ours = ours(b.out(), pid, mode.length > 0);
            assertTrue(ours.contains("jp") || ours.contains("sched_switch"), "bpftool lists this process's events: " + b.out());
            assertEquals(ours, ours(j.out(), pid, mode.length > 0), "perf list, " + List.of(mode));
            assertEquals(shape(b.out()), shape(j.out()), "the list's frame");
        }
        agree(new String[0], "perf", "bogus");
    }

    @Test
    void iterPinAgrees() throws Exception {
        Path obj = BpfLoadCommandTest.OBJ;
        String task = obj.resolve("task_iter.bpf.o").toString();
        Path bdir = Files.createDirectory(bpffs.path().resolve("b"));
        Path jdir = Files.createDirectory(bpffs.path().resolve("j"));
        int i = 0;
        for (String[] mode : MODES) {
            String name = "task" + i++;
            Result b = bpftool(mode, "iter", "pin", task, bdir.resolve(name).toString());
            Result j = jperf(mode, "iter", "pin", task, jdir.resolve(name).toString());
            assertEquals(b, j, "iter pin " + List.of(mode));
            assertEquals(0, j.rc());
            // reading the pin runs the iterator: a record per task, the first the idle task of CPU 0 or init
            byte[] fromB = Files.readAllBytes(bdir.resolve(name));
            byte[] fromJ = Files.readAllBytes(jdir.resolve(name));
            assertTrue(fromB.length > 0 && fromJ.length > 0, "the iterators read nothing");
            assertEquals(new String(fromB, 0, 32, StandardCharsets.ISO_8859_1).replaceAll("\\P{Print}", ""),
                    new String(fromJ, 0, 32, StandardCharsets.ISO_8859_1).replaceAll("\\P{Print}", ""),
                    "the first task each iterator shows");
            Result link = bpftool(new String[] {"-j"}, "link", "show", "pinned", jdir.resolve(name).toString());
            assertTrue(link.out().contains("\"type\":\"iter\"") && link.out().contains("\"target_name\":\"task\""),
                    "bpftool reads jperf's pin as a task iterator link: " + link);
        }
        int map = new Bpf().mapCreate(2, 4, 8, 4, "jp_iter_arr");
        fds.add(map);
        String[][] bad = {
            {"iter", "pin", task, "@/task0"},
            {"iter", "pin", obj.resolve("tc.bpf.o").toString(), "@/tc"},
            {"iter", "pin", "@/none.o", "@/x"},
            {"iter", "pin", task, "@/x", "map", "id", "0"},
            {"iter", "pin", task, "@/x", "map"},
            {"iter", "pin", task, "@/x", "map", "id", "4294967295"},
            {"iter", "pin", task},
            {"iter", "pin", task, "@/nodir/x"},
            {"iter", "pin", task, "/proc/jperf-none/x"},
        };
        i = 0;
        for (String[] w : bad) {
            String[] mode = MODES[i++ % MODES.length];
            String[] bw = new String[w.length];
            String[] jw = new String[w.length];
            for (int k = 0; k < w.length; k++) {
                bw[k] = w[k].replace("@", bdir.toString());
                jw[k] = w[k].replace("@", jdir.toString());
            }
            Result b = bpftool(mode, bw);
            Result j = jperf(mode, jw);
            assertEquals(b.out().replace(bdir.toString(), "@"), j.out().replace(jdir.toString(), "@"), List.of(w).toString());
            assertEquals(b.err().replace(bdir.toString(), "@"), j.err().replace(jdir.toString(), "@"), List.of(w).toString());
            assertEquals(b.rc(), j.rc(), List.of(w).toString());
        }
    }

    @Test
    void structOpsAgrees(@TempDir Path dir) throws Exception {
        String clang = find("clang");
        assumeTrue(clang != null, "clang is not installed: no struct_ops object to register");
        assumeTrue(Files.exists(Path.of("/usr/include/bpf/bpf_helpers.h")), "libbpf-dev is not installed (bpf_helpers.h)");
        assumeTrue(Files.exists(Path.of("/sys/kernel/btf/vmlinux")), "the kernel has no BTF: no struct_ops");
        Run header = Run.of("bpf", "btf", "dump", "file", "/sys/kernel/btf/vmlinux", "format", "c");
        assertEquals(0, header.rc(), header.err());
        Files.writeString(dir.resolve("vmlinux.h"), header.out());
        // a TCP congestion control whose name no other run uses
        String name = "jpcc" + ProcessHandle.current().pid() % 100000;
        Files.writeString(dir.resolve("so.bpf.c"), String.join("\n",
                "#include \"vmlinux.h\"",
                "#include <bpf/bpf_helpers.h>",
                "#include <bpf/bpf_tracing.h>",
                "char _license[] SEC(\"license\") = \"GPL\";",
                "SEC(\"struct_ops/jp_init\") void BPF_PROG(jp_init, struct sock *sk) {}",
                "SEC(\"struct_ops/jp_ssthresh\") __u32 BPF_PROG(jp_ssthresh, struct sock *sk) { return 10; }",
                "SEC(\"struct_ops/jp_cong_avoid\") void BPF_PROG(jp_cong_avoid, struct sock *sk, __u32 ack, __u32 acked) {}",
                "SEC(\"struct_ops/jp_undo\") __u32 BPF_PROG(jp_undo, struct sock *sk) { return 10; }",
                "SEC(\".struct_ops\") struct tcp_congestion_ops " + name + " = {",
                "  .init = (void *)jp_init, .ssthresh = (void *)jp_ssthresh, .cong_avoid = (void *)jp_cong_avoid,",
                "  .undo_cwnd = (void *)jp_undo, .name = \"" + name + "\",",
                "};", ""));
        Result cc = exec(List.of(clang, "-O2", "-g", "-target", "bpf", "-D__TARGET_ARCH_x86", "-I" + dir, "-c",
                dir.resolve("so.bpf.c").toString(), "-o", dir.resolve("so.o").toString()));
        assertEquals(0, cc.rc(), cc.err());
        String obj = dir.resolve("so.o").toString();
        Result reg = bpftool(new String[0], "struct_ops", "register", obj);
        assumeTrue(reg.rc() == 0, "this kernel refuses struct_ops registration (bpftool: " + reg + ")");
        cleanup.add(() -> quietly(bpftool, "struct_ops", "unregister", "name", name));
        String id = String.valueOf(mapId(name));
        int array = new Bpf().mapCreate(2, 4, 8, 4, "jp_not_sops");
        fds.add(array);
        String arrayId = String.valueOf(mapId("jp_not_sops"));
        for (String[] mode : MODES) {
            agree(mode, "struct_ops", "show", "name", name);
            agree(mode, "struct_ops", "list", "id", id);
            agree(mode, "struct_ops", "show");
            agree(mode, "struct_ops");
            agree(mode, "struct_ops", "dump", "name", name);
            agree(mode, "struct_ops", "dump", "i", id);
            agree(mode, "struct_ops", "dump");
        }
        String[][] bad = {
            {"struct_ops", "show", "id", "0"},
            {"struct_ops", "show", "id", "x1"},
            {"struct_ops", "show", "id", "4294967295"},
            {"struct_ops", "show", "id", arrayId},
            {"struct_ops", "show", "name", "jp_none"},
            {"struct_ops", "dump", "name", "jp_none"},
            {"struct_ops", "dump", "id", arrayId},
            {"struct_ops", "show", "bogus", "x"},
            {"struct_ops", "show", "name"},
            {"struct_ops", "unregister", "name", "jp_none"},
            {"struct_ops", "unregister", "id", arrayId},
            {"struct_ops", "unregister"},
            {"struct_ops", "bogus"},
            // register: the words, a missing object, an object without struct_ops (loaded, then refused)
            {"struct_ops", "register"},
            {"struct_ops", "register", obj, dir.toString()},
            {"struct_ops", "register", dir.resolve("none.o").toString()},
            {"struct_ops", "register", BpfRunCommandTest.SAMPLES.resolve("global_data.bpf.o").toAbsolutePath().toString()},
        };
        for (String[] w : bad) {
            for (String[] mode : MODES) {
                agree(mode, w);
            }
        }
        // jperf unregisters what bpftool registered, by name then by id, saying what bpftool says
        Run un = Run.of("bpf", "struct_ops", "unregister", "name", name);
        assertEquals(0, un.rc(), un.err());
        Result gone = bpftool(new String[0], "struct_ops", "show", "name", name);
        assertEquals(255, gone.rc(), "unregistered: " + gone);
        assertEquals(0, bpftool(new String[0], "struct_ops", "register", obj).rc());
        String id2 = String.valueOf(mapId(name));
        Run j = Run.of("bpf", "struct_ops", "unregister", "id", id2);
        assertEquals(0, j.rc(), j.err());
        assertTrue(j.err().contains("Unregistered tcp_congestion_ops " + name + " id " + id2), j.err());
        // an object with struct_ops maps: jperf's loader does not load them, one line says so
        Run r = Run.of("bpf", "struct_ops", "register", obj);
        assertEquals(255, r.rc());
        assertTrue(r.err().startsWith("Error: ") && r.err().contains("is not supported by jperf") && r.err().lines().count() == 1, r.err());
    }

    @Test
    void helpAgrees() throws Exception {
        for (String object : new String[] {"net", "cgroup", "perf", "struct_ops", "iter"}) {
            for (String[] mode : MODES) {
                agree(mode, object, "help");
                agree(mode, object, "he");
            }
        }
        agree(new String[] {"-j"}, "iter");
    }

    /** The id of the map named {@code name}, as bpftool lists it. */
    private int mapId(String name) throws Exception {
        Result maps = bpftool(new String[0], "map", "show", "name", name);
        Matcher m = Pattern.compile("^(\\d+): ").matcher(maps.out());
        assertTrue(m.find(), "bpftool finds map " + name + ": " + maps);
        return Integer.parseInt(m.group(1));
    }

    /** The entries of process {@code pid}: plain lines or JSON objects. */
    private static String ours(String list, long pid, boolean json) {
        StringBuilder b = new StringBuilder();
        if (json) {
            Matcher m = Pattern.compile("\\{[^{}]*\"pid\"\\s*:\\s*" + pid + "\\b[^{}]*\\}").matcher(list);
            while (m.find()) {
                b.append(m.group().replaceAll("\\s+", " ")).append('\n');
            }
        } else {
            for (String line : list.split("\n", -1)) {
                if (line.startsWith("pid " + pid + " ")) {
                    b.append(line).append('\n');
                }
            }
        }
        assertFalse(b.isEmpty(), "no entry of this process in " + list);
        return b.toString();
    }

    /** The output with its entries taken out: how it opens and closes. */
    private static String shape(String out) {
        return out.replaceAll("(?s)\\{.*\\}", "{}").replaceAll("(?m)^pid .*\\n", "");
    }

    private int load(int type, int ret, String name) {
        byte[] insns = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).put((byte) 0xb7).put((byte) 0)
                .putShort((short) 0).putInt(ret).put((byte) 0x95).put(new byte[7]).array();
        int fd = new Bpf().progLoad(type, insns, "GPL", name);
        fds.add(fd);
        return fd;
    }

    /** A program returning {@code ret}, pinned in the private bpffs directory. */
    private String pin(int type, int ret, String name) {
        int fd = load(type, ret, name);
        String path = bpffs.path().resolve(name).toString();
        assertEquals(0, new Bpf().objPin(fd, path));
        return path;
    }

    private void agree(String[] mode, String... words) throws Exception {
        Result b = bpftool(mode, words);
        Result j = jperf(mode, words);
        String what = String.join(" ", words) + " " + String.join(" ", mode);
        assertEquals(b.out(), j.out(), "stdout of " + what);
        assertEquals(b.err(), j.err(), "stderr of " + what);
        assertEquals(b.rc(), j.rc(), "exit code of " + what);
    }

    private Result bpftool(String[] mode, String... words) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(bpftool);
        cmd.addAll(List.of(mode));
        cmd.addAll(List.of(words));
        return exec(cmd);
    }

    private static Result jperf(String[] mode, String... words) {
        List<String> args = new ArrayList<>();
        args.add("bpf");
        args.addAll(List.of(words));
        args.addAll(List.of(mode));
        Run r = Run.of(args.toArray(new String[0]));
        return new Result(r.out(), fromError(r.err()), r.rc());
    }

    private static Result exec(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).start();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new Result(new String(out, StandardCharsets.UTF_8), fromError(err), p.exitValue());
    }

    private static void quietly(String... cmd) {
        try {
            exec(List.of(cmd));
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** stderr from libbpf's kernel message or the {@code Error:} line on (bpftool's usage text left out). */
    private static String fromError(String err) {
        StringBuilder b = new StringBuilder();
        for (String line : err.split("\n")) {
            if (line.startsWith("Error: ") || line.startsWith("libbpf: Kernel error message") || line.startsWith("HINT: ")) {
                b.append(line).append('\n');
            }
        }
        return b.toString();
    }

    private static String cgroup2Root() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/mounts"))) {
            String[] f = line.split(" ");
            if (f.length > 2 && f[2].equals("cgroup2")) {
                return f[1];
            }
        }
        return null;
    }

    private static String find(String tool) {
        for (String dir : (System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin").split(":")) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, tool);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }
}
