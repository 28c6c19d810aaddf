package dev.jperf.cli;

import static dev.jperf.cli.StatTest.csvShape;
import static dev.jperf.cli.StatTest.exec;
import static dev.jperf.cli.StatTest.jsonShape;
import static dev.jperf.cli.StatTest.shapes;
import static dev.jperf.cli.StatTest.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.PerfOracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * perf stat's run and output options against perf 6.1 run live on the same command: {@code -D},
 * {@code --pre}/{@code --post}, {@code --append}, {@code --log-fd}, {@code --summary},
 * {@code --no-csv-summary}, {@code -B}/{@code --no-big-num}, with perf's errors and exit codes.
 */
class StatOptionsTest {
    @TempDir
    Path tmp;

    @BeforeEach
    void setUp() {
        PerfOracle.assumeInstalled();
    }

    /** -D: counters off for that long after the start (said on stderr), the elapsed time from then on; -1: never on. */
    @Test
    void delayStartsCountingLater() throws Exception {
        StatTest.Result perf = exec("perf", "stat", "-D", "200", "-e", "task-clock", "--", "sleep", "0.3");
        Run ours = Run.of("stat", "-D", "200", "-e", "task-clock", "--", "sleep", "0.3");
        assertEquals(0, ours.rc(), ours.err());
        assertTrue(ours.err().startsWith("Events disabled\nEvents enabled\n\n Performance counter stats for"), ours.err());
        assertEquals(perf.err().lines().limit(2).toList(), ours.err().lines().limit(2).toList());
        assertEquals(shapes(table(perf.err())), shapes(table(ours.err())));
        Matcher m = Pattern.compile(" ([0-9.]+) seconds time elapsed").matcher(ours.err());
        assertTrue(m.find(), ours.err());
        // sleep 0.3 minus the 0.2 s delay: at least 0.05, and well under the whole 0.3 (a busy machine only adds)
        double elapsed = Double.parseDouble(m.group(1));
        assertTrue(elapsed >= 0.05 && elapsed < 0.28, "elapsed " + elapsed);
        perf = exec("perf", "stat", "-D", "-1", "-x,", "-e", "task-clock", "--", "sleep", "0.05");
        ours = Run.of("stat", "-D", "-1", "-x,", "-e", "task-clock", "--", "sleep", "0.05");
        // (as a user perf 6.1 names the never enabled event with or without the :u of the user space
        // it counts, run by run: left out here)
        assertEquals(perf.err().replace("task-clock:u,", "task-clock,"), ours.err().replace("task-clock:u,", "task-clock,"));
        assertTrue(ours.err().matches("Events disabled\n<not counted>,msec,task-clock(:u)?,0,100.00,,\n"), ours.err());
        perf = exec("perf", "stat", "--quiet", "-D", "20", "-e", "task-clock", "--", "true");
        ours = Run.of("stat", "--quiet", "-D", "20", "-e", "task-clock", "--", "true");
        assertEquals(perf.err(), ours.err());
        assertEquals(perf.rc(), ours.rc());
    }

    /**
     * --pre/--post: run by the shell around each run, on jperf's stdout (--post only after a workload
     * that succeeded); a failing one as perf takes it.
     */
    @Test
    void preAndPostRunAroundEachRun() throws Exception {
        List<List<String>> cases = List.of(
                List.of("--pre", "echo PRE", "--post", "echo POST", "-r", "2", "-x,", "-e", "task-clock", "--", "sh", "-c",
                        "echo RUN"),
                List.of("--pre", "exit 3", "-x,", "-e", "task-clock", "--", "sh", "-c", "echo RUN; exit 5"),
                List.of("--post", "exit 3", "-x,", "-e", "task-clock", "--", "sh", "-c", "echo RUN"));
        // (after a workload that failed perf's status, and so whether --post runs, races its SIGCHLD
        // handling: jperf follows the code, the workload's status skips --post, checked on jperf alone)
        for (List<String> c : cases) {
            List<String> args = new ArrayList<>(List.of("stat"));
            args.addAll(c);
            List<String> perfCmd = new ArrayList<>(List.of("perf"));
            perfCmd.addAll(args);
            StatTest.Result perf = exec(perfCmd);
            StatTest.Result ours = exec(StatTest.jperf(List.of(), args.toArray(String[]::new)));
            assertEquals(perf.rc(), ours.rc(), c + ": " + ours.err());
            assertEquals(perf.out(), ours.out(), c.toString());
            assertEquals(csvShape(perf.err(), ","), csvShape(ours.err(), ","), c.toString());
        }
        StatTest.Result ours = exec(StatTest.jperf(List.of(), "stat", "--post", "echo POST", "-x,", "-e", "task-clock", "--",
                "sh", "-c", "exit 5"));
        assertEquals(5, ours.rc(), ours.err());
        assertEquals("", ours.out());
    }

