package dev.jperf.report.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Debian's headless Chromium as the flame graph's browser (a test oracle: CI must install chromium). */
final class Chromium {
    private final Path binary;
    private final Path profile;

    private Chromium(Path binary, Path profile) {
        this.binary = binary;
        this.profile = profile;
    }

    /** Chromium with a private profile under {@code dir}; the test is skipped when it is not installed. */
    static Chromium find(Path dir) {
        for (String name : List.of("chromium", "chromium-browser")) {
            for (String d : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
                Path p = Path.of(d, name);
                if (Files.isExecutable(p)) {
                    return new Chromium(p, dir.resolve("chromium-profile"));
                }
            }
        }
        assumeTrue(false, "chromium is not installed: CI must install Debian's chromium");
        return null;
    }

    private String run(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + profile));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("HOME", profile.getParent().toString());
        pb.environment().put("XDG_CACHE_HOME", profile.getParent().resolve("cache").toString());
        pb.environment().put("XDG_CONFIG_HOME", profile.getParent().resolve("config").toString());
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "chromium timed out");
        assertEquals(0, p.exitValue(), String.join(" ", cmd));
        return out;
    }

    /** The DOM of {@code page} once loaded and its scripts ran. */
    String dumpDom(Path page) throws Exception {
        return run("--dump-dom", page.toUri().toString());
    }

    /** A screenshot of {@code page} ({@code width}x{@code height}) into {@code png}. */
    void screenshot(Path page, Path png, int width, int height) throws Exception {
        run("--window-size=" + width + "," + height, "--screenshot=" + png.toAbsolutePath(), page.toUri().toString());
        assertTrue(Files.size(png) > 10_000, png + " is too small to hold a flame graph");
    }
}
