package dev.jperf.cli;

import picocli.CommandLine;

/** {@code jperf --version}, in perf's words. */
final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = Main.class.getPackage().getImplementationVersion();
        return new String[] {"jperf version " + (v == null ? "0.1.0-SNAPSHOT" : v)};
    }
}