    /** -o with --append: the file grows by a "# started on" block per run; --append alone changes nothing. */
    @Test
    void appendAddsToTheOutputFile() throws Exception {
        Path theirs = Files.writeString(tmp.resolve("perf.txt"), "previous\n");
        Path mine = Files.writeString(tmp.resolve("jperf.txt"), "previous\n");
        for (int i = 0; i < 2; i++) {
            StatTest.Result perf = exec("perf", "stat", "--append", "-o", theirs.toString(), "-x,", "-e", "page-faults", "--", "true");
            Run ours = Run.of("stat", "--append", "-o", mine.toString(), "-x,", "-e", "page-faults", "--", "true");
            assertEquals(perf.rc(), ours.rc());
            assertEquals(perf.err(), ours.err());
        }
        assertEquals(mask(Files.readString(theirs)), mask(Files.readString(mine)));
        assertTrue(Files.readString(mine).startsWith("previous\n# started on "), Files.readString(mine));
        StatTest.Result perf = exec("perf", "stat", "--append", "-x,", "-e", "page-faults", "--", "true");
        Run ours = Run.of("stat", "--append", "-x,", "-e", "page-faults", "--", "true");
        assertEquals(csvShape(perf.err(), ","), csvShape(ours.err(), ","));
    }

    /** --log-fd N: the counts on an fd the shell opened (appended to with --append), perf's errors otherwise. */
    @Test
    void logFdPrintsToAnInheritedFd() throws Exception {
        Path theirs = Files.writeString(tmp.resolve("perf.txt"), "previous\n");
        Path mine = Files.writeString(tmp.resolve("jperf.txt"), "previous\n");
        List<String> args = List.of("stat", "--log-fd", "3", "--append", "-x,", "-e", "page-faults", "--", "true");
        StatTest.Result perf = withFd3(theirs, concat(List.of("perf"), args));
        StatTest.Result ours = withFd3(mine, StatTest.jperf(List.of(), args.toArray(String[]::new)));
        assertEquals(perf.rc(), ours.rc(), ours.err());
        assertEquals(perf.err(), ours.err());
        assertEquals("", ours.err());
        assertEquals(mask(Files.readString(theirs)), mask(Files.readString(mine)));
        assertTrue(Files.readString(mine).matches("previous\n\\d+,,page-faults(:u)?,\\d+,100.00,,\n"), Files.readString(mine));
        for (List<String> bad : List.of(List.of("--log-fd", "3", "-o", tmp.resolve("x").toString()), List.of("--log-fd", "-2"),
                List.of("--log-fd", "9"))) {
            List<String> cmd = new ArrayList<>(List.of("stat"));
            cmd.addAll(bad);
            cmd.addAll(List.of("-e", "page-faults", "--", "true"));
            StatTest.Result p = exec(concat(List.of("perf"), cmd));
            Run r = Run.of(cmd.toArray(String[]::new));
            assertEquals(p.rc(), r.rc(), bad.toString());
            assertEquals(p.err().lines().findFirst().orElseThrow() + "\n", r.err(), bad.toString());
        }
    }

