package dev.jperf.nativeshim;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.nio.charset.StandardCharsets;

/**
 * bpf(2). One instance per thread: it owns a zeroed scratch bpf_attr, so the hot path (a program
 * id to an fd while the program may be unloading) costs one syscall and no allocation.
 */
public final class Bpf {
    /** __NR_bpf on x86-64. */
    static final long SYS_BPF = 321;

    private final Memory attr = new Memory(BpfAttrLayout.SIZE);
    private final long attrAddress = Pointer.nativeValue(attr);

    /** Next program id after {@code startId}, or 0 when there is none (ENOENT). */
    public int progGetNextId(int startId) {
        return getNextId(BpfAttrLayout.BPF_PROG_GET_NEXT_ID, startId, "BPF_PROG_GET_NEXT_ID");
    }

    /** Next BTF object id after {@code startId}, or 0 when there is none. */
    public int btfGetNextId(int startId) {
        return getNextId(BpfAttrLayout.BPF_BTF_GET_NEXT_ID, startId, "BPF_BTF_GET_NEXT_ID");
    }

    private int getNextId(int cmd, int startId, String name) {
        attr.clear(16);
        attr.setInt(BpfAttrLayout.START_ID, startId);
        if (sys(cmd, 16) < 0) {
            int errno = Errno.last();
            if (errno == Errno.ENOENT) {
                return 0;
            }
            throw new NativeException("bpf(" + name + ", " + Integer.toUnsignedString(startId) + ")", errno);
        }
        return attr.getInt(BpfAttrLayout.NEXT_ID);
    }

    /** An fd that pins program {@code id}; ENOENT (as a {@link NativeException}) once it is unloaded. */
    public int progGetFdById(int id) {
        return getFdById(BpfAttrLayout.BPF_PROG_GET_FD_BY_ID, id, "BPF_PROG_GET_FD_BY_ID");
    }

    /**
     * {@link #progGetFdById} without an exception: the fd, or -errno (-ENOENT once the program is
     * unloaded). Allocates nothing, for threads that must never fault in a fresh heap page.
     */
    public int progGetFdByIdOrErrno(int id) {
        attr.clear(12);
        attr.setInt(BpfAttrLayout.GET_FD_ID, id);
        long fd = sys(BpfAttrLayout.BPF_PROG_GET_FD_BY_ID, 12);
        return fd < 0 ? -Errno.last() : (int) fd;
    }

    /** An fd for BTF object {@code id}. */
    public int btfGetFdById(int id) {
        return getFdById(BpfAttrLayout.BPF_BTF_GET_FD_BY_ID, id, "BPF_BTF_GET_FD_BY_ID");
    }

    /** Next map id after {@code startId}, or 0 when there is none. */
    public int mapGetNextId(int startId) {
        return getNextId(BpfAttrLayout.BPF_MAP_GET_NEXT_ID, startId, "BPF_MAP_GET_NEXT_ID");
    }

    /** An fd for map {@code id}; ENOENT (as a {@link NativeException}) when there is none. */
    public int mapGetFdById(int id) {
        return getFdById(BpfAttrLayout.BPF_MAP_GET_FD_BY_ID, id, "BPF_MAP_GET_FD_BY_ID");
    }

    /**
     * BPF_MAP_LOOKUP_ELEM: the value of {@code key} into {@code value} (per-CPU maps: one
     * 8-byte-aligned slot per possible CPU). Returns 0, or -errno (-ENOENT: no such element).
     */
    public int mapLookupElem(int fd, Pointer key, Pointer value) {
        return mapElem(BpfAttrLayout.BPF_MAP_LOOKUP_ELEM, fd, key, value);
    }

    /**
     * BPF_MAP_GET_NEXT_KEY: the key after {@code key} (null: the first key) into {@code nextKey}.
     * Returns 0, or -errno (-ENOENT after the last key).
     */
    public int mapGetNextKey(int fd, Pointer key, Pointer nextKey) {
        return mapElem(BpfMapElemLayout.BPF_MAP_GET_NEXT_KEY, fd, key, nextKey);
    }

    /** BPF_MAP_DELETE_ELEM of {@code key}: 0, or -errno. */
    public int mapDeleteElem(int fd, Pointer key) {
        return mapElem(BpfMapElemLayout.BPF_MAP_DELETE_ELEM, fd, key, Pointer.NULL);
    }

