package dev.jperf.bpf;

import com.sun.jna.Memory;
import dev.jperf.format.bpf.BpfTypeNames;
import dev.jperf.format.bpf.BpfMapInfoLayout;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import java.util.List;

/**
 * {@code bpftool map update|delete|getnext|freeze} (map.c of bpftool 7.1): bpftool's
 * {@code key [hex] BYTES value [hex] BYTES [any|exist|noexist]} grammar (parse_elem, parse_bytes),
 * its messages and its output. Values of maps of maps and of program arrays (an fd taken from
 * {@code id|pinned} words) are not supported: refused in one line.
 */
public final class MapElemCommands {
    private static final int BPF_ANY = 0, BPF_NOEXIST = 1, BPF_EXIST = 2;
    private static final int PROG_ARRAY = 3, ARRAY_OF_MAPS = 12, HASH_OF_MAPS = 13;

    private final KernelObjects kernel = new KernelObjects();
    private final Output o;

    public MapElemCommands(Output output) {
        this.o = output;
    }

    /** {@code bpftool map update MAP key BYTES value BYTES [flags]}. */
    public void update(BpfHandle h, List<String> args) {
        int fd = openOne(h);
        try {
            BpfMapInfo info = info(fd);
            if (info.type() == PROG_ARRAY || info.type() == ARRAY_OF_MAPS || info.type() == HASH_OF_MAPS) {
                throw new BpftoolException("jperf cannot update maps of maps or program arrays (values are fds)");
            }
            Elem e = new Elem(info.keySize(), info.valueSize());
            // alloc_key_value: no key (queue, stack) or no value is a NULL bpftool does not ask for
            e.parse(args, 0, info.keySize() != 0, info.valueSize() != 0, true);
            Memory key = info.keySize() == 0 ? null : mem(e.key);
            int slot = (info.valueSize() + 7) & ~7;
            boolean perCpu = BpfTypeNames.isPerCpu(info.type());
            int cpus = perCpu ? PossibleCpus.count() : 1;
            // fill_per_cpu_value: the one value copied into every CPU's 8-byte-aligned slot
            Memory value = new Memory(Math.max(1, perCpu ? (long) slot * cpus : info.valueSize()));
            value.clear();
            for (int c = 0; e.value != null && c < cpus; c++) {
                value.write((long) c * slot, e.value, 0, e.value.length);
            }
            int err = -kernel.bpf.mapUpdateElem(fd, key, info.valueSize() == 0 ? null : value, e.flags);
            if (err != 0) {
                throw failed("update failed: ", err);
            }
        } finally {
            Fd.close(fd);
        }
        nullIfJson();
    }

    /** {@code bpftool map delete MAP key BYTES}. */
    public void delete(BpfHandle h, List<String> args) {
        int fd = openOne(h);
        try {
            BpfMapInfo info = info(fd);
            Elem e = new Elem(info.keySize(), 0);
            e.parse(args, 0, true, false, false);
            int err = -kernel.bpf.mapDeleteElem(fd, mem(e.key));
            if (err != 0) {
                throw failed("delete failed: ", err);
            }
        } finally {
            Fd.close(fd);
        }
        nullIfJson();
    }

