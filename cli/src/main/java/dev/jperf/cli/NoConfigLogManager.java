package dev.jperf.cli;

import java.util.logging.LogManager;

/**
 * java.util.logging without its configuration file. JNA's Native class takes a Logger when it
 * loads, which makes the JDK read and parse conf/logging.properties: ~4 ms of interpreted start-up
 * in every recording, for a log jperf never writes. The launcher names this class in
 * {@code java.util.logging.manager} for {@code record}; the root logger keeps its default level
 * (INFO) and no handler, so JNA's FINE-level messages go nowhere, as they did.
 */
public final class NoConfigLogManager extends LogManager {
    public NoConfigLogManager() {
    }

    @Override
    public void readConfiguration() {
        // nothing to read
    }
}
