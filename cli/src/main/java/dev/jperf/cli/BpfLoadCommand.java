package dev.jperf.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import dev.jperf.loader.BpfMap;
import dev.jperf.loader.BpfObject;
import dev.jperf.loader.BpfObjectException;
import dev.jperf.loader.BpfProgram;
import dev.jperf.loader.LoadOptions;
import dev.jperf.loader.ProgInfo;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code jperf bpf load OBJ [-p PROG]... [--json]}: opens and loads a BPF object with jperf's own
 * loader (no attach), prints each program's id or why the kernel refused it, then unloads.
 */
final class BpfLoadCommand implements Subcommand {
    /** Verifier log lines printed for a refused program unless the whole log is asked for. */
    static final int LOG_TAIL = 8;

    private final List<String> only = new ArrayList<>();
    private boolean json;
    private boolean fullLog;
    private String object;

    @Override
    public String name() {
        return "bpf load";
    }

    @Override
    public String summary() {
        return "Load a BPF object's programs and maps as libbpf does, print what the kernel holds";
    }

    @Override
    public Options options() {
        return new Options("jperf bpf load OBJ [<options>]")
                .value('p', "program", "name", "load only this program (repeatable); every map is created")
                .flag('j', "json", "print one JSON object: programs (with xlated instructions) and maps")
                .flag('\0', "log", "print a refused program's whole verifier log, not its last lines");
    }

    @Override
    public void set(String name, OptionValue v) {
        switch (name) {
            case "program" -> only.add(v.text());
            case "json" -> json = v.on();
            case "log" -> fullLog = v.on();
            default -> throw new IllegalStateException("option not handled: " + name);
        }
    }

    @Override
    public void arguments(List<String> positional, List<String> all) {
        object = BpfObjectArgument.of(positional);
    }

    @Override
    public int call() throws BpfObjectException, IOException {
        PrintStream out = System.out;
        PrintStream err = System.err;
        try (BpfObject obj = BpfObject.open(Path.of(object))) {
            for (String p : only) {
                if (obj.program(p) == null) {
                    throw new BpfObjectException(object + ": no program '" + p + "'");
                }
            }
            if (!only.isEmpty()) {
                for (BpfProgram p : obj.programs()) {
                    p.setAutoload(only.contains(p.name()));
                }
            }
            obj.load(LoadOptions.DEFAULT);
            for (String w : obj.warnings()) {
                err.println("warning: " + w);
            }
            boolean allLoaded = true;
            for (BpfProgram p : obj.programs()) {
                if (p.autoload() && p.fd() < 0) {
                    allLoaded = false;
                    err.println("jperf bpf load: " + p.error());
                    printLog(p, err);
                }
            }
            if (json) {
                printJson(obj, out);
            } else {
                printText(obj, out);
            }
            out.flush();
            err.flush();
            return allLoaded ? 0 : 1;
        }
    }

    private void printLog(BpfProgram p, PrintStream err) {
        String log = p.verifierLog().strip();
        if (log.isEmpty()) {
            return;
        }
        String[] lines = log.split("\n");
        int from = fullLog ? 0 : Math.max(0, lines.length - LOG_TAIL);
        err.println("-- verifier log of '" + p.name() + "'" + (from > 0 ? " (last " + (lines.length - from)
                + " lines; --log prints all " + lines.length + ")" : "") + " --");
        for (int i = from; i < lines.length; i++) {
            err.println(lines[i]);
        }
        err.println("-- end of verifier log --");
    }

    private static void printText(BpfObject obj, PrintStream out) {
        for (BpfProgram p : obj.programs()) {
            if (!p.autoload()) {
                continue;
            }
            out.printf("%-32s %-40s %s%n", p.name(), p.sectionName(),
                    p.fd() >= 0 ? "id " + p.id() : "error: " + p.error());
        }
        for (BpfMap m : obj.maps()) {
            out.printf("map %-28s type %d key %d value %d max_entries %d flags 0x%x%n", m.name(), m.type(), m.keySize(),
                    m.valueSize(), m.maxEntries(), m.flags());
        }
    }

    private static void printJson(BpfObject obj, PrintStream out) throws IOException {
        JsonGenerator g = new JsonFactory().createGenerator(out);
        g.writeStartObject();
        g.writeArrayFieldStart("programs");
        for (BpfProgram p : obj.programs()) {
            if (!p.autoload()) {
                continue;
            }
            g.writeStartObject();
            g.writeStringField("name", p.name());
            g.writeStringField("section", p.sectionName());
            boolean loaded = p.fd() >= 0;
            g.writeBooleanField("loaded", loaded);
            if (loaded) {
                ProgInfo info = ProgInfo.of(p);
                g.writeNumberField("id", info.id());
                g.writeArrayFieldStart("xlated");
                ByteBuffer b = ByteBuffer.wrap(info.xlated()).order(ByteOrder.LITTLE_ENDIAN);
                while (b.remaining() >= 8) {
                    int code = b.get() & 0xff;
                    int regs = b.get() & 0xff;
                    int off = b.getShort();
                    int imm = b.getInt();
                    g.writeStartObject();
                    g.writeNumberField("code", code);
                    g.writeNumberField("dst", regs & 0x0f);
                    g.writeNumberField("src", regs >> 4);
                    g.writeNumberField("off", off);
                    g.writeNumberField("imm", imm);
                    g.writeEndObject();
                }
                g.writeEndArray();
            } else {
                g.writeStringField("error", p.error() == null ? "not loaded" : p.error());
            }
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("maps");
        for (BpfMap m : obj.maps()) {
            g.writeStartObject();
            g.writeStringField("name", m.name());
            g.writeNumberField("type", m.type());
            g.writeNumberField("key_size", m.keySize());
            g.writeNumberField("value_size", m.valueSize());
            g.writeNumberField("max_entries", Integer.toUnsignedLong(m.maxEntries()));
            g.writeNumberField("flags", Integer.toUnsignedLong(m.flags()));
            g.writeNumberField("btf_key_type_id", m.btfKeyTypeId());
            g.writeNumberField("btf_value_type_id", m.btfValueTypeId());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
        g.flush();
        out.println();
    }
}
