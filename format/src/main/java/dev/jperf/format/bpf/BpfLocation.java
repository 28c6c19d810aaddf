package dev.jperf.format.bpf;

/**
 * Where an address inside a program's JITed code falls: JITed function (subprogram) index
 * {@code subprog}, and {@code lineIndex}, the index into line_info / jited_line_info of the line
 * record with the greatest JIT address &lt;= the address within that function (-1 when the program
 * has no line info for it).
 */
public record BpfLocation(int subprog, int lineIndex) {
    public boolean hasLine() {
        return lineIndex >= 0;
    }
}
