package dev.jperf.report.session;

import dev.jperf.format.header.EventDesc;
import java.util.List;

/**
 * perf's evswitch (--switch-on, --switch-off, --show-on-off-events): samples are discarded until
 * one of the on event arrives (itself discarded unless shown), then kept until one of the off
 * event arrives (itself kept only when shown), and so on. Stateful: one per pass over a file, fed
 * the samples in perf's order.
 */
public final class EvSwitch {
    private final EventDesc on;
    private final EventDesc off;
    private final boolean showOnOff;
    private boolean discarding;

    private EvSwitch(EventDesc on, EventDesc off, boolean showOnOff) {
        this.on = on;
        this.off = off;
        this.showOnOff = showOnOff;
        this.discarding = on != null;
    }

    /**
     * The switch for a file's events, named as perf names them (evlist__find_evsel_by_str: the
     * whole name); null when neither is given. An unknown name is perf's error line.
     */
    public static EvSwitch of(List<EventDesc> events, String onName, String offName, boolean showOnOff) {
        if (onName == null && offName == null) {
            return null;
        }
        return new EvSwitch(find(events, "on", onName), find(events, "off", offName), showOnOff);
    }

    private static EventDesc find(List<EventDesc> events, String which, String name) {
        if (name == null) {
            return null;
        }
        for (EventDesc e : events) {
            if (name.equals(e.name())) {
                return e;
            }
        }
        throw new NotFound("switch-" + which + " event not found (" + name + ")");
    }

    /** perf's evswitch__discard for a sample of {@code e}. */
    public boolean discard(EventDesc e) {
        if (on != null && discarding) {
            if (!same(on, e)) {
                return true;
            }
            discarding = false;
            return !showOnOff;
        }
        if (off != null && !discarding) {
            if (!same(off, e)) {
                return false;
            }
            discarding = true;
            return !showOnOff;
        }
        return false;
    }

    private static boolean same(EventDesc a, EventDesc b) {
        return a == b || a.index() == b.index();
    }

    /** An event name the file has not: perf's "ERROR: switch-on event not found (NAME)". */
    public static final class NotFound extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        NotFound(String message) {
            super(message);
        }
    }
}
