package dev.jperf.cli;

import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import dev.jperf.cli.options.UsageException;
import dev.jperf.nativeshim.Poll;
import dev.jperf.nativeshim.Terminal;
import dev.jperf.recorder.CallGraph;
import dev.jperf.recorder.Cpus;
import dev.jperf.recorder.RecordOptions;
import dev.jperf.recorder.Recorder;
import dev.jperf.recorder.StopSignals;
import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.aggregate.SortKey;
import dev.jperf.report.session.Machine;
import dev.jperf.report.top.TopSession;
import dev.jperf.report.top.TopBrowserModel;
import dev.jperf.report.top.TopStdio;
import dev.jperf.report.tui.Browser;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code jperf top}: perf top's options; the recorder's events and rings write a pipe-mode stream
 * into this process, which report's session reads into live hists, printed every {@code -d}
 * seconds as perf top --stdio prints them, or browsed in a terminal.
 */
final class TopCommand implements Subcommand, StopSignals.Stoppable {
    private Path buildIdDir;
    /** -a -C -p -t -e -F -c -m -i, shared with record */
    private final TargetOptions target = new TargetOptions();
    private boolean callGraph;
    private boolean hideKernel;
    private boolean hideUser;
    private int delaySecs = 2;
    private int entries;
    private String sort;
    private boolean zero;
    private double percentLimit;
    private Boolean stdio;
    private boolean noBpfEvent;
    private Boolean children;
    private int maxStack = Machine.PERF_MAX_STACK_DEPTH;
    private Path kallsyms;
    private volatile boolean stop;
    private volatile Recorder recorder;

    @Override
    public String name() {
        return "top";
    }

    @Override
    public String summary() {
        return "System profiling tool: what is hot, live";
    }

    @Override
    public Options options() {
        return TargetOptions.declare(new Options("jperf top [<options>]"), "profile")
                .flag('g', null, "enables call-graph recording and display")
                .flag('K', "hide_kernel_symbols", "hide kernel symbols")
                .flag('U', "hide_user_symbols", "hide user symbols")
                .value('d', "delay", "n", "number of seconds to delay between refreshes")
                .value('E', "entries", "n", "display this many functions")
                .value('s', "sort", "key[,key2...]", "sort by key(s): pid, comm, dso, symbol, cpu, srcline, ...")
                .flag('z', "zero", "zero history across updates")
                .value('\0', "percent-limit", "percent", "Don't show entries under that percent")
                .flag('\0', "stdio", "Use the stdio interface")
                .flag('\0', "tui", "Use the TUI interface")
                .flag('\0', "no-bpf-event", "do not record bpf events")
                .flag('\0', "children", "Accumulate callchains of children and show total overhead as well")
                .value('\0', "max-stack", "n", "Set the maximum stack depth when parsing the callchain. Default:"
                        + " kernel.perf_event_max_stack or 127")
                .value('\0', "kallsyms", "file", "kallsyms pathname");
    }

    @Override
    public void buildIdDir(Path dir) {
        buildIdDir = dir;
    }

    @Override
    public void set(String name, OptionValue v) {
        if (target.set(name, v)) {
            return;
        }
        switch (name) {
            case "g" -> callGraph = v.on();
            case "hide_kernel_symbols" -> hideKernel = v.on();
            case "hide_user_symbols" -> hideUser = v.on();
            case "delay" -> delaySecs = TargetOptions.toInt("-d", v.integer());
            case "entries" -> entries = TargetOptions.toInt("-E", v.integer());
            case "sort" -> sort = v.text();
            case "zero" -> zero = v.on();
            case "percent-limit" -> percentLimit = v.decimal();
            case "stdio" -> stdio = v.on();
            case "tui" -> stdio = !v.on();
            case "no-bpf-event" -> noBpfEvent = v.on();
            case "children" -> children = v.on();
            case "max-stack" -> maxStack = TargetOptions.toInt("--max-stack", v.integer());
            case "kallsyms" -> kallsyms = Path.of(v.text());
            default -> throw new IllegalStateException("option not handled: " + name);
        }
    }

    @Override
    public void requestStop() {
        stop = true;
        Recorder r = recorder;
        if (r != null) {
            r.requestStop();
        }
    }

