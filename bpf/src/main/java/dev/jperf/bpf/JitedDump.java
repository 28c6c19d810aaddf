package dev.jperf.bpf;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.format.bpf.BpilArray;
import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfException;
import dev.jperf.format.bpf.BpfProgInfoLayout;
import dev.jperf.nativeshim.Capstone;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.nativeshim.X86Disassembler;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * {@code bpftool prog dump jited id ID [opcodes] [linum]} (prog.c's prog_dump, jit_disasm.c's
 * disasm_print_insn) with the x86-64 disassembler of native-shim in place of libbfd's: per JITed
 * function its BTF signature and kallsyms name, then each instruction as {@code %4x:\t} and its
 * text (branch targets as libbfd's generic_print_address writes them, {@code 0x%016x}), the BTF
 * source line (bpftool's {@code ; } lines, {@code [file: line_num: line_col:]} with linum) above
 * the instruction a line record starts at, with {@code opcodes} the bytes on a line of their own.
 */
public final class JitedDump {
    /** sizeof(struct bpf_line_info) fields read: insn_off, file_name_off, line_off, line_col. */
    private static final int LINE_INFO_MIN = 16;
    private static final long JITED_ARRAYS = BpilArray.JITED_INSNS.mask() | BpilArray.JITED_KSYMS.mask()
            | BpilArray.JITED_FUNC_LENS.mask() | BpilArray.FUNC_INFO.mask() | BpilArray.LINE_INFO.mask()
            | BpilArray.JITED_LINE_INFO.mask();

    private final KernelObjects kernel = new KernelObjects();
    private final Output o;

    public JitedDump(Output output) {
        this.o = output;
    }

    /** Every program {@code h} names, each as bpftool prints it (several: each under its header line). */
    public void dump(BpfHandle h, boolean opcodes, boolean linum) {
        if (o.json()) {
            throw new BpftoolException("JSON output of JITed code is not implemented: drop -j/-p");
        }
        String why = Capstone.unavailable();
        if (why != null) {
            throw new BpftoolException(why);
        }
        int[] fds = ProgCommands.open(kernel, h);
        boolean several = fds.length > 1;
        o.each(fds, "no program matches " + h, (i, fd) -> {
            BpfProgInfo first = ProgCommands.info(kernel, fd);
            if (several) {
                ProgCommands.headerPlain(kernel, o.out(), first, fd);
            }
            print(fetch(fd), opcodes, linum);
            if (several && i != fds.length - 1) {
                o.out().append('\n');
            }
        });
    }

    /** The info with the arrays the dump reads: counts and record sizes first, then the arrays (prep_prog_info). */
    private BpfProgInfo fetch(int fd) {
        try {
            Memory first = new Memory(BpfProgInfoLayout.SIZE);
            kernel.info(fd, first, BpfProgInfoLayout.SIZE, true);
            List<BpilArray> wanted = new ArrayList<>();
            long total = 0;
            long[] bytes = new long[BpilArray.values().length];
            for (BpilArray a : BpilArray.values()) {
                if ((JITED_ARRAYS & a.mask()) != 0) {
                    wanted.add(a);
                    bytes[a.ordinal()] = byteLength(first, a);
                    total += (bytes[a.ordinal()] + 7) & ~7L;
                }
            }
            if (total > 256L << 20) {
                throw new BpftoolException("bpf_prog_info arrays of " + total + " bytes: too large");
            }
            Memory data = new Memory(Math.max(8, total));
            data.clear();
            Memory second = new Memory(BpfProgInfoLayout.SIZE);
            second.clear();
            long[] offsets = new long[bytes.length];
            long off = 0;
            for (BpilArray a : wanted) {
                offsets[a.ordinal()] = off;
                second.setInt(a.countOffset(), first.getInt(a.countOffset()));
                if (a.recSizeOffset() >= 0) {
                    second.setInt(a.recSizeOffset(), first.getInt(a.recSizeOffset()));
                }
                second.setLong(a.pointerOffset(), Pointer.nativeValue(data) + off);
                off += (bytes[a.ordinal()] + 7) & ~7L;
            }
            kernel.info(fd, second, BpfProgInfoLayout.SIZE, false);
            Map<BpilArray, byte[]> arrays = new EnumMap<>(BpilArray.class);
            for (BpilArray a : wanted) {
                long n = Math.min(byteLength(second, a), bytes[a.ordinal()]);
                byte[] b = data.getByteArray(offsets[a.ordinal()], (int) n);
                second.setInt(a.countOffset(), (int) (a.recSizeOffset() >= 0
                        ? (second.getInt(a.recSizeOffset()) == 0 ? 0 : n / second.getInt(a.recSizeOffset()))
                        : n / a.fixedSize()));
                arrays.put(a, b);
            }
            return BpfProgInfo.fromKernel(second.getByteArray(0, BpfProgInfoLayout.SIZE), arrays);
        } catch (NativeException e) {
            throw new BpftoolException("can't get prog info: " + KernelObjects.strerror(e));
        }
    }

    private static long byteLength(Memory info, BpilArray a) {
        long n = Integer.toUnsignedLong(info.getInt(a.countOffset()));
        long elem = a.recSizeOffset() >= 0 ? Integer.toUnsignedLong(info.getInt(a.recSizeOffset())) : a.fixedSize();
        return n * elem;
    }

    private void print(BpfProgInfo info, boolean opcodes, boolean linum) {
        byte[] image = info.jitedProgInsns();
        if (image.length == 0) {
            throw new BpftoolException("no instructions returned");
        }
        Btf btf = null;
        if (info.btfId() != 0) {
            try {
                btf = kernel.btf(info.btfId());
            } catch (NativeException | BtfException e) {
                throw new BpftoolException("failed to get btf");
            }
        }
        long[] ksyms = info.jitedKsyms();
        int[] lens = info.jitedFuncLens();
        byte[] funcs = info.array(BpilArray.FUNC_INFO);
        int funcRec = info.funcInfoRecSize();
        byte[] lines = info.lineInfoRecSize() >= LINE_INFO_MIN ? info.array(BpilArray.LINE_INFO) : new byte[0];
        int lineRec = info.lineInfoRecSize();
        long[] jitedLines = info.jitedLineInfo();
        StringBuilder out = o.out();
        KernelSymbols syms = ksyms.length > 0 ? KernelSymbols.load() : null;
        int img = 0;
        try (X86Disassembler d = new X86Disassembler(null, true)) {
            for (int f = 0; f < Math.max(lens.length, 1); f++) {
                int len = lens.length == 0 ? image.length : lens[f];
                if (img + len > image.length) {
                    break;
                }
                if (lens.length > 0) {
                    String sym = null;
                    if (syms != null && f < ksyms.length) {
                        sym = syms.search(ksyms[f]);
                        if (sym == null) {
                            sym = String.format("0x%016x", ksyms[f]);
                        }
                    }
                    if (btf != null && funcRec >= 8 && (long) (f + 1) * funcRec <= funcs.length) {
                        String sig = BtfTypeOnly.of(btf, le(funcs).getInt(f * funcRec + 4));
                        if (sig != null && !sig.isEmpty()) {
                            out.append(sig).append(":\n");
                        }
                    }
                    out.append(sym == null ? "unknown" : sym).append(":\n");
                }
                long ksym = f < ksyms.length ? ksyms[f] : 0;
                LineFinder finder = lens.length > 0 && btf != null && lines.length > 0
                        ? new LineFinder(jitedLines, ksym, len) : null;
                final Btf b = btf;
                final int base = img;
                d.decode(image, img, img + len, 0, (addr, size, text) -> {
                    long pc = addr - 0;
                    int rec = finder == null ? -1 : finder.find(ksym + pc);
                    if (rec >= 0 && (long) (rec + 1) * lineRec <= lines.length) {
                        lineInfo(out, b, le(lines), rec * lineRec, linum);
                    }
                    out.append(String.format("%4x:\t", pc)).append(text).append('\n');
                    if (opcodes) {
                        out.append('\t');
                        for (int k = 0; k < size; k++) {
                            out.append(String.format("%02x ", image[base + (int) pc + k] & 0xff));
                        }
                        out.append('\n');
                    }
                });
                img += len;
                if (lens.length > 0) {
                    out.append('\n');
                }
            }
        }
    }

    private static ByteBuffer le(byte[] b) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * libbpf's bpf_prog_linfo__lfind_addr_func over one function's line records (those whose JIT
     * address lies in it), with disasm_print_insn's nr_skip: each call from the record after the
     * last one found.
     */
    private static final class LineFinder {
        private final int[] records;
        private final long[] addrs;
        private int nrSkip;

        LineFinder(long[] jitedLines, long start, long len) {
            List<Integer> r = new ArrayList<>();
            for (int i = 0; i < jitedLines.length; i++) {
                if (Long.compareUnsigned(jitedLines[i] - start, len) < 0) {
                    r.add(i);
                }
            }
            records = new int[r.size()];
            addrs = new long[r.size()];
            for (int i = 0; i < records.length; i++) {
                records[i] = r.get(i);
                addrs[i] = jitedLines[records[i]];
            }
        }

        int find(long addr) {
            if (nrSkip >= records.length || Long.compareUnsigned(addr, addrs[nrSkip]) < 0) {
                return -1;
            }
            int k = nrSkip;
            while (k < records.length && Long.compareUnsigned(addr, addrs[k]) >= 0) {
                k++;
            }
            nrSkip++;
            return records[k - 1];
        }
    }

    /** btf_dump_linfo_plain with bpftool's "; " prefix. */
    private static void lineInfo(StringBuilder out, Btf btf, ByteBuffer lines, int at, boolean linum) {
        String text = str(btf, lines.getInt(at + 8));
        if (text == null || text.isEmpty()) {
            return;
        }
        int lineCol = lines.getInt(at + 12);
        out.append("; ").append(ltrim(text));
        if (linum) {
            String file = str(btf, lines.getInt(at + 4));
            out.append(" [file:").append(file == null ? "" : file).append(" line_num:").append(lineCol >>> 10)
                    .append(" line_col:").append(lineCol & 0x3ff).append(']');
        }
        out.append('\n');
    }

    private static String str(Btf btf, int off) {
        try {
            return btf.string(off);
        } catch (BtfException e) {
            return null; // btf__name_by_offset's NULL
        }
    }

    /** ltrim: leading isspace() characters removed. */
    private static String ltrim(String s) {
        int i = 0;
        while (i < s.length() && (s.charAt(i) == ' ' || (s.charAt(i) >= '\t' && s.charAt(i) <= '\r'))) {
            i++;
        }
        return s.substring(i);
    }
}
