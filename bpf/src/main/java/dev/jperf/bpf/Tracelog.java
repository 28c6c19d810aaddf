package dev.jperf.bpf;

import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Mount;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code bpftool prog tracelog} (tracelog.c of bpftool 7.1): the kernel's trace_pipe, where
 * bpf_trace_printk writes, line by line (with {@code -j} a JSON array of the lines), until a
 * signal stops it (exit 0); tracefs found where bpftool looks, else mounted at
 * /sys/kernel/tracing as bpftool mounts it.
 */
public final class Tracelog {
    /** TRACEFS_MAGIC. */
    private static final long TRACEFS_MAGIC = 0x74726163L;
    /** get_tracefs_pipe's known mount points, in its order. */
    private static final String[] KNOWN = {"/sys/kernel/debug/tracing", "/sys/kernel/tracing", "/tracing", "/trace"};
    /** What the reader thread hands over when the pipe ends or fails. */
    private static final byte[] END = new byte[0];

    private final Output o;
    private final PrintStream err;

    /** {@code err} takes p_info's line when tracefs is mounted. */
    public Tracelog(Output output, PrintStream err) {
        this.o = output;
        this.err = err;
    }

    /** do_tracelog: the lines as they come, until {@code stop} opens; then the JSON array is closed. */
    public void run(CountDownLatch stop) {
        if (o.json()) {
            o.jw().startArray();
        }
        String pipe = pipe();
        InputStream in;
        try {
            in = new FileInputStream(pipe);
        } catch (IOException e) {
            throw new BpftoolException("could not open trace pipe: " + text(e));
        }
        LinkedBlockingQueue<byte[]> lines = new LinkedBlockingQueue<>();
        String[] failure = new String[1];
        Thread reader = new Thread(() -> read(in, lines, failure), "jperf-tracelog");
        reader.setDaemon(true);
        reader.start();
        try {
            while (stop.getCount() > 0) {
                byte[] line = lines.poll(100, TimeUnit.MILLISECONDS);
                if (line == END) {
                    // the loop's getline failed: p_err, return -1, the array left open as bpftool leaves it
                    throw new BpftoolException("failed to read content from trace pipe: " + failure[0]);
                }
                if (line == null) {
                    continue;
                }
                String s = new String(line, StandardCharsets.ISO_8859_1);
                if (o.json()) {
                    o.jw().string(s);
                } else {
                    o.out().append(s);
                }
                o.flush();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                in.close();
            } catch (IOException e) {
                // closing a pipe we only read
            }
        }
        // exit_tracelog
        if (o.json()) {
            o.jw().endArray();
        }
    }

    /** The reader thread: whole lines, newline kept (getline's), then {@link #END}. */
    private static void read(InputStream in, LinkedBlockingQueue<byte[]> lines, String[] failure) {
        byte[] buf = new byte[8192];
        java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
        try {
            int n;
            while ((n = in.read(buf)) > 0) {
                for (int i = 0; i < n; i++) {
                    line.write(buf[i]);
                    if (buf[i] == '\n') {
                        lines.add(line.toByteArray());
                        line.reset();
                    }
                }
            }
            failure[0] = Errno.text(0);
        } catch (IOException e) {
            failure[0] = text(e);
        }
        lines.add(END);
    }

    /** get_tracefs_pipe: the pipe's path; tracefs mounted first if none is found. */
    private String pipe() {
        for (String m : KNOWN) {
            if (Mount.fsType(m) == TRACEFS_MAGIC) {
                return m + "/trace_pipe";
            }
        }
        try {
            for (String line : Files.readAllLines(Path.of("/proc/mounts"))) {
                String[] f = line.split(" ");
                if (f.length > 2 && f[2].equals("tracefs") && Mount.fsType(f[1]) == TRACEFS_MAGIC) {
                    return f[1] + "/trace_pipe";
                }
            }
        } catch (IOException e) {
            // bpftool: no /proc/mounts, no tracefs found
            throw BpftoolException.quiet("no /proc/mounts");
        }
        err.println("could not find tracefs, attempting to mount it now");
        String why = Bpffs.mount(KNOWN[1], "tracefs");
        if (why != null) {
            throw new BpftoolException("can't mount tracefs: " + why);
        }
        return KNOWN[1] + "/trace_pipe";
    }

    private static String text(IOException e) {
        String m = String.valueOf(e.getMessage());
        if (m.contains("Permission denied")) {
            return Errno.text(Errno.EACCES);
        }
        if (m.contains("No such file")) {
            return Errno.text(Errno.ENOENT);
        }
        return m;
    }
}
