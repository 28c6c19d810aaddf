package dev.jperf.bpf;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code bpftool batch file} (main.c's do_batch and make_args of bpftool 7.1) read a command at
 * a time: {@code #} starts a comment (anywhere, quotes too), a line ending in {@code \} goes on
 * with the next, words are split on blanks, a word opening with {@code '} or {@code "} runs to
 * the next such quote. Errors are bpftool's, numbered by the commands run before them.
 */
public final class BatchFile {
    /** BATCH_ARG_NB_MAX. */
    private static final int MAX_ARGS = 4096;
    /** BATCH_LINE_LEN_MAX: fgets' buffer, a line and its continuations together. */
    private static final int MAX_LINE = 65536;

    private final BufferedReader in;

    public BatchFile(BufferedReader in) {
        this.in = in;
    }

    /**
     * The next command's words, null at the end; {@code done} is how many commands ran before
     * it (bpftool's count in its messages). A line of nothing but blanks and comments is skipped.
     */
    public List<String> next(int done) throws IOException {
        while (true) {
            String line = readLine();
            if (line == null) {
                return null;
            }
            StringBuilder buf = new StringBuilder(comment(line));
            while (buf.length() >= 2 && buf.substring(buf.length() - 2).equals("\\\n")) {
                String cont = readLine();
                if (cont == null || cont.isEmpty()) {
                    throw new BpftoolException("missing continuation line on command " + done);
                }
                cont = comment(cont);
                if (buf.length() + cont.length() + 1 > MAX_LINE) {
                    throw new BpftoolException("command " + done + " is too long");
                }
                buf.setLength(buf.length() - 2);
                buf.append(cont);
            }
            List<String> words = words(buf.toString(), done);
            if (!words.isEmpty()) {
                return words;
            }
        }
    }

    /** do_batch's frame, with {@code -j}: the array of commands opened. */
    public static void begin(Output o) {
        if (o.json()) {
            o.jw().startArray();
        }
    }

    /** With {@code -j}: a command's object opened, its words, then its output's name. */
    public static void command(Output o, List<String> words) {
        if (o.json()) {
            o.jw().startObject();
            o.jw().name("command");
            o.jw().startArray();
            for (String w : words) {
                o.jw().string(w);
            }
            o.jw().endArray();
            o.jw().name("output");
        }
    }

    /** With {@code -j}: the command's object closed. */
    public static void commandEnd(Output o) {
        if (o.json()) {
            o.jw().endObject();
        }
    }

    /** The end: the array closed ({@code -j}), else when all ran, {@code processed N commands}. */
    public static void end(Output o, int done, boolean allRan) {
        if (o.json()) {
            o.jw().endArray();
        } else if (allRan) {
            o.out().append("processed ").append(done).append(" commands\n");
        }
    }

    /** fgets: a line with its newline (none on a last line without one); null at the end. */
    private String readLine() throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0) {
            b.append((char) c);
            if (c == '\n') {
                break;
            }
        }
        return b.length() == 0 ? null : b.toString();
    }

    /** The line up to its first {@code #}. */
    private static String comment(String line) {
        int at = line.indexOf('#');
        return at < 0 ? line : line.substring(0, at);
    }

    /** make_args. */
    private static List<String> words(String line, int done) {
        List<String> words = new ArrayList<>();
        int i = 0;
        int n = line.length();
        while (i < n) {
            while (i < n && " \t\r\n".indexOf(line.charAt(i)) >= 0) {
                i++;
            }
            if (i >= n) {
                break;
            }
            if (words.size() >= MAX_ARGS - 1) {
                throw new BpftoolException("too many arguments to command " + done);
            }
            char c = line.charAt(i);
            if (c == '\'' || c == '"') {
                int end = line.indexOf(c, i + 1);
                if (end < 0) {
                    throw new BpftoolException("unterminated quoted string in command " + done);
                }
                words.add(line.substring(i + 1, end));
                i = end + 1;
            } else {
                int end = i;
                while (end < n && " \t\r\n".indexOf(line.charAt(end)) < 0) {
                    end++;
                }
                words.add(line.substring(i, end));
                i = end + 1;
            }
        }
        return words;
    }
}
