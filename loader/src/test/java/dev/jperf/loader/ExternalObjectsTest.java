package dev.jperf.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.nativeshim.Errno;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every program of the 36 external objects (testdata/bpf-objects), loaded alone as golden.c has
 * libbpf load it on the running kernel ({@link LibbpfOracle}): the same programs load, the refused
 * ones get libbpf's errno, and the kernel holds the same xlated instructions (map references
 * masked, as golden.c writes them) and the same maps.
 */
class ExternalObjectsTest {
    /** The repository's test data: the parent pom sets jperf.testdata; the default is where it lies seen from a module. */
    static final Path TESTDATA = Path.of(System.getProperty("jperf.testdata", "../testdata"));
    static final Path DIR = TESTDATA.resolve("bpf-objects");

    @BeforeAll
    static void needBpf() {
        LibbpfOracle.assume();
    }

    static List<Path> objects() throws IOException {
        try (Stream<Path> s = Files.list(DIR.resolve("obj"))) {
            return s.filter(p -> p.getFileName().toString().endsWith(".bpf.o")).sorted().toList();
        }
    }

    static Path libbpf() throws IOException {
        return LibbpfOracle.run("external", objects());
    }

    static Stream<Arguments> programs() throws IOException {
        return arguments(libbpf());
    }

    /** golden.c's rows: object, program, section, what libbpf answered. */
    static Stream<Arguments> arguments(Path libbpf) {
        return LibbpfOracle.loads(libbpf).stream().map(l -> Arguments.of(l.object(), l.program(), l.section(), l.answer()));
    }

    @Test
    void sameProgramsAsLibbpf() throws Exception {
        List<Path> objects = objects();
        assertEquals(36, objects.size(), "objects in " + DIR.resolve("obj"));
        samePrograms(objects, libbpf());
    }

    /** libbpf and jperf find the same programs, in the same order, in every object: none goes unchecked. */
    static void samePrograms(List<Path> objects, Path libbpf) throws Exception {
        List<String> want = new ArrayList<>();
        for (LibbpfOracle.Load l : LibbpfOracle.loads(libbpf)) {
            want.add(l.object() + " " + l.program() + " " + l.section());
        }
        List<String> got = new ArrayList<>();
        for (Path f : objects) {
            try (BpfObject o = BpfObject.open(f)) {
                for (BpfProgram p : o.programs()) {
                    got.add(f.getFileName() + " " + p.name() + " " + p.sectionName());
                }
            }
        }
        assertEquals(want, got);
    }

    @ParameterizedTest(name = "{0} {1} ({2}): {3}")
    @MethodSource("programs")
    void loadsAsLibbpf(String object, String program, String section, String libbpf) throws Exception {
        check(DIR.resolve("obj"), libbpf(), object, program, section, libbpf);
    }

    /**
     * Loads {@code program} of {@code objDir/object} alone and compares with golden.c's answer
     * {@code libbpf} and, when it loaded, {@code goldenDir/OBJECT.PROGRAM.xlated} (its output).
     */
    static void check(Path objDir, Path goldenDir, String object, String program, String section, String libbpf)
            throws Exception {
        try (BpfObject o = BpfObject.open(objDir.resolve(object))) {
            BpfProgram me = o.program(program);
            assertEquals(section, me.sectionName());
            for (BpfProgram p : o.programs()) {
                p.setAutoload(p == me);
            }
            try {
                o.load(LoadOptions.DEFAULT);
            } catch (BpfObjectException e) {
                assertTrue(!libbpf.equals("OK") && Errno.text(e.errno()).equals(libbpf),
                        "libbpf: " + libbpf + ", jperf: " + e.getMessage());
                return;
            }
            if (!libbpf.equals("OK")) {
                assertTrue(me.fd() < 0, "loaded where libbpf refused: " + libbpf);
                assertEquals(libbpf, Errno.text(me.errno()), me.error());
                return;
            }
            assertTrue(me.fd() >= 0, me.error());
            List<String> golden = Files.readAllLines(goldenDir.resolve(object + "." + program + ".xlated"));
            List<String> want = new ArrayList<>();
            List<String> wantMaps = new ArrayList<>();
            for (String l : golden) {
                if (l.startsWith("# map")) {
                    wantMaps.add(l);
                } else if (!l.startsWith("#")) {
                    want.add(l);
                }
            }
            BpfProgInfo info = me.info();
            assertEquals(want, xlatedLines(info.xlatedProgInsns()));
            // "# prog NAME type T: N insns, F func_info, L line_info, btf yes|no"
            String head = golden.get(0);
            assertEquals(String.format("# prog %s type %d: %d insns, %d func_info, %d line_info, btf %s", program, info.type(),
                    info.xlatedProgInsns().length / 8, info.nrFuncInfo(), info.nrLineInfo(), info.btfId() != 0 ? "yes" : "no"), head);
            List<String> maps = new ArrayList<>();
            for (BpfMap m : o.maps()) {
                maps.add(String.format("# map %s type %d key %d value %d max %d flags 0x%x", m.name(), m.type(), m.keySize(),
                        m.valueSize(), m.maxEntries(), m.flags()));
            }
            List<String> wantNoBtf = new ArrayList<>();
            for (String l : wantMaps) {
                wantNoBtf.add(l.substring(0, l.indexOf(" btf_key")));
            }
            assertEquals(wantNoBtf.stream().sorted().toList(), maps.stream().sorted().toList());
        }
    }

    /** golden.c's format: "code dst src off imm", ld_imm64 of a map written "map-ref" with the id zeroed. */
    static List<String> xlatedLines(byte[] x) {
        ByteBuffer b = ByteBuffer.wrap(x).order(ByteOrder.LITTLE_ENDIAN);
        List<String> out = new ArrayList<>();
        int n = x.length / 8;
        for (int k = 0; k < n; k++) {
            int code = b.get(k * 8) & 0xff;
            int regs = b.get(k * 8 + 1) & 0xff;
            int off = b.getShort(k * 8 + 2);
            int imm = b.getInt(k * 8 + 4);
            int src = regs >> 4;
            int dst = regs & 15;
            if (code == 0x18 && (src == 1 || src == 2) && k + 1 < n) {
                out.add(String.format("%02x %x %x %d map-ref", code, dst, src, off));
                k++;
                int regs2 = b.get(k * 8 + 1) & 0xff;
                out.add(String.format("%02x %x %x %d %d", b.get(k * 8) & 0xff, regs2 & 15, regs2 >> 4, (int) b.getShort(k * 8 + 2),
                        src == 2 ? b.getInt(k * 8 + 4) : 0));
                continue;
            }
            out.add(String.format("%02x %x %x %d %d", code, dst, src, off, imm));
        }
        return out;
    }
}
