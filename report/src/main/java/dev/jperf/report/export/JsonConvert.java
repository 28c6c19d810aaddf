package dev.jperf.report.export;

import dev.jperf.format.json.JsonWriter;
import dev.jperf.format.PerfDataFile;
import dev.jperf.format.feature.ClockData;
import dev.jperf.format.feature.Features;
import dev.jperf.format.feature.NrCpus;
import dev.jperf.format.header.EventDesc;
import dev.jperf.format.header.FileHeader;
import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.SampleRecord;
import dev.jperf.report.session.Frame;
import dev.jperf.report.session.Machine;
import dev.jperf.report.session.ResolvedSample;
import dev.jperf.report.session.SampleConsumer;
import dev.jperf.report.session.SampleFilter;
import dev.jperf.report.session.Session;
import dev.jperf.report.symbol.SymbolResolver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * {@code perf data convert --to-json} (util/data-convert-json.c of perf 6.1): the header's facts,
 * then every sample in time order with its thread and its callchain (or its ip), each address with
 * its symbol and DSO where one is found; perf's layout (a tab per level, a comma at the end of the
 * line before the next element) and its string escapes.
 */
public final class JsonConvert implements SampleConsumer {
    private final Writer out;
    private final Machine machine;
    private final boolean cpu;
    private boolean first = true;
    private long samples;

    private JsonConvert(Writer out, Machine machine, boolean cpu) {
        this.out = out;
        this.machine = machine;
        this.cpu = cpu;
    }

