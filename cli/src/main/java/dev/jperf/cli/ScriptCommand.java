package dev.jperf.cli;

import dev.jperf.cli.options.Options;
import dev.jperf.format.PerfDataFile;
import dev.jperf.report.script.Script;
import java.nio.file.Path;

/** {@code jperf script}: perf script's options, spelled as perf spells them. */
final class ScriptCommand implements Subcommand {
    private String input;
    private String fields;
    private Path kallsyms;
    private Path symfs;
    private boolean hideCallGraph;
    private boolean showBpfEvents;
    private boolean showMmapEvents;
    private boolean showTaskEvents;
    private boolean showLostEvents;
    private boolean showSwitchEvents;
    private boolean showNamespaceEvents;
    private boolean showCgroupEvents;
    private boolean showRoundEvents;
    private boolean demangle = true;
    private boolean json;

    @Override
    public String name() {
        return "script";
    }

    @Override
    public String summary() {
        return "Read perf.data and display the trace output (perf script)";
    }

    @Override
    public Options options() {
        return new Options("jperf script [<options>]")
                .value('i', "input", "file", Input.HELP,
                        v -> input = v)
                .value('F', "fields", "str", "comma separated output fields: comm,tid,pid,time,cpu,event,ip,sym,symoff,"
                        + "dso,period,addr,iregs,uregs,brstack,brstacksym; +f/-f edit the defaults", v -> fields = v)
                .value('\0', "kallsyms", "file", "kallsyms pathname", v -> kallsyms = Path.of(v))
                .value('\0', "symfs", "directory", "look for files with symbols relative to this directory",
                        v -> symfs = Path.of(v))
                .flag('G', "hide-call-graph", "when printing symbols do not display call chain", v -> hideCallGraph = v)
                .flag('\0', "show-task-events", "show task related events (COMM, FORK, EXIT)", v -> showTaskEvents = v)
                .flag('\0', "show-mmap-events", "show mmap related events (MMAP, MMAP2)", v -> showMmapEvents = v)
                .flag('\0', "show-switch-events", "show context switch events (SWITCH, SWITCH_CPU_WIDE)",
                        v -> showSwitchEvents = v)
                .flag('\0', "show-namespace-events", "show namespace events (NAMESPACES)", v -> showNamespaceEvents = v)
                .flag('\0', "show-lost-events", "show lost events (LOST)", v -> showLostEvents = v)
                .flag('\0', "show-round-events", "show round events (FINISHED_ROUND); records are then printed in file"
                        + " order, as perf does", v -> showRoundEvents = v)
                .flag('\0', "show-bpf-events", "show bpf related events (KSYMBOL, BPF_EVENT)", v -> showBpfEvents = v)
                .flag('\0', "show-cgroup-events", "show cgroup events (CGROUP)", v -> showCgroupEvents = v)
                .flag('\0', "demangle", "demangle symbol names (default; --no-demangle shows them as in the file)",
                        v -> demangle = v)
                .flag('\0', "json", "one JSON object per line instead of text", v -> json = v);
    }

    @Override
    public int call() {
        try (PerfDataFile file = Input.open(input)) {
            // script buffers its own bytes (64 KiB writes); System.out only passes them on
            Script.run(file, Script.Options.defaults().withSymbols(kallsyms, symfs).withFields(fields)
                    .withHideCallGraph(hideCallGraph).withJson(json).withDemangle(demangle)
                    .withShow(Script.Show.BPF, showBpfEvents).withShow(Script.Show.MMAP, showMmapEvents)
                    .withShow(Script.Show.TASK, showTaskEvents).withShow(Script.Show.LOST, showLostEvents)
                    .withShow(Script.Show.SWITCH, showSwitchEvents).withShow(Script.Show.NAMESPACE, showNamespaceEvents)
                    .withShow(Script.Show.CGROUP, showCgroupEvents).withShow(Script.Show.ROUND, showRoundEvents),
                    System.out);
            System.out.flush();
            Input.printWarnings(file, System.err);
        }
        return 0;
    }
}
