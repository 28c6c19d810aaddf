import dev.jperf.format.PerfDataFile;
import dev.jperf.format.RecordStream;
import dev.jperf.format.record.SampleRecord;
import java.nio.file.Path;

/**
 * In-process decode rate of jperf's reader: every record of FILE decoded to its typed record
 * (SAMPLEs with their callchains), PASSES times, JVM start-up excluded. The first pass shows the
 * cold (JIT warm-up) rate, the last ones the steady rate. Run by bench/decode.sh:
 * {@code java -cp cli/target/jperf.jar bench/DecodeBench.java FILE [PASSES]}
 */
public final class DecodeBench {
    public static void main(String[] args) {
        Path file = Path.of(args[0]);
        int passes = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        for (int pass = 1; pass <= passes; pass++) {
            long t0 = System.nanoTime();
            long records = 0;
            long frames = 0;
            try (PerfDataFile f = PerfDataFile.open(file); RecordStream rs = f.records()) {
                while (rs.hasNext()) {
                    if (rs.next() instanceof SampleRecord s && s.hasCallchain()) {
                        frames += s.callchainLength();
                    }
                    records++;
                }
            }
            double s = (System.nanoTime() - t0) / 1e9;
            System.out.printf("pass %d: %d records (%d callchain frames) in %.3f s = %.2f M records/s%n",
                    pass, records, frames, s, records / s / 1e6);
        }
    }
}
