package dev.jperf.format.header;

/**
 * One event of a file (perf's evsel): its attr, the ids the kernel gave it (one per CPU/thread),
 * and its name (from HEADER_EVENT_DESC or EVENT_UPDATE when the file has one, else derived from
 * the attr as perf does).
 *
 * @param index position in the file's attr list (perf's evsel idx)
 */
public record EventDesc(int index, PerfEventAttr attr, long[] ids, String name) {
    public EventDesc {
        ids = ids.clone();
    }

    @Override
    public long[] ids() {
        return ids.clone();
    }

    public EventDesc withName(String newName) {
        return new EventDesc(index, attr, ids, newName);
    }
}