    /** BPF_MAP_UPDATE_ELEM with {@code flags} (BPF_ANY 0, BPF_NOEXIST 1, BPF_EXIST 2): 0, or -errno. */
    public int mapUpdateElem(int fd, Pointer key, Pointer value, long flags) {
        attr.clear(BpfMapElemLayout.SIZE);
        attr.setInt(BpfMapElemLayout.MAP_FD, fd);
        attr.setLong(BpfMapElemLayout.KEY, Pointer.nativeValue(key));
        attr.setLong(BpfMapElemLayout.VALUE, Pointer.nativeValue(value));
        attr.setLong(BpfMapElemLayout.FLAGS, flags);
        return sys(BpfAttrLayout.BPF_MAP_UPDATE_ELEM, BpfMapElemLayout.SIZE) < 0 ? -Errno.last() : 0;
    }

    /** BPF_OBJ_GET: an fd for the object pinned at {@code path} in a bpf file system. */
    public int objGet(String path) {
        Memory p = cString(path);
        attr.clear(16);
        attr.setLong(BpfMapElemLayout.OBJ_PATHNAME, Pointer.nativeValue(p));
        long fd = sys(BpfAttrLayout.BPF_OBJ_GET, 16);
        if (fd < 0) {
            throw new NativeException("bpf(BPF_OBJ_GET, " + path + ")", Errno.last());
        }
        return (int) fd;
    }

    /** BPF_OBJ_PIN: pins the program, map or link {@code fd} at {@code path} in a bpf file system; 0 or -errno. */
    public int objPin(int fd, String path) {
        Memory p = cString(path);
        attr.clear(BpfAttrLayout.OBJ_SIZE);
        attr.setLong(BpfMapElemLayout.OBJ_PATHNAME, Pointer.nativeValue(p));
        attr.setInt(BpfAttrLayout.OBJ_BPF_FD, fd);
        return sys(BpfAttrLayout.BPF_OBJ_PIN, BpfAttrLayout.OBJ_SIZE) < 0 ? -Errno.last() : 0;
    }

    /** BPF_LINK_GET_FD_BY_ID: an fd holding link {@code id}, or -errno (-ENOENT once it is gone). */
    public int linkGetFdById(int id) {
        attr.clear(12);
        attr.setInt(BpfAttrLayout.GET_FD_ID, id);
        long fd = sys(BpfAttrLayout.BPF_LINK_GET_FD_BY_ID, 12);
        return fd < 0 ? -Errno.last() : (int) fd;
    }

    /** BPF_MAP_GET_FD_BY_ID without an exception: the fd, or -errno. */
    public int mapGetFdByIdOrErrno(int id) {
        attr.clear(12);
        attr.setInt(BpfAttrLayout.GET_FD_ID, id);
        long fd = sys(BpfAttrLayout.BPF_MAP_GET_FD_BY_ID, 12);
        return fd < 0 ? -Errno.last() : (int) fd;
    }

    /**
     * BPF_PROG_TEST_RUN of a raw_tp program on {@code cpu} (BPF_F_TEST_RUN_ON_CPU), no context:
     * 0, or -errno.
     */
    public int progTestRunOnCpu(int progFd, int cpu) {
        attr.clear(BpfAttrLayout.TEST_SIZE);
        attr.setInt(BpfAttrLayout.TEST_PROG_FD, progFd);
        attr.setInt(BpfAttrLayout.TEST_FLAGS, BpfAttrLayout.BPF_F_TEST_RUN_ON_CPU);
        attr.setInt(BpfAttrLayout.TEST_CPU, cpu);
        return sys(BpfAttrLayout.BPF_PROG_TEST_RUN, BpfAttrLayout.TEST_SIZE) < 0 ? -Errno.last() : 0;
    }

    /**
     * BPF_PROG_TEST_RUN with {@code test} (a {@link BpfAttrLayout#TEST_SIZE}-byte test attr the
     * caller filled: buffers, sizes, repeat); the kernel's answers (retval, duration, the out
     * sizes) are copied back into it. 0, or -errno.
     */
    public int progTestRun(Memory test) {
        attr.write(0, test.getByteArray(0, BpfAttrLayout.TEST_SIZE), 0, BpfAttrLayout.TEST_SIZE);
        long r = sys(BpfAttrLayout.BPF_PROG_TEST_RUN, BpfAttrLayout.TEST_SIZE);
        int errno = r < 0 ? Errno.last() : 0;
        test.write(0, attr.getByteArray(0, BpfAttrLayout.TEST_SIZE), 0, BpfAttrLayout.TEST_SIZE);
        return -errno;
    }

