package dev.jperf.recorder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** CPU lists as the kernel and perf spell them: {@code 0-3,5}. */
final class Cpus {
    private Cpus() {}

    static List<Integer> parse(String list) {
        TreeSet<Integer> out = new TreeSet<>();
        for (String part : list.strip().split(",")) {
            if (part.isEmpty()) {
                continue;
            }
            try {
                int dash = part.indexOf('-');
                int lo = Integer.parseInt(dash < 0 ? part : part.substring(0, dash));
                int hi = dash < 0 ? lo : Integer.parseInt(part.substring(dash + 1));
                if (lo < 0 || hi < lo || hi > 65535) {
                    throw new NumberFormatException();
                }
                for (int c = lo; c <= hi; c++) {
                    out.add(c);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad CPU list '" + list + "'");
            }
        }
        return new ArrayList<>(out);
    }

    static List<Integer> online() {
        try {
            return parse(Files.readString(Path.of("/sys/devices/system/cpu/online")));
        } catch (IOException e) {
            List<Integer> all = new ArrayList<>();
            for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
                all.add(i);
            }
            return all;
        }
    }
}
