package dev.jperf.format.consumer;

import dev.jperf.format.PerfDataException;
import dev.jperf.format.PerfDataFile;
import dev.jperf.format.RecordStream;
import dev.jperf.format.bpf.BpfPrograms;
import dev.jperf.format.feature.Features;
import dev.jperf.format.header.EventDesc;
import dev.jperf.format.header.FileHeader;
import dev.jperf.format.header.PerfFileSection;
import dev.jperf.format.record.PerfRecord;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A perf.data recording opened for reading, by perf's rules: a file (file or pipe mode, either
 * byte order, compressed records unpacked) or a pipe-mode stream. Its records are typed,
 * immutable values ({@link PerfRecord} and its one class per PERF_RECORD_* type), read in file
 * order ({@link #records()}) or in time order ({@link #inTimeOrder()}).
 *
 * <pre>{@code
 * try (RecordingFile f = RecordingFile.open(Path.of("perf.data"), w -> log.warn(w))) {
 *     for (PerfRecord r : f.inTimeOrder()) {
 *         if (r instanceof SampleRecord s) {
 *             f.bpfPrograms().at(s.ip()).ifPresent(b -> ...b.kernelName(), b.line()...);
 *         }
 *     }
 * }
 * }</pre>
 *
 * <p>Damage that leaves the rest readable (a file cut short, a record that contradicts its size,
 * a feature section pointing elsewhere) is one line, naming the file and the offset, given to the
 * warnings sink: the header's at once, the records' when an iteration reaches their end (or on
 * {@link #close()}), each line once. Nothing is printed. A recording that cannot be read at all
 * raises {@link PerfDataException} (unchecked, one line). Not thread-safe.
 */
public final class RecordingFile implements AutoCloseable {
    private final PerfDataFile file;
    private final Consumer<String> warnings;
    private final Set<String> said = new HashSet<>();
    /**
     * The data section runs past the end of the file: the file's first warning says so, and
     * names where the records stopped once they were read (so it is said then).
     */
    private final boolean truncated;
    private Features features;
    private BpfPrograms bpf;

    private RecordingFile(PerfDataFile file, long size, Consumer<String> warnings) {
        this.file = file;
        this.warnings = warnings;
        PerfFileSection data = file.header().data();
        this.truncated = !file.isPipe() && data.size() != 0 && !data.within(size);
        say(false);
    }

    /**
     * Opens a recording; damage is not reported (see {@link #open(Path, Consumer)}).
     *
     * @throws PerfDataException when it cannot be read at all (missing, not perf.data, header damaged)
     */
    public static RecordingFile open(Path file) {
        return open(file, ignored -> { });
    }

    /**
     * Opens a recording, memory-mapped (a FIFO or device is read as a stream), giving each
     * problem met to {@code warnings} as one line.
     *
     * @throws PerfDataException when it cannot be read at all (missing, not perf.data, header damaged)
     */
    public static RecordingFile open(Path file, Consumer<String> warnings) {
        PerfDataFile f = PerfDataFile.open(file);
        long size;
        try {
            size = f.isPipe() ? -1 : Files.size(file);
        } catch (IOException e) {
            f.close();
            throw new PerfDataException(file + ": cannot read: " + e.getMessage(), e);
        }
        return new RecordingFile(f, size, warnings);
    }

    /**
     * Opens a pipe-mode stream ({@code perf record -o -}); it is read once, forward, holding only
     * the records not yet returned. Damage is not reported.
     *
     * @throws PerfDataException when it is not a pipe-mode perf.data stream
     */
    public static RecordingFile openPipe(InputStream in) {
        return openPipe(in, ignored -> { });
    }

    /**
     * Opens a pipe-mode stream, giving each problem met to {@code warnings} as one line (see
     * {@link #openPipe(InputStream)}).
     *
     * @throws PerfDataException when it is not a pipe-mode perf.data stream
     */
    public static RecordingFile openPipe(InputStream in, Consumer<String> warnings) {
        return new RecordingFile(PerfDataFile.open("pipe", in), -1, warnings);
    }

    /** The file's name as warnings give it ({@code pipe} for a stream). */
    public String name() {
        return file.name();
    }

    /** The file header: byte order, pipe or file mode, sections, feature bits. */
    public FileHeader header() {
        return file.header();
    }

    /** The events (perf's evsels: attr, ids, name) in file order; in pipe mode, those read so far. */
    public List<EventDesc> events() {
        return file.events();
    }

    /**
     * The feature sections (hostname, CPU topology, build ids, BPF programs, ...), decoded; in pipe
     * mode, those read so far. A section that does not decode is a warning.
     */
    public Features features() {
        Features fs = file.features();
        say(false);
        return fs;
    }

    /**
     * The BPF programs the recording captured (HEADER_BPF_PROG_INFO with the BTF of
     * HEADER_BPF_BTF): {@link BpfPrograms#at(long)} names the program, JITed function and source
     * line of an address; each program is a {@link dev.jperf.format.bpf.BpfProgInfo} (functions,
     * line table). In pipe mode, the programs read so far.
     */
    public BpfPrograms bpfPrograms() {
        Features fs = features();
        if (fs != features) {
            features = fs;
            bpf = fs.bpfPrograms();
        }
        return bpf;
    }

    /**
     * The records in file order, as written (records of a COMPRESSED record follow it). Each
     * iteration reads the file again; a stream can be iterated once.
     */
    public Iterable<PerfRecord> records() {
        return new Records(false);
    }

    /**
     * The records in time order, as perf report and script see them (perf's ordered events): the
     * kernel's records (samples and side band) sorted by time one round (FINISHED_ROUND) behind the
     * reading, equal times in file order; records without a time and those perf's tools write
     * (attrs, features, build ids, ...) as they are read; FINISHED_ROUND itself left out. Memory
     * holds about two rounds of records.
     */
    public Iterable<PerfRecord> inTimeOrder() {
        return new Records(true);
    }

    /** Gives the warnings not said yet; with {@code readDone}, also the one a truncated file says once read. */
    private void say(boolean readDone) {
        List<String> all = file.warnings();
        int from = truncated && !readDone ? 1 : 0;
        for (int i = from; i < all.size(); i++) {
            if (said.add(all.get(i))) {
                warnings.accept(all.get(i));
            }
        }
    }

    /** Says what reading found; the file's records and mapping are let go. */
    @Override
    public void close() {
        say(true);
        file.close();
    }

    /** The records, in file or time order: each iterator reads them anew. */
    private final class Records implements Iterable<PerfRecord> {
        private final boolean timeOrder;

        Records(boolean timeOrder) {
            this.timeOrder = timeOrder;
        }

        @Override
        public Iterator<PerfRecord> iterator() {
            RecordStream rs = file.records();
            return new Reading(rs, timeOrder ? new TimeOrder(rs) : rs);
        }
    }

    /** An iteration: at its end the stream is closed and its warnings said. */
    private final class Reading implements Iterator<PerfRecord> {
        private final RecordStream stream;
        private final Iterator<PerfRecord> records;
        private boolean ended;

        Reading(RecordStream stream, Iterator<PerfRecord> records) {
            this.stream = stream;
            this.records = records;
        }

        @Override
        public boolean hasNext() {
            if (ended) {
                return false;
            }
            if (records.hasNext()) {
                return true;
            }
            ended = true;
            stream.close();
            say(true);
            return false;
        }

        @Override
        public PerfRecord next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return records.next();
        }
    }
}
