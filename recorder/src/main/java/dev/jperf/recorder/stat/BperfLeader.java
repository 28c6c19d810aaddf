package dev.jperf.recorder.stat;

import com.sun.jna.Memory;
import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.loader.BpfMap;
import dev.jperf.loader.BpfObject;
import dev.jperf.loader.BpfObjectException;
import dev.jperf.loader.BpfProgram;
import dev.jperf.loader.LoadOptions;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.format.bpf.BpfMapInfoLayout;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.nativeshim.PerfEventOpen;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The bperf leader of one event attr, as this run holds it: fds of its link, program and diff
 * map. {@link #obtain} reuses the leader the attr map names when its link still exists, else
 * loads jperf's leader object (samples/bpf/bperf_leader.bpf.c), attaches it to sched_switch,
 * installs the event on every CPU in its perf event array, pins the link beside the attr map (so
 * that the leader outlives this run, for the next one to share) and records it in the map.
 */
final class BperfLeader implements AutoCloseable {
    static final String OBJECT = "bperf_leader.bpf.o";
    static final String PROGRAM = "on_switch";
    static final String DIFF_MAP = "diff_readings";
    /** sizeof(struct bpf_perf_event_value): counter, enabled, running */
    static final int READING_SIZE = 24;
    /** struct bpf_link_info up to prog_id: type, id, prog_id */
    private static final int LINK_INFO_SIZE = 12;
    private static final int LINK_INFO_ID = 4;
    private static final int LINK_INFO_PROG_ID = 8;

    private final int linkFd;
    private final int progFd;
    private final int diffMapFd;
    private final BperfEntry entry;
    private final int progId;
    private final boolean reused;

    private BperfLeader(int linkFd, int progFd, int diffMapFd, BperfEntry entry, int progId, boolean reused) {
        this.linkFd = linkFd;
        this.progFd = progFd;
        this.diffMapFd = diffMapFd;
        this.entry = entry;
        this.progId = progId;
        this.reused = reused;
    }

    /**
     * The leader of {@code attr} (a perf_event_attr the attr map is keyed with): the one the map
     * records if its link is alive, else a new one; {@code cpus} are the CPUs it reads.
     */
    static BperfLeader obtain(BperfAttrMap map, Path mapPath, byte[] attr, int[] cpus, String event) {
        Bpf bpf = new Bpf();
        BperfEntry e = map.lookup(attr);
        if (e != null) {
            int link = bpf.linkGetFdById(e.linkId());
            if (link >= 0) {
                return held(bpf, link, e, true, event);
            }
        }
        return load(bpf, map, mapPath, attr, cpus, event);
    }

    /** Fds for the program and diff map of the live leader whose link this run holds as {@code link}. */
    private static BperfLeader held(Bpf bpf, int link, BperfEntry e, boolean reused, String event) {
        int prog = -1;
        try {
            Memory info = new Memory(LINK_INFO_SIZE);
            info.clear();
            bpf.objGetInfoByFd(link, info, LINK_INFO_SIZE);
            int progId = info.getInt(LINK_INFO_PROG_ID);
            // the link holds the program, the program its maps: both ids are alive while the link is
            prog = bpf.progGetFdById(progId);
            int diff = bpf.mapGetFdById(e.diffMapId());
            return new BperfLeader(link, prog, diff, e, progId, reused);
        } catch (NativeException x) {
            Fd.close(prog);
            Fd.close(link);
            throw new StatException("--bpf-counters: the leader of '" + event + "' (link " + e.linkId()
                    + ") cannot be opened: " + x.getMessage(), x);
        }
    }

    private static BperfLeader load(Bpf bpf, BperfAttrMap map, Path mapPath, byte[] attr, int[] cpus, String event) {
        try (BpfObject o = BpfObject.open(OBJECT, resource(OBJECT))) {
            o.load(LoadOptions.DEFAULT);
            BpfProgram p = o.program(PROGRAM);
            if (p.fd() < 0) {
                throw new StatException("--bpf-counters: the kernel refused the leader program: " + p.error());
            }
            int link;
            try {
                link = bpf.rawTracepointOpen("sched_switch", p.fd());
            } catch (NativeException x) {
                throw new StatException("--bpf-counters: cannot attach the leader to sched_switch: " + x.getMessage(), x);
            }
            BperfLeader l = null;
            try {
                installEvents(bpf, o.map("events"), attr, cpus, event);
                Memory info = new Memory(LINK_INFO_SIZE);
                info.clear();
                bpf.objGetInfoByFd(link, info, LINK_INFO_SIZE);
                int linkId = info.getInt(LINK_INFO_ID);
                Memory mi = new Memory(BpfMapInfoLayout.SIZE);
                mi.clear();
                bpf.objGetInfoByFd(o.map(DIFF_MAP).fd(), mi, BpfMapInfoLayout.SIZE);
                BperfEntry e = new BperfEntry(linkId, mi.getInt(BpfMapInfoLayout.ID));
                Path pin = pinPath(mapPath, linkId);
                int err = bpf.objPin(link, pin.toString());
                if (err < 0) {
                    throw new StatException("--bpf-counters: cannot pin the leader's link at " + pin + ": "
                            + Errno.describe(-err));
                }
                try {
                    map.update(attr, e);
                } catch (StatException x) {
                    unpin(pin); // a leader no map names would run for nobody
                    throw x;
                }
                l = held(bpf, link, e, false, event);
                return l;
            } finally {
                if (l == null) {
                    Fd.close(link);
                }
            }
        } catch (BpfObjectException x) {
            throw new StatException("--bpf-counters: cannot load the leader object: " + x.getMessage(), x);
        }
    }

    /**
     * bperf__install_pe: the event opened on each CPU (every task) and put in the leader's perf
     * event array at the CPU's index; the array keeps it (BPF_F_PRESERVE_ELEMS) once this run's
     * fds are closed.
     */
    private static void installEvents(Bpf bpf, BpfMap events, byte[] attr, int[] cpus, String event) {
        for (int cpu : cpus) {
            int fd;
            try {
                fd = PerfEventOpen.open(ByteBuffer.wrap(attr.clone()).order(ByteOrder.LITTLE_ENDIAN), -1, cpu, -1,
                        PerfEventAttr.PERF_FLAG_FD_CLOEXEC, event);
            } catch (NativeException x) {
                throw StatException.of(x, event, -1, 1);
            }
            try {
                int err = bpf.mapUpdateElem(events.fd(), u32(cpu), u32(fd));
                if (err < 0) {
                    throw new StatException("--bpf-counters: cannot install '" + event + "' of CPU " + cpu
                            + " in the leader: " + Errno.describe(-err));
                }
            } finally {
                Fd.close(fd);
            }
        }
    }

    /** A u32 key or value of the programs' maps (little-endian). */
    static byte[] u32(int v) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array();
    }

    private static void unpin(Path pin) {
        try {
            Files.deleteIfExists(pin);
        } catch (IOException e) {
            // the pin stays: the one line already printed says why the run failed
        }
    }

    /** Where a leader's link is pinned: beside the attr map, named by the link's id. */
    static Path pinPath(Path mapPath, int linkId) {
        return mapPath.resolveSibling(mapPath.getFileName() + "_leader_" + Integer.toUnsignedString(linkId));
    }

    static byte[] resource(String name) {
        try (InputStream in = BperfLeader.class.getResourceAsStream("/bpf/" + name)) {
            if (in == null) {
                throw new StatException("--bpf-counters: " + name + " is missing from jperf's jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new StatException("--bpf-counters: cannot read " + name + " from jperf's jar: " + e.getMessage(), e);
        }
    }

    /**
     * bperf_trigger_reading: runs the leader on {@code cpu} now (BPF_PROG_TEST_RUN), so that its
     * readings are current there; 0 or -errno.
     */
    int trigger(int cpu) {
        return new Bpf().progTestRunOnCpu(progFd, cpu);
    }

    BperfEntry entry() {
        return entry;
    }

    int progFd() {
        return progFd;
    }

    int progId() {
        return progId;
    }

    int diffMapFd() {
        return diffMapFd;
    }

    /** Whether another run had loaded this leader. */
    boolean reused() {
        return reused;
    }

    /** This run's fds; the leader stays, held by its pinned link. */
    @Override
    public void close() {
        Fd.close(diffMapFd);
        Fd.close(progFd);
        Fd.close(linkFd);
    }
}
