package dev.jperf.format.record;

import static dev.jperf.format.header.PerfEventAttr.*;
import static dev.jperf.format.record.RecordType.*;

import dev.jperf.format.PerfDataException;
import dev.jperf.format.header.EventDesc;
import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.format.io.ByteSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Decodes one record at a position of a {@link ByteSource} into its typed form, mapping it to its
 * event by id as perf does (spec §9). Parsing only: no state beyond the event table.
 *
 * <p>A record whose body does not fit its size raises {@link PerfDataException}; nothing is ever
 * read or allocated beyond the record.
 */
public final class RecordDecoder {
    private static final long[] NO_LONGS = new long[0];

    private final String name;
    private final List<EventDesc> events = new ArrayList<>();
    private final List<EventDesc> view = Collections.unmodifiableList(events);
    private Layout[] layouts = new Layout[0];
    private final IdMap ids = new IdMap();
    /** perf's evlist id_pos / is_pos, from the first event: where a record's id is. */
    private int idPos = -1;
    private int isPos = -1;

    public RecordDecoder(String name, List<EventDesc> initial) {
        this.name = name;
        for (EventDesc e : initial) {
            add(e);
        }
    }

    /** Adds an event (pipe mode: a HEADER_ATTR); returns it with its index set. */
    public EventDesc add(EventDesc e) {
        EventDesc d = e.index() == events.size() ? e : new EventDesc(events.size(), e.attr(), e.ids(), e.name());
        events.add(d);
        layouts = Arrays.copyOf(layouts, events.size());
        layouts[d.index()] = new Layout(d);
        for (long id : d.ids()) {
            ids.put(id, d.index());
        }
        if (events.size() == 1) {
            idPos = layouts[0].sample.idPos();
            isPos = layouts[0].sample.isPos();
        }
        return d;
    }

    /** Gives event {@code index} a new name (EVENT_UPDATE NAME, HEADER_EVENT_DESC). */
    public void rename(int index, String newName) {
        EventDesc d = events.get(index).withName(newName);
        events.set(index, d);
        layouts[index] = new Layout(d);
    }

    /** The events so far, as an unmodifiable live view (no copy: it is read per record). */
    public List<EventDesc> events() {
        return view;
    }

    /** The event with this id: perf's rule (single event, id 0 = first event); null if unknown. */
    public EventDesc eventOf(long id) {
        if (events.isEmpty()) {
            return null;
        }
        if (events.size() == 1 || id == 0) {
            return events.get(0);
        }
        int i = ids.get(id);
        return i < 0 ? null : events.get(i);
    }

    /** Reads header.type at {@code pos}. */
    public static int type(ByteSource src, long pos) {
        return src.s32(pos);
    }

    /** Reads header.size at {@code pos}. */
    public static int size(ByteSource src, long pos) {
        return src.u16(pos + 6);
    }

