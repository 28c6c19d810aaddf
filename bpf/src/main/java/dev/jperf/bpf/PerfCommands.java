package dev.jperf.bpf;

import com.sun.jna.Memory;
import dev.jperf.format.json.JsonWriter;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code bpftool perf list|show} (perf.c of bpftool 7.1): every fd of every process through which
 * a BPF program is attached to a perf event (tracepoint, raw tracepoint, kprobe, uprobe), as
 * BPF_TASK_FD_QUERY tells, in /proc's order.
 */
public final class PerfCommands {
    /** ENOTSUPP (kernel-internal 524): what the probe query answers when the kernel can answer. */
    private static final int ENOTSUPP = 524;

    private final Output o;
    private final PrintStream err;
    private final KernelObjects kernel = new KernelObjects();

    public PerfCommands(Output o, PrintStream err) {
        this.o = o;
        this.err = err;
    }

    /** do_show. */
    public void show() {
        supported();
        if (o.json()) {
            o.jw().startArray();
        }
        Memory buf = new Memory(4096);
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"))) {
            for (Path proc : procs) {
                String name = proc.getFileName().toString();
                if (!allDigits(name)) {
                    continue;
                }
                showProcess(proc, Integer.parseInt(name), buf);
            }
        } catch (IOException e) {
            // show_proc returns -1 without a word when /proc cannot be opened
            throw BpftoolException.quiet("cannot read /proc");
        } finally {
            if (o.json()) {
                o.jw().endArray();
            }
        }
    }

    private void showProcess(Path proc, int pid, Memory buf) {
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(proc.resolve("fd"))) {
            for (Path f : fds) {
                String name = f.getFileName().toString();
                if (!allDigits(name)) {
                    continue;
                }
                int fd = Integer.parseInt(name);
                buf.clear();
                Bpf.TaskFdQuery q = kernel.bpf.taskFdQuery(pid, fd, buf);
                if (q == null) {
                    continue;
                }
                if (o.json()) {
                    json(pid, fd, q);
                } else {
                    plain(pid, fd, q);
                }
            }
        } catch (IOException | RuntimeException e) {
            // a process gone or not ours to read: bpftool skips what opendir refuses
            if (e instanceof BpftoolException b) {
                throw b;
            }
        }
        o.flushSome();
    }

    /** has_perf_query_support: a query of an fd with nothing attached must answer ENOTSUPP. */
    private void supported() {
        int fd = Fd.open("/", Fd.O_RDONLY);
        if (fd < 0) {
            throw new BpftoolException("perf_query_support: cannot open directory \"/\" (" + Errno.text(-fd) + ")");
        }
        try {
            Memory buf = new Memory(256);
            buf.clear();
            Bpf.TaskFdQuery q = kernel.bpf.taskFdQuery((int) ProcessHandle.current().pid(), fd, buf);
            int errno = q == null ? kernel.bpf.lastErrno() : 0;
            if (errno != ENOTSUPP) {
                // bpftool's hint goes to stderr in JSON mode too, after the error
                String hint = "HINT: non root or kernel doesn't support TASK_FD_QUERY\n";
                if (o.json()) {
                    o.error("perf_query_support: " + strerror(errno));
                    err.print(hint);
                    throw BpftoolException.quiet("perf_query_support");
                }
                throw new BpftoolException("perf_query_support: " + strerror(errno)).withInfo(hint);
            }
        } finally {
            Fd.close(fd);
        }
    }

    /** strerror(3), "Success" for 0 and glibc's "Unknown error N" for the kernel-internal ones. */
    private static String strerror(int errno) {
        return errno == 0 ? "Success" : errno == ENOTSUPP ? "Unknown error 524" : Errno.text(errno);
    }

    private static boolean allDigits(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    private void json(int pid, int fd, Bpf.TaskFdQuery q) {
        JsonWriter jw = o.jw();
        jw.startObject();
        jw.intField("pid", pid);
        jw.intField("fd", fd);
        jw.uintField("prog_id", Integer.toUnsignedLong(q.progId()));
        switch (q.fdType()) {
            case Bpf.BPF_FD_TYPE_RAW_TRACEPOINT, Bpf.BPF_FD_TYPE_TRACEPOINT -> {
                jw.stringField("fd_type", q.fdType() == Bpf.BPF_FD_TYPE_TRACEPOINT ? "tracepoint" : "raw_tracepoint");
                jw.stringField("tracepoint", q.buf());
            }
            case Bpf.BPF_FD_TYPE_KPROBE, Bpf.BPF_FD_TYPE_KRETPROBE -> {
                jw.stringField("fd_type", q.fdType() == Bpf.BPF_FD_TYPE_KPROBE ? "kprobe" : "kretprobe");
                if (!q.buf().isEmpty()) {
                    jw.stringField("func", q.buf());
                    jw.uintField("offset", q.probeOffset());
                } else {
                    jw.uintField("addr", q.probeAddr());
                }
            }
            case Bpf.BPF_FD_TYPE_UPROBE, Bpf.BPF_FD_TYPE_URETPROBE -> {
                jw.stringField("fd_type", q.fdType() == Bpf.BPF_FD_TYPE_UPROBE ? "uprobe" : "uretprobe");
                jw.stringField("filename", q.buf());
                jw.uintField("offset", q.probeOffset());
            }
            default -> {
            }
        }
        jw.endObject();
    }

    private void plain(int pid, int fd, Bpf.TaskFdQuery q) {
        StringBuilder out = o.out();
        out.append("pid ").append(pid).append("  fd ").append(fd).append(": prog_id ")
                .append(Integer.toUnsignedString(q.progId())).append("  ");
        switch (q.fdType()) {
            case Bpf.BPF_FD_TYPE_RAW_TRACEPOINT -> out.append("raw_tracepoint  ").append(q.buf()).append('\n');
            case Bpf.BPF_FD_TYPE_TRACEPOINT -> out.append("tracepoint  ").append(q.buf()).append('\n');
            case Bpf.BPF_FD_TYPE_KPROBE, Bpf.BPF_FD_TYPE_KRETPROBE -> {
                out.append(q.fdType() == Bpf.BPF_FD_TYPE_KPROBE ? "kprobe  " : "kretprobe  ");
                if (!q.buf().isEmpty()) {
                    out.append("func ").append(q.buf()).append("  offset ").append(Long.toUnsignedString(q.probeOffset()));
                } else {
                    out.append("addr ").append(Long.toUnsignedString(q.probeAddr()));
                }
                out.append('\n');
            }
            case Bpf.BPF_FD_TYPE_UPROBE, Bpf.BPF_FD_TYPE_URETPROBE -> out
                    .append(q.fdType() == Bpf.BPF_FD_TYPE_UPROBE ? "uprobe  filename " : "uretprobe  filename ")
                    .append(q.buf()).append("  offset ").append(Long.toUnsignedString(q.probeOffset())).append('\n');
            default -> {
            }
        }
    }
}
