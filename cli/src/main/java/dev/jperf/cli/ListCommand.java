package dev.jperf.cli;

import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import dev.jperf.cli.options.UsageException;
import dev.jperf.format.BuildIdDir;
import dev.jperf.recorder.BuildIdCache;
import dev.jperf.recorder.EventCatalog;
import dev.jperf.recorder.EventCatalog.Entry;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code jperf list [hw|sw|cache|tracepoint|pmu|sdt|GLOB|SYS:EVENT]}: the events this machine
 * offers, as perf 6.1's builtin-list.c prints them. perf's metrics and the PMU events of its
 * compiled-in JSON tables (which also carry the descriptions -d and -v show) are not jperf's: the
 * full list stops before perf's "Metric Groups:", and {@code metric}/{@code metricgroup} are refused.
 */
final class ListCommand implements Subcommand {
    private static final Path DEVICES = Path.of("/sys/bus/event_source/devices");
    private List<String> kinds = List.of();
    private Path buildIdDir;

    @Override
    public void buildIdDir(Path dir) {
        buildIdDir = dir;
    }

    @Override
    public String name() {
        return "list";
    }

    @Override
    public String summary() {
        return "List all symbolic event types";
    }

    @Override
    public Options options() {
        return new Options("jperf list [<options>] [hw|sw|cache|tracepoint|pmu|sdt|event_glob]")
                .flag('d', "desc", "Print extra event descriptions. --no-desc to not print.")
                .flag('v', "long-desc", "Print longer event descriptions.")
                .flag('\0', "deprecated", "Print deprecated events.")
                .flag('\0', "details", "Print information on the perf event names and expressions used internally by events.");
    }

    @Override
    public void set(String name, OptionValue v) {
        switch (name) {
            case "desc", "long-desc", "deprecated", "details" -> {
                // these show what perf's JSON event tables say of their events: jperf lists none of those
            }
            default -> throw new IllegalStateException("option not handled: " + name);
        }
    }

    @Override
    public void arguments(List<String> positional, List<String> all) {
        kinds = positional;
    }

    @Override
    public int call() {
        List<Entry> out = new ArrayList<>();
        if (kinds.isEmpty()) {
            out.addAll(EventCatalog.hardware());
            out.addAll(EventCatalog.software());
            out.addAll(EventCatalog.tool());
            out.addAll(EventCatalog.cache());
            out.addAll(EventCatalog.pmuEvents(DEVICES));
            out.addAll(EventCatalog.syntax());
            out.addAll(EventCatalog.tracepoints(EventCatalog.tracefsEvents()));
            out.addAll(sdt(null, null));
        }
        for (String k : kinds) {
            switch (k) {
                case "tracepoint" -> out.addAll(EventCatalog.tracepoints(EventCatalog.tracefsEvents()));
                case "hw", "hardware" -> out.addAll(EventCatalog.hardware());
                case "sw", "software" -> {
                    out.addAll(EventCatalog.software());
                    out.addAll(EventCatalog.tool());
                }
                case "cache", "hwcache" -> out.addAll(EventCatalog.cache());
                case "pmu" -> out.addAll(EventCatalog.pmuEvents(DEVICES));
                case "sdt" -> out.addAll(sdt(null, null));
                case "metric", "metricgroup" -> throw new UsageException(k + ": perf's metrics come from its compiled-in"
                        + " event tables, which jperf does not have");
                default -> out.addAll(glob(k));
            }
        }
        PrintStream o = Input.stdout();
        for (Entry e : out) {
            o.println(e.line());
        }
        o.flush();
        return 0;
    }

    /** perf's list of a pattern: SYS:EVENT globs over tracepoints, anything else as *PATTERN* over every kind. */
    private List<Entry> glob(String arg) {
        List<Entry> out = new ArrayList<>();
        int colon = arg.indexOf(':');
        if (colon >= 0) {
            Pattern sys = glob(arg.substring(0, colon), false);
            Pattern event = glob(arg.substring(colon + 1), false);
            for (Entry e : EventCatalog.tracepoints(EventCatalog.tracefsEvents())) {
                String[] parts = e.name().split(":", 2);
                if (sys.matcher(parts[0]).matches() && event.matcher(parts[1]).matches()) {
                    out.add(e);
                }
            }
            out.addAll(sdt(sys, event));
            return out;
        }
        Pattern p = glob("*" + arg + "*", false);
        for (List<Entry> kind : List.of(EventCatalog.hardware(), EventCatalog.software(), EventCatalog.tool(), EventCatalog.cache())) {
            for (Entry e : kind) {
                // the symbol or its alias
                for (String n : e.name().split(" OR ")) {
                    if (p.matcher(n).matches()) {
                        out.add(e);
                        break;
                    }
                }
            }
        }
        Pattern nocase = glob("*" + arg + "*", true);
        for (Entry e : EventCatalog.pmuEvents(DEVICES)) {
            String alias = e.name().substring(e.name().indexOf('/') + 1, e.name().length() - 1);
            if (nocase.matcher(e.name()).matches() || nocase.matcher(alias).matches()) {
                out.add(e);
            }
        }
        for (Entry e : EventCatalog.tracepoints(EventCatalog.tracefsEvents())) {
            if (p.matcher(e.name().substring(e.name().indexOf(':') + 1)).matches()) {
                out.add(e);
            }
        }
        out.addAll(sdt(null, p));
        return out;
    }

    /** The build-id cache's SDT events, their group and event matched by the patterns given (null: any). */
    private List<Entry> sdt(Pattern group, Pattern event) {
        return EventCatalog.sdt(BuildIdCache.at(BuildIdDir.resolve(buildIdDir)),
                g -> group == null || group.matcher(g).matches(), e -> event == null || event.matcher(e).matches());
    }

    /** perf's strglobmatch: * any run, ? one character, [...] a class; the rest literal. */
    static Pattern glob(String g, boolean ignoreCase) {
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < g.length(); i++) {
            char c = g.charAt(i);
            if (c == '*') {
                re.append(".*");
            } else if (c == '?') {
                re.append('.');
            } else if (c == '[') {
                int end = g.indexOf(']', i + 1);
                if (end < 0) {
                    re.append("\\[");
                } else {
                    String cls = g.substring(i + 1, end).replace("\\", "\\\\");
                    re.append('[').append(cls.startsWith("!") ? "^" + cls.substring(1) : cls).append(']');
                    i = end;
                }
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString(), ignoreCase ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0);
    }
}