    private int mapElem(int cmd, int fd, Pointer key, Pointer value) {
        attr.clear(BpfMapElemLayout.SIZE);
        attr.setInt(BpfMapElemLayout.MAP_FD, fd);
        attr.setLong(BpfMapElemLayout.KEY, Pointer.nativeValue(key));
        attr.setLong(BpfMapElemLayout.VALUE, Pointer.nativeValue(value));
        return sys(cmd, BpfMapElemLayout.SIZE) < 0 ? -Errno.last() : 0;
    }

    private int getFdById(int cmd, int id, String name) {
        attr.clear(12);
        attr.setInt(BpfAttrLayout.GET_FD_ID, id);
        long fd = sys(cmd, 12);
        if (fd < 0) {
            throw new NativeException("bpf(" + name + ", id " + Integer.toUnsignedString(id) + ")", Errno.last());
        }
        return (int) fd;
    }

    /**
     * BPF_OBJ_GET_INFO_BY_FD: the kernel fills up to {@code infoLen} bytes at {@code info} (pointer
     * and count fields set there select arrays). Returns the info_len the kernel wrote back.
     */
    public int objGetInfoByFd(int fd, Pointer info, int infoLen) {
        attr.clear(16);
        attr.setInt(BpfAttrLayout.INFO_BPF_FD, fd);
        attr.setInt(BpfAttrLayout.INFO_INFO_LEN, infoLen);
        attr.setLong(BpfAttrLayout.INFO_INFO, Pointer.nativeValue(info));
        if (sys(BpfAttrLayout.BPF_OBJ_GET_INFO_BY_FD, 16) < 0) {
            throw new NativeException("bpf(BPF_OBJ_GET_INFO_BY_FD, fd " + fd + ")", Errno.last());
        }
        return attr.getInt(BpfAttrLayout.INFO_INFO_LEN);
    }

    /** BPF_ENABLE_STATS: while the returned fd is open the kernel counts run_time_ns / run_cnt. */
    public int enableStats(int type) {
        attr.clear(4);
        attr.setInt(BpfAttrLayout.ENABLE_STATS_TYPE, type);
        long fd = sys(BpfAttrLayout.BPF_ENABLE_STATS, 4);
        if (fd < 0) {
            throw new NativeException("bpf(BPF_ENABLE_STATS, " + type + ")", Errno.last());
        }
        return (int) fd;
    }

    /**
     * BPF_PROG_LOAD of raw instructions (8 bytes each, little-endian). On failure the message
     * carries the verifier's last log line.
     */
    public int progLoad(int progType, byte[] insns, String license, String name) {
        return progLoad(progType, insns, license, name, 0, 0, 0);
    }

    /**
     * BPF_PROG_LOAD of a program that names its attach point at load (tracing programs):
     * {@code expectedAttachType} (e.g. {@link BpfAttrLayout#BPF_TRACE_FENTRY}), the BTF id of the
     * function it attaches to, and the fd of the BPF program holding that function (0: vmlinux).
     */
    public int progLoad(int progType, byte[] insns, String license, String name, int expectedAttachType,
            int attachBtfId, int attachProgFd) {
        if (insns.length % 8 != 0) {
            throw new IllegalArgumentException("instructions are 8 bytes each, got " + insns.length + " bytes");
        }
        Memory code = new Memory(insns.length);
        code.write(0, insns, 0, insns.length);
        Memory lic = cString(license);
        Memory log = new Memory(64 * 1024);
        log.clear();
        attr.clear(BpfAttrLayout.ATTACH_PROG_FD + 4);
        attr.setInt(BpfAttrLayout.PROG_TYPE, progType);
        attr.setInt(BpfAttrLayout.INSN_CNT, insns.length / 8);
        attr.setLong(BpfAttrLayout.INSNS, Pointer.nativeValue(code));
        attr.setLong(BpfAttrLayout.LICENSE, Pointer.nativeValue(lic));
        attr.setInt(BpfAttrLayout.LOG_LEVEL, 1);
        attr.setInt(BpfAttrLayout.LOG_SIZE, (int) log.size());
        attr.setLong(BpfAttrLayout.LOG_BUF, Pointer.nativeValue(log));
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        attr.write(BpfAttrLayout.PROG_NAME, n, 0, Math.min(n.length, BpfAttrLayout.BPF_OBJ_NAME_LEN - 1));
        attr.setInt(BpfAttrLayout.EXPECTED_ATTACH_TYPE, expectedAttachType);
        attr.setInt(BpfAttrLayout.ATTACH_BTF_ID, attachBtfId);
        attr.setInt(BpfAttrLayout.ATTACH_PROG_FD, attachProgFd);
        long fd = sys(BpfAttrLayout.BPF_PROG_LOAD, BpfAttrLayout.ATTACH_PROG_FD + 4);
        if (fd < 0) {
            int errno = Errno.last();
            String text = log.getString(0).strip();
            String last = text.isEmpty() ? "" : ": verifier: " + text.substring(text.lastIndexOf('\n') + 1);
            throw new NativeException("bpf(BPF_PROG_LOAD, " + name + ")" + last, errno);
        }
        return (int) fd;
    }

