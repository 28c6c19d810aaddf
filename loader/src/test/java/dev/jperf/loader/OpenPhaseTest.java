package dev.jperf.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.bpf.Uapi;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The open phase alone: section names, maps as libbpf names and sizes them, what a caller may change before load. */
class OpenPhaseTest {
    @Test
    void sectionDefsAsLibbpf() {
        SectionDef k = SectionDef.find("kprobe/do_unlinkat");
        assertEquals(Uapi.BPF_PROG_TYPE_KPROBE, k.progType());
        assertEquals(SectionDef.AttachKind.KPROBE, k.attach());
        assertEquals(SectionDef.AttachKind.UPROBE, SectionDef.find("uprobe//proc/self/exe:uprobed_sub").attach());
        assertEquals(SectionDef.AttachKind.UPROBE, SectionDef.find("uretprobe").attach());
        SectionDef tp = SectionDef.find("tp_btf/sched_switch");
        assertEquals(Uapi.BPF_PROG_TYPE_TRACING, tp.progType());
        assertEquals(Uapi.BPF_TRACE_RAW_TP, tp.expectedAttachType());
        assertTrue((tp.flags() & SectionDef.SEC_ATTACH_BTF) != 0);
        assertEquals(Uapi.BPF_PROG_TYPE_TRACEPOINT, SectionDef.find("tp/sched/sched_process_exec").progType());
        assertEquals(Uapi.BPF_PROG_TYPE_RAW_TRACEPOINT, SectionDef.find("raw_tp/irq_handler_entry").progType());
        assertEquals(Uapi.BPF_PROG_TYPE_SCHED_CLS, SectionDef.find("tc").progType());
        assertEquals(Uapi.BPF_XDP, SectionDef.find("xdp").expectedAttachType());
        assertEquals(SectionDef.SEC_XDP_FRAGS, SectionDef.find("xdp.frags").flags());
        assertEquals(Uapi.BPF_CGROUP_INET_INGRESS, SectionDef.find("cgroup_skb/ingress").expectedAttachType());
        assertEquals(Uapi.BPF_TRACE_ITER, SectionDef.find("iter/task").expectedAttachType());
        assertEquals(Uapi.BPF_PROG_TYPE_PERF_EVENT, SectionDef.find("perf_event").progType());
        assertNull(SectionDef.find("kprobex"), "'kprobe+' matches kprobe or kprobe/..., not kprobex");
        assertNull(SectionDef.find("perf_event/x"), "'perf_event' matches exactly");
        assertEquals("foo", SectionDef.target("kprobe/foo"));
        assertEquals("/proc/self/exe:uprobed_sub", SectionDef.target("uprobe//proc/self/exe:uprobed_sub"));
    }

    @Test
    void objectAsLibbpfOpensIt() throws Exception {
        try (BpfObject o = BpfObject.open(ExternalObjectsTest.DIR.resolve("obj/bootstrap_legacy.bpf.o"))) {
            assertEquals("bootstrap_legac", o.name(), "the file's base name up to its first '.', 15 characters at most");
            assertEquals("Dual BSD/GPL", o.license());
            assertEquals(List.of("handle_exec", "handle_exit"), o.programs().stream().map(BpfProgram::name).toList());
            assertEquals("tp/sched/sched_process_exec", o.program("handle_exec").sectionName());
            BpfMap rodata = o.map(".rodata");
            assertEquals("bootstra.rodata", rodata.name());
            assertEquals(BpfMap.BPF_F_RDONLY_PROG | BpfMap.BPF_F_MMAPABLE, rodata.flags());
            assertEquals(Uapi.BPF_MAP_TYPE_ARRAY, rodata.type());
            assertEquals(1, rodata.maxEntries());
            assertEquals(rodata.valueSize(), rodata.initialValue().length);
            BpfMap pb = o.map("perf_buffer");
            assertEquals(Uapi.BPF_MAP_TYPE_PERF_EVENT_ARRAY, pb.type());
            assertEquals(0, pb.maxEntries(), "sized to the possible CPUs at load, as libbpf");
            assertEquals(-1, pb.fd());
            // what a caller may change between open and load
            BpfMap exec = o.map("exec_start");
            assertEquals(8192, exec.maxEntries());
            exec.setMaxEntries(100);
            assertEquals(100, exec.maxEntries());
            byte[] v = new byte[rodata.valueSize()];
            v[0] = 7;
            rodata.setInitialValue(v);
            assertEquals(7, rodata.initialValue()[0]);
            assertThrows(IllegalArgumentException.class, () -> rodata.setInitialValue(new byte[1]));
            o.program("handle_exit").setAutoload(false);
            assertFalse(o.program("handle_exit").autoload());
        }
    }

    @Test
    void internalMapNames() throws Exception {
        try (BpfObject o = BpfObject.open(ExternalObjectsTest.DIR.resolve("obj/bitesize.bpf.o"))) {
            assertEquals("bitesiz.kconfig", o.map(".kconfig").name(), "8 characters of '.kconfig' leave 7 of the object's");
            assertEquals("bitesize.bss", o.map(".bss").name(), "'.bss' still reserves 7 characters");
            assertEquals(".rodata.str1.1", o.internalMapName(".rodata.str1.1"), "custom sections keep their own name");
            assertEquals(BpfMap.BPF_F_RDONLY_PROG | BpfMap.BPF_F_MMAPABLE, o.map(".kconfig").flags());
        }
        try (BpfObject o = BpfObject.open(ExternalObjectsTest.DIR.resolve("obj/kprobe.bpf.o"))) {
            assertEquals(BpfMap.BPF_F_RDONLY_PROG, o.map(".rodata").flags(), "only static variables: not mmapable");
        }
    }

    /**
     * libbpf's object states: after load (even one the kernel refused, as for a user without
     * CAP_BPF) and after close, no program or map can be configured, since the kernel already has
     * what was set; nor can the object be loaded again.
     */
    @Test
    void settersOnlyWhileOpened() throws Exception {
        BpfObject o = BpfObject.open(ExternalObjectsTest.DIR.resolve("obj/bootstrap_legacy.bpf.o"));
        assertEquals(BpfObject.State.OPENED, o.state());
        try {
            o.load(LoadOptions.DEFAULT);
        } catch (BpfObjectException e) {
            // refused by the kernel: the object is loaded all the same, as libbpf's
        }
        assertEquals(BpfObject.State.LOADED, o.state());
        BpfProgram exit = o.program("handle_exit");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> exit.setAutoload(false));
        assertEquals("program 'handle_exit': the object is loaded; configure before load", e.getMessage());
        assertThrows(IllegalStateException.class, () -> o.map("exec_start").setMaxEntries(1));
        assertThrows(IllegalStateException.class, () -> o.map(".rodata").setInitialValue(new byte[o.map(".rodata").valueSize()]));
        assertThrows(BpfObjectException.class, () -> o.load(LoadOptions.DEFAULT));
        o.close();
        assertEquals(BpfObject.State.CLOSED, o.state());
        assertThrows(IllegalStateException.class, () -> exit.setAttachTarget(1, "f"));
    }
}
