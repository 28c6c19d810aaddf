package dev.jperf.loader;

import dev.jperf.nativeshim.Errno;
import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The running kernel's BTF ({@code /sys/kernel/btf/vmlinux}), the target of CO-RE relocations
 * and BTF attach points, with its named types indexed by essential name (the name before any
 * "___flavor" suffix) for candidate search.
 */
final class KernelBtf {
    static final Path VMLINUX = Path.of("/sys/kernel/btf/vmlinux");

    final Btf btf;
    private final byte[] raw;
    private final Path dir;
    /** The modules' split BTF (every file beside vmlinux in its directory), read on first use. */
    private List<Btf> modules;
    /** (hash of the essential name) << 32 | id for every named type, sorted: built on first use. */
    private long[] byHash;

    private KernelBtf(byte[] raw, Btf btf, Path dir) {
        this.raw = raw;
        this.btf = btf;
        this.dir = dir;
    }

    /** The last kernel BTF read: loads in one process share it (it is read-only once indexed). */
    private static KernelBtf cached;
    private static Path cachedPath;

    static synchronized KernelBtf load(Path file) throws BpfObjectException {
        if (cached != null && file.equals(cachedPath)) {
            return cached;
        }
        try {
            byte[] raw = Files.readAllBytes(file);
            cached = new KernelBtf(raw, Btf.parse(raw), file.toAbsolutePath().getParent());
            cachedPath = file;
            return cached;
        } catch (IOException e) {
            throw new BpfObjectException("kernel BTF " + file + ": " + e.getMessage(), Errno.ESRCH);
        } catch (BtfException e) {
            throw new BpfObjectException("kernel BTF " + file + ": " + e.getMessage(), Errno.EINVAL);
        }
    }

    /**
     * Ids of named types whose essential name is {@code essential}, ascending. The index hashes
     * the names' bytes in place (no string per type: the kernel has over 100 000 types).
     */
    synchronized List<Integer> byEssentialName(String essential) {
        if (byHash == null) {
            byHash = index();
        }
        byte[] eb = essential.getBytes(StandardCharsets.UTF_8);
        int h = hash(eb, 0, eb.length);
        int lo = lowerBound((long) h << 32);
        List<Integer> out = new ArrayList<>(2);
        for (int i = lo; i < byHash.length && (int) (byHash[i] >> 32) == h; i++) {
            int id = (int) byHash[i];
            String n = btf.name(id);
            if (BtfTypes.essentialNameLen(n) == essential.length() && n.startsWith(essential)) {
                out.add(id);
            }
        }
        out.sort(null);
        return out;
    }

    private int lowerBound(long key) {
        int lo = 0;
        int hi = byHash.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (byHash[mid] < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private long[] index() {
        int strStart = btf.stringSectionOffset();
        int strEnd = strStart + btf.stringSectionLength();
        long[] keys = new long[btf.lastId()];
        int n = 0;
        for (int id = 1; id <= btf.lastId(); id++) {
            long off = Integer.toUnsignedLong(btf.nameOffset(id));
            if (off == 0 || off >= strEnd - strStart) {
                continue;
            }
            int s = strStart + (int) off;
            int e = s;
            while (e < strEnd && raw[e] != 0) {
                e++;
            }
            if (e == s) {
                continue;
            }
            keys[n++] = ((long) hash(raw, s, essentialLen(raw, s, e)) << 32) | id;
        }
        long[] out = java.util.Arrays.copyOf(keys, n);
        java.util.Arrays.sort(out);
        return out;
    }

    /** {@link BtfTypes#essentialNameLen} over a name's bytes. */
    private static int essentialLen(byte[] b, int s, int e) {
        for (int i = e - 5; i >= s; i--) {
            if (b[i] != '_' && b[i + 1] == '_' && b[i + 2] == '_' && b[i + 3] == '_' && b[i + 4] != '_') {
                return i + 1 - s;
            }
        }
        return e - s;
    }

    private static int hash(byte[] b, int s, int len) {
        int h = 0;
        for (int i = s; i < s + len; i++) {
            h = 31 * h + b[i];
        }
        return h;
    }

    /**
     * load_module_btfs: each module's BTF, split on vmlinux's (type ids go on from vmlinux's last).
     * A module file that does not parse is left out, as libbpf skips a module it cannot load.
     */
    synchronized List<Btf> modules() {
        if (modules == null) {
            List<Btf> out = new ArrayList<>();
            if (dir != null) {
                try (java.util.stream.Stream<Path> files = Files.list(dir)) {
                    for (Path f : files.sorted().toList()) {
                        if (f.equals(dir.resolve("vmlinux")) || !Files.isRegularFile(f)) {
                            continue;
                        }
                        try {
                            out.add(Btf.parse(Files.readAllBytes(f), btf));
                        } catch (IOException | BtfException e) {
                            // not a module BTF this loader can read: no candidates from it
                        }
                    }
                } catch (IOException e) {
                    // no directory listing: vmlinux alone
                }
            }
            modules = out;
        }
        return modules;
    }

    /** struct bpf_core_cand: a kernel type a CO-RE relocation may resolve to, in vmlinux's BTF or a module's. */
    record Candidate(Btf btf, int id) {
    }

    /**
     * bpf_core_find_cands: kernel types of a kind compatible with {@code localKind} whose essential
     * name is {@code essential}, in vmlinux; only when vmlinux has none, in the modules' BTF.
     */
    List<Candidate> coreCandidates(String essential, dev.jperf.format.btf.BtfKind localKind) {
        List<Candidate> out = new ArrayList<>();
        for (int id : byEssentialName(essential)) {
            if (BtfTypes.kindCoreCompat(btf.kind(id), localKind)) {
                out.add(new Candidate(btf, id));
            }
        }
        if (out.isEmpty()) {
            for (Btf mod : modules()) {
                for (int id = mod.firstId(); id <= mod.lastId(); id++) {
                    String n = mod.name(id);
                    if (!n.isEmpty() && BtfTypes.kindCoreCompat(mod.kind(id), localKind)
                            && BtfTypes.essentialNameLen(n) == essential.length() && n.startsWith(essential)) {
                        out.add(new Candidate(mod, id));
                    }
                }
            }
        }
        return out;
    }

    /** btf__find_by_name_kind over the kernel's types, or -1 (ENOENT). */
    int findByNameKind(String name, dev.jperf.format.btf.BtfKind kind) {
        for (int id : byEssentialName(name.substring(0, BtfTypes.essentialNameLen(name)))) {
            if (btf.kind(id) == kind && btf.name(id).equals(name)) {
                return id;
            }
        }
        return -1;
    }
}
