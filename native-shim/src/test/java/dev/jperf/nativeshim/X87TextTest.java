package dev.jperf.nativeshim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * x87 instructions whose operands are stack registers written {@code %st(i)}: parentheses that are
 * not a memory operand. Their text against {@code objdump -D -b binary -m i386:x86-64} of the same bytes.
 */
class X87TextTest {
    // fld %st(1); fstp %st(1); fxch %st(1); faddp %st,%st(1); fmul %st(2),%st; fdivrp %st,%st(3);
    // fucomip %st(1),%st; fcmovne %st(1),%st; fldt 0x10(%rsp); fstpl -0x8(%rbp); fmull 0x8(%rax,%rbx,4)
    // and the register forms of each group, %st(0) among them
    private static final byte[] CODE = bytes("d9 c1 dd d9 d9 c9 de c1 d8 ca de f3 df e9 db c9 db 6c 24 10 dd 5d f8 dc 4c 98 08"
            + " d8 d1 d8 d9 dc e9 db e9 df c1 dd e1 da c1 de f9 de e9 d9 e8 dd d8 d8 c0 dc c0 de c0 d9 c0 df e9 da e9 de d9 df e0");

    @Test
    void stackRegistersAsObjdumpWritesThem(@TempDir Path dir) throws Exception {
        String why = Capstone.unavailable();
        assumeTrue(why == null, why);
        assumeTrue(new ProcessBuilder("objdump", "--version").start().waitFor() == 0, "no objdump to compare with");
        List<String> ours = new ArrayList<>();
        try (X86Disassembler d = new X86Disassembler(null)) {
            d.decode(CODE, 0, CODE.length, 0, (a, size, text) -> ours.add(Long.toHexString(a) + ":" + text));
        }
        Path bin = dir.resolve("x87.bin");
        Files.write(bin, CODE);
        Process p = new ProcessBuilder("objdump", "-D", "-b", "binary", "-m", "i386:x86-64", "--no-show-raw-insn",
                bin.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        List<String> theirs = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                int tab = line.indexOf(":\t");
                if (tab > 0 && line.startsWith(" ")) {
                    theirs.add(line.substring(0, tab).trim() + ":" + line.substring(tab + 2).stripTrailing());
                }
            }
        }
        assertEquals(0, p.waitFor());
        assertEquals(theirs, ours);
    }

    private static byte[] bytes(String hex) {
        String[] h = hex.split(" ");
        byte[] b = new byte[h.length];
        for (int i = 0; i < h.length; i++) {
            b[i] = (byte) Integer.parseInt(h[i], 16);
        }
        return b;
    }
}
