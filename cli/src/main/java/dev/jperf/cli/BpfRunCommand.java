package dev.jperf.cli;

import com.sun.jna.Memory;
import dev.jperf.bpf.BpfMapInfo;
import dev.jperf.bpf.BpftoolException;
import dev.jperf.bpf.MapCommands;
import dev.jperf.bpf.Output;
import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import dev.jperf.cli.options.UsageException;
import dev.jperf.format.json.JsonWriter;
import dev.jperf.loader.AttachedObjects;
import dev.jperf.loader.BpfMap;
import dev.jperf.loader.BpfObject;
import dev.jperf.loader.BpfObjectException;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.format.bpf.BpfMapInfoLayout;
import dev.jperf.recorder.StopSignals;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import sun.misc.SignalHandler;

/**
 * {@code jperf bpf run OBJ [--duration S] [--json]}: loads a BPF object with jperf's loader,
 * attaches its programs, waits (the duration, or until Ctrl-C / SIGTERM), then dumps every map of
 * the object typed through its BTF, as {@code jperf bpf map dump} (bpftool's) prints each; the
 * programs are detached and unloaded on the way out. What perf's {@code perf bpf} was meant to be:
 * "make it run and dump the results at Ctrl-C".
 */
final class BpfRunCommand implements Subcommand {
    private String object;
    private Double duration;
    private boolean json;

    @Override
    public String name() {
        return "bpf run";
    }

    @Override
    public String summary() {
        return "Load and attach a BPF object, run until Ctrl-C or --duration, dump its maps typed through BTF";
    }

    @Override
    public Options options() {
        return new Options("jperf bpf run OBJ [<options>]")
                .value('\0', "duration", "seconds", "stop after this many seconds (default: at Ctrl-C or SIGTERM)")
                .flag('j', "json", "one JSON object per map: {\"map\", \"id\", \"dump\"}, dump as bpftool -j map dump");
    }

    @Override
    public void set(String name, OptionValue v) {
        switch (name) {
            case "duration" -> {
                try {
                    duration = Double.parseDouble(v.text());
                } catch (NumberFormatException e) {
                    throw new UsageException("--duration " + v.text() + ": not a number of seconds");
                }
                if (!(duration > 0)) {
                    throw new UsageException("--duration " + v.text() + ": must be positive");
                }
            }
            case "json" -> json = v.on();
            default -> throw new IllegalStateException("option not handled: " + name);
        }
    }

    @Override
    public void arguments(List<String> positional, List<String> all) {
        object = BpfObjectArgument.of(positional);
    }

    @Override
    public int call() throws BpfObjectException, InterruptedException {
        PrintStream out = System.out;
        PrintStream err = System.err;
        CountDownLatch stop = new CountDownLatch(1);
        SignalHandler[] previous = StopSignals.install(stop::countDown);
        try (AttachedObjects attached = AttachedObjects.loadAndAttach(List.of(Path.of(object)), err)) {
            BpfObject obj = attached.objects().get(0);
            err.println("jperf bpf run: " + obj.programs().size() + " program(s) of " + object + " loaded, attached to "
                    + String.join(", ", attached.targets()) + (duration == null ? "; Ctrl-C dumps the maps"
                    : "; the maps are dumped in " + duration + " s"));
            err.flush();
            if (duration == null) {
                stop.await();
            } else {
                stop.await((long) (duration * 1e9), TimeUnit.NANOSECONDS);
            }
            dumpMaps(obj, out, err);
        } finally {
            StopSignals.restore(previous);
        }
        return 0;
    }

    /** Each map of the object, by the id the kernel gave it, as {@code jperf bpf map dump id ID}. */
    private void dumpMaps(BpfObject obj, PrintStream out, PrintStream err) {
        Bpf bpf = new Bpf();
        for (BpfMap m : obj.maps()) {
            if (m.fd() < 0) {
                continue;
            }
            Memory info = new Memory(BpfMapInfoLayout.SIZE);
            info.clear();
            bpf.objGetInfoByFd(m.fd(), info, BpfMapInfoLayout.SIZE);
            int id = BpfMapInfo.decode(info.getByteArray(0, BpfMapInfoLayout.SIZE)).id();
            Output o = new Output(json, false);
            String failure = null;
            try {
                new MapCommands(o).dump(id);
            } catch (BpftoolException e) {
                // a ring buffer or perf event array has no entries to walk: said, and the next map
                failure = e.getMessage();
            }
            String text = o.finish();
            if (json) {
                JsonWriter jw = new JsonWriter(new StringBuilder()).standard(true);
                jw.startObject();
                jw.stringField("map", m.name());
                jw.intField("id", id);
                jw.name("dump");
                jw.raw(text.isBlank() ? "null" : text.strip());
                jw.endObject();
                out.println(jw.out());
            } else {
                out.println("map " + m.name() + " (id " + id + "):");
                out.print(text);
                if (failure != null) {
                    out.println("  (" + failure + ")");
                }
            }
        }
        out.flush();
        err.flush();
    }
}
