package dev.jperf.cli.options;

import java.util.function.Consumer;

/**
 * One entry of a command's option table (perf's {@code struct option}): its names, how it takes
 * a value, the help line, and what it sets. {@code set} receives the value, "" for a switch given,
 * null for a switch negated ({@code --no-<name>}).
 */
record Option(char shortName, String longName, String argHelp, Arg arg, String fallback, String help,
        Consumer<String> set) {

    /** How the option takes its value. */
    enum Arg {
        /** a switch */
        NONE,
        /** always: attached or the next argument */
        REQUIRED,
        /** perf's PARSE_OPT_LASTARG_DEFAULT: the next argument unless it is an option or missing */
        NEXT_OR_DEFAULT,
        /** perf's PARSE_OPT_OPTARG: only an attached value */
        ATTACHED_OR_DEFAULT
    }

    String display() {
        return display(shortName, longName);
    }

    static String display(char shortName, String longName) {
        return longName != null ? "--" + longName : "-" + shortName;
    }
}
