package dev.jperf.cli.options;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A command's option table and its parser, with perf's rules (tools/lib/subcmd/parse-options.c):
 * {@code -x value}, {@code -xvalue}, grouped switches ({@code -ag}), {@code --long value},
 * {@code --long=value}, unambiguous prefixes of long names, {@code --no-<switch>}, a later
 * occurrence replacing an earlier one unless the command collects, {@code --} ending the options,
 * and perf's usage layout. Hand-written rather than picocli: building picocli's model cost every
 * run ~0.12 s of wall time and ~0.25 s of CPU before any work (bench/README.md).
 */
public final class Options {
    /** perf's USAGE_OPTS_WIDTH and USAGE_GAP. */
    private static final int OPTS_WIDTH = 24;
    private static final int GAP = 2;

    private final String[] usage;
    private final List<Option> options = new ArrayList<>();
    /** implicit, as in perf: accepted by every command, not listed */
    private final Option help = new Option('h', "help", null, Option.Arg.NONE, null, null);
    private boolean stopAtNonOption;
    private boolean helpAsked;

    /** @param usage perf's usage lines: the first after "Usage:", the others below it */
    public Options(String... usage) {
        this.usage = usage;
        add(help);
    }

    /**
     * The first argument that is not an option ends the options (perf record's command: its own
     * options stay its own).
     */
    public Options stopAtNonOption() {
        stopAtNonOption = true;
        return this;
    }

    /** A switch; {@code --no-<long>} turns it off. */
    public Options flag(char shortName, String longName, String help) {
        return add(new Option(shortName, longName, null, Option.Arg.NONE, null, help));
    }

    /** An option with a required value (a later occurrence replaces an earlier one unless the sink collects). */
    public Options value(char shortName, String longName, String argHelp, String help) {
        return add(new Option(shortName, longName, argHelp, Option.Arg.REQUIRED, null, help));
    }

    /**
     * perf's OPT_CALLBACK_DEFAULT (PARSE_OPT_LASTARG_DEFAULT): takes the next argument unless
     * there is none or it starts with '-', then {@code fallback}.
     */
    public Options valueOrDefault(char shortName, String longName, String argHelp, String help, String fallback) {
        return add(new Option(shortName, longName, argHelp, Option.Arg.NEXT_OR_DEFAULT, fallback, help));
    }

    /** perf's PARSE_OPT_OPTARG: a value only when attached ({@code -z5}, {@code --level=5}), else {@code fallback}. */
    public Options attachedValueOrDefault(char shortName, String longName, String argHelp, String help,
            String fallback) {
        return add(new Option(shortName, longName, argHelp, Option.Arg.ATTACHED_OR_DEFAULT, fallback, help));
    }

    private Options add(Option o) {
        for (Option e : options) {
            if ((o.shortName() != 0 && e.shortName() == o.shortName())
                    || (o.longName() != null && o.longName().equals(e.longName()))) {
                throw new IllegalStateException("option declared twice: " + o.display());
            }
        }
        options.add(o);
        return this;
    }

