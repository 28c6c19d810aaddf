package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import dev.jperf.loader.BpfLink;
import dev.jperf.loader.BpfObject;
import dev.jperf.loader.BpfProgram;
import dev.jperf.loader.LoadOptions;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.Fd;
import dev.jperf.recorder.stat.PrivateBpffsDir;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jperf bpf map create|pin|peek|push|pop|enqueue|dequeue}, {@code prog pin|load|loadall}
 * and {@code link list|show|pin|detach} against bpftool 7.1 run live: each command given to
 * bpftool over its own directory of a private bpffs directory and to jperf over its twin (a
 * {@code @} in a command is the side's directory), in plain, {@code -j} and {@code -p}; stdout,
 * stderr from bpftool's {@code Error:} line on (what precedes it is libbpf's and the verifier's
 * log) and the exit code must be the same, and bpftool must read what jperf pinned as it reads
 * its own pins.
 */
class BpfPinAgreementTest {
    private static final Path SAMPLES = BpfRunCommandTest.SAMPLES;
    private static final Path OBJ = BpfLoadCommandTest.OBJ;
    private static final String[][] MODES = {{}, {"-j"}, {"-p"}};

    private String bpftool;
    private PrivateBpffsDir bpffs;
    private Path bdir;
    private Path jdir;
    private final List<AutoCloseable> open = new ArrayList<>();
    private final List<Integer> fds = new ArrayList<>();

    /** One run: stdout, stderr from the {@code Error:} line on, exit code. */
    record Result(String out, String err, int rc) {}

