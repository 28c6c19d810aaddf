package dev.jperf.recorder;

import dev.jperf.format.io.ProcFs;
import dev.jperf.format.feature.CpuTopology;
import dev.jperf.format.header.SystemCpus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The CPUs this machine has online, where each sits (socket, die, core, NUMA node), and CPU or
 * thread lists as the kernel's arrays want them.
 */
public final class Cpus {
    private Cpus() {}

    /** CPU {@code cpu}'s core, socket and die ids from its sysfs topology (-1 where not there, as perf's cpu__get_*). */
    public static CpuTopology.CpuId id(int cpu) {
        String t = "/sys/devices/system/cpu/cpu" + cpu + "/topology/";
        return new CpuTopology.CpuId(intOf(t + "core_id"), intOf(t + "physical_package_id"), intOf(t + "die_id"));
    }

    /** The NUMA node CPU {@code cpu} belongs to (the nodeN directory listing it, as perf's cpu__get_node), else -1. */
    public static int node(int cpu) {
        try (var dir = Files.newDirectoryStream(Path.of("/sys/devices/system/node"), "node[0-9]*")) {
            for (Path n : dir) {
                if (Files.exists(n.resolve("cpu" + cpu))) {
                    return Integer.parseInt(n.getFileName().toString().substring(4));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    private static int intOf(String path) {
        try {
            return Integer.parseInt(ProcFs.readText(Path.of(path)).strip());
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    public static List<Integer> online() {
        try {
            return SystemCpus.online();
        } catch (IOException e) {
            List<Integer> all = new ArrayList<>();
            for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
                all.add(i);
            }
            return all;
        }
    }

    /** The list as an int array (a loop: the record path's start runs no stream, see HeaderFeatures#setStatic). */
    static int[] toArray(List<Integer> l) {
        int[] a = new int[l.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = l.get(i);
        }
        return a;
    }
}
