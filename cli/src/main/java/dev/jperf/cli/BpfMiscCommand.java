package dev.jperf.cli;

import dev.jperf.bpf.BpftoolException;
import dev.jperf.bpf.CgroupCommands;
import dev.jperf.bpf.IterCommands;
import dev.jperf.bpf.NetCommands;
import dev.jperf.bpf.Output;
import dev.jperf.bpf.PerfCommands;
import dev.jperf.bpf.StructOpsCommands;
import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import java.util.List;

/**
 * {@code jperf bpf cgroup|iter|net|perf|struct_ops ...}: bpftool 7.1's commands of those objects, with its words
 * (any prefix of a command, as its cmd_select takes), output, messages and exit codes.
 */
final class BpfMiscCommand implements Subcommand {
    /** "cgroup", "iter", "net", "perf" or "struct_ops". */
    private final String object;
    private final BpftoolFlags flags = new BpftoolFlags();
    private List<String> words = List.of();

    BpfMiscCommand(String object) {
        this.object = object;
    }

    @Override
    public String name() {
        return "bpf " + object;
    }

    @Override
    public String summary() {
        return switch (object) {
            case "cgroup" -> "Show, attach and detach the BPF programs of cgroups, as bpftool does";
            case "struct_ops" -> "Show, dump and unregister the kernel's struct_ops maps, as bpftool does";
            case "iter" -> "Pin a BPF iterator (the first program of an object) so that reading the file runs it, as bpftool does";
            case "net" -> "Show the XDP and tc BPF programs of network devices, attach and detach XDP, as bpftool does";
            default -> "List the BPF programs attached to perf events (tracepoints, probes), as bpftool does";
        };
    }

    @Override
    public Options options() {
        String[] usage = switch (object) {
            case "cgroup" -> new String[] {"jperf bpf cgroup { show | list } CGROUP [effective] [<options>]",
                "jperf bpf cgroup tree [CGROUP_ROOT [effective]] [<options>]",
                "jperf bpf cgroup attach CGROUP ATTACH_TYPE PROG [multi | override] [<options>]",
                "jperf bpf cgroup detach CGROUP ATTACH_TYPE PROG [<options>]",
                "ATTACH_TYPE := { cgroup_inet_ingress | cgroup_inet_egress | cgroup_inet_sock_create | cgroup_sock_ops |"
                    + " cgroup_device | cgroup_inet4_bind | ... | cgroup_inet_sock_release } (bpftool's)",
                "PROG := { id PROG_ID | pinned FILE | tag PROG_TAG | name PROG_NAME }"};
            case "net" -> new String[] {"jperf bpf net { show | list } [dev NAME] [<options>]",
                "jperf bpf net attach ATTACH_TYPE PROG dev NAME [overwrite] [<options>]",
                "jperf bpf net detach ATTACH_TYPE dev NAME [<options>]",
                "ATTACH_TYPE := { xdp | xdpgeneric | xdpdrv | xdpoffload }",
                "PROG := { id PROG_ID | pinned FILE | tag PROG_TAG | name PROG_NAME }"};
            case "struct_ops" -> new String[] {"jperf bpf struct_ops { show | list | dump } [STRUCT_OPS_MAP] [<options>]",
                "jperf bpf struct_ops unregister STRUCT_OPS_MAP [<options>]",
                "jperf bpf struct_ops register OBJ [<options>] (an object with struct_ops maps is refused: jperf's loader does not load them)",
                "STRUCT_OPS_MAP := { id STRUCT_OPS_MAP_ID | name STRUCT_OPS_MAP_NAME }"};
            case "iter" -> new String[] {"jperf bpf iter pin OBJ PATH [map MAP] [<options>]",
                "MAP := { id MAP_ID | pinned FILE | name MAP_NAME }"};
            default -> new String[] {"jperf bpf perf { show | list } [<options>]"};
        };
        return BpftoolFlags.declare(new Options(usage), false);
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
        if (isHelp()) {
            // do_help: the usage on stderr, exit 0; with -j, null where bpftool's help writes it
            if (flags.json && !object.equals("perf") && !object.equals("iter")) {
                System.out.println("null");
            } else {
                options().usage(System.err);
                if (flags.json) {
                    System.out.println(); // the JSON writer's end
                }
            }
            System.out.flush();
            System.err.flush();
            return 0;
        }
        return BpftoolCall.call(flags, options(), this::run);
    }

    /** This command's words (a batch file's line). */
    BpfMiscCommand words(List<String> words) {
        this.words = List.copyOf(words);
        return this;
    }

    /**
     * Runs the command into {@code output} (a batch shares one): its exit code, a failure reported
     * as bpftool reports it; help as do_help writes it there.
     */
    int execute(Output output) {
        if (isHelp()) {
            if (output.json() && !object.equals("perf") && !object.equals("iter")) {
                output.nul();
            } else {
                options().usage(System.err);
            }
            return 0;
        }
        return BpftoolCall.execute(output, options(), this::run);
    }

    /** cmd_select picks do_help: {@code help} or a prefix no earlier command has (iter: no word either). */
    private boolean isHelp() {
        if (words.isEmpty()) {
            return object.equals("iter");
        }
        String w = words.get(0);
        if (!"help".startsWith(w)) {
            return false;
        }
        List<String> before = switch (object) {
            case "cgroup" -> List.of("show", "list", "tree", "attach", "detach");
            case "net" -> List.of("show", "list", "attach", "detach");
            case "struct_ops" -> List.of("show", "list", "register", "unregister", "dump");
            case "iter" -> List.of();
            default -> List.of("show", "list");
        };
        for (String v : before) {
            if (v.startsWith(w)) {
                return false;
            }
        }
        return true;
    }

    private void run(Output output) {
        List<String> rest = words.subList(Math.min(1, words.size()), words.size());
        switch (object) {
            case "cgroup" -> {
                CgroupCommands c = new CgroupCommands(output);
                switch (verb("show", "list", "tree", "attach", "detach")) {
                    case "show", "list" -> c.show(words.isEmpty() ? "" : words.get(0), rest);
                    case "tree" -> c.tree(rest);
                    case "attach" -> c.attach(rest);
                    default -> c.detach(rest);
                }
            }
            case "net" -> {
                NetCommands c = new NetCommands(output, System.err);
                String typed = words.isEmpty() ? "" : words.get(0);
                switch (verb("show", "list", "attach", "detach")) {
                    case "show", "list" -> c.show(rest);
                    case "attach" -> c.attach(typed, rest);
                    default -> c.detach(typed, rest);
                }
            }
            case "struct_ops" -> {
                StructOpsCommands c = new StructOpsCommands(output, System.err);
                switch (verb("show", "list", "register", "unregister", "dump")) {
                    case "show", "list" -> c.show(rest);
                    case "register" -> c.register(rest);
                    case "unregister" -> c.unregister(rest);
                    default -> c.dump(rest);
                }
            }
            case "iter" -> {
                verb("pin");
                new IterCommands(output, System.err).pin(words.get(0), rest);
            }
            default -> {
                verb("show", "list");
                new PerfCommands(output, System.err).show();
            }
        }
    }

    /**
     * cmd_select: the first of {@code verbs} the first word is a prefix of (no word: the first
     * verb); none is bpftool's help and exit 255.
     */
    private String verb(String... verbs) {
        if (words.isEmpty()) {
            return verbs[0];
        }
        for (String v : verbs) {
            if (v.startsWith(words.get(0))) {
                return v;
            }
        }
        throw BpftoolException.usage();
    }
}
