package dev.jperf.loader;

import dev.jperf.nativeshim.Errno;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Memory;
import dev.jperf.format.btf.Btf;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.BpfAttrLayout;
import dev.jperf.format.bpf.BpfProgInfoLayout;
import dev.jperf.format.bpf.Uapi;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** jperf's own sample objects (samples/bpf/obj, built by samples/build.sh): what each shows, loaded. */
class SamplesTest {
    static final Path SAMPLES = Path.of(System.getProperty("jperf.root", "../.."), "samples");
    static final Path OBJ = SAMPLES.resolve("bpf/obj");

    @BeforeAll
    static void needBpf() {
        assumeTrue(Files.isDirectory(OBJ), "no " + OBJ);
        try {
            new Bpf().progGetNextId(0);
        } catch (NativeException e) {
            assumeTrue(false, "bpf(2) refused here: " + e.getMessage());
        }
    }

    @Test
    void everySampleLoads() throws Exception {
        List<Path> objs;
        try (Stream<Path> s = Files.list(OBJ)) {
            objs = s.filter(p -> p.toString().endsWith(".bpf.o")).sorted().toList();
        }
        assertEquals(10, objs.size());
        for (Path f : objs) {
            String name = f.getFileName().toString();
            if (name.equals("bperf_follower.bpf.o") || name.equals("bpf_prog_profiler.bpf.o")) {
                // fentry/fexit on another BPF program: they need a target (bperfFollowerTargetsTheLeadersProgram,
                // StatBpfProfilerTest)
                continue;
            }
            try (BpfObject o = BpfObject.open(f)) {
                o.load(LoadOptions.DEFAULT);
                for (BpfProgram p : o.programs()) {
                    assertTrue(p.fd() >= 0, f + ": " + p.error());
                }
            }
        }
    }

    /**
     * bpf_program__set_attach_target and bpf_map__reuse_fd: the bperf follower's fexit targets the
     * leader's on_switch (found in the leader's BTF) and shares its diff map. The kernel either
     * loads it or refuses it itself (this VM: EPERM for every fexit); a function the target lacks
     * is the loader's ESRCH.
     */
    @Test
    void bperfFollowerTargetsTheLeadersProgram() throws Exception {
        try (BpfObject leader = BpfObject.open(OBJ.resolve("bperf_leader.bpf.o"))) {
            leader.load(LoadOptions.DEFAULT);
            int leaderFd = leader.program("on_switch").fd();
            assertTrue(leaderFd >= 0, leader.program("on_switch").error());
            BpfMap diff = leader.map("diff_readings");
            try (BpfObject f = BpfObject.open(OBJ.resolve("bperf_follower.bpf.o"))) {
                BpfProgram p = f.program("fexit_on_switch");
                p.setAttachTarget(leaderFd, "on_switch");
                f.map("diff_readings").reuseFd(diff.fd(), diff.type(), diff.keySize(), diff.valueSize());
                f.load(LoadOptions.DEFAULT);
                assertEquals(diff.fd(), f.map("diff_readings").fd(), "the leader's map, not a new one");
                assertTrue(p.fd() >= 0 || (p.errno() != Errno.ESRCH && !p.error().contains("failed to find")),
                        "refused by the loader, not the kernel: " + p.error());
            }
            assertTrue(new Bpf().mapLookupElem(diff.fd(), new byte[4], 24 * ObjectLoader.possibleCpus()).length > 0,
                    "the follower's close left the reused map alone");
            try (BpfObject f = BpfObject.open(OBJ.resolve("bperf_follower.bpf.o"))) {
                BpfProgram p = f.program("fexit_on_switch");
                p.setAttachTarget(leaderFd, "no_such_function");
                f.load(LoadOptions.DEFAULT);
                assertEquals(Errno.ESRCH, p.errno(), p.error());
                assertTrue(p.error().contains("failed to find BTF of 'no_such_function' in the target program"), p.error());
            }
        }
    }

    @Test
    void legacyMapTakesItsTypesFromTheMarker() throws Exception {
        try (BpfObject o = BpfObject.open(OBJ.resolve("legacy_maps.bpf.o"))) {
            BpfMap m = o.map("opens_by_pid");
            assertEquals(Uapi.BPF_MAP_TYPE_HASH, m.type());
            assertEquals(4, m.keySize());
            assertEquals(16, m.valueSize());
            assertEquals(1024, m.maxEntries());
            Btf btf = o.btf();
            assertEquals("__u32", btf.name(m.btfKeyTypeId()));
            assertEquals("opens", btf.name(m.btfValueTypeId()));
            o.load(LoadOptions.DEFAULT);
            Memory info = new Memory(80);
            info.clear();
            new Bpf().objGetInfoByFd(m.fd(), info, 80);
            assertEquals(m.btfKeyTypeId(), info.getInt(68), "bpf_map_info.btf_key_type_id: the kernel took the BTF");
            assertEquals(m.btfValueTypeId(), info.getInt(72));
        }
    }

    @Test
    void globalDataAndSubprograms() throws Exception {
        try (BpfObject o = BpfObject.open(OBJ.resolve("global_data.bpf.o"))) {
            BpfMap rodata = o.map(".rodata");
            assertEquals("global_d.rodata", rodata.name());
            byte[] v = rodata.initialValue();
            v[0] = 1; // target_tgid = 1: only init's syscalls count
            rodata.setInitialValue(v);
            assertEquals(1000, java.nio.ByteBuffer.wrap(o.map(".data").initialValue())
                    .order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong(), "calls_seen starts at 1000");
            o.load(LoadOptions.DEFAULT);
            BpfProgram p = o.program("on_sys_enter");
            Memory info = new Memory(BpfProgInfoLayout.SIZE);
            info.clear();
            new Bpf().objGetInfoByFd(p.fd(), info, BpfProgInfoLayout.SIZE);
            assertEquals(3, info.getInt(BpfProgInfoLayout.NR_FUNC_INFO), "on_sys_enter, wanted and classify: one program");
            assertTrue(info.getInt(BpfProgInfoLayout.NR_LINE_INFO) > 5);
        }
    }

    @Test
    void coreProgramHasRelocations() throws Exception {
        try (BpfObject o = BpfObject.open(OBJ.resolve("task_core.bpf.o"))) {
            assertFalse(o.btfExt.coreRelo.isEmpty());
        }
    }

    @Test
    void uprobeOnTheWorkload() throws Exception {
        Path spin = SAMPLES.resolve("bin/jperf-sample-spin");
        assumeTrue(Files.isExecutable(spin), "no " + spin);
        int stats = new Bpf().enableStats(BpfAttrLayout.BPF_STATS_RUN_TIME);
        try (BpfObject o = BpfObject.open(OBJ.resolve("uprobe.bpf.o"))) {
            o.load(LoadOptions.DEFAULT);
            BpfProgram p = o.program("on_step");
            try (BpfLink l = BpfLink.uprobe(p, false, -1, spin, "spin_step", 0)) {
                new ProcessBuilder(spin.toString(), "0.1").start().waitFor();
                Memory info = new Memory(BpfProgInfoLayout.SIZE);
                info.clear();
                new Bpf().objGetInfoByFd(p.fd(), info, BpfProgInfoLayout.SIZE);
                assertTrue(info.getLong(BpfProgInfoLayout.RUN_CNT) > 100, "spin_step calls seen: "
                        + info.getLong(BpfProgInfoLayout.RUN_CNT));
            }
        } finally {
            Fd.close(stats);
        }
    }
}
