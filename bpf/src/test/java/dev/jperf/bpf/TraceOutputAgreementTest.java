package dev.jperf.bpf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code prog tracelog} and {@code map event_pipe} against bpftool 7.1 live (see each test); tracelog: a raw_tp program of the test's calling
 * bpf_trace_printk with a marker unique to the run is test-run; bpftool's {@code prog tracelog}
 * (stopped with SIGTERM: exit 0) and jperf's each read the line it writes, in plain and
 * {@code -j}; the two lines must be the same line apart from the task, CPU, flags and time fields.
 */
class TraceOutputAgreementTest {
    private static final int RAW_TRACEPOINT = 17;
    /** A trace_pipe line: task-pid, [cpu], flags, time, then the event. */
    private static final Pattern LINE = Pattern.compile("^ *(.+)-(\\d+) +\\[(\\d+)\\] (\\S+) +(\\d+\\.\\d+): (.*)$");

    private final Bpf bpf = new Bpf();
    private String bpftool;
    private int prog = -1;

    @BeforeEach
    void setUp() {
        bpftool = BpftoolAgreementTest.findBpftool();
        assumeTrue(bpftool != null, "bpftool is not installed (Debian package bpftool): nothing to compare with");
        try {
            bpf.progGetNextId(0);
        } catch (NativeException e) {
            assumeTrue(false, "bpf(2) refused here: " + e.getMessage());
        }
    }

    @AfterEach
    void tearDown() {
        if (prog >= 0) {
            Fd.close(prog);
        }
    }

    /** A raw_tp program printing {@code text} (at most 15 bytes) with bpf_trace_printk. */
    private int printk(String text) {
        byte[] s = new byte[16];
        byte[] t = text.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(t, 0, s, 0, t.length);
        ByteBuffer b = ByteBuffer.allocate(12 * 8).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer str = ByteBuffer.wrap(s).order(ByteOrder.LITTLE_ENDIAN);
        for (int half = 0; half < 2; half++) {
            long v = str.getLong(half * 8);
            insn(b, 0x18, 1, 0, 0, (int) v); // r1 = imm64
            insn(b, 0, 0, 0, 0, (int) (v >>> 32));
            insn(b, 0x7b, 10, 1, -16 + half * 8, 0); // *(u64 *)(r10 - 16 + 8 * half) = r1
        }
        insn(b, 0xbf, 1, 10, 0, 0); // r1 = r10
        insn(b, 0x07, 1, 0, 0, -16); // r1 += -16
        insn(b, 0xb7, 2, 0, 0, t.length + 1); // r2 = size, with the NUL
        insn(b, 0x85, 0, 0, 0, 6); // call bpf_trace_printk
        insn(b, 0xb7, 0, 0, 0, 0); // r0 = 0
        insn(b, 0x95, 0, 0, 0, 0); // exit
        return bpf.progLoad(RAW_TRACEPOINT, b.array(), "GPL", "tracelog_test");
    }

    private static void insn(ByteBuffer b, int code, int dst, int src, int off, int imm) {
        b.put((byte) code).put((byte) (src << 4 | dst)).putShort((short) off).putInt(imm);
    }

    @Test
    void tracelogAgrees() throws Exception {
        String marker = "jpt" + Long.toString(System.nanoTime() % 1_000_000_000L, 36);
        prog = printk(marker);
        for (boolean json : new boolean[] {false, true}) {
            String b = bpftoolLine(json, marker);
            String j = jperfLine(json, marker);
            assertEquals(shape(b, json), shape(j, json), "bpftool's line " + b + ", jperf's " + j);
        }
    }

    /** The line with the task, pid, CPU and time fields made placeholders; the event kept whole. */
    private static String shape(String line, boolean json) {
        String s = json ? line.replace("\\n", "\n") : line;
        String[] parts = s.split("\n", -1);
        Matcher m = LINE.matcher(parts[0]);
        assertTrue(m.matches(), s);
        // the flags are the context the test run happened in (an IPI to CPU 0, or not): the kernel's
        return "T-P [C] F S: " + m.group(6) + "|" + (parts.length > 1 ? parts[1] : "");
    }

