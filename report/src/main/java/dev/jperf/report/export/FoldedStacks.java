package dev.jperf.report.export;

import dev.jperf.report.session.Frame;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code jperf script --folded}: one line per distinct stack, {@code comm;caller;...;leaf count},
 * sorted by the stack, counting samples of every event; what perf's {@code stackcollapse} script
 * ({@code perf script report stackcollapse}, after Brendan Gregg's stackcollapse-perf.pl) prints:
 * a frame without symbol is {@code [unknown]}, ';' in a name becomes ':', ' ' in a comm '_'.
 */
public final class FoldedStacks {
    private FoldedStacks() {
    }

    /** The frame's name in a folded stack. */
    static String name(Frame f) {
        return f.symbol() == null ? "[unknown]" : f.symbol().name().replace(';', ':');
    }

    public static void write(Stacks stacks, OutputStream out) throws IOException {
        StackTree t = stacks.tree();
        // frames of distinct addresses can share a name: the lines are the stacks of names
        Map<String, long[]> lines = new HashMap<>();
        int[] path = new int[64];
        StringBuilder sb = new StringBuilder(256);
        for (int n = 1; n < t.size(); n++) {
            if (!t.hasSelf(n)) {
                continue;
            }
            long samples = 0;
            for (int e = 0; e < t.events(); e++) {
                samples += t.selfSamples(n, e);
            }
            int d = t.depth(n);
            if (path.length < d) {
                path = new int[d * 2];
            }
            t.path(n, path);
            sb.setLength(0);
            sb.append(stacks.comm(path[0]).replace(' ', '_'));
            for (int i = 1; i < d; i++) {
                sb.append(';').append(name(stacks.frame(path[i])));
            }
            lines.computeIfAbsent(sb.toString(), k -> new long[1])[0] += samples;
        }
        List<String> sorted = new ArrayList<>(lines.keySet());
        sorted.sort(null);
        Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        for (String s : sorted) {
            w.write(s);
            w.write(' ');
            w.write(Long.toString(lines.get(s)[0]));
            w.write('\n');
        }
        w.flush();
    }
}
