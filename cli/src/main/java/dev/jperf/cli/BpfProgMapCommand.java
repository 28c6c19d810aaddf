package dev.jperf.cli;

import dev.jperf.bpf.BpfHandle;
import dev.jperf.bpf.BpftoolException;
import dev.jperf.bpf.EventPipe;
import dev.jperf.bpf.FeatureProbe;
import dev.jperf.bpf.LinkCommands;
import dev.jperf.bpf.MapCommands;
import dev.jperf.bpf.MapElemCommands;
import dev.jperf.bpf.Output;
import dev.jperf.bpf.PinCommands;
import dev.jperf.bpf.ProgCommands;
import dev.jperf.bpf.JitedDump;
import dev.jperf.bpf.ProgLoadCommands;
import dev.jperf.bpf.ProgRunCommands;
import dev.jperf.bpf.Tracelog;
import dev.jperf.bpf.XlatedDump;
import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import dev.jperf.cli.options.UsageException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import dev.jperf.recorder.StopSignals;
import sun.misc.SignalHandler;

/**
 * {@code jperf bpf prog|map|link ...}: the kernel's BPF programs, maps and links as bpftool
 * shows and handles them ({@code bpftool [-j] prog list}, {@code map dump id 7}, {@code map
 * create}, {@code prog loadall}, {@code link pin}, ...): the same lines, with {@code --json} the
 * same JSON, a failure as bpftool's {@code Error: ...} line (its JSON object with {@code -j})
 * and exit code.
 */
final class BpfProgMapCommand implements Subcommand {
    /** "prog", "map" or "link". */
    private final String object;
    private final BpftoolFlags flags = new BpftoolFlags();
    private List<String> words = List.of();

    BpfProgMapCommand(String object) {
        this.object = object;
    }

    @Override
    public String name() {
        return "bpf " + object;
    }

    @Override
    public String summary() {
        return object.equals("feature") ? "Probe the kernel's BPF features (program and map types, helpers), as bpftool does"
                : object.equals("link") ? "List, show, pin and detach the kernel's BPF links, as bpftool does"
                : object.equals("prog") ? "List, show, dump, pin, attach and test-run the kernel's BPF programs, load objects and pin them, read the trace pipe, as bpftool does"
                : "List, show, dump, create, pin and update the kernel's BPF maps, read perf event arrays, as bpftool does";
    }

    @Override
    public Options options() {
        Options options = new Options(object.equals("prog")
                ? new String[] {"jperf bpf prog { list | show PROG | dump xlated PROG [opcodes] [linum] | pin PROG FILE } [<options>]",
                    "jperf bpf prog { load | loadall } OBJ PATH [map { idx IDX | name NAME } MAP]... [pinmaps MAP_DIR] [<options>]",
                    "jperf bpf prog { attach | detach } PROG ATTACH_TYPE [MAP] [<options>]",
                    "jperf bpf prog run PROG data_in FILE [data_out FILE [data_size_out L]] [ctx_in FILE [ctx_out FILE [ctx_size_out M]]] [repeat N] [<options>]",
                    "jperf bpf prog profile PROG [duration DURATION] METRICs",
                    "jperf bpf prog tracelog [<options>]",
                    "ATTACH_TYPE := { sk_msg_verdict | sk_skb_verdict | sk_skb_stream_verdict | sk_skb_stream_parser | flow_dissector }",
                    "PROG := { [id] ID | name NAME | tag TAG | pinned PATH }",
                    "MAP := { id ID | name NAME | pinned PATH }"}
                : object.equals("feature")
                ? new String[] {"jperf bpf feature probe [kernel] [full] [macros [prefix PREFIX]] [<options>]"}
                : object.equals("link")
                ? new String[] {"jperf bpf link { list | show [LINK] | pin LINK FILE | detach LINK } [<options>]",
                    "LINK := { id ID | pinned PATH }"}
                : new String[] {"jperf bpf map { list | show MAP | dump MAP | lookup MAP key BYTES | getnext MAP [key BYTES] | delete MAP key BYTES | freeze MAP } [<options>]",
                    "jperf bpf map update MAP key BYTES value BYTES [any | exist | noexist] [<options>]",
                    "jperf bpf map create FILE type TYPE key KEY_SIZE value VALUE_SIZE entries MAX_ENTRIES name NAME [flags FLAGS] [inner_map MAP] [dev NAME] [<options>]",
                    "jperf bpf map { pin MAP FILE | peek MAP | push MAP value BYTES | pop MAP | enqueue MAP value BYTES | dequeue MAP } [<options>]",
                    "jperf bpf map event_pipe MAP [cpu N index M] [<options>]",
                    "BYTES := [hex] BYTE...",
                    "MAP := { [id] ID | name NAME | pinned PATH }"});
        return BpftoolFlags.declare(options, true);
    }

