package dev.jperf.cli.options;

/** One occurrence of an option on the command line, with perf's conversions; errors name the option. */
public final class OptionValue {
    private final String option;
    private final String text;

    OptionValue(String option, String text) {
        this.option = option;
        this.text = text;
    }

    /** The value as given (or the option's default); for a switch "" when given, null when negated. */
    public String text() {
        return text;
    }

    /** A switch: given, or negated ({@code --no-<name>}). */
    public boolean on() {
        return text != null;
    }

    /** The value as a number (decimal, 0x hex). */
    public long integer() {
        return Options.toLong(option, text);
    }

    /**
     * perf's OPT_INTEGER: strtol in base 10 (no 0x), the whole text read, kept in an int as C
     * keeps it (the low 32 bits).
     */
    public int perfInt() {
        String t = text.strip();
        try {
            return (int) Long.parseLong(t.startsWith("+") ? t.substring(1) : t);
        } catch (NumberFormatException e) {
            throw new UsageException("option '" + option + "' expects a numerical value");
        }
    }

    /** The value as a decimal number. */
    public double decimal() {
        try {
            return Double.parseDouble(text.strip());
        } catch (NumberFormatException e) {
            throw new UsageException("option '" + option + "' expects a numerical value, not '" + text + "'");
        }
    }
}
