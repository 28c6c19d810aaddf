package dev.jperf.loader;

import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The running kernel's BTF ({@code /sys/kernel/btf/vmlinux}), the target of CO-RE relocations
 * and BTF attach points, with its named types indexed by essential name (the name before any
 * "___flavor" suffix) for candidate search.
 */
final class KernelBtf {
    static final Path VMLINUX = Path.of("/sys/kernel/btf/vmlinux");

    final Btf btf;
    private Map<String, List<Integer>> byEssentialName;

    private KernelBtf(Btf btf) {
        this.btf = btf;
    }

    /** The last kernel BTF read: loads in one process share it (it is read-only once indexed). */
    private static KernelBtf cached;
    private static Path cachedPath;

    static synchronized KernelBtf load(Path file) throws BpfObjectException {
        if (cached != null && file.equals(cachedPath)) {
            return cached;
        }
        try {
            cached = new KernelBtf(Btf.parse(Files.readAllBytes(file)));
            cachedPath = file;
            return cached;
        } catch (IOException e) {
            throw new BpfObjectException("kernel BTF " + file + ": " + e.getMessage(), Errnos.ESRCH);
        } catch (BtfException e) {
            throw new BpfObjectException("kernel BTF " + file + ": " + e.getMessage(), Errnos.EINVAL);
        }
    }

    /** Ids of named types whose essential name is {@code essential}, ascending. */
    synchronized List<Integer> byEssentialName(String essential) {
        if (byEssentialName == null) {
            Map<String, List<Integer>> m = new HashMap<>();
            for (int id = 1; id <= btf.lastId(); id++) {
                String n = btf.name(id);
                if (n.isEmpty()) {
                    continue;
                }
                m.computeIfAbsent(n.substring(0, BtfTypes.essentialNameLen(n)), k -> new ArrayList<>(1)).add(id);
            }
            byEssentialName = m;
        }
        return byEssentialName.getOrDefault(essential, List.of());
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
