package dev.jperf.bpf;

import dev.jperf.format.kallsyms.KallsymsIndex;
import java.nio.file.Path;

/**
 * bpftool's kernel_syms (xlated_dumper.c): /proc/kallsyms (format's {@link KallsymsIndex}) sorted and searched for the exact
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
        return of(KallsymsIndex.readOrEmpty(Path.of("/proc/kallsyms")));
    }

    /** bpftool's order and search over the symbols of {@code k}. */
    static KernelSymbols of(KallsymsIndex k) {
        long base = 0;
        int n = 0;
        int[] order = new int[k.size()];
        long[] a = new long[k.size()];
        for (int i = 0; i < k.size(); i++) {
            long address = k.address(i);
            if (k.nameIs(i, "__bpf_call_base")) {
                base = address;
                if (address == 0) {
                    return new KernelSymbols(new long[0], new String[0], 0); // kernel.kptr_restrict
                }
            }
            if (address != 0) {
                order[n] = n;
                a[n] = address;
                n++;
            }
        }
        int[] index = new int[n];
        for (int i = 0, j = 0; i < k.size(); i++) {
            if (k.address(i) != 0) {
                index[j++] = i;
            }
        }
        msort(order, new int[n], 0, n, a);
        long[] sorted = new long[n];
        String[] sortedNames = new String[n];
        for (int i = 0; i < n; i++) {
            sorted[i] = a[order[i]];
            sortedNames[i] = k.name(index[order[i]]);
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
