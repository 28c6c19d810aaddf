package dev.jperf.format.header;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The running system's CPUs, as sysfs lists them (the one reader of these files): those online
 * now, and the possible ones in their two meanings: how many there are ({@link #possibleCount},
 * libbpf's) and the bound of a loop over CPU numbers ({@link #maxCpu}, perf's). They differ when
 * the possible CPUs have gaps.
 */
public final class SystemCpus {
    public static final Path POSSIBLE = Path.of("/sys/devices/system/cpu/possible");
    public static final Path ONLINE = Path.of("/sys/devices/system/cpu/online");

    private SystemCpus() {
    }

    /**
     * The CPUs online now, ascending.
     *
     * @throws IllegalArgumentException when the file is not a CPU list
     */
    public static List<Integer> online() throws IOException {
        return CpuList.parse(Files.readString(ONLINE));
    }

    /** {@link #online} as an array. */
    public static int[] onlineArray() throws IOException {
        List<Integer> l = online();
        int[] a = new int[l.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = l.get(i);
        }
        return a;
    }

    /**
     * libbpf_num_possible_cpus: how many CPUs are possible; the slots of a per-CPU map value and
     * the entries libbpf gives a perf event array.
     *
     * @throws IllegalArgumentException when the file lists none or is not a CPU list
     */
    public static int possibleCount() throws IOException {
        return possibleCount(Files.readString(POSSIBLE));
    }

    /** {@link #possibleCount} of the text of a possible-CPUs file. */
    public static int possibleCount(String list) {
        int n;
        try {
            n = CpuList.parse(list).size();
        } catch (IllegalArgumentException e) {
            n = 0;
        }
        if (n == 0) {
            throw new IllegalArgumentException("bad mask '" + list.strip() + "' in " + POSSIBLE);
        }
        return n;
    }

    /** perf's cpu__max_cpu: the highest possible CPU plus one, the bound of a loop over CPU numbers. */
    public static int maxCpu() throws IOException {
        return maxCpu(Files.readString(POSSIBLE));
    }

    /** {@link #maxCpu} of the text of a possible-CPUs file; 0 when it lists none. */
    public static int maxCpu(String list) {
        List<Integer> l = CpuList.parse(list);
        return l.isEmpty() ? 0 : l.get(l.size() - 1) + 1;
    }
}
