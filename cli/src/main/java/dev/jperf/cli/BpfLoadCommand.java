package dev.jperf.cli;

import dev.jperf.bpf.LoadedObject;
import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import dev.jperf.loader.BpfObject;
import dev.jperf.loader.BpfObjectException;
import dev.jperf.loader.BpfProgram;
import dev.jperf.loader.LoadOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code jperf bpf load OBJ [-p PROG]... [--json]}: opens and loads a BPF object with jperf's own
 * loader (no attach), prints each program's id or why the kernel refused it, then unloads.
 */
final class BpfLoadCommand implements Subcommand {
    /** Verifier log lines printed for a refused program unless the whole log is asked for. */
    static final int LOG_TAIL = 8;

    private final List<String> only = new ArrayList<>();
    private boolean json;
    private boolean fullLog;
    private String object;

    @Override
    public String name() {
        return "bpf load";
    }

    @Override
    public String summary() {
        return "Load a BPF object's programs and maps as libbpf does, print what the kernel holds";
    }

    @Override
    public Options options() {
        return new Options("jperf bpf load OBJ [<options>]")
                .value('p', "program", "name", "load only this program (repeatable); every map is created")
                .flag('j', "json", "print one JSON object: programs (with xlated instructions) and maps")
                .flag('\0', "log", "print a refused program's whole verifier log, not its last lines");
    }

    @Override
    public void set(String name, OptionValue v) {
        switch (name) {
            case "program" -> only.add(v.text());
            case "json" -> json = v.on();
            case "log" -> fullLog = v.on();
            default -> throw new IllegalStateException("option not handled: " + name);
        }
    }

    @Override
    public void arguments(List<String> positional, List<String> all) {
        object = BpfObjectArgument.of(positional);
    }

    @Override
    public int call() throws BpfObjectException, IOException {
        PrintStream out = System.out;
        PrintStream err = System.err;
        try (BpfObject obj = BpfObject.open(Path.of(object))) {
            for (String p : only) {
                if (obj.program(p) == null) {
                    throw new BpfObjectException(object + ": no program '" + p + "'");
                }
            }
            if (!only.isEmpty()) {
                for (BpfProgram p : obj.programs()) {
                    p.setAutoload(only.contains(p.name()));
                }
            }
            obj.load(LoadOptions.DEFAULT);
            for (String w : obj.warnings()) {
                err.println("warning: " + w);
            }
            boolean allLoaded = true;
            for (BpfProgram p : obj.programs()) {
                if (p.autoload() && p.fd() < 0) {
                    allLoaded = false;
                    err.println("jperf bpf load: " + p.error());
                    printLog(p, err);
                }
            }
            if (json) {
                LoadedObject.printJson(obj, out);
            } else {
                LoadedObject.printText(obj, out);
            }
            out.flush();
            err.flush();
            return allLoaded ? 0 : 1;
        }
    }

    private void printLog(BpfProgram p, PrintStream err) {
        String log = p.verifierLog().strip();
        if (log.isEmpty()) {
            return;
        }
        String[] lines = log.split("\n");
        int from = fullLog ? 0 : Math.max(0, lines.length - LOG_TAIL);
        err.println("-- verifier log of '" + p.name() + "'" + (from > 0 ? " (last " + (lines.length - from)
                + " lines; --log prints all " + lines.length + ")" : "") + " --");
        for (int i = from; i < lines.length; i++) {
            err.println(lines[i]);
        }
        err.println("-- end of verifier log --");
    }
}
