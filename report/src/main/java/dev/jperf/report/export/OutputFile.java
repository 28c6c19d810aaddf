package dev.jperf.report.export;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Where an export goes: a file, opened before the input is read so that an unwritable one costs
 * nothing and is said in one line, or standard output for {@code -}.
 */
final class OutputFile {
    static final String STDOUT = "-";

    private OutputFile() {
    }

    /** {@code name} opened for writing (buffered); {@code -} is {@code stdout}, which closing only flushes. */
    static OutputStream open(String name, OutputStream stdout) {
        if (STDOUT.equals(name)) {
            return new FilterOutputStream(new BufferedOutputStream(stdout, 1 << 16)) {
                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    out.write(b, off, len);
                }

                @Override
                public void close() throws IOException {
                    flush();
                }
            };
        }
        Path p = Path.of(name);
        try {
            return new BufferedOutputStream(Files.newOutputStream(p), 1 << 16);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot write " + p + ": " + reason(e));
        }
    }

    /** The one line an I/O failure is told in. */
    static String reason(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NoSuchFileException) {
            return "no such directory";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return String.valueOf(e.getMessage());
    }

    /** An I/O failure while writing {@code name}, as one line. */
    static UncheckedIOException failed(String name, IOException e) {
        // the cause carries the line: an UncheckedIOException is told by its cause's message
        IOException line = new IOException("cannot write " + name + ": " + reason(e), e);
        return new UncheckedIOException(line.getMessage(), line);
    }
}