    @Override
    public void set(String name, OptionValue v) {
        if (!flags.set(name, v)) {
            throw new IllegalStateException("option not handled: " + name);
        }
    }

    @Override
    public void arguments(List<String> positional, List<String> all) {
        words = List.copyOf(positional);
    }

    @Override
    public int call() {
        return BpftoolCall.call(flags, options(), this::run);
    }

    /** This command's words (a batch file's line) with {@code -f} as given. */
    BpfProgMapCommand words(List<String> words, boolean bpffs) {
        this.words = List.copyOf(words);
        flags.bpffs = bpffs;
        return this;
    }

    /**
     * Runs the command into {@code output} (a batch shares one): its exit code, a failure reported
     * as bpftool reports it.
     */
    int execute(Output output) {
        return BpftoolCall.execute(output, options(), this::run);
    }

    private void run(Output output) {
        if (object.equals("link")) {
            link(output);
            return;
        }
        if (object.equals("feature")) {
            if (words.isEmpty() || !words.get(0).equals("probe")) {
                throw new UsageException("unknown 'feature' command '" + (words.isEmpty() ? "" : words.get(0)) + "': probe");
            }
            new FeatureProbe(output, System.err).probe(words.subList(1, words.size()));
            return;
        }
        String verb = words.isEmpty() ? "show" : words.get(0);
        List<String> rest = words.subList(Math.min(1, words.size()), words.size());
        boolean prog = object.equals("prog");
        if (verb.equals("help")) {
            // do_help: the usage on stderr (null with -j), exit 0
            if (output.json()) {
                output.nul();
            } else {
                options().usage(System.err);
            }
            return;
        }
        switch (verb) {
            case "list", "show" -> {
                if (rest.isEmpty()) {
                    if (prog) {
                        new ProgCommands(output, flags.bpffs).list();
                    } else {
                        new MapCommands(output, flags.bpffs).list();
                    }
                } else if (prog) {
                    new ProgCommands(output, flags.bpffs).show(handle(rest, true));
                } else {
                    new MapCommands(output, flags.bpffs).show(handle(rest, false));
                }
            }
            case "dump" -> {
                if (!prog) {
                    new MapCommands(output, flags.bpffs).dump(handle(rest, false));
                    return;
                }
                if (rest.isEmpty() || !(rest.get(0).equals("xlated") || rest.get(0).equals("jited"))) {
                    throw new UsageException("expected 'xlated' or 'jited', got: " + (rest.isEmpty() ? "nothing" : rest.get(0)));
                }
                List<String> args = new ArrayList<>(rest.subList(1, rest.size()));
                boolean opcodes = args.remove("opcodes");
                boolean linum = args.remove("linum");
                if (rest.get(0).equals("jited")) {
                    new JitedDump(output).dump(handle(args, true), opcodes, linum);
                } else {
                    new XlatedDump(output).dump(handle(args, true), opcodes, linum);
                }
            }
            case "pin" -> new PinCommands(output).pin(object, rest);
            case "attach", "detach", "run", "profile", "tracelog" -> {
                if (!prog) {
                    throw unknown(verb);
                }
                ProgRunCommands c = new ProgRunCommands(output, System.in);
                switch (verb) {
                    case "attach", "detach" -> c.attach(rest, verb.equals("attach"));
                    case "run" -> c.run(rest);
                    case "profile" -> c.profile();
                    default -> {
                        CountDownLatch stop = new CountDownLatch(1);
                        SignalHandler[] previous = StopSignals.install(stop::countDown);
                        try {
                            new Tracelog(output, System.err).run(stop);
                        } finally {
                            StopSignals.restore(previous);
                        }
                    }
                }
            }
            case "event_pipe" -> {
                if (prog) {
                    throw unknown(verb);
                }
                CountDownLatch stop = new CountDownLatch(1);
                SignalHandler[] previous = StopSignals.install(stop::countDown);
                try {
                    new EventPipe(output, System.err).run(rest, stop);
                } finally {
                    StopSignals.restore(previous);
                }
            }
            case "load", "loadall" -> {
                if (!prog) {
                    throw unknown(verb);
                }
                new ProgLoadCommands(output, System.err).load(rest, verb.equals("load"));
            }
            case "create" -> {
                if (prog) {
                    throw unknown(verb);
                }
                new PinCommands(output).create(rest);
            }
            case "pop", "dequeue" -> {
                if (prog) {
                    throw unknown(verb);
                }
                new MapElemCommands(output).pop(verb, rest);
            }
            case "update", "lookup", "delete", "getnext", "freeze", "peek", "push", "enqueue" -> {
                if (prog) {
                    throw unknown(verb);
                }
                if (rest.size() < 2 && !verb.equals("freeze")) {
                    throw BpftoolException.usage(); // do_update, do_lookup, ...: argc < 2
                }
                int n = handleWords(rest);
                BpfHandle h = handle(rest.subList(0, n), false);
                List<String> elem = rest.subList(n, rest.size());
                MapElemCommands c = new MapElemCommands(output);
                switch (verb) {
                    case "update", "push", "enqueue" -> c.update(h, elem);
                    case "lookup", "peek" -> c.lookup(h, elem);
                    case "delete" -> c.delete(h, elem);
                    case "getnext" -> c.getnext(h, elem);
                    default -> {
                        if (!elem.isEmpty()) {
                            throw new UsageException("unexpected argument '" + elem.get(0) + "'");
                        }
                        c.freeze(h);
                    }
                }
            }
            default -> throw unknown(verb);
        }
    }

