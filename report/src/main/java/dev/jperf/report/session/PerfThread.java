package dev.jperf.report.session;

/**
 * A thread as perf tracks it: ids, current name (":TID" until a COMM names it) and the address
 * space it shares with the other threads of its process.
 */
public final class PerfThread {
    private int pid;
    private final int tid;
    private String comm;
    private boolean commSet;
    private MapGroup maps;
    /** The parent's tid, as a FORK record gave it (perf's thread->ppid); -1 until one did. */
    private int ppid = -1;
    /** {@link ChainCache}'s entry of this thread's last sample, in the cache's epoch {@link #chainEpoch}. */
    int chainEntry = -1;
    int chainEpoch;

    PerfThread(int pid, int tid, MapGroup maps) {
        this.pid = pid;
        this.tid = tid;
        this.comm = ":" + tid;
        this.maps = maps;
    }

    public int pid() {
        return pid;
    }

    public int tid() {
        return tid;
    }

    /** The thread's name now (perf's thread__comm_str). */
    public String comm() {
        return comm;
    }

    public int ppid() {
        return ppid;
    }

    void setPpid(int p) {
        ppid = p;
    }

    public MapGroup maps() {
        return maps;
    }

    boolean commSet() {
        return commSet;
    }

    void setComm(String c) {
        comm = c.intern();
        commSet = true;
    }

    void setPid(int p) {
        pid = p;
    }

    void setMaps(MapGroup m) {
        maps = m;
    }

    @Override
    public String toString() {
        return comm + ":" + pid + "/" + tid;
    }
}