    /**
     * Decodes the record starting at {@code pos} in {@code src}; the caller has checked that its
     * header.size bytes are in {@code src}. {@code offset} is what {@link PerfRecord#offset()} reports.
     */
    public PerfRecord decode(ByteSource src, long pos, long offset) {
        int type = src.s32(pos);
        int misc = src.u16(pos + 4);
        int size = src.u16(pos + 6);
        long end = pos + size;
        switch (type) {
            case PERF_RECORD_SAMPLE:
                return sample(src, pos, end, offset, misc, size);
            case PERF_RECORD_MMAP: {
                Trailer t = trailer(src, pos, end, type);
                need(src, pos, 40, t.start, type);
                return new MmapRecord(offset, misc, size, src.s32(pos + 8), src.s32(pos + 12), src.u64(pos + 16),
                        src.u64(pos + 24), src.u64(pos + 32), src.cString(pos + 40, t.start - pos - 40), t.id);
            }
            case PERF_RECORD_MMAP2:
                return mmap2(src, pos, end, offset, misc, size);
            case PERF_RECORD_COMM: {
                Trailer t = trailer(src, pos, end, type);
                need(src, pos, 16, t.start, type);
                return new CommRecord(offset, misc, size, src.s32(pos + 8), src.s32(pos + 12),
                        src.cString(pos + 16, t.start - pos - 16), t.id);
            }
            case PERF_RECORD_EXIT:
            case PERF_RECORD_FORK: {
                Trailer t = trailer(src, pos, end, type);
                need(src, pos, 32, t.start, type);
                int pid = src.s32(pos + 8);
                int ppid = src.s32(pos + 12);
                int tid = src.s32(pos + 16);
                int ptid = src.s32(pos + 20);
                long time = src.u64(pos + 24);
                return type == PERF_RECORD_EXIT ? new ExitRecord(offset, misc, size, pid, ppid, tid, ptid, time, t.id)
                        : new ForkRecord(offset, misc, size, pid, ppid, tid, ptid, time, t.id);
            }
            case PERF_RECORD_LOST: {
                Trailer t = trailer(src, pos, end, type);
                need(src, pos, 24, t.start, type);
                return new LostRecord(offset, misc, size, src.u64(pos + 8), src.u64(pos + 16), t.id);
            }
            case PERF_RECORD_THROTTLE:
            case PERF_RECORD_UNTHROTTLE: {
                Trailer t = trailer(src, pos, end, type);
                need(src, pos, 32, t.start, type);
                return new ThrottleRecord(offset, type, misc, size, src.u64(pos + 8), src.u64(pos + 16),
                        src.u64(pos + 24), t.id);
            }
            case PERF_RECORD_READ: {
                Trailer t = trailer(src, pos, end, type);
                need(src, pos, 16, t.start, type);
                EventDesc e = t.id.event() != null ? t.id.event() : events.isEmpty() ? null : events.get(0);
                long rf = e == null ? 0 : e.attr().readFormat();
                long[] p = {pos + 16};
                ReadValues v = readValues(src, p, t.start, rf, type, pos);
                return new ReadRecord(offset, misc, size, src.s32(pos + 8), src.s32(pos + 12), v, t.id);
            }
            case PERF_RECORD_AUX: {
                Trailer t = trailer(src, pos, end, type);
                need(src, pos, 32, t.start, type);
                return new AuxRecord(offset, misc, size, src.u64(pos + 8), src.u64(pos + 16), src.u64(pos + 24), t.id);
            }
            case PERF_RECORD_ITRACE_START: {
                Trailer t = trailer(src, pos, end, type);
                need(src, pos, 16, t.start, type);
                return new ItraceStartRecord(offset, misc, size, src.s32(pos + 8), src.s32(pos + 12), t.id);
            }
            case PERF_RECORD_LOST_SAMPLES: {
                Trailer t = trailer(src, pos, end, type);
                need(src, pos, 16, t.start, type);
                return new LostSamplesRecord(offset, misc, size, src.u64(pos + 8), t.id);
            }
            case PERF_RECORD_SWITCH: {
                Trailer t = trailer(src, pos, end, type);
                return new SwitchRecord(offset, type, misc, size, -1, -1, t.id);
            }
            case PERF_RECORD_SWITCH_CPU_WIDE: {
                Trailer t = trailer(src, pos, end, type);
                need(src, pos, 16, t.start, type);
                return new SwitchRecord(offset, type, misc, size, src.s32(pos + 8), src.s32(pos + 12), t.id);
            }
            case PERF_RECORD_NAMESPACES: {
                Trailer t = trailer(src, pos, end, type);
                need(src, pos, 24, t.start, type);
                long nr = src.u64(pos + 16);
                if (nr < 0 || nr > (t.start - pos - 24) / 16) {
                    throw bad(src, pos, type, "nr_namespaces " + nr + " does not fit");
                }
                long[] devs = new long[(int) nr];
                long[] inos = new long[(int) nr];
                for (int i = 0; i < nr; i++) {
                    devs[i] = src.u64(pos + 24 + 16L * i);
                    inos[i] = src.u64(pos + 32 + 16L * i);
                }
                return new NamespacesRecord(offset, misc, size, src.s32(pos + 8), src.s32(pos + 12), devs, inos, t.id);
            }
            case PERF_RECORD_KSYMBOL: {
                need(src, pos, 24, end, type);
                long nul = src.indexOfNul(pos + 24, end);
                // parse the trailer forward: the kernel may inflate header.size (spec §6)
                long bodyEnd = pos + 24 + pad8(nul - (pos + 24) + 1);
                Trailer t = trailerAt(src, pos, Math.min(bodyEnd, end), end, type);
                return new KsymbolRecord(offset, misc, size, src.u64(pos + 8), src.s32(pos + 16), src.u16(pos + 20),
                        src.u16(pos + 22), src.cString(pos + 24, nul - (pos + 24)), t.id);
            }
            case PERF_RECORD_BPF_EVENT: {
                need(src, pos, 24, end, type);
                Trailer t = trailerAt(src, pos, pos + 24, end, type);
                return new BpfEventRecord(offset, misc, size, src.u16(pos + 8), src.u16(pos + 10), src.s32(pos + 12),
                        src.bytes(pos + 16, 8), t.id);
            }
            case PERF_RECORD_CGROUP: {
                Trailer t = trailer(src, pos, end, type);
                need(src, pos, 16, t.start, type);
                return new CgroupRecord(offset, misc, size, src.u64(pos + 8), src.cString(pos + 16, t.start - pos - 16), t.id);
            }
            case PERF_RECORD_TEXT_POKE: {
                Trailer t = trailer(src, pos, end, type);
                need(src, pos, 20, t.start, type);
                int oldLen = src.u16(pos + 16);
                int newLen = src.u16(pos + 18);
                need(src, pos, 20L + oldLen + newLen, t.start, type);
                return new TextPokeRecord(offset, misc, size, src.u64(pos + 8), src.bytes(pos + 20, oldLen),
                        src.bytes(pos + 20 + oldLen, newLen), t.id);
            }
            case PERF_RECORD_AUX_OUTPUT_HW_ID: {
                Trailer t = trailer(src, pos, end, type);
                need(src, pos, 16, t.start, type);
                return new AuxOutputHwIdRecord(offset, misc, size, src.u64(pos + 8), t.id);
            }
            default:
                return user(src, pos, end, offset, type, misc, size);
        }
    }

