package dev.jperf.bpf;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfException;
import dev.jperf.format.json.JsonWriter;
import dev.jperf.format.bpf.BpfProgInfoLayout;
import dev.jperf.nativeshim.NativeException;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * {@code bpftool prog dump xlated id ID [opcodes] [linum]} (prog.c's do_dump and prog_dump,
 * xlated_dumper.c): the kernel's translated instructions, one per line, preceded by each
 * function's BTF signature and each source line from the line info; with {@code -j}, bpftool's
 * objects ({@code proto}, {@code src}, {@code disasm}, {@code opcodes}).
 */
public final class XlatedDump {
    /** Arrays larger than this are refused rather than allocated. */
    private static final long MAX_ARRAY_BYTES = 256L << 20;
    /** sizeof(struct bpf_line_info) fields bpftool reads: insn_off, file_name_off, line_off, line_col. */
    private static final int LINE_INFO_MIN = 16;

    private final KernelObjects kernel = new KernelObjects();
    private final Output o;

    public XlatedDump(Output output) {
        this.o = output;
    }

    public void dump(int id, boolean opcodes, boolean linum) {
        dump(BpfHandle.id(id), opcodes, linum);
    }

    /**
     * Every program {@code h} names; several (a name or tag) each under its header line, or in JSON
     * each as {@code {header fields, "insns": [...]}} of an array, as bpftool prints them.
     */
    public void dump(BpfHandle h, boolean opcodes, boolean linum) {
        int[] fds = ProgCommands.open(kernel, h);
        boolean several = fds.length > 1;
        boolean array = o.json() && several;
        o.each(fds, "no program matches " + h, (i, fd) -> {
            BpfProgInfo info = ProgCommands.info(kernel, fd);
            if (array) {
                o.jw().startObject();
                ProgCommands.headerJson(kernel, o.jw(), info, fd);
                o.jw().name("insns");
            } else if (several) {
                ProgCommands.headerPlain(kernel, o.out(), info, fd);
            }
            dump(fd, info, opcodes, linum);
            if (array) {
                o.jw().endObject();
            } else if (several && i != fds.length - 1) {
                o.out().append('\n');
            }
        });
    }

    private static Memory array(Memory info, int countOff, long elem, int ptrOff) {
        long n = Integer.toUnsignedLong(info.getInt(countOff)) * elem;
        if (n > MAX_ARRAY_BYTES) {
            throw new BpftoolException("bpf_prog_info array of " + n + " bytes: too large");
        }
        Memory m = new Memory(Math.max(8, n));
        m.clear();
        info.setLong(ptrOff, Pointer.nativeValue(m));
        return m;
    }

    private static byte[] bytes(Memory m, long n) {
        return m.getByteArray(0, (int) Math.min(n, m.size()));
    }