    /** BPF_RAW_TRACEPOINT_OPEN: attaches a raw-tracepoint program; closing the fd detaches it. */
    public int rawTracepointOpen(String tracepoint, int progFd) {
        // a null name attaches a BTF-typed program (tp_btf, fentry, fexit, lsm) at its attach_btf_id
        Memory tp = tracepoint == null ? null : cString(tracepoint);
        attr.clear(16);
        attr.setLong(BpfAttrLayout.RAW_TRACEPOINT_NAME, tp == null ? 0 : Pointer.nativeValue(tp));
        attr.setInt(BpfAttrLayout.RAW_TRACEPOINT_PROG_FD, progFd);
        long fd = sys(BpfAttrLayout.BPF_RAW_TRACEPOINT_OPEN, 16);
        if (fd < 0) {
            throw new NativeException("bpf(BPF_RAW_TRACEPOINT_OPEN, " + tracepoint + ")", Errno.last());
        }
        return (int) fd;
    }

    /**
     * BPF_LINK_CREATE: attaches program {@code progFd} to {@code target} (an fd, or an ifindex for
     * {@link BpfAttrLayout#BPF_XDP}); closing the link fd detaches it.
     */
    public int linkCreate(int progFd, int target, int attachType) {
        attr.clear(16);
        attr.setInt(BpfAttrLayout.LINK_CREATE_PROG_FD, progFd);
        attr.setInt(BpfAttrLayout.LINK_CREATE_TARGET, target);
        attr.setInt(BpfAttrLayout.LINK_CREATE_ATTACH_TYPE, attachType);
        long fd = sys(BpfAttrLayout.BPF_LINK_CREATE, 16);
        if (fd < 0) {
            throw new NativeException("bpf(BPF_LINK_CREATE, prog fd " + progFd + ", attach type " + attachType + ")",
                    Errno.last());
        }
        return (int) fd;
    }

    /** BPF_MAP_CREATE; the map lives while its fd (or a program using it) does. */
    public int mapCreate(int mapType, int keySize, int valueSize, int maxEntries, String name) {
        attr.clear(BpfAttrLayout.MAP_NAME + BpfAttrLayout.BPF_OBJ_NAME_LEN);
        attr.setInt(BpfAttrLayout.MAP_TYPE, mapType);
        attr.setInt(BpfAttrLayout.KEY_SIZE, keySize);
        attr.setInt(BpfAttrLayout.VALUE_SIZE, valueSize);
        attr.setInt(BpfAttrLayout.MAX_ENTRIES, maxEntries);
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        attr.write(BpfAttrLayout.MAP_NAME, n, 0, Math.min(n.length, BpfAttrLayout.BPF_OBJ_NAME_LEN - 1));
        long fd = sys(BpfAttrLayout.BPF_MAP_CREATE, BpfAttrLayout.MAP_NAME + BpfAttrLayout.BPF_OBJ_NAME_LEN);
        if (fd < 0) {
            throw new NativeException("bpf(BPF_MAP_CREATE, " + name + ")", Errno.last());
        }
        return (int) fd;
    }

    /** BPF_MAP_LOOKUP_ELEM: the value ({@code valueSize} bytes) stored under {@code key}. */
    public byte[] mapLookupElem(int mapFd, byte[] key, int valueSize) {
        Memory k = new Memory(Math.max(1, key.length));
        k.write(0, key, 0, key.length);
        Memory v = new Memory(Math.max(1, valueSize));
        if (mapElem(BpfAttrLayout.BPF_MAP_LOOKUP_ELEM, mapFd, k, v) < 0) {
            throw new NativeException("bpf(BPF_MAP_LOOKUP_ELEM, map fd " + mapFd + ")", Errno.last());
        }
        return v.getByteArray(0, valueSize);
    }

    /** BPF_BTF_LOAD of a raw BTF blob. */
    public int btfLoad(byte[] btf) {
        Memory blob = new Memory(btf.length);
        blob.write(0, btf, 0, btf.length);
        attr.clear(28);
        attr.setLong(BpfAttrLayout.BTF, Pointer.nativeValue(blob));
        attr.setInt(BpfAttrLayout.BTF_SIZE, btf.length);
        long fd = sys(BpfAttrLayout.BPF_BTF_LOAD, 28);
        if (fd < 0) {
            throw new NativeException("bpf(BPF_BTF_LOAD, " + btf.length + " bytes)", Errno.last());
        }
        return (int) fd;
    }

