package dev.jperf.loader;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.jperf.format.bpf.Uapi;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Mman;
import dev.jperf.nativeshim.NativeException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A map of a BPF object: BTF-defined ({@code .maps}), legacy ({@code maps}), or libbpf's internal
 * array for a global data section ({@code .data}, {@code .rodata}, {@code .bss}, {@code .kconfig}).
 * Before load a caller may change {@link #setMaxEntries} and, for internal maps, the initial
 * value; after load {@link #fd()} is the kernel's map, read and written by key with
 * {@link #lookup}, {@link #update}, {@link #delete} and {@link #nextKey}, and an internal map's
 * variables through {@link #globalData()}.
 */
public final class BpfMap {
    /** enum libbpf_map_type: which global data section an internal map holds, NONE for a map the object defines. */
    public enum Internal {
        /** A map the object defines ({@code .maps} or legacy {@code maps}). */
        NONE,
        /** {@code .data} (and {@code .data.*}): initialised, writable variables. */
        DATA,
        /** {@code .bss}: zeroed, writable variables. */
        BSS,
        /** {@code .rodata} (and {@code .rodata.*}): constants, frozen at load. */
        RODATA,
        /** {@code .kconfig}: the kernel configuration externs, filled at load. */
        KCONFIG
    }

    static final int BPF_F_RDONLY_PROG = 1 << 7;
    static final int BPF_F_MMAPABLE = 1 << 10;

    final String name;
    /** The ELF section name for internal maps, else the name. */
    final String realName;
    final Internal internal;
    final int secIdx;
    final long secOffset;
    int type;
    int keySize;
    int valueSize;
    int maxEntries;
    int flags;
    long mapExtra;
    int btfKeyTypeId;
    int btfValueTypeId;
    /** A map-in-map's inner map definition (created only as the outer map's template), else null. */
    BpfMap inner;
    /** The object this map belongs to, set when the object is opened. */
    BpfObject owner;
    /** Index of the map's VAR in the .maps DATASEC (BTF-defined maps), -1 otherwise. */
    int btfVarIdx = -1;
    /** What the definition's {@code values} initialise: a BpfMap or BpfProgram per slot, null where none. */
    Object[] initSlots = new Object[0];
    /** The initial contents of an internal map (its one value). */
    byte[] data;
    int fd = -1;
    /** Set by {@link #reuseFd}: the fd is the caller's, the loader neither creates nor closes the map. */
    boolean reused;
    /** The kernel's map mapped into this process after load ({@link #globalData}), unmapped at close. */
    ByteBuffer mapped;

    BpfMap(String name, String realName, Internal internal, int secIdx, long secOffset) {
        this.name = name;
        this.realName = realName;
        this.internal = internal;
        this.secIdx = secIdx;
        this.secOffset = secOffset;
    }

    /** The map's name as the kernel gets it (an internal map's: libbpf's internal_map_name, e.g. {@code exec_cou.rodata}). */
    public String name() {
        return name;
    }

    /** enum bpf_map_type */
    public int type() {
        return type;
    }

    /** Key size in bytes. */
    public int keySize() {
        return keySize;
    }

    /** Value size in bytes (per CPU, for a per-CPU map). */
    public int valueSize() {
        return valueSize;
    }

    /** The most elements the map holds. */
    public int maxEntries() {
        return maxEntries;
    }

    /** The map_flags of MAP_CREATE (BPF_F_*). */
    public int flags() {
        return flags;
    }

    /** The key's type in the object's BTF, 0 when untyped. */
    public int btfKeyTypeId() {
        return btfKeyTypeId;
    }

    /** The value's type in the object's BTF (an internal map's: its DATASEC), 0 when untyped. */
    public int btfValueTypeId() {
        return btfValueTypeId;
    }

    /** Which global data section this map holds, {@link Internal#NONE} for the object's own maps. */
    public Internal internal() {
        return internal;
    }

    /** The kernel's map fd once loaded, else -1. */
    public int fd() {
        return fd;
    }

    /** bpf_map__set_max_entries: allowed before load only. */
    public void setMaxEntries(int n) {
        configurable();
        maxEntries = n;
    }

    /**
     * bpf_map__reuse_fd: the object uses the existing map {@code mapFd} instead of creating its own
     * (the caller keeps the fd open while the object lives and closes it); before load only. Its type and sizes must match the
     * definition, as libbpf checks when the programs are relocated against it.
     */
    public void reuseFd(int mapFd, int type, int keySize, int valueSize) {
        configurable();
        if (type != this.type || keySize != this.keySize || valueSize != this.valueSize) {
            throw new IllegalArgumentException("map '" + name + "': the map to reuse (type " + type + ", key " + keySize
                    + ", value " + valueSize + ") does not match the definition (type " + this.type + ", key "
                    + this.keySize + ", value " + this.valueSize + ")");
        }
        fd = mapFd;
        reused = true;
    }

    /** Whether the kernel lets this process map the map's memory (BPF_F_MMAPABLE: global data with BTF). */
    public boolean mmapable() {
        return (flags & BPF_F_MMAPABLE) != 0;
    }

    /**
     * The variables of an internal map ({@code .data}, {@code .rodata}, {@code .bss}), the
     * section's bytes little-endian at the offsets its BTF DATASEC gives, as libbpf's
     * bpf_map__initial_value and a skeleton's section pointer. Before load: the initial value the
     * load gives the kernel (writes change what the programs start with, {@code .rodata}
     * included). After load: the kernel's map mapped into this process (mmapable maps), so reads
     * see what the programs write and writes reach them at once; {@code .rodata} is then
     * read-only, frozen as libbpf freezes it. A map that cannot be mapped gives a read-only copy
     * of its current value. Fetch it again after load and never use it after the object is
     * closed (the mapping is gone).
     */
    public ByteBuffer globalData() throws BpfObjectException {
        if (internal == Internal.NONE || data == null) {
            throw new IllegalStateException("map '" + name + "' is not a global data section");
        }
        BpfObject.State st = owner == null ? BpfObject.State.OPENED : owner.state();
        if (st == BpfObject.State.OPENED) {
            return ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        }
        requireFd();
        if (mapped == null) {
            if (!mmapable()) {
                return ByteBuffer.wrap(lookup(new byte[4])).order(ByteOrder.LITTLE_ENDIAN).asReadOnlyBuffer();
            }
            boolean readOnly = internal == Internal.RODATA || internal == Internal.KCONFIG;
            long len = ((long) valueSize + 4095) & ~4095L;
            try {
                ByteBuffer b = Mman.mmap(fd, len, readOnly ? Mman.PROT_READ : Mman.PROT_READ | Mman.PROT_WRITE,
                        "map '" + name + "'");
                b.limit(valueSize);
                mapped = b.slice().order(ByteOrder.LITTLE_ENDIAN);
                mapped = readOnly ? mapped.asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN) : mapped;
                full = b;
            } catch (NativeException e) {
                throw new BpfObjectException("map '" + name + "': mmap: " + Errno.name(e.errno()) + ": "
                        + Errno.text(e.errno()), e.errno());
            }
        }
        return mapped.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The whole mapping behind {@link #mapped}, what munmap takes. */
    private ByteBuffer full;

    /** Unmaps what {@link #globalData} mapped (the object's close). */
    void unmap() {
        if (full != null) {
            Mman.munmap(full);
            full = null;
            mapped = null;
        }
    }

    /** Whether a value is one slot per possible CPU (per-CPU hash, array, LRU hash, cgroup storage). */
    public boolean perCpu() {
        return type == Uapi.BPF_MAP_TYPE_PERCPU_HASH || type == Uapi.BPF_MAP_TYPE_PERCPU_ARRAY
                || type == Uapi.BPF_MAP_TYPE_LRU_PERCPU_HASH || type == Uapi.BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE;
    }

    /**
     * The bytes a lookup returns and an update takes: the value size, or for a per-CPU map the
     * value rounded up to 8 bytes once per possible CPU (libbpf's bpf_map__lookup_elem rule).
     */
    public int elementValueSize() {
        return perCpu() ? ((valueSize + 7) & ~7) * ObjectLoader.possibleCpus() : valueSize;
    }

    /** BPF_MAP_LOOKUP_ELEM after load: the value under {@code key} ({@link #elementValueSize} bytes), null when none. */
    public byte[] lookup(byte[] key) throws BpfObjectException {
        requireFd();
        checkKey(key);
        int size = elementValueSize();
        Memory k = memory(key);
        Memory v = new Memory(Math.max(1, size));
        int err = -new Bpf().mapLookupElem(fd, k, v);
        if (err == Errno.ENOENT) {
            return null;
        }
        fail("lookup", err);
        return v.getByteArray(0, size);
    }

    /** {@link #update}: create or replace. */
    public static final long BPF_ANY = 0;
    /** {@link #update}: create only (EEXIST when the key is there). */
    public static final long BPF_NOEXIST = 1;
    /** {@link #update}: replace only (ENOENT when the key is not there). */
    public static final long BPF_EXIST = 2;

    /** BPF_MAP_UPDATE_ELEM after load: {@code value} ({@link #elementValueSize} bytes) under {@code key}. */
    public void update(byte[] key, byte[] value, long flags) throws BpfObjectException {
        requireFd();
        checkKey(key);
        if (value.length != elementValueSize()) {
            throw new IllegalArgumentException("map '" + name + "': a value is " + elementValueSize() + " bytes, not "
                    + value.length);
        }
        fail("update", -new Bpf().mapUpdateElem(fd, memory(key), memory(value), flags));
    }

    /** BPF_MAP_DELETE_ELEM after load: false when there was no such key. */
    public boolean delete(byte[] key) throws BpfObjectException {
        requireFd();
        checkKey(key);
        int err = -new Bpf().mapDeleteElem(fd, memory(key));
        if (err == Errno.ENOENT) {
            return false;
        }
        fail("delete", err);
        return true;
    }

    /** BPF_MAP_GET_NEXT_KEY after load: the key after {@code key} (null: the first), null after the last. */
    public byte[] nextKey(byte[] key) throws BpfObjectException {
        requireFd();
        if (key != null) {
            checkKey(key);
        }
        Memory next = new Memory(Math.max(1, keySize));
        int err = -new Bpf().mapGetNextKey(fd, key == null ? Pointer.NULL : memory(key), next);
        if (err == Errno.ENOENT) {
            return null;
        }
        fail("get next key", err);
        return next.getByteArray(0, keySize);
    }

    private static Memory memory(byte[] b) {
        Memory m = new Memory(Math.max(1, b.length));
        m.write(0, b, 0, b.length);
        return m;
    }

    private void checkKey(byte[] key) {
        if (key.length != keySize) {
            throw new IllegalArgumentException("map '" + name + "': a key is " + keySize + " bytes, not " + key.length);
        }
    }

    private void requireFd() throws BpfObjectException {
        if (fd < 0) {
            throw new BpfObjectException("map '" + name + "': not loaded", Errno.EBADF);
        }
    }

    private void fail(String op, int err) throws BpfObjectException {
        if (err != 0) {
            throw new BpfObjectException("map '" + name + "': " + op + ": " + Errno.name(err) + ": " + Errno.text(err), err);
        }
    }

    /** The initial value of an internal map (a copy); null for other maps. */
    public byte[] initialValue() {
        return data == null ? null : data.clone();
    }

    /** bpf_map__set_initial_value: the same size as the section; before load only. */
    public void setInitialValue(byte[] value) {
        configurable();
        if (data == null || value.length != valueSize) {
            throw new IllegalArgumentException("map '" + name + "': initial value must be " + valueSize + " bytes");
        }
        data = value.clone();
    }

    private void configurable() {
        if (owner != null) {
            owner.requireOpened("map '" + name + "'");
        }
    }
}