    private void dump(int fd, BpfProgInfo first, boolean opcodes, boolean linum) {
        // prep_prog_info: the arrays prog_dump reads, sized by the first call's counts
        Memory q = new Memory(BpfProgInfoLayout.SIZE);
        q.clear();
        q.setInt(BpfProgInfoLayout.XLATED_PROG_LEN, first.xlatedProgLen());
        q.setInt(BpfProgInfoLayout.NR_JITED_KSYMS, first.nrJitedKsyms());
        q.setInt(BpfProgInfoLayout.NR_JITED_FUNC_LENS, first.nrJitedFuncLens());
        q.setInt(BpfProgInfoLayout.NR_FUNC_INFO, first.nrFuncInfo());
        q.setInt(BpfProgInfoLayout.FUNC_INFO_REC_SIZE, first.funcInfoRecSize());
        q.setInt(BpfProgInfoLayout.NR_LINE_INFO, first.nrLineInfo());
        q.setInt(BpfProgInfoLayout.LINE_INFO_REC_SIZE, first.lineInfoRecSize());
        q.setInt(BpfProgInfoLayout.NR_JITED_LINE_INFO, first.nrJitedLineInfo());
        q.setInt(BpfProgInfoLayout.JITED_LINE_INFO_REC_SIZE, first.jitedLineInfoRecSize());
        Memory insns = array(q, BpfProgInfoLayout.XLATED_PROG_LEN, 1, BpfProgInfoLayout.XLATED_PROG_INSNS);
        Memory ksyms = array(q, BpfProgInfoLayout.NR_JITED_KSYMS, 8, BpfProgInfoLayout.JITED_KSYMS);
        Memory funcLens = array(q, BpfProgInfoLayout.NR_JITED_FUNC_LENS, 4, BpfProgInfoLayout.JITED_FUNC_LENS);
        Memory funcInfo = array(q, BpfProgInfoLayout.NR_FUNC_INFO, Integer.toUnsignedLong(first.funcInfoRecSize()),
                BpfProgInfoLayout.FUNC_INFO);
        Memory lineInfo = array(q, BpfProgInfoLayout.NR_LINE_INFO, Integer.toUnsignedLong(first.lineInfoRecSize()),
                BpfProgInfoLayout.LINE_INFO);
        Memory jitedLines = array(q, BpfProgInfoLayout.NR_JITED_LINE_INFO,
                Integer.toUnsignedLong(first.jitedLineInfoRecSize()), BpfProgInfoLayout.JITED_LINE_INFO);
        try {
            kernel.bpf.objGetInfoByFd(fd, q, BpfProgInfoLayout.SIZE);
        } catch (NativeException e) {
            throw new BpftoolException("can't get prog info: " + KernelObjects.strerror(e));
        } finally {
            // the kernel wrote into these through raw addresses: they must outlive the call
            Reference.reachabilityFence(funcLens);
            Reference.reachabilityFence(jitedLines);
        }
        long xlatedLen = Math.min(Integer.toUnsignedLong(q.getInt(BpfProgInfoLayout.XLATED_PROG_LEN)),
                Integer.toUnsignedLong(first.xlatedProgLen()));
        if (xlatedLen == 0) {
            throw new BpftoolException("error retrieving insn dump: kernel.kptr_restrict set?");
        }
        byte[] code = bytes(insns, xlatedLen);
        int nKsyms = Math.min(q.getInt(BpfProgInfoLayout.NR_JITED_KSYMS), first.nrJitedKsyms());
        long[] jitedKsyms = nKsyms > 0 ? ksyms.getLongArray(0, nKsyms) : new long[0];
        int recSize = first.funcInfoRecSize();
        int nFunc = Math.min(q.getInt(BpfProgInfoLayout.NR_FUNC_INFO), first.nrFuncInfo());
        byte[] funcs = nFunc > 0 && recSize >= 8 ? bytes(funcInfo, (long) nFunc * recSize) : new byte[0];
        int lineRec = first.lineInfoRecSize();
        int nLine = Math.min(q.getInt(BpfProgInfoLayout.NR_LINE_INFO), first.nrLineInfo());
        // bpf_prog_linfo__new: no line info without records bpftool can read
        byte[] lines = nLine > 0 && lineRec >= LINE_INFO_MIN ? bytes(lineInfo, (long) nLine * lineRec) : null;
        Btf btf = null;
        if (first.btfId() != 0) {
            try {
                btf = kernel.btf(first.btfId());
            } catch (NativeException | BtfException e) {
                throw new BpftoolException("failed to get btf");
            }
        }
        BpfDisasm disasm = new BpfDisasm(KernelSymbols.load(), jitedKsyms);
        new Printer(code, btf, funcs, recSize, lines, lineRec, disasm, opcodes, linum).print();
    }

    /** dump_xlated_plain / dump_xlated_json over one program's arrays. */
    private final class Printer {
        private final byte[] code;
        private final Btf btf;
        private final ByteBuffer funcs;
        private final int funcRec;
        private final ByteBuffer lines;
        private final int lineRec;
        private final BpfDisasm disasm;
        private final boolean opcodes;
        private final boolean linum;
        private int nextFunc;
        private int nrSkip;

        Printer(byte[] code, Btf btf, byte[] funcs, int funcRec, byte[] lines, int lineRec, BpfDisasm disasm,
                boolean opcodes, boolean linum) {
            this.code = code;
            this.btf = btf;
            this.funcs = ByteBuffer.wrap(funcs).order(ByteOrder.LITTLE_ENDIAN);
            this.funcRec = funcRec;
            this.lines = lines == null ? null : ByteBuffer.wrap(lines).order(ByteOrder.LITTLE_ENDIAN);
            this.lineRec = lineRec;
            this.disasm = disasm;
            this.opcodes = opcodes;
            this.linum = linum;
        }

        /** The function starting at instruction {@code i}, its signature, or null. */
        private String proto(int i) {
            if (btf == null || (long) (nextFunc + 1) * funcRec > funcs.capacity()) {
                return null;
            }
            if (funcs.getInt(nextFunc * funcRec) != i) {
                return null;
            }
            String sig = BtfTypeOnly.of(btf, funcs.getInt(nextFunc * funcRec + 4));
            nextFunc++;
            return sig;
        }

