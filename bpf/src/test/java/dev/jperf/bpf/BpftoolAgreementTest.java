package dev.jperf.bpf;

import dev.jperf.format.bpf.Uapi;
import dev.jperf.format.btf.BtfWriter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.BpfAttrLayout;
import dev.jperf.nativeshim.Fd;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * jperf's {@code bpf map|prog show|dump} against Debian's bpftool 7.1 on real kernel objects: maps of
 * several kinds created here with BTF built here (structs, unions, enums, bitfields, 128-bit
 * integers, pointers, char arrays, DATASEC values, a legacy {@code ____btf_map_} marker map),
 * per-CPU maps, a ring buffer, a perf event array, maps without BTF, and a program using a
 * {@code .rodata} map with {@code bpf_metadata_} variables. Plain text, {@code -j} and {@code -p}
 * output must be bpftool's byte for byte.
 */
class BpftoolAgreementTest {
    static final int HASH = 1, ARRAY = 2, PROG_ARRAY = 3, PERF_EVENT_ARRAY = 4, PERCPU_HASH = 5, PERCPU_ARRAY = 6,
            STACK_TRACE = 7, LRU_HASH = 9, LPM_TRIE = 11, ARRAY_OF_MAPS = 12, HASH_OF_MAPS = 13, QUEUE = 22,
            RINGBUF = 27, BLOOM_FILTER = 30;
    static final int BPF_F_NO_PREALLOC = 1;
    private static final String[][] MODES = {{}, {"-j"}, {"-p"}};

    private static String bpftool;
    private static final List<Integer> fds = new ArrayList<>();
    /** map name -> fd, in creation order. */
    private static final Map<String, Integer> maps = new LinkedHashMap<>();
    private static int progFd = -1;
    /** A program with a helper call and a bpf-to-bpf call: two JITed functions. */
    private static int callsFd = -1;

