package dev.jperf.recorder;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The BPF trampoline and dispatcher images as KSYMBOLs, and the kallsyms read they come from.
 * Synthesized at start when a loaded program may run through one (kallsyms read whole then);
 * otherwise at the time of the first program loaded while recording: the XDP dispatcher, built
 * once per boot, may already exist and start running with that program, and the kernel announces
 * it only when it is built.
 */
final class BpfImages {
    private final BpfCapture capture;
    /** Read once at start; also what the build-id cache keeps of the kernel. */
    private KernelMaps kallsyms;
    /** Whether the images were synthesized (kallsyms read whole). */
    private boolean synthesized;

    BpfImages(BpfCapture capture) {
        this.capture = capture;
    }

    /** At start: the kernel's text range (kallsyms read whole only when needed, see {@link KernelMaps}). */
    KernelMaps readKernelRange() throws IOException {
        kallsyms = KernelMaps.kernelRange(Path.of("/proc/kallsyms"), Path.of("/proc/iomem"));
        return kallsyms;
    }

    /** At start, after {@code bpf} synthesized the loaded programs: the images if any may run. */
    void atStart(BpfSynthesizer bpf) throws IOException {
        if (bpf.imagesPossible()) {
            kallsyms = kallsyms.complete();
        }
        bpf.images(kallsyms, Recorder.PAGE_SIZE);
        synthesized = kallsyms.whole();
    }

    /** After a pass: the images, if not yet written, once the copier has seen a PROG_LOAD. */
    void afterPass(RecordCopier copier) {
        if (!synthesized && copier.firstProgLoadTrailer() != null) {
            atFirstLoad(copier);
        }
    }

    /**
     * The images at the time of the first PROG_LOAD (its sample_id trailer), in the same round as
     * it, so that perf orders them with it.
     */
    private void atFirstLoad(RecordCopier copier) {
        synthesized = true;
        try {
            kallsyms = kallsyms.complete();
        } catch (IOException e) {
            return; // kallsyms unreadable now: the images stay unnamed, as without them
        }
        SyntheticRecords s = new SyntheticRecords(copier.firstProgLoadTrailer());
        new BpfSynthesizer(capture, s).images(kallsyms, Recorder.PAGE_SIZE);
        if (s.size() > 0) {
            copier.appendOwn(s.records());
        }
    }

    /** The kallsyms read, null before {@link #readKernelRange}. */
    KernelMaps kallsyms() {
        return kallsyms;
    }
}
