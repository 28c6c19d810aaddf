package dev.jperf.format.btf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.format.bpf.BpilArray;
import dev.jperf.format.feature.BpfBtfs;
import dev.jperf.format.feature.Features;
import dev.jperf.format.feature.TestFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BtfTest {
    static final Path VMLINUX = Path.of("/sys/kernel/btf/vmlinux");

    @Test
    void programBtfFromCorpus() {
        Features f = TestFiles.features(Corpus.CORPUS.resolve("a-system-wide-bpf/perf.data"));
        BpfBtfs btfs = f.bpfBtfs().orElseThrow();
        assertEquals(1, btfs.blobs().size());
        assertEquals(877, btfs.blobs().get(0).id());
        Btf btf = btfs.blobs().get(0).parse();
        int subprogs = btf.findByName("subprogs_main", BtfKind.FUNC);
        assertTrue(subprogs > 0);
        BtfType.Func func = (BtfType.Func) btf.type(subprogs);
        assertEquals(1, func.linkage()); // global
        BtfType.FuncProto proto = (BtfType.FuncProto) btf.type(func.type());
        assertEquals(1, proto.params().size());
        assertEquals("ctx", proto.params().get(0).name());
        for (String s : new String[] {"mix_a", "mix_b", "fold_c"}) {
            int id = btf.findByName(s, BtfKind.FUNC);
            assertEquals(0, ((BtfType.Func) btf.type(id)).linkage(), s + " is static");
            assertEquals(s, btf.funcName(id).orElseThrow());
        }
        assertTrue(btf.funcName(func.type()).isEmpty(), "a FUNC_PROTO is not a FUNC");
        for (int id = 1; id <= btf.lastId(); id++) {
            assertEquals(btf.kind(id), btf.type(id).kind());
            assertEquals(btf.name(id), btf.type(id).name());
        }
    }

    /** The whole vmlinux BTF: every type decodes, all 19 kinds occur, and it is fast. */
    @Test
    void vmlinuxFully() throws IOException {
        assumeTrue(Files.isReadable(VMLINUX), "no readable /sys/kernel/btf/vmlinux on this machine");
        byte[] raw = Files.readAllBytes(VMLINUX);
        long t0 = System.nanoTime();
        Btf btf = Btf.parse(raw);
        long parseNs = System.nanoTime() - t0;
        Map<BtfKind, Integer> kinds = new EnumMap<>(BtfKind.class);
        t0 = System.nanoTime();
        for (int id = 1; id <= btf.lastId(); id++) {
            BtfType t = btf.type(id);
            kinds.merge(t.kind(), 1, Integer::sum);
        }
        long decodeNs = System.nanoTime() - t0;
        assertTrue(btf.typeCount() > 50_000, "types: " + btf.typeCount());
        assertEquals(EnumSet.complementOf(EnumSet.of(BtfKind.UNKN)), kinds.keySet());
        int tp = btf.findByName("task_struct", BtfKind.STRUCT);
        BtfType.Composite task = (BtfType.Composite) btf.type(tp);
        assertTrue(task.members().stream().anyMatch(m -> m.name().equals("pid")));
        assertEquals("bpf_prog_info", btf.name(btf.findByName("bpf_prog_info", BtfKind.STRUCT)));
        BtfType.Composite info = (BtfType.Composite) btf.type(btf.findByName("bpf_prog_info", BtfKind.STRUCT));
        // the UAPI struct only grows: at least what perf 6.1 knows, with its arrays where jperf reads them
        assertTrue(info.size() >= BpfProgInfo.INFO_SIZE, "sizeof(struct bpf_prog_info): " + info.size());
        Map<Integer, String> at = new HashMap<>();
        info.members().forEach(m -> at.put(m.bitOffset() / 8, m.name()));
        Map<BpilArray, String> names = Map.of(BpilArray.JITED_INSNS, "jited_prog_insns", BpilArray.XLATED_INSNS, "xlated_prog_insns",
                BpilArray.MAP_IDS, "map_ids", BpilArray.JITED_KSYMS, "jited_ksyms", BpilArray.JITED_FUNC_LENS, "jited_func_lens",
                BpilArray.FUNC_INFO, "func_info", BpilArray.LINE_INFO, "line_info", BpilArray.JITED_LINE_INFO, "jited_line_info",
                BpilArray.PROG_TAGS, "prog_tags");
        assertEquals(BpilArray.values().length, names.size());
        names.forEach((a, name) -> assertEquals(name, at.get(a.pointerOffset()), a + " at byte " + a.pointerOffset()));
        System.out.printf("vmlinux BTF: %d types, parse %.1f ms, decode all %.1f ms%n", btf.typeCount(),
                parseNs / 1e6, decodeNs / 1e6);
        // ~20 ms parse / ~130 ms decode-all on an idle 2-CPU VM; the bound only catches a
        // non-linear walk, it must not trip on a machine busy with parallel builds
        assertTrue(parseNs < 20_000_000_000L, "parse took " + parseNs / 1e6 + " ms");
    }

    @Test
    void hostileBlobsFailWithAMessage() {
        byte[] good = TestFiles.features(Corpus.CORPUS.resolve("a-system-wide-bpf/perf.data"))
                .bpfBtfs().orElseThrow().blobs().get(0).data();
        for (int len = 0; len < good.length; len += 7) {
            byte[] cut = Arrays.copyOf(good, len);
            try {
                Btf b = Btf.parse(cut);
                for (int id = 1; id <= b.lastId(); id++) {
                    b.type(id);
                }
            } catch (BtfException expected) {
                assertTrue(expected.getMessage().length() > 5);
            }
        }
        byte[] bad = good.clone();
        ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putInt(12, Integer.MAX_VALUE); // type_len
        assertThrows(BtfException.class, () -> Btf.parse(bad));
        byte[] badMagic = good.clone();
        badMagic[0] = 0;
        assertTrue(assertThrows(BtfException.class, () -> Btf.parse(badMagic)).getMessage().contains("magic"));
    }

    /** Split BTF: ids and string offsets continue those of the base. */
    @Test
    void splitBtfOnAModule() throws IOException {
        assumeTrue(Files.isReadable(VMLINUX), "no readable /sys/kernel/btf/vmlinux on this machine");
        Path module;
        try (var s = Files.list(VMLINUX.getParent())) {
            module = s.filter(p -> !p.equals(VMLINUX)).findFirst().orElse(null);
        }
        assumeTrue(module != null, "no kernel module BTF in /sys/kernel/btf on this machine");
        Btf base = Btf.load(VMLINUX);
        Btf split = Btf.parse(Files.readAllBytes(module), base);
        assertEquals(base.lastId() + 1, split.firstId());
        for (int id = split.firstId(); id <= split.lastId(); id++) {
            split.type(id);
        }
        assertEquals(base.name(1), split.name(1));
    }

    /** Split BTF built by hand on top of a program BTF: ids and string offsets continue the base's. */
    @Test
    void splitBtfContinuesTheBase() {
        byte[] baseRaw = TestFiles.features(Corpus.CORPUS.resolve("a-system-wide-bpf/perf.data"))
                .bpfBtfs().orElseThrow().blobs().get(0).data();
        Btf base = Btf.parse(baseRaw);
        int baseStrLen = ByteBuffer.wrap(baseRaw).order(ByteOrder.LITTLE_ENDIAN).getInt(20);
        byte[] strings = "\0my_ptr\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        ByteBuffer b = ByteBuffer.allocate(24 + 12 + strings.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort((short) Btf.BTF_MAGIC).put((byte) 1).put((byte) 0).putInt(24);
        b.putInt(0).putInt(12).putInt(12).putInt(strings.length);
        int subprogs = base.findByName("subprogs_main", BtfKind.FUNC);
        b.putInt(baseStrLen + 1).putInt(BtfKind.TYPEDEF.number() << 24).putInt(subprogs);
        b.put(strings);
        Btf split = Btf.parse(b.array(), base);
        assertEquals(base.lastId() + 1, split.firstId());
        BtfType.Ref t = (BtfType.Ref) split.type(split.firstId());
        assertEquals("my_ptr", t.name());
        assertEquals("subprogs_main", split.name(t.type()));
        assertEquals(BtfKind.FUNC, split.kind(t.type()));
        assertEquals(split.firstId(), split.findByName("my_ptr", BtfKind.TYPEDEF));
        assertEquals(subprogs, split.findByName("subprogs_main", BtfKind.FUNC));
    }

    /** The .BTF sections of the corpus' BPF objects (what clang wrote; the loader passed them to the kernel). */
    @Test
    void btfOfTheCorpusBpfObjects() throws Exception {
        Map<String, String[]> funcs = Map.of(
                "subprogs.bpf.o", new String[] {"subprogs_main", "mix_a", "mix_b", "fold_c"},
                "lines.bpf.o", new String[] {"lines_hot"},
                "storm.bpf.o", new String[] {"storm_tiny"});
        for (Map.Entry<String, String[]> e : funcs.entrySet()) {
            dev.jperf.format.elf.ElfFile elf = dev.jperf.format.elf.ElfFile.open(Corpus.CORPUS.resolve("src").resolve(e.getKey()));
            Btf btf = Btf.parse(elf.sectionBytes(elf.section(".BTF").orElseThrow()));
            for (int id = 1; id <= btf.lastId(); id++) {
                btf.type(id);
            }
            for (String f : e.getValue()) {
                int id = btf.findByName(f, BtfKind.FUNC);
                assertTrue(id > 0, e.getKey() + ": FUNC " + f);
                assertTrue(btf.type(((BtfType.Func) btf.type(id)).type()) instanceof BtfType.FuncProto);
            }
            assertTrue(btf.findByName("LICENSE", BtfKind.VAR) > 0, e.getKey() + ": VAR LICENSE");
            assertTrue(btf.findByName("license", BtfKind.DATASEC) > 0, e.getKey() + ": DATASEC license");
        }
    }

    /** C declarations from BTF, compared with the corpus sources. */
    @Test
    void signaturesAndTypeNames() throws IOException {
        Btf btf = TestFiles.features(Corpus.CORPUS.resolve("a-system-wide-bpf/perf.data"))
                .bpfBtfs().orElseThrow().blobs().get(0).parse();
        assertEquals("static __u64 mix_a(__u64 x)", btf.funcSignature(btf.findByName("mix_a", BtfKind.FUNC)).orElseThrow());
        assertEquals("static __u64 fold_c(__u64 x, __u64 y)",
                btf.funcSignature(btf.findByName("fold_c", BtfKind.FUNC)).orElseThrow());
        assertEquals("int subprogs_main(void *ctx)",
                btf.funcSignature(btf.findByName("subprogs_main", BtfKind.FUNC)).orElseThrow());
        assertTrue(btf.funcSignature(btf.findByName("__u64", BtfKind.TYPEDEF)).isEmpty());
        assertEquals("char[4]", btf.typeName(((BtfType.Var) btf.type(btf.findByName("LICENSE", BtfKind.VAR))).type()));

        assumeTrue(Files.isReadable(VMLINUX), "no readable /sys/kernel/btf/vmlinux on this machine");
        Btf vmlinux = Btf.load(VMLINUX);
        // pahole records linkage as it found it (static here): the signature says so
        assertTrue(vmlinux.funcSignature(vmlinux.findByName("schedule", BtfKind.FUNC)).orElseThrow().endsWith("void schedule(void)"));
        BtfType.Composite task = (BtfType.Composite) vmlinux.type(vmlinux.findByName("task_struct", BtfKind.STRUCT));
        Map<String, String> members = new java.util.HashMap<>();
        task.members().forEach(m -> members.put(m.name(), vmlinux.typeName(m.type())));
        assertEquals("pid_t", members.get("pid"));
        assertEquals("struct mm_struct *", members.get("mm"));
        assertEquals("char[16]", members.get("comm"));
        for (int id = 1; id <= vmlinux.lastId(); id++) {
            vmlinux.typeName(id); // never throws, whatever the kind
        }
    }
}
