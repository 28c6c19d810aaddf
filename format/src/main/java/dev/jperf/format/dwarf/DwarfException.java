package dev.jperf.format.dwarf;

/** Debug information that cannot be read: one line naming the section, the offset and why. */
public final class DwarfException extends Exception {
    private static final long serialVersionUID = 1L;

    public DwarfException(String message) {
        super(message);
    }
}
