package dev.jperf.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KallsymsFileTest {
    @TempDir
    Path dir;

    @Test
    void ksymAddressesAndTheKernelsOwnSymbols() throws IOException {
        Path f = dir.resolve("kallsyms");
        Files.writeString(f, "ffffffff81000000 T _text\n"
                + "ffffffff81001000 T bpf_prog_active\n"
                + "ffffffff81002000 t bpf_prog_active\n"
                + "ffffffffc0001000 t ext4_only\t[ext4]\n"
                + "0000000000000000 T hidden\n"
                + "ffffffff81003000 T __x64_sys_bpf\n");
        KallsymsFile k = new KallsymsFile(f);
        assertEquals(0xffffffff81001000L, k.address("bpf_prog_active"), "the first of a name");
        assertEquals(0xffffffffc0001000L, k.address("ext4_only"), "a module's");
        assertEquals(0, k.address("hidden"));
        assertEquals(0, k.address("absent"));
        assertTrue(k.hasKernelSymbol("__x64_sys_bpf"));
        assertFalse(k.hasKernelSymbol("ext4_only"), "a module's is not the kernel's");
        Files.delete(f);
        assertEquals(0xffffffff81003000L, k.address("__x64_sys_bpf"), "read once, at the first question");
        assertEquals(0, new KallsymsFile(f).address("_text"), "unreadable: nothing found");
    }
}
