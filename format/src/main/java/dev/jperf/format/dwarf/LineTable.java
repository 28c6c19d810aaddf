package dev.jperf.format.dwarf;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The line-number program of one unit of {@code .debug_line} (DWARF 2 to 5), run: its file table
 * (paths joined with their directories as the producer gave them) and its rows in program order.
 * Parsed beside its format: {@link #read} reads a unit's header and runs its opcodes.
 */
public final class LineTable {
    // DW_LNS_*: the standard opcodes
    static final int DW_LNS_COPY = 1;
    static final int DW_LNS_ADVANCE_PC = 2;
    static final int DW_LNS_ADVANCE_LINE = 3;
    static final int DW_LNS_SET_FILE = 4;
    static final int DW_LNS_SET_COLUMN = 5;
    static final int DW_LNS_NEGATE_STMT = 6;
    static final int DW_LNS_SET_BASIC_BLOCK = 7;
    static final int DW_LNS_CONST_ADD_PC = 8;
    static final int DW_LNS_FIXED_ADVANCE_PC = 9;
    static final int DW_LNS_SET_PROLOGUE_END = 10;
    static final int DW_LNS_SET_EPILOGUE_BEGIN = 11;
    static final int DW_LNS_SET_ISA = 12;
    // DW_LNE_*: the extended opcodes
    static final int DW_LNE_END_SEQUENCE = 1;
    static final int DW_LNE_SET_ADDRESS = 2;
    static final int DW_LNE_DEFINE_FILE = 3;
    static final int DW_LNE_SET_DISCRIMINATOR = 4;
    // DW_LNCT_*: DWARF 5 entry format content types
    static final int DW_LNCT_PATH = 1;
    static final int DW_LNCT_DIRECTORY_INDEX = 2;
    // DW_FORM_*: the forms a DWARF 5 line header uses
    static final int DW_FORM_BLOCK = 0x09;
    static final int DW_FORM_BLOCK1 = 0x0a;
    static final int DW_FORM_DATA1 = 0x0b;
    static final int DW_FORM_DATA2 = 0x05;
    static final int DW_FORM_DATA4 = 0x06;
    static final int DW_FORM_DATA8 = 0x07;
    static final int DW_FORM_DATA16 = 0x1e;
    static final int DW_FORM_STRING = 0x08;
    static final int DW_FORM_STRP = 0x0e;
    static final int DW_FORM_LINE_STRP = 0x1f;
    static final int DW_FORM_UDATA = 0x0f;
    static final int DW_FORM_STRX = 0x1a;
    static final int DW_FORM_STRX1 = 0x25;
    static final int DW_FORM_STRX2 = 0x26;
    static final int DW_FORM_STRX3 = 0x27;
    static final int DW_FORM_STRX4 = 0x28;
    /** Bound on a unit's directories and files, far above what compilers write. */
    private static final int MAX_ENTRIES = 1 << 20;
    /** Bound on a unit's rows: the opcodes of a unit of at most 2 GiB cannot make more. */
    private static final long MAX_ROWS = Integer.MAX_VALUE / 2;

    private final int version;
    private final List<String> files;
    private final List<LineRow> rows;

    private LineTable(int version, List<String> files, List<LineRow> rows) {
        this.version = version;
        this.files = Collections.unmodifiableList(files);
        this.rows = Collections.unmodifiableList(rows);
    }

    public int version() {
        return version;
    }

    /** The file table: index as the rows use it (from 1 before DWARF 5, from 0 in DWARF 5). */
    public List<String> files() {
        return files;
    }

    /** The file a row names, or null when its index is outside the table. */
    public String file(LineRow r) {
        return file(r.file());
    }

    /** The file of index {@code index} as rows and DW_AT_call_file use it, or null when outside the table. */
    public String file(int index) {
        int i = version >= 5 ? index : index - 1;
        return i >= 0 && i < files.size() ? files.get(i) : null;
    }

    public List<LineRow> rows() {
        return rows;
    }

    /** Every unit of a {@code .debug_line} section. */
    public static List<LineTable> readAll(byte[] debugLine, byte[] debugLineStr, byte[] debugStr, ByteOrder order)
            throws DwarfException {
        DwarfInput in = new DwarfInput(debugLine, order, ".debug_line");
        List<LineTable> out = new ArrayList<>();
        while (!in.atEnd()) {
            out.add(read(in, debugLineStr, debugStr));
        }
        return out;
    }

    /** The unit at the cursor; the cursor is left at the next unit. */
    static LineTable read(DwarfInput in, byte[] lineStr, byte[] str) throws DwarfException {
        int sectionEnd = in.limit();
        int unitStart = in.position();
        long length = in.u32();
        int offsetSize = 4;
        if (length == 0xffffffffL) {
            length = in.u64();
            offsetSize = 8;
        } else if (length >= 0xfffffff0L) {
            throw in.error(unitStart, "reserved unit length 0x" + Long.toHexString(length));
        }
        long unitEnd = in.position() + length;
        if (length < 0 || unitEnd > sectionEnd) {
            throw in.error(unitStart, "a unit length of " + length + " runs past the section's end");
        }
        in.limit(unitEnd);
        int version = in.u16();
        if (version < 2 || version > 5) {
            throw in.error(unitStart, "unsupported line table version " + version);
        }
        int addressSize = 8;
        if (version >= 5) {
            addressSize = in.u8();
            in.u8(); // segment selector size
        }
        long headerLength = in.unsigned(offsetSize);
        long programStart = in.position() + headerLength;
        if (headerLength < 0 || programStart > unitEnd) {
            throw in.error(unitStart, "a header length of " + headerLength + " runs past the unit");
        }
        int minInstLength = in.u8();
        int maxOps = version >= 4 ? in.u8() : 1;
        boolean defaultIsStmt = in.u8() != 0;
        int lineBase = (byte) in.u8();
        int lineRange = in.u8();
        int opcodeBase = in.u8();
        if (lineRange == 0) {
            throw in.error(unitStart, "line_range 0");
        }
        int[] opcodeLengths = new int[Math.max(opcodeBase, 1)];
        for (int i = 1; i < opcodeBase; i++) {
            opcodeLengths[i] = in.u8();
        }
        List<String> dirs = new ArrayList<>();
        List<String> files = new ArrayList<>();
        if (version >= 5) {
            readEntries(in, lineStr, str, offsetSize, dirs, null);
            readEntries(in, lineStr, str, offsetSize, files, dirs);
        } else {
            while (true) {
                String d = in.cstring();
                if (d.isEmpty()) {
                    break;
                }
                bound(in, dirs.size());
                dirs.add(d);
            }
            while (true) {
                String f = in.cstring();
                if (f.isEmpty()) {
                    break;
                }
                bound(in, files.size());
                files.add(join(dirs, (int) in.uleb() - 1, f));
                in.uleb(); // mtime
                in.uleb(); // length
            }
        }
        in.seek(programStart);
        List<LineRow> rows = new ArrayList<>();
        run(in, version, addressSize, minInstLength, maxOps, defaultIsStmt, lineBase, lineRange, opcodeBase, opcodeLengths,
                dirs, files, rows);
        in.limit(sectionEnd);
        in.seek(unitEnd);
        return new LineTable(version, files, rows);
    }

    private static void bound(DwarfInput in, int n) throws DwarfException {
        if (n >= MAX_ENTRIES) {
            throw in.error(in.position(), "more than " + MAX_ENTRIES + " directories or files");
        }
    }

    /** A path joined with its directory, as the producer's table gives them (absolute paths stay). */
    private static String join(List<String> dirs, int dir, String name) {
        if (name.startsWith("/") || dir < 0 || dir >= dirs.size()) {
            return name;
        }
        String d = dirs.get(dir);
        return d.endsWith("/") ? d + name : d + "/" + name;
    }

    /** A DWARF 5 directory or file table: its entry format, then its entries. */
    private static void readEntries(DwarfInput in, byte[] lineStr, byte[] str, int offsetSize, List<String> out, List<String> dirs)
            throws DwarfException {
        int formats = in.u8();
        long[] types = new long[formats];
        long[] forms = new long[formats];
        for (int i = 0; i < formats; i++) {
            types[i] = in.uleb();
            forms[i] = in.uleb();
        }
        long count = in.uleb();
        if (count > MAX_ENTRIES) {
            throw in.error(in.position(), count + " entries");
        }
        for (long e = 0; e < count; e++) {
            String path = null;
            long dir = 0;
            for (int i = 0; i < formats; i++) {
                Object v = form(in, (int) forms[i], lineStr, str, offsetSize);
                if (types[i] == DW_LNCT_PATH && v instanceof String s) {
                    path = s;
                } else if (types[i] == DW_LNCT_DIRECTORY_INDEX && v instanceof Long l) {
                    dir = l;
                }
            }
            if (path == null) {
                throw in.error(in.position(), "an entry without a path");
            }
            out.add(dirs == null ? path : join(dirs, (int) Math.min(dir, Integer.MAX_VALUE), path));
        }
    }

    /** One attribute value of a DWARF 5 line header: a String, a Long, or null for what is skipped (MD5, blocks). */
    private static Object form(DwarfInput in, int form, byte[] lineStr, byte[] str, int offsetSize) throws DwarfException {
        return switch (form) {
            case DW_FORM_STRING -> in.cstring();
            case DW_FORM_LINE_STRP -> DwarfInput.stringAt(lineStr, in.unsigned(offsetSize), ".debug_line_str");
            case DW_FORM_STRP -> DwarfInput.stringAt(str, in.unsigned(offsetSize), ".debug_str");
            case DW_FORM_UDATA -> in.uleb();
            case DW_FORM_DATA1 -> (long) in.u8();
            case DW_FORM_DATA2 -> (long) in.u16();
            case DW_FORM_DATA4 -> in.u32();
            case DW_FORM_DATA8 -> in.u64();
            case DW_FORM_DATA16 -> {
                in.skip(16);
                yield null;
            }
            case DW_FORM_BLOCK -> {
                in.skip(in.uleb());
                yield null;
            }
            case DW_FORM_BLOCK1 -> {
                in.skip(in.u8());
                yield null;
            }
            default -> throw in.error(in.position(), "unsupported form 0x" + Integer.toHexString(form) + " in a line table header");
        };
    }

    /** The line-number state machine (DWARF 5 §6.2.5), appending each row it emits. */
    private static void run(DwarfInput in, int version, int addressSize, int minInstLength, int maxOps, boolean defaultIsStmt,
            int lineBase, int lineRange, int opcodeBase, int[] opcodeLengths, List<String> dirs, List<String> files,
            List<LineRow> rows) throws DwarfException {
        long address = 0;
        int opIndex = 0;
        int file = 1;
        long line = 1;
        long column = 0;
        boolean isStmt = defaultIsStmt;
        boolean fileSet = false;
        long discriminator = 0;
        int ops = Math.max(maxOps, 1);
        while (!in.atEnd()) {
            int op = in.u8();
            if (op >= opcodeBase) {
                int adjusted = op - opcodeBase;
                long advance = adjusted / lineRange;
                address += minInstLength * ((opIndex + advance) / ops);
                opIndex = (int) ((opIndex + advance) % ops);
                line += lineBase + adjusted % lineRange;
                emit(in, rows, new LineRow(address, file, line, column, isStmt, false, fileSet, discriminator));
                discriminator = 0;
                continue;
            }
            switch (op) {
                case 0 -> {
                    long len = in.uleb();
                    int start = in.position();
                    if (len == 0) {
                        continue;
                    }
                    int sub = in.u8();
                    switch (sub) {
                        case DW_LNE_END_SEQUENCE -> {
                            emit(in, rows, new LineRow(address, file, line, column, isStmt, true, fileSet, discriminator));
                            discriminator = 0;
                            address = 0;
                            opIndex = 0;
                            file = 1;
                            line = 1;
                            column = 0;
                            isStmt = defaultIsStmt;
                            fileSet = false;
                        }
                        case DW_LNE_SET_ADDRESS -> {
                            address = in.unsigned((int) Math.min(len - 1, 8));
                            opIndex = 0;
                        }
                        case DW_LNE_DEFINE_FILE -> {
                            String f = in.cstring();
                            long dir = in.uleb();
                            in.uleb();
                            in.uleb();
                            bound(in, files.size());
                            files.add(join(dirs, (int) Math.min(dir - 1, Integer.MAX_VALUE), f));
                        }
                        case DW_LNE_SET_DISCRIMINATOR -> discriminator = in.uleb();
                        default -> {
                            // vendor opcodes: nothing the rows keep
                        }
                    }
                    in.seek(start + len);
                }
                case DW_LNS_COPY -> {
                    emit(in, rows, new LineRow(address, file, line, column, isStmt, false, fileSet, discriminator));
                    discriminator = 0;
                }
                case DW_LNS_ADVANCE_PC -> {
                    long advance = in.uleb();
                    address += minInstLength * ((opIndex + advance) / ops);
                    opIndex = (int) ((opIndex + advance) % ops);
                }
                case DW_LNS_ADVANCE_LINE -> line += in.sleb();
                case DW_LNS_SET_FILE -> {
                    file = (int) Math.min(in.uleb(), Integer.MAX_VALUE);
                    fileSet = true;
                }
                case DW_LNS_SET_COLUMN -> column = in.uleb();
                case DW_LNS_NEGATE_STMT -> isStmt = !isStmt;
                case DW_LNS_SET_BASIC_BLOCK, DW_LNS_SET_PROLOGUE_END, DW_LNS_SET_EPILOGUE_BEGIN -> {
                    // flags the rows do not keep
                }
                case DW_LNS_CONST_ADD_PC -> {
                    long advance = (255 - opcodeBase) / lineRange;
                    address += minInstLength * ((opIndex + advance) / ops);
                    opIndex = (int) ((opIndex + advance) % ops);
                }
                case DW_LNS_FIXED_ADVANCE_PC -> {
                    address += in.u16();
                    opIndex = 0;
                }
                case DW_LNS_SET_ISA -> in.uleb();
                default -> {
                    // an opcode this reader does not know: the header says how many LEB128 operands it takes
                    for (int i = 0; i < opcodeLengths[op]; i++) {
                        in.uleb();
                    }
                }
            }
        }
    }

    private static void emit(DwarfInput in, List<LineRow> rows, LineRow r) throws DwarfException {
        if (rows.size() >= MAX_ROWS) {
            throw in.error(in.position(), "more than " + MAX_ROWS + " rows");
        }
        rows.add(r);
    }
}
