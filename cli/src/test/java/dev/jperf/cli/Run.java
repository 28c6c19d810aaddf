package dev.jperf.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Runs {@code jperf ARGS} in-process and captures its stdout, stderr and exit code. */
record Run(int rc, String out, String err) {

    static Run of(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            rc = Main.run(args);
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        return new Run(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** {@code jperf ARGS < FILE}. */
    static Run withStdin(Path file, String... args) throws IOException {
        InputStream oldIn = System.in;
        try (InputStream in = Files.newInputStream(file)) {
            System.setIn(in);
            return of(args);
        } finally {
            System.setIn(oldIn);
        }
    }
}
