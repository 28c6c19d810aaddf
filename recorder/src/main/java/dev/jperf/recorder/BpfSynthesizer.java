package dev.jperf.recorder;

import static dev.jperf.nativeshim.BpfProgInfoLayout.*;

import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * BPF programs that are loaded when recording starts, as perf synthesizes them (bpf-metadata.md
 * §9 step 3): for each program id its bpf_prog_info and BTF, one KSYMBOL per JITed function with
 * perf's name, one BPF_EVENT PROG_LOAD; then a KSYMBOL per BPF trampoline/dispatcher image.
 */
final class BpfSynthesizer {
    private final Bpf bpf = new Bpf();
    private final BpfCapture capture;
    private final SyntheticRecords out;

    BpfSynthesizer(BpfCapture capture, SyntheticRecords out) {
        this.capture = capture;
        this.out = out;
    }

    /** Returns the number of programs synthesized. No privilege (EPERM) ends the walk quietly, as for perf. */
    int loadedPrograms() {
        int n = 0;
        int id = 0;
        while (true) {
            try {
                id = bpf.progGetNextId(id);
            } catch (NativeException e) {
                return n; // EPERM / EINVAL: no BPF privilege, nothing to synthesize
            }
            if (id == 0) {
                return n;
            }
            if (capture.seen(id)) {
                continue;
            }
            int fd;
            try {
                fd = bpf.progGetFdById(id);
            } catch (NativeException e) {
                continue; // unloaded meanwhile
            }
            try {
                BpfProgCapture c = BpfCapture.fetch(bpf, id, fd);
                byte[] btf = null;
                if (c.btfId() != 0) {
                    btf = capture.hasBtf(c.btfId()) ? capture.btf(c.btfId()) : BpfCapture.fetchBtf(bpf, c.btfId());
                }
                capture.add(c, btf);
                if (records(c, btf)) {
                    n++;
                }
            } catch (NativeException | IllegalStateException e) {
                // a program that cannot be described is skipped, as perf skips it
            } finally {
                Fd.close(fd);
            }
        }
    }

    /** KSYMBOL per function + BPF_EVENT; false when the arrays disagree (perf skips such a program). */
    private boolean records(BpfProgCapture c, byte[] btf) {
        ByteBuffer info = c.infoBuffer();
        int nFuncs = info.getInt(NR_JITED_KSYMS);
        byte[] ksyms = c.arrays()[PERF_BPIL_JITED_KSYMS.bit()];
        byte[] lens = c.arrays()[PERF_BPIL_JITED_FUNC_LENS.bit()];
        byte[] tags = c.arrays()[PERF_BPIL_PROG_TAGS.bit()];
        if (nFuncs == 0 || ksyms.length < 8 * nFuncs || lens.length < 4 * nFuncs || tags.length < 8 * nFuncs) {
            return false;
        }
        byte[] funcInfo = c.arrays()[PERF_BPIL_FUNC_INFO.bit()];
        int funcRec = info.getInt(FUNC_INFO_REC_SIZE);
        boolean haveBtf = btf != null && funcInfo != null && funcRec >= 8
                && info.getInt(NR_FUNC_INFO) == nFuncs && funcInfo.length >= funcRec * nFuncs;
        ByteBuffer k = ByteBuffer.wrap(ksyms).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer l = ByteBuffer.wrap(lens).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer f = haveBtf ? ByteBuffer.wrap(funcInfo).order(ByteOrder.LITTLE_ENDIAN) : null;
        String progName = cString(c.info(), NAME, 16);
        for (int i = 0; i < nFuncs; i++) {
            StringBuilder name = new StringBuilder("bpf_prog_");
            for (int j = 0; j < 8; j++) {
                name.append(String.format("%02x", tags[8 * i + j] & 0xff));
            }
            String shortName = null;
            if (haveBtf) {
                shortName = BtfNames.name(btf, f.getInt(i * funcRec + 4));
            } else if (nFuncs == 1) {
                shortName = progName.isEmpty() ? null : progName;
            } else {
                shortName = "F";
            }
            if (shortName != null) {
                name.append('_').append(shortName);
            }
            out.ksymbol(k.getLong(8 * i), l.getInt(4 * i), name.toString());
        }
        out.bpfProgLoad(c.id(), c.tag());
        return true;
    }

    private static String cString(byte[] b, int off, int max) {
        int e = off;
        while (e < off + max && b[e] != 0) {
            e++;
        }
        return new String(b, off, e - off, StandardCharsets.UTF_8);
    }

    /**
     * KSYMBOLs (one page each) for the BPF trampoline and dispatcher images, which kallsyms lists
     * in module {@code [bpf]} as {@code bpf_trampoline_<n>} / {@code bpf_dispatcher_<name>}.
     */
    void images(Path kallsyms, int pageSize) throws IOException {
        try (BufferedReader r = Files.newBufferedReader(kallsyms, StandardCharsets.ISO_8859_1)) {
            for (String line; (line = r.readLine()) != null; ) {
                if (!line.endsWith("\t[bpf]")) {
                    continue;
                }
                int s1 = line.indexOf(' ');
                int s2 = line.indexOf(' ', s1 + 1);
                if (s1 < 0 || s2 < 0) {
                    continue;
                }
                String name = line.substring(s2 + 1, line.length() - "\t[bpf]".length());
                boolean trampoline = name.startsWith("bpf_trampoline_")
                        && name.length() > 15 && name.substring(15).chars().allMatch(Character::isDigit);
                if (trampoline || name.startsWith("bpf_dispatcher_") && name.length() > 15) {
                    long addr = Long.parseUnsignedLong(line.substring(0, s1), 16);
                    if (addr != 0) {
                        out.ksymbol(addr, pageSize, name);
                    }
                }
            }
        }
    }
}
