package dev.jperf.bpf;

import dev.jperf.format.kallsyms.KallsymsParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * bpftool's kernel_syms (xlated_dumper.c): /proc/kallsyms sorted and searched for the exact
 * address of a helper or subprogram. bpftool sorts with glibc's qsort (a merge sort in glibc 2.36)
 * and searches with bsearch, both with a comparator that truncates the 64-bit difference of two
 * addresses to an int; the same algorithms with the same comparator are used here so that the
 * same symbols are found, and not found, as bpftool finds them.
 */
final class KernelSymbols {
    private final long[] addresses;
    private final String[] names;
    private final long callBase;

    private KernelSymbols(long[] addresses, String[] names, long callBase) {
        this.addresses = addresses;
        this.names = names;
        this.callBase = callBase;
    }

    /** kernel_syms_load; no symbols when kallsyms cannot be read or hides its addresses. */
    static KernelSymbols load() {
        byte[] file;
        try {
            file = Files.readAllBytes(Path.of("/proc/kallsyms"));
        } catch (IOException e) {
            return new KernelSymbols(new long[0], new String[0], 0);
        }
        List<Long> addrs = new ArrayList<>();
        List<String> syms = new ArrayList<>();
        long base = 0;
        KallsymsParser p = KallsymsParser.of(file);
        while (p.next()) {
            if (!p.wellFormed() || !p.parseAddress()) {
                continue;
            }
            long address = p.address();
            if (p.nameIs("__bpf_call_base")) {
                base = address;
                if (address == 0) {
                    return new KernelSymbols(new long[0], new String[0], 0); // kernel.kptr_restrict
                }
            }
            if (address != 0) {
                addrs.add(address);
                syms.add(p.name());
            }
        }
        int n = addrs.size();
        int[] order = new int[n];
        long[] a = new long[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
            a[i] = addrs.get(i);
        }
        msort(order, new int[n], 0, n, a);
        long[] sorted = new long[n];
        String[] sortedNames = new String[n];
        for (int i = 0; i < n; i++) {
            sorted[i] = a[order[i]];
            sortedNames[i] = syms.get(order[i]);
        }
        return new KernelSymbols(sorted, sortedNames, base);
    }

    /** kernel_syms_cmp: the difference of two addresses as an int, as bpftool returns it. */
    private static int cmp(long x, long y) {
        return (int) (x - y);
    }

    /** glibc 2.36's msort_with_tmp over indexes into {@code a}. */
    private static void msort(int[] b, int[] tmp, int from, int n, long[] a) {
        if (n <= 1) {
            return;
        }
        int n1 = n / 2;
        int n2 = n - n1;
        msort(b, tmp, from, n1, a);
        msort(b, tmp, from + n1, n2, a);
        int i1 = from;
        int i2 = from + n1;
        int t = 0;
        while (n1 > 0 && n2 > 0) {
            if (cmp(a[b[i1]], a[b[i2]]) <= 0) {
                tmp[t++] = b[i1++];
                n1--;
            } else {
                tmp[t++] = b[i2++];
                n2--;
            }
        }
        while (n1-- > 0) {
            tmp[t++] = b[i1++];
        }
        System.arraycopy(tmp, 0, b, from, t); // the rest of the second half is in place
    }

    long callBase() {
        return callBase;
    }

    /** kernel_syms_search: glibc's bsearch with bpftool's comparator; null when not found. */
    String search(long address) {
        int l = 0;
        int u = addresses.length;
        while (l < u) {
            int idx = (l + u) >>> 1;
            int c = cmp(address, addresses[idx]);
            if (c < 0) {
                u = idx;
            } else if (c > 0) {
                l = idx + 1;
            } else {
                return names[idx];
            }
        }
        return null;
    }
}
