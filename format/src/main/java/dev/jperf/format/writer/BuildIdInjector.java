package dev.jperf.format.writer;

import dev.jperf.format.elf.ElfFile;
import dev.jperf.format.elf.RunningVdso;
import dev.jperf.format.feature.BuildIds;
import dev.jperf.format.record.BuildIdRecord;
import dev.jperf.format.record.ForkRecord;
import dev.jperf.format.record.KsymbolRecord;
import dev.jperf.format.record.Mmap2Record;
import dev.jperf.format.record.MmapRecord;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.RecordType;
import dev.jperf.format.record.SampleRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * perf inject's {@code -b/--build-ids} and {@code --buildid-all}: a PERF_RECORD_HEADER_BUILD_ID
 * before the first sample that hits each DSO (perf_event__inject_buildid: the sample's map found
 * as thread__find_map finds it, the kernel's maps for kernel samples, the process's for user
 * ones), or with {@code --buildid-all} before the first MMAP/MMAP2 of each file
 * (perf_event__repipe_buildid_mmap); the build-id the recording gave (its HEADER_BUILD_ID, a
 * build-id record, an MMAP2's) or else the file's on this machine (dso__read_build_id). Anonymous
 * memory, stacks and the heap get none (dso__inject_build_id), nor does a DSO without a build-id.
 * What was hit also makes the output's HEADER_BUILD_ID ({@link #table}), as perf writes it.
 */
public final class BuildIdInjector {
    private static final int MAP_HUGETLB = 0x40000;
    /** perf's NAME_ALIGN: the file name of a build-id record is padded to this. */
    private static final int NAME_ALIGN = 64;
    /** perf's machine->pid of the host. */
    private static final int HOST_PID = -1;

    private final boolean all;
    /** The DSOs in the order perf creates them (the header's first), by file name. */
    private final Map<String, Dso> dsos = new LinkedHashMap<>();
    /** Each process's maps by start (perf shares a map group among a process's threads). */
    private final Map<Integer, TreeMap<Long, Region>> userMaps = new HashMap<>();
    private final TreeMap<Long, Region> kernelMaps = new TreeMap<>();

    private static final class Dso {
        final String name;
        byte[] buildId;
        /** The header's entry, kept as it was. */
        BuildIds.Entry headerEntry;
        boolean kernel;
        boolean hit;

        Dso(String name) {
            this.name = name;
        }
    }

    private record Region(long start, long end, Dso dso, int flags) {
    }

    /**
     * @param all --buildid-all: at the maps, not the samples
     * @param header the recording's HEADER_BUILD_ID, or null
     */
    public BuildIdInjector(boolean all, BuildIds header) {
        this.all = all;
        if (header != null) {
            for (BuildIds.Entry e : header.entries()) {
                Dso d = dso(e.filename());
                d.buildId = e.buildId();
                d.headerEntry = e;
                d.kernel = e.cpumode() == PerfRecord.PERF_RECORD_MISC_KERNEL;
            }
        }
    }

    /**
     * Whether the records pass through perf's ordered-events queue first (-b: the samples are
     * looked up in time order; --buildid-all works in file order).
     */
    public boolean ordered() {
        return !all;
    }

    private Dso dso(String name) {
        Dso d = dsos.get(name);
        if (d == null) {
            d = new Dso(name);
            dsos.put(name, d);
        }
        return d;
    }

    /** The records to write before {@code r} (BUILD_ID records, in perf's layout), or null. */
    public byte[] before(PerfRecord r) {
        int cpumode = r.misc() & PerfRecord.PERF_RECORD_MISC_CPUMODE_MASK;
        if (r instanceof SampleRecord s) {
            if (all) {
                return null;
            }
            Region m = find(cpumode == PerfRecord.PERF_RECORD_MISC_KERNEL ? kernelMaps : userMaps.get(s.pid()), s.ip());
            return m == null ? null : hit(m.dso, m.flags, cpumode);
        }
        if (r instanceof BuildIdRecord b) {
            dso(b.filename()).buildId = b.buildId();
        } else if (r instanceof MmapRecord m) {
            return map(m.pid(), m.addr(), m.len(), m.filename(), null, 0, cpumode);
        } else if (r instanceof Mmap2Record m) {
            return map(m.pid(), m.addr(), m.len(), m.filename(), m.hasBuildId() ? m.buildId() : null, m.flags(), cpumode);
        } else if (r instanceof ForkRecord f && f.pid() != f.ppid()) {
            // thread__fork: a new process starts with a copy of its parent's maps
            TreeMap<Long, Region> parent = userMaps.get(f.ppid());
            userMaps.put(f.pid(), parent == null ? new TreeMap<>() : new TreeMap<>(parent));
        } else if (r instanceof KsymbolRecord k) {
            if (k.unregister()) {
                kernelMaps.remove(k.addr());
            } else {
                insert(kernelMaps, new Region(k.addr(), k.addr() + k.len(), dso(k.name()), 0));
            }
        }
        return null;
    }

    private byte[] map(int pid, long addr, long len, String filename, byte[] buildId, int flags, int cpumode) {
        boolean kernel = pid == HOST_PID;
        // perf names the kernel's map by its machine's kernel DSO; --buildid-all's findnew_dso by the record's name
        String name = kernel && !all && filename.startsWith("[kernel.kallsyms]") ? "[kernel.kallsyms]" : filename;
        Dso d = dso(name);
        d.kernel |= kernel;
        if (buildId != null && d.buildId == null) {
            d.buildId = buildId;
        }
        if (all) {
            return hit(d, flags, cpumode);
        }
        insert(kernel ? kernelMaps : userMaps.computeIfAbsent(pid, p -> new TreeMap<>()), new Region(addr, addr + len, d, flags));
        return null;
    }

    /** maps__fixup_overlappings, simplified: a new map replaces those it overlaps. */
    private static void insert(TreeMap<Long, Region> maps, Region m) {
        Map.Entry<Long, Region> below = maps.lowerEntry(m.start);
        if (below != null && below.getValue().end > m.start) {
            maps.remove(below.getKey());
        }
        while (true) {
            Map.Entry<Long, Region> next = maps.ceilingEntry(m.start);
            if (next == null || next.getKey() >= m.end) {
                break;
            }
            maps.remove(next.getKey());
        }
        maps.put(m.start, m);
    }

    private static Region find(TreeMap<Long, Region> maps, long ip) {
        if (maps == null) {
            return null;
        }
        Map.Entry<Long, Region> e = maps.floorEntry(ip);
        return e != null && Long.compareUnsigned(ip, e.getValue().end) < 0 ? e.getValue() : null;
    }

    /** dso__inject_build_id for a DSO met for the first time; null when it needs none or has none. */
    private byte[] hit(Dso d, int flags, int cpumode) {
        if (d.hit) {
            return null;
        }
        d.hit = true;
        String n = d.name;
        if (n.equals("//anon") || n.startsWith("/dev/zero") || n.startsWith("/anon_hugepage") || (flags & MAP_HUGETLB) != 0
                || n.startsWith("[stack") || n.startsWith("/SYSV") || n.equals("[heap]")) {
            return null;
        }
        try {
            if (d.buildId == null && n.startsWith("/")) {
                d.buildId = ElfFile.readBuildId(Path.of(n)).map(BuildIdInjector::first20).orElse(null);
            } else if (d.buildId == null && n.equals("[vdso]")) {
                // machine__findnew_vdso: the vdso of the kernel perf runs on
                Optional<ElfFile> vdso = RunningVdso.read();
                d.buildId = vdso.isPresent() ? vdso.get().buildId().map(BuildIdInjector::first20).orElse(null) : null;
            }
        } catch (IOException | RuntimeException e) {
            // perf: "no build_id found for" it, said only with -v
        }
        if (d.buildId == null) {
            return null;
        }
        return record(d, cpumode);
    }

    private static byte[] first20(byte[] id) {
        return Arrays.copyOf(id, Math.min(20, id.length));
    }

    /** perf_event__synthesize_build_id: header, pid, build_id[24], the name NUL-padded to 64. */
    private static byte[] record(Dso d, int cpumode) {
        byte[] name = d.name.getBytes(StandardCharsets.UTF_8);
        int len = (name.length + 1 + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;
        int size = 8 + 4 + 24 + len;
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(RecordType.PERF_RECORD_HEADER_BUILD_ID).putShort((short) cpumode).putShort((short) size);
        b.putInt(HOST_PID);
        b.put(d.buildId, 0, Math.min(20, d.buildId.length));
        b.position(36);
        b.put(name);
        return b.array();
    }

    /**
     * The output's HEADER_BUILD_ID as perf inject writes it (dsos__write_buildid_table): each DSO
     * with a build-id that was hit, or a vdso, in the order perf made them; an entry of the
     * recording's header kept as it was.
     */
    public BuildIds table() {
        List<BuildIds.Entry> out = new ArrayList<>();
        for (Dso d : dsos.values()) {
            boolean vdso = d.name.equals("[vdso]") || d.name.equals("[vdso32]") || d.name.equals("[vdsox32]");
            if (d.buildId == null || !(d.hit || vdso)) {
                continue;
            }
            if (d.headerEntry != null) {
                out.add(d.headerEntry);
            } else {
                int misc = (d.kernel ? PerfRecord.PERF_RECORD_MISC_KERNEL : PerfRecord.PERF_RECORD_MISC_USER)
                        | PerfRecord.PERF_RECORD_MISC_BUILD_ID_SIZE;
                out.add(new BuildIds.Entry(misc, HOST_PID, d.buildId, d.name));
            }
        }
        return new BuildIds(out);
    }
}