    /** {@code bpftool map getnext MAP [key BYTES]}. */
    public void getnext(BpfHandle h, List<String> args) {
        int fd = openOne(h);
        try {
            BpfMapInfo info = info(fd);
            byte[] key = null;
            if (!args.isEmpty()) {
                Elem e = new Elem(info.keySize(), 0);
                e.parse(args, 0, true, false, false);
                key = e.key;
            }
            Memory next = new Memory(Math.max(1, info.keySize()));
            int err = -kernel.bpf.mapGetNextKey(fd, key == null ? null : mem(key), next);
            if (err != 0) {
                throw failed("can't get next key: ", err);
            }
            byte[] nk = next.getByteArray(0, info.keySize());
            if (o.json()) {
                o.jw().startObject();
                if (key != null) {
                    o.jw().name("key");
                    Hex.json(o.jw(), key, 0, key.length);
                } else {
                    o.jw().name("key");
                    o.jw().nul();
                }
                o.jw().name("next_key");
                Hex.json(o.jw(), nk, 0, nk.length);
                o.jw().endObject();
            } else {
                StringBuilder out = o.out();
                if (key != null) {
                    out.append("key:\n");
                    Hex.plain(out, key, 0, key.length, " ");
                    out.append('\n');
                } else {
                    out.append("key: None\n");
                }
                out.append("next key:\n");
                Hex.plain(out, nk, 0, nk.length, " ");
                out.append('\n');
            }
        } finally {
            Fd.close(fd);
        }
    }

    /** {@code bpftool map lookup MAP key BYTES}: the element as {@code map dump} prints it. */
    public void lookup(BpfHandle h, List<String> args) {
        int fd = openOne(h);
        try {
            BpfMapInfo info = info(fd);
            Elem e = new Elem(info.keySize(), 0);
            e.parse(args, 0, info.keySize() != 0, false, false);
            new MapCommands(o).lookup(fd, info, e.key == null ? new byte[0] : e.key);
        } finally {
            Fd.close(fd);
        }
    }

    /** {@code bpftool map freeze MAP}. */
    public void freeze(BpfHandle h) {
        int fd = openOne(h);
        int err;
        try {
            err = -kernel.bpf.mapFreeze(fd);
        } finally {
            Fd.close(fd);
        }
        if (err != 0) {
            throw failed("failed to freeze map: ", err);
        }
        nullIfJson();
    }

    /** {@code bpftool map pop|dequeue MAP}: the element taken out, or "empty map"; words after MAP are ignored, as bpftool. */
    public void pop(String verb, List<String> args) {
        if (args.size() < 2) {
            throw BpftoolException.usage();
        }
        int fd = openOne(BpfHandle.parse(args, 0, "map"));
        try {
            new MapCommands(o).pop(fd, info(fd));
        } finally {
            Fd.close(fd);
        }
    }

    /** A refused bpf(2) call: bpftool returns libbpf's -errno, so it exits with 256 - errno. */
    private static BpftoolException failed(String what, int errno) {
        return new BpftoolException(what + Errno.text(errno), false, -errno & 0xff);
    }

    private void nullIfJson() {
        if (o.json()) {
            o.jw().nul();
        }
    }

    /** map_parse_fd: exactly one map. */
    int openOne(BpfHandle h) {
        int[] fds = new MapCommands(o).open(h);
        if (fds.length == 1) {
            return fds[0];
        }
        for (int fd : fds) {
            Fd.close(fd);
        }
        // no match: bpftool prints nothing
        throw new BpftoolException(fds.length > 1 ? "several maps match this handle" : "no map matches " + h,
                fds.length == 0);
    }

    private BpfMapInfo info(int fd) {
        Memory m = new Memory(BpfMapInfoLayout.SIZE);
        try {
            return BpfMapInfo.decode(kernel.info(fd, m, BpfMapInfoLayout.SIZE, true));
        } catch (NativeException e) {
            throw new BpftoolException("can't get map info: " + KernelObjects.strerror(e));
        }
    }

    private static Memory mem(byte[] b) {
        Memory m = new Memory(Math.max(1, b.length));
        m.write(0, b, 0, b.length);
        return m;
    }

    /** parse_elem's state: the key and value still wanted (null once given), the flags. */
    static final class Elem {
        final int keySize;
        final int valueSize;
        byte[] key;
        byte[] value;
        int flags = BPF_ANY;

        Elem(int keySize, int valueSize) {
            this.keySize = keySize;
            this.valueSize = valueSize;
        }

