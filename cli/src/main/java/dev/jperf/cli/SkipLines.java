package dev.jperf.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/** Drops the first lines written through it: the report's "use --header" hint under --header, as perf. */
final class SkipLines extends FilterOutputStream {
    private int toSkip;

    SkipLines(OutputStream out, int lines) {
        super(out);
        this.toSkip = lines;
    }

    @Override
    public void write(int b) throws IOException {
        if (toSkip > 0) {
            if (b == '\n') {
                toSkip--;
            }
            return;
        }
        out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        while (toSkip > 0 && len > 0) {
            write(b[off++]);
            len--;
        }
        if (len > 0) {
            out.write(b, off, len);
        }
    }
}
