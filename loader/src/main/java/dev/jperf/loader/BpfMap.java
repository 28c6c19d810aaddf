package dev.jperf.loader;

/**
 * A map of a BPF object: BTF-defined ({@code .maps}), legacy ({@code maps}), or libbpf's internal
 * array for a global data section ({@code .data}, {@code .rodata}, {@code .bss}, {@code .kconfig}).
 * Before load a caller may change {@link #setMaxEntries} and, for internal maps, the initial
 * value; after load {@link #fd()} is the kernel's map.
 */
public final class BpfMap {
    /** enum libbpf_map_type */
    public enum Internal { NONE, DATA, BSS, RODATA, KCONFIG }

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

    BpfMap(String name, String realName, Internal internal, int secIdx, long secOffset) {
        this.name = name;
        this.realName = realName;
        this.internal = internal;
        this.secIdx = secIdx;
        this.secOffset = secOffset;
    }

    public String name() {
        return name;
    }

    /** enum bpf_map_type */
    public int type() {
        return type;
    }

    public int keySize() {
        return keySize;
    }

    public int valueSize() {
        return valueSize;
    }

    public int maxEntries() {
        return maxEntries;
    }

    public int flags() {
        return flags;
    }

    public int btfKeyTypeId() {
        return btfKeyTypeId;
    }

    public int btfValueTypeId() {
        return btfValueTypeId;
    }

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
