package dev.jperf.cli.options;

/**
 * Receives each option as {@link Options#parse} meets it, in command-line order: one method with
 * a {@code switch} on the name rather than a lambda per option, as each lambda's invokedynamic
 * bootstrap costs start-up CPU.
 */
public interface OptionSink {
    /**
     * @param name the option's long name, or its letter when it has none
     * @throws UsageException when the value is not one the option takes
     */
    void set(String name, OptionValue value);
}
