package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Memory;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.Fd;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jperf bpf prog attach|detach|run|profile} against bpftool 7.1 run live, in plain,
 * {@code -j} and {@code -p}: each command given to bpftool on one program (and map) the test
 * loaded and to jperf on its twin ({@code {P}}, {@code {M}} in a command are the side's ids,
 * {@code @} the side's directory); stdout, stderr from bpftool's {@code Error:} line on and the
 * exit code must be the same. A run's duration is the kernel's measure and differs run to run:
 * it is compared as a number.
 */
class BpfProgRunAgreementTest {
    private static final String[][] MODES = {{}, {"-j"}, {"-p"}};
    /** BPF_PROG_TYPE_SK_SKB, BPF_MAP_TYPE_SOCKMAP. */
    private static final int SK_SKB = 14, SOCKMAP = 15, XDP = 6, KPROBE = 2;

    private final Bpf bpf = new Bpf();
    private final List<Integer> fds = new ArrayList<>();
    private String bpftool;
    @TempDir
    Path tmp;
    private Path bdir;
    private Path jdir;

    /** One side: its program's and map's ids. */
    private record Side(int prog, int map, Path dir) {}

    record Result(String out, String err, int rc) {}

    @BeforeEach
    void setUp() throws IOException {
        bpftool = BpfPinAgreementTest.findBpftool();
        assumeTrue(bpftool != null, "bpftool is not installed (Debian package bpftool): nothing to compare with");
        Privilege.assumeBpf();
        bdir = Files.createDirectory(tmp.resolve("b"));
        jdir = Files.createDirectory(tmp.resolve("j"));
    }

    @AfterEach
    void tearDown() {
        for (int fd : fds) {
            Fd.close(fd);
        }
    }

    /** r0 = {@code ret}; exit. */
    private static byte[] returns(int ret) {
        return new byte[] {(byte) 0xb7, 0, 0, 0, (byte) ret, 0, 0, 0, (byte) 0x95, 0, 0, 0, 0, 0, 0, 0};
    }

    private int load(int type, int ret, String name) {
        int fd = bpf.progLoad(type, returns(ret), "GPL", name);
        fds.add(fd);
        return fd;
    }

    private int map(int type, String name) {
        int fd = bpf.mapCreate(type, name, 4, 4, 2, 0, 0, 0, 0, 0, 0);
        assumeTrue(fd >= 0, "BPF_MAP_CREATE of type " + type + ": errno " + -fd);
        fds.add(fd);
        return fd;
    }

    private int id(int fd, int idAt) {
        Memory m = new Memory(256);
        m.clear();
        bpf.objGetInfoByFd(fd, m, 256);
        return m.getInt(idAt);
    }

    @Test
    void attachDetachAgree() throws Exception {
        Side b = new Side(id(load(SK_SKB, 1, "run_twin_b"), 4), id(map(SOCKMAP, "run_twin_b"), 4), bdir);
        Side j = new Side(id(load(SK_SKB, 1, "run_twin_j"), 4), id(map(SOCKMAP, "run_twin_j"), 4), jdir);
        int i = 0;
        for (String type : List.of("stream_verdict", "sk_skb_stream_parser", "skb_verdict", "stream_p")) {
            String[] mode = MODES[i++ % MODES.length];
            agree(b, j, mode, "prog", "attach", "id", "{P}", type, "id", "{M}");
            agree(b, j, mode, "prog", "attach", "id", "{P}", type, "id", "{M}");
            agree(b, j, mode, "prog", "detach", "id", "{P}", type, "id", "{M}");
            agree(b, j, mode, "prog", "detach", "id", "{P}", type, "id", "{M}");
        }
        String[][] bad = {
            {"attach", "id", "{P}"},
            {"attach", "id", "{P}", "bogus", "id", "{M}"},
            {"attach", "id", "{P}", "sk_skb_verdic", "id", "{M}"},
            {"attach", "id", "{P}", "stream_verdict"},
            {"attach", "id", "{P}", "stream_verdict", "id"},
            {"attach", "id", "{P}", "stream_verdict", "id", "2147483647"},
            {"attach", "id", "2147483647", "stream_verdict", "id", "{M}"},
            {"attach", "bogus", "{P}", "stream_verdict", "id", "{M}"},
            {"attach", "id", "{P}", "msg_verdict", "id", "{M}"},
            {"detach", "id", "{P}", "", "id", "{M}"},
            {"attach", "id", "{M}", "stream_verdict", "id", "{P}"},
        };
        for (String[] c : bad) {
            String[] words = new String[c.length + 1];
            words[0] = "prog";
            System.arraycopy(c, 0, words, 1, c.length);
            agree(b, j, MODES[i++ % MODES.length], words);
        }
    }

    @Test
    void runAgrees() throws Exception {
        Side b = new Side(id(load(XDP, 2, "run_xdp"), 4), 0, bdir);
        Side j = new Side(id(load(XDP, 2, "run_xdp"), 4), 0, jdir);
        byte[] packet = new byte[70];
        for (int k = 0; k < packet.length; k++) {
            packet[k] = (byte) (k * 7 + 30);
        }
        Files.write(bdir.resolve("in"), packet);
        Files.write(jdir.resolve("in"), packet);
        Files.write(bdir.resolve("short"), new byte[3]);
        Files.write(jdir.resolve("short"), new byte[3]);
        String[][] cases = {
            {"run", "id", "{P}", "data_in", "@/in"},
            {"run", "id", "{P}", "data_in", "@/in", "data_out", "-"},
            {"run", "id", "{P}", "data_in", "@/in", "data_out", "-", "repeat", "3"},
            {"run", "id", "{P}", "data_in", "@/in", "data_out", "@/out", "repeat", "0x2"},
            {"run", "id", "{P}", "data_in", "@/in", "data_out", "-", "data_size_out", "10"},
            {"run", "id", "{P}", "data_in", "@/short", "data_out", "-"},
            {"run", "id", "{P}", "data_in", "@/in", "ctx_in", "@/short"},
            {"run", "id", "{P}", "data_in", "@/none"},
            {"run", "id", "{P}", "data_in", "-", "ctx_in", "-"},
            {"run", "id", "{P}", "data", "@/in"},
            {"run", "id", "{P}", "ctx", "@/in"},
            {"run", "id", "{P}", "data_in", "@/in", "repeat", "3x"},
            {"run", "id", "{P}", "data_in", "@/in", "data_size_out", "x"},
            {"run", "id", "{P}", "data_in", "@/in", "ctx_size_out", "-"},
            {"run", "id", "{P}", "data_in", "@/in", "repeat"},
            {"run", "id", "{P}", "data_in", "@/in", "bogus", "1"},
            {"run", "id", "{P}", "data_in"},
            {"run", "id", "2147483647", "data_in", "@/in"},
            {"run", "id", "{P}", "ctx_in", "@/in"},
        };
        int i = 0;
        for (String[] c : cases) {
            for (String[] mode : MODES) {
                String[] words = new String[c.length + 1];
                words[0] = "prog";
                System.arraycopy(c, 0, words, 1, c.length);
                agree(b, j, mode, words);
            }
            i++;
        }
        assertEquals(List.of(Files.readAllBytes(bdir.resolve("out")).length),
                List.of(Files.readAllBytes(jdir.resolve("out")).length));
        assertTrue(java.util.Arrays.equals(packet, Files.readAllBytes(jdir.resolve("out"))), "XDP_PASS leaves the packet");
        // a program type the kernel does not test-run
        Side kb = new Side(id(load(KPROBE, 0, "run_kp"), 4), 0, bdir);
        Side kj = new Side(id(load(KPROBE, 0, "run_kp"), 4), 0, jdir);
        for (String[] mode : MODES) {
            agree(kb, kj, mode, "prog", "run", "id", "{P}", "data_in", "@/in");
        }
    }

    /** event_pipe's refusals (reading is {@code TraceOutputAgreementTest}'s, in the bpf module). */
    @Test
    void eventPipeErrorsAgree() throws Exception {
        Side b = new Side(0, id(map(4, "evp_b"), 4), bdir);
        Side j = new Side(0, id(map(4, "evp_j"), 4), jdir);
        Side sb = new Side(0, id(map(SOCKMAP, "evp_sb"), 4), bdir);
        Side sj = new Side(0, id(map(SOCKMAP, "evp_sj"), 4), jdir);
        String[][] cases = {
            {"map", "event_pipe", "id", "{M}", "cpu", "0"},
            {"map", "event_pipe", "id", "{M}", "index", "0"},
            {"map", "event_pipe", "id", "{M}", "cpu", "x", "index", "0"},
            {"map", "event_pipe", "id", "{M}", "cpu", "0", "index", "0x"},
            {"map", "event_pipe", "id", "{M}", "cpu"},
            {"map", "event_pipe", "id", "{M}", "bogus", "1"},
            {"map", "event_pipe", "id", "2147483647"},
            {"map", "event_pipe"},
        };
        for (String[] mode : MODES) {
            for (String[] c : cases) {
                agree(b, j, mode, c);
            }
            agree(sb, sj, mode, "map", "event_pipe", "id", "{M}");
        }
    }

    /**
     * {@code batch file FILE}: the same files (comments, continuations, quotes, blank lines, a
     * failing command, bad quoting or continuation) run by both on the same program and map.
     */
    @Test
    void batchAgrees() throws Exception {
        int prog = id(load(XDP, 2, "batch_prog"), 4);
        int map = id(map(2, "batch_map"), 4);
        Side b = new Side(prog, map, bdir);
        Side j = new Side(prog, map, jdir);
        String[][] files = {
            {"ok", "# a comment\nmap show id {M}\nprog show id {P}   # trailing\n\n  \t\nmap dump \\\n  id {M}\n"
                + "map show name 'batch_map'\n\"prog\" show id {P}\nmap lookup id {M} key 1 0 0 0\nm getnext id {M} key 0 0 0 0"},
            {"fails", "map show id {M}\nmap show id 2147483647\nprog show id {P}\n"},
            {"quote", "map show id {M}\nmap show name 'batch_map\n"},
            {"cont", "map show id {M}\nmap show \\\n"},
            {"miss", "map lookup id {M} key 9 0 0 0\nmap show id {M}\n"},
            {"empty", "# nothing\n\n"},
        };
        for (String[] f : files) {
            Files.writeString(bdir.resolve(f[0]), subst(f[1], b));
            Files.writeString(jdir.resolve(f[0]), subst(f[1], j));
        }
        Result ok = jperf(j, new String[0], "batch", "file", "@/ok");
        assertTrue(ok.out().endsWith("processed 7 commands\n") && ok.out().contains("batch_map"), ok.toString());
        for (String[] mode : MODES) {
            for (String[] f : files) {
                agree(b, j, mode, "batch", "file", "@/" + f[0]);
            }
            agree(b, j, mode, "batch", "fil", "@/ok");
            agree(b, j, mode, "batch", "file");
            agree(b, j, mode, "batch", "foo", "@/ok");
            agree(b, j, mode, "batch", "file", "@/none");
            agree(b, j, mode, "batch", "file", "@/ok", "extra");
        }
    }

    /**
     * {@code batch file FILE} with the other objects' commands (struct_ops, perf, net, cgroup,
     * iter, gen), each file run by both. bpftool 7.1 ends a batch by reporting whatever errno its
     * last command left ({@code reading batch file failed: ...}, exit 255) even when every command
     * succeeded: jperf does not copy that; there the commands' output before bpftool's report must
     * be the same and jperf must have said {@code processed N commands}.
     */
    @Test
    void batchEveryObjectAgrees() throws Exception {
        Side b = new Side(0, 0, bdir);
        Side j = new Side(0, 0, jdir);
        String[][] files = {
            {"sops", "struct_ops list\nstruct_ops show id 2147483647\n"},
            {"sopsname", "struct_ops dump name no_such_ops\n"},
            {"sopshelp", "struct_ops help\nstruct_ops list\n"},
            {"perf", "perf list\n"},
            {"net", "net list\n"},
            {"netbad", "net attach bogus id 1 dev lo\n"},
            {"cgroup", "cgroup tree\n"},
            {"cgroupbad", "cgroup show @/none\n"},
            {"iter", "iter pin @/none @/pin\n"},
            {"gen", "gen skeleton @/none\n"},
            {"genhelp", "gen help\n"},
            {"unknown", "bogus list\n"},
        };
        for (String[] f : files) {
            Files.writeString(bdir.resolve(f[0]), subst(f[1], b));
            Files.writeString(jdir.resolve(f[0]), subst(f[1], j));
        }
        for (String[] mode : MODES) {
            for (String[] f : files) {
                List<String> words = List.of("batch", "file", "@/" + f[0]);
                String what = "bpftool " + String.join(" ", mode) + " batch file " + f[1];
                Result rb = run(bpftool(b, mode, words.toArray(new String[0])));
                Result rj = jperf(j, mode, words.toArray(new String[0]));
                if ((rb.out() + rb.err()).contains("reading batch file failed: ") && rb.rc() == 255) {
                    String jout = normalize(rj.out(), j);
                    String bout = normalize(rb.out(), b);
                    if (mode.length == 0) {
                        assertTrue(jout.matches("(?s).*processed \\d+ commands\n"), what + ": " + rj);
                        assertEquals(bout, jout.replaceAll("processed \\d+ commands\n$", ""), what + ": stdout");
                    } else {
                        // bpftool's error object closes its array; jperf's array has the same commands
                        assertEquals(bout.replaceAll("(?s),?\\s*\\{\\s*\"error\":.*$", ""),
                                jout.replaceAll("(?s)\\s*\\]\\s*$", ""), what + ": stdout");
                    }
                    assertEquals(0, rj.rc(), what + ": " + rj);
                } else {
                    assertEquals(normalize(rb.out(), b), normalize(rj.out(), j), what + ": stdout");
                    assertEquals(normalize(rb.err(), b), normalize(rj.err(), j), what + ": stderr");
                    assertEquals(rb.rc(), rj.rc(), what + ": exit code");
                }
            }
        }
    }

    /** {@code OBJECT help}: the usage on stderr (jperf's words, not bpftool's), {@code null} with -j; exit 0. */
    @Test
    void helpAgrees() throws Exception {
        Side s = new Side(0, 0, bdir);
        for (String object : List.of("prog", "map")) {
            for (String[] mode : MODES) {
                Result b = run(bpftool(s, mode, object, "help"));
                Result j = jperf(s, mode, object, "help");
                assertEquals(b.out(), j.out(), object + " help " + String.join(" ", mode));
                assertEquals(b.rc(), j.rc());
            }
            Run r = Run.of("bpf", object, "help");
            assertTrue(r.out().isEmpty() && r.err().contains("jperf bpf " + object + " ") && r.rc() == 0, r.toString());
        }
        assertTrue(Run.of("bpf", "prog", "help").err().contains("prog run PROG data_in FILE"));
        assertTrue(Run.of("bpf", "map", "help").err().contains("map event_pipe MAP [cpu N index M]"));
    }

    /**
     * {@code prog profile}: not in jperf, nor in Debian's bpftool (built without skeletons). The
     * same exit code and where the message goes (stderr, or the error object with -j); jperf's
     * line says why, matching bpftool's own probe of tracing programs on this kernel.
     */
    @Test
    void profileAgrees() throws Exception {
        Side b = new Side(id(load(XDP, 2, "prof_b"), 4), 0, bdir);
        Side j = new Side(id(load(XDP, 2, "prof_j"), 4), 0, jdir);
        Result probe = run(List.of(bpftool, "feature", "probe", "kernel"));
        String all = probe.out();
        assumeTrue(all.contains("eBPF program_type tracing is"), "bpftool feature probe: " + probe);
        boolean fentry = !all.contains("eBPF program_type tracing is NOT available");
        String reason = fentry ? "which jperf does not load for it" : "which this kernel refuses";
        for (String[] mode : MODES) {
            for (String[] words : new String[][] {{"prog", "profile", "id", "{P}", "duration", "1", "cycles"}, {"prog", "profile"}}) {
                String what = "bpftool " + String.join(" ", mode) + " " + String.join(" ", words);
                Result rb = run(bpftool(b, mode, words));
                Result rj = jperf(j, mode, words);
                assertEquals(rb.rc(), rj.rc(), what + ": exit code");
                if (mode.length == 0) {
                    assertEquals(rb.out(), rj.out(), what + ": stdout");
                    assertTrue(rb.err().startsWith("Error: ") && rj.err().startsWith("Error: jperf bpf prog profile is not supported")
                            && rj.err().contains(reason) && rj.err().indexOf('\n') == rj.err().length() - 1, what + ": " + rj);
                } else {
                    String pattern = "(?s)\\{\\s*\"error\": ?\"[^\"]*\"\\s*\\}\\s*";
                    assertTrue(rb.out().matches(pattern) && rj.out().matches(pattern) && rj.out().contains(reason), what + ": " + rj);
                    assertEquals(rb.out().replaceAll("\"[^\"]*\"\\s*}", "\"\"}"), rj.out().replaceAll("\"[^\"]*\"\\s*}", "\"\"}"), what);
                }
            }
        }
    }

    private void agree(Side b, Side j, String[] mode, String... words) throws Exception {
        Result rb = run(bpftool(b, mode, words));
        Result rj = jperf(j, mode, words);
        String what = "bpftool " + String.join(" ", mode) + " " + String.join(" ", words);
        assertEquals(normalize(rb.out(), b), normalize(rj.out(), j), what + ": stdout");
        assertEquals(normalize(rb.err(), b), normalize(rj.err(), j), what + ": stderr");
        assertEquals(rb.rc(), rj.rc(), what + ": exit code");
    }

    /** The side's directory and ids as placeholders, a run's duration checked as a number and hidden. */
    private static String normalize(String s, Side side) {
        String t = s.replace(side.dir().toString(), "@");
        if (side.prog() != 0) {
            t = t.replace("(" + side.prog() + ")", "({P})");
        }
        if (side.map() != 0) {
            t = t.replace("(" + side.map() + ")", "({M})");
        }
        return t
                .replaceAll("duration( \\(average\\))?: \\d+ns", "duration$1: Nns")
                .replaceAll("\"duration\":( ?)\\d+", "\"duration\":$1N");
    }

    private static String subst(String w, Side s) {
        return w.replace("@", s.dir().toString()).replace("{P}", Integer.toString(s.prog()))
                .replace("{M}", Integer.toString(s.map()));
    }

    private List<String> bpftool(Side s, String[] mode, String... words) {
        List<String> cmd = new ArrayList<>();
        cmd.add(bpftool);
        cmd.addAll(List.of(mode));
        for (String w : words) {
            cmd.add(subst(w, s));
        }
        return cmd;
    }

    private static Result jperf(Side s, String[] mode, String... words) {
        List<String> args = new ArrayList<>();
        args.add("bpf");
        for (String w : words) {
            args.add(subst(w, s));
        }
        args.addAll(List.of(mode));
        Run r = Run.of(args.toArray(new String[0]));
        return new Result(r.out(), fromError(r.err()), r.rc());
    }

    private static Result run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
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
}
