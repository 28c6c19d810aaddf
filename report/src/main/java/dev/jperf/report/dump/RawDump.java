package dev.jperf.report.dump;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.RecordStream;
import dev.jperf.format.io.ByteSource;
import dev.jperf.format.record.HeaderAttrRecord;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.report.stats.EventStats;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * {@code perf report -D} and {@code jperf dump}: every record in file order, decoded as perf
 * prints it; with {@code hex}, preceded by perf's raw hex dump, and followed by the stats.
 */
public final class RawDump {
    private RawDump() {
    }

    /** Prints every record of {@code file}; returns the number of records. */
    public static long print(PerfDataFile file, PrintStream out, boolean hex) {
        return print(file, out, hex, true);
    }

    /** {@link #print(PerfDataFile, PrintStream, boolean)}, the stats after it as report's --[no-]skip-empty says. */
    public static long print(PerfDataFile file, PrintStream out, boolean hex, boolean skipEmpty) {
        // perf counts pipe-mode offsets from the end of the 16-byte header
        long base = file.isPipe() ? file.dataSection().offset() : 0;
        String where = file.isPipe() ? "pipe" : file.name();
        EventStats stats = hex ? new EventStats() : null;
        RecordPrinter printer = new RecordPrinter(file.events(), base);
        int knownEvents = file.events().size();
        long n = 0;
        Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        StringBuilder sb = new StringBuilder(4096);
        try {
            if (hex) {
                w.write("# To display the perf.data header info, please use --header/--header-only options.\n#\n");
            }
            try (RecordStream rs = file.records()) {
                while (rs.hasNext()) {
                    PerfRecord r = rs.next();
                    n++;
                    if (r instanceof HeaderAttrRecord && file.events().size() != knownEvents) {
                        knownEvents = file.events().size();
                        printer = new RecordPrinter(file.events(), base);
                    }
                    sb.setLength(0);
                    if (hex) {
                        stats.add(r);
                        sb.append('\n').append(RecordPrinter.hex(r.offset() - base)).append('@').append(where).append(" [")
                                .append(RecordPrinter.hex(r.size())).append("]: event: ").append(r.type())
                                .append("\n.\n. ... raw event: size ").append(r.size()).append(" bytes\n");
                        hexDump(sb, rs.raw());
                        sb.append('\n');
                    }
                    printer.format(r, sb);
                    w.append(sb);
                }
            }
            w.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (hex) {
            stats.finish(file);
            stats.print(out, skipEmpty);
        }
        out.flush();
        return n;
    }

    /** perf's trace_event(): ".  0000:  45 00 ... 00  E..............." 16 bytes a line. */
    static void hexDump(StringBuilder sb, ByteSource b) {
        if (b == null) {
            return;
        }
        long n = b.size();
        for (long i = 0; i < n; i += 16) {
            sb.append(".  ");
            for (int shift = 12; shift >= 0; shift -= 4) {
                sb.append(Character.forDigit((int) (i >>> shift) & 15, 16));
            }
            sb.append(": ");
            for (int j = 0; j < 16; j++) {
                if (i + j < n) {
                    int c = b.u8(i + j);
                    sb.append(' ').append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
                } else {
                    sb.append("   ");
                }
            }
            sb.append("  ");
            for (int j = 0; j < 16; j++) {
                if (i + j < n) {
                    int c = b.u8(i + j);
                    sb.append(c >= 0x20 && c < 0x7f ? (char) c : '.');
                } else {
                    sb.append(' ');
                }
            }
            sb.append('\n');
        }
    }
}
