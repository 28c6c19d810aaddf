package dev.jperf.loader;

import dev.jperf.format.bpf.Uapi;
import dev.jperf.format.header.SystemCpus;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * BPF objects loaded and their programs attached for as long as something runs (perf bpf record
 * --object's way): every program must load; each is attached as its section says, perf_event
 * programs on a cpu-clock event per online CPU; a program that cannot be attached here (no
 * kprobes in this kernel, no target in its section) is reported in one line and left loaded.
 * Closing detaches and unloads everything.
 */
public final class AttachedObjects implements AutoCloseable {
    /** The sampling frequency of the cpu-clock events perf_event programs run on. */
    public static final long PERF_EVENT_FREQ = 99;

    private final List<BpfObject> objects = new ArrayList<>();
    private final List<BpfLink> links = new ArrayList<>();

    private AttachedObjects() {
    }

    /** Loads each object (every program must load) and attaches its programs; what cannot be attached is a line on {@code warnings}. */
    public static AttachedObjects loadAndAttach(List<Path> files, PrintStream warnings) throws BpfObjectException {
        AttachedObjects a = new AttachedObjects();
        boolean ok = false;
        try {
            for (Path f : files) {
                BpfObject o = BpfObject.open(f);
                a.objects.add(o);
                o.load(LoadOptions.DEFAULT);
                for (String w : o.warnings()) {
                    warnings.println("warning: " + f.getFileName() + ": " + w);
                }
                for (BpfProgram p : o.programs()) {
                    if (p.autoload() && p.fd() < 0) {
                        throw new BpfObjectException(f + ": " + p.error(), p.errno());
                    }
                }
                for (BpfProgram p : o.programs()) {
                    if (p.fd() < 0) {
                        continue;
                    }
                    try {
                        a.attach(p);
                    } catch (BpfObjectException e) {
                        warnings.println("warning: " + f.getFileName() + ": " + e.getMessage() + "; left loaded, not attached");
                    }
                }
            }
            ok = true;
            return a;
        } finally {
            if (!ok) {
                a.close();
            }
        }
    }

    private void attach(BpfProgram p) throws BpfObjectException {
        links.addAll(BpfLink.autoAttach(p));
    }

    /** The loaded objects. */
    public List<BpfObject> objects() {
        return List.copyOf(objects);
    }

    /** What is attached, one entry per link. */
    public List<String> targets() {
        List<String> out = new ArrayList<>();
        for (BpfLink l : links) {
            out.add(l.target());
        }
        return out;
    }

    static List<Integer> onlineCpus() throws BpfObjectException {
        try {
            return SystemCpus.online();
        } catch (IOException | IllegalArgumentException e) {
            throw new BpfObjectException("cannot read the online CPUs: " + e.getMessage());
        }
    }

    @Override
    public void close() {
        for (BpfLink l : links) {
            l.close();
        }
        links.clear();
        for (BpfObject o : objects) {
            o.close();
        }
        objects.clear();
    }
}
