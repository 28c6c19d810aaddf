package dev.jperf.report.session;

import dev.jperf.report.symbol.Dso;

/**
 * One mapping of a DSO into an address space (perf's struct map): [start, end), file offset pgoff.
 * Addresses are turned into the DSO's space with {@link #mapIp}: identity for the kernel, modules
 * and anonymous (JIT) memory, ip - start + pgoff otherwise. Each mapping caches the
 * {@link Frame} of every address already resolved in it (used by one thread: the session's).
 */
public final class Mapping {
    private final long start;
    private final long end;
    private final long pgoff;
    private final Dso dso;
    private final boolean identity;
    private final boolean kernelSpace;
    /** What perf keeps of the record for report --mmaps: PROT_* bits, MAP_* flags, inode. */
    private final int prot;
    private final int flags;
    private final long ino;
    private final LongMap<Frame> frames = new LongMap<>();
    /** The DSO's CFI for the unwinder, looked up at the first unwind through this mapping (null: no file). */
    dev.jperf.format.unwind.Cfi cfi;
    boolean cfiLooked;

    public Mapping(long start, long end, long pgoff, Dso dso, boolean identity, boolean kernelSpace) {
        this(start, end, pgoff, dso, identity, kernelSpace, 0, 0, 0);
    }

    public Mapping(long start, long end, long pgoff, Dso dso, boolean identity, boolean kernelSpace, int prot, int flags,
            long ino) {
        this.start = start;
        this.end = end;
        this.pgoff = pgoff;
        this.dso = dso;
        this.identity = identity;
        this.kernelSpace = kernelSpace;
        this.prot = prot;
        this.flags = flags;
        this.ino = ino;
    }

    /** PROT_READ 1, PROT_WRITE 2, PROT_EXEC 4, as perf has them (an MMAP record: PROT_EXEC, or 0 for data). */
    public int prot() {
        return prot;
    }

    /** The MMAP2 record's flags (MAP_SHARED 1); 0 for MMAP. */
    public int flags() {
        return flags;
    }

    /** The MMAP2 record's inode (perf's dso->id.ino); 0 for MMAP. */
    public long ino() {
        return ino;
    }

    public long start() {
        return start;
    }

    public long end() {
        return end;
    }

    public long pgoff() {
        return pgoff;
    }

    public Dso dso() {
        return dso;
    }

    /** True for mappings of the kernel address space (kernel, modules, BPF). */
    public boolean kernelSpace() {
        return kernelSpace;
    }

    public long mapIp(long ip) {
        return identity ? ip : ip - start + pgoff;
    }

    public boolean contains(long addr) {
        return Long.compareUnsigned(addr, start) >= 0 && Long.compareUnsigned(addr, end) < 0;
    }

    /** The same mapping cut to [newStart, newEnd) (what is left when a new mapping overlaps it). */
    Mapping cut(long newStart, long newEnd) {
        long off = identity ? pgoff : pgoff + (newStart - start);
        return new Mapping(newStart, newEnd, off, dso, identity, kernelSpace, prot, flags, ino);
    }

    Frame cachedFrame(long ip) {
        return frames.get(ip);
    }

    void cacheFrame(long ip, Frame f) {
        frames.put(ip, f);
    }

    @Override
    public String toString() {
        return Long.toHexString(start) + "-" + Long.toHexString(end) + " @" + Long.toHexString(pgoff) + " " + dso;
    }
}
