import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Load for make-busy.sh: a JVM doing what services do (parsing, maps, sorting, regexes, garbage),
 * through recursion of varying depth, so a system-wide recording sees interpreter, JIT, GC and
 * runtime frames under many distinct callchains. Runs for SECONDS (first argument).
 */
public final class BusyJvm {
    private static final Pattern WORD = Pattern.compile("[a-z]+[0-9]*");
    private static long sink;

    public static void main(String[] args) {
        long end = System.nanoTime() + (long) (Double.parseDouble(args[0]) * 1e9);
        Random r = new Random(args.length > 1 ? Long.parseLong(args[1]) : 1);
        while (System.nanoTime() < end) {
            sink += descend(r, r.nextInt(24));
        }
        System.out.println(sink == 42 ? "" : "done");
    }

    private static long descend(Random r, int depth) {
        if (depth == 0) {
            switch (r.nextInt(4)) {
                case 0: return parse(r);
                case 1: return sort(r);
                case 2: return maps(r);
                default: return text(r);
            }
        }
        return (depth & 1) == 0 ? even(r, depth - 1) : odd(r, depth - 1);
    }

    private static long even(Random r, int depth) {
        return descend(r, depth) + 1;
    }

    private static long odd(Random r, int depth) {
        return descend(r, depth) ^ 3;
    }

    private static long parse(Random r) {
        long s = 0;
        for (int i = 0; i < 200; i++) {
            s += Long.parseLong(Integer.toString(r.nextInt(1_000_000)));
        }
        return s;
    }

    private static long sort(Random r) {
        List<String> l = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            l.add("k" + r.nextInt(10_000));
        }
        l.sort(null);
        return l.get(0).hashCode();
    }

    private static long maps(Random r) {
        Map<Integer, List<Long>> m = new HashMap<>();
        TreeMap<Long, Integer> t = new TreeMap<>();
        for (int i = 0; i < 300; i++) {
            m.computeIfAbsent(r.nextInt(64), k -> new ArrayList<>()).add((long) i);
            t.put(r.nextLong(), i);
        }
        return m.size() + t.firstKey();
    }

    private static long text(Random r) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            b.append((char) ('a' + r.nextInt(26))).append(r.nextInt(10)).append(' ');
        }
        return WORD.matcher(b).results().count();
    }
}