    private PerfRecord user(ByteSource src, long pos, long end, long offset, int type, int misc, int size) {
        switch (type) {
            case PERF_RECORD_HEADER_ATTR: {
                need(src, pos, 8 + PERF_ATTR_SIZE_VER0, end, type);
                int asz = src.s32(pos + 12);
                if (asz == 0) {
                    asz = PERF_ATTR_SIZE_VER0;
                }
                if (asz < PERF_ATTR_SIZE_VER0) {
                    throw bad(src, pos, type, "attr.size " + asz);
                }
                need(src, pos, 8L + asz, end, type);
                PerfEventAttr attr = PerfEventAttr.decode(src, pos + 8, asz);
                long[] idv = u64s(src, pos + 8 + asz, (int) ((end - pos - 8 - asz) / 8));
                return new HeaderAttrRecord(offset, misc, size, attr, idv);
            }
            case PERF_RECORD_HEADER_EVENT_TYPE:
                need(src, pos, 16, end, type);
                return new EventTypeRecord(offset, misc, size, src.u64(pos + 8), src.cString(pos + 16, Math.min(64, end - pos - 16)));
            case PERF_RECORD_HEADER_TRACING_DATA:
                need(src, pos, 12, end, type);
                // the payload is attached by the reader, which knows whether it can keep it
                return new TracingDataRecord(offset, misc, size, src.u32(pos + 8), null);
            case PERF_RECORD_HEADER_BUILD_ID: {
                need(src, pos, 36, end, type);
                int bidSize = (misc & PerfRecord.PERF_RECORD_MISC_BUILD_ID_SIZE) != 0 ? Math.min(20, src.u8(pos + 32)) : 20;
                return new BuildIdRecord(offset, misc, size, src.s32(pos + 8), src.bytes(pos + 12, bidSize),
                        src.cString(pos + 36, end - pos - 36));
            }
            case PERF_RECORD_FINISHED_ROUND:
                return new FinishedRoundRecord(offset, misc, size);
            case PERF_RECORD_FINISHED_INIT:
                return new FinishedInitRecord(offset, misc, size);
            case PERF_RECORD_ID_INDEX: {
                need(src, pos, 16, end, type);
                int n = count(src, pos, src.u64(pos + 8), end - pos - 16, 32, type);
                long[] idv = new long[n];
                long[] idx = new long[n];
                long[] cpu = new long[n];
                long[] tid = new long[n];
                for (int i = 0; i < n; i++) {
                    long e = pos + 16 + 32L * i;
                    idv[i] = src.u64(e);
                    idx[i] = src.u64(e + 8);
                    cpu[i] = src.u64(e + 16);
                    tid[i] = src.u64(e + 24);
                }
                return new IdIndexRecord(offset, misc, size, idv, idx, cpu, tid);
            }
            case PERF_RECORD_AUXTRACE_INFO:
                need(src, pos, 16, end, type);
                return new AuxtraceInfoRecord(offset, misc, size, src.s32(pos + 8), u64s(src, pos + 16, (int) ((end - pos - 16) / 8)));
            case PERF_RECORD_AUXTRACE:
                need(src, pos, 48, end, type);
                return new AuxtraceRecord(offset, misc, size, src.u64(pos + 8), src.u64(pos + 16), src.u64(pos + 24),
                        src.s32(pos + 32), src.s32(pos + 36), src.s32(pos + 40), null);
            case PERF_RECORD_AUXTRACE_ERROR: {
                need(src, pos, 48, end, type);
                String msg = src.cString(pos + 48, Math.min(64, end - pos - 48));
                boolean ext = end - pos >= 120;
                return new AuxtraceErrorRecord(offset, misc, size, src.s32(pos + 8), src.s32(pos + 12), src.s32(pos + 16),
                        src.s32(pos + 20), src.s32(pos + 24), src.s32(pos + 28), src.u64(pos + 32), src.u64(pos + 40), msg,
                        ext ? src.s32(pos + 112) : -1, ext ? src.s32(pos + 116) : -1);
            }
            case PERF_RECORD_THREAD_MAP: {
                need(src, pos, 16, end, type);
                int n = count(src, pos, src.u64(pos + 8), end - pos - 16, 24, type);
                long[] pids = new long[n];
                String[] comms = new String[n];
                for (int i = 0; i < n; i++) {
                    long e = pos + 16 + 24L * i;
                    pids[i] = src.u64(e);
                    comms[i] = src.cString(e + 8, 16);
                }
                return new ThreadMapRecord(offset, misc, size, pids, comms);
            }
            case PERF_RECORD_CPU_MAP:
                return new CpuMapRecord(offset, misc, size, cpuMap(src, pos, pos + 8, end, type));
            case PERF_RECORD_STAT_CONFIG: {
                need(src, pos, 16, end, type);
                int n = count(src, pos, src.u64(pos + 8), end - pos - 16, 16, type);
                long[] tags = new long[n];
                long[] vals = new long[n];
                for (int i = 0; i < n; i++) {
                    tags[i] = src.u64(pos + 16 + 16L * i);
                    vals[i] = src.u64(pos + 24 + 16L * i);
                }
                return new StatConfigRecord(offset, misc, size, tags, vals);
            }
            case PERF_RECORD_STAT:
                need(src, pos, 48, end, type);
                return new StatRecord(offset, misc, size, src.u64(pos + 8), src.s32(pos + 16), src.s32(pos + 20),
                        src.u64(pos + 24), src.u64(pos + 32), src.u64(pos + 40));
            case PERF_RECORD_STAT_ROUND:
                need(src, pos, 24, end, type);
                return new StatRoundRecord(offset, misc, size, src.u64(pos + 8), src.u64(pos + 16));
            case PERF_RECORD_EVENT_UPDATE: {
                need(src, pos, 24, end, type);
                long ut = src.u64(pos + 8);
                String text = null;
                double scale = Double.NaN;
                int[] cpus = null;
                if (ut == EventUpdateRecord.PERF_EVENT_UPDATE__UNIT || ut == EventUpdateRecord.PERF_EVENT_UPDATE__NAME) {
                    text = src.cString(pos + 24, end - pos - 24);
                } else if (ut == EventUpdateRecord.PERF_EVENT_UPDATE__SCALE) {
                    need(src, pos, 32, end, type);
                    scale = Double.longBitsToDouble(src.u64(pos + 24));
                } else if (ut == EventUpdateRecord.PERF_EVENT_UPDATE__CPUS) {
                    cpus = cpuMap(src, pos, pos + 24, end, type);
                }
                return new EventUpdateRecord(offset, misc, size, ut, src.u64(pos + 16), text, scale, cpus);
            }
            case PERF_RECORD_TIME_CONV: {
                need(src, pos, 32, end, type);
                boolean ext = end - pos >= 56;
                return new TimeConvRecord(offset, misc, size, src.u64(pos + 8), src.u64(pos + 16), src.u64(pos + 24),
                        ext ? src.u64(pos + 32) : 0, ext ? src.u64(pos + 40) : 0, ext && src.u8(pos + 48) != 0,
                        ext && src.u8(pos + 49) != 0);
            }
            case PERF_RECORD_HEADER_FEATURE:
                need(src, pos, 16, end, type);
                return new HeaderFeatureRecord(offset, misc, size, (int) Math.min(Integer.MAX_VALUE, src.u64(pos + 8)),
                        src.slice(pos + 16, end - pos - 16));
            case PERF_RECORD_COMPRESSED:
                return new CompressedRecord(offset, type, misc, size, end - pos - 8);
            case PERF_RECORD_COMPRESSED2: {
                need(src, pos, 16, end, type);
                long ds = src.u64(pos + 8);
                if (ds < 0 || ds > end - pos - 16) {
                    throw bad(src, pos, type, "data_size " + ds + " does not fit");
                }
                return new CompressedRecord(offset, type, misc, size, ds);
            }
            default:
                return new UnknownRecord(offset, type, misc, size);
        }
    }