    /** --summary: the totals after the -I lines ("summary" first in CSV unless --no-csv-summary). */
    @Test
    void summaryFollowsTheIntervals() throws Exception {
        StatTest.Result perf = exec("perf", "stat", "-I", "100", "--summary", "-e", "task-clock,page-faults", "--", "sleep", "0.15");
        Run ours = Run.of("stat", "-I", "100", "--summary", "-e", "task-clock,page-faults", "--", "sleep", "0.15");
        assertEquals(0, ours.rc(), ours.err());
        assertEquals(shapes(table(perf.err())), shapes(table(ours.err())));
        assertEquals(perf.err().lines().findFirst(), ours.err().lines().findFirst());
        for (List<String> extra : List.of(List.of("-I", "100", "--summary", "-x,"), List.of("-I", "100", "--summary",
                "--no-csv-summary", "-x,"), List.of("--summary", "-x,"), List.of("--no-csv-summary", "-I", "100", "-x,"))) {
            List<String> args = new ArrayList<>(List.of("stat"));
            args.addAll(extra);
            args.addAll(List.of("-e", "task-clock,page-faults", "--", "sleep", "0.15"));
            perf = exec(concat(List.of("perf"), args));
            ours = Run.of(args.toArray(String[]::new));
            // the number of -I lines depends on the timing: the summary lines are the last two
            List<String> a = csvShape(perf.err(), ",");
            List<String> b = csvShape(ours.err(), ",");
            assertEquals(a.subList(a.size() - 2, a.size()), b.subList(b.size() - 2, b.size()), extra.toString());
            assertEquals(a.get(0), b.get(0), extra.toString());
        }
        perf = exec("perf", "stat", "-I", "100", "--summary", "-j", "-e", "task-clock", "--", "sleep", "0.15");
        ours = Run.of("stat", "-I", "100", "--summary", "-j", "-e", "task-clock", "--", "sleep", "0.15");
        List<String> a = jsonShape(perf.err());
        List<String> b = jsonShape(ours.err());
        assertEquals(a.get(a.size() - 1), b.get(b.size() - 1));
    }

    /** -B: perf's thousands' separators, which the C locale (jperf's numbers) has none of; refused with -x. */
    @Test
    void bigNumAsPerfInTheCLocale() throws Exception {
        for (String option : List.of("-B", "--big-num", "--no-big-num")) {
            StatTest.Result perf = exec(List.of("env", "LC_ALL=C", "perf", "stat", option, "-e", "page-faults", "--", "true"));
            Run ours = Run.of("stat", option, "-e", "page-faults", "--", "true");
            assertEquals(shapes(table(perf.err())), shapes(table(ours.err())), option);
        }
        StatTest.Result perf = exec("perf", "stat", "-B", "-x,", "-e", "page-faults", "--", "true");
        Run ours = Run.of("stat", "-B", "-x,", "-e", "page-faults", "--", "true");
        assertEquals(perf.rc(), ours.rc());
        assertEquals(perf.err().lines().findFirst().orElseThrow() + "\n", ours.err());
        perf = exec("perf", "stat", "--no-big-num", "-x,", "-e", "page-faults", "--", "true");
        ours = Run.of("stat", "--no-big-num", "-x,", "-e", "page-faults", "--", "true");
        assertEquals(csvShape(perf.err(), ","), csvShape(ours.err(), ","));
    }

    /** -d, -dd, -ddd: perf's cache event lists after the others (not with -n). */
    @Test
    void detailedAddsPerfsCacheEvents() throws Exception {
        for (List<String> extra : List.of(List.of("-d"), List.of("-dd"), List.of("-d", "-d", "-d"), List.of("-d", "-e",
                "task-clock"), List.of("-n", "-d"), List.of("-dd", "--no-detailed"))) {
            List<String> args = new ArrayList<>(List.of("stat", "-x,"));
            args.addAll(extra);
            args.addAll(List.of("--", "true"));
            StatTest.Result perf = exec(concat(List.of("perf"), args));
            Run ours = Run.of(args.toArray(String[]::new));
            assertEquals(perf.rc(), ours.rc(), extra.toString());
            assertEquals(csvShape(perf.err(), ","), csvShape(ours.err(), ","), extra.toString());
        }
    }

