package dev.jperf.bpf;

import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Mount;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.nativeshim.Poll;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

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
        int fd = Fd.openRead(pipe);
        if (fd < 0) {
            throw new BpftoolException("could not open trace pipe: " + Errno.text(-fd));
        }
        try {
            Poll poll = new Poll(new int[] {fd}, Poll.POLLIN);
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            while (stop.getCount() > 0) {
                if (poll.poll(100) == 0) {
                    continue;
                }
                byte[] got;
                try {
                    got = Fd.read(fd, 8192, pipe);
                } catch (NativeException e) {
                    if (e.errno() == Errno.EINTR) {
                        continue;
                    }
                    // getline failed: p_err, return -1
                    throw new BpftoolException("failed to read content from trace pipe: " + Errno.text(e.errno()));
                }
                if (got.length == 0) {
                    throw new BpftoolException("failed to read content from trace pipe: " + Errno.text(0));
                }
                for (byte c : got) {
                    line.write(c);
                    if (c == '\n') {
                        print(line.toString(StandardCharsets.ISO_8859_1));
                        line.reset();
                    }
                }
                o.flush();
            }
        } finally {
            Fd.close(fd);
        }
        // exit_tracelog
        if (o.json()) {
            o.jw().endArray();
        }
    }

    /** One line as getline gives it (its newline kept): printed, or a JSON string. */
    private void print(String line) {
        if (o.json()) {
            o.jw().string(line);
        } else {
            o.out().append(line);
        }
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

}