    private PerfRecord mmap2(ByteSource src, long pos, long end, long offset, int misc, int size) {
        int type = PERF_RECORD_MMAP2;
        Trailer t = trailer(src, pos, end, type);
        need(src, pos, 72, t.start, type);
        int maj = 0;
        int min = 0;
        long ino = 0;
        long gen = 0;
        byte[] bid = null;
        if ((misc & PerfRecord.PERF_RECORD_MISC_MMAP_BUILD_ID) != 0) {
            bid = src.bytes(pos + 44, Math.min(20, src.u8(pos + 40)));
        } else {
            maj = src.s32(pos + 40);
            min = src.s32(pos + 44);
            ino = src.u64(pos + 48);
            gen = src.u64(pos + 56);
        }
        return new Mmap2Record(offset, misc, size, src.s32(pos + 8), src.s32(pos + 12), src.u64(pos + 16),
                src.u64(pos + 24), src.u64(pos + 32), maj, min, ino, gen, bid, src.s32(pos + 64), src.s32(pos + 68),
                src.cString(pos + 72, t.start - pos - 72), t.id);
    }

    /**
     * Decodes the PERF_RECORD_SAMPLE at {@code pos} into {@code v} without allocating (the
     * callchain stays in {@code src}); the caller has checked that its header.size bytes are in
     * {@code src}. Throws {@link PerfDataException} exactly where {@link #decode} would.
     */
    public void decodeSample(ByteSource src, long pos, long offset, SampleView v) {
        int type = PERF_RECORD_SAMPLE;
        int misc = src.u16(pos + 4);
        int size = src.u16(pos + 6);
        long end = pos + size;
        EventDesc ev = sampleEvent(src, pos, end);
        Layout l = layouts[ev.index()];
        long st = l.sampleType;
        if (l.sample.hasVariableFieldsBesidesCallchain()) {
            // fields beyond the callchain: the full decoder says whether the record is sound
            sample(src, pos, end, offset, misc, size);
        }
        long p = pos + 8;
        need(src, pos, 8L + l.fixedSize, end, type);
        v.event = ev;
        v.offset = offset;
        v.misc = misc;
        v.size = size;
        v.source = src;
        v.position = pos;
        v.id = -1;
        v.ip = -1;
        v.pid = -1;
        v.tid = -1;
        v.time = -1;
        v.cpu = -1;
        v.period = l.fixedPeriod;
        v.callchainNr = -1;
        if ((st & PERF_SAMPLE_IDENTIFIER) != 0) {
            v.id = src.u64(p);
            p += 8;
        }
        if ((st & PERF_SAMPLE_IP) != 0) {
            v.ip = src.u64(p);
            p += 8;
        }
        if ((st & PERF_SAMPLE_TID) != 0) {
            v.pid = src.s32(p);
            v.tid = src.s32(p + 4);
            p += 8;
        }
        if ((st & PERF_SAMPLE_TIME) != 0) {
            v.time = src.u64(p);
            p += 8;
        }
        if ((st & PERF_SAMPLE_ADDR) != 0) {
            p += 8;
        }
        if ((st & PERF_SAMPLE_ID) != 0) {
            v.id = src.u64(p);
            p += 8;
        }
        if ((st & PERF_SAMPLE_STREAM_ID) != 0) {
            p += 8;
        }
        if ((st & PERF_SAMPLE_CPU) != 0) {
            v.cpu = src.s32(p);
            p += 8;
        }
        if ((st & PERF_SAMPLE_PERIOD) != 0) {
            v.period = src.u64(p);
            p += 8;
        }
        if ((st & PERF_SAMPLE_CALLCHAIN) != 0) {
            if ((st & PERF_SAMPLE_READ) != 0) {
                long[] cursor = {p};
                readValues(src, cursor, end, l.readFormat, type, pos);
                p = cursor[0];
            }
            need(src, pos, p + 8 - pos, end, type);
            long nr = src.u64(p);
            if (nr < 0 || nr > (end - p - 8) / 8) {
                throw bad(src, pos, type, "callchain nr " + Long.toUnsignedString(nr) + " does not fit");
            }
            v.callchainAt = p + 8;
            v.callchainNr = (int) nr;
        }
    }

