package dev.jperf.cli.options;

/**
 * One entry of a command's option table (perf's {@code struct option}): its names, how it takes
 * a value and the help line. What it sets is the command's business ({@link OptionSink}).
 */
record Option(char shortName, String longName, String argHelp, Arg arg, String fallback, String help) {

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

    /** The name the sink is called with: the long name, or the letter of a short-only option. */
    String name() {
        return longName != null ? longName : String.valueOf(shortName);
    }

    /** The name errors use. */
    String display() {
        return longName != null ? "--" + longName : "-" + shortName;
    }
}
