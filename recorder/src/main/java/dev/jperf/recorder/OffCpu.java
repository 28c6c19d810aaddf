package dev.jperf.recorder;

import static dev.jperf.format.header.PerfEventAttr.PERF_SAMPLE_CALLCHAIN;
import static dev.jperf.format.header.PerfEventAttr.PERF_SAMPLE_CGROUP;
import static dev.jperf.format.header.PerfEventAttr.PERF_SAMPLE_CPU;
import static dev.jperf.format.header.PerfEventAttr.PERF_SAMPLE_ID;
import static dev.jperf.format.header.PerfEventAttr.PERF_SAMPLE_IDENTIFIER;
import static dev.jperf.format.header.PerfEventAttr.PERF_SAMPLE_IP;
import static dev.jperf.format.header.PerfEventAttr.PERF_SAMPLE_PERIOD;
import static dev.jperf.format.header.PerfEventAttr.PERF_SAMPLE_TID;
import static dev.jperf.format.header.PerfEventAttr.PERF_SAMPLE_TIME;

import com.sun.jna.Memory;
import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfKind;
import dev.jperf.format.btf.BtfType;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.RecordType;
import dev.jperf.format.record.SampleRecord;
import dev.jperf.loader.BpfLink;
import dev.jperf.loader.BpfMap;
import dev.jperf.loader.BpfObject;
import dev.jperf.loader.BpfObjectException;
import dev.jperf.loader.BpfProgram;
import dev.jperf.loader.LoadOptions;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.Errno;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * {@code record --off-cpu}, perf's design (perf 5.19's bpf_off_cpu.c; Debian's perf is built
 * without it): jperf's BPF program (samples/bpf/off_cpu.bpf.c) on {@code tp_btf/sched_switch} adds
 * up, per (thread, user stack, sleep state), the nanoseconds each sleep lasted. When the recording
 * ends the totals become samples of the {@code offcpu-time} event (a BPF_OUTPUT software event
 * opened with the others, so it has an attr and ids in the file): period the total, callchain the
 * user stack, timestamps after every real sample, as perf's off_cpu_write writes them, so perf
 * reports them as its own.
 */
final class OffCpu implements AutoCloseable {
    /** perf's OFFCPU_EVENT: the event's name in the file. */
    static final String EVENT = "offcpu-time";
    /** perf's OFFCPU_SAMPLE_TYPES: the sample fields off_cpu_write can fill. */
    static final long SAMPLE_TYPES = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME
            | PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_CGROUP;
    /** perf's OFF_CPU_TIMESTAMP: no real time, only an order after every recorded sample. */
    private static final long TIMESTAMP = ~0L << 32;
    static final String OBJECT = "off_cpu.bpf.o";
    /** struct off_cpu_key of the program: pid, tgid, stack_id, state (u32 each), cgroup_id (u64). */
    private static final int KEY_SIZE = 24;
    /** The program's STACK_DEPTH: user frames per stack. */
    private static final int STACK_DEPTH = 32;

    private final BpfObject object;
    private final BpfLink link;
    private final Bpf bpf = new Bpf();

    private OffCpu(BpfObject object, BpfLink link) {
        this.object = object;
        this.link = link;
    }

    /**
     * The sample_type of the offcpu-time event: the other events' fields, with the callchain and
     * period off-CPU analysis needs (perf's off_cpu_config, then evsel__config), and only those
     * off_cpu_write can fill.
     */
    static long sampleType(long others) {
        return (others | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_PERIOD) & SAMPLE_TYPES;
    }

    /**
     * Loads and attaches the program, disabled, with perf's filters: {@code cpus} (-C; empty for
     * none), {@code tasks} (threads of -p/-t; empty for none), or else the workload's process
     * {@code workloadPid} (0: none, as with -a).
     */
    static OffCpu start(List<Integer> cpus, List<Integer> tasks, int workloadPid) {
        BpfObject o;
        try {
            o = BpfObject.open(OBJECT, resource());
        } catch (BpfObjectException e) {
            throw new RecordException("--off-cpu: " + e.getMessage(), e);
        }
        BpfLink link = null;
        try {
            boolean byProcess = tasks.isEmpty() && cpus.isEmpty() && workloadPid > 0;
            List<Integer> watched = byProcess ? List.of(workloadPid) : tasks;
            if (!cpus.isEmpty()) {
                o.map("cpu_filter").setMaxEntries(cpus.size());
            }
            if (!watched.isEmpty()) {
                o.map("task_filter").setMaxEntries(watched.size());
            }
            BpfMap bss = o.map(".bss");
            byte[] globals = bss.initialValue();
            Btf btf = o.btf();
            putInt(globals, offset(btf, "has_cpu"), cpus.isEmpty() ? 0 : 1);
            putInt(globals, offset(btf, "has_task"), watched.isEmpty() ? 0 : 1);
            putInt(globals, offset(btf, "uses_tgid"), byProcess ? 1 : 0);
            bss.setInitialValue(globals);
            o.load(LoadOptions.DEFAULT);
            BpfProgram p = o.program("on_switch");
            if (p.fd() < 0) {
                throw new RecordException("--off-cpu: the kernel refused the off-CPU program: " + p.error());
            }
            fill(o.map("cpu_filter"), cpus);
            fill(o.map("task_filter"), watched);
            link = BpfLink.attach(p);
            OffCpu off = new OffCpu(o, link);
            off.setEnabled(true);
            return off;
        } catch (BpfObjectException e) {
            if (link != null) {
                link.close();
            }
            o.close();
            throw new RecordException("--off-cpu: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            if (link != null) {
                link.close();
            }
            o.close();
            throw e;
        }
    }