    private String bpftoolLine(boolean json, String marker) throws Exception {
        ProcessBuilder pb = json ? new ProcessBuilder(bpftool, "-j", "prog", "tracelog")
                : new ProcessBuilder(bpftool, "prog", "tracelog");
        java.io.File errFile = java.io.File.createTempFile("tracelog", ".err");
        errFile.deleteOnExit();
        Process p = pb.redirectError(errFile).start();
        try {
            Thread.sleep(300);
            trigger();
            String line;
            if (json) {
                // bpftool's JSON writer flushes at exit only: the whole array after SIGTERM
                Thread.sleep(1000);
                p.toHandle().destroy();
                String all = new String(p.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                assertTrue(all.startsWith("[") && all.endsWith("]\n"), all + java.nio.file.Files.readString(errFile.toPath()));
                line = lineWith(all, marker, true);
            } else {
                line = untilMarker(p.getInputStream(), marker, errFile);
                p.toHandle().destroy(); // SIGTERM: bpftool's exit_tracelog
            }
            assertTrue(p.waitFor(10, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue());
            return line;
        } finally {
            p.destroyForcibly();
        }
    }

    private String jperfLine(boolean json, String marker) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream sink = new PrintStream(bytes, true, StandardCharsets.ISO_8859_1);
        Output out = new Output(json, false, sink);
        CountDownLatch stop = new CountDownLatch(1);
        Throwable[] failed = new Throwable[1];
        Thread t = new Thread(() -> {
            try {
                new Tracelog(out, System.err).run(stop);
            } catch (Throwable e) {
                failed[0] = e;
            }
        });
        t.start();
        try {
            Thread.sleep(300);
            trigger();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!bytes.toString(StandardCharsets.ISO_8859_1).contains(marker) && System.nanoTime() < end
                    && failed[0] == null) {
                Thread.sleep(20);
            }
        } finally {
            stop.countDown();
            t.join(5000);
        }
        assertEquals(null, failed[0]);
        String all = bytes.toString(StandardCharsets.ISO_8859_1) + out.finish();
        if (json) {
            assertTrue(all.startsWith("[") && all.endsWith("]\n"), all);
        }
        return lineWith(all, marker, json);
    }

    /** The program run once (BPF_PROG_TEST_RUN on CPU 0): one line in the trace pipe. */
    private void trigger() {
        assertEquals(0, bpf.progTestRunOnCpu(prog, 0));
    }

    private static String untilMarker(InputStream in, String marker, java.io.File err) throws IOException {
        StringBuilder got = new StringBuilder();
        byte[] buf = new byte[4096];
        int n;
        while (!got.toString().contains(marker) && (n = in.read(buf)) > 0) {
            got.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
        }
        // the rest of the marker's line (plain) or string (JSON)
        while (got.indexOf("\n", got.indexOf(marker)) < 0 && (n = in.read(buf)) > 0) {
            got.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
        }
        String s = got.toString();
        assertTrue(s.contains(marker), s + "; bpftool's stderr: " + java.nio.file.Files.readString(err.toPath()));
        return lineWith(s, marker, s.startsWith("["));
    }

    /** The trace line holding {@code marker}: a plain line, or the JSON string's text. */
    private static String lineWith(String all, String marker, boolean json) {
        int at = all.indexOf(marker);
        assertTrue(at >= 0, all);
        if (json) {
            int start = all.lastIndexOf('"', at);
            int end = all.indexOf('"', at);
            return all.substring(start + 1, end);
        }
        int start = all.lastIndexOf('\n', at) + 1;
        int end = all.indexOf('\n', at);
        return all.substring(start, end);
    }
    /**
     * A raw_tp program writing {@code text} (16 bytes) to perf event array {@code mapFd} at
     * {@code index} (-1: BPF_F_CURRENT_CPU, its CPU's).
     */
    private int output(String text, int mapFd, int index) {
        byte[] s = new byte[16];
        byte[] t = text.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(t, 0, s, 0, t.length);
        ByteBuffer b = ByteBuffer.allocate(20 * 8).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer str = ByteBuffer.wrap(s).order(ByteOrder.LITTLE_ENDIAN);
        insn(b, 0xbf, 6, 1, 0, 0); // r6 = r1 (ctx)
        for (int half = 0; half < 2; half++) {
            long v = str.getLong(half * 8);
            insn(b, 0x18, 1, 0, 0, (int) v);
            insn(b, 0, 0, 0, 0, (int) (v >>> 32));
            insn(b, 0x7b, 10, 1, -16 + half * 8, 0);
        }
        insn(b, 0xbf, 1, 6, 0, 0); // r1 = ctx
        insn(b, 0x18, 2, 1, 0, mapFd); // r2 = map (BPF_PSEUDO_MAP_FD)
        insn(b, 0, 0, 0, 0, 0);
        insn(b, 0x18, 3, 0, 0, index); // r3 = the flags: the index, or BPF_F_CURRENT_CPU
        insn(b, 0, 0, 0, 0, 0);
        insn(b, 0xbf, 4, 10, 0, 0); // r4 = r10
        insn(b, 0x07, 4, 0, 0, -16); // r4 += -16
        insn(b, 0xb7, 5, 0, 0, 16); // r5 = 16
        insn(b, 0x85, 0, 0, 0, 25); // call bpf_perf_event_output
        insn(b, 0xb7, 0, 0, 0, 0);
        insn(b, 0x95, 0, 0, 0, 0);
        byte[] code = new byte[b.position()];
        b.flip().get(code);
        return bpf.progLoad(RAW_TRACEPOINT, code, "GPL", "evpipe_test");
    }

