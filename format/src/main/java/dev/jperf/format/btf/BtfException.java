package dev.jperf.format.btf;

/** A BTF blob that cannot be parsed; the message names what is wrong and where. */
public final class BtfException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BtfException(String message) {
        super(message, null, false, false);
    }
}
