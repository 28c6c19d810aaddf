package dev.jperf.format.feature;

import dev.jperf.format.bpf.BpfFormatException;
import dev.jperf.format.bpf.BpfProgInfo;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * BPF_PROG_INFO: u32 count, then count perf_bpil entries (see {@link BpfProgInfo#readPerfBpil}),
 * ordered by program id. Encoded the way perf 6.1 accepts: info_len 232, arrays in bit order.
 */
public record BpfProgInfos(List<BpfProgInfo> programs) implements FeatureSection {
    public BpfProgInfos {
        programs = List.copyOf(programs);
    }

    public static BpfProgInfos decode(ByteBuffer body) {
        if (body.order() != ByteOrder.LITTLE_ENDIAN) {
            // perf ignores it too: the arrays inside are in the writer's order and not byte-swappable blindly
            throw new FeatureException("BPF_PROG_INFO: big-endian file, section ignored (as perf does)");
        }
        FeatureReader r = new FeatureReader(body, "BPF_PROG_INFO");
        int n = r.count("count", BpfProgInfo.BPIL_HEADER_SIZE);
        List<BpfProgInfo> progs = new ArrayList<>(n);
        ByteBuffer b = r.buffer();
        for (int i = 0; i < n; i++) {
            try {
                progs.add(BpfProgInfo.readPerfBpil(b));
            } catch (BpfFormatException e) {
                throw r.error("entry " + i + ": " + e.getMessage());
            }
        }
        return new BpfProgInfos(progs);
    }

    /** The program with this id (the first one, as perf keeps the first of duplicates). */
    public Optional<BpfProgInfo> byId(int id) {
        return programs.stream().filter(p -> p.id() == id).findFirst();
    }

    @Override
    public int bit() {
        return Feature.BPF_PROG_INFO.bit();
    }

    @Override
    public byte[] encode() {
        FeatureWriter w = new FeatureWriter().u32(programs.size());
        for (BpfProgInfo p : programs) {
            w.bytes(p.toPerfBpil());
        }
        return w.toByteArray();
    }
}
