package dev.jperf.recorder;

import dev.jperf.format.writer.PerfDataOutput;
import dev.jperf.format.writer.PerfDataWriter;
import dev.jperf.format.writer.PerfPipeWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.channels.WritableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Where a recording goes: a perf.data file (the old one kept as perf.data.old) or perf's pipe mode on stdout. */
final class RecordOutput {
    private RecordOutput() {
    }

    static PerfDataOutput open(RecordOptions options, PerfEvents events) {
        return options.pipeOutput() ? pipe(events) : file(options.output(), events);
    }

    /** perf's pipe mode: the stream on stdout (the workload's stdout goes to stderr, see Workload). */
    private static PerfDataOutput pipe(PerfEvents events) {
        return pipe(new FileOutputStream(FileDescriptor.out).getChannel(), events);
    }

    /** perf's pipe mode into {@code out} (stdout, or a reader in this process). */
    static PerfDataOutput pipe(WritableByteChannel out, PerfEvents events) {
        try {
            return PerfPipeWriter.create(out, "-", events.fileAttrs());
        } catch (IOException e) {
            throw new RecordException("cannot write to standard output: " + reason(e), e);
        }
    }

    private static PerfDataWriter file(Path out, PerfEvents events) {
        try {
            PerfDataWriter.backupExisting(out);
            return PerfDataWriter.create(out, events.fileAttrs());
        } catch (IOException e) {
            String why = reason(e);
            String prefix = out + ": ";
            throw new RecordException("cannot write output file " + out + ": "
                    + (why.startsWith(prefix) ? why.substring(prefix.length()) : why), e);
        }
    }

    private static String reason(IOException e) {
        String m = e.getMessage();
        if (e instanceof AccessDeniedException) {
            return "Permission denied";
        }
        if (e instanceof NoSuchFileException) {
            return "No such file or directory";
        }
        if (e instanceof FileSystemException fse && fse.getReason() != null) {
            return fse.getReason();
        }
        return m == null ? e.getClass().getSimpleName() : m;
    }
}