    /**
     * --topdown, --td-level, --smi-cost, --cputype, --iostat: perf's answer on this machine (what it
     * lacks), its exit code.
     */
    @Test
    void platformOptionsAnswerAsPerf() throws Exception {
        for (List<String> extra : List.of(List.of("--topdown"), List.of("--topdown", "-a"), List.of("--td-level", "2",
                "--topdown"), List.of("--td-level", "0", "--topdown", "-a"), List.of("--smi-cost"), List.of("--smi-cost", "-a",
                "--topdown"), List.of("--cputype", "core"), List.of("--cputype=atom"), List.of("--iostat"),
                List.of("--iostat=list"))) {
            List<String> args = new ArrayList<>(List.of("stat", "-x,"));
            args.addAll(extra);
            args.addAll(List.of("-e", "task-clock", "--", "true"));
            StatTest.Result perf = exec(concat(List.of("perf"), args));
            Run ours = Run.of(args.toArray(String[]::new));
            if (perf.rc() != 0) {
                assertEquals(perf.rc(), ours.rc(), extra.toString());
                assertEquals(perf.err().lines().findFirst().orElseThrow() + "\n", ours.err(), extra.toString());
            } else {
                // a machine that has what perf needs: jperf cannot measure it yet, and says so
                assertTrue(ours.err().contains("jperf does not"), ours.err());
            }
        }
        // --td-level alone changes nothing
        StatTest.Result perf = exec("perf", "stat", "-x,", "--td-level", "3", "-e", "task-clock", "--", "true");
        Run ours = Run.of("stat", "-x,", "--td-level", "3", "-e", "task-clock", "--", "true");
        assertEquals(csvShape(perf.err(), ","), csvShape(ours.err(), ","));
    }

    /** --all-user/--all-kernel: every event in that context (whatever its modifier), its name kept; not both. */
    @Test
    void allUserAndAllKernelSetEveryEventsContext() throws Exception {
        for (String option : List.of("--all-user", "--all-kernel")) {
            StatTest.Result perf = exec("perf", "stat", option, "-x,", "-e", "page-faults:k,page-faults:u,page-faults", "--", "true");
            Run ours = Run.of("stat", option, "-x,", "-e", "page-faults:k,page-faults:u,page-faults", "--", "true");
            assertEquals(perf.rc(), ours.rc(), option + ": " + ours.err());
            if (perf.rc() != 0) {
                // the kernel refuses a user the kernel context (perf_event_paranoid): one line
                assertEquals(1, ours.err().lines().count(), ours.err());
                continue;
            }
            assertEquals(csvShape(perf.err(), ","), csvShape(ours.err(), ","), option);
            // page-faults:k and :u count apart (the kernel's faults of an exec, the program's own), here all alike
            List<String> counts = StatTest.fields(ours.err(), 1);
            assertEquals(1, counts.stream().distinct().count(), option + ": one context for all\n" + ours.err());
        }
        StatTest.Result perf = exec("perf", "stat", "--all-user", "--all-kernel", "--", "true");
        Run ours = Run.of("stat", "--all-user", "--all-kernel", "--", "true");
        assertEquals(perf.rc(), ours.rc());
        assertTrue(ours.err().startsWith("jperf stat: " + perf.err().lines().findFirst().orElseThrow().replace(" Error: ", "")),
                ours.err());
    }

    /** -i: the workload's children are not counted. */
    @Test
    void noInheritLeavesTheChildrenOut() throws Exception {
        String[] work = {"sh", "-c", "/bin/true; /bin/true; /bin/true"};
        StatTest.Result perf = exec(concat(List.of("perf", "stat", "-i", "-x,", "-e", "page-faults,task-clock", "--"), List.of(work)));
        Run ours = Run.of(concat(List.of("stat", "-i", "-x,", "-e", "page-faults,task-clock", "--"), List.of(work))
                .toArray(String[]::new));
        assertEquals(csvShape(perf.err(), ","), csvShape(ours.err(), ","));
        Run inherited = Run.of(concat(List.of("stat", "-x,", "-e", "page-faults", "--"), List.of(work)).toArray(String[]::new));
        // three children fault in their own pages: well more than the shell alone
        long alone = Long.parseLong(StatTest.fields(ours.err(), 1).get(0));
        long withChildren = Long.parseLong(StatTest.fields(inherited.err(), 1).get(0));
        assertTrue(withChildren > alone + 60, alone + " vs " + withChildren);
    }