    /**
     * Stops counting and returns the totals as PERF_RECORD_SAMPLEs of the offcpu-time event
     * ({@code sampleType}, id {@code id}), one per (thread, stack, state), as off_cpu_write lays
     * them out.
     */
    ByteBuffer samples(long sampleType, long id) {
        setEnabled(false);
        int offCpu = object.map("off_cpu").fd();
        int stacks = object.map("stacks").fd();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Memory prev = new Memory(KEY_SIZE);
        Memory key = new Memory(KEY_SIZE);
        Memory value = new Memory(8);
        Memory stackKey = new Memory(4);
        Memory stack = new Memory(STACK_DEPTH * 8L);
        ByteBuffer rec = ByteBuffer.allocate(8 * (12 + STACK_DEPTH)).order(ByteOrder.LITTLE_ENDIAN);
        long time = TIMESTAMP;
        boolean first = true;
        while (bpf.mapGetNextKey(offCpu, first ? null : prev, key) == 0) {
            first = false;
            prev.write(0, key.getByteArray(0, KEY_SIZE), 0, KEY_SIZE);
            if (bpf.mapLookupElem(offCpu, key, value) != 0) {
                continue; // deleted meanwhile: nothing to write
            }
            rec.clear();
            rec.position(8);
            if ((sampleType & PERF_SAMPLE_IDENTIFIER) != 0) {
                rec.putLong(id);
            }
            int ipAt = -1;
            if ((sampleType & PERF_SAMPLE_IP) != 0) {
                ipAt = rec.position();
                rec.putLong(0);
            }
            if ((sampleType & PERF_SAMPLE_TID) != 0) {
                rec.putInt(key.getInt(4)).putInt(key.getInt(0)); // pid (the tgid), then tid
            }
            if ((sampleType & PERF_SAMPLE_TIME) != 0) {
                rec.putLong(time);
            }
            if ((sampleType & PERF_SAMPLE_ID) != 0) {
                rec.putLong(id);
            }
            if ((sampleType & PERF_SAMPLE_CPU) != 0) {
                rec.putLong(0);
            }
            if ((sampleType & PERF_SAMPLE_PERIOD) != 0) {
                rec.putLong(value.getLong(0));
            }
            if ((sampleType & PERF_SAMPLE_CALLCHAIN) != 0) {
                int nrAt = rec.position();
                rec.putLong(0).putLong(SampleRecord.PERF_CONTEXT_USER);
                stackKey.setInt(0, key.getInt(8));
                stack.clear();
                int n = 0;
                // a failed bpf_get_stackid left a negative id: no frames, as perf finds none
                if (bpf.mapLookupElem(stacks, stackKey, stack) == 0) {
                    while (n < STACK_DEPTH && stack.getLong(n * 8L) != 0) {
                        rec.putLong(stack.getLong(n * 8L));
                        n++;
                    }
                }
                rec.putLong(nrAt, n + 1);
                if (ipAt >= 0 && n > 0) {
                    rec.putLong(ipAt, stack.getLong(0));
                }
            }
            if ((sampleType & PERF_SAMPLE_CGROUP) != 0) {
                rec.putLong(key.getLong(16));
            }
            int size = rec.position();
            rec.putInt(0, RecordType.PERF_RECORD_SAMPLE).putShort(4, (short) PerfRecord.PERF_RECORD_MISC_USER)
                    .putShort(6, (short) size);
            out.write(rec.array(), 0, size);
            time++; // perf's: later samples sort after earlier ones
        }
        return ByteBuffer.wrap(out.toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
    }

    private void setEnabled(boolean on) {
        BpfMap bss = object.map(".bss");
        byte[] zero = new byte[4];
        byte[] globals = bpf.mapLookupElem(bss.fd(), zero, bss.valueSize());
        putInt(globals, offset(object.btf(), "enabled"), on ? 1 : 0);
        int err = bpf.mapUpdateElem(bss.fd(), zero, globals);
        if (err < 0) {
            throw new RecordException("--off-cpu: cannot " + (on ? "enable" : "disable") + " the off-CPU program: "
                    + Errno.describe(-err));
        }
    }

    private static void fill(BpfMap filter, List<Integer> keys) {
        Bpf bpf = new Bpf();
        byte[] one = {1};
        for (int k : keys) {
            int err = bpf.mapUpdateElem(filter.fd(), ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(k).array(),
                    one);
            if (err < 0) {
                throw new RecordException("--off-cpu: cannot fill " + filter.name() + ": " + Errno.describe(-err));
            }
        }
    }

    /** Where global {@code name} lives in .bss, from the object's BTF. */
    private static int offset(Btf btf, String name) {
        int sec = btf.findByName(".bss", BtfKind.DATASEC);
        if (sec > 0 && btf.type(sec) instanceof BtfType.DataSec ds) {
            for (BtfType.VarSecInfo v : ds.vars()) {
                if (btf.name(v.type()).equals(name)) {
                    return v.offset();
                }
            }
        }
        throw new RecordException("--off-cpu: " + OBJECT + " has no global '" + name + "'");
    }

    private static void putInt(byte[] b, int off, int v) {
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(off, v);
    }

    private static byte[] resource() {
        try (InputStream in = OffCpu.class.getResourceAsStream("/bpf/" + OBJECT)) {
            if (in == null) {
                throw new RecordException("--off-cpu: " + OBJECT + " is missing from jperf's jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new RecordException("--off-cpu: cannot read " + OBJECT + " from jperf's jar: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        link.close();
        object.close();
    }
}
