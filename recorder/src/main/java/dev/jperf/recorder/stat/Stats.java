package dev.jperf.recorder.stat;

/**
 * perf's {@code struct stats} (util/stat.c): a running mean and the spread of the mean over
 * {@code -r} runs, by Welford's method, so that {@code +- x.xx%} is the number perf prints.
 */
final class Stats {
    private long n;
    private double mean;
    private double m2;

    void update(double value) {
        n++;
        double delta = value - mean;
        mean += delta / n;
        m2 += delta * (value - mean);
    }

    long count() {
        return n;
    }

    double avg() {
        return mean;
    }

    /** The standard deviation of the mean (stddev_stats): sqrt(variance / n), 0 for fewer than two values. */
    double stddev() {
        if (n < 2) {
            return 0;
        }
        double variance = m2 / (n - 1);
        return Math.sqrt(variance / n);
    }

    /** rel_stddev_stats: the spread as a percentage of {@code avg} (0 when avg is 0). */
    static double relStddev(double stddev, double avg) {
        return avg != 0 ? 100.0 * stddev / avg : 0;
    }
}
