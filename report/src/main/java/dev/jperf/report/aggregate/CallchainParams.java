package dev.jperf.report.aggregate;

import java.util.Locale;

/**
 * How call graphs are built and printed (perf's struct callchain_param), parsed from perf report's
 * {@code -g/--call-graph} argument: {@code print_type,threshold[,print_limit],order,sort_key,value}
 * in any order, each word as any prefix of its name, as perf's __parse_callchain_report_opt takes it.
 *
 * @param mode how the graph is printed ({@link Mode#NONE}: not at all)
 * @param minPercent the threshold: call-graph nodes under it are not printed
 * @param printLimit at most this many entries per level (0: no limit)
 * @param order caller (root first) or callee (sample address first)
 * @param orderSet whether the order was given (else --children makes it caller)
 * @param value what each node shows
 */
public record CallchainParams(Mode mode, double minPercent, long printLimit, Order order, boolean orderSet,
        Value value) {
    /** perf's chain_mode. */
    public enum Mode {
        /** CHAIN_NONE: -g none. */
        NONE,
        /** CHAIN_GRAPH_ABS: percentages of the whole event. */
        GRAPH,
        /** CHAIN_GRAPH_REL: percentages of the parent node. */
        FRACTAL,
        /** CHAIN_FLAT: every chain in full. */
        FLAT,
        /** CHAIN_FOLDED: one line per chain, frames joined by ';'. */
        FOLDED
    }

    /** perf's chain_order. */
    public enum Order { CALLER, CALLEE }

    /** perf's chain_value. */
    public enum Value { PERCENT, PERIOD, COUNT }

    /** perf's callchain_param defaults (graph, 0.5, callee unless --children, function, percent). */
    public static final CallchainParams DEFAULT = new CallchainParams(Mode.GRAPH, 0.5, 0, Order.CALLEE, false,
            Value.PERCENT);

    /** What {@code -g} alone means in perf report: "graph,0.5,caller,function,percent". */
    public static final String DEFAULT_ARG = "graph,0.5,caller,function,percent";

    public static final CallchainParams NO_GRAPH = new CallchainParams(Mode.NONE, 0.5, 0, Order.CALLEE, false,
            Value.PERCENT);

    /** These parameters with the graph's threshold set (perf's callchain_param.min_percent). */
    public CallchainParams withMinPercent(double percent) {
        return new CallchainParams(mode, percent, printLimit, order, orderSet, value);
    }

    public boolean enabled() {
        return mode != Mode.NONE;
    }

    /** The order in effect: --children makes it caller unless one was given. */
    public Order effectiveOrder(boolean children) {
        return children && !orderSet ? Order.CALLER : order;
    }

    /**
     * Parses a {@code -g} argument over the defaults; an unknown word is an error naming it.
     * {@code function} is the only sort key (address and srcline need source lines jperf does not read).
     */
    public static CallchainParams parse(String arg) {
        return parse(arg, DEFAULT.minPercent);
    }

    /**
     * {@link #parse(String)} from a threshold already set: perf's tokens change only what they
     * name, and {@code --percent-limit} sets the graph's threshold too (parse_percent_limit).
     */
    public static CallchainParams parse(String arg, double minPercentBefore) {
        Mode mode = DEFAULT.mode;
        double minPercent = minPercentBefore;
        long printLimit = DEFAULT.printLimit;
        Order order = DEFAULT.order;
        boolean orderSet = false;
        Value value = DEFAULT.value;
        boolean minSet = false;
        for (String tok : arg.split(",")) {
            if (tok.isEmpty()) {
                continue;
            }
            if (isPrefix(tok, "none")) {
                return NO_GRAPH;
            }
            Mode m = prefixOf(tok, Mode.GRAPH, Mode.FLAT, Mode.FRACTAL, Mode.FOLDED);
            if (m != null) {
                mode = m;
                continue;
            }
            Order o = prefixOf(tok, Order.CALLER, Order.CALLEE);
            if (o != null) {
                order = o;
                orderSet = true;
                continue;
            }
            if (isPrefix(tok, "function")) {
                continue;
            }
            if (isPrefix(tok, "address") || isPrefix(tok, "srcline") || isPrefix(tok, "branch")) {
                throw new IllegalArgumentException("-g " + tok + ": only the 'function' sort key is supported");
            }
            Value v = prefixOf(tok, Value.PERCENT, Value.PERIOD, Value.COUNT);
            if (v != null) {
                value = v;
                continue;
            }
            if (!minSet) {
                minPercent = leadingNumber(tok, arg);
                minSet = true;
            } else {
                printLimit = (long) leadingNumber(tok, arg);
            }
        }
        return new CallchainParams(mode, minPercent, printLimit, order, orderSet, value);
    }

    /** strncmp(value, name, strlen(value)) == 0: tok is a prefix of name. */
    private static boolean isPrefix(String tok, String name) {
        return name.startsWith(tok.toLowerCase(Locale.ROOT)) && tok.equals(tok.toLowerCase(Locale.ROOT));
    }

    @SafeVarargs
    private static <E extends Enum<E>> E prefixOf(String tok, E... names) {
        for (E e : names) {
            if (isPrefix(tok, e.name().toLowerCase(Locale.ROOT))) {
                return e;
            }
        }
        return null;
    }

    /** strtod's reading: the longest leading number; none at all is an error. */
    private static double leadingNumber(String tok, String arg) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^\\s*[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?")
                .matcher(tok);
        if (!m.find()) {
            throw new IllegalArgumentException("invalid -g/--call-graph argument '" + arg + "': unknown word '" + tok + "'");
        }
        return Double.parseDouble(m.group().strip());
    }
}