        /** parse_elem, recursing as bpftool's does: {@code needKey}, {@code needValue}, flags still allowed. */
        void parse(List<String> argv, int i, boolean needKey, boolean needValue, boolean flagsAllowed) {
            if (i >= argv.size()) {
                if (!needKey && !needValue) {
                    return;
                }
                throw new BpftoolException("did not find " + (needKey ? "key" : "value"));
            }
            String w = argv.get(i);
            if (isPrefix(w, "key")) {
                if (!needKey) {
                    throw new BpftoolException(keySize != 0 ? "duplicate key" : "unnecessary key");
                }
                key = new byte[keySize];
                int next = parseBytes(argv, i + 1, "key", key);
                parse(argv, next, false, needValue, flagsAllowed);
            } else if (isPrefix(w, "value")) {
                if (!needValue) {
                    throw new BpftoolException(valueSize != 0 ? "duplicate value" : "unnecessary value");
                }
                value = new byte[valueSize];
                int next = parseBytes(argv, i + 1, "value", value);
                parse(argv, next, needKey, false, flagsAllowed);
            } else if (isPrefix(w, "any") || isPrefix(w, "noexist") || isPrefix(w, "exist")) {
                if (!flagsAllowed) {
                    throw new BpftoolException("flags specified multiple times: " + w);
                }
                flags = isPrefix(w, "any") ? BPF_ANY : isPrefix(w, "noexist") ? BPF_NOEXIST : BPF_EXIST;
                parse(argv, i + 1, needKey, needValue, false);
            } else {
                throw new BpftoolException("expected key or value, got: " + w);
            }
        }

        /** parse_bytes: {@code n} bytes, each as strtoul (base 16 after {@code hex}, else C's base 0). */
        static int parseBytes(List<String> argv, int i, String name, byte[] val) {
            int base = 0;
            if (i < argv.size() && isPrefix(argv.get(i), "hex")) {
                base = 16;
                i++;
            }
            int n = 0;
            while (n < val.length && i + n < argv.size()) {
                String s = argv.get(i + n);
                Long v = strtoul(s, base);
                if (v == null) {
                    throw new BpftoolException("error parsing byte: " + s);
                }
                val[n] = (byte) (long) v;
                n++;
            }
            if (n != val.length) {
                throw new BpftoolException(name + " expected " + val.length + " bytes got " + n);
            }
            return i + n;
        }
    }

    /** bpftool's is_prefix: {@code s} starts {@code word} (the empty string too, as strncmp of 0 bytes). */
    static boolean isPrefix(String s, String word) {
        return word.startsWith(s);
    }

    /**
     * strtoul(s, &end, base) where all of {@code s} must be consumed: the value (wrapped as C
     * wraps it; only its low byte is used), or null when characters are left over.
     */
    static Long strtoul(String s, int base) {
        int i = 0;
        while (i < s.length() && " \t\n\r\f\u000b".indexOf(s.charAt(i)) >= 0) {
            i++;
        }
        int start = i;
        boolean neg = false;
        if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            neg = s.charAt(i) == '-';
            i++;
        }
        int b = base;
        boolean hexPrefix = i + 1 < s.length() && s.charAt(i) == '0' && (s.charAt(i + 1) | 0x20) == 'x'
                && i + 2 < s.length() && Character.digit(s.charAt(i + 2), 16) >= 0;
        if ((b == 0 || b == 16) && hexPrefix) {
            b = 16;
            i += 2;
        } else if (b == 0) {
            b = i < s.length() && s.charAt(i) == '0' ? 8 : 10;
        }
        int digitsAt = i;
        long v = 0;
        while (i < s.length() && Character.digit(s.charAt(i), b) >= 0 && s.charAt(i) < 128) {
            v = v * b + Character.digit(s.charAt(i), b);
            i++;
        }
        if (i == digitsAt) {
            // no digits: strtoul consumes nothing, the end is the start of the string
            return s.isEmpty() || start == s.length() && start == 0 ? Long.valueOf(0) : null;
        }
        return i == s.length() ? (neg ? -v : v) : null;
    }
}
