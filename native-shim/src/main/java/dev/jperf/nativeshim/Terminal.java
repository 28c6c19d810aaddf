package dev.jperf.nativeshim;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;

/**
 * A terminal in character mode for a live view (termios: no line buffering, no echo, reads that
 * never block), restored as it was on {@link #close}; its size from TIOCGWINSZ.
 */
public final class Terminal implements AutoCloseable {
    /** sizeof(struct termios) with glibc on Linux: four tcflag_t, c_line, c_cc[32], two speeds. */
    static final int TERMIOS_SIZE = 60;
    static final int C_LFLAG = 12;
    static final int C_CC = 17;
    static final int VTIME = 5;
    static final int VMIN = 6;
    static final int ICANON = 0x2;
    static final int ECHO = 0x8;
    static final int TCSANOW = 0;
    static final long TIOCGWINSZ = 0x5413;

    private final int fd;
    private final Memory saved;

    private Terminal(int fd, Memory saved) {
        this.fd = fd;
        this.saved = saved;
    }

    /** Whether {@code fd} is a terminal. */
    public static boolean isTerminal(int fd) {
        return LibC.isatty(fd) == 1;
    }

    /** Puts terminal {@code fd} in character mode until {@link #close}. */
    public static Terminal characterMode(int fd) {
        Memory saved = new Memory(TERMIOS_SIZE);
        if (LibC.tcgetattr(fd, Pointer.nativeValue(saved)) < 0) {
            throw new NativeException("tcgetattr(" + fd + ")", Errno.last());
        }
        Memory raw = new Memory(TERMIOS_SIZE);
        raw.write(0, saved.getByteArray(0, TERMIOS_SIZE), 0, TERMIOS_SIZE);
        raw.setInt(C_LFLAG, raw.getInt(C_LFLAG) & ~(ICANON | ECHO));
        raw.setByte(C_CC + VMIN, (byte) 0);
        raw.setByte(C_CC + VTIME, (byte) 0);
        if (LibC.tcsetattr(fd, TCSANOW, Pointer.nativeValue(raw)) < 0) {
            throw new NativeException("tcsetattr(" + fd + ")", Errno.last());
        }
        return new Terminal(fd, saved);
    }

    /** {rows, columns} of terminal {@code fd}, or null when it has no size. */
    public static int[] size(int fd) {
        Memory ws = new Memory(8);
        ws.clear();
        if (LibC.ioctl(fd, TIOCGWINSZ, Pointer.nativeValue(ws)) < 0) {
            return null;
        }
        int rows = ws.getShort(0) & 0xffff;
        int cols = ws.getShort(2) & 0xffff;
        return rows == 0 || cols == 0 ? null : new int[] {rows, cols};
    }

    @Override
    public void close() {
        LibC.tcsetattr(fd, TCSANOW, Pointer.nativeValue(saved));
    }
}
