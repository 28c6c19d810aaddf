package dev.jperf.format.dwarf;

/**
 * One row of a line-number matrix (DWARF 5 §6.2.2): the address, the index of its file in the
 * unit's file table, line and column, whether it begins a statement, and whether it ends a sequence
 * (the address just past the sequence's last instruction); and whether the sequence set its file
 * register by then (DW_LNS_set_file), which binutils reads differently for DWARF 5 when not; and its discriminator
 * (DW_LNE_set_discriminator, 0 when none), which objdump -l prints.
 */
public record LineRow(long address, int file, long line, long column, boolean isStmt, boolean endSequence, boolean fileSet, long discriminator) {
}
