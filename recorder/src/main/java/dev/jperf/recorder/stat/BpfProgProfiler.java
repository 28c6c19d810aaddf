package dev.jperf.recorder.stat;

import dev.jperf.loader.BpfObject;
import dev.jperf.loader.BpfObjectException;
import dev.jperf.loader.BpfProgram;
import dev.jperf.loader.LoadOptions;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;

/**
 * One event counted inside one BPF program (perf's bpf_prog_profiler, one per program and
 * event): jperf's object samples/bpf/bpf_prog_profiler.bpf.c, its fentry and fexit programs
 * attached to the target's main function, the event's per-CPU fds in its perf event array. It
 * counts from {@link #load} until {@link #close}, which detaches and unloads it.
 */
final class BpfProgProfiler implements AutoCloseable {
    static final String OBJECT = "bpf_prog_profiler.bpf.o";
    static final String FENTRY = "fentry_XXX";
    static final String FEXIT = "fexit_XXX";

    /** The kernel refused the fentry/fexit programs; {@link #getMessage} is its answer ("EPERM: Operation not permitted"). */
    static final class Refused extends RuntimeException {
        Refused(String answer) {
            super(answer);
        }
    }

    private final BpfObject object;
    private final int[] links;
    private final int possibleCpus;

    private BpfProgProfiler(BpfObject object, int[] links, int possibleCpus) {
        this.object = object;
        this.links = links;
        this.possibleCpus = possibleCpus;
    }

    /**
     * Loads and attaches a profiler of {@code function} (the main function's BTF name) of the
     * program {@code targetFd}, reading the event whose fd on CPU {@code cpus[i]} is {@code fds[i]}.
     */
    static BpfProgProfiler load(int targetId, int targetFd, String function, int[] cpus, int[] fds, int possibleCpus) {
        BpfObject o = null;
        int[] links = {-1, -1};
        try {
            o = BpfObject.open(OBJECT, BperfLeader.resource(OBJECT));
            BpfProgram entry = o.program(FENTRY);
            BpfProgram exit = o.program(FEXIT);
            entry.setAttachTarget(targetFd, function);
            exit.setAttachTarget(targetFd, function);
            o.map("events").setMaxEntries(possibleCpus);
            o.load(LoadOptions.DEFAULT);
            for (BpfProgram p : new BpfProgram[] {entry, exit}) {
                if (p.fd() < 0 && p.errno() == Errno.ESRCH) {
                    // the loader's own answer: the target's BTF has no such function
                    throw new StatException("cannot load " + p.name() + " on " + function + " of BPF program " + targetId
                            + ": " + p.error());
                }
                if (p.fd() < 0) {
                    throw new Refused(Errno.name(p.errno()) + ": " + Errno.text(p.errno()));
                }
            }
            Bpf bpf = new Bpf();
            for (int i = 0; i < cpus.length; i++) {
                int err = bpf.mapUpdateElem(o.map("events").fd(), BperfLeader.u32(cpus[i]), BperfLeader.u32(fds[i]));
                if (err < 0) {
                    throw new StatException("cannot install the event of CPU " + cpus[i] + " in the profiler of BPF program "
                            + targetId + ": " + Errno.describe(-err));
                }
            }
            try {
                links[0] = bpf.rawTracepointOpen(null, entry.fd());
                links[1] = bpf.rawTracepointOpen(null, exit.fd());
            } catch (NativeException e) {
                throw new StatException("cannot attach the profiler to BPF program " + targetId + ": " + e.getMessage(), e);
            }
            BpfProgProfiler p = new BpfProgProfiler(o, links, possibleCpus);
            o = null;
            return p;
        } catch (BpfObjectException e) {
            throw new StatException("cannot load the profiler object: " + e.getMessage(), e);
        } finally {
            if (o != null) {
                Fd.close(links[1]);
                Fd.close(links[0]);
                o.close();
            }
        }
    }

    /** bpf_program_profiler__read: accum_readings summed over CPUs. */
    CounterValues read() {
        return CounterValues.sumPerCpu(new Bpf().mapLookupElem(object.map("accum_readings").fd(), BperfLeader.u32(0),
                possibleCpus * BperfLeader.READING_SIZE), possibleCpus);
    }

    @Override
    public void close() {
        Fd.close(links[1]);
        Fd.close(links[0]);
        object.close();
    }
}