    private SampleRecord sample(ByteSource src, long pos, long end, long offset, int misc, int size) {
        int type = PERF_RECORD_SAMPLE;
        EventDesc ev = sampleEvent(src, pos, end);
        Layout l = layouts[ev.index()];
        long st = l.sampleType;
        long p = pos + 8;
        need(src, pos, 8L + l.fixedSize, end, type);
        long id = -1;
        long ip = -1;
        int pid = -1;
        int tid = -1;
        long time = -1;
        long addr = -1;
        long streamId = -1;
        int cpu = -1;
        long period = l.fixedPeriod;
        if ((st & PERF_SAMPLE_IDENTIFIER) != 0) {
            id = src.u64(p);
            p += 8;
        }
        if ((st & PERF_SAMPLE_IP) != 0) {
            ip = src.u64(p);
            p += 8;
        }
        if ((st & PERF_SAMPLE_TID) != 0) {
            pid = src.s32(p);
            tid = src.s32(p + 4);
            p += 8;
        }
        if ((st & PERF_SAMPLE_TIME) != 0) {
            time = src.u64(p);
            p += 8;
        }
        if ((st & PERF_SAMPLE_ADDR) != 0) {
            addr = src.u64(p);
            p += 8;
        }
        if ((st & PERF_SAMPLE_ID) != 0) {
            id = src.u64(p);
            p += 8;
        }
        if ((st & PERF_SAMPLE_STREAM_ID) != 0) {
            streamId = src.u64(p);
            p += 8;
        }
        if ((st & PERF_SAMPLE_CPU) != 0) {
            cpu = src.s32(p);
            p += 8;
        }
        if ((st & PERF_SAMPLE_PERIOD) != 0) {
            period = src.u64(p);
            p += 8;
        }
        if (!l.sample.hasVariableFields()) {
            return new SampleRecord(offset, misc, size, ev, id, ip, pid, tid, time, addr, streamId, cpu, period, null,
                    null, null, null, null, null, -1, -1, -1, -1, null, -1, -1, -1, -1, null);
        }
        long[] cursor = {p};
        ReadValues read = null;
        if ((st & PERF_SAMPLE_READ) != 0) {
            read = readValues(src, cursor, end, l.readFormat, type, pos);
        }
        long[] callchain = null;
        if ((st & PERF_SAMPLE_CALLCHAIN) != 0) {
            p = cursor[0];
            need(src, pos, p + 8 - pos, end, type);
            long nr = src.u64(p);
            if (nr < 0 || nr > (end - p - 8) / 8) {
                throw bad(src, pos, type, "callchain nr " + Long.toUnsignedString(nr) + " does not fit");
            }
            callchain = u64s(src, p + 8, (int) nr);
            cursor[0] = p + 8 + 8 * nr;
        }
        byte[] raw = null;
        if ((st & PERF_SAMPLE_RAW) != 0) {
            p = cursor[0];
            need(src, pos, p + 4 - pos, end, type);
            long rs = src.u32(p);
            need(src, pos, p + 4 + rs - pos, end, type);
            raw = src.bytes(p + 4, (int) rs);
            cursor[0] = p + 4 + rs;
        }
        BranchStack bs = null;
        if ((st & PERF_SAMPLE_BRANCH_STACK) != 0) {
            p = cursor[0];
            need(src, pos, p + 8 - pos, end, type);
            long nr = src.u64(p);
            p += 8;
            long hwIdx = -1;
            if (l.branchHwIdx) {
                need(src, pos, p + 8 - pos, end, type);
                hwIdx = src.u64(p);
                p += 8;
            }
            if (nr < 0 || nr > (end - p) / 24) {
                throw bad(src, pos, type, "branch stack nr " + Long.toUnsignedString(nr) + " does not fit");
            }
            long[] from = new long[(int) nr];
            long[] to = new long[(int) nr];
            long[] fl = new long[(int) nr];
            for (int i = 0; i < nr; i++) {
                from[i] = src.u64(p);
                to[i] = src.u64(p + 8);
                fl[i] = src.u64(p + 16);
                p += 24;
            }
            bs = new BranchStack(hwIdx, from, to, fl);
            cursor[0] = p;
        }
        Regs regsUser = null;
        if ((st & PERF_SAMPLE_REGS_USER) != 0) {
            regsUser = regs(src, cursor, end, l.attr.sampleRegsUser(), type, pos);
        }
        byte[] stack = null;
        long dynSize = -1;
        if ((st & PERF_SAMPLE_STACK_USER) != 0) {
            p = cursor[0];
            need(src, pos, p + 8 - pos, end, type);
            long ss = src.u64(p);
            if (ss < 0 || ss > end - p - 8) {
                throw bad(src, pos, type, "user stack size " + Long.toUnsignedString(ss) + " does not fit");
            }
            stack = src.bytes(p + 8, (int) ss);
            p += 8 + ss;
            if (ss != 0) {
                need(src, pos, p + 8 - pos, end, type);
                dynSize = src.u64(p);
                p += 8;
            }
            cursor[0] = p;
        }
        long weight = -1;
        long dataSrc = -1;
        long txn = -1;
        Regs regsIntr = null;
        long phys = -1;
        long cgroup = -1;
        long dps = -1;
        long cps = -1;
        byte[] aux = null;
        if ((st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) != 0) {
            weight = next(src, cursor, end, type, pos);
        }
        if ((st & PERF_SAMPLE_DATA_SRC) != 0) {
            dataSrc = next(src, cursor, end, type, pos);
        }
        if ((st & PERF_SAMPLE_TRANSACTION) != 0) {
            txn = next(src, cursor, end, type, pos);
        }
        if ((st & PERF_SAMPLE_REGS_INTR) != 0) {
            regsIntr = regs(src, cursor, end, l.attr.sampleRegsIntr(), type, pos);
        }
        if ((st & PERF_SAMPLE_PHYS_ADDR) != 0) {
            phys = next(src, cursor, end, type, pos);
        }
        if ((st & PERF_SAMPLE_CGROUP) != 0) {
            cgroup = next(src, cursor, end, type, pos);
        }
        if ((st & PERF_SAMPLE_DATA_PAGE_SIZE) != 0) {
            dps = next(src, cursor, end, type, pos);
        }
        if ((st & PERF_SAMPLE_CODE_PAGE_SIZE) != 0) {
            cps = next(src, cursor, end, type, pos);
        }
        if ((st & PERF_SAMPLE_AUX) != 0) {
            long as = next(src, cursor, end, type, pos);
            p = cursor[0];
            if (as < 0 || as > end - p) {
                throw bad(src, pos, type, "aux size " + Long.toUnsignedString(as) + " does not fit");
            }
            aux = src.bytes(p, (int) as);
            cursor[0] = p + as;
        }
        return new SampleRecord(offset, misc, size, ev, id, ip, pid, tid, time, addr, streamId, cpu, period, read,
                callchain, raw, bs, regsUser, stack, dynSize, weight, dataSrc, txn, regsIntr, phys, cgroup, dps, cps, aux);
    }

