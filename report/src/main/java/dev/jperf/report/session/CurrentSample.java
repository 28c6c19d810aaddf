package dev.jperf.report.session;

import dev.jperf.format.header.EventDesc;
import dev.jperf.format.record.PerfRecord;

/**
 * The sample a {@link SampleSink} is handed: what {@link ResolvedSample} holds, minus the decoded
 * record, in one object reused for every sample (valid during the call only). The callchain is
 * resolved as for {@link ResolvedSample#callchain()}: caller first, context markers applied and
 * removed; {@link #callchainLength()} is -1 when the sample has none or callchains are off.
 */
public final class CurrentSample {
    EventDesc event;
    long ip;
    int pid;
    int tid;
    long time;
    int cpu;
    long period;
    int misc;
    long offset;
    PerfThread thread;
    String comm;
    Frame frame;
    /** Room for a kernel chain and a user one unwound (perf keeps up to --max-stack of each). */
    Frame[] chain = new Frame[2 * Machine.MAX_CHAIN_NR + 2];
    int chainLength = -1;
    /** {@link #callchainHash()} once known (from the chain cache, or computed on first ask). */
    int chainHash;
    boolean chainHashed;
    /** {@link #chainId()}. */
    long chainId = -1;
    boolean filtered;
    /** Branch mode: the branch stack's entries resolved, or -1 when the sample has none. */
    int branchCount = -1;
    Frame[] branchFrom = new Frame[0];
    Frame[] branchTo = new Frame[0];
    int[] branchCycles = new int[0];

    public EventDesc event() {
        return event;
    }

    public long ip() {
        return ip;
    }

    public int pid() {
        return pid;
    }

    public int tid() {
        return tid;
    }

    public long time() {
        return time;
    }

    public int cpu() {
        return cpu;
    }

    public long period() {
        return period;
    }

    public int misc() {
        return misc;
    }

    public int cpumode() {
        return misc & PerfRecord.PERF_RECORD_MISC_CPUMODE_MASK;
    }

    /** Where the record starts in the file. */
    public long offset() {
        return offset;
    }

    public PerfThread thread() {
        return thread;
    }

    /** The thread's name at the time of the sample. */
    public String comm() {
        return comm;
    }

    /** Where the ip fell. */
    public Frame frame() {
        return frame;
    }

    /** Resolved callchain entries, or -1 without callchain. */
    public int callchainLength() {
        return chainLength;
    }

    /**
     * The resolved callchain entries {@code [0, callchainLength())}, caller first: the array is
     * reused for the next sample (copy what must outlive the call).
     */
    public Frame[] callchainFrames() {
        return chain;
    }

    /**
     * {@link Frame#hashOf} of the callchain's entries: carried with a cached chain, so that tables
     * keyed by the chain need not read its ~23 frames again.
     */
    public int callchainHash() {
        if (!chainHashed) {
            chainHash = Frame.hashOf(chain, Math.max(chainLength, 0));
            chainHashed = true;
        }
        return chainHash;
    }

    /**
     * A number naming this sample's frame and callchain as the chain cache resolved them: samples
     * with the same one have the same {@link #frame()} and callchain (the same objects); -1 when
     * the sample's were resolved for it alone. Tables keyed by the chain may look it up by this
     * instead of comparing ~23 frames.
     */
    public long chainId() {
        return chainId;
    }

    /** Callchain entry {@code i}, caller first. */
    public Frame callchain(int i) {
        java.util.Objects.checkIndex(i, Math.max(chainLength, 0));
        return chain[i];
    }

    /** Branch mode: the branches of the sample's branch stack (0 without one). */
    public int branchCount() {
        return Math.max(branchCount, 0);
    }

    /** Branch {@code i}'s source, resolved as perf's thread__find_cpumode_addr_location. */
    public Frame branchFrom(int i) {
        java.util.Objects.checkIndex(i, branchCount());
        return branchFrom[i];
    }

    public Frame branchTo(int i) {
        java.util.Objects.checkIndex(i, branchCount());
        return branchTo[i];
    }

    /** Branch {@code i}'s cycles (the entry's flags, bits 4-19). */
    public int branchCycles(int i) {
        java.util.Objects.checkIndex(i, branchCount());
        return branchCycles[i];
    }

    /** Set when --comm/--pid/--tid exclude the sample's thread. */
    public boolean filtered() {
        return filtered;
    }
}
