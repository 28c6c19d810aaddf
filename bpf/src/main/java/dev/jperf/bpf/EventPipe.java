package dev.jperf.bpf;

import dev.jperf.format.io.ProcFs;
import com.sun.jna.Memory;
import dev.jperf.format.header.CpuList;
import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.format.bpf.BpfMapInfoLayout;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.Ioctl;
import dev.jperf.nativeshim.Mman;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.nativeshim.PerfEventOpen;
import dev.jperf.nativeshim.Poll;
import dev.jperf.nativeshim.RingBuffer;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * {@code bpftool map event_pipe MAP [cpu N index M]} (map_perf_ring.c of bpftool 7.1 over
 * libbpf 1.1's perf_buffer__new_raw): a bpf-output event per online CPU (or the one CPU given)
 * set in the perf event array at its CPU's index (or the index given), each ring read as
 * bpftool prints it until a signal stops it.
 */
public final class EventPipe {
    /** bpftool's MMAP_PAGE_CNT: data pages per ring. */
    private static final int PAGES = 16;
    private static final int PAGE = Mman.pageSize();
    private static final int PERF_RECORD_LOST = 2, PERF_RECORD_SAMPLE = 9;

    private final KernelObjects kernel = new KernelObjects();
    private final Output o;
    private final PrintStream err;

    /** {@code err} takes bpftool's "Stopping..." line. */
    public EventPipe(Output output, PrintStream err) {
        this.o = output;
        this.err = err;
    }

    /** One CPU's event and ring. */
    private record Ring(int cpu, int index, RingBuffer ring) {}

    /** do_event_pipe, until {@code stop} opens. */
    public void run(List<String> args, CountDownLatch stop) {
        if (args.size() < 2) {
            throw new BpftoolException("expected 'id', 'name' or 'pinned', got: '" + (args.isEmpty() ? "(null)" : args.get(0))
                    + "'?");
        }
        int mapFd = new MapElemCommands(o).openOne(BpfHandle.parse(args, 0, "map"));
        List<Ring> rings = new ArrayList<>();
        try {
            BpfMapInfo info = BpfMapInfo.decode(kernel.info(mapFd, new Memory(BpfMapInfoLayout.SIZE),
                    BpfMapInfoLayout.SIZE, true));
            if (info.type() != dev.jperf.format.bpf.Uapi.BPF_MAP_TYPE_PERF_EVENT_ARRAY) {
                throw new BpftoolException("map is not a perf event array");
            }
            long cpu = -1, idx = -1;
            boolean all = true;
            for (int i = 2; i < args.size(); i += 2) {
                String w = args.get(i);
                if (i + 1 >= args.size()) {
                    throw new BpftoolException("what is '" + w + "'?");
                }
                String v = args.get(i + 1);
                Long n = MapElemCommands.strtoul(v, 0);
                if ("cpu".startsWith(w)) {
                    if (n == null) {
                        throw new BpftoolException("can't parse " + v + " as CPU ID");
                    }
                    cpu = (int) (long) n;
                } else if ("index".startsWith(w)) {
                    if (n == null) {
                        throw new BpftoolException("can't parse " + v + " as index");
                    }
                    idx = (int) (long) n;
                } else {
                    throw new BpftoolException("what is '" + w + "'?");
                }
                all = false;
            }
            if (!all && (idx == -1 || cpu == -1)) {
                throw new BpftoolException("cpu and index must be specified together");
            }
            open(mapFd, info, all, (int) cpu, (int) idx, rings);
            read(rings, stop);
        } finally {
            for (Ring r : rings) {
                r.ring().close();
                Fd.close(r.ring().fd());
            }
            Fd.close(mapFd);
        }
    }

    /** __perf_buffer__new: the events opened, mapped, enabled and set in the array. */
    private void open(int mapFd, BpfMapInfo info, boolean all, int cpu, int idx, List<Ring> rings) {
        try {
            if (!all) {
                rings.add(ring(mapFd, cpu, idx));
                return;
            }
            int n = PossibleCpus.count();
            if (info.maxEntries() != 0 && Integer.toUnsignedLong(info.maxEntries()) < n) {
                n = info.maxEntries();
            }
            Set<Integer> online = online();
            for (int c = 0; c < n; c++) {
                if (online.contains(c)) {
                    rings.add(ring(mapFd, c, c));
                }
            }
        } catch (NativeException e) {
            throw new BpftoolException("failed to create perf buffer: " + Errno.text(e.errno()) + " (" + e.errno() + ")");
        }
    }

    private static Set<Integer> online() {
        try {
            return Set.copyOf(CpuList.parse(ProcFs.readText(Path.of("/sys/devices/system/cpu/online"))));
        } catch (IOException | IllegalArgumentException e) {
            throw new BpftoolException("failed to create perf buffer: " + Errno.text(Errno.ENOENT) + " (" + Errno.ENOENT + ")");
        }
    }

    /** perf_buffer__open_cpu_buf, then the array's element {@code idx} set to the event. */
    private Ring ring(int mapFd, int cpu, int idx) {
        ByteBuffer attr = PerfEventAttr.open(PerfEventAttr.PERF_TYPE_SOFTWARE, PerfEventAttr.PERF_COUNT_SW_BPF_OUTPUT);
        attr.putLong(PerfEventAttr.SAMPLE_PERIOD, 1);
        attr.putLong(PerfEventAttr.SAMPLE_TYPE, PerfEventAttr.PERF_SAMPLE_RAW | PerfEventAttr.PERF_SAMPLE_TIME);
        attr.putInt(PerfEventAttr.WAKEUP_EVENTS, 1);
        int fd = PerfEventOpen.open(attr, -1, cpu, -1, 8 /* PERF_FLAG_FD_CLOEXEC */, "bpf-output");
        RingBuffer ring;
        try {
            ring = RingBuffer.map(fd, cpu, PAGES, PAGE);
        } catch (NativeException e) {
            Fd.close(fd);
            throw e;
        }
        Ring r = new Ring(cpu, idx, ring);
        try {
            Ioctl.enable(fd);
            byte[] key = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, idx).array();
            byte[] value = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, fd).array();
            int e = kernel.bpf.mapUpdateElem(mapFd, key, value);
            if (e < 0) {
                throw new NativeException("bpf(BPF_MAP_UPDATE_ELEM)", -e);
            }
        } catch (NativeException e) {
            ring.close();
            Fd.close(fd);
            throw e;
        }
        return r;
    }

    /** The poll loop: every ring drained after each wake (200 ms at most), until {@code stop}. */
    private void read(List<Ring> rings, CountDownLatch stop) {
        int[] fds = new int[rings.size()];
        for (int i = 0; i < fds.length; i++) {
            fds[i] = rings.get(i).ring().fd();
        }
        Poll poll = new Poll(fds, Poll.POLLIN);
        if (o.json()) {
            o.jw().startArray();
        }
        while (stop.getCount() > 0) {
            poll.poll(200);
            for (Ring r : rings) {
                drain(r);
            }
            o.flush();
        }
        err.println("Stopping...");
        if (o.json()) {
            o.jw().endArray();
        }
    }

    /** perf_event_read_simple: each record from tail to head through the shared ring reader. */
    private void drain(Ring r) {
        r.ring().drain((buf, offset, address, size, type, misc) ->
                print(r, type, buf.slice(offset, size).order(ByteOrder.LITTLE_ENDIAN)));
    }

    /** print_bpf_output. */
    private void print(Ring r, int type, ByteBuffer e) {
        int size = e.getShort(6) & 0xffff;
        if (o.json()) {
            var jw = o.jw();
            jw.startObject();
            jw.name("type");
            jw.uint(Integer.toUnsignedLong(type));
            jw.name("cpu");
            jw.uint(r.cpu());
            jw.name("index");
            jw.uint(Integer.toUnsignedLong(r.index()));
            if (type == PERF_RECORD_SAMPLE) {
                jw.name("timestamp");
                jw.raw(Long.toUnsignedString(e.getLong(8)));
                jw.name("data");
                int n = e.getInt(16);
                jw.startArray();
                for (int i = 0; i < n; i++) {
                    jw.raw(Integer.toString(e.get(20 + i) & 0xff));
                }
                jw.endArray();
            } else if (type == PERF_RECORD_LOST) {
                jw.name("lost");
                jw.startObject();
                jw.name("id");
                jw.raw(Long.toUnsignedString(e.getLong(8)));
                jw.name("count");
                jw.raw(Long.toUnsignedString(e.getLong(16)));
                jw.endObject();
            }
            jw.endObject();
            return;
        }
        StringBuilder out = o.out();
        if (type == PERF_RECORD_SAMPLE) {
            long t = e.getLong(8);
            String ns = Long.toString(t % 1_000_000_000L);
            out.append("== @").append(t / 1_000_000_000L).append('.').append("000000000", 0, 9 - ns.length()).append(ns)
                    .append(" CPU: ").append(r.cpu()).append(" index: ").append(r.index()).append(" =====\n");
            int n = e.getInt(16);
            byte[] data = new byte[n];
            e.get(20, data);
            Hex.plain(out, data, 0, n, " ");
            out.append('\n');
        } else if (type == PERF_RECORD_LOST) {
            out.append("lost ").append(e.getLong(16)).append(" events\n");
        } else {
            out.append("unknown event type=").append(type).append(" size=").append(size).append('\n');
        }
    }
}