    /**
     * Writes {@code file} to {@code out}; {@code mtimeMillis} is the input's modification time
     * (perf's "captured-on"). Returns the number of samples written.
     */
    public static long run(PerfDataFile file, SymbolResolver.Options symbols, long mtimeMillis, Writer out) throws IOException {
        long sampleType = 0;
        for (EventDesc e : file.events()) {
            sampleType |= e.attr().sampleType();
        }
        Session session = new Session(file, new SymbolResolver(symbols), new Session.Options(false, SampleFilter.NONE, false));
        JsonConvert c = new JsonConvert(out, session.machine(), (sampleType & PerfEventAttr.PERF_SAMPLE_CPU) != 0);
        out.write('{');
        c.line(false, 1, "\"linux-perf-json-version\": 1");
        c.line(true, 1, "\"headers\": {");
        c.headers(file, mtimeMillis);
        c.line(false, 1, "}");
        c.line(true, 1, "\"samples\": [");
        try {
            session.run(c);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        c.line(false, 1, "]");
        c.line(false, 0, "}");
        out.write('\n');
        return c.samples;
    }

    /** output_headers. */
    private void headers(PerfDataFile file, long mtimeMillis) throws IOException {
        FileHeader h = file.header();
        Features f = file.features();
        // PERF_HEADER_VERSION_2, the version of every PERFILE2 file (the only magic jperf reads)
        key(false, 2, "header-version", "1");
        key(true, 2, "captured-on", quote(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'")
                .format(Instant.ofEpochMilli(mtimeMillis).atOffset(ZoneOffset.UTC))));
        key(true, 2, "data-offset", Long.toUnsignedString(h.data().offset()));
        key(true, 2, "data-size", Long.toUnsignedString(h.data().size()));
        key(true, 2, "feat-offset", Long.toUnsignedString(h.data().offset() + h.data().size()));
        key(true, 2, "hostname", quote(f.hostname().orElse(null)));
        key(true, 2, "os-release", quote(f.osRelease().orElse(null)));
        key(true, 2, "arch", quote(f.arch().orElse(null)));
        key(true, 2, "cpu-desc", quote(f.cpuDesc().orElse(null)));
        key(true, 2, "cpuid", quote(f.cpuId().orElse(null)));
        NrCpus n = f.nrCpus().orElse(new NrCpus(0, 0));
        key(true, 2, "nrcpus-online", Integer.toUnsignedString(n.online()));
        key(true, 2, "nrcpus-avail", Integer.toUnsignedString(n.available()));
        if (f.clockData().isPresent()) {
            ClockData c = f.clockData().get();
            key(true, 2, "clockid", Integer.toUnsignedString(c.clockid()));
            key(true, 2, "clock-time", Long.toUnsignedString(c.clockidNs()));
            key(true, 2, "real-time", Long.toUnsignedString(c.todNs()));
        }
        key(true, 2, "perf-version", quote(f.version().orElse(null)));
        key(true, 2, "cmdline", "[");
        List<String> argv = f.cmdline().map(c -> c.argv()).orElse(List.of());
        for (int i = 0; i < argv.size(); i++) {
            line(i != 0, 3, quote(argv.get(i)));
        }
        line(false, 2, "]");
    }

    @Override
    public void sample(ResolvedSample rs) {
        try {
            SampleRecord s = rs.record();
            samples++;
            if (!first) {
                out.write(',');
            }
            first = false;
            line(false, 2, "{");
            key(false, 3, "timestamp", Long.toString(s.time()));
            key(true, 3, "pid", Integer.toString(rs.thread().pid()));
            key(true, 3, "tid", Integer.toString(rs.thread().tid()));
            if (cpu) {
                key(true, 3, "cpu", Integer.toString(s.cpu()));
            }
            key(true, 3, "comm", quote(rs.thread().comm()));
            key(true, 3, "callchain", "[");
            long[] chain = s.callchain();
            if (chain != null && chain.length > 0) {
                int cpumode = PerfRecord.PERF_RECORD_MISC_USER;
                boolean firstEntry = true;
                for (long ip : chain) {
                    if (Long.compareUnsigned(ip, SampleRecord.PERF_CONTEXT_MAX) >= 0) {
                        if (ip == SampleRecord.PERF_CONTEXT_HV) {
                            cpumode = PerfRecord.PERF_RECORD_MISC_HYPERVISOR;
                        } else if (ip == SampleRecord.PERF_CONTEXT_KERNEL) {
                            cpumode = PerfRecord.PERF_RECORD_MISC_KERNEL;
                        } else if (ip == SampleRecord.PERF_CONTEXT_USER) {
                            cpumode = PerfRecord.PERF_RECORD_MISC_USER;
                        }
                        continue;
                    }
                    if (!firstEntry) {
                        out.write(',');
                    }
                    firstEntry = false;
                    entry(ip, machine.resolve(rs.thread(), cpumode, ip));
                }
            } else {
                entry(s.ip(), rs.frame());
            }
            line(false, 3, "]");
            line(false, 2, "}");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** output_sample_callchain_entry: the ip, and its symbol and DSO where a symbol was found. */
    private void entry(long ip, Frame f) throws IOException {
        line(false, 4, "{");
        key(false, 5, "ip", "\"0x" + Long.toHexString(ip) + "\"");
        if (f != null && f.symbol() != null && !f.symbol().name().isEmpty()) {
            out.write(',');
            key(false, 5, "symbol", quote(f.symbol().name()));
            if (f.dso() != null && !f.dso().shortName().isEmpty()) {
                out.write(',');
                key(false, 5, "dso", quote(f.dso().shortName()));
            }
        }
        line(false, 4, "}");
    }

    /** output_json_format: a comma when asked, a newline, a tab per level, the text. */
    private void line(boolean comma, int depth, String text) throws IOException {
        if (comma) {
            out.write(',');
        }
        out.write('\n');
        for (int i = 0; i < depth; i++) {
            out.write('\t');
        }
        out.write(text);
    }

    /** output_json_key_format: {@code "key": value}. */
    private void key(boolean comma, int depth, String key, String value) throws IOException {
        line(comma, depth, "\"" + key + "\": " + value);
    }

    /** output_json_string (format's {@link JsonWriter#perfDataConvertString}); null as perf's "(null)". */
    static String quote(String s) {
        return JsonWriter.perfDataConvertString(s == null ? "(null)" : s);
    }
}