    private long next(ByteSource src, long[] cursor, long end, int type, long pos) {
        long p = cursor[0];
        need(src, pos, p + 8 - pos, end, type);
        cursor[0] = p + 8;
        return src.u64(p);
    }

    private Regs regs(ByteSource src, long[] cursor, long end, long mask, int type, long pos) {
        long abi = next(src, cursor, end, type, pos);
        if (abi == 0) {
            return new Regs(0, mask, NO_LONGS);
        }
        int n = Long.bitCount(mask);
        need(src, pos, cursor[0] + 8L * n - pos, end, type);
        long[] r = u64s(src, cursor[0], n);
        cursor[0] += 8L * n;
        return new Regs(abi, mask, r);
    }

    private ReadValues readValues(ByteSource src, long[] cursor, long end, long rf, int type, long pos) {
        long te = -1;
        long tr = -1;
        long[] values;
        long[] idv = null;
        long[] lost = null;
        if ((rf & PERF_FORMAT_GROUP) != 0) {
            long nr = next(src, cursor, end, type, pos);
            if ((rf & PERF_FORMAT_TOTAL_TIME_ENABLED) != 0) {
                te = next(src, cursor, end, type, pos);
            }
            if ((rf & PERF_FORMAT_TOTAL_TIME_RUNNING) != 0) {
                tr = next(src, cursor, end, type, pos);
            }
            int per = 1 + ((rf & PERF_FORMAT_ID) != 0 ? 1 : 0) + ((rf & PERF_FORMAT_LOST) != 0 ? 1 : 0);
            if (nr < 0 || nr > (end - cursor[0]) / (8L * per)) {
                throw bad(src, pos, type, "read group nr " + Long.toUnsignedString(nr) + " does not fit");
            }
            values = new long[(int) nr];
            idv = (rf & PERF_FORMAT_ID) != 0 ? new long[(int) nr] : null;
            lost = (rf & PERF_FORMAT_LOST) != 0 ? new long[(int) nr] : null;
            for (int i = 0; i < nr; i++) {
                values[i] = next(src, cursor, end, type, pos);
                if (idv != null) {
                    idv[i] = next(src, cursor, end, type, pos);
                }
                if (lost != null) {
                    lost[i] = next(src, cursor, end, type, pos);
                }
            }
        } else {
            values = new long[] {next(src, cursor, end, type, pos)};
            if ((rf & PERF_FORMAT_TOTAL_TIME_ENABLED) != 0) {
                te = next(src, cursor, end, type, pos);
            }
            if ((rf & PERF_FORMAT_TOTAL_TIME_RUNNING) != 0) {
                tr = next(src, cursor, end, type, pos);
            }
            if ((rf & PERF_FORMAT_ID) != 0) {
                idv = new long[] {next(src, cursor, end, type, pos)};
            }
            if ((rf & PERF_FORMAT_LOST) != 0) {
                lost = new long[] {next(src, cursor, end, type, pos)};
            }
        }
        return new ReadValues(te, tr, values, idv, lost);
    }