    /**
     * BPF_MAP_CREATE: the new map's fd, or -errno. {@code name} is cut to 15 bytes; a BTF fd of 0
     * creates the map without BTF; {@code innerMapFd} (0: none) is a map-in-map's template.
     */
    public int mapCreate(int mapType, String name, int keySize, int valueSize, int maxEntries, int mapFlags,
            int innerMapFd, int btfFd, int btfKeyTypeId, int btfValueTypeId, long mapExtra) {
        return mapCreate(mapType, name, keySize, valueSize, maxEntries, mapFlags, innerMapFd, btfFd, btfKeyTypeId,
                btfValueTypeId, mapExtra, 0, 0);
    }

    /**
     * {@link #mapCreate(int, String, int, int, int, int, int, int, int, int, long)} offloaded to device
     * {@code ifindex} (0: none), with a vmlinux BTF value type (struct_ops maps; 0: none).
     */
    public int mapCreate(int mapType, String name, int keySize, int valueSize, int maxEntries, int mapFlags,
            int innerMapFd, int btfFd, int btfKeyTypeId, int btfValueTypeId, long mapExtra, int ifindex,
            int btfVmlinuxValueTypeId) {
        attr.clear(BpfAttrLayout.MAP_CREATE_SIZE);
        attr.setInt(BpfAttrLayout.MAP_IFINDEX, ifindex);
        attr.setInt(BpfAttrLayout.BTF_VMLINUX_VALUE_TYPE_ID, btfVmlinuxValueTypeId);
        attr.setInt(BpfAttrLayout.MAP_TYPE, mapType);
        attr.setInt(BpfAttrLayout.KEY_SIZE, keySize);
        attr.setInt(BpfAttrLayout.VALUE_SIZE, valueSize);
        attr.setInt(BpfAttrLayout.MAX_ENTRIES, maxEntries);
        attr.setInt(BpfAttrLayout.MAP_FLAGS, mapFlags);
        attr.setInt(BpfAttrLayout.INNER_MAP_FD, innerMapFd);
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        attr.write(BpfAttrLayout.MAP_NAME, n, 0, Math.min(n.length, BpfAttrLayout.BPF_OBJ_NAME_LEN - 1));
        attr.setInt(BpfAttrLayout.BTF_FD, btfFd);
        attr.setInt(BpfAttrLayout.BTF_KEY_TYPE_ID, btfKeyTypeId);
        attr.setInt(BpfAttrLayout.BTF_VALUE_TYPE_ID, btfValueTypeId);
        attr.setLong(BpfAttrLayout.MAP_EXTRA, mapExtra);
        long fd = sys(BpfAttrLayout.BPF_MAP_CREATE, BpfAttrLayout.MAP_CREATE_SIZE);
        return fd < 0 ? -Errno.last() : (int) fd;
    }

    /** BPF_MAP_UPDATE_ELEM with flags BPF_ANY: 0, or -errno. */
    public int mapUpdateElem(int mapFd, byte[] key, byte[] value) {
        Memory k = new Memory(Math.max(1, key.length));
        k.write(0, key, 0, key.length);
        Memory v = new Memory(Math.max(1, value.length));
        v.write(0, value, 0, value.length);
        return mapUpdateElem(mapFd, k, v, 0);
    }

    /**
     * BPF_MAP_LOOKUP_AND_DELETE_ELEM: pops the element of {@code key} (null for queues and stacks)
     * into {@code value}. Returns 0, or the errno (ENOENT: empty, or no such element).
     */
    public int mapLookupAndDeleteElem(int fd, Pointer key, Pointer value) {
        return mapElem(BpfAttrLayout.BPF_MAP_LOOKUP_AND_DELETE_ELEM, fd, key, value);
    }

    /** Next link id after {@code startId}, or 0 when there is none. */
    public int linkGetNextId(int startId) {
        return getNextId(BpfAttrLayout.BPF_LINK_GET_NEXT_ID, startId, "BPF_LINK_GET_NEXT_ID");
    }

    /** BPF_LINK_DETACH: the link's program leaves its hook while the link lives on; 0 or -errno. */
    public int linkDetach(int linkFd) {
        attr.clear(4);
        attr.setInt(BpfAttrLayout.LINK_DETACH_FD, linkFd);
        return sys(BpfAttrLayout.BPF_LINK_DETACH, 4) < 0 ? -Errno.last() : 0;
    }

