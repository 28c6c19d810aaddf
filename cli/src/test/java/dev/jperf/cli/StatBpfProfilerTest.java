package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Memory;
import dev.jperf.loader.BpfLink;
import dev.jperf.loader.BpfMap;
import dev.jperf.loader.BpfObject;
import dev.jperf.loader.BpfProgram;
import dev.jperf.loader.LoadOptions;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.format.bpf.BpfMapInfoLayout;
import dev.jperf.format.bpf.BpfProgInfoLayout;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.samples.RunCounter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jperf stat -b ID -e EVENTS}: the events counted inside the runs of a program with BTF
 * (samples' uprobe.bpf.o, its on_step on spin_step of a private copy of jperf-sample-spin, so
 * that only the test's workload runs it, counting its runs in .bss) by fentry/fexit profilers
 * where the kernel allows them; here, where it refuses them, one line, the kernel's statistics,
 * and nothing of the profiler left loaded.
 */
class StatBpfProfilerTest {
    private static final Path SAMPLES = Path.of(System.getProperty("jperf.root", "../.."), "samples");
    private static final String TARGET = "on_step";
    /** the profiler's programs and maps (bpf_prog_profiler.bpf.c), as the kernel names them */
    private static final Set<String> PROFILER_PROGS = Set.of("fentry_XXX", "fexit_XXX");
    private static final Set<String> PROFILER_MAPS = Set.of("events", "fentry_readings", "accum_readings");

    @TempDir
    Path tmp;
    private Path spin;
    private BpfObject object;
    private BpfLink link;

    @BeforeEach
    void setUp() throws Exception {
        assumeTrue(Files.readString(Path.of("/proc/self/status")).matches("(?s).*\\nUid:\\s+0\\s.*"), "needs root for bpf(2)");
        spin = tmp.resolve("jperf-sample-spin");
        Files.copy(SAMPLES.resolve("bin/jperf-sample-spin"), spin, StandardCopyOption.COPY_ATTRIBUTES);
        object = BpfObject.open(SAMPLES.resolve("bpf/obj/uprobe.bpf.o"));
        object.program("on_step_return").setAutoload(false);
        object.load(LoadOptions.DEFAULT);
        link = BpfLink.uprobe(object.program(TARGET), false, -1, spin, "spin_step", 0);
    }

    @AfterEach
    void tearDown() {
        if (link != null) {
            link.close();
        }
        if (object != null) {
            object.close();
        }
    }

    private int targetId() {
        return object.program(TARGET).id();
    }

    /** on_step's runs so far: .bss calls. */
    private long calls() {
        BpfMap bss = null;
        for (BpfMap m : object.maps()) {
            if (m.internal() == BpfMap.Internal.BSS) {
                bss = m;
            }
        }
        return ByteBuffer.wrap(new Bpf().mapLookupElem(bss.fd(), new byte[4], bss.valueSize()))
                .order(ByteOrder.LITTLE_ENDIAN).getLong(0);
    }

    /** The kernel's answer to an fentry program on the target's main function, null when it takes it (then unloaded again). */
    private String fentryRefusal() throws Exception {
        try (BpfObject p = BpfObject.open(SAMPLES.resolve("bpf/obj/bpf_prog_profiler.bpf.o"))) {
            p.program("fexit_XXX").setAutoload(false);
            p.program("fentry_XXX").setAttachTarget(object.program(TARGET).fd(), TARGET);
            p.load(LoadOptions.DEFAULT);
            BpfProgram f = p.program("fentry_XXX");
            return f.fd() >= 0 ? null : Errno.name(f.errno()) + ": " + Errno.text(f.errno());
        }
    }

    @Test
    void eventsAreCountedOnlyWhileTheProgramRuns() throws Exception {
        String refusal = fentryRefusal();
        assumeTrue(refusal == null, "the kernel refuses fentry on a BPF program: " + refusal);
        long before = calls();
        Run r = Run.of("stat", "-b", Integer.toString(targetId()), "-e", "task-clock,cpu-clock", "-j", "--",
                spin.toString(), "0.2");
        long runs = calls() - before;
        assertEquals(0, r.rc(), r.err());
        assertTrue(runs > 0);
        String prefix = targetId() + ":" + TARGET + "/";
        assertEquals(runs, (long) value(r.err(), prefix + "run_cnt"), r.err());
        double runMs = value(r.err(), prefix + "run_time");
        double taskMs = value(r.err(), prefix + "task-clock");
        assertTrue(taskMs > 0, r.err());
        assertTrue(value(r.err(), prefix + "cpu-clock") > 0, r.err());
        // fentry/fexit read inside the run the kernel times: what they see is part of it
        assertTrue(taskMs <= runMs, "task-clock " + taskMs + " msec, run time " + runMs + " msec");
        assertTrue(!r.err().contains("refused"), r.err());
        assertNoProfilerLeft(Set.of(), Set.of());
    }

    @Test
    void aRefusedProfilerIsOneLineAndLeavesNothingLoaded() throws Exception {
        String refusal = fentryRefusal();
        assumeTrue(refusal != null, "the kernel allows fentry on BPF programs");
        List<Integer> progs = ids(true);
        List<Integer> maps = ids(false);
        List<String> fds = StatTest.openFds();
        long before = calls();
        Run r = Run.of("stat", "-b", Integer.toString(targetId()), "-e", "task-clock", "-x,", "--", spin.toString(), "0.2");
        long runs = calls() - before;
        assertEquals(0, r.rc(), r.err());
        List<String> lines = r.err().lines().toList();
        assertEquals("jperf stat: fentry/fexit on BPF program " + targetId() + " refused by the kernel: " + refusal
                + "; counting runs and run time with the kernel's BPF statistics (BPF_ENABLE_STATS), the -e events are"
                + " not counted", lines.get(0));
        assertEquals(1, lines.stream().filter(l -> l.startsWith("jperf stat:")).count(), r.err());
        String prefix = targetId() + ":" + TARGET + "/";
        assertTrue(runs > 0);
        String runCnt = lines.stream().filter(l -> l.contains("," + prefix + "run_cnt,")).findFirst().orElse(null);
        assertTrue(runCnt != null && runCnt.startsWith(runs + ",,"), runs + " runs, jperf:\n" + r.err());
        assertTrue(lines.stream().anyMatch(l -> l.contains("," + prefix + "run_time,")), r.err());
        assertTrue(lines.stream().noneMatch(l -> l.contains("task-clock")), r.err());
        assertNoProfilerLeft(Set.copyOf(progs), Set.copyOf(maps));
        assertEquals(fds, StatTest.openFds(), "fds left open");
        // the kernel's statistics are off again: a run of the target is no longer timed
        long cnt = runCnt();
        new ProcessBuilder(spin.toString(), "0.05").start().waitFor();
        assertEquals(cnt, runCnt(), "BPF statistics left on");
    }

    @Test
    void aProgramWithoutBtfIsOneLine() throws Exception {
        try (RunCounter c = RunCounter.attach()) {
            Run r = Run.of("stat", "-b", Integer.toString(c.id()), "-e", "task-clock", "-x,", "--", "true");
            assertEquals(0, r.rc(), r.err());
            List<String> lines = r.err().lines().toList();
            assertEquals("jperf stat: BPF program " + c.id() + " has no BTF, which fentry/fexit need to name its function;"
                    + " counting runs and run time with the kernel's BPF statistics (BPF_ENABLE_STATS), the -e events are"
                    + " not counted", lines.get(0));
            assertEquals(1, lines.stream().filter(l -> l.startsWith("jperf stat:")).count(), r.err());
            assertTrue(lines.stream().anyMatch(l -> l.contains("," + c.id() + ":" + RunCounter.NAME + "/run_cnt,")), r.err());
        }
    }

    private long runCnt() {
        Memory info = new Memory(BpfProgInfoLayout.SIZE);
        info.clear();
        new Bpf().objGetInfoByFd(object.program(TARGET).fd(), info, BpfProgInfoLayout.SIZE);
        return info.getLong(BpfProgInfoLayout.RUN_CNT);
    }

    /**
     * No program or map the kernel lists now and did not before ({@code progs}, {@code maps};
     * empty: any) is the profiler's. Other processes may load their own meanwhile: only the
     * profiler's names count.
     */
    private static void assertNoProfilerLeft(Set<Integer> progs, Set<Integer> maps) {
        for (int id : ids(true)) {
            String name = name(true, id);
            assertTrue(progs.contains(id) || !PROFILER_PROGS.contains(name), "program " + id + " " + name + " left loaded");
        }
        for (int id : ids(false)) {
            String name = name(false, id);
            assertTrue(maps.contains(id) || !PROFILER_MAPS.contains(name), "map " + id + " " + name + " left");
        }
    }

    /** The kernel's program (or map) ids. */
    private static List<Integer> ids(boolean programs) {
        Bpf bpf = new Bpf();
        List<Integer> ids = new ArrayList<>();
        for (int id = 0; (id = programs ? bpf.progGetNextId(id) : bpf.mapGetNextId(id)) != 0; ) {
            ids.add(id);
        }
        return ids;
    }

    /** A program's or map's name, null when it is gone meanwhile. */
    private static String name(boolean program, int id) {
        Bpf bpf = new Bpf();
        int fd;
        try {
            fd = program ? bpf.progGetFdById(id) : bpf.mapGetFdById(id);
        } catch (NativeException e) {
            return null;
        }
        try {
            int size = program ? BpfProgInfoLayout.SIZE : BpfMapInfoLayout.SIZE;
            Memory info = new Memory(size);
            info.clear();
            bpf.objGetInfoByFd(fd, info, size);
            return info.getString(program ? BpfProgInfoLayout.NAME : BpfMapInfoLayout.NAME);
        } finally {
            Fd.close(fd);
        }
    }

    /** A JSON row's counter-value, by event name. */
    private static double value(String json, String event) {
        Matcher m = Pattern.compile("\"counter-value\" : \"([0-9.]+)\", \"unit\" : \"[a-z]*\", \"event\" : \""
                + Pattern.quote(event) + "\"").matcher(json);
        assertTrue(m.find(), event + " in " + json);
        return Double.parseDouble(m.group(1));
    }
}
