package dev.jperf.recorder;

import dev.jperf.format.io.ProcFs;
import dev.jperf.format.record.PerfRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What already exists when recording starts, as perf synthesizes it from /proc: the kernel's and
 * modules' MMAP records, and per thread FORK + COMM (+ MMAP2 of the executable mappings for the
 * main thread of a user process). Processes that exit during the walk are skipped.
 */
final class ProcSynthesizer {
    private static final int PROT_READ = 1;
    private static final int PROT_WRITE = 2;
    private static final int PROT_EXEC = 4;
    private static final int MAP_SHARED = 1;
    private static final int MAP_PRIVATE = 2;

    private final Path proc;
    private final SyntheticRecords out;
    /** One buffer for every status and maps file read (hundreds at start). */
    private final ProcFile file = new ProcFile();

    /**
     * perf's namespace names, in its order (NET_NS_INDEX .. CGROUP_NS_INDEX), as /proc/TID/ns
     * names them.
     */
    private static final String[] NAMESPACES = {"net", "uts", "ipc", "pid", "user", "mnt", "cgroup"};

    private final boolean namespaces;
    /** perf's mmap_data: readable data maps too, not only executable ones. */
    private final boolean mmapData;

    /**
     * {@code namespaces}: a NAMESPACES record after each task's FORK ({@code --namespaces}, as perf);
     * {@code mmapData}: the readable data maps as well, marked PERF_RECORD_MISC_MMAP_DATA (perf's
     * sample_address, which {@code --call-graph dwarf} turns on).
     */
    ProcSynthesizer(Path proc, SyntheticRecords out, boolean namespaces, boolean mmapData) {
        this.proc = proc;
        this.out = out;
        this.namespaces = namespaces;
        this.mmapData = mmapData;
    }

    /** The kernel text map (pid -1, "[kernel.kallsyms]_text") and one MMAP per loaded module. */
    void kernel(KernelMaps kallsyms) throws IOException {
        long text = kallsyms.text();
        long etext = kallsyms.etext();
        if (text != 0 && Long.compareUnsigned(etext, text) > 0) {
            out.mmap(PerfRecord.PERF_RECORD_MISC_KERNEL, -1, 0, text, etext - text, text, "[kernel.kallsyms]_text");
        }
        Path modules = proc.resolve("modules");
        if (!Files.isReadable(modules)) {
            return;
        }
        for (String line : Files.readAllLines(modules, StandardCharsets.ISO_8859_1)) {
            // name size refcount deps state address [taint]
            String[] f = line.split("\\s+");
            if (f.length < 6 || !f[5].startsWith("0x")) {
                continue;
            }
            long addr = Long.parseUnsignedLong(f[5].substring(2), 16);
            if (addr != 0) {
                out.mmap(PerfRecord.PERF_RECORD_MISC_KERNEL, -1, 0, addr, Long.parseLong(f[1]), 0, "[" + f[0] + "]");
            }
        }
    }

    /** Whether {@code n} is all decimal digits (a loop, not a stream: see HeaderFeatures#setStatic). */
    static boolean isNumber(String n) {
        for (int i = 0; i < n.length(); i++) {
            if (n.charAt(i) < '0' || n.charAt(i) > '9') {
                return false;
            }
        }
        return !n.isEmpty();
    }

