package dev.jperf.cli.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** perf's parse-options rules, one by one. */
class OptionsTest implements OptionSink {
    private boolean all;
    private boolean graph;
    private boolean children = true;
    private String input;
    private String sort;
    private long freq;
    private double limit;
    private String callGraph;
    private String level;
    private final List<String> events = new ArrayList<>();
    private final ByteArrayOutputStream help = new ByteArrayOutputStream();

    private Options table() {
        return new Options("test [<options>]")
                .flag('a', "all-cpus", "system-wide")
                .flag('g', null, "call graphs")
                .flag('\0', "children", "children")
                .value('i', "input", "file", "input")
                .value('s', "sort", "key", "sort")
                .value('e', "event", "event", "event")
                .value('F', "freq", "freq", "frequency")
                .value('\0', "percent-limit", "percent", "limit")
                .valueOrDefault('G', "call-graph", "mode", "call graph", "graph")
                .attachedValueOrDefault('z', "compression-level", "n", "level", "1");
    }

    @Override
    public void set(String name, OptionValue v) {
        switch (name) {
            case "all-cpus" -> all = v.on();
            case "g" -> graph = v.on();
            case "children" -> children = v.on();
            case "input" -> input = v.text();
            case "sort" -> sort = v.text();
            case "event" -> events.add(v.text());
            case "freq" -> freq = v.integer();
            case "percent-limit" -> limit = v.decimal();
            case "call-graph" -> callGraph = v.text();
            case "compression-level" -> level = v.text();
            default -> throw new AssertionError(name);
        }
    }

    private List<String> parse(String... args) {
        return table().parse(List.of(args), this, new PrintStream(help, true, StandardCharsets.UTF_8));
    }

    private Options recordTable() {
        return table().stopAtNonOption();
    }

    @Test
    void valuesAttachedOrSeparate() {
        assertEquals(List.of(), parse("-i", "a.data", "--sort=sym", "-F20000"));
        assertEquals("a.data", input);
        assertEquals("sym", sort);
        assertEquals(20000, freq);
        parse("-ib.data", "--sort", "comm", "--freq=0x10", "--percent-limit", "0.5");
        assertEquals("b.data", input);
        assertEquals("comm", sort);
        assertEquals(16, freq);
        assertEquals(0.5, limit);
    }

    @Test
    void groupedSwitchesAndAValueAtTheEndOfTheGroup() {
        parse("-agi", "c.data");
        assertTrue(all);
        assertTrue(graph);
        assertEquals("c.data", input);
    }

    @Test
    void laterOccurrenceReplacesUnlessTheOptionCollects() {
        parse("--sort", "sym", "--sort", "comm", "-e", "cpu-clock", "-e", "task-clock");
        assertEquals("comm", sort);
        assertEquals(List.of("cpu-clock", "task-clock"), events);
    }

    @Test
    void negatedSwitchAndUniquePrefixes() {
        parse("--no-children");
        assertEquals(false, children);
        parse("--child");
        assertEquals(true, children);
        parse("--no-chi", "--inp", "d.data", "--all");
        assertEquals(false, children);
        assertEquals("d.data", input);
        assertTrue(all);
        UsageException e = assertThrows(UsageException.class, () -> parse("--c"));
        assertEquals("ambiguous option '--c' (could be --children or --call-graph)", e.getMessage());
    }

    @Test
    void lastArgDefaultTakesTheNextArgumentUnlessItIsAnOption() {
        parse("-G", "none");
        assertEquals("none", callGraph);
        parse("-G", "--sort", "sym");
        assertEquals("graph", callGraph);
        parse("--call-graph");
        assertEquals("graph", callGraph);
        parse("--call-graph=flat", "x");
        assertEquals("flat", callGraph);
    }

    @Test
    void optionalArgumentOnlyWhenAttached() {
        assertEquals(List.of("5"), parse("-z", "5"));
        assertEquals("1", level);
        parse("-z9");
        assertEquals("9", level);
        parse("--compression-level=3");
        assertEquals("3", level);
    }

    @Test
    void nonOptionsAndTheDoubleDash() {
        assertEquals(List.of("x", "y", "-a"), parse("x", "-a", "y", "--", "-a"));
        List<String> rest = recordTable().parse(List.of("-a", "sleep", "-g", "1"), this, System.out);
        assertEquals(List.of("sleep", "-g", "1"), rest);
        assertEquals(false, graph); // the command's own -g
        assertEquals(List.of("-"), parse("-i", "-", "-"));
    }

    @Test
    void errorsNameTheOption() {
        assertEquals("unknown option '--bogus'", assertThrows(UsageException.class, () -> parse("--bogus")).getMessage());
        assertEquals("unknown switch 'x'", assertThrows(UsageException.class, () -> parse("-ax")).getMessage());
        assertEquals("option '--input' requires a value",
                assertThrows(UsageException.class, () -> parse("-i")).getMessage());
        assertEquals("option '--freq' expects a numerical value, not 'fast'",
                assertThrows(UsageException.class, () -> parse("-F", "fast")).getMessage());
        assertEquals("option '--percent-limit' expects a numerical value, not '1%'",
                assertThrows(UsageException.class, () -> parse("--percent-limit=1%")).getMessage());
        assertEquals("option '--all-cpus' takes no value",
                assertThrows(UsageException.class, () -> parse("--all-cpus=1")).getMessage());
        assertEquals("option '--no-children' takes no value",
                assertThrows(UsageException.class, () -> parse("--no-children=1")).getMessage());
    }

    @Test
    void helpIsPerfsLayoutInPerfsOrder() {
        assertNull(parse("-a", "--help", "--bogus"));
        assertEquals(String.join("\n", "",
                " Usage: test [<options>]",
                "",
                "    -a, --all-cpus        system-wide",
                "    -e, --event <event>   event",
                "    -F, --freq <freq>     frequency",
                "    -g                    call graphs",
                "    -G, --call-graph <mode>",
                "                          call graph",
                "    -i, --input <file>    input",
                "    -s, --sort <key>      sort",
                "    -z, --compression-level[=<n>]",
                "                          level",
                "        --children        children",
                "        --percent-limit <percent>",
                "                          limit",
                "", ""), help.toString(StandardCharsets.UTF_8));
    }
}
