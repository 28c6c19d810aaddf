package dev.jperf.recorder;

import dev.jperf.format.header.CpuList;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The CPUs this machine has online, and CPU or thread lists as the kernel's arrays want them. */
final class Cpus {
    private Cpus() {}

    static List<Integer> online() {
        try {
            return CpuList.parse(Files.readString(Path.of("/sys/devices/system/cpu/online")));
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