    @BeforeAll
    static void createObjects() throws IOException {
        bpftool = findBpftool();
        assumeTrue(bpftool != null, "bpftool is not installed (Debian package bpftool): nothing to compare with");
        BtfWriter w = new BtfWriter();
        int u32 = w.integer("unsigned int", 4, 0, 32); // 1
        int chr = w.integer("char", 1, BtfWriter.SIGNED, 8);
        int idx = w.integer("__ARRAY_SIZE_TYPE__", 4, 0, 32);
        int char8 = w.array(chr, idx, 8);
        int key = w.composite(BtfWriter.STRUCT, "key", 12, "pid", u32, 0, 0, "comm", char8, 32, 0);
        int keyT = w.ref(BtfWriter.TYPEDEF, "key_t", key);
        int u64 = w.integer("unsigned long long", 8, 0, 64);
        int u64T = w.ref(BtfWriter.TYPEDEF, "__u64", u64);
        int sint = w.integer("int", 4, BtfWriter.SIGNED, 32);
        int state = w.enumeration("state", 4, true, "RUNNING", 0, "SLEEPING", 1, "DEAD", -1);
        int sshort = w.integer("short", 2, BtfWriter.SIGNED, 16);
        int u8 = w.integer("unsigned char", 1, 0, 8);
        int bool = w.integer("_Bool", 1, BtfWriter.BOOL, 8);
        int u16 = w.integer("unsigned short", 2, 0, 16);
        int u16x2 = w.array(u16, idx, 2);
        int union = w.composite(BtfWriter.UNION, "u", 4, "x", u32, 0, 0, "y", u16x2, 0, 0);
        int ch = w.integer("chr", 1, BtfWriter.CHAR, 8);
        int voidp = w.ref(BtfWriter.PTR, "", 0);
        int char12 = w.array(chr, idx, 12);
        int char4 = w.array(chr, idx, 4);
        int vint = w.ref(BtfWriter.VOLATILE, "", sint);
        int cvint = w.ref(BtfWriter.CONST, "", vint);
        int u128 = w.integer("unsigned __int128", 16, 0, 128);
        int e64 = w.enum64("big", 8, "SMALL", 1L, "BIG", 0x100000000L);
        int bits4 = w.integer("unsigned int", 4, 0, 4);
        int old = w.composite(BtfWriter.STRUCT, "old", 4, "lo", bits4, 0, 0, "hi", bits4, 4, 0);
        int val = w.composite(BtfWriter.STRUCT, "val", 96,
                "count", u64T, 0, 0, "delta", sint, 64, 0, "state", state, 96, 0,
                "a", u32, 128, 3, "b", u32, 131, 5, "c", u32, 136, 9,
                "s", sshort, 160, 0, "uc", u8, 176, 0, "flag", bool, 184, 0, "u", union, 192, 0,
                "ch", ch, 224, 0, "ch2", ch, 232, 0, "pad", u16, 240, 0, "ptr", voidp, 256, 0,
                "name", char12, 320, 0, "bin", char4, 416, 0, "cv", cvint, 448, 0, "big", u128, 512, 0,
                "e64", e64, 640, 0, "old", old, 704, 0);
        int counter = w.var("counter", sint);
        int char16 = w.array(chr, idx, 16);
        int msg = w.var("msg", char16);
        int data = w.datasec(".data", 20, counter, 0, 4, msg, 4, 16);
        int small = w.composite(BtfWriter.STRUCT, "small", 12, "a", u32, 0, 0, "t", char8, 32, 0);
        w.composite(BtfWriter.STRUCT, "____btf_map_counts", 16, "key", u32, 0, 0, "value", small, 32, 0);
        int mdName = w.var("bpf_metadata_name", char8);
        int other = w.var("other", sint);
        int rodata = w.datasec(".rodata", 12, mdName, 0, 8, other, 8, 4);
        int fl = w.ref(BtfWriter.FLOAT, "float", 4);
        int withFloat = w.composite(BtfWriter.STRUCT, "fl", 8, "f", fl, 0, 0, "n", u32, 32, 0);

        int btf;
        try {
            btf = Sys.btfLoad(w.bytes());
        } catch (IllegalStateException e) {
            assumeTrue(false, "the kernel refuses BPF here: " + e.getMessage());
            return;
        }
        fds.add(btf);
        int cpus = PossibleCpus.count();

        int h = map(HASH, "typed_hash", 12, 96, 8, btf, keyT, val);
        for (int i = 0; i < 3; i++) {
            Sys.update(h, keyBytes(100 + i, i == 2 ? "ab\"c" : "comm" + i), valBytes(i));
        }
        int pa = map(PERCPU_ARRAY, "pcpu_arr", 4, 12, 2, btf, u32, small);
        Sys.update(pa, le(4).putInt(1).array(), perCpu(cpus, 12, c -> le(12).putInt(7 * c + 1).put(ascii("cpu" + c, 8)).array()));
        int ph = map(PERCPU_HASH, "pcpu_hash", 8, 8, 4, btf, u64, u64T);
        Sys.update(ph, le(8).putLong(42).array(), perCpu(cpus, 8, c -> le(8).putLong(-1L - c).array()));
        int dm = map(ARRAY, "t.data", 4, 20, 1, btf, 0, data);
        Sys.update(dm, new byte[4], le(20).putInt(-5).put(ascii("a\\b'c/d", 16)).array());
        map(RINGBUF, "t_rb", 0, 0, 4096, 0, 0, 0);
        map(PERF_EVENT_ARRAY, "t_pea", 4, 4, 2, 0, 0, 0);
        int legacy = map(HASH, "counts", 4, 12, 4, btf, u32, small);
        Sys.update(legacy, le(4).putInt(9).array(), le(12).putInt(99).put(ascii("legacy", 8)).array());
        int raw = map(HASH, "raw_hash", 4, 20, 4, 0, 0, 0);
        Sys.update(raw, le(4).putInt(3).array(), seq(20));
        int rawArr = map(ARRAY, "raw_arr", 4, 8, 2, 0, 0, 0);
        Sys.update(rawArr, le(4).putInt(1).array(), seq(8));
        int rawPcpu = map(PERCPU_HASH, "raw_pcpu", 4, 20, 2, 0, 0, 0);
        Sys.update(rawPcpu, le(4).putInt(5).array(), perCpu(cpus, 20, c -> seq(20)));
        int progs = map(PROG_ARRAY, "t_progs", 4, 4, 2, 0, 0, 0);
        int ro = map(ARRAY, "t.rodata", 4, 12, 1, btf, 0, rodata);
        Sys.update(ro, new byte[4], le(12).put(ascii("jperf", 8)).putInt(77).array());
        int fm = map(HASH, "t_float", 4, 8, 2, btf, u32, withFloat);
        Sys.update(fm, le(4).putInt(1).array(), le(8).putFloat(1.5f).putInt(3).array());

        // a program using the .rodata map: map_ids and bpftool's metadata
        ByteBuffer insns = le(32);
        insns.put((byte) 0x18).put((byte) 0x11).putShort((short) 0).putInt(ro); // r1 = map fd (BPF_PSEUDO_MAP_FD)
        insns.putLong(0);
        insns.put((byte) 0xb7).put((byte) 0).putShort((short) 0).putInt(0); // r0 = 0
        insns.put((byte) 0x95).put((byte) 0).putShort((short) 0).putInt(0); // exit
        progFd = new Bpf().progLoad(Uapi.BPF_PROG_TYPE_SOCKET_FILTER, insns.array(), "GPL",
                "jperf_agreement_test");
        fds.add(progFd);
        // run it with the kernel's statistics on: run_time_ns and run_cnt in prog show
        int stats = new Bpf().enableStats(BpfAttrLayout.BPF_STATS_RUN_TIME);
        try {
            for (int i = 0; i < 3; i++) {
                Sys.testRun(progFd, new byte[64]);
            }
        } finally {
            Fd.close(stats);
        }
        Sys.update(progs, le(4).putInt(1).array(), le(4).putInt(progFd).array());
        ByteBuffer calls = le(48);
        calls.put((byte) 0x85).put((byte) 0).putShort((short) 0).putInt(7); // call bpf_get_prandom_u32
        calls.put((byte) 0x85).put((byte) 0x10).putShort((short) 0).putInt(2); // call pc+2 (BPF_PSEUDO_CALL)
        calls.put((byte) 0xb7).put((byte) 0).putShort((short) 0).putInt(0); // r0 = 0
        calls.put((byte) 0x95).put((byte) 0).putShort((short) 0).putInt(0); // exit
        calls.put((byte) 0xb7).put((byte) 0).putShort((short) 0).putInt(1); // subprogram: r0 = 1
        calls.put((byte) 0x95).put((byte) 0).putShort((short) 0).putInt(0); // exit
        callsFd = new Bpf().progLoad(Uapi.BPF_PROG_TYPE_SOCKET_FILTER, calls.array(), "GPL", "jperf_calls");
        fds.add(callsFd);

        // maps of maps (value: an inner map's fd in, its id out), and kinds without keys or with odd ones
        int aom = Sys.mapCreate(ARRAY_OF_MAPS, "t_aom", 4, 4, 3, 0, 0, 0, 0, rawArr);
        fds.add(aom);
        maps.put("t_aom", aom);
        Sys.update(aom, le(4).putInt(1).array(), le(4).putInt(rawArr).array());
        int hom = Sys.mapCreate(HASH_OF_MAPS, "t_hom", 4, 4, 3, 0, 0, 0, 0, rawArr);
        fds.add(hom);
        maps.put("t_hom", hom);
        Sys.update(hom, le(4).putInt(5).array(), le(4).putInt(rawArr).array());
        map(STACK_TRACE, "t_stacks", 4, 16, 4, 0, 0, 0);
        int lru = map(LRU_HASH, "t_lru", 4, 4, 16, 0, 0, 0);
        Sys.update(lru, le(4).putInt(2).array(), le(4).putInt(20).array());
        int lpm = Sys.mapCreate(LPM_TRIE, "t_lpm", 8, 4, 4, BPF_F_NO_PREALLOC, 0, 0, 0, 0);
        fds.add(lpm);
        maps.put("t_lpm", lpm);
        Sys.update(lpm, le(8).putInt(24).put(new byte[] {10, 1, 2, 0}).array(), le(4).putInt(7).array());
        int q = map(QUEUE, "t_queue", 0, 4, 4, 0, 0, 0);
        Sys.update(q, new byte[0], le(4).putInt(1).array());
        map(BLOOM_FILTER, "t_bloom", 0, 4, 4, 0, 0, 0);
        // two maps of one name: bpftool's name handle shows both
        for (int i = 0; i < 2; i++) {
            int dup = Sys.mapCreate(HASH, "jperf_dup", 4, 12, 2, 0, btf, u32, small);
            fds.add(dup);
            Sys.update(dup, le(4).putInt(i).array(), le(12).putInt(i).put(ascii("dup" + i, 8)).array());
        }
        int rawDup = Sys.mapCreate(HASH, "jperf_rawdup", 4, 4, 2, 0, 0, 0, 0);
        fds.add(rawDup);
        Sys.update(rawDup, le(4).putInt(1).array(), le(4).putInt(2).array());
        fds.add(Sys.mapCreate(HASH, "jperf_rawdup", 4, 4, 2, 0, 0, 0, 0));
    }

