package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.cli.options.UsageException;
import dev.jperf.report.PerfOracle;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The {@code jperf} command line: help, version, and errors as one line with perf's exit codes. */
class CommandLineTest {
    @Test
    void noArgumentsOrHelpListTheCommands() {
        for (String[] args : new String[][] {{}, {"--help"}, {"help"}}) {
            Run r = Run.of(args);
            assertEquals(0, r.rc());
            for (String c : new String[] {"record", "stat", "report", "annotate", "script", "flamegraph", "dump", "inject", "bpf top"}) {
                assertTrue(r.out().contains("\n   " + c + " "), r.out());
            }
        }
        assertTrue(Run.of("--version").out().startsWith("jperf version "));
    }

    @Test
    void everyCommandHasHelp() {
        for (String c : new String[] {"record", "stat", "report", "annotate", "script", "flamegraph", "dump", "inject"}) {
            Run h = Run.of(c, "-h");
            assertEquals(0, h.rc(), c);
            assertTrue(h.out().startsWith("\n Usage: jperf " + c + " "), h.out());
            assertEquals(h.out(), Run.of("help", c).out());
            assertEquals(h.out(), Run.of(c, "--help").out());
        }
    }

    /** perf refuses -n with --show-total-period (PARSE_OPT_EXCLUSIVE) as jperf does: exit 129, the same words. */
    @Test
    void annotateColumnsExcludeEachOther() throws Exception {
        PerfOracle.assumeInstalled();
        Process p = new ProcessBuilder("perf", "annotate", "-i", "x", "-n", "--show-total-period").redirectErrorStream(true)
                .start();
        String perf = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(129, p.waitFor());
        assertTrue(perf.contains("option `show-total-period' cannot be used with show-nr-samples"), perf);
    }

    @Test
    void badCommandLinesAreOneLine() {
        Run r = Run.of("report", "--bogus");
        assertEquals(129, r.rc());
        assertEquals("jperf report: unknown option '--bogus' (jperf report -h lists the options)\n", r.err());
        r = Run.of("record", "-F", "fast", "-a");
        assertEquals(129, r.rc());
        assertEquals("jperf record: option '--freq' expects a numerical value, not 'fast' (jperf record -h lists the"
                + " options)\n", r.err());
        // the first bad option is the one reported, as options are applied in order
        assertTrue(Run.of("record", "-m", "2x", "--bogus").err().startsWith(
                "jperf record: option '--mmap-pages' expects a numerical value, not '2x'"));
        assertTrue(Run.of("record", "-z5x").err().startsWith(
                "jperf record: option '-z' expects a numerical value, not '5x'"));
        assertTrue(Run.of("record", "-F", "0x100000000").err().startsWith(
                "jperf record: option '-F': 4294967296 is out of range"));
        assertTrue(Run.of("report", "--percent-limit", "x").err().startsWith(
                "jperf report: option '--percent-limit' expects a numerical value, not 'x'"));
        r = Run.of("script", "-i");
        assertEquals(129, r.rc());
        assertTrue(r.err().startsWith("jperf script: option '--input' requires a value"), r.err());
        r = Run.of("annotate", "-i", "x", "a", "b");
        assertEquals(129, r.rc());
        assertTrue(r.err().startsWith("jperf annotate: unexpected argument 'b'"), r.err());
        r = Run.of("annotate", "-i", "x", "-n", "--show-total-period");
        assertEquals(129, r.rc());
        assertTrue(r.err().startsWith("jperf annotate: option `show-total-period' cannot be used with show-nr-samples"),
                r.err());
        r = Run.of("bogus");
        assertEquals(1, r.rc());
        assertEquals("jperf: 'bogus' is not a jperf command. See 'jperf --help'.\n", r.err());
    }

    /** Each command's set takes every option its table lists, given or negated. */
    @Test
    void everyListedOptionIsHandled() {
        for (String c : new String[] {"record", "stat", "report", "annotate", "script", "flamegraph", "dump", "inject"}) {
            Subcommand command = Main.find(c);
            Matcher x = LISTED.matcher(Run.of(c, "-h").out());
            int n = 0;
            while (x.find()) {
                String name = x.group(2) != null ? "--" + x.group(2) : x.group(1);
                List<String> args = x.group(3) != null ? List.of(name + (x.group(2) != null ? "=1" : "1"))
                        : x.group(2) != null ? List.of(name, "--no-" + x.group(2)) : List.of(name);
                try {
                    assertEquals(List.of(), command.options().parse(args, command, System.out), c + " " + args);
                } catch (UsageException e) {
                    // the switch took the option and refused 1 as perf would (--call-graph=1)
                    assertTrue(!e.getMessage().startsWith("unknown option"), c + " " + args + ": " + e.getMessage());
                }
                n++;
            }
            assertTrue(n >= 2, c + ": " + n + " options");
        }
    }

    private static final Pattern LISTED = Pattern.compile("^    (?=-|    --)(-.)?(?:, )?(?: {4})?(?:--([a-z0-9-]+))?(\\[?[= ]?<)?",
            Pattern.MULTILINE);

    /** Each long option jperf shares with perf has perf's short letter and takes a value as perf's does. */
    @Test
    void sharedOptionsAreSpelledAsPerfSpellsThem() throws Exception {
        PerfOracle.assumeInstalled();
        for (String c : new String[] {"record", "stat", "report", "annotate", "script"}) {
            Map<String, String> perf = spellings(PerfOracle.usage(c));
            Map<String, String> ours = spellings(Run.of(c, "-h").out());
            int shared = 0;
            for (Map.Entry<String, String> e : ours.entrySet()) {
                String theirs = perf.get(e.getKey());
                if (theirs != null) {
                    shared++;
                    assertEquals(theirs, e.getValue(), c + " --" + e.getKey());
                }
            }
            assertTrue(shared >= 2, c + ": only " + shared + " options shared with perf");
        }
    }

    private static final Pattern OPTION = Pattern.compile("^    (-.)?(?:, )?(?: {4})?--([a-z0-9-]+)(\\[?[= ]?<)?", Pattern.MULTILINE);

    /** long name -> short letter (or none) + whether it takes a value. */
    private static Map<String, String> spellings(String usage) {
        Map<String, String> m = new HashMap<>();
        Matcher x = OPTION.matcher(usage);
        while (x.find()) {
            m.put(x.group(2), (x.group(1) == null ? "" : x.group(1)) + (x.group(3) == null ? "" : " value"));
        }
        return m;
    }
}
