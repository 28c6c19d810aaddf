package dev.jperf.bpf;

import dev.jperf.format.json.JsonWriter;
import dev.jperf.nativeshim.Fd;
import java.io.PrintStream;

/**
 * Where a bpftool-style command writes: its text, and in JSON mode bpftool's json_wtr over the
 * same text (compact, or pretty with {@code -p}). {@link #finish} ends it as bpftool's exit does.
 * With a sink, the text goes out in pieces as it grows (a dump of a large map is not held whole).
 */
public final class Output {
    /** Text held before it goes to the sink. */
    private static final int FLUSH_AT = 64 * 1024;

    private final StringBuilder out = new StringBuilder();
    private final boolean json;
    private final JsonWriter jw;
    private final PrintStream sink;
    private boolean errorWritten;
    private int exitCode;

    /** Text kept until {@link #finish}. */
    public Output(boolean json, boolean pretty) {
        this(json, pretty, null);
    }

    /** Text written to {@code sink} as it grows; {@link #finish} returns the rest. */
    public Output(boolean json, boolean pretty, PrintStream sink) {
        this.json = json;
        this.jw = new JsonWriter(out).pretty(pretty);
        this.sink = sink;
    }

    /** Called between elements: hands the text so far to the sink once there is enough of it. */
    void flushSome() {
        if (sink != null && out.length() >= FLUSH_AT) {
            sink.print(out);
            out.setLength(0);
        }
    }

    /** Hands all the text so far to the sink: a command that streams (tracelog, event_pipe) does so per line. */
    void flush() {
        if (sink != null) {
            sink.print(out);
            sink.flush();
            out.setLength(0);
        }
    }

    public boolean json() {
        return json;
    }

    JsonWriter jw() {
        return jw;
    }

    StringBuilder out() {
        return out;
    }

    /** Shows one object: its index among those shown, and its fd. */
    interface Shown {
        void show(int index, int fd);
    }

    /**
     * do_show_subset's frame: each of {@code fds} shown in turn, in a JSON array when there are
     * several, a failure inline; none is {@code none}, said on stderr only (bpftool prints
     * nothing). The fds are closed after.
     */
    void each(int[] fds, String none, Shown shown) {
        boolean array = json && fds.length > 1;
        try {
            if (fds.length == 0) {
                throw new BpftoolException(none, true);
            }
            if (array) {
                jw.startArray();
            }
            for (int i = 0; i < fds.length; i++) {
                shown.show(i, fds[i]);
            }
        } catch (BpftoolException e) {
            throw array ? inline(e) : e;
        } finally {
            if (array) {
                jw.endArray();
            }
            for (int fd : fds) {
                Fd.close(fd);
            }
        }
    }

    /**
     * do_show's frame for a whole list: each object of {@code walk} shown and handed to the sink as
     * it comes, in a JSON array; a failure inline, after what was shown.
     */
    void all(IdWalk walk, Shown shown) {
        if (json) {
            jw.startArray();
        }
        try {
            int i = 0;
            for (int fd = walk.next(); fd >= 0; fd = walk.next()) {
                try {
                    shown.show(i++, fd);
                    flushSome();
                } finally {
                    Fd.close(fd);
                }
            }
        } catch (BpftoolException e) {
            throw inline(e);
        } finally {
            if (json) {
                jw.endArray();
            }
        }
    }

    /** p_err in the middle of the output: in JSON mode the error object goes where bpftool puts it. */
    BpftoolException inline(BpftoolException e) {
        if (e.onStdout() || !json) {
            return e;
        }
        error(e.getMessage());
        return new BpftoolException(e.getMessage(), true);
    }

    /**
     * What bpftool exits with when nothing failed but the answer was "none": a lookup that finds
     * no element, a pop of an empty map (the command returns -ENOENT, 254).
     */
    void exitCode(int code) {
        exitCode = code;
    }

    /** The exit code of a command that did not throw: 0 unless {@link #exitCode(int)} said otherwise. */
    public int exitCode() {
        return exitCode;
    }

    /** True once p_err's JSON object is on stdout: bpftool says nothing on stderr then. */
    public boolean errorWritten() {
        return errorWritten;
    }

    /** jsonw_null: what bpftool's JSON says for "done" and for its help. */
    public void nul() {
        jw.nul();
    }

    /** p_err's JSON object: the message between quotes unescaped, as jsonw_vprintf_enquote writes it. */
    public void error(String message) {
        errorWritten = true;
        jw.startObject();
        jw.name("error");
        jw.raw("\"" + message + "\"");
        jw.endObject();
    }

    /** The text not yet handed to the sink, and in JSON mode the newline bpftool's writer ends with. */
    public String finish() {
        if (json) {
            jw.finish();
        }
        return out.toString();
    }
}
