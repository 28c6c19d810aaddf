package dev.jperf.cli;

/** {@code jperf --version}, in perf's words. */
final class Version {
    private Version() {
    }

    static String text() {
        String v = Main.class.getPackage().getImplementationVersion();
        return "jperf version " + (v == null ? "0.1.0-SNAPSHOT" : v);
    }
}
