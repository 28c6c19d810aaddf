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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code prog tracelog} against bpftool 7.1 live: a raw_tp program of the test's calling
 * bpf_trace_printk with a marker unique to the run is test-run; bpftool's {@code prog tracelog}
 * (stopped with SIGTERM: exit 0) and jperf's each read the line it writes, in plain and
 * {@code -j}; the two lines must be the same line apart from the task, CPU, flags and time fields.
 */
class TracelogTest {
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
}
