package dev.jperf.report.symbol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every line of demangle-corpus.tsv.gz (6,800 C++ symbols of libjvm, libstdc++, LLVM, clang and
 * other real libraries, 665 Rust legacy and v0 symbols of a rustc-built program, 350 hand-written
 * special cases) must come out exactly as binutils 2.40's c++filt printed it, in c++filt's mode and
 * in the two perf modes; and the perf modes as perf 6.1 itself shows them.
 */
class DemanglerTest {
    private static final List<String[]> CORPUS = new ArrayList<>();

    @BeforeAll
    static void load() throws Exception {
        try (InputStream in = DemanglerTest.class.getResourceAsStream("demangle-corpus.tsv.gz")) {
            assertNotNull(in, "demangle-corpus.tsv.gz");
            BufferedReader r = new BufferedReader(new InputStreamReader(new GZIPInputStream(in), StandardCharsets.UTF_8));
            String line;
            while ((line = r.readLine()) != null) {
                if (!line.startsWith("#")) {
                    String[] f = line.split("\t", -1);
                    assertEquals(4, f.length, line);
                    CORPUS.add(f);
                }
            }
        }
        assertTrue(CORPUS.size() > 7000, "corpus size " + CORPUS.size());
    }

    private static void compare(Demangler d, int column) {
        List<String> wrong = new ArrayList<>();
        for (String[] f : CORPUS) {
            String got = d.demangle(f[0]);
            if (!got.equals(f[column])) {
                wrong.add(f[0] + "\n  c++filt: " + f[column] + "\n  jperf:   " + got);
            }
        }
        assertEquals(List.of(), wrong.subList(0, Math.min(10, wrong.size())),
                wrong.size() + " of " + CORPUS.size() + " differ");
    }

    @Test
    void equalsCxxFiltDefault() {
        compare(Demangler.CXXFILT, 1);
    }

    @Test
    void equalsPerfDefaultNoParamsNoVerbose() {
        compare(Demangler.PERF, 2);
    }

    @Test
    void equalsPerfVerboseParams() {
        compare(Demangler.PERF_VERBOSE, 3);
    }

    /**
     * perf 6.1 itself (perf probe -F lists an object's functions with perf's own demangling) shows the
     * corpus names exactly as the two perf modes do; the listing is sorted, so compare sorted lists.
     */
    @Test
    void perfModesEqualPerf61Itself() throws Exception {
        for (Object[] mode : new Object[][] {{Demangler.PERF, "perf-probe-funcs.txt.gz"},
                {Demangler.PERF_VERBOSE, "perf-probe-funcs-v.txt.gz"}}) {
            List<String> perf = new ArrayList<>();
            try (InputStream in = DemanglerTest.class.getResourceAsStream((String) mode[1])) {
                assertNotNull(in, (String) mode[1]);
                new BufferedReader(new InputStreamReader(new GZIPInputStream(in), StandardCharsets.UTF_8)).lines()
                        .filter(l -> !l.startsWith("# ")).forEach(perf::add);
            }
            List<String> ours = CORPUS.stream().map(f -> f[0]).filter(n -> n.indexOf('@') < 0).distinct()
                    .map(((Demangler) mode[0])::demangle).sorted().toList();
            assertEquals(perf.size(), ours.size(), (String) mode[1]);
            for (int i = 0; i < ours.size(); i++) {
                assertEquals(perf.get(i), ours.get(i), mode[1] + " line " + (i + 1));
            }
        }
    }

