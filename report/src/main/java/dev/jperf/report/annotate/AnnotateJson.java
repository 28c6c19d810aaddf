package dev.jperf.report.annotate;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.jperf.format.PerfDataFile;
import dev.jperf.format.bpf.BpfSourceLine;
import dev.jperf.report.annotate.BpfAnnotation.EventHist;
import dev.jperf.report.annotate.BpfAnnotation.FunctionHist;
import dev.jperf.report.annotate.BpfAnnotation.ProgramHist;
import dev.jperf.report.annotate.BpfAnnotation.SourceLineCount;
import dev.jperf.report.annotate.BpfAnnotation.UnknownFunction;
import java.io.IOException;
import java.io.OutputStream;

/**
 * annotate --json: one document with, per event, each sampled program (its subprograms with
 * their samples per source line and per line record) and the BPF symbols without line info.
 */
final class AnnotateJson {
    private final OutputStream out;

    AnnotateJson(OutputStream out) {
        this.out = out;
    }

    void print(PerfDataFile file, BpfAnnotation a, Selection sel) throws IOException {
        try (JsonGenerator g = new JsonFactory().createGenerator(out)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            String missing = Annotate.missingLineInfo(file, a.table());
            g.writeBooleanField("line_info", missing == null);
            if (missing != null) {
                g.writeStringField("message", missing);
            }
            g.writeArrayFieldStart("events");
            for (EventHist e : a.events()) {
                g.writeStartObject();
                g.writeStringField("event", e.event().name());
                g.writeArrayFieldStart("programs");
                for (ProgramHist p : e.programs()) {
                    program(g, p, sel);
                }
                g.writeEndArray();
                g.writeArrayFieldStart("no_line_info");
                for (UnknownFunction u : e.unknownFunctions()) {
                    if (sel.ksym(u.ksym())) {
                        g.writeStartObject();
                        g.writeStringField("ksym", u.ksym());
                        g.writeNumberField("samples", u.samples());
                        g.writeNumberField("period", u.period());
                        g.writeEndObject();
                    }
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        out.write('\n');
    }

    private static void program(JsonGenerator g, ProgramHist p, Selection sel) throws IOException {
        boolean any = false;
        for (FunctionHist f : p.functions()) {
            any |= sel.function(f.function(), p.name());
        }
        if (!any) {
            return;
        }
        g.writeStartObject();
        g.writeNumberField("id", Integer.toUnsignedLong(p.prog().id()));
        g.writeStringField("name", p.name());
        g.writeStringField("tag", p.prog().tagHex());
        g.writeNumberField("samples", p.samples());
        g.writeNumberField("period", p.period());
        g.writeArrayFieldStart("functions");
        for (FunctionHist f : p.functions()) {
            function(g, f, p.samples(), sel.function(f.function(), p.name()));
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void function(JsonGenerator g, FunctionHist f, long progSamples, boolean detail) throws IOException {
        BpfFunction fn = f.function();
        g.writeStartObject();
        g.writeNumberField("index", fn.index());
        g.writeStringField("name", fn.funcName());
        g.writeStringField("ksym", fn.kernelName());
        g.writeStringField("perf_name", fn.perfName());
        g.writeStringField("addr", "0x" + Long.toHexString(fn.start()));
        g.writeNumberField("len", fn.len());
        g.writeNumberField("samples", f.samples());
        g.writeNumberField("period", f.period());
        g.writeNumberField("percent_of_program", progSamples == 0 ? 0 : 100.0 * f.samples() / progSamples);
        if (detail) {
            g.writeNumberField("samples_without_line", f.samplesWithoutLine());
            g.writeArrayFieldStart("source_lines");
            for (SourceLineCount c : f.bySourceLine()) {
                g.writeStartObject();
                g.writeStringField("file", c.file());
                g.writeNumberField("line", c.line());
                g.writeStringField("src", c.text());
                g.writeNumberField("samples", c.samples());
                g.writeNumberField("period", c.period());
                g.writeNumberField("percent", f.samples() == 0 ? 0 : 100.0 * c.samples() / f.samples());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("line_records");
            BpfSourceLine[] lines = fn.lines();
            for (int j = 0; j < lines.length; j++) {
                g.writeStartObject();
                g.writeStringField("jited_addr", "0x" + Long.toHexString(fn.lineAddrs()[j]));
                g.writeNumberField("insn_off", fn.prog().lineInfo().get(fn.lineIndex()[j]).insnOff());
                g.writeStringField("file", lines[j].file());
                g.writeNumberField("line", lines[j].line());
                g.writeNumberField("col", lines[j].column());
                g.writeStringField("src", lines[j].text());
                g.writeNumberField("samples", f.lineSamples(j));
                g.writeNumberField("period", f.linePeriod(j));
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }
}
