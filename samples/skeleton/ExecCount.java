import dev.jperf.loader.BpfObjectException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Counts execs per command, in plain Java over a generated skeleton:
 *
 * <pre>
 *   jperf bpf gen skeleton samples/bpf/obj/exec_count.bpf.o --java &gt; ExecCountBpf.java
 *   javac -cp jperf.jar ExecCountBpf.java ExecCount.java &amp;&amp; sudo java -cp jperf.jar:. ExecCount 10
 * </pre>
 *
 * The BPF side is samples/bpf/exec_count.bpf.c; {@code .rodata}'s parent_tgid, set between open
 * and load, keeps only the children of one process.
 */
public final class ExecCount implements AutoCloseable {
    private final ExecCountBpf skel;

    private ExecCount(ExecCountBpf skel) {
        this.skel = skel;
    }

    /** Starts counting the execs of {@code parentTgid}'s children (0: every exec). */
    public static ExecCount start(int parentTgid) throws BpfObjectException {
        ExecCountBpf skel = ExecCountBpf.open();
        try {
            skel.rodata().setParentTgid(parentTgid);   // .rodata: before load only
            skel.load();
            skel.attach();                             // tp/sched/sched_process_exec
            return new ExecCount(skel);
        } catch (BpfObjectException | RuntimeException e) {
            skel.close();
            throw e;
        }
    }

    /** Execs by command so far. */
    public Map<String, Long> counts() throws BpfObjectException {
        return skel.maps().execs().entries();
    }

    /** Every exec counted, read from .bss as the program writes it. */
    public long total() {
        return skel.bss().totalExecs();
    }

    @Override
    public void close() {
        skel.close();
    }

    public static void main(String[] args) throws Exception {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 5;
        int parent = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        try (ExecCount c = start(parent)) {
            Thread.sleep(seconds * 1000);
            List<Map.Entry<String, Long>> rows = new ArrayList<>(c.counts().entrySet());
            rows.sort(Map.Entry.<String, Long>comparingByValue().reversed());
            for (Map.Entry<String, Long> e : rows) {
                System.out.printf("%8d %s%n", e.getValue(), e.getKey());
            }
            System.out.printf("%8d execs in all%n", c.total());
        }
    }
}
