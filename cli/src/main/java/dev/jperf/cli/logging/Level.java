package dev.jperf.cli.logging;

/** The levels the bundled libraries log at, with java.util.logging's values. */
public final class Level {
    public static final Level FINE = new Level("FINE", 500);
    public static final Level INFO = new Level("INFO", 800);
    public static final Level WARNING = new Level("WARNING", 900);
    public static final Level SEVERE = new Level("SEVERE", 1000);

    private final String name;
    private final int value;

    private Level(String name, int value) {
        this.name = name;
        this.value = value;
    }

    public int intValue() {
        return value;
    }

    @Override
    public String toString() {
        return name;
    }
}
