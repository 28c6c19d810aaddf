package dev.jperf.bpf;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.jperf.nativeshim.BpfAttrLayout;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code bpftool prog attach|detach|run|profile} (prog.c of bpftool 7.1): bpftool's words,
 * output, messages and exit codes.
 */
public final class ProgRunCommands {
    /** enum bpf_attach_type values bpftool's prog attach takes. */
    private static final int STREAM_PARSER = 4, STREAM_VERDICT = 5, MSG_VERDICT = 7, FLOW_DISSECTOR = 17,
            SKB_VERDICT = 38;
    /** bpftool's attach_types[], in enum order, and the older names it takes by prefix. */
    private static final int[] TYPES = {STREAM_PARSER, STREAM_VERDICT, MSG_VERDICT, FLOW_DISSECTOR, SKB_VERDICT};
    private static final String[] OLD_NAMES = {"stream_parser", "stream_verdict", "msg_verdict", null, "skb_verdict"};
    /** do_run's data_size_out and ctx_size_out when not given: SZ_32K. */
    private static final int DEFAULT_SIZE_OUT = 32 * 1024;
    private static final int EINVAL_EXIT = -Errno.EINVAL & 0xff;

    private final KernelObjects kernel = new KernelObjects();
    private final Output o;
    private final InputStream stdin;

    /** {@code stdin} is what a {@code -} file name reads. */
    public ProgRunCommands(Output output, InputStream stdin) {
        this.o = output;
        this.stdin = stdin;
    }

    /** do_attach ({@code attach}) and do_detach: {@code PROG ATTACH_TYPE [MAP]}. */
    public void attach(List<String> args, boolean attach) {
        PinCommands.require(args, 3, attach ? "attach" : "detach", EINVAL_EXIT);
        int prog = PinCommands.open(kernel, o, "prog", BpfHandle.parse(args, 0, "prog"));
        int map = 0;
        try {
            int type = attachType(args.get(2));
            if (type < 0) {
                throw new BpftoolException("invalid attach/detach type", false, EINVAL_EXIT);
            }
            if (type != FLOW_DISSECTOR) {
                PinCommands.require(args.subList(3, args.size()), 2, args.get(2), EINVAL_EXIT);
                map = new MapElemCommands(o).openOne(BpfHandle.parse(args, 3, "map"));
            }
            if ((attach ? kernel.bpf.progAttach(prog, map, type, 0) : kernel.bpf.progDetach(prog, map, type)) < 0) {
                throw new BpftoolException(attach ? "failed prog attach to map" : "failed prog detach from map", false,
                        EINVAL_EXIT);
            }
        } finally {
            Fd.close(prog);
            if (map > 0) {
                Fd.close(map);
            }
        }
        if (o.json()) {
            o.jw().nul();
        }
    }

    /** parse_attach_type: libbpf's name exactly, or an old name by any prefix; -1 for none. */
    private static int attachType(String s) {
        for (int i = 0; i < TYPES.length; i++) {
            if (s.equals(LinkCommands.attachTypeName(TYPES[i])) || OLD_NAMES[i] != null && OLD_NAMES[i].startsWith(s)) {
                return TYPES[i];
            }
        }
        return -1;
    }

    /**
     * do_run: {@code PROG data_in FILE [data_out FILE [data_size_out L]] [ctx_in FILE [ctx_out
     * FILE [ctx_size_out M]]] [repeat N]}, BPF_PROG_TEST_RUN once with {@code repeat} runs.
     */
    public void run(List<String> args) {
        PinCommands.require(args, 4, "run");
        int fd = PinCommands.open(kernel, o, "prog", BpfHandle.parse(args, 0, "prog"));
        try {
            run(fd, args);
        } finally {
            Fd.close(fd);
        }
    }

