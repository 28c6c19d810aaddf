package dev.jperf.recorder;

import dev.jperf.format.record.RecordType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The records a recording starts with, in perf's order (perf-data-format.md §10): ID_INDEX, the
 * kernel's and modules' maps, a stream's event names, THREAD_MAP, CPU_MAP, the loaded BPF
 * programs and images, what /proc says of the processes, FINISHED_INIT.
 */
final class StartupRecords {
    private StartupRecords() {
    }

    /**
     * Appends them through {@code copier}; {@code images} reads kallsyms and writes the BPF images;
     * the loaded programs only when {@code captureBpf} (they can be read by id); {@code workloadPid}:
     * the command's process (0: none).
     */
    static void write(RecordOptions options, PerfEvents events, List<Integer> cpus, List<Integer> threads,
            RecordCopier copier, BpfCapture capture, BpfImages images, int trailer, boolean captureBpf, int workloadPid)
            throws IOException {
        SyntheticRecords s = new SyntheticRecords(trailer);
        s.idIndex(events.idIndex());
        KernelMaps kallsyms = images.readKernelRange();
        ProcSynthesizer proc = new ProcSynthesizer(Path.of("/proc"), s, options.namespaces(), options.sampleAddress());
        proc.kernel(kallsyms);
        if (options.pipeOutput()) {
            // a file carries the names in EVENT_DESC; a stream names its events here too, as perf does
            for (PerfEvents.Evsel e : events.evsels()) {
                s.eventUpdateName(e.ids().get(0), e.name());
            }
        }
        int[] tids = Cpus.toArray(threads);
        String[] comms = new String[tids.length];
        for (int i = 0; i < tids.length; i++) {
            comms[i] = tids[i] == -1 ? "" : Targets.comm(tids[i]);
        }
        s.threadMap(tids, comms);
        s.cpuMap(Cpus.toArray(cpus));
        BpfSynthesizer bpf = new BpfSynthesizer(capture, s);
        if (captureBpf) {
            bpf.loadedPrograms();
        }
        images.atStart(bpf);
        // --synth: perf's record__synthesize, the tasks only with task, their maps only with mmap
        boolean tasks = (options.synth() & RecordOptions.SYNTH_TASK) != 0;
        boolean mmaps = (options.synth() & RecordOptions.SYNTH_MMAP) != 0;
        if (tasks && options.systemWide()) {
            proc.allProcesses(mmaps);
        } else if (tasks) {
            for (int tid : tids) {
                int tgid = Targets.tgid(tid);
                if (tgid > 0) {
                    proc.thread(tgid, tid, mmaps && tgid == tid);
                }
            }
        } else if (workloadPid > 0) {
            // perf's __cmd_record names its workload whatever --synth says (perf_event__synthesize_comm)
            proc.thread(workloadPid, workloadPid, false);
        }
        s.empty(RecordType.PERF_RECORD_FINISHED_INIT);
        copier.appendOwn(s.records());
    }
}
