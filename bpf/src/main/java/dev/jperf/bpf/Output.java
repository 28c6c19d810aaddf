package dev.jperf.bpf;

import dev.jperf.format.json.JsonWriter;

/**
 * Where a bpftool-style command writes: its text, and in JSON mode bpftool's json_wtr over the
 * same text (compact, or pretty with {@code -p}). {@link #finish} ends it as bpftool's exit does.
 */
public final class Output {
    private final StringBuilder out = new StringBuilder();
    private final boolean json;
    private final JsonWriter jw;

    public Output(boolean json, boolean pretty) {
        this.json = json;
        this.jw = new JsonWriter(out).pretty(pretty);
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

    /** p_err in the middle of the output: in JSON mode the error object goes where bpftool puts it. */
    BpftoolException inline(BpftoolException e) {
        if (e.onStdout() || !json) {
            return e;
        }
        error(e.getMessage());
        return new BpftoolException(e.getMessage(), true);
    }

    /** p_err's JSON object. */
    public void error(String message) {
        jw.startObject();
        jw.name("error");
        jw.string(message);
        jw.endObject();
    }

    /** The text so far, and in JSON mode the newline bpftool's writer ends with. */
    public String finish() {
        if (json) {
            jw.finish();
        }
        return out.toString();
    }
}
