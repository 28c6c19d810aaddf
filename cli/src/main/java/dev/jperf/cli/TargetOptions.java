package dev.jperf.cli;

import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import dev.jperf.cli.options.UsageException;
import dev.jperf.format.header.CpuList;
import dev.jperf.recorder.RecordOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * The target and event options record and top share (-a -C -p -t -e -F -c -m -i), as perf's
 * record_opts fields both fill: declared, parsed and handed to {@link RecordOptions.Builder} in
 * this one place.
 */
final class TargetOptions {
    boolean allCpus;
    String cpus;
    String pids;
    String tids;
    final List<String> events = new ArrayList<>();
    int freq;
    long period;
    int mmapPages = RecordOptions.DEFAULT_MMAP_PAGES;
    boolean noInherit;

    /**
     * Declares the options on {@code o}, with perf's help lines ({@code verb}: "record" or
     * "profile", as each command words -p and -t).
     */
    static Options declare(Options o, String verb) {
        return o.value('e', "event", "event", "event selector. use 'perf list' to list available events")
                .flag('a', "all-cpus", "system-wide collection from all CPUs")
                .value('C', "cpu", "cpu", "list of cpus to monitor")
                .value('p', "pid", "pid", verb + " events on existing process id")
                .value('t', "tid", "tid", verb + " events on existing thread id")
                .value('F', "freq", "freq", "profile at this frequency")
                .value('c', "count", "n", "event period to sample")
                .value('m', "mmap-pages", "pages", "number of mmap data pages (a power of two)")
                .flag('i', "no-inherit", "child tasks do not inherit counters");
    }

    /** Takes one of the declared options; false when {@code name} is not one of them. */
    boolean set(String name, OptionValue v) {
        switch (name) {
            case "event" -> events.add(v.text());
            case "all-cpus" -> allCpus = v.on();
            case "cpu" -> cpus = v.text();
            case "pid" -> pids = v.text();
            case "tid" -> tids = v.text();
            case "freq" -> freq = toInt("-F", v.integer());
            case "count" -> period = v.integer();
            case "mmap-pages" -> mmapPages = toInt("-m", v.integer());
            case "no-inherit" -> noInherit = v.on();
            default -> {
                return false;
            }
        }
        return true;
    }

    /** Whether a task or CPU target was given (-p, -t, -C). */
    boolean narrowed() {
        return pids != null || tids != null || cpus != null;
    }

    /** The -C list (empty when not given). */
    List<Integer> cpuList() {
        return cpus == null ? List.of() : CpuList.parse(cpus);
    }

    /** Hands these options to {@code b}. */
    RecordOptions.Builder fill(RecordOptions.Builder b) {
        return b.allCpus(allCpus).cpus(cpuList()).pids(ids("-p", pids)).tids(ids("-t", tids)).events(events)
                .freq(freq).period(period).mmapPages(mmapPages).noInherit(noInherit);
    }

    static int toInt(String option, long v) {
        if (v != (int) v) {
            throw new UsageException("option '" + option + "': " + v + " is out of range");
        }
        return (int) v;
    }

    private static List<Integer> ids(String option, String list) {
        List<Integer> ids = CommaList.ints(option, list);
        return ids == null ? new ArrayList<>() : ids;
    }
}
