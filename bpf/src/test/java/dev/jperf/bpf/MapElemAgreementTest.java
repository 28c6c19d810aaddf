package dev.jperf.bpf;

import dev.jperf.format.btf.BtfWriter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.nativeshim.Fd;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code jperf bpf map update|delete|getnext|freeze} against bpftool live: two twin maps, the same
 * commands given to bpftool on one and to jperf on the other, in plain, {@code -j} and {@code -p};
 * stdout, the error line and the maps' contents afterwards must be the same.
 */
class MapElemAgreementTest {
    private static final int HASH = 1, PERCPU_ARRAY = 6;

    private final List<Integer> fds = new ArrayList<>();

    @Test
    void hashMapCommandsAgree() throws Exception {
        String bpftool = BpftoolAgreementTest.findBpftool();
        assumeTrue(bpftool != null, "bpftool is not installed (Debian package bpftool): nothing to compare with");
        int[] ids = twins(HASH, 4, 4, 8);
        String[][] script = {
            {"getnext"},
            {"update", "key", "1", "0", "0", "0", "value", "hex", "0a", "0", "0", "0"},
            {"update", "key", "2", "0", "0", "0", "value", "3", "0", "0", "0", "noexist"},
            {"update", "key", "2", "0", "0", "0", "value", "3", "0", "0", "0", "noexist"},
            {"update", "key", "hex", "ff", "0x1", "0", "0", "value", "010", "0x10", "0377", "", "exist"},
            {"update", "k", "0x103", "0", "0", "0", "v", "7", "0", "0", "0", "any", "exist"},
            {"lookup", "key", "1", "0", "0", "0"},
            {"lookup", "key", "1", "0", "0", "0"},
            {"lookup", "key", "1", "0", "0", "0"},
            {"lookup", "key", "5", "0", "0", "0"},
            {"lookup", "key", "5", "0", "0", "0"},
            {"lookup", "key", "5", "0", "0", "0"},
            {"lookup", "key", "5", "0", "0", "0", "value", "1"},
            {"getnext", "key", "1", "0", "0"},
            {"update", "key", "1", "0", "0", "value", "1", "0", "0", "0"},
            {"update", "key", "1", "0", "0", "0", "0", "value", "1", "0", "0", "0"},
            {"update", "key", "1", "0", "0", "zz", "value", "1", "0", "0", "0"},
            {"update", "key", "1", "0", "0", "0", "value", "1", "0", "0", "0", "bogus"},
            {"update", "key", "1", "0", "0", "0"},
            {"update", "value", "1", "0", "0", "0", "key", "4", "0", "0", "0", "key", "1", "2", "3", "4"},
            {"delete", "key", "2", "0", "0", "0", "value", "1"},
            {"delete", "key", "2", "0", "0", "0", "any"},
            {"delete", "key", "2", "0", "0", "0"},
            {"delete", "key", "2", "0", "0", "0"},
            // one element left: its order is the same in both maps (a hash map's is its own seed's)
            {"getnext"},
            {"getnext", "key", "1", "0", "0", "0"},
            {"getnext", "key", "9", "0", "0", "0"},
            {"freeze"},
            {"freeze"},
            {"update", "key", "1", "0", "0", "0", "value", "1", "0", "0", "0"},
        };
        agree(bpftool, ids, script);
    }

