package dev.jperf.format;

import java.nio.file.Path;

/**
 * Where perf's build-id cache is: {@code --buildid-dir DIR} when given, else the
 * {@code PERF_BUILDID_DIR} environment variable (perf sets it for what it runs, and users set it
 * to keep a cache per project), else {@code $HOME/.debug}. record fills it; report, script, annotate
 * and the exports read it.
 */
public final class BuildIdDir {
    /** perf's PERF_BUILDID_DIR_ENVIRONMENT. */
    public static final String PERF_BUILDID_DIR = "PERF_BUILDID_DIR";
    /** perf's DEBUG_CACHE_DIR, under the home directory. */
    public static final String DEBUG_CACHE_DIR = ".debug";

    private BuildIdDir() {
    }

    /**
     * The cache directory.
     *
     * @param option {@code --buildid-dir}'s value, or null when not given
     */
    public static Path resolve(Path option) {
        if (option != null) {
            return option;
        }
        String env = System.getenv(PERF_BUILDID_DIR);
        if (env != null && !env.isEmpty()) {
            return Path.of(env);
        }
        // perf's set_buildid_dir: $HOME/.debug (a sudo that keeps HOME keeps the user's cache)
        String home = System.getenv("HOME");
        if (home == null || home.isEmpty()) {
            home = System.getProperty("user.home", "/");
        }
        return Path.of(home, DEBUG_CACHE_DIR);
    }
}