    @Test
    void examples() {
        assertEquals("IndexSetIterator::advance_and_next()",
                Demangler.CXXFILT.demangle("_ZN16IndexSetIterator16advance_and_nextEv"));
        assertEquals("IndexSetIterator::advance_and_next",
                Demangler.PERF.demangle("_ZN16IndexSetIterator16advance_and_nextEv"));
        assertEquals("f() [clone .constprop.0] [clone .isra.0]", Demangler.CXXFILT.demangle("_Z1fv.constprop.0.isra.0"));
        assertEquals("std::ostream::operator<<", Demangler.PERF.demangle("_ZNSolsEd"));
        assertEquals("foo::bar", Demangler.PERF.demangle("_ZN3foo3bar17h0123456789abcdefE"));
        assertEquals("mycrate::foo::<&u8>", Demangler.PERF.demangle("_RINvCs1234_7mycrate3fooRhEB2_"));
        // not mangled, or C clones: unchanged and the same object (no copy per call)
        String c = "scramble.constprop.0";
        assertSame(c, Demangler.PERF.demangle(c));
        assertSame("_Z", Demangler.PERF.demangle("_Z"));
    }

    /** Hostile names from an ELF file: never an exception, never a hang, never a huge string. */
    @Test
    void mutatedAndRandomInputsTerminate() {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            SplittableRandom rnd = new SplittableRandom(7);
            String alphabet = "_ZNRSEITLKVPOFADGCUBXJMWYHQabcdefghijklmnopqrstuvwxyz0123456789.$";
            Demangler[] modes = {Demangler.PERF, Demangler.PERF_VERBOSE, Demangler.CXXFILT};
            int n = 0;
            for (String[] f : CORPUS) {
                for (int k = 0; k < 8; k++) {
                    String m = mutate(f[0], rnd, alphabet);
                    String got = modes[k % 3].demangle(m);
                    assertNotNull(got);
                    assertTrue(got.length() <= (1 << 18) + m.length(), m);
                    n++;
                }
            }
            for (int k = 0; k < 20000; k++) {
                StringBuilder sb = new StringBuilder(rnd.nextBoolean() ? "_Z" : "_R");
                int len = rnd.nextInt(1, 60);
                for (int i = 0; i < len; i++) {
                    sb.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
                }
                assertNotNull(modes[k % 3].demangle(sb.toString()));
                n++;
            }
            assertTrue(n > 70000);
        });
    }

    private static String mutate(String s, SplittableRandom rnd, String alphabet) {
        StringBuilder sb = new StringBuilder(s);
        int edits = rnd.nextInt(1, 4);
        for (int e = 0; e < edits && sb.length() > 2; e++) {
            int at = rnd.nextInt(2, sb.length());
            switch (rnd.nextInt(5)) {
                case 0 -> sb.setCharAt(at, alphabet.charAt(rnd.nextInt(alphabet.length())));
                case 1 -> sb.insert(at, alphabet.charAt(rnd.nextInt(alphabet.length())));
                case 2 -> sb.deleteCharAt(at);
                case 3 -> sb.setLength(at);
                default -> sb.insert(at, sb.substring(at, Math.min(sb.length(), at + rnd.nextInt(1, 20))));
            }
        }
        return sb.toString();
    }

    @Test
    void deepNestingAndExponentialOutputAreBounded() {
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            for (String unit : new String[] {"P", "A1_", "FP", "N1a", "I", "Dp", "R", "U3foo", "Xcl"}) {
                String s = "_Z1f" + unit.repeat(100_000) + "i";
                assertEquals(s, Demangler.CXXFILT.demangle(s));
            }
            // each type is B<previous, previous>: the text doubles with every level
            StringBuilder s = new StringBuilder("_Z1f1A");
            for (int i = 0; i < 40; i++) {
                // subs: A, then per level the name B and the type B<...>
                String prev = i == 0 ? "S_" : "S" + Integer.toString(2 * i - 1, 36).toUpperCase() + "_";
                s.append("1BI").append(prev).append(prev).append('E');
            }
            assertEquals(s.toString(), Demangler.CXXFILT.demangle(s.toString()));
            String rust = "_RNvC1a1f" + "B_".repeat(50_000);
            assertEquals(rust, Demangler.CXXFILT.demangle(rust));
            String v0 = "_RINvC1a1f" + "T".repeat(100_000) + "E".repeat(100_000) + "EB2_";
            assertEquals(v0, Demangler.PERF.demangle(v0));
        });
    }
}