    @BeforeEach
    void setUp() throws IOException {
        bpftool = findBpftool();
        assumeTrue(bpftool != null, "bpftool is not installed (Debian package bpftool): nothing to compare with");
        bpffs = PrivateBpffsDir.create("jperf-bpfpin");
        bdir = Files.createDirectory(bpffs.path().resolve("b"));
        jdir = Files.createDirectory(bpffs.path().resolve("j"));
    }

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
        for (int fd : fds) {
            Fd.close(fd);
        }
        if (bpffs != null) {
            bpffs.close();
        }
    }

    @Test
    void mapCreateAgrees() throws Exception {
        int i = 0;
        for (String[] mode : MODES) {
            String h = "@/h" + i++;
            agree(mode, "map", "create", h, "type", "hash", "key", "4", "value", "8", "entries", "16", "name", "pin_h",
                    "flags", "1");
            assertEquals(show(bdir, "map", h), show(jdir, "map", h), "the maps created and pinned");
            agree(mode, "map", "create", h, "type", "hash", "key", "4", "value", "8", "entries", "16", "name", "pin_h");
        }
        agree(new String[0], "map", "create", "@/q", "ty", "queue", "k", "0", "v", "4", "e", "3", "n", "pin_q");
        agree(new String[0], "map", "create", "@/aom", "type", "array_of_maps", "key", "4", "value", "4", "entries", "2",
                "name", "pin_aom", "inner_map", "pinned", "@/q");
        assertEquals(show(bdir, "map", "@/aom"), show(jdir, "map", "@/aom"), "the map of maps");
        String[][] bad = {
            {"@/x", "type", "hash", "key", "4", "value", "8", "entries", "16"},
            {"@/x", "type", "hsh", "key", "4", "value", "8", "entries", "16", "name", "x"},
            {"@/x", "type", "hash", "type", "hash", "key", "4", "value", "8", "entries", "16", "name", "x"},
            {"@/x", "type", "hash", "key", "4", "key", "5", "value", "8", "entries", "16", "name", "x"},
            {"@/x", "type", "hash", "key", "0", "key", "5", "value", "8", "entries", "16", "name", "x"},
            {"@/x", "type", "hash", "key", "4x", "value", "8", "entries", "16", "name", "x"},
            {"@/x", "type", "hash", "key", "4", "value", "8", "entries", "16", "name", "x", "bogus", "1"},
            {"@/x", "type", "hash", "key", "4", "value", "8", "entries", "16", "name", "x", "dev", "lo"},
            {"@/x", "type", "hash", "key", "4", "value", "8", "entries", "16", "name", "x", "dev", "nonexistent0"},
            {"@/x", "type", "hash", "key", "4", "value", "8", "entries", "16", "name"},
            {"@/x", "type", "hash"},
            {"@/x", "type", "hash", "key", "0", "value", "8", "entries", "16", "name", "x"},
            {"@/x", "type", "array_of_maps", "key", "4", "value", "4", "entries", "2", "name", "x", "inner_map", "pinned",
                "@/none"},
            {"@/nodir/x", "type", "hash", "key", "4", "value", "8", "entries", "16", "name", "x"},
        };
        i = 0;
        for (String[] b : bad) {
            String[] words = new String[b.length + 2];
            words[0] = "map";
            words[1] = "create";
            System.arraycopy(b, 0, words, 2, b.length);
            agree(MODES[i++ % MODES.length], words);
        }
        assertEquals(tree(bdir), tree(jdir), "the pins made");
    }

    @Test
    void queueAndStackAgree() throws Exception {
        String[][] script = {
            {"push", "pinned", "@/q", "value", "1", "2", "3", "4"},
            {"enqueue", "pinned", "@/q", "value", "hex", "a", "b", "c", "d"},
            {"push", "pinned", "@/q", "value", "5", "6", "7", "8"},
            {"push", "pinned", "@/q", "value", "9", "9", "9", "9"},
            {"push", "pinned", "@/q", "key", "1", "value", "1", "2", "3", "4"},
            {"push", "pinned", "@/q", "value", "1", "2", "3"},
            {"peek", "pinned", "@/q"},
            {"peek", "pinned", "@/q"},
            {"peek", "pinned", "@/q"},
            {"pop", "pinned", "@/q"},
            {"dequeue", "pinned", "@/q"},
            {"pop", "pinned", "@/q"},
            {"pop", "pinned", "@/q"},
            {"dequeue", "pinned", "@/q"},
            {"dequeue", "pinned", "@/q"},
            {"peek", "pinned", "@/q"},
            {"peek", "pinned", "@/q"},
            {"pop", "pinned"},
            {"push", "pinned", "@/s", "value", "1", "0", "0", "0", "0", "0", "0", "0"},
            {"push", "pinned", "@/s", "value", "2", "0", "0", "0", "0", "0", "0", "0"},
            {"pop", "pinned", "@/s"},
            {"peek", "pinned", "@/s"},
            {"pop", "pinned", "@/s"},
            {"pop", "pinned", "@/s"},
        };
        agree(new String[0], "map", "create", "@/q", "type", "queue", "key", "0", "value", "4", "entries", "3", "name", "q");
        agree(new String[0], "map", "create", "@/s", "type", "stack", "key", "0", "value", "8", "entries", "3", "name", "s");
        int i = 0;
        for (String[] step : script) {
            String[] words = new String[step.length + 1];
            words[0] = "map";
            System.arraycopy(step, 0, words, 1, step.length);
            agree(MODES[i++ % MODES.length], words);
        }
    }

    @Test
    void pinsAgree() throws Exception {
        Bpf bpf = new Bpf();
        int map = bpf.mapCreate(1, "pin_twin", 4, 4, 8, 0, 0, 0, 0, 0, 0);
        assumeTrue(map >= 0, "BPF_MAP_CREATE: errno " + -map);
        fds.add(map);
        String id = Integer.toString(mapId(bpf, map));
        int i = 0;
        for (String[] mode : MODES) {
            agree(mode, "map", "pin", "id", id, "@/m" + i);
            assertEquals(show(bdir, "map", "@/m" + i), show(jdir, "map", "@/m" + i));
            agree(mode, "map", "pin", "pinned", "@/m" + i, "@/m" + i);
            agree(mode, "map", "pin", "i", id);
            agree(mode, "map", "pin", "idd", id, "@/x");
            agree(mode, "map", "pin", "id", "9x", "@/x");
            agree(mode, "map", "pin", "id", "2147483647", "@/x");
            agree(mode, "prog", "pin", "pinned", "@/m" + i, "@/x");
            agree(mode, "map", "pin", "id", id, "@/nodir/x");
            i++;
        }
        // a program: loaded once, pinned by both
        agree(new String[0], "prog", "loadall", SAMPLES.resolve("global_data.bpf.o").toString(), "@/all");
        for (String[] mode : MODES) {
            String p = "@/p" + i++;
            agree(mode, "prog", "pin", "pinned", "@/all/on_sys_enter", p);
            assertEquals(show(bdir, "prog", p), show(jdir, "prog", p));
            agree(mode, "prog", "pin", "tag", "zz", p);
            agree(mode, "prog", "pin", "pinned", "@/all/none", p);
        }
    }

    /** bpftool's auto-mount: a pin in a directory outside bpffs mounts one there first. */
    @Test
    void pinOutsideBpffsMountsOne(@TempDir Path tmp) throws Exception {
        Path b = Files.createDirectory(tmp.resolve("b"));
        Path j = Files.createDirectory(tmp.resolve("j"));
        try {
            Result rb = run(bpftool(new String[0], "map", "create", b + "/m", "type", "hash", "key", "4", "value", "4",
                    "entries", "1", "name", "mnt_b"));
            Result rj = jperf(new String[0], "map", "create", j + "/m", "type", "hash", "key", "4", "value", "4",
                    "entries", "1", "name", "mnt_b");
            assertEquals(rb, rj);
            assertEquals(0, rj.rc(), rj.toString());
            assertEquals(show(b, "map", b + "/m"), show(j, "map", j + "/m"));
            assertEquals("bpf", mountType(b));
            assertEquals("bpf", mountType(j));
        } finally {
            unmountAll(b);
            unmountAll(j);
        }
    }

    @Test
    void loadAndLoadallAgree(@TempDir Path tmp) throws Exception {
        String obj = SAMPLES.resolve("global_data.bpf.o").toString();
        int i = 0;
        for (String[] mode : MODES) {
            String d = "@/l" + i++;
            agree(mode, "prog", "loadall", obj, d, "pinmaps", d + "m");
            assertEquals(tree(bdir.resolve(d.substring(2))), tree(jdir.resolve(d.substring(2))));
            assertEquals(tree(bdir.resolve(d.substring(2) + "m")), tree(jdir.resolve(d.substring(2) + "m")));
            assertEquals(show(bdir, "prog", d + "/on_sys_enter"), show(jdir, "prog", d + "/on_sys_enter"));
            assertEquals(xlated(bdir, d + "/on_sys_enter"), xlated(jdir, d + "/on_sys_enter"));
            for (String m : List.of("global_d_data", "global_d_bss", "global_d_rodata")) {
                assertEquals(show(bdir, "map", d + "m/" + m), show(jdir, "map", d + "m/" + m), m);
                assertEquals(dump(bdir, d + "m/" + m), dump(jdir, d + "m/" + m), m);
            }
            agree(mode, "prog", "load", obj, d + "f", "pinmaps", d + "fm");
            assertEquals(show(bdir, "prog", d + "f"), show(jdir, "prog", d + "f"));
            agree(mode, "prog", "load", obj, d + "f");
            agree(mode, "prog", "loadall", obj, d);
        }
        String notBpffs = tmp.resolve("plain").toString();
        String[][] cases = {
            {"load", obj},
            {"loadall", "/nonexistent.bpf.o", "@/x"},
            {"load", OBJ.resolve("kprobe.bpf.o").toString(), "@/kp"},
            {"loadall", OBJ.resolve("fentry.bpf.o").toString(), "@/fe"},
            {"loadall", SAMPLES.resolve("bperf_follower.bpf.o").toString(), "@/bf"},
            {"loadall", obj, "@/x", "map", "name", "nonexistent", "pinned", "@/l0m/global_d_data"},
            {"loadall", obj, "@/mr", "map", "name", "global_d.data", "pinned", "@/l0m/global_d_data"},
            {"loadall", obj, "@/x", "map", "idx", "7", "pinned", "@/l0m/global_d_data"},
            {"loadall", obj, "@/x", "map", "idx", "7x", "pinned", "@/l0m/global_d_data"},
            {"loadall", obj, "@/x", "map", "foo", "7", "pinned", "@/l0m/global_d_data"},
            {"loadall", obj, "@/x", "map", "idx", "7"},
            {"loadall", obj, "@/x", "bogus"},
            {"loadall", obj, "@/x", "autoattach"},
            {"loadall", obj, "@/t1", "type", "raw_tp"},
            {"loadall", obj, "@/x", "type", "xdp"},
            {"loadall", obj, "@/x", "type", "foo"},
            {"loadall", obj, "@/x", "type", "raw_tp", "type", "xdp"},
            {"loadall", obj, "@/x", "type"},
            {"load", obj, "@/t6", "ty", "kprobe"},
            {"loadall", obj, "@/x", "pinmaps"},
            {"loadall", obj, "@/pm", "pinmaps", notBpffs},
        };
        i = 0;
        for (String[] c : cases) {
            String[] words = new String[c.length + 1];
            words[0] = "prog";
            System.arraycopy(c, 0, words, 1, c.length);
            agree(MODES[i++ % MODES.length], words);
        }
        assertEquals(tree(bdir.resolve("mr")), tree(jdir.resolve("mr")));
        assertEquals(show(bdir, "prog", "@/t1/on_sys_enter"), show(jdir, "prog", "@/t1/on_sys_enter"));
        assertEquals(show(bdir, "prog", "@/t6"), show(jdir, "prog", "@/t6"), "loaded as a kprobe");
        // the programs' pins go when the maps' fail; the directory made for them stays, as in bpftool
        assertEquals(tree(bdir.resolve("pm")), tree(jdir.resolve("pm")));
        assertFalse(Files.exists(jdir.resolve("pm/on_sys_enter")));
    }

    /** The chain: {@code prog loadall} with its maps pinned, then the element commands on a pin. */
    @Test
    void loadallThenUpdateAndDumpPinnedMaps() throws Exception {
        String obj = SAMPLES.resolve("global_data.bpf.o").toString();
        Run r = Run.of("bpf", "prog", "loadall", obj, jdir + "/progs", "pinmaps", jdir + "/maps");
        assertEquals(0, r.rc(), r.err());
        String data = jdir + "/maps/global_d_data";
        r = Run.of("bpf", "map", "update", "pinned", data, "key", "0", "0", "0", "0", "value", "42", "0", "0", "0", "0", "0",
                "0", "0");
        assertEquals(0, r.rc(), r.err());
        r = Run.of("bpf", "map", "dump", "pinned", data, "-j");
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("\"calls_seen\":42"), r.out());
        assertEquals(run(List.of(bpftool, "-j", "map", "dump", "pinned", data)).out(), r.out());
        r = Run.of("bpf", "prog", "show", "pinned", jdir + "/progs/on_sys_enter");
        assertEquals(0, r.rc(), r.err());
        assertEquals(run(List.of(bpftool, "prog", "show", "pinned", jdir + "/progs/on_sys_enter")).out(), r.out());
    }

    @Test
    void linksAgree() throws Exception {
        BpfObject raw = BpfObject.open(SAMPLES.resolve("global_data.bpf.o"));
        open.add(raw);
        raw.load(LoadOptions.DEFAULT);
        BpfProgram p = raw.programs().get(0);
        assumeTrue(p.fd() >= 0, "the kernel refused the raw_tp program: " + p.error());
        BpfLink rawLink = BpfLink.attach(p);
        open.add(rawLink);
        BpfObject iter = BpfObject.open(OBJ.resolve("task_iter.bpf.o"));
        open.add(iter);
        iter.load(LoadOptions.DEFAULT);
        BpfProgram ip = iter.programs().get(0);
        assumeTrue(ip.fd() >= 0, "the kernel refused the iterator: " + ip.error());
        open.add(BpfLink.attach(ip));
        List<Integer> ids = new ArrayList<>(List.of(linkOf(p.id()), linkOf(ip.id())));
        int[] cgroup = cgroupLinks(2);
        for (int id : cgroup) {
            ids.add(id);
        }
        for (String[] mode : MODES) {
            for (int id : ids) {
                agree(mode, "link", "show", "id", Integer.toString(id));
            }
            agree(mode, "link", "show", "id", "2147483647");
            agree(mode, "link", "show", "pinned", "@/none");
            agree(mode, "link", "show", "tag", "1");
            agree(mode, "link", "show", "id", "1", "extra");
            agree(mode, "link", "pin", "id", Integer.toString(ids.get(0)), "@/raw");
            agree(mode, "link", "pin", "id", Integer.toString(ids.get(0)), "@/raw");
            agree(mode, "link", "show", "pinned", "@/raw");
            agree(mode, "link", "detach", "pinned", "@/raw");
            agree(mode, "link", "detach", "id");
            agree(mode, "link", "detach", "id", "2147483647");
            Path[] pins = {bdir.resolve("raw"), jdir.resolve("raw")};
            for (int k = 0; k < 2; k++) {
                String[] f = new String[mode.length + 3];
                System.arraycopy(mode, 0, f, 0, mode.length);
                f[mode.length] = "-f";
                f[mode.length + 1] = "link";
                f[mode.length + 2] = "list";
                assertEquals(ours(run(bpftool(f)).out(), ids, mode.length > 0),
                        ours(jperf(new String[] {"-f"}, concat(f, mode.length + 1, mode)).out(), ids, mode.length > 0));
                Files.delete(pins[k]);
            }
            assertEquals(ours(run(bpftool(mode, "link", "list")).out(), ids, mode.length > 0),
                    ours(jperf(mode, "link", "list").out(), ids, mode.length > 0));
        }
        // detach: bpftool one cgroup link, jperf the other; then both show a link without a program
        Result rb = run(bpftool(new String[0], "link", "detach", "id", Integer.toString(cgroup[0])));
        Result rj = jperf(new String[0], "link", "detach", "id", Integer.toString(cgroup[1]));
        assertEquals(rb, rj);
        assertEquals(0, rj.rc(), rj.toString());
        for (String[] mode : MODES) {
            String b = run(bpftool(mode, "link", "show", "id", Integer.toString(cgroup[0]))).out();
            String j = jperf(mode, "link", "show", "id", Integer.toString(cgroup[1])).out();
            // twins apart from their ids and their programs' ids
            assertEquals(b.replace(Integer.toString(cgroup[0]), "ID").replaceAll("prog \\d+|\"prog_id\": ?\\d+", "P"),
                    j.replace(Integer.toString(cgroup[1]), "ID").replaceAll("prog \\d+|\"prog_id\": ?\\d+", "P"));
        }
    }

    /** bpftool on PATH or in /usr/sbin (Debian installs it there), null when absent. */
    static String findBpftool() {
        for (String dir : (System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin").split(":")) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, "bpftool");
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }

    /** The entries of {@code ids} in a {@code link list}: JSON objects or plain blocks, in order. */
    private static String ours(String list, List<Integer> ids, boolean json) {
        StringBuilder b = new StringBuilder();
        if (json) {
            assertTrue(list.strip().startsWith("[") && list.strip().endsWith("]"), list);
            Matcher m = Pattern.compile("\\{\\s*\"id\"\\s*:\\s*(\\d+).*?\\}", Pattern.DOTALL).matcher(list);
            while (m.find()) {
                if (ids.contains(Integer.parseInt(m.group(1)))) {
                    b.append(m.group()).append('\n');
                }
            }
        } else {
            for (String block : list.split("(?m)^(?=\\d+: )")) {
                if (!block.isEmpty() && ids.contains(Integer.parseInt(block.substring(0, block.indexOf(':'))))) {
                    b.append(block);
                }
            }
        }
        assertFalse(b.isEmpty(), list);
        return b.toString();
    }

    private static String[] concat(String[] f, int from, String[] mode) {
        List<String> out = new ArrayList<>(List.of(f).subList(from, f.length));
        out.addAll(List.of(mode));
        return out.toArray(new String[0]);
    }

    /** The link of program {@code progId}, by walking the kernel's links. */
    private static int linkOf(int progId) {
        Bpf bpf = new Bpf();
        Memory info = new Memory(48);
        for (int id = bpf.linkGetNextId(0); id != 0; id = bpf.linkGetNextId(id)) {
            int fd = bpf.linkGetFdById(id);
            if (fd < 0) {
                continue;
            }
            try {
                info.clear();
                bpf.objGetInfoByFd(fd, info, 48);
                if (info.getInt(8) == progId) {
                    return id;
                }
            } finally {
                Fd.close(fd);
            }
        }
        throw new AssertionError("no link of program " + progId);
    }

    /**
     * {@code n} cgroup links, each a cgroup_skb program allowing everything attached to a cgroup
     * of the test's own; skips where there is no cgroup v2 hierarchy.
     */
    private int[] cgroupLinks(int n) throws IOException {
        String root = null;
        for (String line : Files.readAllLines(Path.of("/proc/mounts"))) {
            String[] f = line.split(" ");
            if (f.length > 2 && f[2].equals("cgroup2")) {
                root = f[1];
                break;
            }
        }
        assumeTrue(root != null, "no cgroup v2 hierarchy mounted");
        Bpf bpf = new Bpf();
        // r0 = 1 (allow); exit
        byte[] insns = {(byte) 0xb7, 0, 0, 0, 1, 0, 0, 0, (byte) 0x95, 0, 0, 0, 0, 0, 0, 0};
        int[] ids = new int[n];
        for (int k = 0; k < n; k++) {
            Path cg = Files.createTempDirectory(Path.of(root), "jperf-link");
            open.add(() -> Files.delete(cg));
            int dirFd = Function.getFunction("c", "open").invokeInt(new Object[] {cg.toString(), 0x10000});
            assertTrue(dirFd >= 0, "open " + cg);
            fds.add(dirFd);
            int prog = bpf.progLoad(8, insns, "GPL", "jperf_cg" + k, 0, 0, 0);
            fds.add(prog);
            int link = bpf.linkCreate(prog, dirFd, 0);
            fds.add(link);
            Memory info = new Memory(48);
            info.clear();
            bpf.objGetInfoByFd(link, info, 48);
            ids[k] = info.getInt(4);
        }
        return ids;
    }

    private static int mapId(Bpf bpf, int fd) {
        Memory m = new Memory(88);
        m.clear();
        bpf.objGetInfoByFd(fd, m, 88);
        return m.getInt(4);
    }

    /** Both tools given {@code words} (with {@code @} their directory): the same result. */
    private void agree(String[] mode, String... words) throws Exception {
        Result b = run(bpftool(mode, words));
        Result j = jperf(mode, words);
        String what = "bpftool " + String.join(" ", mode) + " " + String.join(" ", words);
        assertEquals(b.out().replace(bdir.toString(), "@"), j.out().replace(jdir.toString(), "@"), what + ": stdout");
        assertEquals(b.err().replace(bdir.toString(), "@"), j.err().replace(jdir.toString(), "@"), what + ": stderr");
        assertEquals(b.rc(), j.rc(), what + ": exit code");
    }

    private List<String> bpftool(String[] mode, String... words) {
        List<String> cmd = new ArrayList<>();
        cmd.add(bpftool);
        cmd.addAll(List.of(mode));
        for (String w : words) {
            cmd.add(w.replace("@", bdir.toString()));
        }
        return cmd;
    }

    private Result jperf(String[] mode, String... words) {
        List<String> args = new ArrayList<>();
        args.add("bpf");
        for (String w : words) {
            args.add(w.replace("@", jdir.toString()));
        }
        args.addAll(List.of(mode));
        Run r = Run.of(args.toArray(new String[0]));
        return new Result(r.out(), fromError(r.err()), r.rc());
    }

    private static Result run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).start();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new Result(new String(out, StandardCharsets.UTF_8), fromError(err), p.exitValue());
    }

    /** stderr from the {@code Error:} line on. */
    private static String fromError(String err) {
        int at = err.startsWith("Error: ") ? 0 : err.indexOf("\nError: ");
        return at < 0 ? "" : err.substring(at == 0 ? 0 : at + 1);
    }

    /** bpftool's {@code OBJECT show pinned PATH} without what differs between twins (ids, times). */
    private String show(Path side, String object, String path) throws Exception {
        String p = path.replace("@", side.toString());
        String plain = run(List.of(bpftool, object, "show", "pinned", p)).out();
        String json = run(List.of(bpftool, "-j", object, "show", "pinned", p)).out();
        assertFalse(plain.isEmpty(), object + " " + p);
        return (plain + json).replaceAll("(?m)^\\d+:", "N:").replaceAll("\"id\":\\d+", "\"id\":N")
                .replaceAll("loaded_at \\S+", "").replaceAll("\"loaded_at\":\\d+", "")
                .replaceAll("map_ids \\S+", "").replaceAll("\"map_ids\":\\[[\\d,]*\\]", "")
                .replaceAll("btf_id \\d+", "").replaceAll("\"btf_id\":\\d+", "");
    }

    private String xlated(Path side, String path) throws Exception {
        return run(List.of(bpftool, "prog", "dump", "xlated", "pinned", path.replace("@", side.toString()))).out()
                .replaceAll("map\\[id:\\d+\\]", "map[id:N]");
    }

    private String dump(Path side, String path) throws Exception {
        return run(List.of(bpftool, "-j", "map", "dump", "pinned", path.replace("@", side.toString()))).out();
    }

    /** The names and modes under {@code dir}. */
    private static String tree(Path dir) throws IOException {
        StringBuilder b = new StringBuilder();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted().toList()) {
                b.append(dir.relativize(p)).append(' ')
                        .append(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(p)))
                        .append('\n');
            }
        }
        return b.toString();
    }

    /** Unmounts what the commands mounted on {@code dir} (bpffs, and the bind mount under it). */
    private static void unmountAll(Path dir) throws IOException {
        Function umount = Function.getFunction("c", "umount");
        for (int k = 0; k < 4 && mounted(dir); k++) {
            umount.invokeInt(new Object[] {dir.toString()});
        }
    }

    private static boolean mounted(Path dir) throws IOException {
        return mountType(dir) != null;
    }

    /** The type of the top mount on {@code dir} (the last entry for it), null when none. */
    private static String mountType(Path dir) throws IOException {
        String type = null;
        for (String line : Files.readAllLines(Path.of("/proc/self/mounts"))) {
            String[] f = line.split(" ");
            if (f[1].equals(dir.toString())) {
                type = f[2];
            }
        }
        return type;
    }
}
