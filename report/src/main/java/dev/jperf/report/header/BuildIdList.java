package dev.jperf.report.header;

import dev.jperf.format.PerfDataException;
import dev.jperf.format.PerfDataFile;
import dev.jperf.format.elf.ElfFile;
import dev.jperf.format.feature.BuildIds;
import dev.jperf.format.record.PerfRecord;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@code perf buildid-list} (builtin-buildid-list.c of perf 6.1): an ELF file's build-id, the running
 * kernel's, or a recording's HEADER_BUILD_ID entries as {@code %-40s %s} (build-id, DSO).
 */
public final class BuildIdList {
    /** perf's HOST_KERNEL_ID: the pid of the host machine's entries. */
    private static final int HOST = -1;

    private BuildIdList() {
    }

    /** The build-id of an ELF file, one line; empty when {@code file} is not ELF or has none. */
    public static Optional<String> ofElf(Path file) throws IOException {
        return ElfFile.readBuildId(file).map(HexFormat.of()::formatHex);
    }

    /** The running kernel's build-id, from {@code notes} (/sys/kernel/notes). */
    public static Optional<String> ofKernel(Path notes) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(notes)).order(ByteOrder.nativeOrder());
        return ElfFile.buildIdInNotes(b).map(HexFormat.of()::formatHex);
    }

    /**
     * The recording's HEADER_BUILD_ID entries as perf lists them, printed as {@link #line}. perf
     * finds the DSOs of a recording without that section, or of a pipe-mode stream, by reading its
     * samples ({@code --with-hits} too), which this does not: such a file is refused with one line.
     */
    public static void print(PerfDataFile file, PrintStream out) {
        for (BuildIds.Entry e : entries(file)) {
            out.println(line(e));
        }
        out.flush();
    }

    /**
     * The DSOs of the recording's HEADER_BUILD_ID in perf's order (perf_header__read_build_ids): an
     * entry goes to the machine of its pid (-1 the host, any other a machine of its own), into the
     * DSO of its file name, which the first entry of that name creates and each later one gives its
     * build-id; entries of another cpumode are dropped. The host's DSOs come first, then each other
     * machine's by pid.
     */
    public static List<BuildIds.Entry> entries(PerfDataFile file) {
        if (file.isPipe()) {
            throw new PerfDataException(file.name() + ": a pipe-mode stream carries its build-ids among its records;"
                    + " jperf reads them only from a file's HEADER_BUILD_ID");
        }
        BuildIds ids = file.features().buildIds().orElseThrow(() -> new PerfDataException(file.name()
                + ": no HEADER_BUILD_ID: perf would list the DSOs with samples, which jperf does not yet"));
        Map<Integer, Map<String, BuildIds.Entry>> machines = new TreeMap<>();
        for (BuildIds.Entry e : ids.entries()) {
            int cpumode = e.cpumode();
            if (cpumode == PerfRecord.PERF_RECORD_MISC_KERNEL || cpumode == PerfRecord.PERF_RECORD_MISC_USER
                    || cpumode == PerfRecord.PERF_RECORD_MISC_GUEST_KERNEL || cpumode == PerfRecord.PERF_RECORD_MISC_GUEST_USER) {
                machines.computeIfAbsent(e.pid() == HOST ? Integer.MIN_VALUE : e.pid(), p -> new LinkedHashMap<>())
                        .put(e.filename(), e);
            }
        }
        List<BuildIds.Entry> out = new ArrayList<>();
        machines.values().forEach(dsos -> out.addAll(dsos.values()));
        return out;
    }

    /** One DSO as perf's __dsos__fprintf_buildid prints it: {@code %-40s %s}, build-id and name. */
    public static String line(BuildIds.Entry e) {
        StringBuilder sb = new StringBuilder(e.buildIdHex());
        while (sb.length() < 40) {
            sb.append(' ');
        }
        return sb.append(' ').append(e.filename()).toString();
    }
}
