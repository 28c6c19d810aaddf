package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * script -s/-g: jperf has no Perl or Python engine, so it does what perf built without them does
 * (one message, exit -1); bad language specs and -s lang as perf 6.1 run live.
 */
class ScriptScriptingTest {
    @TempDir
    Path dir;

    /** perf ARGS in {@link #dir} (where -g would write its script): exit code and stderr. */
    private Run perf(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("perf"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "perf timed out");
        return new Run(p.exitValue(), "", err);
    }

    @ParameterizedTest
    @ValueSource(strings = {"-s foo.xyz", "-s foo", "-s lang:foo", "-s ruby:x.rb", "-g foo", "-g python -F comm",
        "--gen-script=tcl"})
    void badSpecsExitAsPerfs(String options) throws Exception {
        PerfOracle.assumeInstalled();
        List<String> args = new ArrayList<>(List.of("script", "-i", CorpusFixture.data("c-process").toString()));
        args.addAll(List.of(options.split(" ")));
        Run theirs = perf(args.toArray(String[]::new));
        Run ours = Run.of(args.toArray(String[]::new));
        assertEquals(theirs.rc(), ours.rc(), ours.err());
        assertEquals("", ours.out());
        assertEquals(1, ours.err().lines().count(), ours.err());
    }

    @Test
    void langListsPerfsLanguages() throws Exception {
        PerfOracle.assumeInstalled();
        Run theirs = perf("script", "-s", "lang");
        Run ours = Run.of("script", "-s", "lang");
        assertEquals(0, theirs.rc());
        assertEquals(0, ours.rc());
        assertEquals(theirs.err(), ours.err());
    }

    /** perf's unsupported scripting ops (no libperl/libpython): start_script and generate_script return -1. */
    @ParameterizedTest
    @ValueSource(strings = {"-s foo.py", "-s python:foo", "-s Perl:x.pl", "--script=x.PL", "-g python", "-g pl",
        "--gen-script=Perl"})
    void noEngineIsOneLineAndPerfsCode(String options) {
        List<String> args = new ArrayList<>(List.of("script", "-i", CorpusFixture.data("c-process").toString()));
        args.addAll(List.of(options.split(" ")));
        Run ours = Run.of(args.toArray(String[]::new));
        assertEquals(255, ours.rc(), ours.err());
        assertEquals("", ours.out());
        assertEquals(1, ours.err().lines().count(), ours.err());
        assertTrue(ours.err().contains("scripting not supported"), ours.err());
    }
}
