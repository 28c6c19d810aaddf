package dev.jperf.bpf;

import com.sun.jna.Memory;
import dev.jperf.format.bpf.BpfMapInfoLayout;
import dev.jperf.format.bpf.BpfProgInfoLayout;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import java.util.ArrayList;
import java.util.List;

/**
 * The loaded programs or maps, one at a time in id order, as bpftool walks them:
 * BPF_*_GET_NEXT_ID, then BPF_*_GET_FD_BY_ID. An object unloaded between the two calls (ENOENT)
 * is skipped, not an error. Each step hands out an fd that the caller closes.
 */
final class IdWalk {
    /** What is walked, and bpftool's words for it in messages. */
    enum Kind {
        PROG("prog", "program", BpfProgInfoLayout.SIZE),
        MAP("map", "map", BpfMapInfoLayout.SIZE),
        LINK("link", "link", LinkCommands.INFO_SIZE);

        /** As in "can't get prog by id". */
        final String word;
        /** As in "can't get next program". */
        final String noun;
        /** Of its bpf_*_info. */
        final int infoSize;

        Kind(String word, String noun, int infoSize) {
            this.word = word;
            this.noun = noun;
            this.infoSize = infoSize;
        }
    }

    /** A test of the object {@link #next} opened last. */
    interface Match {
        boolean test(IdWalk walk, int fd);
    }

    private final KernelObjects kernel;
    private final Kind kind;
    private final boolean listing;
    private int id;

    /**
     * {@code listing}: a failing GET_NEXT_ID is said as do_show says it ("can't get next map:
     * ..."), else as the lookups by name say it (the strerror text alone).
     */
    IdWalk(KernelObjects kernel, Kind kind, boolean listing) {
        this.kernel = kernel;
        this.kind = kind;
        this.listing = listing;
    }

    /** The fd of the next live object (the caller closes it), or -1 after the last. */
    int next() {
        while (true) {
            try {
                id = kind == Kind.PROG ? kernel.bpf.progGetNextId(id)
                        : kind == Kind.MAP ? kernel.bpf.mapGetNextId(id) : kernel.bpf.linkGetNextId(id);
            } catch (NativeException e) {
                throw new BpftoolException(!listing ? KernelObjects.strerror(e) : "can't get next " + kind.noun + ": "
                        + KernelObjects.strerror(e) + (e.errno() == Errno.EINVAL ? " -- kernel too old?" : ""));
            }
            if (id == 0) {
                return -1;
            }
            int fd = kind == Kind.PROG ? kernel.bpf.progGetFdByIdOrErrno(id)
                    : kind == Kind.MAP ? kernel.bpf.mapGetFdByIdOrErrno(id) : kernel.bpf.linkGetFdById(id);
            if (fd >= 0) {
                return fd;
            }
            if (fd != -Errno.ENOENT) {
                throw new BpftoolException("can't get " + kind.word + " by id (" + Integer.toUnsignedString(id) + "): "
                        + Errno.text(-fd));
            }
            // gone since GET_NEXT_ID
        }
    }

    /** The id of the object {@link #next} opened last. */
    int id() {
        return id;
    }

    /** Its bpf_prog_info or bpf_map_info (without arrays), as the lookups by name read it. */
    byte[] info(int fd) {
        try {
            return kernel.info(fd, new Memory(kind.infoSize), kind.infoSize, true);
        } catch (NativeException e) {
            throw new BpftoolException("can't get " + kind.word + " info (" + Integer.toUnsignedString(id) + "): "
                    + KernelObjects.strerror(e));
        }
    }

    /**
     * prog_fd_by_nametag / map_fd_by_name: the fds of every live object {@code match} takes, in id
     * order (the others are closed at once); on a failure none is left open.
     */
    static int[] matching(KernelObjects kernel, Kind kind, Match match) {
        IdWalk walk = new IdWalk(kernel, kind, false);
        List<Integer> fds = new ArrayList<>();
        boolean done = false;
        try {
            for (int fd = walk.next(); fd >= 0; fd = walk.next()) {
                boolean keep = false;
                try {
                    keep = match.test(walk, fd);
                } finally {
                    if (keep) {
                        fds.add(fd);
                    } else {
                        Fd.close(fd);
                    }
                }
            }
            done = true;
        } finally {
            if (!done) {
                for (int fd : fds) {
                    Fd.close(fd);
                }
            }
        }
        int[] out = new int[fds.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = fds.get(i);
        }
        return out;
    }
}