        /** bpf_prog_linfo__lfind(i, nrSkip): the last line info at or before {@code i}, from entry nrSkip on. */
        private int lineAt(int i) {
            if (lines == null) {
                return -1;
            }
            int n = lines.capacity() / lineRec;
            if (nrSkip >= n || Integer.compareUnsigned(i, lines.getInt(nrSkip * lineRec)) < 0) {
                return -1;
            }
            int k = nrSkip;
            while (k < n && Integer.compareUnsigned(i, lines.getInt(k * lineRec)) >= 0) {
                k++;
            }
            return (k - 1) * lineRec;
        }

        private String str(int off) {
            try {
                return btf == null ? null : btf.string(off);
            } catch (BtfException e) {
                return null; // btf__name_by_offset's NULL
            }
        }

        void print() {
            int n = code.length / 8;
            JsonWriter jw = o.json() ? o.jw() : null;
            StringBuilder out = o.out();
            boolean doubleInsn = false;
            if (jw != null) {
                jw.startArray();
            }
            for (int i = 0; i < n; i++) {
                o.flushSome();
                if (doubleInsn) {
                    doubleInsn = false;
                    continue;
                }
                if (jw != null) {
                    doubleInsn = (code[i * 8] & 0xff) == BpfDisasm.BPF_LD_IMM_DW;
                    jw.startObject();
                }
                String sig = proto(i);
                if (sig != null && !sig.isEmpty()) {
                    if (jw != null) {
                        jw.name("proto");
                        jw.string(sig);
                    } else {
                        out.append(sig).append(":\n");
                    }
                }
                int line = lineAt(i);
                if (line >= 0) {
                    lineInfo(jw, out, line);
                    nrSkip++;
                }
                if (jw == null) {
                    doubleInsn = (code[i * 8] & 0xff) == BpfDisasm.BPF_LD_IMM_DW;
                    out.append(String.format("% 4d: ", i)).append(disasm.print(code, i)).append('\n');
                    if (opcodes) {
                        out.append("       ");
                        Hex.plain(out, code, i * 8, 8, " ");
                        if (doubleInsn && i + 1 < n) {
                            out.append(' ');
                            Hex.plain(out, code, i * 8 + 8, 8, " ");
                        }
                        out.append('\n');
                    }
                } else {
                    jw.name("disasm");
                    jw.raw("\"" + disasm.print(code, i) + "\"");
                    if (opcodes) {
                        opcodesJson(jw, i, doubleInsn && i + 1 < n);
                    }
                    jw.endObject();
                }
            }
            if (jw != null) {
                jw.endArray();
            }
        }

        private void opcodesJson(JsonWriter jw, int i, boolean wide) {
            int at = i * 8;
            jw.name("opcodes");
            jw.startObject();
            jw.name("code");
            jw.raw(String.format("\"0x%02x\"", code[at] & 0xff));
            jw.name("src_reg");
            jw.raw("\"0x" + Integer.toHexString((code[at + 1] >> 4) & 0xf) + "\"");
            jw.name("dst_reg");
            jw.raw("\"0x" + Integer.toHexString(code[at + 1] & 0xf) + "\"");
            jw.name("off");
            Hex.json(jw, code, at + 2, 2);
            jw.name("imm");
            Hex.json(jw, code, at + 4, wide ? 12 : 4);
            jw.endObject();
        }

        /** btf_dump_linfo_plain / btf_dump_linfo_json. */
        private void lineInfo(JsonWriter jw, StringBuilder out, int at) {
            String text = str(lines.getInt(at + 8));
            int lineCol = lines.getInt(at + 12);
            int lineNum = lineCol >>> 10;
            int col = lineCol & 0x3ff;
            if (jw != null) {
                if (text != null) {
                    jw.stringField("src", ltrim(text));
                }
                if (linum) {
                    String file = str(lines.getInt(at + 4));
                    if (file != null) {
                        jw.stringField("file", file);
                    }
                    if (lineNum != 0) {
                        jw.intField("line_num", lineNum);
                    }
                    if (col != 0) {
                        jw.intField("line_col", col);
                    }
                }
                return;
            }
            if (text == null) {
                return;
            }
            out.append("; ").append(ltrim(text));
            if (linum) {
                String file = str(lines.getInt(at + 4));
                out.append(" [file:").append(file == null ? "" : file).append(" line_num:").append(lineNum)
                        .append(" line_col:").append(col).append(']');
            }
            out.append('\n');
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
