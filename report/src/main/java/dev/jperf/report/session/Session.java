package dev.jperf.report.session;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.RecordStream;
import dev.jperf.format.header.EventDesc;
import dev.jperf.format.io.ByteSource;
import dev.jperf.format.record.BuildIdRecord;
import dev.jperf.format.record.CommRecord;
import dev.jperf.format.record.ExitRecord;
import dev.jperf.format.record.FinishedRoundRecord;
import dev.jperf.format.record.ForkRecord;
import dev.jperf.format.record.KsymbolRecord;
import dev.jperf.format.record.LostSamplesRecord;
import dev.jperf.format.record.Mmap2Record;
import dev.jperf.format.record.MmapRecord;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.SampleRecord;
import dev.jperf.report.symbol.BpfProgSymbols;
import dev.jperf.report.symbol.SymbolResolver;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * Reads a perf.data file the way perf report does: build-ids from the header, records in time
 * order (FINISHED_ROUND), thread and map state from the side-band records, and every sample
 * resolved (thread, comm, DSO, symbol, callchain) and handed to a {@link SampleConsumer}.
 */
public final class Session {
    /** HEADER_BUILD_ID feature bit. */
    static final int HEADER_BUILD_ID = 2;
    private static final int PERF_RECORD_MISC_BUILD_ID_SIZE = 1 << 15;
    private static final int MAX_STACK = 127;

    /**
     * What to resolve and which samples to mark filtered.
     *
     * @param callchains resolve callchains (off for -g none --no-children: faster)
     * @param comms --comm, or null
     * @param pids --pid, or null
     * @param tids --tid, or null
     * @param cpus --cpu: samples of other CPUs are dropped, or null
     */
    public record Options(boolean callchains, Set<String> comms, Set<Integer> pids, Set<Integer> tids,
            Set<Integer> cpus) {
    }

    private final PerfDataFile file;
    private final Machine machine;
    private final Options options;
    private long totalLostSamples;
    private long progressBytes;

    public Session(PerfDataFile file, SymbolResolver resolver, Options options) {
        this.file = file;
        this.machine = new Machine(resolver);
        machine.setBpfProgSymbols(() -> BpfProgSymbols.of(file.features().bpfPrograms()));
        this.options = options;
        readBuildIds();
    }

    public Machine machine() {
        return machine;
    }

    public PerfDataFile file() {
        return file;
    }

    /** Sum of PERF_RECORD_LOST_SAMPLES counts (perf's "Total Lost Samples"). */
    public long totalLostSamples() {
        return totalLostSamples;
    }

    /** Reads every record and hands each sample, resolved, to {@code consumer}. */
    public void run(SampleConsumer consumer) {
        Progress progress = Progress.forStderr(file.dataSection().size());
        OrderedEvents oe = new OrderedEvents(r -> deliver(r, consumer));
        try (RecordStream rs = file.records()) {
            long n = 0;
            while (rs.hasNext()) {
                PerfRecord r = rs.next();
                if ((++n & 0xfff) == 0 && progress != null) {
                    progress.update(r.offset());
                }
                if (r instanceof FinishedRoundRecord) {
                    oe.finishedRound();
                } else if (r instanceof BuildIdRecord b) {
                    machine.addBuildId(b.filename(), b.buildId());
                } else if (r.type() < 64) {
                    oe.queue(r, timeOf(r));
                }
            }
            oe.finish();
        } finally {
            if (progress != null) {
                progress.done();
            }
        }
    }

    private static long timeOf(PerfRecord r) {
        if (r instanceof SampleRecord s) {
            return s.time();
        } else if (r instanceof MmapRecord m) {
            return m.sampleId().time();
        } else if (r instanceof Mmap2Record m) {
            return m.sampleId().time();
        } else if (r instanceof CommRecord c) {
            return c.sampleId().time();
        } else if (r instanceof ForkRecord f) {
            return f.sampleId().time();
        } else if (r instanceof ExitRecord e) {
            return e.sampleId().time();
        } else if (r instanceof KsymbolRecord k) {
            return k.sampleId().time();
        } else if (r instanceof LostSamplesRecord l) {
            return l.sampleId().time();
        }
        return r.sampleId().time();
    }

    private void deliver(PerfRecord r, SampleConsumer consumer) {
        if (r instanceof SampleRecord s) {
            sample(s, consumer);
        } else if (r instanceof MmapRecord m) {
            int prot = (m.misc() & PerfRecord.PERF_RECORD_MISC_MMAP_DATA) != 0 ? 1 : 1 | Machine.PROT_EXEC;
            machine.mmap(m.pid(), m.tid(), m.addr(), m.len(), m.pgoff(), m.filename(), prot, m.cpumode(), null);
        } else if (r instanceof Mmap2Record m) {
            machine.mmap(m.pid(), m.tid(), m.addr(), m.len(), m.pgoff(), m.filename(), m.prot(), m.cpumode(),
                    m.buildId());
        } else if (r instanceof CommRecord c) {
            machine.comm(c.pid(), c.tid(), c.comm());
        } else if (r instanceof ForkRecord f) {
            machine.fork(f.pid(), f.ppid(), f.tid(), f.ptid(), f.misc());
        } else if (r instanceof KsymbolRecord k) {
            machine.ksymbol(k.addr(), k.len(), k.name(), k.unregister());
        } else if (r instanceof LostSamplesRecord l) {
            totalLostSamples += l.lost();
        }
        if (!(r instanceof SampleRecord)) {
            consumer.sideBand(r);
        }
    }