    @Override
    public int call() throws Exception {
        if (delaySecs < 1) {
            delaySecs = 1; // perf's cmd_top: "if (top.delay_secs < 1) top.delay_secs = 1"
        }
        List<SortKey> keys;
        try {
            keys = SortKey.parse(sort == null ? "dso,sym" : sort);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        List<Integer> cpuList = target.cpuList();
        // perf top: system-wide unless -p, -t or -C narrow it
        RecordOptions o = target.fill(RecordOptions.builder()).allCpus(target.allCpus || !target.narrowed())
                .callGraph(callGraph ? CallGraph.FP : CallGraph.NONE).output(Path.of("-"))
                .quiet(true).cmdline(List.of("jperf", "top")).noBuildId(true).noBuildIdCache(true)
                .noBpfEvent(noBpfEvent).build();
        // perf top: children with call graphs unless --no-children; caller order then, as report
        boolean cumulate = callGraph && (children == null || children);
        CallchainParams graph = callGraph ? CallchainParams.DEFAULT : CallchainParams.NO_GRAPH;
        TopSession session = new TopSession(new TopSession.Options(keys, cumulate, graph, hideKernel, hideUser, kallsyms,
                buildIdDir, maxStack));
        Pipe pipe = Pipe.open();
        session.start(Channels.newInputStream(pipe.source()));
        Recorder r = new Recorder(o, System.err).pipeTo(pipe.sink());
        recorder = r;
        Exception[] failed = new Exception[1];
        Thread rec = new Thread(() -> {
            try {
                r.record();
            } catch (Exception e) {
                failed[0] = e;
            } finally {
                try {
                    pipe.sink().close();
                } catch (IOException e) {
                    // the reader sees the end either way
                }
            }
        }, "jperf-top-recorder");
        sun.misc.SignalHandler[] previous = StopSignals.install(this);
        // what ended the session while top ran (after, the pipe closed under it is no failure)
        Throwable sessionFailure = null;
        try {
            rec.start();
            boolean tty = Terminal.isTerminal(1);
            boolean browse = stdio == null ? tty && Terminal.isTerminal(0) : !stdio;
            if (browse) {
                if (!tty || !Terminal.isTerminal(0)) {
                    throw new UsageException("--tui needs a terminal on stdin and stdout");
                }
                browse(session, cpuList);
            } else {
                stdioLoop(session, cpuList, tty);
            }
            sessionFailure = session.ended() ? session.failure() : null;
        } finally {
            requestStop();
            rec.join(5000);
            pipe.source().close();
            StopSignals.restore(previous);
        }
        if (failed[0] != null) {
            throw failed[0];
        }
        if (sessionFailure != null) {
            throw sessionFailure instanceof RuntimeException re ? re : new IllegalStateException(sessionFailure);
        }
        return 0;
    }

    /** The terminal browser (report's), on top's live rows. */
    private void browse(TopSession session, List<Integer> cpuList) throws IOException, InterruptedException {
        session.awaitEvents(10_000);
        TopBrowserModel model = new TopBrowserModel(session, target(cpuList), delaySecs, zero, percentLimit,
                callGraph ? CallchainParams.DEFAULT : CallchainParams.NO_GRAPH);
        try (Terminal t = Terminal.characterMode(0)) {
            new Browser(model, System.out).run(System.in, () -> stop || (session.ended() && session.failure() != null),
                    TopCommand::dimensions);
        }
    }

    private TopStdio.Target target(List<Integer> cpuList) {
        int cpuCount = cpuList.isEmpty() ? Cpus.online().size() : cpuList.size();
        return new TopStdio.Target(target.pids, target.pids == null ? target.tids : null, target.cpus, cpuCount);
    }

    /**
     * perf top --stdio: a screen at once, then every -d seconds; of perf's keys on a terminal's
     * stdin, q (and Q) and z (perf's prompts for the others are not done).
     */
    private void stdioLoop(TopSession session, List<Integer> cpuList, boolean color) throws IOException,
            InterruptedException {
        TopStdio screen = new TopStdio(session, target(cpuList), System.out, percentLimit,
                callGraph ? CallchainParams.DEFAULT : CallchainParams.NO_GRAPH);
        session.awaitEvents(10_000);
        boolean keys = Terminal.isTerminal(0);
        Terminal term = keys ? Terminal.characterMode(0) : null;
        try {
            Poll stdin = keys ? new Poll(new int[] {0}, Poll.POLLIN) : null;
            InputStream in = System.in;
            while (!stop) {
                int[] size = dimensions();
                int rows = entries != 0 ? entries : size[0] - TopStdio.HEADER_LINE_NR;
                screen.screen(size[1], rows, delaySecs, zero, color);
                long until = System.nanoTime() + delaySecs * 1_000_000_000L;
                while (!stop && System.nanoTime() < until) {
                    if (session.ended() && session.failure() != null) {
                        stop = true;
                        break;
                    }
                    int waitMs = (int) Math.max(1, Math.min((until - System.nanoTime()) / 1_000_000, 100));
                    if (stdin == null) {
                        Thread.sleep(waitMs);
                    } else if (stdin.poll(waitMs) > 0 && in.available() > 0) {
                        int c = in.read();
                        if (c == 'q' || c == 'Q') {
                            System.out.println("exiting.");
                            System.out.flush();
                            stop = true;
                        } else if (c == 'z') {
                            zero = !zero; // perf's [z] toggle sample zeroing
                        }
                        break;
                    }
                }
            }
        } finally {
            if (term != null) {
                term.close();
            }
        }
    }

    /**
     * perf's get_term_dimensions: $LINES and $COLUMNS when both are set and not 0, else stdout's
     * window size, else 25 x 80.
     */
    static int[] dimensions() {
        int lines = atoi(System.getenv("LINES"));
        int columns = atoi(System.getenv("COLUMNS"));
        if (lines != 0 && columns != 0) {
            return new int[] {lines, columns};
        }
        int[] size = Terminal.size(1);
        return size != null ? size : new int[] {25, 80};
    }

    /** C's atoi: leading digits, 0 for none. */
    private static int atoi(String s) {
        if (s == null) {
            return 0;
        }
        String t = s.strip();
        int i = 0;
        boolean neg = false;
        if (i < t.length() && (t.charAt(i) == '-' || t.charAt(i) == '+')) {
            neg = t.charAt(i++) == '-';
        }
        long v = 0;
        while (i < t.length() && Character.isDigit(t.charAt(i)) && v < Integer.MAX_VALUE) {
            v = v * 10 + (t.charAt(i++) - '0');
        }
        return (int) (neg ? -v : v);
    }
}