    /** BPF_MAP_FREEZE: the map becomes read-only from user space; 0 or -errno. */
    public int mapFreeze(int mapFd) {
        attr.clear(4);
        attr.setInt(BpfMapElemLayout.MAP_FD, mapFd);
        return sys(BpfAttrLayout.BPF_MAP_FREEZE, 4) < 0 ? -Errno.last() : 0;
    }

    /** BPF_PROG_BIND_MAP: the program holds the map while it lives; 0 or -errno. */
    public int progBindMap(int progFd, int mapFd) {
        attr.clear(12);
        attr.setInt(BpfAttrLayout.BIND_PROG_FD, progFd);
        attr.setInt(BpfAttrLayout.BIND_MAP_FD, mapFd);
        return sys(BpfAttrLayout.BPF_PROG_BIND_MAP, 12) < 0 ? -Errno.last() : 0;
    }

    /**
     * BPF_PROG_LOAD with every field of {@code a}: the program's fd, or -errno. With {@code log}
     * non-null the verifier writes its log there at {@code logLevel}. EAGAIN is retried as libbpf
     * does (five times).
     */
    public int progLoad(BpfProgLoadAttr a, Memory log, int logLevel) {
        Memory code = new Memory(Math.max(8, a.insns().length));
        code.write(0, a.insns(), 0, a.insns().length);
        Memory lic = cString(a.license());
        Memory funcInfo = blob(a.funcInfo());
        Memory lineInfo = blob(a.lineInfo());
        for (int attempt = 0;; attempt++) {
            attr.clear(BpfAttrLayout.PROG_LOAD_SIZE);
            attr.setInt(BpfAttrLayout.PROG_TYPE, a.progType());
            attr.setInt(BpfAttrLayout.INSN_CNT, a.insns().length / 8);
            attr.setLong(BpfAttrLayout.INSNS, Pointer.nativeValue(code));
            attr.setLong(BpfAttrLayout.LICENSE, Pointer.nativeValue(lic));
            if (log != null) {
                log.setByte(0, (byte) 0);
                attr.setInt(BpfAttrLayout.LOG_LEVEL, logLevel);
                attr.setInt(BpfAttrLayout.LOG_SIZE, (int) log.size());
                attr.setLong(BpfAttrLayout.LOG_BUF, Pointer.nativeValue(log));
            }
            attr.setInt(BpfAttrLayout.KERN_VERSION, a.kernVersion());
            attr.setInt(BpfAttrLayout.PROG_FLAGS, a.progFlags());
            byte[] n = a.name().getBytes(StandardCharsets.UTF_8);
            attr.write(BpfAttrLayout.PROG_NAME, n, 0, Math.min(n.length, BpfAttrLayout.BPF_OBJ_NAME_LEN - 1));
            attr.setInt(BpfAttrLayout.EXPECTED_ATTACH_TYPE, a.expectedAttachType());
            attr.setInt(BpfAttrLayout.PROG_BTF_FD, a.progBtfFd());
            if (funcInfo != null) {
                attr.setInt(BpfAttrLayout.FUNC_INFO_REC_SIZE, a.funcInfoRecSize());
                attr.setLong(BpfAttrLayout.FUNC_INFO, Pointer.nativeValue(funcInfo));
                attr.setInt(BpfAttrLayout.FUNC_INFO_CNT, a.funcInfo().length / a.funcInfoRecSize());
            }
            if (lineInfo != null) {
                attr.setInt(BpfAttrLayout.LINE_INFO_REC_SIZE, a.lineInfoRecSize());
                attr.setLong(BpfAttrLayout.LINE_INFO, Pointer.nativeValue(lineInfo));
                attr.setInt(BpfAttrLayout.LINE_INFO_CNT, a.lineInfo().length / a.lineInfoRecSize());
            }
            attr.setInt(BpfAttrLayout.ATTACH_BTF_ID, a.attachBtfId());
            attr.setInt(BpfAttrLayout.ATTACH_BTF_OBJ_FD, a.attachBtfObjFd());
            long fd = sys(BpfAttrLayout.BPF_PROG_LOAD, BpfAttrLayout.PROG_LOAD_SIZE);
            if (fd >= 0) {
                return (int) fd;
            }
            int errno = Errno.last();
            if (errno != Errno.EAGAIN || attempt >= 5) {
                return -errno;
            }
        }
    }

