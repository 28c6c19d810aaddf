package dev.jperf.bpf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.format.bpf.BpfProgInfoLayout;
import dev.jperf.format.bpf.Uapi;
import java.lang.ref.Reference;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.Capstone;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bpf prog dump jited} of a program this test loads (a helper call and a bpf-to-bpf call:
 * two JITed functions) against {@code objdump -D -b binary -m i386:x86-64} of the same bytes, as
 * {@code bpftool prog dump jited id N file F} would write them (Debian's bpftool has no disassembler):
 * each function under its kallsyms name, every instruction at the same offset with objdump's text
 * (addresses as libbfd's generic printer writes them relative to the function, objdump's relative
 * to the file: compared as numbers).
 */
class JitedDumpTest {
    private static final Pattern OURS = Pattern.compile("^ *([0-9a-f]+):\t(.*)$");
    private static final Pattern LONG_ADDR = Pattern.compile("(?<!\\$)0x([0-9a-f]{16})");

    @Test
    void instructionsAgreeWithObjdump(@TempDir Path dir) throws Exception {
        String why = Capstone.unavailable();
        assumeTrue(why == null, why);
        assumeTrue(new ProcessBuilder("objdump", "--version").start().waitFor() == 0, "no objdump to compare with");
        ByteBuffer calls = ByteBuffer.allocate(48).order(ByteOrder.LITTLE_ENDIAN);
        calls.put((byte) 0x85).put((byte) 0).putShort((short) 0).putInt(7); // call bpf_get_prandom_u32
        calls.put((byte) 0x85).put((byte) 0x10).putShort((short) 0).putInt(2); // call pc+2 (BPF_PSEUDO_CALL)
        calls.put((byte) 0xb7).put((byte) 0).putShort((short) 0).putInt(0); // r0 = 0
        calls.put((byte) 0x95).put((byte) 0).putShort((short) 0).putInt(0); // exit
        calls.put((byte) 0xb7).put((byte) 0).putShort((short) 0).putInt(1); // subprogram: r0 = 1
        calls.put((byte) 0x95).put((byte) 0).putShort((short) 0).putInt(0); // exit
        int fd;
        try {
            fd = new Bpf().progLoad(Uapi.BPF_PROG_TYPE_SOCKET_FILTER, calls.array(), "GPL", "jperf_jited");
        } catch (NativeException | IllegalStateException e) {
            assumeTrue(false, "the kernel refuses BPF here: " + e.getMessage());
            return;
        }
        try {
            BpfProgInfo info = ProgCommands.info(new KernelObjects(), fd);
            Output o = new Output(false, false);
            new JitedDump(o).dump(BpfHandle.id(info.id()), false, false);
            String ours = o.finish();
            // the image read here on its own (bpftool's `dump jited ... file F` would write these
            // bytes, but Debian's, without libbfd, refuses every jited dump)
            Path image = dir.resolve("jited.bin");
            Files.write(image, jitedImage(fd, info.jitedProgLen()));
            int[] lens = funcLens(fd, info.nrJitedFuncLens());
            long size = Files.size(image);
            List<Long> starts = new ArrayList<>();
            List<String> names = new ArrayList<>();
            List<long[]> pcs = new ArrayList<>();
            List<String> texts = new ArrayList<>();
            long funcStart = 0;
            long funcEnd = 0;
            for (String l : ours.lines().toList()) {
                Matcher m = OURS.matcher(l);
                if (m.matches()) {
                    long pc = Long.parseLong(m.group(1), 16);
                    pcs.add(new long[] {funcStart + pc});
                    texts.add(relocate(m.group(2), funcStart));
                    funcEnd = funcStart + pc;
                } else if (l.endsWith(":") && !l.startsWith(" ")) {
                    if (!names.isEmpty()) {
                        funcStart = starts.get(starts.size() - 1) + Integer.toUnsignedLong(lens[starts.size() - 1]);
                    }
                    starts.add(funcStart);
                    names.add(l);
                }
            }
            assertEquals(2, names.size(), ours);
            assertTrue(names.get(0).startsWith("bpf_prog_") && names.get(0).endsWith("_jperf_jited:"), ours);
            assertTrue(funcEnd < size);
            Process p = new ProcessBuilder("objdump", "-D", "-b", "binary", "-m", "i386:x86-64", "--no-show-raw-insn",
                    image.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            List<long[]> odPcs = new ArrayList<>();
            List<String> odTexts = new ArrayList<>();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    int tab = line.indexOf(":\t");
                    if (tab > 0 && line.startsWith(" ")) {
                        odPcs.add(new long[] {Long.parseLong(line.substring(0, tab).trim(), 16)});
                        odTexts.add(line.substring(tab + 2).stripTrailing());
                    }
                }
            }
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            assertEquals(odPcs.size(), pcs.size(), ours);
            for (int i = 0; i < pcs.size(); i++) {
                assertEquals(odPcs.get(i)[0], pcs.get(i)[0], "instruction " + i);
                assertEquals(odTexts.get(i), texts.get(i), "at 0x" + Long.toHexString(pcs.get(i)[0]));
            }
        } finally {
            Fd.close(fd);
        }
    }

    /** jited_prog_insns by BPF_OBJ_GET_INFO_BY_FD with that one array asked for. */
    private static byte[] jitedImage(int fd, int len) {
        Memory buf = new Memory(Math.max(8, len));
        Memory q = new Memory(BpfProgInfoLayout.SIZE);
        q.clear();
        q.setInt(BpfProgInfoLayout.JITED_PROG_LEN, len);
        q.setLong(BpfProgInfoLayout.JITED_PROG_INSNS, Pointer.nativeValue(buf));
        new Bpf().objGetInfoByFd(fd, q, BpfProgInfoLayout.SIZE);
        byte[] b = buf.getByteArray(0, Math.min(len, q.getInt(BpfProgInfoLayout.JITED_PROG_LEN)));
        Reference.reachabilityFence(buf);
        return b;
    }

    /** jited_func_lens, asked for alone. */
    private static int[] funcLens(int fd, int n) {
        Memory buf = new Memory(Math.max(8, 4L * n));
        Memory q = new Memory(BpfProgInfoLayout.SIZE);
        q.clear();
        q.setInt(BpfProgInfoLayout.NR_JITED_FUNC_LENS, n);
        q.setLong(BpfProgInfoLayout.JITED_FUNC_LENS, Pointer.nativeValue(buf));
        new Bpf().objGetInfoByFd(fd, q, BpfProgInfoLayout.SIZE);
        int[] r = buf.getIntArray(0, n);
        Reference.reachabilityFence(buf);
        return r;
    }

    /** libbfd's function-relative 0x%016x address as objdump prints it for the whole file: 0x%x from the file's start. */
    private static String relocate(String text, long funcStart) {
        Matcher m = LONG_ADDR.matcher(text);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            long v = Long.parseUnsignedLong(m.group(1), 16) + funcStart;
            m.appendReplacement(b, "0x" + Long.toHexString(v));
        }
        m.appendTail(b);
        return b.toString();
    }
}
