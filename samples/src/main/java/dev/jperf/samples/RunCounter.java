package dev.jperf.samples;

import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.format.bpf.BpfProgInfoLayout;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.Ioctl;
import dev.jperf.nativeshim.PerfEventOpen;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.jperf.format.bpf.Uapi;
import java.io.IOException;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A program that counts its own runs in slot 0 of an array map (an atomic add), built from raw
 * instructions: the kernel's own count to check jperf's numbers against. Attached with raw_tp to
 * {@code sys_enter} (it runs on every syscall of the machine), or as a uprobe on one function of
 * one binary (it runs only when that function does: a count no other process disturbs). Closing
 * it detaches and unloads the program and frees the map.
 */
public final class RunCounter implements AutoCloseable {
    public static final String NAME = "jperf_runs";
    public static final String TRACEPOINT = "sys_enter";

    private final Bpf bpf = new Bpf();
    private final int mapFd;
    private final int progFd;
    private final int linkFd;
    private final int id;

    private RunCounter(int mapFd, int progFd, int linkFd, int id) {
        this.mapFd = mapFd;
        this.progFd = progFd;
        this.linkFd = linkFd;
        this.id = id;
    }

    /** Loads the map and program and attaches it to every syscall entry. */
    public static RunCounter attach() throws IOException {
        return load(Uapi.BPF_PROG_TYPE_RAW_TRACEPOINT, null, 0);
    }

    /**
     * Loads the map and program and attaches it as a uprobe at {@code offset} (a file offset)
     * in {@code binary}, in every process that maps it (the uprobe PMU's perf event, then
     * PERF_EVENT_IOC_SET_BPF).
     */
    public static RunCounter attachUprobe(Path binary, long offset) throws IOException {
        return load(Uapi.BPF_PROG_TYPE_KPROBE, binary, offset);
    }

    private static RunCounter load(int progType, Path binary, long offset) throws IOException {
        Bpf bpf = new Bpf();
        int map = bpf.mapCreate(Uapi.BPF_MAP_TYPE_ARRAY, 4, 8, 1, "jperf_runs");
        int prog = -1;
        try {
            prog = bpf.progLoad(progType, instructions(map), "GPL", NAME);
            int link = binary == null ? bpf.rawTracepointOpen(TRACEPOINT, prog) : uprobe(binary, offset, prog);
            Memory info = new Memory(BpfProgInfoLayout.SIZE);
            info.clear();
            bpf.objGetInfoByFd(prog, info, BpfProgInfoLayout.SIZE);
            return new RunCounter(map, prog, link, info.getInt(BpfProgInfoLayout.ID));
        } catch (RuntimeException | IOException e) {
            Fd.close(prog);
            Fd.close(map);
            throw e;
        }
    }

    /** A uprobe perf event (config1: the path, config2: the offset) running {@code prog}; its fd. */
    private static int uprobe(Path binary, long offset, int prog) throws IOException {
        int type = Integer.parseInt(Files.readString(Path.of("/sys/bus/event_source/devices/uprobe/type")).strip());
        byte[] name = binary.toString().getBytes(StandardCharsets.UTF_8);
        Memory path = new Memory(name.length + 1);
        path.write(0, name, 0, name.length);
        path.setByte(name.length, (byte) 0);
        ByteBuffer attr = PerfEventAttr.open(type, 0);
        attr.putLong(PerfEventAttr.SAMPLE_PERIOD, 1);
        attr.putLong(PerfEventAttr.CONFIG1, Pointer.nativeValue(path));
        attr.putLong(PerfEventAttr.CONFIG2, offset);
        int fd = PerfEventOpen.open(attr, -1, 0, -1, PerfEventAttr.PERF_FLAG_FD_CLOEXEC, "uprobe " + binary);
        // the kernel copied the path during the open: the Memory only has to outlive the call
        Reference.reachabilityFence(path);
        try {
            Ioctl.setBpf(fd, prog);
            Ioctl.enable(fd);
        } catch (RuntimeException e) {
            Fd.close(fd);
            throw e;
        }
        return fd;
    }

    /**
     * r1 = map; *(u32 *)(r10 - 4) = 0; r2 = r10 - 4; r0 = bpf_map_lookup_elem(r1, r2);
     * if r0 == 0 goto out; lock *(u64 *)(r0 + 0) += 1; out: r0 = 0; exit
     */
    static byte[] instructions(int mapFd) {
        ByteBuffer b = ByteBuffer.allocate(11 * 8).order(ByteOrder.LITTLE_ENDIAN);
        insn(b, 0x18, 1, 1, 0, mapFd); // ld_imm64 r1, map fd (BPF_PSEUDO_MAP_FD)
        insn(b, 0, 0, 0, 0, 0);
        insn(b, 0x62, 10, 0, -4, 0); // *(u32 *)(r10 - 4) = 0
        insn(b, 0xbf, 2, 10, 0, 0); // r2 = r10
        insn(b, 0x07, 2, 0, 0, -4); // r2 += -4
        insn(b, 0x85, 0, 0, 0, 1); // call bpf_map_lookup_elem
        insn(b, 0x15, 0, 0, 2, 0); // if r0 == 0 goto +2
        insn(b, 0xb7, 1, 0, 0, 1); // r1 = 1
        insn(b, 0xdb, 0, 1, 0, 0); // lock *(u64 *)(r0 + 0) += r1
        insn(b, 0xb7, 0, 0, 0, 0); // r0 = 0
        insn(b, 0x95, 0, 0, 0, 0); // exit
        return b.array();
    }

    private static void insn(ByteBuffer b, int code, int dst, int src, int off, int imm) {
        b.put((byte) code).put((byte) (dst | src << 4)).putShort((short) off).putInt(imm);
    }

    /**
     * For scripts (bench/stat.sh): attaches to sys_enter, prints the program's id, and keeps it
     * attached until stdin ends.
     */
    public static void main(String[] args) throws IOException {
        try (RunCounter c = attach()) {
            System.out.println(c.id());
            System.out.flush();
            while (System.in.read() >= 0) {
                // attached until stdin ends
            }
        }
    }

    /** The program's id. */
    public int id() {
        return id;
    }

    /** How many times the program has run since it was loaded (its map's slot 0). */
    public long runs() {
        return ByteBuffer.wrap(bpf.mapLookupElem(mapFd, new byte[4], 8)).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    /** The kernel's run_time_ns and run_cnt for the program (counted while BPF stats are enabled). */
    public long[] kernelStats() {
        Memory info = new Memory(BpfProgInfoLayout.SIZE);
        info.clear();
        bpf.objGetInfoByFd(progFd, info, BpfProgInfoLayout.SIZE);
        return new long[] {info.getLong(BpfProgInfoLayout.RUN_TIME_NS), info.getLong(BpfProgInfoLayout.RUN_CNT)};
    }

    @Override
    public void close() {
        Fd.close(linkFd);
        Fd.close(progFd);
        Fd.close(mapFd);
    }
}
