package dev.jperf.report.script;

import dev.jperf.format.header.EventDesc;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.report.session.Machine;
import dev.jperf.report.session.ResolvedSample;
import dev.jperf.report.session.SampleConsumer;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Runs a {@link ScriptPrinter} on a second thread: the session (reading, ordering, resolving)
 * and the text formatting each get a core. Samples go over in batches; a side-band record goes
 * with its header, taken here because it reads the session's thread state of that moment. The
 * resolved samples are immutable, so handing them over is safe.
 */
final class PipelinedPrinter implements SampleConsumer {
    private static final int BATCH = 1024;
    private static final Object[] END = new Object[0];

    private record SideBand(PerfRecord record, SideBandHeader header) {
    }

    private final ScriptPrinter printer;
    private final Machine machine;
    private final List<EventDesc> events;
    private final Script.Options options;
    private final OutputFields[] fields;
    private final ArrayBlockingQueue<Object[]> queue = new ArrayBlockingQueue<>(4);
    private final Thread writer;
    private volatile RuntimeException failure;
    private Object[] batch = new Object[BATCH];
    private int n;

    PipelinedPrinter(ScriptPrinter printer, Machine machine, List<EventDesc> events, Script.Options options) {
        this.printer = printer;
        this.machine = machine;
        this.events = events;
        this.options = options;
        this.fields = printer.fields();
        this.writer = new Thread(this::drain, "jperf-script-writer");
        writer.setDaemon(true);
        writer.start();
    }

    @Override
    public void sample(ResolvedSample s) {
        if (s.filtered()) {
            return; // perf script's al.filtered: not printed
        }
        ResolvedSample r = DeepChains.scriptOrder(s, machine, options.maxStack());
        ScriptSample extra = ScriptSample.of(r, machine, fields[r.event().index()]);
        // the sample alone when nothing more was resolved: no wrapper per sample
        add(extra == null ? r : extra);
    }

    @Override
    public void sideBand(PerfRecord r) {
        if (SideBandHeader.shown(r, options) && !SideBandHeader.cpuFiltered(r, events, options)) {
            add(new SideBand(r, SideBandHeader.of(r, machine, events)));
        }
    }

    private void add(Object o) {
        batch[n++] = o;
        if (n == BATCH) {
            publish(batch);
            batch = new Object[BATCH];
            n = 0;
        }
    }

    private void publish(Object[] b) {
        try {
            while (!queue.offer(b, 50, TimeUnit.MILLISECONDS)) {
                if (failure != null) {
                    throw failure;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while printing", e);
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Hands over what is left, waits until it is printed and flushes the output. */
    void finish() {
        if (n > 0) {
            publish(java.util.Arrays.copyOf(batch, n));
            n = 0;
        }
        publish(END);
        try {
            writer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while printing", e);
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** The session failed: let the writer thread end without printing the rest. */
    void abort() {
        queue.clear();
        queue.offer(END);
    }

    private void drain() {
        try {
            while (true) {
                Object[] b = queue.take();
                if (b == END) {
                    printer.flush();
                    return;
                }
                for (Object o : b) {
                    if (o instanceof ResolvedSample s) {
                        printer.sample(s);
                    } else if (o instanceof ScriptSample s) {
                        printer.sample(s);
                    } else if (o instanceof SideBand sb) {
                        printer.sideBand(sb.record, sb.header);
                    }
                }
            }
        } catch (InterruptedException e) {
            failure = new IllegalStateException("interrupted while printing", e);
        } catch (RuntimeException e) {
            failure = e;
        }
    }
}