    /** --table: each run's elapsed time and its distance from the mean before the mean; only with -r. */
    @Test
    void tableListsEachRun() throws Exception {
        StatTest.Result perf = exec("perf", "stat", "-r", "3", "--table", "-e", "task-clock", "--", "true");
        Run ours = Run.of("stat", "-r", "3", "--table", "-e", "task-clock", "--", "true");
        assertEquals(0, ours.rc(), ours.err());
        assertEquals(bars(shapes(table(perf.err()))), bars(shapes(table(ours.err()))), ours.err());
        // indented as the mean's figure
        Matcher m = Pattern.compile("\n\n( +)# Table of individual measurements:\n(?:.*\n)+\n( +)# Final result:\n( +)[0-9]")
                .matcher(ours.err());
        assertTrue(m.find(), ours.err());
        assertEquals(m.group(1), m.group(2));
        assertEquals(m.group(1), m.group(3), ours.err());
        perf = exec("perf", "stat", "--table", "-e", "task-clock", "--", "true");
        ours = Run.of("stat", "--table", "-e", "task-clock", "--", "true");
        assertEquals(perf.rc(), ours.rc());
        assertEquals(perf.err().lines().findFirst().orElseThrow() + "\n", ours.err());
    }

    /**
     * Event groups, {@code {a,b}} (with modifiers for all members) and {@code -g}: counted together;
     * a group with a member the machine lacks is not counted, one whose leader it lacks is perf's error.
     */
    @Test
    void eventGroupsAsPerf() throws Exception {
        for (List<String> events : List.of(List.of("-e", "{task-clock,page-faults}"), List.of("-e",
                "{task-clock,cycles},context-switches"), List.of("-e", "{task-clock,cycles,page-faults}", "-e", "cpu-migrations"),
                List.of("-e", "{task-clock,page-faults}:u"), List.of("-e", "{task-clock,page-faults}:k"), List.of("-g", "-e",
                "task-clock,page-faults"), List.of("-g", "-e", "task-clock,cycles,page-faults"), List.of("-g"),
                List.of("-e", "{cycles,task-clock}"))) {
            List<String> args = new ArrayList<>(List.of("stat", "-x,"));
            args.addAll(events);
            args.addAll(List.of("--", "true"));
            StatTest.Result perf = exec(concat(List.of("perf"), args));
            Run ours = Run.of(args.toArray(String[]::new));
            assertEquals(perf.rc(), ours.rc(), events + ": " + ours.err());
            if (perf.rc() != 0) {
                // perf's reason last ("The cycles event is not supported.", or the kernel's refusal), ours one line
                assertEquals(1, ours.err().lines().count(), ours.err());
                if (events.contains("{cycles,task-clock}")) {
                    assertEquals("jperf stat: " + perf.err().strip().lines().reduce((a, b) -> b).orElseThrow() + "\n", ours.err());
                }
                continue;
            }
            assertEquals(csvShape(perf.err(), ","), csvShape(ours.err(), ","), events.toString());
        }
    }

    /**
     * --interval-clear: refused as perf refuses it where the counts do not go to a terminal (its
     * words, usage lines and exit code); on one (script(1)'s), the screen cleared on stdout and the
     * header before every interval, in the table and in JSON.
     */
    @Test
    void intervalClearAsPerf() throws Exception {
        for (List<String> extra : List.<List<String>>of(List.of("-I", "100"), List.of("-x,", "-I", "100"), List.of("-o",
                tmp.resolve("out").toString()), List.of())) {
            List<String> args = new ArrayList<>(List.of("stat", "--interval-clear"));
            args.addAll(extra);
            args.addAll(List.of("-e", "task-clock", "--", "true"));
            StatTest.Result perf = exec(concat(List.of("perf"), args));
            Run ours = Run.of(args.toArray(String[]::new));
            assertEquals(255, perf.rc(), perf.err());
            assertEquals(perf.rc(), ours.rc(), extra.toString());
            // jperf's usage line names jperf
            assertEquals(perf.err().replace(" Usage: perf ", " Usage: jperf "), ours.err(), extra.toString());
        }
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/script")), "script(1) (util-linux) is not installed");
        for (List<String> extra : List.<List<String>>of(List.of(), List.of("-j"))) {
            List<String> args = new ArrayList<>(List.of("stat", "-I", "100", "--interval-count", "2", "--interval-clear"));
            args.addAll(extra);
            args.addAll(List.of("-e", "task-clock", "--", "sleep", "0.4"));
            List<String> perf = onTerminal(concat(List.of("perf"), args));
            List<String> ours = onTerminal(StatTest.jperf(List.of(), args.toArray(String[]::new)));
            assertEquals(List.of("clear", "#           time             counts unit events", "interval", "clear",
                    "#           time             counts unit events", "interval"), perf, extra.toString());
            assertEquals(perf, ours, extra.toString());
        }
    }

