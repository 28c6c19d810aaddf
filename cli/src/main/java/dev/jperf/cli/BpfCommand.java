package dev.jperf.cli;

import dev.jperf.bpf.BpftoolException;
import dev.jperf.bpf.MapCommands;
import dev.jperf.bpf.Output;
import dev.jperf.bpf.ProgCommands;
import dev.jperf.bpf.XlatedDump;
import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import dev.jperf.cli.options.UsageException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code jperf bpf prog|map ...}: the kernel's BPF programs and maps as bpftool shows them
 * ({@code bpftool [-j] prog list}, {@code map dump id 7}, ...): the same lines, and with
 * {@code --json} the same JSON.
 */
final class BpfCommand implements Subcommand {
    private boolean json;
    private boolean pretty;
    private List<String> words = List.of();

    @Override
    public String name() {
        return "bpf";
    }

    @Override
    public String summary() {
        return "List, show and dump the kernel's BPF programs and maps, as bpftool does";
    }

    @Override
    public Options options() {
        return new Options("jperf bpf prog { list | show [id] ID | dump xlated [id] ID [opcodes] [linum] } [<options>]",
                "jperf bpf map { list | show [id] ID | dump [id] ID } [<options>]")
                .flag('j', "json", "print bpftool's JSON (bpftool -j)")
                .flag('p', "pretty", "print bpftool's JSON, indented (bpftool -p)");
    }

    @Override
    public void set(String name, OptionValue v) {
        switch (name) {
            case "json" -> json = v.on();
            case "pretty" -> {
                pretty = v.on();
                json |= pretty;
            }
            default -> throw new IllegalStateException("option not handled: " + name);
        }
    }

    @Override
    public void arguments(List<String> positional, List<String> all) {
        if (positional.isEmpty()) {
            throw new UsageException("expected 'prog' or 'map'");
        }
        words = List.copyOf(positional);
    }

    @Override
    public int call() {
        Output output = new Output(json, pretty);
        PrintStream out = System.out;
        try {
            run(output);
        } catch (BpftoolException e) {
            if (json && !e.onStdout()) {
                output.error(e.getMessage());
            }
            out.print(output.finish());
            out.flush();
            throw e;
        }
        out.print(output.finish());
        out.flush();
        return 0;
    }

    private void run(Output output) {
        String object = words.get(0);
        String verb = words.size() > 1 ? words.get(1) : "show";
        List<String> rest = words.subList(Math.min(2, words.size()), words.size());
        switch (object) {
            case "prog" -> {
                ProgCommands c = new ProgCommands(output);
                switch (verb) {
                    case "list", "show" -> {
                        if (rest.isEmpty()) {
                            c.list();
                        } else {
                            c.show(id(rest));
                        }
                    }
                    case "dump" -> {
                        if (rest.isEmpty() || !rest.get(0).equals("xlated")) {
                            throw new UsageException("expected 'xlated', got: " + (rest.isEmpty() ? "nothing" : rest.get(0))
                                    + (rest.isEmpty() || !rest.get(0).equals("jited") ? ""
                                    : " (jperf has no disassembler for JITed code)"));
                        }
                        List<String> args = new ArrayList<>(rest.subList(1, rest.size()));
                        boolean opcodes = args.remove("opcodes");
                        boolean linum = args.remove("linum");
                        new XlatedDump(output).dump(id(args), opcodes, linum);
                    }
                    default -> throw new UsageException("unknown 'prog' command '" + verb + "': list, show or dump");
                }
            }
            case "map" -> {
                MapCommands c = new MapCommands(output);
                switch (verb) {
                    case "list", "show" -> {
                        if (rest.isEmpty()) {
                            c.list();
                        } else {
                            c.show(id(rest));
                        }
                    }
                    case "dump" -> c.dump(id(rest));
                    default -> throw new UsageException("unknown 'map' command '" + verb + "': list, show or dump");
                }
            }
            default -> throw new UsageException("expected 'prog' or 'map', got '" + object + "'");
        }
    }

    /** {@code ID} or bpftool's {@code id ID}; parsed as strtoul(s, 0) does (0x.. hex, 0.. octal). */
    private static int id(List<String> rest) {
        List<String> r = !rest.isEmpty() && rest.get(0).equals("id") ? rest.subList(1, rest.size()) : rest;
        if (r.size() != 1) {
            throw new UsageException(r.isEmpty() ? "expected an id" : "unexpected argument '" + r.get(1) + "'");
        }
        String s = r.get(0);
        try {
            long v;
            if (s.startsWith("0x") || s.startsWith("0X")) {
                v = Long.parseLong(s.substring(2), 16);
            } else if (s.length() > 1 && s.startsWith("0")) {
                v = Long.parseLong(s.substring(1), 8);
            } else {
                v = Long.parseLong(s);
            }
            if (v < 0 || v > 0xffffffffL) {
                throw new NumberFormatException();
            }
            return (int) v;
        } catch (NumberFormatException e) {
            throw new BpftoolException("can't parse " + s + " as ID");
        }
    }
}