    private void sample(SampleRecord s, SampleConsumer consumer) {
        if (options.cpus() != null && !options.cpus().contains(s.cpu())) {
            return;
        }
        PerfThread thread = machine.findOrCreateThread(s.pid(), s.tid());
        int cpumode = s.misc() & 7;
        Frame frame = machine.resolve(thread, cpumode, s.ip());
        Frame[] chain = null;
        if (options.callchains() && s.callchain() != null) {
            chain = resolveCallchain(thread, s.callchain());
        }
        String comm = thread.comm();
        boolean filtered = (options.comms() != null && !options.comms().contains(comm))
                || (options.pids() != null && !options.pids().contains(thread.pid()))
                || (options.tids() != null && !options.tids().contains(thread.tid()));
        consumer.sample(new ResolvedSample(s, s.event(), thread, comm, frame, chain, filtered));
    }

    /**
     * perf report's thread__resolve_callchain_sample with its default caller order: entries from
     * the outermost caller in, at most 127 addresses (so a deep chain loses its innermost frames,
     * as in perf), each context marker applying to the entries before it.
     */
    private Frame[] resolveCallchain(PerfThread thread, long[] ips) {
        Frame[] out = new Frame[Math.min(ips.length, MAX_STACK)];
        int n = 0;
        int cpumode = PerfRecord.PERF_RECORD_MISC_USER;
        for (int j = ips.length; j >= 0 && n < MAX_STACK; j--) {
            long ip = j == ips.length ? SampleRecord.PERF_CONTEXT_MAX : ips[j];
            if (SampleRecord.isContextMarker(ip)) {
                // find_prev_cpumode: the marker before this point rules the entries that follow
                for (int k = j - 1; k >= 0; k--) {
                    long m = ips[k];
                    if (SampleRecord.isContextMarker(m)) {
                        if (m == SampleRecord.PERF_CONTEXT_HV) {
                            cpumode = PerfRecord.PERF_RECORD_MISC_HYPERVISOR;
                        } else if (m == SampleRecord.PERF_CONTEXT_KERNEL) {
                            cpumode = PerfRecord.PERF_RECORD_MISC_KERNEL;
                        } else if (m == SampleRecord.PERF_CONTEXT_USER) {
                            cpumode = PerfRecord.PERF_RECORD_MISC_USER;
                        } else {
                            return new Frame[0];
                        }
                        break;
                    }
                }
                continue;
            }
            out[n++] = machine.resolve(thread, cpumode, ip);
        }
        return n == out.length ? out : java.util.Arrays.copyOf(out, n);
    }

    private void readBuildIds() {
        ByteSource b = file.featureBody(HEADER_BUILD_ID).orElse(null);
        if (b == null) {
            return;
        }
        long p = 0;
        long end = b.size();
        while (p + 36 <= end) {
            int misc = b.u16(p + 4);
            int size = b.u16(p + 6);
            if (size < 36 || p + size > end) {
                break;
            }
            int idLen = (misc & PERF_RECORD_MISC_BUILD_ID_SIZE) != 0 ? Math.min(b.u8(p + 32), 20) : 20;
            byte[] id = b.bytes(p + 12, idLen);
            String name = b.cString(p + 36, size - 36);
            if (!name.isEmpty()) {
                machine.addBuildId(name, id);
            }
            p += size;
        }
    }

    /** The progress line: only when reading takes over a second and stderr is a terminal. */
    static final class Progress {
        private final long total;
        private final long started = System.nanoTime();
        private boolean shown;
        private final PrintStream err = System.err;

        private Progress(long total) {
            this.total = total;
        }

        static Progress forStderr(long total) {
            try {
                Path tty = Files.readSymbolicLink(Path.of("/proc/self/fd/2"));
                String t = tty.toString();
                if (t.startsWith("/dev/pts/") || t.startsWith("/dev/tty")) {
                    return new Progress(Math.max(total, 1));
                }
            } catch (Exception e) {
                // no /proc or not a link: treat as not a terminal
            }
            return null;
        }

        void update(long offset) {
            if (System.nanoTime() - started < 1_000_000_000L) {
                return;
            }
            shown = true;
            err.printf("\rProcessing events... %3d%%", Math.min(100, offset * 100 / total));
            err.flush();
        }

        void done() {
            if (shown) {
                err.print("\r\033[K");
                err.flush();
            }
        }
    }
}
