package dev.jperf.cli;

import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import dev.jperf.format.PerfDataFile;
import dev.jperf.report.export.JsonConvert;
import dev.jperf.report.symbol.SymbolResolver;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * {@code jperf data convert --to-json FILE}: a recording as perf 6.1's JSON (every sample with its
 * thread and resolved callchain), with perf's messages and exit codes. CTF (--to-ctf) is not
 * written: jperf has no Common Trace Format writer.
 */
final class DataConvertCommand implements Subcommand {
    private String input;
    private String json;
    private boolean force;
    private boolean all;
    private boolean tod;
    private Path buildIdDir;

    @Override
    public String name() {
        return "data convert";
    }

    @Override
    public String summary() {
        return "Convert a perf.data file to JSON, as perf data convert --to-json";
    }

    @Override
    public Options options() {
        return new Options("jperf data convert [<options>]")
                .flag('f', "force", "don't complain, do it")
                .value('i', "input", "file", "input file name")
                .flag('v', "verbose", "be more verbose")
                .flag('\0', "all", "Convert all events")
                .value('\0', "to-json", "file", "Convert to JSON format")
                .flag('\0', "tod", "Convert time to wall clock time")
                .value('\0', "buildid-dir", "dir", "the build-id cache (default: $PERF_BUILDID_DIR, else ~/.debug)");
    }

    @Override
    public void buildIdDir(Path dir) {
        buildIdDir = dir;
    }

    @Override
    public void set(String name, OptionValue v) {
        switch (name) {
            case "input" -> input = v.text();
            case "to-json" -> json = v.text();
            case "force" -> force = v.on();
            case "all" -> all = v.on();
            case "tod" -> tod = v.on();
            case "verbose" -> {
                // perf's debug output: nothing of jperf's depends on it
            }
            case "buildid-dir" -> buildIdDir = Path.of(v.text());
            default -> throw new IllegalStateException("option not handled: " + name);
        }
    }

    @Override
    public int call() throws IOException {
        // perf's checks, its words and its exit code (-1)
        if (json == null) {
            System.err.println("You must specify one of --to-ctf or --to-json.");
            return 255;
        }
        if (all || tod) {
            System.err.println("--" + (all ? "all" : "tod") + " is currently unsupported for JSON output.");
            return 255;
        }
        Path out = Path.of(json);
        if (!force && Files.exists(out)) {
            System.err.println("Output file exists. Use --force to overwrite it.");
            return 255;
        }
        String name = Input.name(input);
        long samples;
        try (PerfDataFile file = Input.open(input);
                Writer w = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(out, StandardOpenOption.CREATE,
                        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE), StandardCharsets.UTF_8), 1 << 16)) {
            long mtime = Input.STDIN.equals(name) ? System.currentTimeMillis() : Files.getLastModifiedTime(Path.of(name)).toMillis();
            samples = JsonConvert.run(file, SymbolResolver.Options.defaults(null, null, buildIdDir), mtime, w);
            Input.printWarnings(file, System.err);
        }
        System.err.println("[ perf data convert: Converted '" + name + "' into JSON data '" + json + "' ]");
        System.err.println(String.format(Locale.ROOT, "[ perf data convert: Converted and wrote %.3f MB (%d samples) ]",
                Files.size(out) / 1024.0 / 1024.0, samples));
        return 0;
    }
}
