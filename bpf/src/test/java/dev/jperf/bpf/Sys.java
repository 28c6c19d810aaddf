package dev.jperf.bpf;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.nio.charset.StandardCharsets;

/**
 * bpf(2) commands only tests use (creating and filling maps, loading BTF with its log), so that
 * tests build real kernel objects for jperf and bpftool to show.
 */
final class Sys {
    private static final Function SYSCALL = Function.getFunction("c", "syscall");
    private static final long SYS_BPF = 321;

    private Sys() {}

    private static long bpf(int cmd, Memory attr) {
        return SYSCALL.invokeLong(new Object[] {SYS_BPF, (long) cmd, attr, attr.size()});
    }

    /** BPF_MAP_CREATE; btf 0 for none. */
    static int mapCreate(int type, String name, int keySize, int valueSize, int maxEntries, int flags, int btfFd,
            int keyTypeId, int valueTypeId) {
        return mapCreate(type, name, keySize, valueSize, maxEntries, flags, btfFd, keyTypeId, valueTypeId, 0);
    }

    /** BPF_MAP_CREATE of a map of maps: {@code innerMapFd} is the template of the maps it holds. */
    static int mapCreate(int type, String name, int keySize, int valueSize, int maxEntries, int flags, int btfFd,
            int keyTypeId, int valueTypeId, int innerMapFd) {
        Memory a = new Memory(72);
        a.clear();
        a.setInt(0, type);
        a.setInt(4, keySize);
        a.setInt(8, valueSize);
        a.setInt(12, maxEntries);
        a.setInt(16, flags);
        a.setInt(20, innerMapFd);
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        a.write(28, n, 0, Math.min(15, n.length));
        if (btfFd > 0) {
            a.setInt(48, btfFd);
            a.setInt(52, keyTypeId);
            a.setInt(56, valueTypeId);
        }
        long fd = bpf(0, a);
        if (fd < 0) {
            throw new IllegalStateException("BPF_MAP_CREATE " + name + ": errno " + Native.getLastError());
        }
        return (int) fd;
    }

    /** BPF_MAP_UPDATE_ELEM (BPF_ANY); an empty key is NULL (queues, stacks, bloom filters). */
    static void update(int fd, byte[] key, byte[] value) {
        Memory k = new Memory(Math.max(1, key.length));
        k.write(0, key, 0, key.length);
        Memory v = new Memory(Math.max(1, value.length));
        v.write(0, value, 0, value.length);
        Memory a = new Memory(32);
        a.clear();
        a.setInt(0, fd);
        a.setLong(8, key.length == 0 ? 0 : Pointer.nativeValue(k)); // maps without keys want NULL
        a.setLong(16, Pointer.nativeValue(v));
        if (bpf(2, a) < 0) {
            throw new IllegalStateException("BPF_MAP_UPDATE_ELEM: errno " + Native.getLastError());
        }
    }

    /** mount(2) of a bpf file system of its own at {@code dir}. */
    static void mountBpffs(String dir) {
        Function mount = Function.getFunction("c", "mount");
        if (mount.invokeInt(new Object[] {"bpf", dir, "bpf", 0L, null}) != 0) {
            throw new IllegalStateException("mount -t bpf bpf " + dir + ": errno " + Native.getLastError());
        }
    }

    /** umount(2). */
    static void umount(String dir) {
        Function.getFunction("c", "umount").invokeInt(new Object[] {dir});
    }

    /** BPF_OBJ_PIN of {@code fd} at {@code path} in a bpf file system. */
    static void pin(int fd, String path) {
        byte[] p = path.getBytes(StandardCharsets.UTF_8);
        Memory name = new Memory(p.length + 1);
        name.write(0, p, 0, p.length);
        name.setByte(p.length, (byte) 0);
        Memory a = new Memory(16);
        a.clear();
        a.setLong(0, Pointer.nativeValue(name));
        a.setInt(8, fd);
        if (bpf(6, a) < 0) {
            throw new IllegalStateException("BPF_OBJ_PIN " + path + ": errno " + Native.getLastError());
        }
    }

    /** BPF_PROG_TEST_RUN of {@code data} once; the program's return value. */
    static int testRun(int progFd, byte[] data) {
        Memory in = new Memory(data.length);
        in.write(0, data, 0, data.length);
        Memory a = new Memory(80);
        a.clear();
        a.setInt(0, progFd);
        a.setInt(8, data.length);
        a.setLong(16, Pointer.nativeValue(in));
        a.setInt(32, 1);
        if (bpf(10, a) < 0) {
            throw new IllegalStateException("BPF_PROG_TEST_RUN: errno " + Native.getLastError());
        }
        return a.getInt(4);
    }

    /** BPF_BTF_LOAD; the kernel's log in the exception when it refuses the blob. */
    static int btfLoad(byte[] btf) {
        Memory blob = new Memory(btf.length);
        blob.write(0, btf, 0, btf.length);
        Memory log = new Memory(1 << 16);
        log.clear();
        Memory a = new Memory(28);
        a.clear();
        a.setLong(0, Pointer.nativeValue(blob));
        a.setLong(8, Pointer.nativeValue(log));
        a.setInt(16, btf.length);
        a.setInt(20, (int) log.size());
        a.setInt(24, 1);
        long fd = bpf(18, a);
        if (fd < 0) {
            throw new IllegalStateException("BPF_BTF_LOAD: errno " + Native.getLastError() + ": " + log.getString(0));
        }
        return (int) fd;
    }
}
