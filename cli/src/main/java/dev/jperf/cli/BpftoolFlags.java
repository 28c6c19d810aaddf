package dev.jperf.cli;

import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;

/**
 * bpftool's global flags as jperf's bpf commands take them: {@code -j} (JSON), {@code -p} (pretty
 * JSON, implies {@code -j}) and, for the commands that show pins, {@code -f} (bpffs).
 */
final class BpftoolFlags {
    boolean json;
    boolean pretty;
    boolean bpffs;

    /** {@code options} with -j and -p, and -f when {@code withBpffs}. */
    static Options declare(Options options, boolean withBpffs) {
        options.flag('j', "json", "print bpftool's JSON (bpftool -j)")
                .flag('p', "pretty", "print bpftool's JSON, indented (bpftool -p)");
        if (withBpffs) {
            options.flag('f', "bpffs", "show where each object is pinned in a bpf file system (bpftool -f)");
        }
        return options;
    }

    /** Takes the option if it is one of these flags: whether it was. */
    boolean set(String name, OptionValue v) {
        switch (name) {
            case "json" -> json = v.on();
            case "pretty" -> {
                pretty = v.on();
                json |= pretty;
            }
            case "bpffs" -> bpffs = v.on();
            default -> {
                return false;
            }
        }
        return true;
    }
}