    /** Decodes {@code struct perf_record_cpu_map_data} at {@code p} (list, mask or range). */
    private int[] cpuMap(ByteSource src, long pos, long p, long end, int type) {
        need(src, pos, p + 4 - pos, end, type);
        int kind = src.u16(p);
        switch (kind) {
            case 0: {
                int nr = src.u16(p + 2);
                need(src, pos, p + 4 + 2L * nr - pos, end, type);
                int[] cpus = new int[nr];
                for (int i = 0; i < nr; i++) {
                    cpus[i] = src.u16(p + 4 + 2L * i);
                }
                return cpus;
            }
            case 1: {
                need(src, pos, p + 6 - pos, end, type);
                int nr = src.u16(p + 2);
                int longSize = src.u16(p + 4);
                if (longSize != 4 && longSize != 8) {
                    throw bad(src, pos, type, "cpu mask long_size " + longSize);
                }
                long words = longSize == 8 ? p + 10 : p + 6;
                need(src, pos, words + (long) longSize * nr - pos, end, type);
                int[] tmp = new int[nr * longSize * 8];
                int n = 0;
                for (int i = 0; i < nr; i++) {
                    long w = longSize == 8 ? src.u64(words + 8L * i) : src.u32(words + 4L * i);
                    for (int b = 0; b < longSize * 8; b++) {
                        if ((w & (1L << b)) != 0) {
                            tmp[n++] = i * longSize * 8 + b;
                        }
                    }
                }
                return Arrays.copyOf(tmp, n);
            }
            case 2: {
                need(src, pos, p + 8 - pos, end, type);
                boolean any = src.u8(p + 2) != 0;
                int start = src.u16(p + 4);
                int stop = src.u16(p + 6);
                if (stop < start) {
                    return new int[0];
                }
                int[] cpus = new int[stop - start + 1 + (any ? 1 : 0)];
                int k = 0;
                if (any) {
                    cpus[k++] = -1;
                }
                for (int c = start; c <= stop; c++) {
                    cpus[k++] = c;
                }
                return cpus;
            }
            default:
                throw bad(src, pos, type, "unknown cpu map type " + kind);
        }
    }

    /** The event of a SAMPLE (perf's evlist__event2evsel). */
    private EventDesc sampleEvent(ByteSource src, long pos, long end) {
        if (events.isEmpty()) {
            throw bad(src, pos, PERF_RECORD_SAMPLE, "no event (attr) is defined before it");
        }
        if (events.size() == 1 || idPos < 0) {
            return events.get(0);
        }
        long at = pos + 8 + 8L * idPos;
        if (at + 8 > end) {
            throw bad(src, pos, PERF_RECORD_SAMPLE, "too short to hold its id");
        }
        long id = src.u64(at);
        EventDesc e = eventOf(id);
        if (e == null) {
            throw bad(src, pos, PERF_RECORD_SAMPLE, "unknown event id " + Long.toUnsignedString(id));
        }
        return e;
    }

    /** The trailer at the end of a kernel record: its start, and its decoded fields. */
    private record Trailer(long start, SampleId id) {
    }

    private Trailer trailer(ByteSource src, long pos, long end, int type) {
        EventDesc e = nonSampleEvent(src, pos, end);
        if (e == null || !e.attr().sampleIdAll()) {
            return new Trailer(end, e == null ? SampleId.NONE : new SampleId(-1, -1, -1, -1, -1, -1, e));
        }
        int ts = layouts[e.index()].trailerSize;
        if (end - pos - 8 < ts) {
            throw bad(src, pos, type, "too short for its sample_id trailer (" + ts + " bytes)");
        }
        return new Trailer(end - ts, parseTrailer(src, end - ts, e));
    }

