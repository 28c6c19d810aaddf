package dev.jperf.cli;

import dev.jperf.format.PerfDataFile;
import dev.jperf.report.script.Script;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code jperf script}: perf script's options, spelled as perf spells them. */
@Command(name = "script", mixinStandardHelpOptions = true, sortOptions = false, description = "Print every sample of a perf.data file (perf script)")
final class ScriptCommand implements Callable<Integer> {
    @Option(names = {"-i", "--input"}, paramLabel = "<file>",
            description = "input file name (default: perf.data, or stdin when it is a pipe; - for stdin)")
    String input;

    @Option(names = {"-F", "--fields"}, paramLabel = "<fields>",
            description = "comma-separated output fields: comm,tid,pid,time,cpu,event,ip,sym,symoff,dso,period,"
                    + "addr,iregs,uregs,brstack,brstacksym; +f/-f edit the defaults")
    String fields;

    @Option(names = {"-k", "--kallsyms"}, paramLabel = "<file>", description = "kallsyms file to resolve kernel symbols")
    Path kallsyms;

    @Option(names = "--symfs", paramLabel = "<dir>", description = "look for symbol files relative to this directory")
    Path symfs;

    @Option(names = {"-G", "--hide-call-graph"}, description = "when printing symbols do not display call chain")
    boolean hideCallGraph;

    @Option(names = "--show-bpf-events", description = "show bpf related events (KSYMBOL, BPF_EVENT)")
    boolean showBpfEvents;

    @Option(names = "--show-mmap-events", description = "show mmap related events (MMAP, MMAP2)")
    boolean showMmapEvents;

    @Option(names = "--show-task-events", description = "show task related events (COMM, FORK, EXIT)")
    boolean showTaskEvents;

    @Option(names = "--show-lost-events", description = "show lost events (LOST)")
    boolean showLostEvents;

    @Option(names = "--show-switch-events", description = "show context switch events (SWITCH, SWITCH_CPU_WIDE)")
    boolean showSwitchEvents;

    @Option(names = "--show-namespace-events", description = "show namespace events (NAMESPACES)")
    boolean showNamespaceEvents;

    @Option(names = "--show-cgroup-events", description = "show cgroup events (CGROUP)")
    boolean showCgroupEvents;

    @Option(names = "--show-round-events", description = "show round events (FINISHED_ROUND); records are then"
            + " printed in file order, as perf does")
    boolean showRoundEvents;

    @Option(names = "--demangle", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "demangle C++ and Rust symbol names (default; --no-demangle shows them as in the file)")
    boolean demangle;

    @Option(names = "--json", description = "one JSON object per line instead of text")
    boolean json;

    @Override
    public Integer call() {
        try (PerfDataFile file = Input.open(input)) {
            // script buffers its own bytes (64 KiB writes); System.out only passes them on
            Script.run(file, new Script.Options(kallsyms, symfs, fields, hideCallGraph, showBpfEvents, showMmapEvents,
                    showTaskEvents, json, demangle, showLostEvents, showSwitchEvents, showNamespaceEvents,
                    showCgroupEvents, showRoundEvents), System.out);
            System.out.flush();
            Input.printWarnings(file, System.err);
        }
        return 0;
    }
}
