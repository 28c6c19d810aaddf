package dev.jperf.format.bpf;

import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfException;

/**
 * struct bpf_line_info: {@code insnOff} indexes the translated program; {@code fileNameOff} and
 * {@code lineOff} are offsets into the program BTF's strings ({@code lineOff} points at the text
 * of the source line); {@code lineCol} packs line (bits 10..31) and column (bits 0..9).
 */
public record BpfLineInfo(int insnOff, int fileNameOff, int lineOff, int lineCol) {
    /** sizeof(struct bpf_line_info). */
    public static final int SIZE = 16;

    /** BPF_LINE_INFO_LINE_NUM: line 0 means compiler-generated code without a source line. */
    public int line() {
        return lineCol >>> 10;
    }

    /** BPF_LINE_INFO_LINE_COL. */
    public int column() {
        return lineCol & 0x3ff;
    }

    /** File name and source text from the program's BTF strings. */
    public BpfSourceLine resolve(Btf btf) {
        try {
            return new BpfSourceLine(btf.string(fileNameOff), line(), column(), btf.string(lineOff));
        } catch (BtfException e) {
            throw new BtfException("line_info at insn " + insnOff + ": " + e.getMessage());
        }
    }
}
