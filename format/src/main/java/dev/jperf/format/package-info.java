/**
 * Reading perf.data: open a file (or a pipe-mode stream), look at its header, events and feature
 * sections, and stream its records as typed values. This is jperf's own reading layer (report
 * reads samples in place through it); programs that embed jperf use
 * {@link dev.jperf.format.consumer}, the supported API built on it.
 *
 * <pre>{@code
 * try (PerfDataFile f = PerfDataFile.open(Path.of("perf.data"));   // file or pipe mode, any byte order
 *      RecordStream records = f.records()) {                      // PerfDataFile.open("stdin", System.in) for a pipe
 *     for (EventDesc e : f.events()) { ... e.name(), e.attr().sampleType() ... }
 *     f.featureBody(Feature.BPF_PROG_INFO.bit());                 // raw section, bounds-checked; f.features() decoded
 *     while (records.hasNext()) {
 *         PerfRecord r = records.next();
 *         if (r instanceof SampleRecord s) { s.event().index(); s.time(); s.callchain(); }
 *         else if (r instanceof KsymbolRecord k) { k.name(); k.sampleId().time(); }
 *     }
 *     f.warnings();                                               // damage found, one line each
 * }
 * }</pre>
 *
 * <p>The header, attrs and feature sections are read from the memory-mapped file (windows of
 * 512 MiB + 1 MiB overlap, so files over 2 GiB work); the records of a file opened by path are
 * read forward with positional reads into chunks that stay in memory only while something refers
 * to them, those of bytes given as a {@link dev.jperf.format.io.ByteSource} straight from them,
 * and a stream through a buffer that holds only the records not yet returned. Records inside
 * PERF_RECORD_COMPRESSED(2) follow the compressed record itself. Records are in file order,
 * which is not time order ({@link dev.jperf.format.consumer.RecordingFile#inTimeOrder()} is).
 *
 * <p>A {@link dev.jperf.format.RecordStream} is read with {@code hasNext}/{@code next}, as above,
 * or, on the hot path, with its cursor ({@code advance(SampleView)}, which decodes a sample into
 * a reused view instead of an object); its javadoc says which to use when.
 *
 * <p>A file that cannot be read at all raises {@link dev.jperf.format.PerfDataException} (one
 * line naming the file and the problem); damage past the point where reading can start is a
 * warning, and everything sound before it is returned. The records' damage goes to
 * {@link dev.jperf.format.PerfDataFile#warnings()} too, or to a
 * {@link dev.jperf.format.RecordWarnings} sink of the caller's ({@code records(sink)}).
 */
package dev.jperf.format;