    /** BPF_BTF_LOAD: the BTF object's fd, or -errno; with {@code log} non-null the kernel's log lands there. */
    public int btfLoad(byte[] btf, Memory log) {
        Memory blob = new Memory(Math.max(1, btf.length));
        blob.write(0, btf, 0, btf.length);
        attr.clear(28);
        attr.setLong(BpfAttrLayout.BTF, Pointer.nativeValue(blob));
        attr.setInt(BpfAttrLayout.BTF_SIZE, btf.length);
        if (log != null) {
            log.setByte(0, (byte) 0);
            attr.setLong(BpfAttrLayout.BTF_LOG_BUF, Pointer.nativeValue(log));
            attr.setInt(BpfAttrLayout.BTF_LOG_SIZE, (int) log.size());
            attr.setInt(BpfAttrLayout.BTF_LOG_LEVEL, 1);
        }
        long fd = sys(BpfAttrLayout.BPF_BTF_LOAD, 28);
        return fd < 0 ? -Errno.last() : (int) fd;
    }

    private static Memory blob(byte[] b) {
        if (b == null || b.length == 0) {
            return null;
        }
        Memory m = new Memory(b.length);
        m.write(0, b, 0, b.length);
        return m;
    }

    private long sys(int cmd, int size) {
        return LibC.syscall(SYS_BPF, cmd, attrAddress, size, 0, 0);
    }

    private static Memory cString(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        Memory m = new Memory(b.length + 1);
        m.write(0, b, 0, b.length);
        m.setByte(b.length, (byte) 0);
        return m;
    }

    /** BPF_PROG_ATTACH of {@code progFd} to {@code targetFd} (a cgroup, a sockmap, 0 for this netns's flow dissector): 0, or -errno. */
    public int progAttach(int progFd, int targetFd, int attachType, int flags) {
        attr.clear(BpfAttrLayout.ATTACH_SIZE);
        attr.setInt(BpfAttrLayout.ATTACH_TARGET_FD, targetFd);
        attr.setInt(BpfAttrLayout.ATTACH_BPF_FD, progFd);
        attr.setInt(BpfAttrLayout.ATTACH_TYPE, attachType);
        attr.setInt(BpfAttrLayout.ATTACH_FLAGS, flags);
        return sys(BpfAttrLayout.BPF_PROG_ATTACH, BpfAttrLayout.ATTACH_SIZE) < 0 ? -Errno.last() : 0;
    }

    /** BPF_PROG_DETACH of {@code progFd} from {@code targetFd} (bpf_prog_detach2): 0, or -errno. */
    public int progDetach(int progFd, int targetFd, int attachType) {
        attr.clear(BpfAttrLayout.ATTACH_SIZE);
        attr.setInt(BpfAttrLayout.ATTACH_TARGET_FD, targetFd);
        attr.setInt(BpfAttrLayout.ATTACH_BPF_FD, progFd);
        attr.setInt(BpfAttrLayout.ATTACH_TYPE, attachType);
        return sys(BpfAttrLayout.BPF_PROG_DETACH, BpfAttrLayout.ATTACH_SIZE) < 0 ? -Errno.last() : 0;
    }

    /**
     * BPF_PROG_QUERY of what is attached to {@code targetFd} at {@code attachType}: up to
     * {@code ids.length} program ids into {@code ids} and, when {@code progFlags} is not null,
     * each one's attach flags. Returns the count the kernel wrote back, or -errno; {@code flags[0]}
     * gets the attach flags of the whole attach point.
     */
    public int progQuery(int targetFd, int attachType, int queryFlags, int[] ids, int[] progFlags, int[] flags) {
        Memory idBuf = ids.length == 0 ? null : new Memory(4L * ids.length);
        Memory flagBuf = progFlags == null || ids.length == 0 ? null : new Memory(4L * ids.length);
        if (idBuf != null) {
            idBuf.clear();
        }
        if (flagBuf != null) {
            flagBuf.clear();
        }
        attr.clear(BpfAttrLayout.QUERY_SIZE);
        attr.setInt(BpfAttrLayout.QUERY_TARGET_FD, targetFd);
        attr.setInt(BpfAttrLayout.QUERY_ATTACH_TYPE, attachType);
        attr.setInt(BpfAttrLayout.QUERY_FLAGS, queryFlags);
        attr.setLong(BpfAttrLayout.QUERY_PROG_IDS, idBuf == null ? 0 : Pointer.nativeValue(idBuf));
        attr.setInt(BpfAttrLayout.QUERY_PROG_CNT, ids.length);
        attr.setLong(BpfAttrLayout.QUERY_PROG_ATTACH_FLAGS, flagBuf == null ? 0 : Pointer.nativeValue(flagBuf));
        if (sys(BpfAttrLayout.BPF_PROG_QUERY, BpfAttrLayout.QUERY_SIZE) < 0) {
            return -Errno.last();
        }
        int n = attr.getInt(BpfAttrLayout.QUERY_PROG_CNT);
        if (flags != null && flags.length > 0) {
            flags[0] = attr.getInt(BpfAttrLayout.QUERY_ATTACH_FLAGS);
        }
        int got = Math.min(n, ids.length);
        for (int i = 0; i < got; i++) {
            ids[i] = idBuf.getInt(4L * i);
            if (flagBuf != null) {
                progFlags[i] = flagBuf.getInt(4L * i);
            }
        }
        return n;
    }