    /**
     * -S/--sync: sync(2) before the run, as strace(1) sees perf call it; --scale/--no-scale: the
     * counts as perf prints them (software events never multiplex: StatPrinterTest has the rule).
     */
    @Test
    void syncAndScaleAsPerf() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/strace")), "strace is not installed");
        // a process of the test's own, counted for 200 ms (a workload of jperf's does not start under strace -f)
        Process sleeper = new ProcessBuilder("sleep", "60").start();
        try {
            for (List<String> extra : List.<List<String>>of(List.of("-S"), List.of("--sync"), List.of())) {
                List<String> args = new ArrayList<>(List.of("stat", "-x,"));
                args.addAll(extra);
                args.addAll(List.of("--timeout", "200", "-e", "task-clock", "-p", Long.toString(sleeper.pid())));
                long perf = syncs(concat(List.of("perf"), args));
                long ours = syncs(StatTest.jperf(List.of(), args.toArray(String[]::new)));
                assertEquals(extra.isEmpty() ? 0 : 1, perf, extra.toString());
                assertEquals(perf, ours, extra.toString());
            }
        } finally {
            sleeper.destroy();
        }
        for (String option : List.of("--no-scale", "--scale")) {
            StatTest.Result perf = exec("perf", "stat", option, "-x,", "-e", "task-clock,page-faults", "--", "true");
            Run ours = Run.of("stat", option, "-x,", "-e", "task-clock,page-faults", "--", "true");
            assertEquals(perf.rc(), ours.rc(), option);
            assertEquals(csvShape(perf.err(), ","), csvShape(ours.err(), ","), option);
        }
    }

    /** How many times {@code cmd} (or a child) called sync(2), as strace(1) counts them. */
    private long syncs(List<String> cmd) throws Exception {
        Path log = Files.createTempFile(tmp, "strace", ".log");
        StatTest.Result r = exec(concat(List.of("strace", "-f", "-qq", "-e", "trace=sync", "-e", "signal=none", "-o",
                log.toString()), cmd));
        assumeTrue(r.rc() == 0 || !Files.readString(log).contains("sync"), "strace: " + r.err());
        assertEquals(0, r.rc(), r.err());
        return Files.readAllLines(log).stream().filter(l -> l.matches("\\d+ +sync\\(\\) .*")).count();
    }

    /** {@code cmd} on script(1)'s terminal: its lines as kinds (clear, interval) or as they are. */
    private static List<String> onTerminal(List<String> cmd) throws Exception {
        StringBuilder line = new StringBuilder();
        for (String w : cmd) {
            line.append(" '").append(w.replace("'", "'\\''")).append('\'');
        }
        StatTest.Result r = exec("script", "-qec", line.toString(), "/dev/null");
        assertEquals(0, r.rc(), r.out() + r.err());
        List<String> kinds = new ArrayList<>();
        for (String l : r.out().replace("\r", "").lines().toList()) {
            kinds.add(l.equals("\033[H\033[2J") ? "clear"
                    : l.matches(" *\\d+\\.\\d{9} .*|\\{\"interval\" : \\d+\\.\\d{9}, .*") ? "interval" : l);
        }
        return kinds;
    }

    /** A run's bar of #s and its sign (they depend on the timing) masked, the spread's figure left out. */
    private static List<String> bars(List<String> shapes) {
        List<String> out = new ArrayList<>();
        for (String s : shapes) {
            out.add(s.replaceAll("#+$", "#").replaceAll("\\([+-]0\\)", "(0)").replaceAll(" *\\( \\+- *0% \\)", ""));
        }
        return out;
    }

    private static StatTest.Result withFd3(Path file, List<String> cmd) throws Exception {
        List<String> sh = new ArrayList<>(List.of("sh", "-c", "exec \"$@\" 3>>\"$0\"", file.toString()));
        sh.addAll(cmd);
        return exec(sh);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> c = new ArrayList<>(a);
        c.addAll(b);
        return c;
    }

    /** The text with its numbers and dates masked. */
    private static String mask(String s) {
        return s.replaceAll("# started on .*", "# started on").replaceAll("\\d+(\\.\\d+)?", "0");
    }
}
