package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.NativeException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jperf bpf}'s command line and its bad input: a dead id, an id that is not a number, an
 * unknown command, no permission. Each is bpftool's one {@code Error: ...} line on stderr and its
 * exit code (255); with {@code --json}, stdout carries bpftool's {@code {"error": ...}} object
 * instead, as bpftool does. An unknown command is jperf's usage error. (What the
 * commands print for real objects is compared with bpftool in the bpf module's
 * BpftoolAgreementTest.)
 */
class BpfCommandTest {
    /** An id no map or program has: ids are allocated upwards from 1. */
    private static final String DEAD = "2147483647";

    /**
     * The kernel's answer for the user running the test: ENOENT for root (nothing has the id), EPERM
     * for a user (BPF_*_GET_FD_BY_ID needs CAP_SYS_ADMIN whatever the id), as bpftool says too.
     */
    @Test
    void deadIdIsOneLine() {
        Bpf bpf = new Bpf();
        int dead = Integer.parseInt(DEAD);
        int mapErrno = -bpf.mapGetFdByIdOrErrno(dead);
        int progErrno = -bpf.progGetFdByIdOrErrno(dead);
        assertTrue(mapErrno > 0 && progErrno > 0, "an object has id " + DEAD);
        if ("root".equals(System.getProperty("user.name"))) {
            assertEquals(Errno.ENOENT, mapErrno, Errno.describe(mapErrno));
            assertEquals(Errno.ENOENT, progErrno, Errno.describe(progErrno));
        }
        Run r = Run.of("bpf", "map", "dump", "id", DEAD);
        assertEquals(255, r.rc());
        assertEquals("", r.out());
        assertEquals("Error: get map by id (" + DEAD + "): " + Errno.text(mapErrno) + "\n", r.err());

        r = Run.of("bpf", "prog", "show", DEAD);
        assertEquals(255, r.rc());
        assertEquals("Error: get by id (" + DEAD + "): " + Errno.text(progErrno) + "\n", r.err());

        r = Run.of("bpf", "prog", "dump", "xlated", DEAD, "--json");
        assertEquals(255, r.rc());
        assertEquals("{\"error\":\"get by id (" + DEAD + "): " + Errno.text(progErrno) + "\"}\n", r.out());
        assertEquals("", r.err());
    }

    @Test
    void badIdIsOneLine() {
        Run r = Run.of("bpf", "map", "show", "12x");
        assertEquals(255, r.rc());
        assertEquals("Error: can't parse 12x as ID\n", r.err());
        r = Run.of("bpf", "prog", "show", "-p", "99999999999");
        assertEquals(255, r.rc());
        assertEquals("{\n    \"error\": \"can't parse 99999999999 as ID\"\n}\n", r.out());
    }

    @Test
    void unknownCommandIsAUsageError() {
        for (String[] args : new String[][] {{"bpf"}, {"bpf", "link", "frob"}, {"bpf", "map", "frob"}, {"bpf", "prog", "dump", "opcodes", "1"},
            {"bpf", "map", "show", "1", "2"}}) {
            Run r = Run.of(args);
            assertEquals(Main.USAGE_ERROR, r.rc(), String.join(" ", args));
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().startsWith("jperf bpf"), r.err());
        }
    }

    @Test
    void loadAndRunTakeOneObject() {
        for (String command : new String[] {"load", "run"}) {
            Run r = Run.of("bpf", command);
            assertEquals(Main.USAGE_ERROR, r.rc());
            assertEquals("jperf bpf " + command + ": no BPF object given (jperf bpf " + command + " -h lists the options)\n",
                    r.err());
            r = Run.of("bpf", command, "a.bpf.o", "b.bpf.o");
            assertEquals(Main.USAGE_ERROR, r.rc());
            assertEquals("jperf bpf " + command + ": one BPF object only (jperf bpf " + command + " -h lists the options)\n",
                    r.err());
        }
    }

    /** A user the kernel refuses bpf(2): the test's own user, or root's run as user nobody. */
    @Test
    void listWithoutPermissionIsOneLine(@TempDir Path dir) throws IOException, InterruptedException {
        AsUser user = AsUser.in(dir);
        if (!user.switched()) {
            int errno = 0;
            try {
                new Bpf().progGetNextId(0);
            } catch (NativeException e) {
                errno = e.errno();
            }
            assumeTrue(errno == Errno.EPERM, "bpf(2) answers this user: " + (errno == 0 ? "no error" : Errno.describe(errno)));
        }
        for (String[] c : new String[][] {{"prog", "list"}, {"map", "list", "-j"}}) {
            List<String> args = new ArrayList<>(List.of("bpf"));
            args.addAll(List.of(c));
            AsUser.Result r = user.run(user.jperf(args.toArray(new String[0])));
            assertEquals(255, r.rc(), r.err());
            String what = c[0].equals("prog") ? "program" : "map";
            assertEquals(c.length == 3 ? "" : "Error: can't get next " + what + ": Operation not permitted\n", r.err());
            assertEquals(c.length == 3 ? "[{\"error\":\"can't get next map: Operation not permitted\"}]\n" : "", r.out());
        }
    }
}