    @AfterAll
    static void close() {
        for (int fd : fds) {
            Fd.close(fd);
        }
    }

    private static int map(int type, String name, int keySize, int valueSize, int max, int btf, int keyId, int valueId) {
        int fd = Sys.mapCreate(type, name, keySize, valueSize, max, 0, btf, keyId, valueId);
        fds.add(fd);
        maps.put(name, fd);
        return fd;
    }

    private static int mapId(int fd) {
        com.sun.jna.Memory m = new com.sun.jna.Memory(88);
        m.clear();
        new Bpf().objGetInfoByFd(fd, m, 88);
        return m.getInt(4);
    }

    private static int progId(int fd) {
        com.sun.jna.Memory m = new com.sun.jna.Memory(232);
        m.clear();
        new Bpf().objGetInfoByFd(fd, m, 232);
        return m.getInt(4);
    }

    @Test
    void mapShowAndDumpAgree() throws Exception {
        for (Map.Entry<String, Integer> e : maps.entrySet()) {
            String id = Integer.toString(mapId(e.getValue()));
            for (String[] mode : MODES) {
                for (String verb : new String[] {"show", "dump"}) {
                    String expected = bpftool(mode, "map", verb, "id", id);
                    assertEquals(expected, jperf(mode, "map", verb, id),
                            "map " + e.getKey() + ": bpftool " + String.join(" ", mode) + " map " + verb + " id " + id);
                }
            }
        }
    }

