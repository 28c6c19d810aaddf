package dev.jperf.recorder.stat;

import dev.jperf.format.bpf.Uapi;
import dev.jperf.loader.BpfMap;
import dev.jperf.loader.BpfObject;
import dev.jperf.loader.BpfObjectException;
import dev.jperf.loader.BpfProgram;
import dev.jperf.loader.LoadOptions;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One run's follower of a leader (samples/bpf/bperf_follower.bpf.c): an fexit program on the
 * leader's on_switch adding the leader's diff readings to this run's accum_readings, slot by the
 * filter (perf's bperf_follower). Loaded, attached and, from {@link #enable}, counting until
 * {@link #close}, which unloads it.
 */
final class BperfFollower implements AutoCloseable {
    static final String OBJECT = "bperf_follower.bpf.o";
    static final String PROGRAM = "fexit_on_switch";

    /** enum bperf_filter_type */
    enum Filter {
        GLOBAL(1), CPU(2), PID(3), TGID(4);

        final int value;

        Filter(int value) {
            this.value = value;
        }
    }

    private final BpfObject object;
    private final int linkFd;
    private final Filter filter;
    private final int slots;
    private final int possibleCpus;

    private BperfFollower(BpfObject object, int linkFd, Filter filter, int slots, int possibleCpus) {
        this.object = object;
        this.linkFd = linkFd;
        this.filter = filter;
        this.slots = slots;
        this.possibleCpus = possibleCpus;
    }

    /**
     * Loads and attaches a follower of {@code leader} counting, per filter key in {@code keys}
     * (CPUs, tids or tgids; none for {@link Filter#GLOBAL}), into a slot of its own.
     */
    static BperfFollower load(BperfLeader leader, Filter filter, int[] keys, int possibleCpus) {
        BpfObject o = null;
        int link = -1;
        try {
            o = BpfObject.open(OBJECT, BperfLeader.resource(OBJECT));
            BpfProgram p = o.program(PROGRAM);
            p.setAttachTarget(leader.progFd(), BperfLeader.PROGRAM);
            o.map(BperfLeader.DIFF_MAP).reuseFd(leader.diffMapFd(), Uapi.BPF_MAP_TYPE_PERCPU_ARRAY, 4,
                    BperfLeader.READING_SIZE);
            int slots = filter == Filter.GLOBAL ? 1 : keys.length;
            o.map("accum_readings").setMaxEntries(slots);
            o.map("filter").setMaxEntries(slots);
            BpfMap bss = bss(o);
            bss.setInitialValue(control(filter, false));
            o.load(LoadOptions.DEFAULT);
            if (p.fd() < 0) {
                throw new StatException("--bpf-counters: the kernel refused the follower (fexit on the leader's "
                        + BperfLeader.PROGRAM + ", prog id " + leader.progId() + "): " + Errno.name(p.errno()) + ": "
                        + Errno.text(p.errno()));
            }
            Bpf bpf = new Bpf();
            if (filter != Filter.GLOBAL) {
                for (int i = 0; i < keys.length; i++) {
                    int err = bpf.mapUpdateElem(o.map("filter").fd(), BperfLeader.u32(keys[i]), BperfLeader.u32(i));
                    if (err < 0) {
                        throw new StatException("--bpf-counters: cannot set the follower's filter: " + Errno.describe(-err));
                    }
                }
            }
            try {
                link = bpf.rawTracepointOpen(null, p.fd());
            } catch (NativeException e) {
                throw new StatException("--bpf-counters: cannot attach the follower to the leader: " + e.getMessage(), e);
            }
            BperfFollower f = new BperfFollower(o, link, filter, slots, possibleCpus);
            o = null;
            return f;
        } catch (BpfObjectException e) {
            throw new StatException("--bpf-counters: cannot load the follower object: " + e.getMessage(), e);
        } finally {
            if (o != null) {
                Fd.close(link);
                o.close();
            }
        }
    }

    private static BpfMap bss(BpfObject o) {
        for (BpfMap m : o.maps()) {
            if (m.internal() == BpfMap.Internal.BSS) {
                return m;
            }
        }
        throw new StatException("--bpf-counters: " + OBJECT + " has no .bss");
    }

    /** struct bperf_control: type, enabled */
    private static byte[] control(Filter filter, boolean enabled) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(filter.value).putInt(enabled ? 1 : 0).array();
    }

    /** bperf__enable: the follower starts adding. */
    void enable() {
        set(true);
    }

    void disable() {
        set(false);
    }

    private void set(boolean on) {
        int err = new Bpf().mapUpdateElem(bss(object).fd(), new byte[4], control(filter, on));
        if (err < 0) {
            throw new StatException("--bpf-counters: cannot switch the follower: " + Errno.describe(-err));
        }
    }

    /** bperf__read: accum_readings summed over slots and CPUs. */
    CounterValues read() {
        Bpf bpf = new Bpf();
        int fd = object.map("accum_readings").fd();
        CounterValues sum = CounterValues.ZERO;
        for (int i = 0; i < slots; i++) {
            sum = sum.plus(CounterValues.sumPerCpu(bpf.mapLookupElem(fd, BperfLeader.u32(i),
                    possibleCpus * BperfLeader.READING_SIZE), possibleCpus));
        }
        return sum;
    }

    @Override
    public void close() {
        Fd.close(linkFd);
        object.close();
    }
}
