package dev.jperf.format.feature;

import dev.jperf.format.btf.Btf;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** BPF_BTF: u32 count, then count x {u32 btf_id, u32 size, raw BTF}, ordered by id. */
public record BpfBtfs(List<BtfBlob> blobs) implements FeatureSection {
    public BpfBtfs {
        blobs = List.copyOf(blobs);
    }

    /** One BTF object as BPF_OBJ_GET_INFO_BY_FD returned it. */
    public record BtfBlob(int id, byte[] data) {
        public BtfBlob {
            data = data.clone();
        }

        @Override
        public byte[] data() {
            return data.clone();
        }

        /** Parses the blob (throws {@link dev.jperf.format.btf.BtfException} when malformed). */
        public Btf parse() {
            return Btf.parse(data);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof BtfBlob b && id == b.id && Arrays.equals(data, b.data);
        }

        @Override
        public int hashCode() {
            return id * 31 + Arrays.hashCode(data);
        }

        @Override
        public String toString() {
            return "BtfBlob[id=" + Integer.toUnsignedString(id) + ", " + data.length + " bytes]";
        }
    }

    public static BpfBtfs decode(ByteBuffer body) {
        FeatureReader r = new FeatureReader(body, "BPF_BTF");
        int n = r.count("count", 8);
        List<BtfBlob> blobs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int id = r.u32("btf id");
            long size = Integer.toUnsignedLong(r.u32("btf size"));
            blobs.add(new BtfBlob(id, r.bytes(size, "BTF of id " + Integer.toUnsignedString(id))));
        }
        return new BpfBtfs(blobs);
    }

    /** The BTF with this id (the first one, as perf keeps the first of duplicates). */
    public Optional<BtfBlob> byId(int id) {
        return blobs.stream().filter(b -> b.id == id).findFirst();
    }

    @Override
    public int bit() {
        return Feature.BPF_BTF.bit();
    }

    @Override
    public byte[] encode() {
        FeatureWriter w = new FeatureWriter().u32(blobs.size());
        for (BtfBlob b : blobs) {
            w.u32(b.id).u32(b.data.length).bytes(b.data);
        }
        return w.toByteArray();
    }
}
