package dev.jperf.format.unsafe;

import java.lang.reflect.Field;
import sun.misc.Unsafe;

/**
 * The one place jperf takes {@code sun.misc.Unsafe} (module jdk.unsupported, in every standard JDK
 * 17+): reads whose bounds the caller has checked, where C1 cannot inline a ByteBuffer's (format's
 * {@link dev.jperf.format.io.ByteSource}, the recorder's ring reads).
 */
public final class Unsafes {
    private static final Unsafe UNSAFE = lookUp();

    private Unsafes() {
    }

    public static Unsafe unsafe() {
        return UNSAFE;
    }

    private static Unsafe lookUp() {
        try {
            Field f = Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            return (Unsafe) f.get(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("sun.misc.Unsafe is not available", e);
        }
    }
}
