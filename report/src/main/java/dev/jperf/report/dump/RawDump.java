package dev.jperf.report.dump;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.RecordStream;
import dev.jperf.format.io.ByteSource;
import dev.jperf.format.record.HeaderAttrRecord;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.report.stats.EventStats;
import java.io.PrintStream;

/**
 * {@code perf report -D} and {@code jperf dump}: every record in file order, decoded as perf
 * prints it; with {@code hex}, preceded by perf's raw hex dump, and followed by the stats.
 */
public final class RawDump {
    private RawDump() {
    }

    /** Prints every record of {@code file}; returns the number of records. */
    public static long print(PerfDataFile file, PrintStream out, boolean hex) {
        // perf counts pipe-mode offsets from the end of the 16-byte header
        long base = file.isPipe() ? file.dataSection().offset() : 0;
        String where = file.isPipe() ? "pipe" : file.name();
        EventStats stats = hex ? new EventStats() : null;
        RecordPrinter printer = new RecordPrinter(file.events(), base);
        int knownEvents = file.events().size();
        long n = 0;
        if (hex) {
            out.print("# To display the perf.data header info, please use --header/--header-only options.\n#\n");
        }
        try (RecordStream rs = file.records()) {
            while (rs.hasNext()) {
                PerfRecord r = rs.next();
                n++;
                if (r instanceof HeaderAttrRecord && file.events().size() != knownEvents) {
                    knownEvents = file.events().size();
                    printer = new RecordPrinter(file.events(), base);
                }
                if (hex) {
                    stats.add(r);
                    out.print("\n" + RecordPrinter.hex(r.offset() - base) + "@" + where + " [" + RecordPrinter.hex(r.size())
                            + "]: event: " + r.type() + "\n.\n. ... raw event: size " + r.size() + " bytes\n");
                    hexDump(out, rs.raw());
                    out.print("\n");
                }
                out.print(printer.format(r));
            }
        }
        if (hex) {
            stats.finish(file);
            stats.print(out);
        }
        out.flush();
        return n;
    }

    /** perf's trace_event(): ".  0000:  45 00 ... 00  E..............." 16 bytes a line. */
    static void hexDump(PrintStream out, ByteSource b) {
        if (b == null) {
            return;
        }
        StringBuilder sb = new StringBuilder(80);
        long n = b.size();
        for (long i = 0; i < n; i += 16) {
            sb.setLength(0);
            sb.append(".  ").append(String.format("%04x", i)).append(": ");
            StringBuilder text = new StringBuilder(16);
            for (int j = 0; j < 16; j++) {
                if (i + j < n) {
                    int c = b.u8(i + j);
                    sb.append(' ').append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
                    text.append(c >= 0x20 && c < 0x7f ? (char) c : '.');
                } else {
                    sb.append("   ");
                    text.append(' ');
                }
            }
            sb.append("  ").append(text).append('\n');
            out.print(sb);
        }
    }
}
