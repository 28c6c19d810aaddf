package dev.jperf.format.record;

import dev.jperf.format.collect.HashIndex;
import dev.jperf.format.header.EventDesc;
import dev.jperf.format.io.ByteSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The events (evsels) of a file and how a record is mapped to one, as perf does (spec §9): by
 * index, by sample id, and through perf's id_pos / is_pos, which the first event sets. Events
 * arrive with the file's attrs or, in pipe mode, as HEADER_ATTR records; EVENT_UPDATE and
 * HEADER_EVENT_DESC rename them.
 */
public final class EventRegistry {
    private final List<EventDesc> events = new ArrayList<>();
    private final List<EventDesc> view = Collections.unmodifiableList(events);
    /** The first event and the count, for the per-record look-ups (List's calls are interface calls under C1). */
    private EventDesc first;
    private int count;
    /** The last id looked up and its event: records of one event come in runs (one per ring buffer). */
    private IdHit lastHit;
    private SampleLayout[] layouts = new SampleLayout[0];
    /** Per event: the attr's sample_period when it is fixed, else -1 (frequency mode). */
    private long[] fixedPeriods = new long[0];
    private final IdMap ids = new IdMap();
    /** perf's evlist id_pos / is_pos, from the first event: where a record's id is. */
    private int idPos = -1;
    private int isPos = -1;

    /** Adds an event (pipe mode: a HEADER_ATTR); returns it with its index set. */
    public EventDesc add(EventDesc e) {
        EventDesc d = e.index() == events.size() ? e : new EventDesc(events.size(), e.attr(), e.ids(), e.name());
        events.add(d);
        layouts = Arrays.copyOf(layouts, events.size());
        layouts[d.index()] = SampleLayout.of(d.attr());
        fixedPeriods = Arrays.copyOf(fixedPeriods, events.size());
        fixedPeriods[d.index()] = d.attr().freq() ? -1 : d.attr().samplePeriod();
        for (long id : d.ids()) {
            ids.put(id, d.index());
        }
        first = events.get(0);
        count = events.size();
        lastHit = null;
        if (events.size() == 1) {
            idPos = layouts[0].idPos();
            isPos = layouts[0].isPos();
        }
        return d;
    }

    /** Gives event {@code index} a new name (EVENT_UPDATE NAME, HEADER_EVENT_DESC). */
    public void rename(int index, String newName) {
        events.set(index, events.get(index).withName(newName));
        first = events.get(0);
        lastHit = null;
    }

    /** The events so far, as an unmodifiable live view (no copy: it is read per record). */
    public List<EventDesc> events() {
        return view;
    }

    /** The event with this id: perf's rule (single event, id 0 = first event); null if unknown. */
    public EventDesc eventOf(long id) {
        if (count <= 1 || id == 0) {
            return first;
        }
        IdHit h = lastHit;
        if (h != null && h.id() == id) {
            return h.event();
        }
        int i = ids.get(id);
        if (i < 0) {
            return null;
        }
        EventDesc e = events.get(i);
        lastHit = new IdHit(id, e);
        return e;
    }

    /** An id and its event (immutable: the reader's thread and the session's may both look up). */
    private record IdHit(long id, EventDesc event) {
    }

    /** Where the fields of event {@code index}'s samples and trailers sit. */
    public SampleLayout layout(int index) {
        return layouts[index];
    }

    /** Event {@code index}'s sample_period when it is fixed (no PERF_SAMPLE_PERIOD needed), else -1. */
    long fixedPeriod(int index) {
        return fixedPeriods[index];
    }

    /** The event of the SAMPLE at {@code pos} (perf's evlist__event2evsel); {@code name} names the input in errors. */
    EventDesc sampleEvent(String name, ByteSource src, long pos, long end) {
        int type = RecordType.PERF_RECORD_SAMPLE;
        if (count == 0) {
            throw RecordInput.bad(name, src, pos, type, "no event (attr) is defined before it");
        }
        if (count == 1 || idPos < 0) {
            return first;
        }
        long at = pos + 8 + 8L * idPos;
        if (at + 8 > end) {
            throw RecordInput.bad(name, src, pos, type, "too short to hold its id");
        }
        long id = src.u64(at);
        EventDesc e = eventOf(id);
        if (e == null) {
            throw RecordInput.bad(name, src, pos, type, "unknown event id " + Long.toUnsignedString(id));
        }
        return e;
    }

    /** The event of a non-SAMPLE kernel record: id counted back from the end (perf's is_pos); null without events. */
    EventDesc nonSampleEvent(ByteSource src, long pos, long end) {
        if (events.isEmpty()) {
            return null;
        }
        EventDesc first = events.get(0);
        if (events.size() == 1 || !first.attr().sampleIdAll() || isPos < 0) {
            return first;
        }
        long n = (end - pos - 8) / 8;
        if (isPos > n) {
            return first;
        }
        long id = src.u64(pos + 8 + 8 * (n - isPos));
        EventDesc e = eventOf(id);
        return e == null ? first : e;
    }

    /** id -> event index on the {@link HashIndex} (no boxing on the per-record path). */
    private static final class IdMap {
        private final HashIndex index = new HashIndex(16);
        private long[] keys = new long[16];
        private int[] vals = new int[16];
        private int[] hashes = new int[16];

        void put(long k, int v) {
            int slot = find(k);
            int e = index.entry(slot);
            if (e >= 0) {
                vals[e] = v;
                return;
            }
            e = index.size();
            if (e == keys.length) {
                keys = Arrays.copyOf(keys, 2 * e);
                vals = Arrays.copyOf(vals, 2 * e);
                hashes = Arrays.copyOf(hashes, 2 * e);
            }
            keys[e] = k;
            vals[e] = v;
            hashes[e] = hash(k);
            index.put(slot, hashes);
        }

        int get(long k) {
            int e = index.entry(find(k));
            return e < 0 ? -1 : vals[e];
        }

        /** The slot of {@code k}, or the free slot its probe ends at. */
        private int find(long k) {
            int slot = index.first(hash(k));
            int e;
            while ((e = index.entry(slot)) >= 0 && keys[e] != k) {
                slot = index.next(slot);
            }
            return slot;
        }

        private static int hash(long k) {
            long h = k * 0x9E3779B97F4A7C15L;
            return (int) (h ^ (h >>> 29));
        }
    }
}
