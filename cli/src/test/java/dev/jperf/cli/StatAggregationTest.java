package dev.jperf.cli;

import static dev.jperf.cli.StatTest.csvShape;
import static dev.jperf.cli.StatTest.exec;
import static dev.jperf.cli.StatTest.jsonShape;
import static dev.jperf.cli.StatTest.shapes;
import static dev.jperf.cli.StatTest.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.PerfOracle;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * perf stat's aggregation modes against perf 6.1 run live on the same command: {@code -A} (per
 * CPU), {@code --per-core}, {@code --per-die}, {@code --per-socket}, {@code --per-node} (the ids
 * this machine's sysfs topology gives, with how many CPUs each sums) and {@code --per-thread}, in
 * the table, {@code -x} and {@code -j}, at the end and every {@code -I}; the ids and events equal,
 * the layout the same with the numbers masked.
 */
class StatAggregationTest {
    private static final List<String> TOPOLOGY_MODES = List.of("-A", "--per-core", "--per-die", "--per-socket", "--per-node");
    private static final String EVENTS = "cpu-clock,context-switches,cycles";
    private String workload;

    @BeforeEach
    void setUp() throws Exception {
        PerfOracle.assumeInstalled();
        Corpus.installBinaries();
        workload = Corpus.INSTALLED.resolve("src/workload").toString();
    }

    private static void assumeSystemWide() throws Exception {
        StatTest.Result perf = exec("perf", "stat", "-a", "-e", "cpu-clock", "--", "true");
        assumeTrue(perf.rc() == 0, () -> "the kernel refuses this user a CPU-wide count: " + perf.err().strip());
    }

    @Test
    void perCpuAndTopologyModesHavePerfsRowsAndLayout() throws Exception {
        assumeSystemWide();
        for (String mode : TOPOLOGY_MODES) {
            StatTest.Result perf = exec("perf", "stat", mode, "-a", "-e", EVENTS, "--", "sleep", "0.05");
            Run ours = Run.of("stat", mode, "-a", "-e", EVENTS, "--", "sleep", "0.05");
            assertEquals(0, ours.rc(), ours.err());
            List<String> theirs = table(perf.err());
            List<String> mine = table(ours.err());
            assertEquals(shapes(theirs), shapes(mine), mode + "\n" + ours.err());
            for (int i = 0; i < theirs.size(); i++) {
                assertEquals(theirs.get(i).length(), mine.get(i).length(), mode + " columns of\n" + theirs.get(i) + "\n" + mine.get(i));
            }
            perf = exec("perf", "stat", mode, "-a", "-x,", "-e", EVENTS, "--", "sleep", "0.05");
            ours = Run.of("stat", mode, "-a", "-x,", "-e", EVENTS, "--", "sleep", "0.05");
            assertEquals(csvShape(perf.err(), ","), csvShape(ours.err(), ","), mode);
            assertEquals(ids(perf.err(), mode), ids(ours.err(), mode), mode);
            perf = exec("perf", "stat", mode, "-a", "-j", "-e", EVENTS, "--", "sleep", "0.05");
            ours = Run.of("stat", mode, "-a", "-j", "-e", EVENTS, "--", "sleep", "0.05");
            assertEquals(jsonShape(perf.err()), jsonShape(ours.err()), mode);
            assertEquals(jsonIds(perf.err()), jsonIds(ours.err()), mode);
        }
    }

    @Test
    void intervalsHaveTheModesHeaderAndRows() throws Exception {
        assumeSystemWide();
        for (String mode : TOPOLOGY_MODES) {
            StatTest.Result perf = exec("perf", "stat", "-I", "100", "--interval-count", "1", mode, "-a", "-e", EVENTS);
            Run ours = Run.of("stat", "-I", "100", "--interval-count", "1", mode, "-a", "-e", EVENTS);
            assertEquals(0, ours.rc(), ours.err());
            List<String> a = perf.err().lines().toList();
            List<String> b = ours.err().lines().toList();
            assertEquals(a.get(0), b.get(0), mode); // the column header, byte for byte
            assertEquals(shapes(a), shapes(b), mode);
            perf = exec("perf", "stat", "-I", "100", "--interval-count", "1", mode, "-a", "-x,", "-e", EVENTS);
            ours = Run.of("stat", "-I", "100", "--interval-count", "1", mode, "-a", "-x,", "-e", EVENTS);
            assertEquals(csvShape(perf.err(), ","), csvShape(ours.err(), ","), mode);
            perf = exec("perf", "stat", "-I", "100", "--interval-count", "1", mode, "-a", "-j", "-e", EVENTS);
            ours = Run.of("stat", "-I", "100", "--interval-count", "1", mode, "-a", "-j", "-e", EVENTS);
            assertEquals(jsonShape(perf.err().replaceAll("\"interval\" : [0-9.]+, ", "")),
                    jsonShape(ours.err().replaceAll("\"interval\" : [0-9.]+, ", "")), mode);
        }
    }

    /** Over -r runs perf aggregates the last run's counts and prints a spread of 0. */
    @Test
    void repeatedRunsAggregateTheLast() throws Exception {
        assumeSystemWide();
        StatTest.Result perf = exec("perf", "stat", "-r", "2", "--per-socket", "-a", "-x,", "-e", EVENTS, "--", "sleep", "0.05");
        Run ours = Run.of("stat", "-r", "2", "--per-socket", "-a", "-x,", "-e", EVENTS, "--", "sleep", "0.05");
        assertEquals(csvShape(perf.err(), ","), csvShape(ours.err(), ","));
        assertTrue(ours.err().contains(",0.00%,"), ours.err());
    }

    /** --per-thread on a process: a row per thread and event, threads by count, each with its own CPUs utilized. */
    @Test
    void perThreadRowsOfAProcess() throws Exception {
        Process p = new ProcessBuilder(workload, "30", "cpu", "2").start();
        try {
            Thread.sleep(200);
            String pid = Long.toString(p.pid());
            String events = "task-clock,context-switches,page-faults,cycles";
            StatTest.Result perf = exec("perf", "stat", "--per-thread", "-p", pid, "-e", events, "--timeout", "200");
            Run ours = Run.of("stat", "--per-thread", "-p", pid, "-e", events, "--timeout", "200");
            assertEquals(0, ours.rc(), ours.err());
            // (whether a thread ran in a window is the scheduler's: a thread <not counted> in one run may count
            // in the other, so rows are compared by what does not depend on it)
            assertEquals(new TreeSet<>(counted(shapes(table(perf.err())))), new TreeSet<>(counted(shapes(table(ours.err())))),
                    ours.err());
            assertEquals(table(perf.err()).size(), table(ours.err()).size(), ours.err());
            for (String l : table(ours.err())) {
                assertTrue(l.matches(" Performance.*|\\s+\\S.*|.*seconds time elapsed"), l);
            }
            perf = exec("perf", "stat", "--per-thread", "-p", pid, "-x,", "-e", events, "--timeout", "100");
            ours = Run.of("stat", "--per-thread", "-p", pid, "-x,", "-e", events, "--timeout", "100");
            assertEquals(new TreeSet<>(counted(csvShape(perf.err(), ","))), new TreeSet<>(counted(csvShape(ours.err(), ","))));
            assertEquals(new TreeSet<>(ids(perf.err(), "--per-thread")), new TreeSet<>(ids(ours.err(), "--per-thread")));
            perf = exec("perf", "stat", "--per-thread", "-p", pid, "-j", "-e", events, "--timeout", "100");
            ours = Run.of("stat", "--per-thread", "-p", pid, "-j", "-e", events, "--timeout", "100");
            assertEquals(new TreeSet<>(counted(jsonShape(perf.err()))), new TreeSet<>(counted(jsonShape(ours.err()))));
            assertEquals(new TreeSet<>(jsonIds(perf.err())), new TreeSet<>(jsonIds(ours.err())));
            perf = exec("perf", "stat", "--per-thread", "-p", pid, "-I", "100", "--interval-count", "1", "-e", "task-clock");
            ours = Run.of("stat", "--per-thread", "-p", pid, "-I", "100", "--interval-count", "1", "-e", "task-clock");
            assertEquals(perf.err().lines().findFirst(), ours.err().lines().findFirst());
            // (whether a thread ran in the interval is the scheduler's: the threads and event, not the counts)
            assertEquals(threadsOf(perf.err()), threadsOf(ours.err()));
        } finally {
            p.destroy();
        }
    }

    /**
     * --per-thread alone: every thread of the machine that counted anything, a row each, as perf.
     * As root: a user counts only its own threads, in user space, where perf's choice differs.
     */
    @Test
    void perThreadAloneCountsEveryThread() throws Exception {
        assumeTrue(StatTest.root(), "as a user jperf counts its own threads in user space only: not perf's rows");
        StatTest.Result perf = exec("perf", "stat", "--per-thread", "-e", "context-switches,cycles", "--timeout", "150");
        assumeTrue(perf.rc() == 0, () -> "perf counts no other users' threads here: " + perf.err().strip());
        Run ours = Run.of("stat", "--per-thread", "-e", "context-switches,cycles", "--timeout", "150");
        assertEquals(0, ours.rc(), ours.err());
        List<String> a = table(perf.err());
        List<String> b = table(ours.err());
        assertEquals(a.get(0), b.get(0));
        assertEquals(a.get(a.size() - 1).replaceAll("[0-9]", "0"), b.get(b.size() - 1).replaceAll("[0-9]", "0"));
        assertTrue(b.size() > 3, ours.err());
        int width = a.subList(1, a.size() - 1).stream().filter(l -> l.charAt(0) == ' ').findFirst().orElseThrow().length();
        for (String l : b.subList(1, b.size() - 1)) {
            // a thread that did not count is left out, so is the unsupported event
            assertTrue(l.matches(" *\\S.*-\\d+ +\\d+      context-switches +"), l);
            if (l.charAt(0) == ' ') { // a comm of 16 or more (a kworker's with its workqueue) widens the line
                assertEquals(width, l.length(), l);
            }
        }
    }

    /** The modes' usage errors: perf's line and exit code. */
    @Test
    void modesOutsideTheirTargetsArePerfsErrors() throws Exception {
        List<List<String>> cases = new ArrayList<>();
        for (String mode : TOPOLOGY_MODES) {
            cases.add(List.of(mode, "-e", "task-clock", "--", "true"));
        }
        cases.add(List.of("--per-thread", "-e", "task-clock", "--", "true"));
        cases.add(List.of("--per-thread", "-C", "0", "-e", "task-clock", "--", "true"));
        for (List<String> c : cases) {
            List<String> cmd = new ArrayList<>(List.of("perf", "stat"));
            cmd.addAll(c);
            StatTest.Result perf = exec(cmd);
            Run ours = Run.of(cmd.subList(1, cmd.size()).toArray(String[]::new));
            assertEquals(perf.rc(), ours.rc(), c.toString());
            assertEquals(perf.err().lines().findFirst().orElseThrow() + "\n", ours.err(), c.toString());
        }
    }

    /** Rows as counted or not alike: the count's place, the metric's and run time left out. */
    private static List<String> counted(List<String> shapes) {
        List<String> out = new ArrayList<>();
        for (String s : shapes) {
            out.add(s.replace("<not counted>", "0").replaceAll("( [a-z-]+(:u)?) #.*", "$1").replaceAll("metric-unit=\"[^\"]*\"", "")
                    .replaceAll(",0,0,.*", ",0,0").strip());
        }
        return out;
    }

    /** The comm-tid and event of each -I line. */
    private static TreeSet<String> threadsOf(String intervals) {
        TreeSet<String> out = new TreeSet<>();
        for (String l : intervals.lines().skip(1).toList()) {
            String row = l.replaceFirst("^ *[0-9.]+ ", "");
            out.add(row.substring(0, 26) + row.replaceAll(".* msec ([a-z-]+).*", "$1"));
        }
        return out;
    }

    /** Each CSV line's id fields (the CPU, thread or id with its CPU count) and event name. */
    private static List<String> ids(String csv, String mode) {
        int n = mode.equals("-A") || mode.equals("--per-thread") ? 1 : 2;
        List<String> out = new ArrayList<>();
        for (String l : csv.lines().toList()) {
            String[] f = l.split(",", -1);
            out.add(String.join(",", List.of(f).subList(0, n)) + " " + f[n + 2]);
        }
        return out;
    }

    /** Each JSON line's id keys and values, and event. */
    private static List<String> jsonIds(String json) {
        List<String> out = new ArrayList<>();
        for (String l : json.lines().toList()) {
            out.add(l.replaceAll("\"counter-value\".*\"event\" : (\"[^\"]*\").*", "$1"));
        }
        return out;
    }
}
