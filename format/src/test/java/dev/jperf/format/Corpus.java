package dev.jperf.format;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Where the shared corpus and external vectors are, and perf's --stats goldens parsed. */
final class Corpus {
    private static final Pattern LINE = Pattern.compile("^\\s*([A-Z_0-9]+) events:\\s+(\\d+)");

    private Corpus() {
    }

    static Path shared() {
        String s = System.getProperty("jperf.shared");
        if (s == null) {
            throw new IllegalStateException("system property jperf.shared is not set (run through Maven)");
        }
        return Path.of(s);
    }

    /** corpus/CASE/perf.data for every case that has one. */
    static List<Path> corpusFiles() {
        try (Stream<Path> s = Files.list(shared().resolve("corpus"))) {
            return s.map(d -> d.resolve("perf.data")).filter(Files::isRegularFile).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every external vector file (not licences or READMEs). */
    static List<Path> externalFiles() {
        try (Stream<Path> s = Stream.concat(Files.list(shared().resolve("external/perf_data_converter")),
                Files.list(shared().resolve("external/linux-perf-data")))) {
            return s.filter(p -> {
                String n = p.getFileName().toString();
                return !n.startsWith("LICENSE") && !n.equals("README.md");
            }).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The "Aggregated stats:" block of a perf --stats output: name -> count (empty if perf printed none). */
    static Map<String, Long> aggregated(Path stats) {
        Map<String, Long> m = new LinkedHashMap<>();
        try {
            List<String> lines = Files.readAllLines(stats);
            boolean in = false;
            for (String l : lines) {
                if (l.startsWith("Aggregated stats:")) {
                    in = true;
                    continue;
                }
                if (in && l.endsWith(" stats:")) {
                    break;
                }
                Matcher mm = LINE.matcher(l);
                if (in && mm.find()) {
                    m.put(mm.group(1), Long.parseLong(mm.group(2)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return m;
    }
}
