package dev.jperf.bpf;

import dev.jperf.format.bpf.BpfMapInfoLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** struct bpf_map_info, the fields bpftool 7.1 reads (the 88 bytes of the 6.1 UAPI). */
public record BpfMapInfo(int type, int id, int keySize, int valueSize, int maxEntries, int mapFlags, String name,
        int ifindex, int btfVmlinuxValueTypeId, long netnsDev, long netnsIno, int btfId, int btfKeyTypeId,
        int btfValueTypeId, long mapExtra) {

    /** Decodes the bytes the kernel wrote (at least {@link BpfMapInfoLayout#SIZE}). */
    public static BpfMapInfo decode(byte[] raw) {
        ByteBuffer b = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
        int n = 0;
        while (n < 16 && raw[BpfMapInfoLayout.NAME + n] != 0) {
            n++;
        }
        return new BpfMapInfo(b.getInt(BpfMapInfoLayout.TYPE), b.getInt(BpfMapInfoLayout.ID),
                b.getInt(BpfMapInfoLayout.KEY_SIZE), b.getInt(BpfMapInfoLayout.VALUE_SIZE),
                b.getInt(BpfMapInfoLayout.MAX_ENTRIES), b.getInt(BpfMapInfoLayout.MAP_FLAGS),
                new String(raw, BpfMapInfoLayout.NAME, n, StandardCharsets.UTF_8), b.getInt(BpfMapInfoLayout.IFINDEX),
                b.getInt(BpfMapInfoLayout.BTF_VMLINUX_VALUE_TYPE_ID), b.getLong(BpfMapInfoLayout.NETNS_DEV),
                b.getLong(BpfMapInfoLayout.NETNS_INO), b.getInt(BpfMapInfoLayout.BTF_ID),
                b.getInt(BpfMapInfoLayout.BTF_KEY_TYPE_ID), b.getInt(BpfMapInfoLayout.BTF_VALUE_TYPE_ID),
                b.getLong(BpfMapInfoLayout.MAP_EXTRA));
    }
}
