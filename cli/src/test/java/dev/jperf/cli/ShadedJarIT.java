package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The jar the shade step made (cli/target/jperf.jar), as the launcher runs it. */
class ShadedJarIT {
    private static final Path JAR = Path.of("target", "jperf.jar");

    @TempDir
    Path tmp;

    /**
     * Every member of dev.jperf.cli.logging that a bundled class names exists there with that
     * descriptor: a library upgrade calling, say, {@code Logger.fine} fails here, not at run time.
     */
    @Test
    void everyRelocatedLoggingCallResolves() throws Exception {
        List<String> missing = new ArrayList<>();
        int checked = 0;
        try (JarFile jar = new JarFile(JAR.toFile())) {
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements();) {
                JarEntry entry = e.nextElement();
                if (!entry.getName().endsWith(".class") || entry.getName().startsWith("dev/jperf/cli/logging/")) {
                    continue;
                }
                byte[] bytes;
                try (InputStream in = jar.getInputStream(entry)) {
                    bytes = in.readAllBytes();
                }
                for (String[] ref : memberRefs(bytes)) {
                    if (!ref[0].startsWith("dev/jperf/cli/logging/")) {
                        continue;
                    }
                    checked++;
                    if (!declares(Class.forName(ref[0].replace('/', '.')), ref[1], ref[2])) {
                        missing.add(entry.getName() + " -> " + String.join(" ", ref));
                    }
                }
            }
        }
        assertTrue(checked > 10, "JNA's and protobuf's logging calls were found: " + checked);
        assertEquals(List.of(), missing);
    }

    private static boolean declares(Class<?> c, String name, String descriptor) {
        if (descriptor.startsWith("(")) {
            for (java.lang.reflect.Executable m : name.equals("<init>") ? c.getDeclaredConstructors() : c.getDeclaredMethods()) {
                Class<?> ret = m instanceof java.lang.reflect.Method ? ((java.lang.reflect.Method) m).getReturnType() : void.class;
                if ((name.equals("<init>") || m.getName().equals(name)) && java.lang.reflect.Modifier.isPublic(m.getModifiers())
                        && java.lang.invoke.MethodType.methodType(ret, m.getParameterTypes()).toMethodDescriptorString()
                                .equals(descriptor)) {
                    return true;
                }
            }
            return false;
        }
        for (java.lang.reflect.Field f : c.getDeclaredFields()) {
            if (f.getName().equals(name) && java.lang.reflect.Modifier.isPublic(f.getModifiers())
                    && f.getType().descriptorString().equals(descriptor)) {
                return true;
            }
        }
        return false;
    }

    /** The field and method references of a class file's constant pool: {class, name, descriptor}. */
    private static List<String[]> memberRefs(byte[] b) {
        java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(b);
        buf.position(8);
        int count = Short.toUnsignedInt(buf.getShort());
        String[] utf8 = new String[count];
        int[] first = new int[count];
        int[] second = new int[count];
        int[] tag = new int[count];
        for (int i = 1; i < count; i++) {
            tag[i] = buf.get();
            switch (tag[i]) {
                case 1 -> {
                    byte[] s = new byte[Short.toUnsignedInt(buf.getShort())];
                    buf.get(s);
                    utf8[i] = new String(s, StandardCharsets.UTF_8);
                }
                case 3, 4 -> buf.getInt();
                case 5, 6 -> {
                    buf.getLong();
                    i++;
                }
                case 7, 8, 16, 19, 20 -> first[i] = Short.toUnsignedInt(buf.getShort());
                case 15 -> {
                    buf.get();
                    buf.getShort();
                }
                case 9, 10, 11, 12, 17, 18 -> {
                    first[i] = Short.toUnsignedInt(buf.getShort());
                    second[i] = Short.toUnsignedInt(buf.getShort());
                }
                default -> throw new IllegalStateException("constant pool tag " + tag[i]);
            }
        }
        List<String[]> refs = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            if (tag[i] == 9 || tag[i] == 10 || tag[i] == 11) {
                int nameAndType = second[i];
                refs.add(new String[] {utf8[first[first[i]]], utf8[first[nameAndType]], utf8[second[nameAndType]]});
            }
        }
        return refs;
    }

    /** JNA's and protobuf's java.util.logging calls go to dev.jperf.cli.logging (cli/pom.xml's relocation). */
    @Test
    void noBundledClassCallsTheJdksLogging() throws Exception {
        List<String> calling = new ArrayList<>();
        boolean jnaRelocated = false;
        try (JarFile jar = new JarFile(JAR.toFile())) {
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements();) {
                JarEntry entry = e.nextElement();
                if (!entry.getName().endsWith(".class")) {
                    continue;
                }
                String constants;
                try (InputStream in = jar.getInputStream(entry)) {
                    constants = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
                }
                if (constants.contains("java/util/logging/")) {
                    calling.add(entry.getName());
                }
                if (entry.getName().equals("com/sun/jna/Native.class")) {
                    jnaRelocated = constants.contains("dev/jperf/cli/logging/Logger");
                }
            }
        }
        assertEquals(List.of(), calling);
        assertTrue(jnaRelocated, "JNA's Native takes its Logger from dev.jperf.cli.logging");
    }

    /**
     * A recording loads no class of the JDK's logging (JNA's Native initialised, its Logger ours) and
     * links no lambda or method handle, the JDK's own included (the workload by posix_spawn, build-ids
     * by positional reads): each would cost the start milliseconds (bench/README.md).
     */
    @Test
    void recordStartsNoJdkLoggingNorMethodHandles() throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "perf_event_open needs root here");
        Path log = tmp.resolve("classes.txt");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:class+load=info:file=" + log));
        if (Runtime.version().feature() >= 24) {
            // as the launcher: JNA's System::load and Unsafe would print warnings otherwise
            cmd.addAll(List.of("--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"));
        }
        cmd.addAll(List.of("-cp", JAR.toString(), "dev.jperf.cli.Main",
                "record", "-q", "-a", "-o", tmp.resolve("x.data").toString(), "--", "true"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(tmp.resolve("out.txt").toFile())
                .start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "record did not finish");
        assertEquals(0, p.exitValue(), Files.readString(tmp.resolve("out.txt")));
        String classes = Files.readString(log);
        assertTrue(classes.contains(" com.sun.jna.Native "), "JNA was used");
        assertTrue(classes.contains(" dev.jperf.cli.logging.Logger "), "JNA took its Logger");
        assertFalse(classes.contains(" java.util.logging."), "a java.util.logging class was loaded");
        assertTrue(classes.contains(" dev.jperf.nativeshim.Spawn "), "the workload was spawned");
        assertTrue(classes.contains(" dev.jperf.recorder.BuildIdCache "), "the build-id pass ran");
        assertFalse(classes.contains(" java.lang.invoke.LambdaMetafactory "), "a lambda was linked");
        assertFalse(classes.contains(" java.lang.invoke.LambdaForm$MH/"), "a method handle was spun");
        assertEquals("", Files.readString(tmp.resolve("out.txt")));
    }
}