    /**
     * {@code map event_pipe}: bpftool on one perf event array, jperf on its twin, each written
     * twice by its own program run on CPU 0; both stopped by a signal (bpftool's SIGTERM, jperf's
     * stop), stdout the same but for the records' times, in plain and {@code -j}.
     */
    @Test
    void eventPipeAgrees() throws Exception {
        int cpus = PossibleCpus.count();
        for (String[] mode : new String[][] {{}, {"-j"}, {"-p"}, {"cpu", "0", "index", "1"}}) {
            boolean json = mode.length == 1;
            boolean one = mode.length == 4;
            int bMap = bpf.mapCreate(4, "evpipe_b", 4, 4, cpus, 0, 0, 0, 0, 0, 0);
            int jMap = bpf.mapCreate(4, "evpipe_j", 4, 4, cpus, 0, 0, 0, 0, 0, 0);
            assumeTrue(bMap >= 0 && jMap >= 0, "BPF_MAP_CREATE of a perf event array: errno " + -Math.min(bMap, jMap));
            int bProg = -1, jProg = -1;
            try {
                bProg = output("evpipe_marker_b", bMap, one ? 1 : -1);
                jProg = output("evpipe_marker_j", jMap, one ? 1 : -1);
                String bId = Integer.toString(id(bMap)), jId = Integer.toString(id(jMap));
                List<String> cmd = new java.util.ArrayList<>(List.of(bpftool));
                if (json) {
                    cmd.add(mode[0]);
                }
                cmd.addAll(List.of("map", "event_pipe", "id", bId));
                if (one) {
                    cmd.addAll(List.of(mode));
                }
                java.io.File errFile = java.io.File.createTempFile("evpipe", ".err");
                errFile.deleteOnExit();
                Process p = new ProcessBuilder(cmd).redirectError(errFile).start();
                String b;
                try {
                    Thread.sleep(500);
                    assertEquals(0, bpf.progTestRunOnCpu(bProg, 0));
                    assertEquals(0, bpf.progTestRunOnCpu(bProg, 0));
                    Thread.sleep(700);
                    p.toHandle().destroy();
                    b = new String(p.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                    assertTrue(p.waitFor(10, TimeUnit.SECONDS));
                    assertEquals(0, p.exitValue(), java.nio.file.Files.readString(errFile.toPath()));
                    assertEquals("Stopping...\n", java.nio.file.Files.readString(errFile.toPath()));
                } finally {
                    p.destroyForcibly();
                }
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                PrintStream sink = new PrintStream(bytes, true, StandardCharsets.ISO_8859_1);
                ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
                Output out = new Output(json, json && mode[0].equals("-p"), sink);
                CountDownLatch stop = new CountDownLatch(1);
                Throwable[] failed = new Throwable[1];
                List<String> args = new java.util.ArrayList<>(List.of("id", jId));
                if (one) {
                    args.addAll(List.of(mode));
                }
                Thread t = new Thread(() -> {
                    try {
                        new EventPipe(out, new PrintStream(errBytes, true, StandardCharsets.UTF_8)).run(args, stop);
                    } catch (Throwable e) {
                        failed[0] = e;
                    }
                });
                t.start();
                try {
                    Thread.sleep(500);
                    assertEquals(0, bpf.progTestRunOnCpu(jProg, 0));
                    assertEquals(0, bpf.progTestRunOnCpu(jProg, 0));
                    Thread.sleep(700);
                } finally {
                    stop.countDown();
                    t.join(5000);
                }
                assertEquals(null, failed[0]);
                String j = bytes.toString(StandardCharsets.ISO_8859_1) + out.finish();
                assertEquals("Stopping...\n", errBytes.toString(StandardCharsets.UTF_8));
                String what = String.join(" ", mode);
                assertTrue(b.contains(json ? "\"cpu\":" : "CPU: 0 index: " + (one ? "1" : "0")), what + ": " + b);
                assertEquals(times(b).replace(hex("evpipe_marker_b"), "M").replace(dec("evpipe_marker_b"), "M"),
                        times(j).replace(hex("evpipe_marker_j"), "M").replace(dec("evpipe_marker_j"), "M"), what);
            } finally {
                Fd.close(bMap);
                Fd.close(jMap);
                if (bProg >= 0) {
                    Fd.close(bProg);
                }
                if (jProg >= 0) {
                    Fd.close(jProg);
                }
            }
        }
    }

    /** The records' timestamps hidden (each is checked to be one). */
    private static String times(String s) {
        return s.replaceAll("== @\\d+\\.\\d{9} ", "== @T ").replaceAll("\"timestamp\":( ?)\\d+", "\"timestamp\":$1T");
    }

    /** {@code text} as fprint_hex prints its bytes (16 of them, with bpftool's separators). */
    private static String hex(String text) {
        StringBuilder out = new StringBuilder();
        byte[] b = java.util.Arrays.copyOf(text.getBytes(StandardCharsets.US_ASCII), 16);
        Hex.plain(out, b, 0, 16, " ");
        return out.toString();
    }

    /** {@code text}'s bytes as print_data_json writes them, up to the first separator. */
    private static String dec(String text) {
        StringBuilder out = new StringBuilder();
        for (byte c : text.getBytes(StandardCharsets.US_ASCII)) {
            out.append(c & 0xff).append(',');
        }
        return out.toString();
    }

    private int id(int mapFd) {
        com.sun.jna.Memory m = new com.sun.jna.Memory(128);
        m.clear();
        bpf.objGetInfoByFd(mapFd, m, 128);
        return m.getInt(4);
    }
}