    /**
     * Hands the options in {@code args} to {@code sink}, in order, and returns the arguments that
     * are not options, in order; null when help was asked for (after printing it).
     *
     * @throws UsageException for an unknown option, a missing or malformed value
     */
    public List<String> parse(List<String> args, OptionSink sink, PrintStream helpOut) {
        helpAsked = false;
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--")) {
                rest.addAll(args.subList(i + 1, args.size()));
                break;
            }
            if (!a.startsWith("-") || a.equals("-")) {
                if (stopAtNonOption) {
                    rest.addAll(args.subList(i, args.size()));
                    break;
                }
                rest.add(a);
                continue;
            }
            i = a.startsWith("--") ? parseLongName(args, i, sink) : parseShorts(args, i, sink);
            if (helpAsked) {
                usage(helpOut);
                return null;
            }
        }
        return rest;
    }

    private void set(OptionSink sink, Option o, String value) {
        if (o == help) {
            helpAsked = true;
        } else {
            sink.set(o.name(), new OptionValue(o.display(), value));
        }
    }

    /** {@code --name}, {@code --name=value}, {@code --no-name}; returns the index of the last argument used. */
    private int parseLongName(List<String> args, int i, OptionSink sink) {
        String a = args.get(i);
        int eq = a.indexOf('=');
        String name = a.substring(2, eq < 0 ? a.length() : eq);
        String attached = eq < 0 ? null : a.substring(eq + 1);
        Option o = find(name);
        if (o == null && name.startsWith("no-")) {
            Option negated = find(name.substring(3));
            if (negated != null && negated.arg() == Option.Arg.NONE) {
                if (attached != null) {
                    throw new UsageException("option '--" + name + "' takes no value");
                }
                set(sink, negated, null);
                return i;
            }
        }
        if (o == null) {
            throw new UsageException("unknown option '--" + name + "'");
        }
        return apply(o, attached, args, i, sink);
    }

    /** {@code -abc} switches, or {@code -xVALUE} / {@code -x VALUE}. */
    private int parseShorts(List<String> args, int i, OptionSink sink) {
        String a = args.get(i);
        for (int k = 1; k < a.length(); k++) {
            Option o = shortOption(a.charAt(k));
            if (o == null) {
                throw new UsageException("unknown switch '" + a.charAt(k) + "'");
            }
            if (o.arg() != Option.Arg.NONE) {
                return apply(o, k + 1 < a.length() ? a.substring(k + 1) : null, args, i, sink);
            }
            set(sink, o, "");
        }
        return i;
    }

    private int apply(Option o, String attached, List<String> args, int i, OptionSink sink) {
        switch (o.arg()) {
            case NONE -> {
                if (attached != null) {
                    throw new UsageException("option '" + o.display() + "' takes no value");
                }
                set(sink, o, "");
                return i;
            }
            case ATTACHED_OR_DEFAULT -> {
                set(sink, o, attached != null ? attached : o.fallback());
                return i;
            }
            case NEXT_OR_DEFAULT -> {
                if (attached != null) {
                    set(sink, o, attached);
                    return i;
                }
                if (i + 1 < args.size() && !args.get(i + 1).startsWith("-")) {
                    set(sink, o, args.get(i + 1));
                    return i + 1;
                }
                set(sink, o, o.fallback());
                return i;
            }
            default -> {
                if (attached != null) {
                    set(sink, o, attached);
                    return i;
                }
                if (i + 1 >= args.size()) {
                    throw new UsageException("option '" + o.display() + "' requires a value");
                }
                set(sink, o, args.get(i + 1));
                return i + 1;
            }
        }
    }

    private Option shortOption(char c) {
        for (Option o : options) {
            if (o.shortName() == c) {
                return o;
            }
        }
        return null;
    }

    /** By exact long name, else by a prefix only one long name has (perf accepts abbreviations). */
    private Option find(String name) {
        Option prefixed = null;
        for (Option o : options) {
            if (o.longName() == null) {
                continue;
            }
            if (o.longName().equals(name)) {
                return o;
            }
            if (!name.isEmpty() && o.longName().startsWith(name)) {
                if (prefixed != null) {
                    throw new UsageException("ambiguous option '--" + name + "' (could be --" + prefixed.longName()
                            + " or --" + o.longName() + ")");
                }
                prefixed = o;
            }
        }
        return prefixed;
    }

    /** perf's usage_with_options layout, options in its order (option__cmp). */
    public void usage(PrintStream out) {
        List<Option> sorted = sorted();
        StringBuilder b = usageLines();
        for (Option o : sorted) {
            if (o.help() != null) {
                appendHelp(b, o);
            }
        }
        b.append('\n');
        out.print(b);
        out.flush();
    }

    /**
     * perf's parse_options_usage after an error about some options: the usage lines, then the
     * help line of each option named (by its long name), in that order.
     */
    public void usage(PrintStream out, String... longNames) {
        StringBuilder b = usageLines();
        for (String name : longNames) {
            for (Option o : options) {
                if (name.equals(o.longName())) {
                    appendHelp(b, o);
                }
            }
        }
        out.print(b);
        out.flush();
    }

    private StringBuilder usageLines() {
        StringBuilder b = new StringBuilder();
        b.append("\n Usage: ").append(usage[0]).append('\n');
        for (int i = 1; i < usage.length; i++) {
            b.append("    ").append(usage[i]).append('\n');
        }
        return b.append('\n');
    }

    /** One option's line of perf's usage_with_options (print_option_help). */
    private static void appendHelp(StringBuilder b, Option o) {
        int start = b.length();
        b.append("    ");
        b.append(o.shortName() != 0 ? "-" + o.shortName() : "    ");
        if (o.shortName() != 0 && o.longName() != null) {
            b.append(", ");
        }
        if (o.longName() != null) {
            b.append("--").append(o.longName());
        }
        if (o.argHelp() != null) {
            // perf brackets only PARSE_OPT_OPTARG's value: the others' is taken from the next argument
            if (o.arg() == Option.Arg.ATTACHED_OR_DEFAULT) {
                b.append(o.longName() != null ? "[=<" : "[<").append(o.argHelp()).append(">]");
            } else {
                b.append(" <").append(o.argHelp()).append('>');
            }
        }
        int pos = b.length() - start;
        int pad = OPTS_WIDTH - pos;
        if (pos > OPTS_WIDTH) {
            b.append('\n');
            pad = OPTS_WIDTH;
        }
        b.append(" ".repeat(pad + GAP)).append(o.help()).append('\n');
    }

    /** The options in perf's usage order: by letter ignoring case, those without one last, then by long name. */
    private List<Option> sorted() {
        List<Option> sorted = new ArrayList<>(options.size());
        for (Option o : options) {
            // insertion sort, stable as List.sort: a Comparator chain's lambdas would cost invokedynamic
            int k = sorted.size();
            while (k > 0 && compare(sorted.get(k - 1), o) > 0) {
                k--;
            }
            sorted.add(k, o);
        }
        return sorted;
    }

    private static int compare(Option a, Option b) {
        int c = Integer.compare(letterRank(a), letterRank(b));
        return c != 0 ? c : longNameOrEmpty(a).compareTo(longNameOrEmpty(b));
    }

    private static int letterRank(Option o) {
        return o.shortName() == 0 ? 'z' + 1 : Character.toLowerCase(o.shortName());
    }

    private static String longNameOrEmpty(Option o) {
        return o.longName() == null ? "" : o.longName();
    }

    /** {@code v} as a number (decimal, 0x hex), or a usage error naming {@code option}. */
    public static long toLong(String option, String v) {
        try {
            return Long.decode(v.strip());
        } catch (NumberFormatException e) {
            throw new UsageException("option '" + option + "' expects a numerical value, not '" + v + "'");
        }
    }
}
