package dev.jperf.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.aggregate.SortKey;
import dev.jperf.report.session.SampleFilter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Report.Options: perf report's defaults, the builder, and options built once never changing. */
class ReportOptionsTest {
    private static final Path DATA = Path.of("perf.data");

    @Test
    void defaultsArePerfReportWithoutOptions() {
        Report.Options o = Report.Options.defaults(DATA);
        assertEquals(DATA, o.input());
        assertEquals(SortKey.parse("comm,dso,sym"), o.sort());
        assertTrue(o.children());
        assertSame(CallchainParams.DEFAULT, o.callGraph());
        assertEquals(0, o.percentLimit());
        assertFalse(o.relative());
        assertSame(SampleFilter.NONE, o.filter());
        assertNull(o.kallsyms());
        assertNull(o.symfs());
        assertNull(o.buildIdDir());
        assertFalse(o.json());
        assertTrue(o.demangle());
        assertFalse(o.showSamples());
        assertFalse(o.callchainsAsked());
        assertNull(o.group());
        assertNull(o.branchStack());
        // no --sort: branch mode has perf's own default order
        assertEquals(SortKey.parse("comm,dso_from,symbol_from,symbol_to,cycles"), o.sort(true));
    }

    @Test
    void everyOptionIsSetByItsName() {
        SampleFilter f = SampleFilter.tasks(Set.of("sh"), null, null);
        Report.Options o = Report.Options.builder(DATA).sort(SortKey.parse("sym")).branchStack(false).children(false)
                .callGraph(CallchainParams.NO_GRAPH).percent(2.5, true).filter(f).symbols(Path.of("k"), Path.of("s"))
                .buildIdDir(Path.of("b")).json(true).demangle(false).showSamples(true).callchainsAsked(true).group(true)
                .build();
        assertEquals(List.of(SortKey.SYM), o.sort());
        assertEquals(Boolean.FALSE, o.branchStack());
        assertFalse(o.children());
        assertSame(CallchainParams.NO_GRAPH, o.callGraph());
        assertEquals(2.5, o.percentLimit());
        assertTrue(o.relative());
        assertSame(f, o.filter());
        assertEquals(Path.of("k"), o.kallsyms());
        assertEquals(Path.of("s"), o.symfs());
        assertEquals(Path.of("b"), o.buildIdDir());
        assertTrue(o.json());
        assertFalse(o.demangle());
        assertTrue(o.showSamples());
        assertTrue(o.callchainsAsked());
        assertEquals(Boolean.TRUE, o.group());
        // a --sort naming a symbol gets perf's ipc_lbr in branch mode
        assertEquals(List.of(SortKey.SYMBOL_FROM, SortKey.IPC_LBR),
                Report.Options.builder(DATA).sort(List.of(SortKey.SYMBOL_FROM)).build().sort(true));
    }

    @Test
    void toBuilderCopiesAndBuiltOptionsNeverChange() {
        Report.Options.Builder b = Report.Options.builder(DATA).sort(SortKey.parse("dso")).json(true).percent(1, true);
        Report.Options first = b.build();
        b.json(false).children(false);
        assertTrue(first.json());
        assertTrue(first.children());
        Report.Options copy = first.toBuilder().showSamples(true).build();
        assertEquals(first.sort(), copy.sort());
        assertEquals(first.sort(true), copy.sort(true)); // --sort given survives the copy
        assertTrue(copy.json());
        assertEquals(1, copy.percentLimit());
        assertTrue(copy.relative());
        assertTrue(copy.showSamples());
        assertFalse(first.showSamples());
    }

    @Test
    void sortKeysGivenAreCopied() {
        List<SortKey> keys = new ArrayList<>(SortKey.parse("dso"));
        Report.Options o = Report.Options.builder(DATA).sort(keys).build();
        keys.add(SortKey.SYMBOL_FROM);
        assertEquals(SortKey.parse("dso"), o.sort());
    }
}
