package dev.jperf.recorder.stat;

import com.sun.jna.Memory;
import dev.jperf.format.bpf.Uapi;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.format.bpf.BpfMapInfoLayout;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.Mount;
import dev.jperf.nativeshim.NativeException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * perf's bperf attr map: a hash map pinned in bpffs (by default /sys/fs/bpf/perf_attr_map) from an
 * event's perf_event_attr to its leader ({@link BperfEntry}), so that concurrent runs share one
 * leader program and one set of counters per event. Held locked (flock on the map's fd, as perf's
 * bperf_lock_attr_map) from {@link #lock} to {@link #close}, so two runs never load two leaders
 * for one attr.
 */
public final class BperfAttrMap implements AutoCloseable {
    /** BPF_PERF_DEFAULT_ATTR_MAP_PATH, under the bpffs mount point */
    static final Path DEFAULT_PATH = Path.of("/sys/fs/bpf/perf_attr_map");
    /** ATTR_MAP_SIZE: events sharing the map */
    static final int ATTR_MAP_SIZE = 16;
    /** sizeof(struct perf_event_attr_map_entry): link_id, diff_map_id */
    static final int ENTRY_SIZE = 8;
    private static final Path BPFFS = Path.of("/sys/fs/bpf");

    private final Bpf bpf;
    private final int fd;
    private final int keySize;

    private BperfAttrMap(Bpf bpf, int fd, int keySize) {
        this.bpf = bpf;
        this.fd = fd;
        this.keySize = keySize;
    }

    /**
     * Opens the map pinned at {@code path}, creating and pinning it when there is none (bpffs is
     * mounted at /sys/fs/bpf first when the path is there and nothing is mounted, as bpftool does),
     * and locks it. {@code keySize} is the size of the attrs this jperf keys it with.
     */
    static BperfAttrMap lock(Path path, int keySize) {
        Bpf bpf = new Bpf();
        if (path.startsWith(BPFFS)) {
            mountBpffs();
        }
        int fd;
        if (!Files.exists(path)) {
            try {
                fd = bpf.mapCreate(Uapi.BPF_MAP_TYPE_HASH, keySize, ENTRY_SIZE, ATTR_MAP_SIZE, "perf_attr_map");
            } catch (NativeException e) {
                throw new StatException("--bpf-counters: cannot create the attr map: " + e.getMessage(), e);
            }
            int err = bpf.objPin(fd, path.toString());
            if (err < 0) {
                Fd.close(fd); // pinned by another run meanwhile, or the path is not in a bpffs
                fd = get(bpf, path, -err);
            }
        } else {
            fd = get(bpf, path, 0);
        }
        BperfAttrMap m = new BperfAttrMap(bpf, fd, keySize);
        try {
            m.checkCompatible(path);
            int err = Fd.flock(fd, Fd.LOCK_EX);
            if (err < 0) {
                throw new StatException("--bpf-counters: cannot lock the attr map " + path + ": " + Errno.describe(-err));
            }
            return m;
        } catch (RuntimeException e) {
            Fd.close(fd);
            throw e;
        }
    }

    private static int get(Bpf bpf, Path path, int pinErrno) {
        try {
            return bpf.objGet(path.toString());
        } catch (NativeException e) {
            throw new StatException("--bpf-counters: cannot pin or open the attr map " + path + ": "
                    + Errno.describe(pinErrno != 0 ? pinErrno : e.errno()), e);
        }
    }

    /** bperf_attr_map_compatible: a hash map of perf_event_attr keys and entry values. */
    private void checkCompatible(Path path) {
        Memory info = new Memory(BpfMapInfoLayout.SIZE);
        info.clear();
        bpf.objGetInfoByFd(fd, info, BpfMapInfoLayout.SIZE);
        int type = info.getInt(BpfMapInfoLayout.TYPE);
        int key = info.getInt(BpfMapInfoLayout.KEY_SIZE);
        int value = info.getInt(BpfMapInfoLayout.VALUE_SIZE);
        if (type != Uapi.BPF_MAP_TYPE_HASH || key != keySize || value != ENTRY_SIZE) {
            throw new StatException("--bpf-counters: " + path + " is not a perf_event_attr map of this layout (map type "
                    + type + ", key " + key + " bytes, value " + value + "; expected hash, " + keySize + ", "
                    + ENTRY_SIZE + ")");
        }
    }

    /** Mounts bpffs at /sys/fs/bpf unless it is there, as bpftool does. */
    public static void mountBpffs() {
        if (bpffsMounted()) {
            return;
        }
        try {
            Mount.mount("bpf", BPFFS.toString(), "bpf");
        } catch (NativeException e) {
            throw new StatException("--bpf-counters: cannot mount bpffs at " + BPFFS + ": " + e.getMessage(), e);
        }
    }

    private static boolean bpffsMounted() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/mounts"))) {
                String[] f = line.split(" ");
                if (f.length > 2 && f[1].equals(BPFFS.toString()) && f[2].equals("bpf")) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    /** The leader recorded for {@code attr}, null when there is none. */
    BperfEntry lookup(byte[] attr) {
        try {
            ByteBuffer b = ByteBuffer.wrap(bpf.mapLookupElem(fd, attr, ENTRY_SIZE)).order(ByteOrder.LITTLE_ENDIAN);
            return new BperfEntry(b.getInt(0), b.getInt(4));
        } catch (NativeException e) {
            if (e.errno() == Errno.ENOENT) {
                return null;
            }
            throw new StatException("--bpf-counters: cannot read the attr map: " + e.getMessage(), e);
        }
    }

    void update(byte[] attr, BperfEntry entry) {
        byte[] v = ByteBuffer.allocate(ENTRY_SIZE).order(ByteOrder.LITTLE_ENDIAN).putInt(entry.linkId())
                .putInt(entry.diffMapId()).array();
        int err = bpf.mapUpdateElem(fd, attr, v);
        if (err < 0) {
            throw new StatException("--bpf-counters: cannot record the leader in the attr map: " + Errno.describe(-err));
        }
    }

    @Override
    public void close() {
        Fd.flock(fd, Fd.LOCK_UN);
        Fd.close(fd);
    }
}
