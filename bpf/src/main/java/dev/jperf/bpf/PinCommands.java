package dev.jperf.bpf;

import dev.jperf.format.bpf.BpfTypeNames;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.nativeshim.Netlink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code bpftool map create}, {@code map pin}, {@code prog pin}, {@code link pin} (map.c,
 * prog.c, link.c and common.c's do_pin_any of bpftool 7.1): bpftool's words, messages and exit
 * codes. A pin outlives the command, as bpftool's does.
 */
public final class PinCommands {
    private final KernelObjects kernel = new KernelObjects();
    private final Output o;

    public PinCommands(Output output) {
        this.o = output;
    }

    /** REQ_ARGS: at least {@code n} words after {@code verb}. */
    static void require(List<String> args, int n, String verb) {
        require(args, n, verb, BpftoolException.EXIT);
    }

    /** REQ_ARGS where the command then returns {@code exitCode} (do_pin_any: -EINVAL). */
    static void require(List<String> args, int n, String verb, int exitCode) {
        if (args.size() < n) {
            throw new BpftoolException("'" + verb + "' needs at least " + n + " arguments, " + args.size() + " found",
                    false, exitCode);
        }
    }

    /** do_pin_any: {@code OBJECT pin HANDLE FILE} for {@code object} "map", "prog" or "link". */
    public void pin(String object, List<String> args) {
        require(args, 3, "pin", -Errno.EINVAL & 0xff);
        int fd = open(kernel, o, object, BpfHandle.parse(args, 0, object));
        try {
            Bpffs.pinFd(kernel.bpf, fd, args.get(2));
        } finally {
            Fd.close(fd);
        }
        if (o.json()) {
            o.jw().nul();
        }
    }

    /** map_parse_fd, prog_parse_fd, link_parse_fd: exactly one object. */
    static int open(KernelObjects kernel, Output o, String object, BpfHandle h) {
        switch (object) {
            case "map":
                return new MapElemCommands(o).openOne(h);
            case "link":
                return LinkCommands.open(kernel, h);
            default:
                int[] fds = ProgCommands.open(kernel, h);
                if (fds.length == 1) {
                    return fds[0];
                }
                for (int fd : fds) {
                    Fd.close(fd);
                }
                // no match: bpftool prints nothing
                throw new BpftoolException(fds.length > 1 ? "several programs match this handle"
                        : "no program matches " + h, fds.length == 0);
        }
    }

    /**
     * {@code map create FILE type TYPE key KEY_SIZE value VALUE_SIZE entries MAX_ENTRIES name
     * NAME [flags FLAGS] [inner_map MAP] [dev NAME]}: the map created and pinned at FILE.
     */
    public void create(List<String> args) {
        require(args, 7, "create");
        String pinfile = args.get(0);
        int type = 0;
        long keySize = 0, valueSize = 0, maxEntries = 0, flags = 0;
        int ifindex = 0;
        int innerFd = 0;
        String name = null;
        try {
            int i = 1;
            while (i < args.size()) {
                require(args.subList(i, args.size()), 2, args.get(i - 1));
                String w = args.get(i);
                String v = args.get(i + 1);
                if ("type".startsWith(w)) {
                    if (type != 0) {
                        throw new BpftoolException("map type already specified");
                    }
                    type = mapType(v);
                    if (type < 0) {
                        throw new BpftoolException("unrecognized map type: " + v);
                    }
                } else if ("name".startsWith(w)) {
                    name = v;
                } else if ("key".startsWith(w)) {
                    keySize = u32(keySize, v, "key size");
                } else if ("value".startsWith(w)) {
                    valueSize = u32(valueSize, v, "value size");
                } else if ("entries".startsWith(w)) {
                    maxEntries = u32(maxEntries, v, "max entries");
                } else if ("flags".startsWith(w)) {
                    flags = u32(flags, v, "flags");
                } else if ("dev".startsWith(w)) {
                    if (ifindex != 0) {
                        throw new BpftoolException("offload device already specified");
                    }
                    ifindex = ifindex(v);
                } else if ("inner_map".startsWith(w)) {
                    require(args.subList(i + 1, args.size()), 2, w);
                    // a second inner_map leaves the first open until the command ends, as bpftool
                    int fd = new MapElemCommands(o).openOne(BpfHandle.parse(args, i + 1, "map"));
                    if (innerFd > 0) {
                        Fd.close(innerFd);
                    }
                    innerFd = fd;
                    i++;
                } else {
                    throw new BpftoolException("unknown arg " + w);
                }
                i += 2;
            }
            if (name == null) {
                throw new BpftoolException("map name not specified");
            }
            int fd = kernel.bpf.mapCreate(type, name, (int) keySize, (int) valueSize, (int) maxEntries, (int) flags,
                    innerFd, 0, 0, 0, 0, ifindex, 0);
            if (fd < 0) {
                throw new BpftoolException("map create failed: " + Errno.text(-fd));
            }
            try {
                Bpffs.pinFd(kernel.bpf, fd, pinfile);
            } finally {
                Fd.close(fd);
            }
        } finally {
            if (innerFd > 0) {
                Fd.close(innerFd);
            }
        }
        if (o.json()) {
            o.jw().nul();
        }
    }

    /** map_type_from_str: libbpf's names, whole words only; -1 for none. */
    private static int mapType(String s) {
        for (int t = 0; BpfTypeNames.mapType(t) != null; t++) {
            if (BpfTypeNames.mapType(t).equals(s)) {
                return t;
            }
        }
        return -1;
    }

    /** parse_u32_arg: "already specified" only over a non-zero value, as bpftool checks it. */
    private static long u32(long current, String s, String what) {
        if (current != 0) {
            throw new BpftoolException(what + " already specified");
        }
        Long v = MapElemCommands.strtoul(s, 0);
        if (v == null) {
            throw new BpftoolException("can't parse " + s + " as " + what);
        }
        return v & 0xffffffffL;
    }

    /** if_nametoindex; bpftool's message when there is no such device. */
    static int ifindex(String name) {
        int i = Netlink.ifNameToIndex(name);
        if (i == 0) {
            throw new BpftoolException("unrecognized netdevice '" + name + "': " + Errno.text(Errno.ENODEV));
        }
        return i;
    }

    static String strerror(NativeException e) {
        return KernelObjects.strerror(e);
    }
}
