package dev.jperf.nativeshim;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;

/**
 * One perf mmap ring (ring-buffer.md §3-4): a control page and 2^n data pages. The kernel advances
 * data_head, we advance data_tail; data_head is loaded with acquire and data_tail stored with
 * release semantics, as the kernel ABI requires. Records that wrap around the end of the data area
 * are copied into a scratch buffer so that every record handed out is contiguous. One thread
 * drains a ring. The one ring reader: the recorder's sampling and side-band rings, and bpftool's
 * event_pipe (jperf bpf map event_pipe) in the bpf module.
 */
public final class RingBuffer implements AutoCloseable {
    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /**
     * Receives each record: {@code size} bytes at {@code offset} of {@code buf} (valid only during
     * the call), at native {@code address} (for {@link RawMemory}), with its header's type and misc.
     * {@code buf} is a direct buffer typed as
     * {@link MappedByteBuffer}: C1 calls ByteBuffer's accessors through the vtable (heap and direct
     * buffers both implement them), MappedByteBuffer's it binds to the one implementation and
     * inlines, a few nanoseconds per field of every record.
     */
    @FunctionalInterface
    public interface Visitor {
        void record(MappedByteBuffer buf, int offset, long address, int size, int type, int misc);

        /**
         * Called by {@link #drain} before the first record with the bytes it is about to walk:
         * {@code length} bytes from {@code offset} of the data area, wrapping at its end
         * ({@link #span} makes them buffers).
         */
        default void beforeWalk(RingBuffer ring, int offset, int length) {}

        /** Called by {@link #drain} after the last record, before the space is handed back to the kernel. */
        default void endOfBatch() {}
    }

    private final int fd;
    private final int cpu;
    private final ByteBuffer mapping;
    private final MappedByteBuffer data;
    private final int dataSize;
    private final long mask;
    /** The data area's address. */
    private final long dataAddress;
    private final MappedByteBuffer scratch = direct(1 << 16);
    /** Views of the data area set by {@link #span}: made once, not per drain (a slice is an allocation and a constructor chain). */
    private final ByteBuffer toEnd;
    private final ByteBuffer fromStart;
    private final long scratchAddress = RawMemory.address(scratch);
    /** Bytes consumed. */
    private long tail;

    /** A little-endian direct buffer (the JDK's direct buffers are MappedByteBuffers). */
    public static MappedByteBuffer direct(int capacity) {
        return (MappedByteBuffer) ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Over an existing mapping (a control page followed by the data area: a direct buffer). */
    public RingBuffer(int fd, int cpu, ByteBuffer mapping) {
        this.fd = fd;
        this.cpu = cpu;
        this.mapping = mapping;
        long offset = mapping.getLong(PerfEventMmapPage.DATA_OFFSET);
        long size = mapping.getLong(PerfEventMmapPage.DATA_SIZE);
        if (offset <= 0 || size <= 0 || Long.bitCount(size) != 1 || offset + size > mapping.capacity()) {
            throw new IllegalStateException("ring of fd " + fd + ": data_offset " + offset + " / data_size " + size
                    + " do not fit a " + mapping.capacity() + "-byte mapping");
        }
        this.dataSize = (int) size;
        this.mask = size - 1;
        this.data = (MappedByteBuffer) mapping.slice((int) offset, dataSize).order(ByteOrder.LITTLE_ENDIAN);
        this.dataAddress = RawMemory.address(data);
        this.toEnd = data.duplicate();
        this.fromStart = data.duplicate();
        this.tail = (long) LONGS.getAcquire(mapping, PerfEventMmapPage.DATA_TAIL);
    }

    /** Maps 1 + {@code pages} pages of event {@code fd} (pages a power of two) for reading and writing. */
    public static RingBuffer map(int fd, int cpu, int pages, int pageSize) {
        if (pages <= 0 || Integer.bitCount(pages) != 1) {
            throw new IllegalArgumentException("ring size of " + pages + " pages is not a power of two");
        }
        ByteBuffer m = Mman.mmap(fd, (long) (pages + 1) * pageSize, Mman.PROT_READ | Mman.PROT_WRITE,
                "ring of cpu " + cpu);
        return new RingBuffer(fd, cpu, m);
    }

    public int fd() {
        return fd;
    }

    public int cpu() {
        return cpu;
    }

    public int dataSize() {
        return dataSize;
    }

    /** data_head as the kernel last published it (acquire). */
    public long head() {
        return (long) LONGS.getAcquire(mapping, PerfEventMmapPage.DATA_HEAD);
    }

    /** Bytes consumed so far. */
    public long tail() {
        return tail;
    }

    /** Whether records are waiting. */
    public boolean hasData() {
        return head() != tail;
    }

    /**
     * Visits every record up to the head read at the start, then stores data_tail (release),
     * handing the space back to the kernel. Returns the number of bytes consumed.
     */
    public long drain(Visitor visitor) {
        long head = head();
        long start = tail;
        if (head != start && Long.compareUnsigned(head - start, dataSize) <= 0) {
            visitor.beforeWalk(this, (int) (start & mask), (int) (head - start));
        }
        long end = walk(start, head, visitor);
        visitor.endOfBatch();
        tail = end;
        LONGS.setRelease(mapping, PerfEventMmapPage.DATA_TAIL, end);
        return end - start;
    }

    /**
     * Sets {@link #spanToEnd} and {@link #spanFromStart} to {@code length} bytes of the data area
     * from {@code offset}: the part up to the area's end, and the part from its start when they
     * wrap (else empty).
     */
    public void span(int offset, int length) {
        int first = Math.min(length, dataSize - offset);
        toEnd.limit(offset + first).position(offset);
        fromStart.limit(length - first).position(0);
    }

    /** The first part of the last {@link #span}. */
    public ByteBuffer spanToEnd() {
        return toEnd;
    }

    /** The wrapped part of the last {@link #span}, or null when it does not wrap. */
    public ByteBuffer spanFromStart() {
        return fromStart.hasRemaining() ? fromStart : null;
    }

    private long walk(long from, long head, Visitor visitor) {
        long pos = from;
        // unsigned comparison: data_head is a count that never wraps in practice, but be exact
        while (Long.compareUnsigned(head - pos, 8) >= 0) {
            int off = (int) (pos & mask);
            // the 8-byte header in one read: u32 type, u16 misc, u16 size
            long hdr = off + 8 <= dataSize ? RawMemory.getLong(dataAddress + off) : headerAcrossEnd(off);
            int type = (int) hdr;
            int misc = (int) (hdr >>> 32) & 0xffff;
            int size = (int) (hdr >>> 48);
            if (size < 8 || Long.compareUnsigned(size, head - pos) > 0) {
                // a zero or oversized header means the ring is not what the ABI promises: skip to head
                return head;
            }
            if (off + size <= dataSize) {
                visitor.record(data, off, dataAddress + off, size, type, misc);
            } else {
                int first = dataSize - off;
                scratch.put(0, data, off, first);
                scratch.put(first, data, 0, size - first);
                visitor.record(scratch, 0, scratchAddress, size, type, misc);
            }
            pos += size;
        }
        return pos;
    }

    private long headerAcrossEnd(int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v |= (long) (data.get((off + i) & (int) mask) & 0xff) << (8 * i);
        }
        return v;
    }

    @Override
    public void close() {
        Mman.munmap(mapping);
    }
}