    /** The trailer at a known position (KSYMBOL, BPF_EVENT: forward, against size inflation). */
    private Trailer trailerAt(ByteSource src, long pos, long at, long end, int type) {
        EventDesc e = nonSampleEvent(src, pos, end);
        if (e == null || !e.attr().sampleIdAll()) {
            return new Trailer(at, e == null ? SampleId.NONE : new SampleId(-1, -1, -1, -1, -1, -1, e));
        }
        int ts = layouts[e.index()].trailerSize;
        if (at + ts > end) {
            // not enough room after the body: fall back to the end, as perf reads it
            return trailer(src, pos, end, type);
        }
        return new Trailer(at, parseTrailer(src, at, e));
    }

    private SampleId parseTrailer(ByteSource src, long p, EventDesc e) {
        long st = e.attr().sampleType();
        int pid = -1;
        int tid = -1;
        long time = -1;
        long id = -1;
        long sid = -1;
        int cpu = -1;
        if ((st & PERF_SAMPLE_TID) != 0) {
            pid = src.s32(p);
            tid = src.s32(p + 4);
            p += 8;
        }
        if ((st & PERF_SAMPLE_TIME) != 0) {
            time = src.u64(p);
            p += 8;
        }
        if ((st & PERF_SAMPLE_ID) != 0) {
            id = src.u64(p);
            p += 8;
        }
        if ((st & PERF_SAMPLE_STREAM_ID) != 0) {
            sid = src.u64(p);
            p += 8;
        }
        if ((st & PERF_SAMPLE_CPU) != 0) {
            cpu = src.s32(p);
            p += 8;
        }
        if ((st & PERF_SAMPLE_IDENTIFIER) != 0) {
            id = src.u64(p);
        }
        return new SampleId(pid, tid, time, id, sid, cpu, e);
    }

    /** The event of a non-SAMPLE kernel record: id counted back from the end (perf's is_pos). */
    private EventDesc nonSampleEvent(ByteSource src, long pos, long end) {
        if (events.isEmpty()) {
            return null;
        }
        EventDesc first = events.get(0);
        if (events.size() == 1 || !first.attr().sampleIdAll() || isPos < 0) {
            return first;
        }
        long n = (end - pos - 8) / 8;
        if (isPos > n) {
            return first;
        }
        long id = src.u64(pos + 8 + 8 * (n - isPos));
        EventDesc e = eventOf(id);
        return e == null ? first : e;
    }

    private static long pad8(long n) {
        return (n + 7) & ~7L;
    }

    private static long[] u64s(ByteSource src, long p, int n) {
        return n == 0 ? NO_LONGS : src.u64s(p, n);
    }

    private int count(ByteSource src, long pos, long nr, long room, int entry, int type) {
        if (nr < 0 || nr > room / entry) {
            throw bad(src, pos, type, "nr " + Long.toUnsignedString(nr) + " does not fit");
        }
        return (int) nr;
    }

    private void need(ByteSource src, long pos, long len, long limit, int type) {
        if (pos + len > limit) {
            throw bad(src, pos, type, "too short (needs " + len + " bytes)");
        }
    }

    private PerfDataException bad(ByteSource src, long pos, int type, String what) {
        return new PerfDataException(name + ": record " + RecordType.name(type) + " at 0x" + Long.toHexString(pos)
                + " (size " + src.u16(pos + 6) + "): " + what);
    }

    /** Per-event constants used on every sample. */
    private static final class Layout {
        final PerfEventAttr attr;
        final SampleLayout sample;
        final long sampleType;
        final long readFormat;
        final long fixedPeriod;
        final boolean branchHwIdx;
        final int fixedSize;
        final int trailerSize;

        Layout(EventDesc e) {
            attr = e.attr();
            sample = SampleLayout.of(attr);
            sampleType = sample.sampleType();
            readFormat = sample.readFormat();
            fixedPeriod = attr.freq() ? -1 : attr.samplePeriod();
            branchHwIdx = sample.branchHwIdx();
            fixedSize = sample.fixedSize();
            trailerSize = sample.sampleIdSize();
        }
    }

    /** id -> event index, open addressing (no boxing on the per-record path). */
    private static final class IdMap {
        private long[] keys = new long[16];
        private int[] vals = new int[16];
        private boolean[] used = new boolean[16];
        private int n;

        void put(long k, int v) {
            if (2 * (n + 1) > keys.length) {
                grow();
            }
            int i = slot(k);
            if (!used[i]) {
                used[i] = true;
                keys[i] = k;
                n++;
            }
            vals[i] = v;
        }

        int get(long k) {
            int i = slot(k);
            return used[i] ? vals[i] : -1;
        }

        private int slot(long k) {
            int mask = keys.length - 1;
            int i = (int) (mix(k) & mask);
            while (used[i] && keys[i] != k) {
                i = (i + 1) & mask;
            }
            return i;
        }

        private static long mix(long k) {
            k *= 0x9E3779B97F4A7C15L;
            return k ^ (k >>> 29);
        }

        private void grow() {
            long[] ok = keys;
            int[] ov = vals;
            boolean[] ou = used;
            keys = new long[ok.length * 2];
            vals = new int[ok.length * 2];
            used = new boolean[ok.length * 2];
            n = 0;
            for (int i = 0; i < ok.length; i++) {
                if (ou[i]) {
                    put(ok[i], ov[i]);
                }
            }
        }
    }
}
