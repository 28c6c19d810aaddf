/**
 * perf.data feature sections (HEADER_* bits), one immutable value per section.
 *
 * <p>Reading: {@code PerfDataFile.features()} gives {@link dev.jperf.format.feature.Features} with
 * typed accessors ({@code hostname()}, {@code eventDesc()}, {@code bpfProgInfos()}, {@code btf(id)},
 * {@code bpfPrograms()} ...); a damaged body stays a {@link dev.jperf.format.feature.RawFeature}
 * and is reported in {@code warnings()}. Bodies alone decode with
 * {@link dev.jperf.format.feature.FeatureCodec#decode}.
 *
 * <p>Writing: build the values (e.g. {@code new NrCpus(avail, online)},
 * {@code new BpfProgInfos(list)}) and write {@link dev.jperf.format.feature.FeatureSection#encode()}
 * as the body of bit {@link dev.jperf.format.feature.FeatureSection#bit()}; the bytes are what
 * perf 6.1 writes (strings padded to 64, BPF_PROG_INFO with info_len 232).
 */
package dev.jperf.format.feature;
