package dev.jperf.cli;

import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import dev.jperf.cli.options.UsageException;
import dev.jperf.nativeshim.Terminal;
import dev.jperf.recorder.stat.BpfTop;
import java.util.List;

/** {@code jperf bpf top}: every loaded BPF program's cost, live (bpftop's view), as tables or JSON lines. */
final class BpfTopCommand implements Subcommand {
    private double delay = 1;
    private String sort = "cpu";
    private boolean json;
    private boolean once;
    private long iterations;

    @Override
    public String name() {
        return "bpf top";
    }

    @Override
    public String summary() {
        return "What each loaded BPF program costs, live (bpftop)";
    }

    @Override
    public Options options() {
        return new Options("jperf bpf top [<options>]")
                .value('d', "delay", "seconds", "interval between updates (default 1)")
                .value('s', "sort", "key", "order: cpu (default), runs, avg, id, name, type")
                .value('n', "iterations", "n", "stop after n updates")
                .flag('\0', "once", "print one update (over one interval) and exit")
                .flag('j', "json", "one JSON object per update instead of a table");
    }

    @Override
    public void set(String name, OptionValue v) {
        switch (name) {
            case "delay" -> delay = v.decimal();
            case "sort" -> sort = v.text();
            case "iterations" -> iterations = v.integer();
            case "once" -> once = v.on();
            case "json" -> json = v.on();
            default -> throw new IllegalStateException("option not handled: " + name);
        }
    }

    @Override
    public int call() throws Exception {
        if (!(delay >= 0.1) || delay > 3600) {
            throw new UsageException("option '--delay' must be between 0.1 and 3600 seconds");
        }
        if (iterations < 0 || iterations > Integer.MAX_VALUE) {
            throw new UsageException("option '--iterations' must be positive");
        }
        BpfTop.Sort order;
        try {
            order = BpfTop.Sort.of(sort);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        int n = once ? 1 : (int) iterations;
        boolean live = !json && !once && Terminal.isTerminal(0) && Terminal.isTerminal(1);
        new BpfTop(new BpfTop.Options((long) (delay * 1e9), order, json, n, live), System.out).runWithSignals();
        return 0;
    }
}
