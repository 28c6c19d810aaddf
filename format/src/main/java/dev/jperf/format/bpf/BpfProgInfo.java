package dev.jperf.format.bpf;

import dev.jperf.format.btf.Btf;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One BPF program's struct bpf_prog_info (uapi bpf.h, 232 bytes in 6.1) with the arrays fetched
 * alongside it: what perf stores per program in HEADER_BPF_PROG_INFO.
 *
 * <p>Immutable. The info is kept little-endian with the pointer fields of the present arrays set
 * to 0 (they are addresses in the recorder's memory, or data-area offsets in a file; neither means
 * anything here); pointer fields of absent arrays are kept as they came. Two ways in:
 * {@link #fromKernel} (the recorder, after the two-pass BPF_OBJ_GET_INFO_BY_FD) and
 * {@link #readPerfBpil} (a perf.data section). One way out: {@link #toPerfBpil}, the layout perf
 * 6.1 writes and accepts.
 */
public final class BpfProgInfo {
    /** sizeof(struct bpf_prog_info) in the 6.1 UAPI and the 6.18 kernel; perf 6.1 rejects larger. */
    public static final int INFO_SIZE = BpfProgInfoLayout.SIZE;
    /** BPF_TAG_SIZE. */
    public static final int TAG_SIZE = BpfProgInfoLayout.BPF_TAG_SIZE;
    /** BPF_OBJ_NAME_LEN. */
    public static final int NAME_LEN = 16;
    /** perf_bpil header: u32 info_len, u32 data_len, u64 arrays. */
    public static final int BPIL_HEADER_SIZE = 16;
    private static final long KNOWN_ARRAYS = (1L << BpilArray.values().length) - 1;
    private static final HexFormat HEX = HexFormat.of();

    private final byte[] info;
    private final ByteBuffer ib;
    private final long arrays;
    private final byte[][] data;
    // decoded once: locate() runs per sample
    private final long[] ksyms;
    private final int[] funcLens;
    private final long[] jitedLines;
    private final List<BpfLineInfo> lines;
    private final int[] linesByAddress;

    private BpfProgInfo(byte[] info, long arrays, byte[][] data) {
        this.info = info;
        this.ib = ByteBuffer.wrap(info).order(ByteOrder.LITTLE_ENDIAN);
        this.arrays = arrays;
        this.data = data;
        checkRecordSizes();
        this.ksyms = decodeJitedKsyms();
        this.funcLens = decodeJitedFuncLens();
        this.jitedLines = decodeJitedLineInfo();
        this.lines = List.copyOf(decodeLineInfo());
        this.linesByAddress = sortLinesByAddress();
    }

    /**
     * Builds the value from what the kernel returned: {@code kernelInfo} = the bpf_prog_info of the
     * second OBJ_GET_INFO_BY_FD pass (as many bytes as the kernel wrote; missing tail = 0, bytes
     * past 232 are dropped because perf 6.1 refuses longer infos), {@code arrays} = the buffers that
     * pass filled, each exactly count x element size bytes as given by the counts and *_rec_size
     * fields in {@code kernelInfo}. Use {@link BpilArray#PERF_DEFAULT_MASK}'s arrays to match perf.
     */
    public static BpfProgInfo fromKernel(byte[] kernelInfo, Map<BpilArray, byte[]> arrays) {
        byte[] info = Arrays.copyOf(kernelInfo, INFO_SIZE);
        ByteBuffer b = ByteBuffer.wrap(info).order(ByteOrder.LITTLE_ENDIAN);
        byte[][] data = new byte[BpilArray.values().length][];
        long mask = 0;
        for (Map.Entry<BpilArray, byte[]> e : arrays.entrySet()) {
            BpilArray a = e.getKey();
            long want = byteLength(b, a);
            if (e.getValue().length != want) {
                throw new BpfFormatException("bpf_prog_info id " + Integer.toUnsignedString(b.getInt(BpfProgInfoLayout.ID)) + ": "
                        + a + " has " + e.getValue().length + " bytes, the info's count says " + want);
            }
            data[a.ordinal()] = e.getValue().clone();
            b.putLong(a.pointerOffset(), 0);
            mask |= a.mask();
        }
        return new BpfProgInfo(info, mask, data);
    }

    /**
     * Reads one perf_bpil entry (u32 info_len, u32 data_len, u64 arrays, info, data) at the
     * buffer's position and advances past it. Every length is checked against the bytes left
     * before anything is allocated; arrays must lie inside the data area.
     */
    public static BpfProgInfo readPerfBpil(ByteBuffer in) {
        ByteBuffer b = in.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        if (b.remaining() < BPIL_HEADER_SIZE) {
            throw new BpfFormatException("perf_bpil header truncated: " + b.remaining() + " bytes left");
        }
        long infoLen = Integer.toUnsignedLong(b.getInt());
        long dataLen = Integer.toUnsignedLong(b.getInt());
        long mask = b.getLong();
        if (infoLen + dataLen > b.remaining()) {
            throw new BpfFormatException("perf_bpil entry needs info_len " + infoLen + " + data_len " + dataLen
                    + " bytes, only " + b.remaining() + " left");
        }
        byte[] info = new byte[INFO_SIZE];
        b.get(info, 0, (int) Math.min(infoLen, INFO_SIZE));
        b.position(b.position() + (int) (infoLen - Math.min(infoLen, INFO_SIZE)));
        int dataStart = b.position();
        ByteBuffer ib = ByteBuffer.wrap(info).order(ByteOrder.LITTLE_ENDIAN);
        byte[][] data = new byte[BpilArray.values().length][];
        mask &= KNOWN_ARRAYS;
        for (BpilArray a : BpilArray.values()) {
            if ((mask & a.mask()) == 0) {
                continue;
            }
            long off = ib.getLong(a.pointerOffset());
            long len = byteLength(ib, a);
            if (off < 0 || off > dataLen || len > dataLen - off) {
                throw new BpfFormatException("bpf_prog_info id " + Integer.toUnsignedString(ib.getInt(BpfProgInfoLayout.ID)) + ": " + a
                        + " at data offset " + Long.toUnsignedString(off) + " with " + len
                        + " bytes lies outside data_len " + dataLen);
            }
            byte[] arr = new byte[(int) len];
            b.get(dataStart + (int) off, arr);
            data[a.ordinal()] = arr;
            ib.putLong(a.pointerOffset(), 0);
        }
        in.position(in.position() + BPIL_HEADER_SIZE + (int) infoLen + (int) dataLen);
        return new BpfProgInfo(info, mask, data);
    }

    /** count x element size of array {@code a} according to the info's fields (u32 x u32: fits a long). */
    private static long byteLength(ByteBuffer info, BpilArray a) {
        long count = Integer.toUnsignedLong(info.getInt(a.countOffset()));
        long size = a.recSizeOffset() >= 0 ? Integer.toUnsignedLong(info.getInt(a.recSizeOffset())) : a.fixedSize();
        return count * size;
    }

    private void checkRecordSizes() {
        checkRecSize(BpilArray.FUNC_INFO, BpfFuncInfo.SIZE);
        checkRecSize(BpilArray.LINE_INFO, BpfLineInfo.SIZE);
        checkRecSize(BpilArray.JITED_LINE_INFO, 8);
    }

    private void checkRecSize(BpilArray a, int min) {
        if (has(a) && u32(a.countOffset()) > 0 && u32(a.recSizeOffset()) < min) {
            throw new BpfFormatException("bpf_prog_info id " + id() + ": " + a + " record size "
                    + u32(a.recSizeOffset()) + " < " + min);
        }
    }

    /** Size of this entry's data area in perf's layout: each present array padded to 8 bytes. */
    public int dataLen() {
        long n = 0;
        for (BpilArray a : BpilArray.values()) {
            if (has(a)) {
                n += pad8(data[a.ordinal()].length);
            }
        }
        return Math.toIntExact(n);
    }

    /**
     * The perf_bpil entry as perf 6.1 writes it: info_len 232, data_len, the arrays mask, the info
     * with each present array's pointer replaced by its offset in the data area, then the arrays
     * in bit order, each zero-padded to 8 bytes. Little-endian.
     */
    public byte[] toPerfBpil() {
        int dataLen = dataLen();
        ByteBuffer out = ByteBuffer.allocate(BPIL_HEADER_SIZE + INFO_SIZE + dataLen).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(INFO_SIZE).putInt(dataLen).putLong(arrays);
        int infoStart = out.position();
        out.put(info);
        int dataStart = out.position();
        long off = 0;
        for (BpilArray a : BpilArray.values()) {
            if (has(a)) {
                out.putLong(infoStart + a.pointerOffset(), off);
                out.put(dataStart + (int) off, data[a.ordinal()]);
                off += pad8(data[a.ordinal()].length);
            }
        }
        return out.array();
    }

    private static long pad8(long n) {
        return (n + 7) & ~7L;
    }

    // ---- struct bpf_prog_info fields (uapi names) ----

    private long u32(int off) {
        return Integer.toUnsignedLong(ib.getInt(off));
    }

    /** The 232 info bytes (little-endian; pointer fields of present arrays are 0). */
    public byte[] info() {
        return info.clone();
    }

    public int type() {
        return ib.getInt(BpfProgInfoLayout.TYPE);
    }

    public int id() {
        return ib.getInt(BpfProgInfoLayout.ID);
    }

    public byte[] tag() {
        return Arrays.copyOfRange(info, BpfProgInfoLayout.TAG, BpfProgInfoLayout.TAG + TAG_SIZE);
    }

    /** The program tag as 16 hex digits (what KSYMBOL names and BPF_EVENT carry). */
    public String tagHex() {
        return HEX.formatHex(info, BpfProgInfoLayout.TAG, BpfProgInfoLayout.TAG + TAG_SIZE);
    }

    public int jitedProgLen() {
        return ib.getInt(BpfProgInfoLayout.JITED_PROG_LEN);
    }

    public int xlatedProgLen() {
        return ib.getInt(BpfProgInfoLayout.XLATED_PROG_LEN);
    }

    /** ns since boot (CLOCK_BOOTTIME). */
    public long loadTime() {
        return ib.getLong(BpfProgInfoLayout.LOAD_TIME);
    }

    public int createdByUid() {
        return ib.getInt(BpfProgInfoLayout.CREATED_BY_UID);
    }

    public int nrMapIds() {
        return ib.getInt(BpfProgInfoLayout.NR_MAP_IDS);
    }

    /** prog_name: at most 15 characters, "" when unnamed. */
    public String name() {
        int n = 0;
        while (n < NAME_LEN && info[BpfProgInfoLayout.NAME + n] != 0) {
            n++;
        }
        return new String(info, BpfProgInfoLayout.NAME, n, StandardCharsets.UTF_8);
    }

    public int ifindex() {
        return ib.getInt(BpfProgInfoLayout.IFINDEX);
    }

    public boolean gplCompatible() {
        return (ib.getInt(BpfProgInfoLayout.GPL_COMPATIBLE) & 1) != 0;
    }

    public long netnsDev() {
        return ib.getLong(BpfProgInfoLayout.NETNS_DEV);
    }

    public long netnsIno() {
        return ib.getLong(BpfProgInfoLayout.NETNS_INO);
    }

    public int nrJitedKsyms() {
        return ib.getInt(BpfProgInfoLayout.NR_JITED_KSYMS);
    }

    public int nrJitedFuncLens() {
        return ib.getInt(BpfProgInfoLayout.NR_JITED_FUNC_LENS);
    }

    public int btfId() {
        return ib.getInt(BpfProgInfoLayout.BTF_ID);
    }

    public int funcInfoRecSize() {
        return ib.getInt(BpfProgInfoLayout.FUNC_INFO_REC_SIZE);
    }

    public int nrFuncInfo() {
        return ib.getInt(BpfProgInfoLayout.NR_FUNC_INFO);
    }

    public int nrLineInfo() {
        return ib.getInt(BpfProgInfoLayout.NR_LINE_INFO);
    }

    public int nrJitedLineInfo() {
        return ib.getInt(BpfProgInfoLayout.NR_JITED_LINE_INFO);
    }

    public int lineInfoRecSize() {
        return ib.getInt(BpfProgInfoLayout.LINE_INFO_REC_SIZE);
    }

    public int jitedLineInfoRecSize() {
        return ib.getInt(BpfProgInfoLayout.JITED_LINE_INFO_REC_SIZE);
    }

    public int nrProgTags() {
        return ib.getInt(BpfProgInfoLayout.NR_PROG_TAGS);
    }

    public long runTimeNs() {
        return ib.getLong(BpfProgInfoLayout.RUN_TIME_NS);
    }

    public long runCnt() {
        return ib.getLong(BpfProgInfoLayout.RUN_CNT);
    }

    public long recursionMisses() {
        return ib.getLong(BpfProgInfoLayout.RECURSION_MISSES);
    }

    public int verifiedInsns() {
        return ib.getInt(BpfProgInfoLayout.VERIFIED_INSNS);
    }

    public int attachBtfObjId() {
        return ib.getInt(BpfProgInfoLayout.ATTACH_BTF_OBJ_ID);
    }

    public int attachBtfId() {
        return ib.getInt(BpfProgInfoLayout.ATTACH_BTF_ID);
    }

    // ---- arrays ----

    /** The PERF_BPIL mask of the arrays held. */
    public long arrays() {
        return arrays;
    }

    public boolean has(BpilArray a) {
        return (arrays & a.mask()) != 0;
    }

    /** The raw bytes of array {@code a} (count x element size), empty if not held. */
    public byte[] array(BpilArray a) {
        return has(a) ? data[a.ordinal()].clone() : new byte[0];
    }

    private ByteBuffer arr(BpilArray a) {
        return has(a) ? ByteBuffer.wrap(data[a.ordinal()]).order(ByteOrder.LITTLE_ENDIAN) : ByteBuffer.allocate(0);
    }

    /** JITed machine code of all functions, concatenated in function order. */
    public byte[] jitedProgInsns() {
        return array(BpilArray.JITED_INSNS);
    }

    public byte[] xlatedProgInsns() {
        return array(BpilArray.XLATED_INSNS);
    }

    public int[] mapIds() {
        ByteBuffer b = arr(BpilArray.MAP_IDS);
        int[] r = new int[b.remaining() / 4];
        b.asIntBuffer().get(r);
        return r;
    }

    /** Start address of each JITed function (function 0 = the main program). */
    public long[] jitedKsyms() {
        return ksyms.clone();
    }

    private long[] decodeJitedKsyms() {
        ByteBuffer b = arr(BpilArray.JITED_KSYMS);
        long[] r = new long[b.remaining() / 8];
        b.asLongBuffer().get(r);
        return r;
    }

    public int[] jitedFuncLens() {
        return funcLens.clone();
    }

    private int[] decodeJitedFuncLens() {
        ByteBuffer b = arr(BpilArray.JITED_FUNC_LENS);
        int[] r = new int[b.remaining() / 4];
        b.asIntBuffer().get(r);
        return r;
    }

    public List<BpfFuncInfo> funcInfo() {
        ByteBuffer b = arr(BpilArray.FUNC_INFO);
        int n = has(BpilArray.FUNC_INFO) ? nrFuncInfo() : 0;
        List<BpfFuncInfo> r = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int p = i * funcInfoRecSize();
            r.add(new BpfFuncInfo(b.getInt(p), b.getInt(p + 4)));
        }
        return r;
    }

    public List<BpfLineInfo> lineInfo() {
        return lines;
    }

    private List<BpfLineInfo> decodeLineInfo() {
        ByteBuffer b = arr(BpilArray.LINE_INFO);
        int n = has(BpilArray.LINE_INFO) ? nrLineInfo() : 0;
        List<BpfLineInfo> r = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int p = i * lineInfoRecSize();
            r.add(new BpfLineInfo(b.getInt(p), b.getInt(p + 4), b.getInt(p + 8), b.getInt(p + 12)));
        }
        return r;
    }

    /** JIT address of each line_info entry (same index). */
    public long[] jitedLineInfo() {
        return jitedLines.clone();
    }

    private long[] decodeJitedLineInfo() {
        ByteBuffer b = arr(BpilArray.JITED_LINE_INFO);
        int n = has(BpilArray.JITED_LINE_INFO) ? nrJitedLineInfo() : 0;
        long[] r = new long[n];
        for (int i = 0; i < n; i++) {
            r[i] = b.getLong(i * jitedLineInfoRecSize());
        }
        return r;
    }

    /** Number of prog_tags held (one per JITed function). */
    public int progTagCount() {
        return data[BpilArray.PROG_TAGS.ordinal()] == null ? 0 : data[BpilArray.PROG_TAGS.ordinal()].length / TAG_SIZE;
    }

    /** prog_tags[i] as 16 hex digits. */
    public String progTagHex(int i) {
        if (i < 0 || i >= progTagCount()) {
            throw new IndexOutOfBoundsException("prog_tags[" + i + "] of " + progTagCount());
        }
        return HEX.formatHex(data[BpilArray.PROG_TAGS.ordinal()], i * TAG_SIZE, (i + 1) * TAG_SIZE);
    }

    // ---- names and address lookup ----

    /**
     * Whether the subprogram arrays agree (nr_jited_ksyms == nr_prog_tags == nr_jited_func_lens and
     * all three are held): perf skips a program otherwise, and so do the helpers below.
     */
    public boolean hasSubprogs() {
        int n = nrJitedKsyms();
        return has(BpilArray.JITED_KSYMS) && has(BpilArray.JITED_FUNC_LENS) && has(BpilArray.PROG_TAGS)
                && n == nrProgTags() && n == nrJitedFuncLens() && n > 0;
    }

    /** Number of JITed functions (main program + subprograms); 0 if the arrays disagree. */
    public int subprogCount() {
        return hasSubprogs() ? nrJitedKsyms() : 0;
    }

    private Optional<String> btfFuncName(int i, Btf btf) {
        List<BpfFuncInfo> fi = funcInfo();
        return btf == null || i >= fi.size() ? Optional.empty() : fi.get(i).name(btf);
    }

    /**
     * perf's name for function {@code i} (synthesize_bpf_prog_name: its synthesized KSYMBOLs and
     * the header print): {@code bpf_prog_<prog_tags[i]>} + {@code _<BTF FUNC name>} when
     * {@code btf} (the program's BTF, may be null) names it; else {@code _<prog name>} for a named
     * one-function program; else {@code _F} for a multi-function program; else nothing.
     */
    public String perfName(int i, Btf btf) {
        String base = "bpf_prog_" + progTagHex(i);
        Optional<String> func = btfFuncName(i, btf);
        if (btf != null && func.isPresent()) {
            return base + "_" + func.get();
        }
        if (i == 0 && nrJitedKsyms() == 1) {
            return name().isEmpty() ? base : base + "_" + name();
        }
        return base + "_F";
    }

    /**
     * The kernel's name for function {@code i} (what KSYMBOL records and /proc/kallsyms show):
     * function 0 uses the program tag, subprograms their prog_tags[i]; suffix = BTF FUNC name,
     * else the program name, else none. Differs from {@link #perfName} for function 0 of
     * multi-function programs (prog_tags[0] != tag).
     */
    public String kernelName(int i, Btf btf) {
        String base = "bpf_prog_" + (i == 0 ? tagHex() : progTagHex(i));
        Optional<String> func = btfFuncName(i, btf);
        if (func.isPresent()) {
            return base + "_" + func.get();
        }
        return name().isEmpty() ? base : base + "_" + name();
    }

    /** The function holding {@code ip} and its line record (see {@link BpfLocation}); empty if outside. */
    public Optional<BpfLocation> locate(long ip) {
        int n = subprogCount();
        for (int i = 0; i < n; i++) {
            long start = ksyms[i];
            long end = start + Integer.toUnsignedLong(funcLens[i]);
            if (Long.compareUnsigned(ip, start) >= 0 && Long.compareUnsigned(ip, end) < 0) {
                return Optional.of(new BpfLocation(i, lineAt(ip, start)));
            }
        }
        return Optional.empty();
    }

    /** The last line record (by index) with the greatest JIT address in [start, ip] (libbpf's bpf_prog_linfo rule). */
    private int lineAt(long ip, long start) {
        int[] order = linesByAddress;
        int lo = 0;
        int hi = order.length - 1;
        int found = -1;
        while (lo <= hi) { // last position whose address is <= ip
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(jitedLines[order[mid]], ip) <= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (found < 0 || Long.compareUnsigned(jitedLines[order[found]], start) < 0) {
            return -1; // no line record between the function start and ip
        }
        return order[found];
    }

    /** Line record indexes sorted by JIT address, then index (so the last of equal addresses wins); empty if the counts disagree. */
    private int[] sortLinesByAddress() {
        if (jitedLines.length != lines.size()) {
            return new int[0];
        }
        // no lambda: the recorder builds these as programs load, and its path links no invokedynamic
        Integer[] idx = new Integer[jitedLines.length];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = i;
        }
        java.util.Arrays.sort(idx, new ByAddress(jitedLines));
        int[] out = new int[idx.length];
        for (int i = 0; i < idx.length; i++) {
            out[i] = idx[i];
        }
        return out;
    }

    /** Line record indexes by JIT address, then by index. */
    private static final class ByAddress implements java.util.Comparator<Integer> {
        private final long[] addresses;

        ByAddress(long[] addresses) {
            this.addresses = addresses;
        }

        @Override
        public int compare(Integer a, Integer b) {
            int c = Long.compareUnsigned(addresses[a], addresses[b]);
            return c != 0 ? c : Integer.compare(a, b);
        }
    }

    /** The source line of {@code ip} resolved with the program's BTF, if there is one. */
    public Optional<BpfSourceLine> sourceLine(long ip, Btf btf) {
        return locate(ip).filter(BpfLocation::hasLine).map(l -> lines.get(l.lineIndex()).resolve(btf));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BpfProgInfo p && arrays == p.arrays && Arrays.equals(info, p.info)
                && Arrays.deepEquals(data, p.data);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(info) * 31 + Long.hashCode(arrays);
    }

    @Override
    public String toString() {
        return "BpfProgInfo[id=" + Integer.toUnsignedString(id()) + ", name=" + name() + ", tag=" + tagHex()
                + ", functions=" + nrJitedKsyms() + ", lines=" + nrLineInfo() + ", btf_id=" + btfId() + "]";
    }
}
