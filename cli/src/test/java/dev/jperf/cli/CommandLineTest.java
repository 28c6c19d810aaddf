package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.PerfOracle;
import java.util.HashMap;
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
            for (String c : new String[] {"record", "report", "annotate", "script", "dump", "inject"}) {
                assertTrue(r.out().contains("\n   " + c + " "), r.out());
            }
        }
        assertTrue(Run.of("--version").out().startsWith("jperf version "));
    }

    @Test
    void everyCommandHasHelp() {
        for (String c : new String[] {"record", "report", "annotate", "script", "dump", "inject"}) {
            Run h = Run.of(c, "-h");
            assertEquals(0, h.rc(), c);
            assertTrue(h.out().startsWith("\n Usage: jperf " + c + " "), h.out());
            assertEquals(h.out(), Run.of("help", c).out());
            assertEquals(h.out(), Run.of(c, "--help").out());
        }
    }

    @Test
    void badCommandLinesAreOneLine() {
        Run r = Run.of("report", "--bogus");
        assertEquals(129, r.rc());
        assertEquals("jperf report: unknown option '--bogus' (jperf report -h lists the options)\n", r.err());
        r = Run.of("record", "-F", "fast", "-a");
        assertEquals(129, r.rc());
        assertEquals(1, r.err().lines().count(), r.err());
        r = Run.of("script", "-i");
        assertEquals(129, r.rc());
        assertTrue(r.err().startsWith("jperf script: option '--input' requires a value"), r.err());
        r = Run.of("annotate", "-i", "x", "a", "b");
        assertEquals(129, r.rc());
        assertTrue(r.err().startsWith("jperf annotate: unexpected argument 'b'"), r.err());
        r = Run.of("bogus");
        assertEquals(1, r.rc());
        assertEquals("jperf: 'bogus' is not a jperf command. See 'jperf --help'.\n", r.err());
    }

    /** Each long option jperf shares with perf has perf's short letter and takes a value as perf's does. */
    @Test
    void sharedOptionsAreSpelledAsPerfSpellsThem() throws Exception {
        PerfOracle.assumeInstalled();
        for (String c : new String[] {"record", "report", "annotate", "script"}) {
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
