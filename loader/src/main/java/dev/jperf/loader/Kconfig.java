package dev.jperf.loader;

import dev.jperf.nativeshim.Errno;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * Values of {@code .kconfig} externs: libbpf's virtual LINUX_* ones, and CONFIG_* read from
 * {@code /boot/config-$(uname -r)} or {@code /proc/config.gz} (bpf_object__resolve_externs).
 */
final class Kconfig {
    private Kconfig() {
    }

    /** Fills {@code data} (the .kconfig map's value) for every kcfg extern; a strong extern left unset fails. */
    static void resolve(String path, List<Extern> externs, byte[] data, Probes probes) throws BpfObjectException {
        boolean needConfig = false;
        for (Extern e : externs) {
            if (e.type != Extern.Type.KCFG) {
                continue;
            }
            if (e.name.startsWith("CONFIG_")) {
                needConfig = true;
                continue;
            }
            long value;
            switch (e.name) {
                case "LINUX_KERNEL_VERSION" -> {
                    value = Probes.kernelVersion();
                    if (value == 0) {
                        throw new BpfObjectException(path + ": extern (kcfg) '" + e.name + "': failed to get kernel version",
                                Errno.EINVAL);
                    }
                }
                case "LINUX_HAS_BPF_COOKIE" -> value = probes.bpfCookie() ? 1 : 0;
                case "LINUX_HAS_SYSCALL_WRAPPER" -> value = probes.syscallWrapper() ? 1 : 0;
                default -> {
                    if (!e.name.startsWith("LINUX_") || !e.weak) {
                        throw new BpfObjectException(path + ": extern (kcfg) '" + e.name + "': unrecognized virtual extern",
                                Errno.EINVAL);
                    }
                    continue;
                }
            }
            setNum(path, e, data, value);
        }
        if (needConfig) {
            readConfig(path, externs, data);
        }
        for (Extern e : externs) {
            if (e.type == Extern.Type.KCFG && !e.set && !e.weak) {
                throw new BpfObjectException(path + ": extern " + e.name + " (strong) not resolved", Errno.ESRCH);
            }
        }
    }

    private static void readConfig(String path, List<Extern> externs, byte[] data) throws BpfObjectException {
        Path boot = Path.of("/boot/config-" + Probes.release());
        try (InputStream in = Files.isReadable(boot) ? Files.newInputStream(boot)
                : new GZIPInputStream(Files.newInputStream(Path.of("/proc/config.gz")));
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (!line.startsWith("CONFIG_")) {
                    continue;
                }
                int eq = line.indexOf('=');
                if (eq < 0) {
                    continue;
                }
                Extern e = find(externs, line.substring(0, eq));
                if (e == null || e.set) {
                    continue;
                }
                String v = line.substring(eq + 1);
                if (v.equals("y") || v.equals("n") || v.equals("m")) {
                    setTri(path, e, data, v.charAt(0));
                } else if (v.startsWith("\"")) {
                    setStr(path, e, data, v);
                } else {
                    long n;
                    try {
                        n = v.startsWith("0x") ? Long.parseUnsignedLong(v.substring(2), 16) : Long.parseLong(v);
                    } catch (NumberFormatException ex) {
                        throw new BpfObjectException(path + ": extern (kcfg) '" + e.name + "': value '" + v
                                + "' isn't a number", Errno.EINVAL);
                    }
                    setNum(path, e, data, n);
                }
            }
        } catch (IOException ex) {
            throw new BpfObjectException(path + ": failed to open system Kconfig: " + ex.getMessage(), Errno.ENOENT);
        }
    }

    private static Extern find(List<Extern> externs, String name) {
        for (Extern e : externs) {
            if (e.type == Extern.Type.KCFG && e.name.equals(name)) {
                return e;
            }
        }
        return null;
    }

    private static void setTri(String path, Extern e, byte[] data, char v) throws BpfObjectException {
        switch (e.kcfgType) {
            case BOOL -> {
                if (v == 'm') {
                    throw new BpfObjectException(path + ": extern (kcfg) '" + e.name + "': value 'm' isn't boolean",
                            Errno.EINVAL);
                }
                data[e.kcfgDataOff] = (byte) (v == 'y' ? 1 : 0);
            }
            case TRISTATE -> put(data, e.kcfgDataOff, 4, v == 'y' ? 1 : v == 'm' ? 2 : 0);
            case CHAR -> data[e.kcfgDataOff] = (byte) v;
            default -> throw new BpfObjectException(path + ": extern (kcfg) '" + e.name + "': value '" + v
                    + "' implies tristate or char type", Errno.EINVAL);
        }
        e.set = true;
    }

    private static void setStr(String path, Extern e, byte[] data, String v) throws BpfObjectException {
        if (e.kcfgType != Extern.KcfgType.CHAR_ARR || v.length() < 2 || !v.endsWith("\"")) {
            throw new BpfObjectException(path + ": extern (kcfg) '" + e.name + "': value " + v + " isn't a string for a char array",
                    Errno.EINVAL);
        }
        byte[] s = v.substring(1, v.length() - 1).getBytes(StandardCharsets.UTF_8);
        int n = Math.min(s.length, e.kcfgSize - 1);
        System.arraycopy(s, 0, data, e.kcfgDataOff, n);
        data[e.kcfgDataOff + n] = 0;
        e.set = true;
    }

    /** set_kcfg_value_num */
    static void setNum(String path, Extern e, byte[] data, long value) throws BpfObjectException {
        if (e.kcfgType != Extern.KcfgType.INT && e.kcfgType != Extern.KcfgType.CHAR && e.kcfgType != Extern.KcfgType.BOOL) {
            throw new BpfObjectException(path + ": extern (kcfg) '" + e.name + "': value '" + value
                    + "' implies integer, char, or boolean type", Errno.EINVAL);
        }
        if (e.kcfgType == Extern.KcfgType.BOOL && Long.compareUnsigned(value, 1) > 0) {
            throw new BpfObjectException(path + ": extern (kcfg) '" + e.name + "': value isn't boolean compatible",
                    Errno.EINVAL);
        }
        int bits = e.kcfgSize * 8;
        if (bits < 64) {
            boolean fits = e.kcfgSigned ? value >= -(1L << (bits - 1)) && value < (1L << (bits - 1))
                    : Long.compareUnsigned(value, (1L << bits) - 1) <= 0;
            if (!fits) {
                throw new BpfObjectException(path + ": extern (kcfg) '" + e.name + "': value '" + value
                        + "' doesn't fit in " + e.kcfgSize + " bytes", Errno.ERANGE);
            }
        }
        put(data, e.kcfgDataOff, e.kcfgSize, value);
        e.set = true;
    }

    private static void put(byte[] data, int off, int size, long v) {
        for (int i = 0; i < size; i++) {
            data[off + i] = (byte) (v >>> (8 * i));
        }
    }
}
