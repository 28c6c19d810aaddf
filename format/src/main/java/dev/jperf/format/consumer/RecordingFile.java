package dev.jperf.format.consumer;

import dev.jperf.format.PerfDataException;
import dev.jperf.format.PerfDataFile;
import dev.jperf.format.RecordStream;
import dev.jperf.format.RecordWarnings;
import dev.jperf.format.bpf.BpfPrograms;
import dev.jperf.format.feature.Features;
import dev.jperf.format.header.EventDesc;
import dev.jperf.format.header.FileHeader;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.writer.PerfDataCopier;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

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
 * a feature section pointing elsewhere) is one line, naming the file and where, given to the
 * warnings sink, each line once however often the records are read: the header's at open, a
 * feature section's when the features are first decoded, the records' as an iteration meets them.
 * A file cut short is one line, said when an iteration reaches the end of its records (naming
 * where they stop) or, if none did, on {@link #close()}. Nothing is printed. A recording that
 * cannot be read at all raises {@link PerfDataException} (unchecked, one line). Not thread-safe.
 */
public final class RecordingFile implements AutoCloseable {
    private final PerfDataFile file;
    private final Consumer<String> warnings;
    /** The records' damage, reported by every iteration: each line is said once. */
    private final RecordWarnings recordWarnings = new RecordLines();
    private final Set<String> recordLinesSaid = new HashSet<>();
    /**
     * The data section runs past the end of the file: {@link PerfDataFile#warnings()} starts with
     * a line saying so, which is said here once the records were read (naming where they stopped).
     */
    private final boolean truncated;
    private boolean truncationSaid;
    /** How many of the file's own lines (header, features: they only grow) were said. */
    private int fileLinesSaid;
    private Features features;
    private BpfPrograms bpf;

    private RecordingFile(PerfDataFile file, Consumer<String> warnings) {
        this.file = file;
        this.warnings = warnings;
        this.truncated = file.truncation(-1).isPresent();
        sayFileLines();
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
        return new RecordingFile(PerfDataFile.open(file), warnings);
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
        return new RecordingFile(PerfDataFile.open("pipe", in), warnings);
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
        sayFileLines();
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
     * iteration reads the file again; a stream can be iterated once (a second iteration, in either
     * order, throws {@link IllegalStateException}).
     */
    public Iterable<PerfRecord> records() {
        return new Records(false);
    }

    /**
     * The records in time order, as perf report and script see them (perf's ordered events): the
     * kernel's records (samples and side band) sorted by time one round (FINISHED_ROUND) behind the
     * reading, equal times in file order; records without a time and those perf's tools write
     * (attrs, features, build ids, ...) as they are read; FINISHED_ROUND itself left out. Memory
     * holds about two rounds of records (all of them for a recording without FINISHED_ROUND
     * records). Iterated as {@link #records()} is.
     */
    public Iterable<PerfRecord> inTimeOrder() {
        return new Records(true);
    }

    /**
     * Writes the records {@code keep} accepts to a new perf.data file, as {@code jdk.jfr}'s
     * {@code RecordingFile.write} filters a recording: the events, their ids and the feature
     * sections whole, the kept records byte for byte in file order; perf reads the result as
     * it reads a file that perf inject wrote (pipe-mode input and compressed records come out as an
     * uncompressed file, records perf 6.1 does not know are left out with a warning). An existing
     * non-empty {@code out} is first renamed {@code out.old}, as perf does. The input's damage goes
     * to the warnings sink (each line once).
     *
     * @param out the file to write
     * @param keep tested with each record in file order (the records of a COMPRESSED record, not
     *     the COMPRESSED record itself; never HEADER_ATTR or HEADER_FEATURE, which are the output's
     *     attrs and feature sections)
     * @throws IOException when {@code out} cannot be written (one line naming it)
     * @throws IllegalStateException for a stream whose records were already read
     * @throws PerfDataException when the recording cannot be written as a file perf reads
     *     (big-endian, or no events)
     */
    public void write(Path out, Predicate<PerfRecord> keep) throws IOException {
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(keep, "keep");
        PerfDataCopier.Result r = PerfDataCopier.copyKept(file, out, keep);
        // the copy read the records without a sink: their damage joined the file's lines
        List<String> fileLines = file.warnings();
        for (int i = fileLinesSaid + (truncated ? 1 : 0); i < fileLines.size(); i++, fileLinesSaid++) {
            if (recordLinesSaid.add(fileLines.get(i))) {
                warnings.accept(fileLines.get(i));
            }
        }
        sayTruncation(-1);
        for (String line : r.warnings()) {
            if (!fileLines.contains(line) && recordLinesSaid.add(line)) {
                warnings.accept(line);
            }
        }
    }

    /** Gives the header's and features' lines not said yet (past a truncated file's first line: see {@link #sayTruncation}). */
    private void sayFileLines() {
        List<String> all = file.warnings();
        for (int i = fileLinesSaid + (truncated ? 1 : 0); i < all.size(); i++) {
            warnings.accept(all.get(i));
            fileLinesSaid++;
        }
    }

    /** A truncated file's line, once: naming where its records stopped ({@code stoppedAt}), or -1 if unknown. */
    private void sayTruncation(long stoppedAt) {
        if (truncated && !truncationSaid) {
            truncationSaid = true;
            warnings.accept(file.truncation(stoppedAt).get());
        }
    }

    /**
     * Says what is left to say (of a truncated file unread: that its records past the end are
     * missing); the file's mapping is let go.
     */
    @Override
    public void close() {
        sayFileLines();
        sayTruncation(-1);
        file.close();
    }

    /** Where every iteration's stream reports damage: to the warnings given at open, each line once. */
    private final class RecordLines implements RecordWarnings {
        @Override
        public void warn(String line) {
            if (recordLinesSaid.add(line)) {
                warnings.accept(line);
            }
        }

        @Override
        public void truncatedAt(long offset) {
            sayTruncation(offset);
        }
    }

    /** The records, in file or time order: each iterator reads them anew. */
    private final class Records implements Iterable<PerfRecord> {
        private final boolean timeOrder;

        Records(boolean timeOrder) {
            this.timeOrder = timeOrder;
        }

        @Override
        public Iterator<PerfRecord> iterator() {
            RecordStream rs = file.records(recordWarnings);
            return new Reading(rs, timeOrder ? new TimeOrder(rs) : rs);
        }
    }

    /** An iteration: at its end the stream is closed and what the file learnt meanwhile said. */
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
            sayFileLines();
            sayTruncation(-1); // the records stopped before the end of the data for another reason
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
