package dev.jperf.bpf;

import dev.jperf.format.json.JsonWriter;
import dev.jperf.loader.BpfMap;
import dev.jperf.loader.BpfObject;
import dev.jperf.loader.BpfProgram;
import dev.jperf.format.bpf.BpfProgInfo;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * What {@code jperf bpf load} prints of an object it loaded: per program (autoload ones) its id or
 * why the kernel refused it, per map its definition as created; as text, or as one JSON object
 * with each loaded program's xlated instructions decoded into their fields.
 */
public final class LoadedObject {
    private LoadedObject() {
    }

    public static void printText(BpfObject obj, PrintStream out) {
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

    /** {"programs": [...], "maps": [...]} on one line, standard JSON escapes. */
    public static void printJson(BpfObject obj, PrintStream out) {
        JsonWriter w = new JsonWriter(new StringBuilder()).standard(true);
        w.startObject();
        w.name("programs");
        w.startArray();
        for (BpfProgram p : obj.programs()) {
            if (!p.autoload()) {
                continue;
            }
            w.startObject();
            w.stringField("name", p.name());
            w.stringField("section", p.sectionName());
            boolean loaded = p.fd() >= 0;
            w.boolField("loaded", loaded);
            if (loaded) {
                BpfProgInfo info = p.info();
                w.intField("id", info.id());
                w.name("xlated");
                w.startArray();
                ByteBuffer b = ByteBuffer.wrap(info.xlatedProgInsns()).order(ByteOrder.LITTLE_ENDIAN);
                while (b.remaining() >= 8) {
                    int code = b.get() & 0xff;
                    int regs = b.get() & 0xff;
                    int off = b.getShort();
                    int imm = b.getInt();
                    w.startObject();
                    w.intField("code", code);
                    w.intField("dst", regs & 0x0f);
                    w.intField("src", regs >> 4);
                    w.intField("off", off);
                    w.intField("imm", imm);
                    w.endObject();
                }
                w.endArray();
            } else {
                w.stringField("error", p.error() == null ? "not loaded" : p.error());
            }
            w.endObject();
        }
        w.endArray();
        w.name("maps");
        w.startArray();
        for (BpfMap m : obj.maps()) {
            w.startObject();
            w.stringField("name", m.name());
            w.intField("type", m.type());
            w.intField("key_size", m.keySize());
            w.intField("value_size", m.valueSize());
            w.uintField("max_entries", Integer.toUnsignedLong(m.maxEntries()));
            w.uintField("flags", Integer.toUnsignedLong(m.flags()));
            w.intField("btf_key_type_id", m.btfKeyTypeId());
            w.intField("btf_value_type_id", m.btfValueTypeId());
            w.endObject();
        }
        w.endArray();
        w.endObject();
        out.println(w.out());
    }
}
