package dev.jperf.recorder;

import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.format.feature.BpfBtfs;
import dev.jperf.format.feature.BpfProgInfos;
import dev.jperf.format.feature.Feature;
import dev.jperf.format.writer.PerfPipeWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Pipe mode's BPF metadata: perf 6.1 writes HEADER_BPF_PROG_INFO and HEADER_BPF_BTF into a stream
 * once, at its start (empty), so a program loaded while recording is known there by name only.
 * jperf sends each program captured later as a BPF_PROG_INFO record of its own, its BTF as a
 * BPF_BTF record, as soon as they are captured (a stream has no end to write them at if the
 * recorder is killed, and one feature record holds at most 64 KiB); readers add them up
 * (perf's process_bpf_prog_info inserts each program it reads, jperf merges the counted lists).
 */
final class StreamedBpf {
    private final Set<Integer> sentPrograms;
    private final Set<Integer> sentBtfs;
    /** Programs whose info is larger than one record can carry. */
    private int tooLarge;

    StreamedBpf(Set<Integer> programs, Set<Integer> btfs) {
        this.sentPrograms = new HashSet<>(programs);
        this.sentBtfs = new HashSet<>(btfs);
    }

    /** Sends what was captured since the last call: each BTF before the programs that use it. */
    void send(PerfPipeWriter pipe, Map<Integer, BpfProgInfo> programs, Map<Integer, byte[]> btfs) throws IOException {
        for (Map.Entry<Integer, byte[]> e : btfs.entrySet()) {
            if (sentBtfs.add(e.getKey())) {
                byte[] body = new BpfBtfs(List.of(new BpfBtfs.BtfBlob(e.getKey(), e.getValue()))).encode();
                if (!pipe.appendFeature(Feature.BPF_BTF.bit(), body)) {
                    tooLarge++;
                }
            }
        }
        for (Map.Entry<Integer, BpfProgInfo> e : programs.entrySet()) {
            if (sentPrograms.add(e.getKey())) {
                byte[] body = new BpfProgInfos(new ArrayList<>(List.of(e.getValue()))).encode();
                if (!pipe.appendFeature(Feature.BPF_PROG_INFO.bit(), body)) {
                    tooLarge++;
                }
            }
        }
    }

    /** BPF_PROG_INFO / BPF_BTF bodies that did not fit a record and are not in the stream. */
    int tooLarge() {
        return tooLarge;
    }
}
