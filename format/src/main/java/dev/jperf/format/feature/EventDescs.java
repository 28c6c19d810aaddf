package dev.jperf.format.feature;

import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.format.io.ByteSource;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * EVENT_DESC: u32 nr_events, u32 attr_size; per event the perf_event_attr bytes (attr_size), u32
 * nr_ids, the event name (perf string) and the ids. The attr is kept raw here; the header package
 * decodes it.
 */
public record EventDescs(int attrSize, List<Event> events) implements FeatureSection {
    public EventDescs {
        events = List.copyOf(events);
        for (Event e : events) {
            if (e.attr.length != attrSize) {
                throw new IllegalArgumentException("event " + e.name + ": attr has " + e.attr.length
                        + " bytes, attr_size is " + attrSize);
            }
        }
    }

    /** One event: raw attr bytes (file byte order), name, ids. Arrays are copied in and out. */
    public record Event(byte[] attr, String name, long[] ids) {
        public Event {
            attr = attr.clone();
            ids = ids.clone();
        }

        @Override
        public byte[] attr() {
            return attr.clone();
        }

        /**
         * The attr decoded by the header package; {@code order} is the file's byte order.
         *
         * @throws dev.jperf.format.PerfDataException if the attr is shorter than PERF_ATTR_SIZE_VER0
         */
        public PerfEventAttr perfEventAttr(ByteOrder order) {
            return PerfEventAttr.decode(ByteSource.wrap("EVENT_DESC " + name, attr).withOrder(order), 0, attr.length);
        }

        @Override
        public long[] ids() {
            return ids.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Event e && Arrays.equals(attr, e.attr) && name.equals(e.name) && Arrays.equals(ids, e.ids);
        }

        @Override
        public int hashCode() {
            return (Arrays.hashCode(attr) * 31 + name.hashCode()) * 31 + Arrays.hashCode(ids);
        }

        @Override
        public String toString() {
            return "Event[name=" + name + ", ids=" + Arrays.toString(ids) + "]";
        }
    }

    public static EventDescs decode(ByteBuffer body) {
        FeatureReader r = new FeatureReader(body, "EVENT_DESC");
        int nr = r.u32("nr_events");
        int attrSize = r.u32("attr_size");
        if (attrSize < 0 || attrSize > r.remaining()) {
            throw r.error("attr_size " + Integer.toUnsignedString(attrSize) + " larger than the section");
        }
        // each event needs at least attr + nr_ids + the name's length word
        long min = (long) attrSize + 8;
        if (Integer.toUnsignedLong(nr) > r.remaining() / min) {
            throw r.error("nr_events = " + Integer.toUnsignedString(nr) + " cannot fit");
        }
        List<Event> events = new ArrayList<>(nr);
        for (int i = 0; i < nr; i++) {
            byte[] attr = r.bytes(attrSize, "attr of event " + i);
            int nrIds = r.count("nr_ids of event " + i, 8);
            String name = r.string("name of event " + i);
            if ((long) nrIds * 8 > r.remaining()) {
                throw r.error("event " + i + " claims " + nrIds + " ids");
            }
            long[] ids = new long[nrIds];
            for (int j = 0; j < nrIds; j++) {
                ids[j] = r.u64("id");
            }
            events.add(new Event(attr, name, ids));
        }
        return new EventDescs(attrSize, events);
    }

    @Override
    public int bit() {
        return Feature.EVENT_DESC.bit();
    }

    @Override
    public byte[] encode() {
        FeatureWriter w = new FeatureWriter().u32(events.size()).u32(attrSize);
        for (Event e : events) {
            w.bytes(e.attr).u32(e.ids.length).string(e.name);
            for (long id : e.ids) {
                w.u64(id);
            }
        }
        return w.toByteArray();
    }
}
