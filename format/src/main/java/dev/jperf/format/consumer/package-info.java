/**
 * The supported way to read perf.data from Java, as {@code jdk.jfr.consumer} reads JFR files:
 * open a recording, iterate its typed, immutable records in file or time order, and name
 * addresses inside the BPF programs it captured.
 *
 * <pre>{@code
 * try (RecordingFile f = RecordingFile.open(Path.of("perf.data"), System.err::println)) {
 *     for (PerfRecord r : f.inTimeOrder()) {
 *         if (r instanceof SampleRecord s) {
 *             String where = f.bpfPrograms().at(s.ip())
 *                     .map(b -> b.kernelName() + b.line().map(l -> " " + l.location()).orElse(""))
 *                     .orElse(Long.toHexString(s.ip()));
 *             System.out.println(s.time() + " " + s.event().name() + " " + s.tid() + " " + where);
 *         }
 *     }
 * }
 * }</pre>
 *
 * <p>{@link dev.jperf.format.consumer.RecordingFile} is the entry point; the records are the
 * types of {@link dev.jperf.format.record} ({@code SampleRecord}, {@code MmapRecord},
 * {@code KsymbolRecord}, ...; array accessors return copies), the events and header those of
 * {@link dev.jperf.format.header}, the feature sections those of {@link dev.jperf.format.feature},
 * the BPF programs {@link dev.jperf.format.bpf.BpfPrograms}. Nothing here prints: damage goes to
 * the warnings sink given at open. Symbolisation (threads, maps, ELF and kernel symbols) is
 * report's, not part of this API.
 *
 * <p>Nulls: no argument of this API may be null ({@link java.lang.NullPointerException}
 * otherwise). {@code RecordingFile} never returns null. A record's field the event did not
 * sample is {@code -1} (numbers) or null (arrays and structures), as perf leaves them unset and as
 * each accessor says ({@link dev.jperf.format.record.SampleRecord}); a lookup by a number this
 * reader does not know returns null where its javadoc says so, and {@link java.util.Optional}
 * where the answer may be absent for any input ({@code BpfPrograms.at}).
 *
 * <p>The module ({@code dev.jperf.format}) exports this package and those of its types to
 * everyone; its other packages are jperf's own, exported only to jperf's modules.
 */
package dev.jperf.format.consumer;