    /** Every process in /proc; their maps when {@code mmaps}. */
    void allProcesses(boolean mmaps) throws IOException {
        List<Integer> pids = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(proc)) {
            for (Path p : ds) {
                String n = p.getFileName().toString();
                if (isNumber(n)) {
                    pids.add(Integer.parseInt(n));
                }
            }
        }
        pids.sort(null);
        for (int pid : pids) {
            try {
                process(pid, mmaps);
            } catch (IOException | RuntimeException e) {
                // exited, or hidden from us (some /proc files of init are not readable in containers)
            }
        }
    }

    /** One process: all its threads, and the main thread's executable mappings when {@code mmaps}. */
    void process(int pid, boolean mmaps) throws IOException {
        List<Integer> tids = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(proc.resolve(pid + "/task"))) {
            for (Path p : ds) {
                tids.add(Integer.parseInt(p.getFileName().toString()));
            }
        } catch (NoSuchFileException e) {
            return;
        }
        tids.sort(null);
        for (int tid : tids) {
            thread(pid, tid, mmaps);
        }
    }

    /** One thread: FORK, COMM, and for a user process's main thread its MMAP2s when {@code mmaps}. */
    void thread(int pid, int tid, boolean mmaps) throws IOException {
        int n;
        try {
            n = file.read(proc.resolve(pid + "/task/" + tid + "/status"));
        } catch (IOException e) {
            return; // exited meanwhile
        }
        byte[] b = file.bytes();
        String name = "";
        int tgid = pid;
        int ppid = 0;
        boolean kernelThread = true;
        for (int line = 0, end; line < n; line = end + 1) {
            end = ProcFile.lineEnd(b, line, n);
            if (ProcFile.startsWith(b, line, end, "Name:")) {
                name = ProcFs.text(b, line + 5, end);
            } else if (ProcFile.startsWith(b, line, end, "Tgid:")) {
                tgid = Integer.parseInt(ProcFs.text(b, line + 5, end));
            } else if (ProcFile.startsWith(b, line, end, "PPid:")) {
                ppid = Integer.parseInt(ProcFs.text(b, line + 5, end));
            } else if (ProcFile.startsWith(b, line, end, "VmPeak:")) {
                kernelThread = false;
                break; // after Name, Tgid and PPid: nothing further is needed
            }
        }
        if (tgid == tid) {
            out.fork(tgid, ppid, tid, ppid);
        } else {
            out.fork(tgid, tgid, tid, tgid);
        }
        if (namespaces) {
            out.namespaces(tgid, tid, namespaces(tid));
        }
        out.comm(0, tgid, tid, name);
        if (mmaps && tid == tgid && !kernelThread) {
            maps(tgid);
        }
    }

    /**
     * Each namespace's (dev, inode): the stat of /proc/TID/ns/NAME, as perf's
     * perf_event__get_ns_link_info takes it; zeros for one that cannot be read (perf leaves them so).
     */
    private long[] namespaces(int tid) {
        long[] devIno = new long[2 * NAMESPACES.length];
        for (int i = 0; i < NAMESPACES.length; i++) {
            Path link = proc.resolve(tid + "/ns/" + NAMESPACES[i]);
            try {
                devIno[2 * i] = ((Number) Files.getAttribute(link, "unix:dev")).longValue();
                devIno[2 * i + 1] = ((Number) Files.getAttribute(link, "unix:ino")).longValue();
            } catch (IOException | RuntimeException e) {
                devIno[2 * i] = 0;
            }
        }
        return devIno;
    }

    private void maps(int pid) throws IOException {
        int n;
        try {
            n = file.read(proc.resolve(pid + "/maps"));
        } catch (IOException e) {
            return; // exited, or its maps are not ours to read: perf skips it too
        }
        byte[] b = file.bytes();
        for (int line = 0, end; line < n; line = end + 1) {
            end = ProcFile.lineEnd(b, line, n);
            // "start-end perms ...": only the maps that become records are parsed, the rest stay bytes
            int sp = line;
            while (sp < end && b[sp] != ' ') {
                sp++;
            }
            if (sp + 3 < end && (b[sp + 3] == 'x' || (mmapData && b[sp + 1] == 'r'))) {
                synthMapLine(pid, b, line, end);
            }
        }
    }

    /**
     * One /proc/PID/maps line, bytes {@code from} to {@code to} of {@code b}:
     * {@code start-end perms offset maj:min inode [path]}; executable maps, and readable data maps
     * with {@code mmapData} (as perf_event__synthesize_mmap_events). Parsed in place:
     * a regex split per line compiled a Pattern each time, interpreted, about half of the walk's
     * CPU (bench/README.md). A field that is not a number throws NumberFormatException, as
     * {@code Long.parseUnsignedLong} did (the walk skips that process).
     */
    void synthMapLine(int pid, byte[] b, int from, int to) {
        while (from < to && ProcFs.blank(b[from])) {
            from++;
        }
        while (to > from && ProcFs.blank(b[to - 1])) {
            to--;
        }
        int sp1 = indexOf(b, from, to, (byte) ' ');
        int dash = indexOf(b, from, to, (byte) '-');
        if (sp1 < 0 || dash < 0 || dash > sp1 || to < sp1 + 5) {
            return;
        }
        // perms: b[sp1 + 1 .. sp1 + 4]
        boolean exec = b[sp1 + 3] == 'x';
        if (!exec && !(mmapData && b[sp1 + 1] == 'r')) {
            return;
        }
        // offset, maj:min and inode, then the path (the rest, white space inside kept)
        int f0 = sp1 + 6;
        int e0 = fieldEnd(b, f0, to);
        int f1 = skipSpace(b, e0, to);
        int e1 = fieldEnd(b, f1, to);
        int f2 = skipSpace(b, e1, to);
        int e2 = fieldEnd(b, f2, to);
        if (f0 >= to || e0 == f0 || f1 >= to || f2 >= to) {
            return; // fewer than three fields
        }
        long start = ProcFile.hex(b, from, dash);
        long end = ProcFile.hex(b, dash + 1, sp1);
        long pgoff = ProcFile.hex(b, f0, e0);
        int colon = indexOf(b, f1, e1, (byte) ':');
        if (colon < 0) {
            throw new NumberFormatException("no ':' in the device of a maps line");
        }
        int maj = (int) hexInt(b, f1, colon);
        int min = (int) hexInt(b, colon + 1, e1);
        long ino = Long.parseLong(new String(b, f2, e2 - f2, StandardCharsets.ISO_8859_1));
        int p = skipSpace(b, e2, to);
        String path = p < to ? new String(b, p, to - p, StandardCharsets.ISO_8859_1) : "//anon";
        int prot = (b[sp1 + 1] == 'r' ? PROT_READ : 0) | (b[sp1 + 2] == 'w' ? PROT_WRITE : 0) | (exec ? PROT_EXEC : 0);
        int flags = b[sp1 + 4] == 's' ? MAP_SHARED : MAP_PRIVATE;
        int misc = PerfRecord.PERF_RECORD_MISC_USER | (exec ? 0 : PerfRecord.PERF_RECORD_MISC_MMAP_DATA);
        out.mmap2(misc, pid, pid, start, end - start, pgoff, maj, min, ino, prot, flags, path);
    }

    private static int indexOf(byte[] b, int from, int to, byte c) {
        for (int i = from; i < to; i++) {
            if (b[i] == c) {
                return i;
            }
        }
        return -1;
    }

    /** White space as the regex {@code \s} has it. */
    private static boolean space(byte c) {
        return c == ' ' || (c >= '\t' && c <= '\r');
    }

    private static int fieldEnd(byte[] b, int i, int to) {
        while (i < to && !space(b[i])) {
            i++;
        }
        return i;
    }

    private static int skipSpace(byte[] b, int i, int to) {
        while (i < to && space(b[i])) {
            i++;
        }
        return i;
    }

    /** A hexadecimal int (a device number), as {@code Integer.parseInt(s, 16)} reads it. */
    private static long hexInt(byte[] b, int from, int to) {
        long v = to - from <= 8 ? ProcFile.hex(b, from, to) : -1;
        if (v < 0 || v > Integer.MAX_VALUE) {
            throw new NumberFormatException("not a device number in a maps line");
        }
        return v;
    }

}