    private void run(int fd, List<String> args) {
        String dataIn = null, dataOut = null, ctxIn = null, ctxOut = null;
        long dataSizeOut = 0, ctxSizeOut = 0, repeat = 1;
        int i = 2;
        while (i < args.size()) {
            String w = args.get(i);
            ambiguous(w, "data_in", "data_out", "data_size_out");
            ambiguous(w, "ctx_in", "ctx_out", "ctx_size_out");
            PinCommands.require(args.subList(i + 1, args.size()), 1, w);
            String v = args.get(i + 1);
            if ("data_in".startsWith(w)) {
                dataIn = v;
                singleStdin(dataIn, ctxIn);
            } else if ("data_out".startsWith(w)) {
                dataOut = v;
            } else if ("data_size_out".startsWith(w)) {
                dataSizeOut = unsigned(v, "output data size");
            } else if ("ctx_in".startsWith(w)) {
                ctxIn = v;
                singleStdin(dataIn, ctxIn);
            } else if ("ctx_out".startsWith(w)) {
                ctxOut = v;
            } else if ("ctx_size_out".startsWith(w)) {
                ctxSizeOut = unsigned(v, "output context size");
            } else if ("repeat".startsWith(w)) {
                repeat = unsigned(v, "repeat number");
            } else {
                throw new BpftoolException("expected no more arguments, 'data_in', 'data_out', 'data_size_out', 'ctx_in',"
                        + " 'ctx_out', 'ctx_size_out' or 'repeat', got: '" + w + "'?");
            }
            i += 2;
        }
        byte[] data = read(dataIn);
        byte[] ctx = read(ctxIn);
        if (data != null && dataSizeOut == 0) {
            dataSizeOut = DEFAULT_SIZE_OUT;
        }
        if (ctx != null && ctxSizeOut == 0) {
            ctxSizeOut = DEFAULT_SIZE_OUT;
        }
        Memory test = new Memory(BpfAttrLayout.TEST_SIZE);
        test.clear();
        test.setInt(BpfAttrLayout.TEST_PROG_FD, fd);
        test.setInt(BpfAttrLayout.TEST_REPEAT, (int) repeat);
        Memory[] dataBufs = buffers(test, data, dataSizeOut, BpfAttrLayout.TEST_DATA_IN, BpfAttrLayout.TEST_DATA_SIZE_IN,
                BpfAttrLayout.TEST_DATA_OUT, BpfAttrLayout.TEST_DATA_SIZE_OUT);
        Memory[] ctxBufs = buffers(test, ctx, ctxSizeOut, BpfAttrLayout.TEST_CTX_IN, BpfAttrLayout.TEST_CTX_SIZE_IN,
                BpfAttrLayout.TEST_CTX_OUT, BpfAttrLayout.TEST_CTX_SIZE_OUT);
        int err = kernel.bpf.progTestRun(test);
        Memory dataOutBuf = dataBufs[1];
        Memory ctxOutBuf = ctxBufs[1];
        if (err < 0) {
            // bpftool returns libbpf's -errno
            throw new BpftoolException("failed to run program: " + Errno.text(-err), false, err & 0xff);
        }
        if (o.json()) {
            o.jw().startObject();
        }
        int failed = 0;
        long gotData = Integer.toUnsignedLong(test.getInt(BpfAttrLayout.TEST_DATA_SIZE_OUT));
        long gotCtx = Integer.toUnsignedLong(test.getInt(BpfAttrLayout.TEST_CTX_SIZE_OUT));
        if (gotData != 0) {
            failed += output(dataOutBuf, gotData, dataOut, "data_out");
        }
        if (gotCtx != 0) {
            failed += output(ctxOutBuf, gotCtx, ctxOut, "ctx_out");
        }
        long retval = Integer.toUnsignedLong(test.getInt(BpfAttrLayout.TEST_RETVAL));
        long duration = Integer.toUnsignedLong(test.getInt(BpfAttrLayout.TEST_DURATION));
        if (o.json()) {
            o.jw().uintField("retval", retval);
            o.jw().uintField("duration", duration);
            o.jw().endObject();
        } else {
            o.out().append("Return value: ").append(retval).append(", duration").append(repeat > 1 ? " (average)" : "")
                    .append(": ").append(duration).append("ns\n");
        }
        if (failed != 0) {
            // bpftool returns the sum of print_run_output's -1s, having said why in each
            throw BpftoolException.quiet("output not written");
        }
    }

    /**
     * One pair (data or ctx) set in {@code test}: the in buffer (bpftool's, non-null even for an
     * empty file) and, when there is input, the zeroed out buffer; returns both, kept reachable
     * by the caller until the run is over.
     */
    private static Memory[] buffers(Memory test, byte[] in, long sizeOut, int inAt, int inSizeAt, int outAt,
            int outSizeAt) {
        if (in == null) {
            // no input: bpftool passes the size it was given with no buffer
            test.setInt(outSizeAt, (int) sizeOut);
            return new Memory[2];
        }
        Memory m = new Memory(Math.max(1, in.length));
        if (in.length > 0) {
            m.write(0, in, 0, in.length);
        }
        Memory out = new Memory(Math.max(1, sizeOut));
        out.clear();
        test.setLong(inAt, Pointer.nativeValue(m));
        test.setInt(inSizeAt, in.length);
        test.setLong(outAt, Pointer.nativeValue(out));
        test.setInt(outSizeAt, (int) sizeOut);
        return new Memory[] {m, out};
    }

