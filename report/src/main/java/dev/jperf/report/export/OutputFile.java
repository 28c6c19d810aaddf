package dev.jperf.report.export;

import dev.jperf.format.writer.ReplacingFile;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Where an export goes: standard output for {@code -}, else a file, opened before the input is
 * read so that an unwritable one costs nothing and is said in one line, and put in place of the
 * previous one only by {@link #commit} ({@link ReplacingFile}): an export that fails leaves the
 * previous file as it was.
 */
final class OutputFile implements Closeable {
    static final String STDOUT = "-";

    private final OutputStream out;
    /** Null for standard output. */
    private final ReplacingFile file;

    private OutputFile(OutputStream out, ReplacingFile file) {
        this.out = out;
        this.file = file;
    }

    /** {@code name} opened for writing (buffered); {@code -} is {@code stdout}, which is flushed, never closed. */
    static OutputFile open(String name, OutputStream stdout) {
        if (STDOUT.equals(name)) {
            return new OutputFile(new BufferedOutputStream(stdout, 1 << 16), null);
        }
        Path p = Path.of(name);
        try {
            ReplacingFile f = ReplacingFile.create(p);
            return new OutputFile(f.stream(), f);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot write " + p + ": " + reason(e));
        }
    }

    OutputStream stream() {
        return out;
    }

    /** The export is complete: flushed, and the file put in place. */
    void commit() throws IOException {
        if (file == null) {
            out.flush();
        } else {
            file.commit();
        }
    }

    /** Standard output is flushed; a file not committed is dropped. */
    @Override
    public void close() throws IOException {
        if (file == null) {
            out.flush();
        } else {
            file.close();
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