    @Test
    void perCpuUpdateAgrees() throws Exception {
        String bpftool = BpftoolAgreementTest.findBpftool();
        assumeTrue(bpftool != null, "bpftool is not installed (Debian package bpftool): nothing to compare with");
        int[] ids = twins(PERCPU_ARRAY, 4, 12, 2);
        agree(bpftool, ids, new String[][] {
            {"update", "key", "1", "0", "0", "0", "value", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"},
            {"update", "key", "2", "0", "0", "0", "value", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"},
            {"getnext", "key", "0", "0", "0", "0"},
            {"getnext", "key", "1", "0", "0", "0"},
            {"getnext"},
            {"lookup", "key", "1", "0", "0", "0"},
            {"lookup", "key", "1", "0", "0", "0"},
            {"lookup", "key", "1", "0", "0", "0"},
        });
    }

    @Test
    void typedLookupAgrees() throws Exception {
        String bpftool = BpftoolAgreementTest.findBpftool();
        assumeTrue(bpftool != null, "bpftool is not installed (Debian package bpftool): nothing to compare with");
        BtfWriter w = new BtfWriter();
        int u32 = w.integer("unsigned int", 4, 0, 32);
        int pair = w.composite(BtfWriter.STRUCT, "pair", 8, "a", u32, 0, 0, "b", u32, 32, 0);
        int btf;
        try {
            btf = Sys.btfLoad(w.bytes());
        } catch (IllegalStateException e) {
            assumeTrue(false, e.getMessage());
            return;
        }
        fds.add(btf);
        int[] ids = new int[2];
        for (int i = 0; i < 2; i++) {
            int fd = Sys.mapCreate(HASH, "t_typed" + i, 4, 8, 4, 0, btf, u32, pair);
            fds.add(fd);
            ids[i] = id(fd);
        }
        agree(bpftool, ids, new String[][] {
            {"update", "key", "3", "0", "0", "0", "value", "1", "0", "0", "0", "2", "0", "0", "0"},
            {"lookup", "key", "3", "0", "0", "0"},
            {"lookup", "key", "3", "0", "0", "0"},
            {"lookup", "key", "3", "0", "0", "0"},
            {"lookup", "key", "4", "0", "0", "0"},
        });
    }

    private static int id(int fd) {
        com.sun.jna.Memory m = new com.sun.jna.Memory(88);
        m.clear();
        new dev.jperf.nativeshim.Bpf().objGetInfoByFd(fd, m, 88);
        return m.getInt(4);
    }

    private void agree(String bpftool, int[] ids, String[][] script) throws Exception {
        String[][] modes = {{}, {"-j"}, {"-p"}};
        int i = 0;
        for (String[] step : script) {
            String[] mode = modes[i++ % modes.length];
            String[] bt = bpftool(bpftool, mode, step, ids[0]);
            String[] jp = jperf(mode, step, ids[1]);
            String what = "bpftool " + String.join(" ", mode) + " map " + String.join(" ", step);
            assertEquals(bt[0], jp[0], what + ": stdout");
            assertEquals(bt[1], jp[1], what + ": error line");
        }
        String dumpA = bpftool(bpftool, new String[] {"-j"}, new String[] {"dump"}, ids[0])[0];
        assertEquals(dumpA, bpftool(bpftool, new String[] {"-j"}, new String[] {"dump"}, ids[1])[0]);
        assertTrue(dumpA.contains("\"key\""), dumpA); // the script left elements to compare
    }

    /** Two identical maps without BTF; their ids. Skips with the kernel's answer when not allowed. */
    private int[] twins(int type, int key, int value, int entries) {
        int[] ids = new int[2];
        for (int i = 0; i < 2; i++) {
            int fd;
            try {
                fd = Sys.mapCreate(type, "t_elem" + i, key, value, entries, 0, 0, 0, 0);
            } catch (IllegalStateException e) {
                assumeTrue(false, e.getMessage());
                return ids;
            }
            fds.add(fd);
            ids[i] = id(fd);
        }
        return ids;
    }

    @org.junit.jupiter.api.AfterEach
    void close() {
        for (int fd : fds) {
            Fd.close(fd);
        }
    }

    /** bpftool's stdout and its error line (without "Error: "), "" when none. */
    private static String[] bpftool(String bpftool, String[] mode, String[] step, int id)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(bpftool);
        cmd.addAll(List.of(mode));
        cmd.add("map");
        cmd.add(step[0]);
        cmd.add("id");
        cmd.add(Integer.toString(id));
        cmd.addAll(List.of(step).subList(1, step.length));
        Process p = new ProcessBuilder(cmd).start();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        String line = "";
        if (mode.length == 0 && err.startsWith("Error: ")) {
            line = err.substring("Error: ".length()).strip();
        }
        String stdout = new String(out, StandardCharsets.UTF_8);
        if (mode.length > 0 && stdout.replaceAll("\\s", "").startsWith("{\"error\"")) {
            line = "json";
        }
        return new String[] {stdout, line};
    }

    private static String[] jperf(String[] mode, String[] step, int id) {
        boolean json = mode.length > 0;
        Output o = new Output(json, json && mode[0].equals("-p"));
        MapElemCommands c = new MapElemCommands(o);
        BpfHandle h = BpfHandle.id(id);
        List<String> args = List.of(step).subList(1, step.length);
        String line = "";
        try {
            switch (step[0]) {
                case "update" -> c.update(h, args);
                case "lookup" -> c.lookup(h, args);
                case "delete" -> c.delete(h, args);
                case "getnext" -> c.getnext(h, args);
                default -> c.freeze(h);
            }
        } catch (BpftoolException e) {
            line = json ? "json" : e.getMessage();
            if (json && !e.onStdout()) {
                o.error(e.getMessage());
            }
        }
        return new String[] {o.finish(), line};
    }
}