    /** print_run_output: the bytes hex-printed ({@code -}), or written to {@code file}; -1 when that failed. */
    private int output(Memory buf, long size, String file, String key) {
        if (file == null) {
            return 0;
        }
        byte[] b = buf == null ? new byte[(int) size] : buf.getByteArray(0, (int) size);
        if (file.equals("-")) {
            if (o.json()) {
                o.jw().name(key);
                o.jw().startArray();
                for (byte v : b) {
                    o.jw().raw(Integer.toString(v & 0xff));
                }
                o.jw().endArray();
            } else {
                hexPrint(o.out(), b);
            }
            return 0;
        }
        try (OutputStream out = Files.newOutputStream(Path.of(file))) {
            out.write(b);
            return 0;
        } catch (IOException e) {
            String why = "failed to open " + file + ": " + ioText(e);
            if (o.json()) {
                // bpftool's p_err puts an unnamed {"error"} object inside the root object (not
                // JSON); the message goes under "error" here, still before retval and duration
                o.jw().name("error");
                o.jw().raw("\"" + why + "\"");
            } else {
                System.err.println("Error: " + why);
            }
            return -1;
        }
    }

    /** hex_print: rows of 16 bytes, {@code %07zx} offset, pairs, then the printable characters. */
    static void hexPrint(StringBuilder out, byte[] b) {
        for (int i = 0; i < b.length; i += 16) {
            String off = Integer.toHexString(i);
            out.append("0000000", 0, Math.max(0, 7 - off.length())).append(off).append('\t');
            int j;
            for (j = i; j < i + 16 && j < b.length; j++) {
                Hex.appendByte(out, b[j]);
                if (j % 2 != 0) {
                    out.append(' ');
                }
            }
            for (; j < i + 16; j++) {
                out.append(j % 2 != 0 ? "   " : "  ");
            }
            out.append("| ");
            for (j = i; j < i + 16 && j < b.length; j++) {
                char c = (char) b[j];
                out.append(b[j] < ' ' || b[j] > '~' ? '.' : c);
                if (j == i + 7) {
                    out.append(' ');
                }
            }
            out.append('\n');
        }
    }

    /** get_run_data: the whole file ({@code -}: standard input), null when not named. */
    private byte[] read(String file) {
        if (file == null) {
            return null;
        }
        try {
            return file.equals("-") ? stdin.readAllBytes() : Files.readAllBytes(Path.of(file));
        } catch (IOException e) {
            throw new BpftoolException("failed to open " + file + ": " + ioText(e));
        }
    }

    /** strerror's text for a file that could not be opened. */
    private static String ioText(IOException e) {
        if (e instanceof NoSuchFileException) {
            return Errno.text(Errno.ENOENT);
        }
        if (e instanceof AccessDeniedException) {
            return Errno.text(Errno.EACCES);
        }
        String m = String.valueOf(e.getMessage());
        return m.endsWith("Is a directory") ? Errno.text(21) : m;
    }

    /** check_single_stdin. */
    private static void singleStdin(String dataIn, String ctxIn) {
        if ("-".equals(dataIn) && "-".equals(ctxIn)) {
            throw new BpftoolException("cannot use standard input for both data_in and ctx_in");
        }
    }

    /** detect_common_prefix: a word two of {@code refs} start with is ambiguous. */
    static void ambiguous(String w, String... refs) {
        StringBuilder msg = new StringBuilder("ambiguous prefix: '").append(w).append("' could be '");
        int n = 0;
        for (String r : refs) {
            if (r.startsWith(w)) {
                if (n++ > 0) {
                    msg.append("' or '");
                }
                msg.append(r);
            }
        }
        if (n >= 2) {
            throw new BpftoolException(msg.append('\'').toString());
        }
    }

    /** strtoul(s, &end, 0) into an unsigned int, refused as bpftool refuses it when anything follows. */
    private static long unsigned(String s, String what) {
        Long v = MapElemCommands.strtoul(s, 0);
        if (v == null) {
            throw new BpftoolException("can't parse " + s + " as " + what);
        }
        return v & 0xffffffffL;
    }

    /**
     * {@code prog profile}: jperf has no profiler of BPF programs (bpftool's is an fentry/fexit
     * skeleton reading perf counters). One line says why, with the kernel's answer to a tracing
     * program; the exit code is Debian's bpftool 7.1's, whose build lacks it too (0).
     */
    public void profile() {
        boolean fentry = new FeatureProbe(new Output(false, false), null).tracingPrograms();
        String why = "jperf bpf prog profile is not supported: it needs fentry/fexit programs on the profiled one, "
                + (fentry ? "which jperf does not load for it" : "which this kernel refuses (program type tracing is not available)");
        if (o.json()) {
            o.error(why);
        } else {
            System.err.println("Error: " + why);
        }
    }
}