    @Test
    void typedDumpsCarryFormattedValues() throws Exception {
        // the comparison above would also pass if both printed nothing typed; check that they do
        String json = jperf(new String[] {"-j"}, "map", "dump", Integer.toString(mapId(maps.get("typed_hash"))));
        assertTrue(json.contains("\"formatted\":{\"key\":{\"pid\":100,\"comm\":\"comm0\"}"), json);
        assertTrue(json.contains("\"state\":\"DEAD\""), json);
        String pcpu = jperf(new String[] {"-j"}, "map", "dump", Integer.toString(mapId(maps.get("pcpu_arr"))));
        assertTrue(pcpu.contains("\"values\":[{\"cpu\":0,\"value\":{\"a\":1,\"t\":\"cpu0\"}}"), pcpu);
    }

    @Test
    void progShowAgrees() throws Exception {
        String id = Integer.toString(progId(progFd));
        for (String[] mode : MODES) {
            assertEquals(bpftool(mode, "prog", "show", "id", id), jperf(mode, "prog", "show", id),
                    "bpftool " + String.join(" ", mode) + " prog show id " + id);
        }
        String json = jperf(new String[] {"-j"}, "prog", "show", id);
        assertTrue(json.contains("\"metadata\":{\"name\":\"jperf\"}"), json);
        assertTrue(json.contains("\"run_cnt\":3"), json);
    }

    @Test
    void xlatedDumpOfCallsAgrees() throws Exception {
        String id = Integer.toString(progId(callsFd));
        for (String[] mode : MODES) {
            Output o = new Output(mode.length > 0, mode.length > 0 && mode[0].equals("-p"));
            new XlatedDump(o).dump(Integer.parseInt(id), false, false);
            String actual = o.finish();
            assertEquals(bpftool(mode, "prog", "dump", "xlated", "id", id), actual);
            // the helper by its kernel symbol (bpf_user_rnd_u32 here), not an address
            assertTrue(actual.matches("(?s).*\\(85\\) call [a-z_0-9]+#-?\\d+.*"), actual);
            assertTrue(actual.contains("call pc+2#bpf_prog_"), actual);
        }
    }

    @Test
    void xlatedDumpAgrees() throws Exception {
        String id = Integer.toString(progId(progFd));
        for (String[] mode : MODES) {
            for (String extra : new String[] {null, "opcodes", "linum"}) {
                String[] args = extra == null ? new String[] {"prog", "dump", "xlated", "id", id}
                        : new String[] {"prog", "dump", "xlated", "id", id, extra};
                Output o = new Output(mode.length > 0, mode.length > 0 && mode[0].equals("-p"));
                new XlatedDump(o).dump(Integer.parseInt(id), "opcodes".equals(extra), "linum".equals(extra));
                String actual = o.finish();
                assertEquals(bpftool(mode, args), actual, "bpftool " + String.join(" ", mode) + " " + String.join(" ", args));
                assertTrue(actual.contains("map[id:" + mapId(maps.get("t.rodata")) + "]"), actual);
            }
        }
    }