    /** What BPF_TASK_FD_QUERY says of a task's fd: the program attached through it and where. */
    public record TaskFdQuery(int progId, int fdType, String buf, long probeOffset, long probeAddr) {}

    /** fd_type values of BPF_TASK_FD_QUERY. */
    public static final int BPF_FD_TYPE_RAW_TRACEPOINT = 0, BPF_FD_TYPE_TRACEPOINT = 1, BPF_FD_TYPE_KPROBE = 2,
            BPF_FD_TYPE_KRETPROBE = 3, BPF_FD_TYPE_UPROBE = 4, BPF_FD_TYPE_URETPROBE = 5;

    /**
     * BPF_TASK_FD_QUERY of {@code fd} in task {@code pid}, the name read into {@code buf} (its
     * size the most taken): the answer, or null with {@link #lastErrno()} set.
     */
    public TaskFdQuery taskFdQuery(int pid, int fd, Memory buf) {
        attr.clear(BpfAttrLayout.TASK_FD_SIZE);
        attr.setInt(BpfAttrLayout.TASK_FD_PID, pid);
        attr.setInt(BpfAttrLayout.TASK_FD_FD, fd);
        attr.setInt(BpfAttrLayout.TASK_FD_BUF_LEN, (int) buf.size());
        attr.setLong(BpfAttrLayout.TASK_FD_BUF, Pointer.nativeValue(buf));
        if (sys(BpfAttrLayout.BPF_TASK_FD_QUERY, BpfAttrLayout.TASK_FD_SIZE) < 0) {
            lastErrno = Errno.last();
            return null;
        }
        lastErrno = 0;
        return new TaskFdQuery(attr.getInt(BpfAttrLayout.TASK_FD_PROG_ID), attr.getInt(BpfAttrLayout.TASK_FD_TYPE),
                buf.getString(0), attr.getLong(BpfAttrLayout.TASK_FD_PROBE_OFFSET),
                attr.getLong(BpfAttrLayout.TASK_FD_PROBE_ADDR));
    }

    private int lastErrno;

    /** The errno of the last {@link #taskFdQuery} that returned null. */
    public int lastErrno() {
        return lastErrno;
    }

    /**
     * BPF_LINK_CREATE of an iterator program (BPF_TRACE_ITER), over map {@code mapFd} when it is
     * not negative (bpf_iter_link_info.map.map_fd): the link fd, or -errno.
     */
    public int iterLinkCreate(int progFd, int mapFd) {
        Memory info = null;
        if (mapFd >= 0) {
            info = new Memory(BpfAttrLayout.ITER_LINK_INFO_SIZE);
            info.clear();
            info.setInt(0, mapFd);
        }
        attr.clear(BpfAttrLayout.LINK_CREATE_ITER_INFO_LEN + 4);
        attr.setInt(BpfAttrLayout.LINK_CREATE_PROG_FD, progFd);
        attr.setInt(BpfAttrLayout.LINK_CREATE_ATTACH_TYPE, BpfAttrLayout.BPF_TRACE_ITER);
        if (info != null) {
            attr.setLong(BpfAttrLayout.LINK_CREATE_ITER_INFO, Pointer.nativeValue(info));
            attr.setInt(BpfAttrLayout.LINK_CREATE_ITER_INFO_LEN, BpfAttrLayout.ITER_LINK_INFO_SIZE);
        }
        long fd = sys(BpfAttrLayout.BPF_LINK_CREATE, BpfAttrLayout.LINK_CREATE_ITER_INFO_LEN + 4);
        return fd < 0 ? -Errno.last() : (int) fd;
    }

    /** BPF_ITER_CREATE: a readable fd that runs the iterator link {@code linkFd}; or -errno. */
    public int iterCreate(int linkFd) {
        attr.clear(BpfAttrLayout.ITER_CREATE_SIZE);
        attr.setInt(BpfAttrLayout.ITER_CREATE_LINK_FD, linkFd);
        long fd = sys(BpfAttrLayout.BPF_ITER_CREATE, BpfAttrLayout.ITER_CREATE_SIZE);
        return fd < 0 ? -Errno.last() : (int) fd;
    }

}