    private UsageException unknown(String verb) {
        return new UsageException("unknown '" + object + "' command '" + verb + "': " + (object.equals("prog")
                ? "list, show, dump, pin, load, loadall, attach, detach, run, profile or tracelog" : object.equals("link") ? "list, show, pin or detach"
                : "list, show, dump, update, lookup, delete, getnext, freeze, create, pin, event_pipe, peek, push, pop, enqueue or dequeue"));
    }

    /** {@code jperf bpf link list|show [LINK]|pin LINK FILE|detach LINK}. */
    private void link(Output output) {
        String verb = words.isEmpty() ? "show" : words.get(0);
        List<String> rest = words.subList(Math.min(1, words.size()), words.size());
        switch (verb) {
            case "list", "show" -> new LinkCommands(output, flags.bpffs).show(rest);
            case "pin" -> new PinCommands(output).pin("link", rest);
            case "detach" -> new LinkCommands(output, flags.bpffs).detach(rest);
            default -> throw unknown(verb);
        }
    }

    /** How many of {@code rest}'s first words name the map: {@code id|name|pinned X}, or a bare ID. */
    private static int handleWords(List<String> rest) {
        if (rest.isEmpty()) {
            throw new UsageException("expected a map: [id] ID, name NAME or pinned PATH");
        }
        return List.of("id", "name", "pinned").contains(rest.get(0)) ? Math.min(2, rest.size()) : 1;
    }

    /**
     * bpftool's {@code id ID}, {@code name NAME}, {@code tag TAG} (programs), {@code pinned PATH};
     * a bare ID is {@code id ID}.
     */
    private static BpfHandle handle(List<String> rest, boolean prog) {
        if (rest.isEmpty()) {
            throw new UsageException("expected an id");
        }
        String kind = rest.size() == 1 ? "id" : rest.get(0);
        List<String> r = rest.size() == 1 ? rest : rest.subList(1, rest.size());
        if (r.size() != 1) {
            throw new UsageException("unexpected argument '" + r.get(1) + "'");
        }
        switch (kind) {
            case "id":
                return BpfHandle.id(id(r.get(0)));
            case "name":
                return BpfHandle.name(r.get(0));
            case "pinned":
                return BpfHandle.pinned(r.get(0));
            case "tag":
                if (prog) {
                    return BpfHandle.tag(r.get(0));
                }
                // a map has no tag
            default:
                throw new UsageException(prog ? "expected 'id', 'tag', 'name' or 'pinned', got: '" + kind + "'"
                        : "expected 'id', 'name' or 'pinned', got: '" + kind + "'");
        }
    }

    /** An id parsed as strtoul(s, 0) does (0x.. hex, 0.. octal). */
    private static int id(String s) {
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