    @Test
    void listsAgree() throws Exception {
        // other tests may load or unload objects meanwhile: compare runs that saw the same objects
        for (String object : new String[] {"map", "prog"}) {
            for (String[] mode : MODES) {
                String expected = null;
                String actual = null;
                for (int attempt = 0; attempt < 5; attempt++) {
                    expected = bpftool(mode, object, "list");
                    actual = jperf(mode, object, "list");
                    if (expected.equals(actual) && expected.equals(bpftool(mode, object, "list"))) {
                        break;
                    }
                }
                assertEquals(expected, actual, "bpftool " + String.join(" ", mode) + " " + object + " list");
            }
        }
    }

    @Test
    void handlesNamingSeveralObjectsAgree() throws Exception {
        String tag = bpftool(new String[] {"-j"}, "prog", "show", "id", Integer.toString(progId(progFd)))
                .replaceAll(".*\"tag\":\"([0-9a-f]{16})\".*\n", "$1");
        for (String[] mode : MODES) {
            for (String name : new String[] {"jperf_dup", "jperf_rawdup", "no_such_map"}) {
                for (String verb : new String[] {"show", "dump"}) {
                    assertEquals(bpftool(mode, "map", verb, "name", name), jperf(mode, "map", verb, BpfHandle.name(name)),
                            "bpftool " + String.join(" ", mode) + " map " + verb + " name " + name);
                }
            }
            assertEquals(bpftool(mode, "prog", "show", "name", "jperf_agreement"),
                    jperf(mode, "prog", "show", BpfHandle.name("jperf_agreement")));
            assertEquals(bpftool(mode, "prog", "show", "tag", tag), jperf(mode, "prog", "show", BpfHandle.tag(tag)));
            assertEquals(bpftool(mode, "prog", "dump", "xlated", "tag", tag),
                    jperf(mode, "prog", "xlated", BpfHandle.tag(tag)));
        }
        assertTrue(jperf(new String[] {"-j"}, "map", "dump", BpfHandle.name("jperf_dup")).startsWith("[{\"id\":"));
    }

    @Test
    void pinnedPathsAgree(@TempDir Path tmp) throws Exception {
        // a bpf file system of the test's own: bpftool -f and jperf -f walk every bpf mount
        Path dir = tmp.resolve("bpffs");
        Files.createDirectory(dir);
        try {
            Sys.mountBpffs(dir.toString());
        } catch (IllegalStateException e) {
            assumeTrue(false, "cannot mount a bpf file system here: " + e.getMessage());
        }
        try {
            Files.createDirectory(dir.resolve("sub"));
            for (String p : new String[] {"p1", "sub/p2", "p3"}) {
                Sys.pin(progFd, dir.resolve(p).toString());
            }
            Sys.pin(maps.get("typed_hash"), dir.resolve("sub/m1").toString());
            Sys.pin(maps.get("typed_hash"), dir.resolve("m2").toString());
            for (String[] mode : MODES) {
                String[] f = new String[mode.length + 1];
                System.arraycopy(mode, 0, f, 0, mode.length);
                f[mode.length] = "-f";
                String prog = Integer.toString(progId(progFd));
                Output o = new Output(mode.length > 0, mode.length > 0 && mode[0].equals("-p"));
                new ProgCommands(o, true).show(Integer.parseInt(prog));
                String actual = o.finish();
                assertEquals(bpftool(f, "prog", "show", "id", prog), actual);
                assertTrue(actual.contains(dir.resolve("sub/p2").toString()), actual);
                String map = Integer.toString(mapId(maps.get("typed_hash")));
                o = new Output(mode.length > 0, mode.length > 0 && mode[0].equals("-p"));
                new MapCommands(o, true).show(Integer.parseInt(map));
                actual = o.finish();
                assertEquals(bpftool(f, "map", "show", "id", map), actual);
                assertTrue(actual.contains(dir.resolve("m2").toString()), actual);
            }
        } finally {
            Sys.umount(dir.toString()); // the pins go with the mount
        }
    }

