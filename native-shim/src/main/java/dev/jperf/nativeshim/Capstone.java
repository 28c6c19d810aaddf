package dev.jperf.nativeshim;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/**
 * x86-64 instructions decoded by Capstone 4 (Debian's libcapstone4, {@code libcapstone.so.4}) in
 * AT&T syntax, the syntax perf's objdump prints. One {@code cs_disasm} call decodes a whole
 * function; its {@code cs_insn} array is read in place (4.0's layout, below) and freed. Capstone
 * stops at the first byte it cannot decode: {@link #decode} then reports one undecodable byte
 * and goes on after it, as objdump does with its "(bad)".
 */
public final class Capstone implements AutoCloseable {
    /** The library's soname: the 4.x ABI whose cs_insn layout is read here. */
    public static final String LIBRARY = "libcapstone.so.4";
    /** What the user installs when it is missing (Debian's runtime package). */
    public static final String PACKAGE = "libcapstone4";

    private static final int CS_ARCH_X86 = 3;
    private static final int CS_MODE_64 = 8;
    private static final int CS_OPT_SYNTAX = 1;
    private static final int CS_OPT_SYNTAX_ATT = 2;
    // cs_insn in capstone 4.0 (capstone.h): id, address, size, bytes[16], mnemonic[32], op_str[160], detail
    private static final int INSN_SIZE = 16;
    private static final int INSN_MNEMONIC = 34;
    private static final int INSN_OP_STR = 66;
    private static final int INSN_BYTES = 240;

    private static final long CHUNK = 1024;

    private static Functions functions;
    private static String unavailable;

    private final long handle;
    private final Memory handleCell;
    private final Memory insnOut = new Memory(8);
    private byte[] array = new byte[0];
    private boolean closed;

    /** The library's entry points, looked up once. */
    private record Functions(Function open, Function option, Function disasm, Function free, Function close) {
    }

    /** What one decoded instruction is, given to {@link Sink#insn}. */
    public interface Sink {
        /**
         * @param address where it is
         * @param size its length in bytes (1 and mnemonic "(bad)" for a byte Capstone cannot decode)
         * @param mnemonic Capstone's mnemonic
         * @param operands Capstone's operand text (empty when none)
         */
        void insn(long address, int size, String mnemonic, String operands);
    }

    private Capstone(Functions f) {
        handleCell = new Memory(8);
        int err = f.open.invokeInt(new Object[] {CS_ARCH_X86, CS_MODE_64, handleCell});
        if (err != 0) {
            throw new IllegalStateException("cs_open: Capstone error " + err);
        }
        handle = handleCell.getLong(0);
        f.option.invokeInt(new Object[] {handle, CS_OPT_SYNTAX, (long) CS_OPT_SYNTAX_ATT});
    }

    /**
     * Why Capstone cannot be used here (one line naming the library and the package), or null when
     * it can.
     */
    public static synchronized String unavailable() {
        if (functions == null && unavailable == null) {
            try {
                NativeLibrary lib = NativeLibrary.getInstance(LIBRARY);
                functions = new Functions(lib.getFunction("cs_open"), lib.getFunction("cs_option"),
                        lib.getFunction("cs_disasm"), lib.getFunction("cs_free"), lib.getFunction("cs_close"));
            } catch (UnsatisfiedLinkError e) {
                unavailable = "the disassembler needs Capstone 4 (" + LIBRARY + ", Debian package " + PACKAGE
                        + "), which is not installed";
            }
        }
        return unavailable;
    }

    /** An x86-64 AT&T decoder; {@link IllegalStateException} with {@link #unavailable()}'s line when the library is missing. */
    public static Capstone x86_64() {
        String why = unavailable();
        if (why != null) {
            throw new IllegalStateException(why);
        }
        return new Capstone(functions);
    }

    /** Decodes {@code code[from, to)}, the first byte at {@code address}, instruction by instruction into {@code sink}. */
    public void decode(byte[] code, int from, int to, long address, Sink sink) {
        if (closed) {
            throw new IllegalStateException("closed");
        }
        if (to <= from) {
            return;
        }
        Memory buf = new Memory(to - from);
        buf.write(0, code, from, to - from);
        long off = 0;
        long len = to - from;
        Functions f = functions;
        while (off < len) {
            // at most CHUNK at a time: capstone grows one array for all it decodes
            long n = f.disasm.invokeLong(new Object[] {handle, buf.share(off), len - off, address + off, CHUNK, insnOut});
            long done = 0;
            if (n > 0) {
                Pointer insns = insnOut.getPointer(0);
                try {
                    // the array copied out in one read: a JNA call per field cost more than the decoding
                    int bytes = (int) (n * INSN_BYTES);
                    if (array.length < bytes) {
                        array = new byte[bytes];
                    }
                    insns.read(0, array, 0, bytes);
                } finally {
                    f.free.invoke(new Object[] {insns, n});
                }
                for (int i = 0; i < n; i++) {
                    int base = i * INSN_BYTES;
                    int size = (array[base + INSN_SIZE] & 0xff) | (array[base + INSN_SIZE + 1] & 0xff) << 8;
                    sink.insn(address + off + done, size, cString(array, base + INSN_MNEMONIC, 32),
                            cString(array, base + INSN_OP_STR, 160));
                    done += size;
                }
            }
            off += done;
            if (n == CHUNK) {
                continue;
            }
            if (off < len) {
                sink.insn(address + off, 1, "(bad)", "");
                off++;
            }
        }
    }

    /** A NUL-terminated ASCII string of at most {@code max} bytes (Capstone writes only ASCII). */
    private static String cString(byte[] b, int from, int max) {
        int e = from;
        while (e < from + max && b[e] != 0) {
            e++;
        }
        return new String(b, from, e - from, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            handleCell.setLong(0, handle);
            functions.close.invokeInt(new Object[] {handleCell});
        }
    }
}
