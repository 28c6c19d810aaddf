package dev.jperf.recorder;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGINT and SIGTERM as a clean stop, as perf's record, stat and bpftop take them: the handler only
 * asks the run to stop, and the run ends its work (writes the file, prints what it counted).
 */
public final class StopSignals {
    /** What a signal stops. */
    public interface Stoppable {
        void requestStop();
    }

    private StopSignals() {
    }

    /** Installs the handlers for {@code run}; returns the previous ones, for {@link #restore}. */
    public static SignalHandler[] install(Stoppable run) {
        // a class, not a lambda: the start of a recording runs no invokedynamic (see HeaderFeatures#setStatic)
        SignalHandler stop = new SignalHandler() {
            @Override
            public void handle(Signal s) {
                run.requestStop();
            }
        };
        return new SignalHandler[] {Signal.handle(new Signal("INT"), stop), Signal.handle(new Signal("TERM"), stop)};
    }

    /** Puts back the handlers {@link #install} returned (an in-process caller's, e.g. a test JVM's). */
    public static void restore(SignalHandler[] previous) {
        Signal.handle(new Signal("INT"), previous[0]);
        Signal.handle(new Signal("TERM"), previous[1]);
    }
}