    /** What jperf prints on stdout for {@code bpf OBJECT VERB HANDLE}. */
    static String jperf(String[] mode, String object, String verb, BpfHandle h) {
        boolean json = mode.length > 0;
        Output o = new Output(json, json && mode[0].equals("-p"));
        try {
            if (object.equals("map")) {
                if (verb.equals("show")) {
                    new MapCommands(o).show(h);
                } else {
                    new MapCommands(o).dump(h);
                }
            } else if (verb.equals("show")) {
                new ProgCommands(o).show(h);
            } else {
                new XlatedDump(o).dump(h, false, false);
            }
        } catch (BpftoolException e) {
            if (json && !e.onStdout()) {
                o.error(e.getMessage());
            }
        }
        return o.finish();
    }

    /** What jperf prints on stdout for {@code bpf OBJECT VERB [ID]}. */
    static String jperf(String[] mode, String object, String verb, String... id) {
        boolean json = mode.length > 0;
        Output o = new Output(json, json && mode[0].equals("-p"));
        try {
            if (object.equals("map")) {
                MapCommands c = new MapCommands(o);
                switch (verb) {
                    case "list" -> c.list();
                    case "show" -> c.show(Integer.parseInt(id[0]));
                    default -> c.dump(Integer.parseInt(id[0]));
                }
            } else {
                ProgCommands c = new ProgCommands(o);
                switch (verb) {
                    case "list" -> c.list();
                    default -> c.show(Integer.parseInt(id[0]));
                }
            }
        } catch (BpftoolException e) {
            if (json && !e.onStdout()) {
                o.error(e.getMessage());
            }
        }
        return o.finish();
    }

    static String bpftool(String[] mode, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(bpftool);
        cmd.addAll(List.of(mode));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        return new String(out, StandardCharsets.UTF_8);
    }

    static String findBpftool() {
        for (String dir : (System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin").split(":")) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, "bpftool");
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }

    private static ByteBuffer le(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static byte[] ascii(String s, int n) {
        byte[] b = new byte[n];
        byte[] t = s.getBytes(StandardCharsets.ISO_8859_1);
        System.arraycopy(t, 0, b, 0, Math.min(n, t.length));
        return b;
    }

    private static byte[] seq(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 17 + 1);
        }
        return b;
    }

    private static byte[] keyBytes(int pid, String comm) {
        return le(12).putInt(pid).put(ascii(comm, 8)).array();
    }

    /** A struct val: every member kind, varied per element. */
    private static byte[] valBytes(int i) {
        ByteBuffer b = le(96);
        b.putLong(0, 1000L * i + 1);
        b.putInt(8, i == 1 ? -7 : 7);
        b.putInt(12, i == 2 ? -1 : i == 1 ? 1 : 5); // DEAD, SLEEPING, no name
        b.putInt(16, (5 & 7) | (i + 17) << 3 | (300 + i) << 8); // a:3 b:5 c:9
        b.putShort(20, (short) -300);
        b.put(22, (byte) 200);
        b.put(23, (byte) (i & 1));
        b.putInt(24, 0x00020001 + i);
        b.put(28, (byte) 'Q');
        b.put(29, (byte) (i == 0 ? 1 : 0xe9)); // unprintable chars
        b.putShort(30, (short) 0xffff);
        b.putLong(32, i == 0 ? 0 : 0xffff888012345678L);
        b.put(40, ascii(i == 1 ? "x" : "name-" + i, 12));
        b.put(52, new byte[] {1, (byte) 0x80, 3, 4});
        b.putInt(56, -i);
        b.putLong(64, i == 2 ? -1L : 0x1234L);
        b.putLong(72, i == 2 ? 0x0fedcba987654321L : 0);
        b.putLong(80, i == 0 ? 0x100000000L : i == 1 ? 1 : 77);
        b.put(88, (byte) (0xa5 + i));
        return b.array();
    }

    interface PerCpuValue {
        byte[] of(int cpu);
    }

    /** A per-CPU map's update value: one 8-byte-aligned slot per possible CPU. */
    private static byte[] perCpu(int cpus, int valueSize, PerCpuValue v) {
        int step = (valueSize + 7) & ~7;
        byte[] all = new byte[step * cpus];
        for (int c = 0; c < cpus; c++) {
            byte[] one = v.of(c);
            System.arraycopy(one, 0, all, c * step, one.length);
        }
        return all;
    }
}
