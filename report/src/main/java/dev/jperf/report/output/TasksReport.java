package dev.jperf.report.output;

import dev.jperf.format.PerfDataFile;
import dev.jperf.report.session.Machine;
import dev.jperf.report.session.Mapping;
import dev.jperf.report.session.PerfThread;
import dev.jperf.report.session.SampleFilter;
import dev.jperf.report.session.Session;
import dev.jperf.report.symbol.Dso;
import dev.jperf.report.symbol.SymbolResolver;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * perf report --tasks and --mmaps (builtin-report.c's tasks_print): the recorded threads as a tree
 * by parent, each with its address space's maps under it with --mmaps.
 */
public final class TasksReport {
    /** perf's THREADS__TABLE_SIZE: threads are kept in buckets by tid modulo this, each sorted by tid. */
    private static final int THREAD_BUCKETS = 256;

    private TasksReport() {
    }

    /** One thread's place in the tree (perf's struct task). */
    private static final class Task {
        final PerfThread thread;
        final List<Task> children = new ArrayList<>();
        boolean listed;

        Task(PerfThread thread) {
            this.thread = thread;
        }
    }

    /** Reads {@code file}'s COMM, FORK and EXIT records (and mmaps with {@code mmaps}) and prints the tree. */
    public static void print(PerfDataFile file, SymbolResolver resolver, boolean mmaps, PrintStream out) {
        Session session = new Session(file, resolver, new Session.Options(false, SampleFilter.NONE));
        session.runTasks(mmaps);
        print(session.machine(), out);
    }

    /** The tree of {@code machine}'s threads, in perf's order. */
    static void print(Machine machine, PrintStream out) {
        List<PerfThread> threads = new ArrayList<>(machine.threads());
        // the order perf walks its thread table in: bucket by bucket, by tid within one
        threads.sort(Comparator.<PerfThread>comparingInt(t -> Integer.remainderUnsigned(t.tid(), THREAD_BUCKETS))
                .thenComparingInt(PerfThread::tid));
        Map<PerfThread, Task> tasks = new IdentityHashMap<>();
        List<Task> ordered = new ArrayList<>();
        for (PerfThread t : threads) {
            Task task = new Task(t);
            tasks.put(t, task);
            ordered.add(task);
        }
        List<Task> roots = new ArrayList<>();
        for (Task task : ordered) {
            if (task.listed) {
                continue;
            }
            Task root = link(task, machine, tasks);
            if (root != null) {
                root.listed = true;
                roots.add(root);
            }
        }
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "# %8s %8s %8s  %s", "pid", "tid", "ppid", "comm")).append('\n');
        for (Task root : roots) {
            printLevel(b, root, 0);
        }
        out.append(b);
        out.flush();
    }

    /** perf's tasks_list: links the task under its parent, up to the first one already linked or without parent. */
    private static Task link(Task task, Machine machine, Map<PerfThread, Task> tasks) {
        while (true) {
            if (task.listed) {
                return null;
            }
            int ppid = task.thread.ppid();
            if (ppid == -1) {
                return task;
            }
            PerfThread parent = machine.thread(ppid);
            if (parent == null) {
                throw new IllegalArgumentException("failed to process tasks: thread " + task.thread.tid()
                        + "'s parent " + ppid + " is not in the recording");
            }
            Task parentTask = tasks.get(parent);
            parentTask.children.add(task);
            task.listed = true;
            task = parentTask;
        }
    }

    private static void printLevel(StringBuilder b, Task task, int level) {
        PerfThread t = task.thread;
        int at = b.length();
        b.append(String.format(Locale.ROOT, "  %8d %8d %8d |", t.pid(), t.tid(), t.ppid())).append(" ".repeat(level));
        String indent = " ".repeat(b.length() - at);
        b.append(t.comm()).append('\n');
        for (Mapping m : t.maps().mappings()) {
            b.append(indent).append("  ").append(Long.toHexString(m.start())).append('-').append(Long.toHexString(m.end()))
                    .append(' ')
                    .append((m.prot() & 1) != 0 ? 'r' : '-')
                    .append((m.prot() & 2) != 0 ? 'w' : '-')
                    .append((m.prot() & 4) != 0 ? 'x' : '-')
                    .append((m.flags() & 1) != 0 ? 's' : 'p')
                    .append(' ').append(String.format(Locale.ROOT, "%08x", m.pgoff()))
                    .append(' ').append(Long.toUnsignedString(m.ino()))
                    .append(' ').append(name(m.dso())).append('\n');
        }
        for (Task child : task.children) {
            printLevel(b, child, level + 1);
        }
    }

    /** perf's dso->name; an anonymous executable map's is always /tmp/perf-PID.map. */
    private static String name(Dso d) {
        if (d.kind() == Dso.Kind.PERF_MAP) {
            return "/tmp/" + Path.of(d.longName()).getFileName();
        }
        return d.longName();
    }
}
