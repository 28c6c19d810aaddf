package dev.jperf.format.header;

/** {@code struct perf_file_section}: where something lies in the file. */
public record PerfFileSection(long offset, long size) {
    public static final PerfFileSection EMPTY = new PerfFileSection(0, 0);

    public long end() {
        return offset + size;
    }

    /** True when {@code [offset, offset+size)} lies inside {@code [0, limit)} (no overflow). */
    public boolean within(long limit) {
        return offset >= 0 && size >= 0 && offset <= limit && size <= limit - offset;
    }

    /** True when the two ranges share at least one byte. */
    public boolean overlaps(PerfFileSection o) {
        return size > 0 && o.size > 0 && offset < o.offset + o.size && o.offset < offset + size;
    }
}
