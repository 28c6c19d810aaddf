package dev.jperf.report.symbol;

import dev.jperf.format.io.ProcFs;
import dev.jperf.format.BuildIdDir;
import dev.jperf.format.elf.ElfDebugLink;
import dev.jperf.format.elf.ElfFile;
import dev.jperf.format.elf.ElfSection;
import dev.jperf.format.elf.RunningVdso;
import dev.jperf.format.unwind.Cfi;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Finds and loads the symbols of every {@link Dso}, as perf does, and owns the DSOs (one per name).
 *
 * <p>Kernel: {@code --kallsyms FILE}, else the build-id cache
 * ({@code ~/.debug/[kernel.kallsyms]/BUILD_ID/kallsyms}), else {@code /proc/kallsyms} when the
 * running kernel's build-id is the recorded one. User space: the first image with a
 * {@code .symtab} and the first with a {@code .dynsym} among, in perf's order, the
 * {@code .gnu_debuglink} targets, the build-id cache ({@code ~/.debug/.build-id/xx/rest}),
 * {@code /usr/lib/debug/PATH[.debug]}, {@code /usr/lib/debug/.build-id/xx/rest.debug} and the
 * file itself (all under {@code --symfs}); an image whose build-id differs from the recorded one
 * is never used. [vdso]: the build-id cache, or the running kernel's vdso when the file recorded no build-id (pipe mode), as perf. Anonymous executable memory: {@code /tmp/perf-PID.map}.
 */
public final class SymbolResolver {
    private final Options options;
    /** perf's short name of the running host's kernel (machine__get_kernel: a live session's, as top's). */
    private static final String LIVE_KERNEL_SHORT_NAME = "[kernel]";
    private boolean liveHost;
    private final Map<String, Dso> dsos = new HashMap<>();
    private final List<Dso> byId = new ArrayList<>();
    private Kallsyms kallsyms;
    private boolean kallsymsTried;
    private CompletableFuture<Kallsyms> prefetch;
    private byte[] prefetchBuildId;
    /** User DSOs whose symbols another thread is reading (see {@link #prefetchUserSymbols}). */
    private final Map<Dso, Prefetch> userPrefetch = new HashMap<>();
    private final List<String> warnings = new ArrayList<>();
    private final Map<Dso, Cfi> cfis = new HashMap<>();
    private final SourceLines sourceLines = new SourceLines(this);

    /** A symbol table read off the lock, with the problems met reading it. */
    private record Loaded(SymbolTable table, List<String> warnings) {}

    /**
     * A DSO queued for the ELF thread: whichever thread claims it first reads it, so the session
     * thread never waits for a table the ELF thread has not started (it waited ~0.1 s for
     * libjvm.so queued behind libstdc++ on the busy-machine file).
     */
    private static final class Prefetch {
        final AtomicBoolean claimed = new AtomicBoolean();
        final CompletableFuture<Loaded> loaded = new CompletableFuture<>();
    }

    /**
     * Where to look.
     *
     * @param kallsyms {@code --kallsyms}, or null
     * @param symfs {@code --symfs} root, or null
     * @param buildIdDir the build-id cache (perf's {@code ~/.debug})
     * @param debugDir the system debug directory ({@code /usr/lib/debug})
     * @param procKallsyms the running kernel's symbols ({@code /proc/kallsyms})
     * @param kernelNotes the running kernel's notes, for its build-id ({@code /sys/kernel/notes})
     * @param perfMapDir where {@code perf-PID.map} files are ({@code /tmp})
     * @param demangler how user-space ELF symbol names are shown, or null for as in the file
     *     ({@code --no-demangle}); kernel, BPF and perf-map names are never demangled, as in perf 6.1
     * @param inline perf's symbol_conf.inline_name ({@code --inline}, the default; {@code --no-inline}):
     *     DWARF-unwound callchains get a frame per inlined function
     */
    public record Options(Path kallsyms, Path symfs, Path buildIdDir, Path debugDir, Path procKallsyms,
            Path kernelNotes, Path perfMapDir, Demangler demangler, boolean inline, boolean fullSourcePath) {
        /** Source lines by their file's base name, as perf without --full-source-path. */
        public Options(Path kallsyms, Path symfs, Path buildIdDir, Path debugDir, Path procKallsyms,
                Path kernelNotes, Path perfMapDir, Demangler demangler, boolean inline) {
            this(kallsyms, symfs, buildIdDir, debugDir, procKallsyms, kernelNotes, perfMapDir, demangler, inline, false);
        }

        /** With perf's default inline frames. */
        public Options(Path kallsyms, Path symfs, Path buildIdDir, Path debugDir, Path procKallsyms,
                Path kernelNotes, Path perfMapDir, Demangler demangler) {
            this(kallsyms, symfs, buildIdDir, debugDir, procKallsyms, kernelNotes, perfMapDir, demangler, true);
        }

        /** With perf's default demangling. */
        public Options(Path kallsyms, Path symfs, Path buildIdDir, Path debugDir, Path procKallsyms,
                Path kernelNotes, Path perfMapDir) {
            this(kallsyms, symfs, buildIdDir, debugDir, procKallsyms, kernelNotes, perfMapDir, Demangler.PERF);
        }

        /**
         * perf's places: the build-id cache is {@code buildIdDir} ({@code --buildid-dir}, may be null:
         * then {@code PERF_BUILDID_DIR} or {@code ~/.debug}, as {@link BuildIdDir} resolves it).
         */
        public static Options defaults(Path kallsyms, Path symfs, Path buildIdDir) {
            return new Options(kallsyms, symfs, BuildIdDir.resolve(buildIdDir), Path.of("/usr/lib/debug"),
                    Path.of("/proc/kallsyms"), Path.of("/sys/kernel/notes"), Path.of("/tmp"));
        }

        /** These options with user-space names demangled ({@code true}, perf's default) or not ({@code --no-demangle}). */
        public Options withDemangle(boolean demangle) {
            return new Options(kallsyms, symfs, buildIdDir, debugDir, procKallsyms, kernelNotes, perfMapDir,
                    demangle ? Demangler.PERF : null, inline, fullSourcePath);
        }

        /** These options with inlined functions' frames in DWARF-unwound chains ({@code true}, perf's default) or not. */
        public Options withInline(boolean inline) {
            return new Options(kallsyms, symfs, buildIdDir, debugDir, procKallsyms, kernelNotes, perfMapDir,
                    demangler, inline, fullSourcePath);
        }

        /** perf's --full-source-path (srcline_full_filename): source lines name their file's whole path. */
        public Options withFullSourcePath(boolean fullSourcePath) {
            return new Options(kallsyms, symfs, buildIdDir, debugDir, procKallsyms, kernelNotes, perfMapDir,
                    demangler, inline, fullSourcePath);
        }
    }

    /**
     * Symbols of the running machine (perf top): the kernel's DSO is named {@code [kernel]}, as
     * perf's machine__get_kernel names a live host's. Set before any DSO is made.
     */
    public SymbolResolver liveHost() {
        liveHost = true;
        return this;
    }

    public SymbolResolver(Options options) {
        this.options = options;
    }

    public Options options() {
        return options;
    }

    /** Problems met while loading symbols (perf prints them with -v only); one line each. */
    public synchronized List<String> warnings() {
        return List.copyOf(warnings);
    }

    /** The source lines of this resolver's DSOs (also each {@link Dso#sourceLines()}). */
    public SourceLines sourceLines() {
        return sourceLines;
    }

    /** The DSO called {@code longName}, created with {@code kind} on first use. */
    public synchronized Dso dso(String longName, Dso.Kind kind) {
        Dso d = dsos.get(longName);
        if (d == null) {
            d = new Dso(byId.size(), longName, liveHost && kind == Dso.Kind.KERNEL && longName.equals(KERNEL_NAME)
                    ? LIVE_KERNEL_SHORT_NAME : shortName(longName, kind), kind);
            d.sourceLines = sourceLines;
            dsos.put(longName, d);
            byId.add(d);
        }
        return d;
    }

    /** The DSO called {@code longName} if there is one yet, else null. */
    public synchronized Dso existing(String longName) {
        return dsos.get(longName);
    }

    /** A fresh DSO that is not shared by name (a JITed BPF function whose name was reused). */
    public synchronized Dso newDso(String longName, Dso.Kind kind) {
        Dso d = new Dso(byId.size(), longName, shortName(longName, kind), kind);
        d.sourceLines = sourceLines;
        byId.add(d);
        dsos.putIfAbsent(longName, d);
        return d;
    }

    public synchronized Dso byId(int id) {
        return byId.get(id);
    }

    public synchronized int dsoCount() {
        return byId.size();
    }

    /** The symbol of {@code dso} containing {@code addr} (in the DSO's address space), or null. */
    public Symbol find(Dso dso, long addr) {
        SymbolTable t = dso.symbols();
        if (t == null) {
            t = load(dso);
        }
        return t.find(addr);
    }

    /** Loads (once) and returns the symbol table of {@code dso}. */
    public synchronized SymbolTable load(Dso dso) {
        SymbolTable t = dso.symbols();
        if (t != null) {
            return t;
        }
        try {
            t = switch (dso.kind()) {
                case KERNEL -> kernelSymbols();
                case KERNEL_MODULE -> moduleSymbols(dso);
                case USER -> userPrefetch.containsKey(dso) ? prefetched(dso) : userSymbols(dso, warnings);
                case VDSO -> vdsoSymbols(dso);
                case PERF_MAP -> PerfMap.parse(Path.of(dso.longName()));
                case BPF, NO_DSO -> SymbolTable.EMPTY;
            };
        } catch (IOException | RuntimeException e) {
            warnings.add(dso.longName() + ": " + e.getMessage());
            t = SymbolTable.EMPTY;
        }
        dso.setSymbols(t);
        return t;
    }

    /** The parsed kallsyms chosen for the kernel, or null when none matches. */
    public synchronized Kallsyms kallsyms(byte[] kernelBuildId) {
        if (!kallsymsTried) {
            kallsymsTried = true;
            if (prefetch != null && Arrays.equals(prefetchBuildId, kernelBuildId)) {
                try {
                    kallsyms = prefetch.join();
                } catch (java.util.concurrent.CompletionException e) {
                    warnings.add(e.getCause().getMessage());
                }
                return kallsyms;
            }
            Path file = kallsymsFile(kernelBuildId, true);
            if (file != null) {
                try {
                    kallsyms = Kallsyms.parse(file);
                } catch (IOException e) {
                    warnings.add(e.getMessage());
                }
            }
        }
        return kallsyms;
    }

    private SymbolTable kernelSymbols() {
        Dso k = dsos.get(KERNEL_NAME);
        Kallsyms ks = kallsyms(k == null ? null : k.buildId());
        return ks == null ? SymbolTable.EMPTY : ks.kernel();
    }

    private SymbolTable moduleSymbols(Dso dso) {
        Dso k = dsos.get(KERNEL_NAME);
        Kallsyms ks = kallsyms(k == null ? null : k.buildId());
        if (ks == null) {
            return SymbolTable.EMPTY;
        }
        return ks.modules().getOrDefault(dso.shortName(), SymbolTable.EMPTY);
    }

    public static final String KERNEL_NAME = "[kernel.kallsyms]";

    /**
     * perf's symbol__read_kptr_restrict for this process: without CAP_SYSLOG the kernel's addresses
     * are restricted when kptr_restrict is not 0 or perf_event_paranoid is above 1 (with it, when
     * kptr_restrict is 2). perf then takes kernel symbols only from a kallsyms named by --kallsyms.
     */
    static final boolean KERNEL_RESTRICTED = readKernelRestriction();

    private static boolean readKernelRestriction() {
        boolean syslog = false;
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (l.startsWith("CapEff:")) {
                    syslog = (Long.parseUnsignedLong(l.substring(7).strip(), 16) & (1L << CAP_SYSLOG)) != 0;
                }
            }
            int kptr = ProcFs.sysctlInt(Path.of("/proc/sys/kernel/kptr_restrict"));
            int paranoid = ProcFs.sysctlInt(Path.of("/proc/sys/kernel/perf_event_paranoid"));
            return syslog ? kptr >= 2 : kptr != 0 || paranoid > 1;
        } catch (IOException | RuntimeException e) {
            // no /proc to ask (another OS reading a file): nothing is restricted here
            return false;
        }
    }

    /** Whether this process is one the kernel restricts (see {@link #KERNEL_RESTRICTED}). */
    public static boolean kernelRestricted() {
        return KERNEL_RESTRICTED;
    }

    /** capability.h's CAP_SYSLOG. */
    private static final int CAP_SYSLOG = 34;

    /**
     * Starts parsing, on another thread, the kallsyms that {@link #kallsyms} will pick for this
     * kernel build-id (a large file: it then overlaps with reading the records).
     */
    public synchronized void prefetchKallsyms(byte[] kernelBuildId) {
        if (kallsymsTried || prefetch != null) {
            return;
        }
        Path file = kallsymsFile(kernelBuildId, false);
        if (file == null) {
            return;
        }
        prefetchBuildId = kernelBuildId;
        prefetch = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                prefetch.complete(Kallsyms.parse(file));
            } catch (IOException | RuntimeException e) {
                prefetch.completeExceptionally(e);
            }
        }, "jperf-kallsyms");
        t.setDaemon(true);
        t.start();
    }

    private Path kallsymsFile(byte[] buildId, boolean warn) {
        if (options.kallsyms() != null) {
            return options.kallsyms();
        }
        if (KERNEL_RESTRICTED) {
            // perf names no kernel symbol from a kallsyms it was not given, cached copies included
            return null;
        }
        if (buildId != null) {
            Path cached = options.buildIdDir().resolve(KERNEL_NAME).resolve(hex(buildId)).resolve("kallsyms");
            if (Files.isRegularFile(cached)) {
                return cached;
            }
        }
        byte[] running = runningKernelBuildId();
        if (buildId == null || (running != null && Arrays.equals(running, buildId))) {
            return Files.isReadable(options.procKallsyms()) ? options.procKallsyms() : null;
        }
        if (warn) {
            warnings.add("no kallsyms for kernel build-id " + hex(buildId) + ": kernel symbols unresolved (use --kallsyms)");
        }
        return null;
    }

    private byte[] runningKernelBuildId() {
        try {
            byte[] notes = Files.readAllBytes(options.kernelNotes());
            return noteBuildId(notes);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The NT_GNU_BUILD_ID descriptor in a raw note list (little-endian), or null. */
    static byte[] noteBuildId(byte[] n) {
        int p = 0;
        while (p + 12 <= n.length) {
            long namesz = le32(n, p);
            long descsz = le32(n, p + 4);
            long type = le32(n, p + 8);
            long desc = p + 12 + ((namesz + 3) & ~3L);
            long next = desc + ((descsz + 3) & ~3L);
            if (next > n.length) {
                return null;
            }
            if (type == ElfFile.NT_GNU_BUILD_ID && namesz == 4 && n[p + 12] == 'G' && n[p + 13] == 'N' && n[p + 14] == 'U') {
                return Arrays.copyOfRange(n, (int) desc, (int) (desc + descsz));
            }
            p = (int) next;
        }
        return null;
    }

    private static long le32(byte[] b, int at) {
        return (b[at] & 0xffL) | (b[at + 1] & 0xffL) << 8 | (b[at + 2] & 0xffL) << 16 | (b[at + 3] & 0xffL) << 24;
    }

    /**
     * The CFI of a user DSO or [vdso] for the DWARF unwinder, from the image perf's unwinder reads:
     * the first candidate (build-id cache, debug files, the recorded path on --symfs) with a
     * .eh_frame, else one with a .debug_frame; {@link Cfi#EMPTY} when the image has neither (the
     * unwinder then follows frame pointers there), null when no image is found. Read once per DSO.
     */
    public synchronized Cfi cfi(Dso dso) {
        if (cfis.containsKey(dso)) {
            return cfis.get(dso);
        }
        Cfi c = null;
        try {
            c = loadCfi(dso);
        } catch (IOException | RuntimeException e) {
            warnings.add(dso.longName() + ": " + e.getMessage());
        }
        cfis.put(dso, c);
        return c;
    }

    private Cfi loadCfi(Dso dso) throws IOException {
        List<Path> candidates;
        if (dso.kind() == Dso.Kind.VDSO) {
            if (dso.buildId() == null) {
                Optional<ElfFile> running = RunningVdso.read();
                return running.isPresent() ? Cfi.of(running.get()) : null;
            }
            String bid = dso.buildIdHex();
            candidates = List.of(options.buildIdDir().resolve("[vdso]").resolve(bid).resolve("vdso"),
                    options.buildIdDir().resolve(".build-id").resolve(bid.substring(0, 2)).resolve(bid.substring(2))
                            .resolve("elf"));
        } else if (dso.kind() == Dso.Kind.USER) {
            candidates = userCandidates(dso);
        } else {
            return null;
        }
        ElfFile debugFrame = null;
        ElfFile any = null;
        for (Path p : candidates) {
            ElfFile f = openMatching(p, dso.buildId(), warnings);
            if (f == null) {
                continue;
            }
            if (hasTable(f, ".eh_frame")) {
                return Cfi.of(f);
            }
            if (debugFrame == null && (hasTable(f, ".debug_frame") || hasTable(f, ".zdebug_frame"))) {
                debugFrame = f;
            }
            if (any == null && hasTable(f, ".text")) {
                any = f;
            }
        }
        return debugFrame != null ? Cfi.of(debugFrame) : any != null ? Cfi.EMPTY : null;
    }

    private SymbolTable vdsoSymbols(Dso dso) throws IOException {
        if (dso.buildId() == null) {
            // no build-id recorded (pipe mode): perf takes the running kernel's vdso
            Optional<ElfFile> running = RunningVdso.read();
            return running.isPresent() ? ElfSymbols.load(running.get(), running.get(), options.demangler()) : SymbolTable.EMPTY;
        }
        String bid = dso.buildIdHex();
        for (Path p : List.of(options.buildIdDir().resolve("[vdso]").resolve(bid).resolve("vdso"),
                options.buildIdDir().resolve(".build-id").resolve(bid.substring(0, 2)).resolve(bid.substring(2)).resolve("elf"))) {
            ElfFile f = openMatching(p, dso.buildId(), warnings);
            if (f != null) {
                return ElfSymbols.load(f, f, options.demangler());
            }
        }
        return SymbolTable.EMPTY;
    }

    /**
     * Starts reading, on another thread, the symbols of the user DSOs known now with a build-id
     * (those of HEADER_BUILD_ID: the files with samples), so that the session thread finds them
     * read when its first sample there comes (ELF tables were a tenth of its time). The thread
     * takes no lock: it reads files, and its warnings come back with the table.
     */
    public synchronized void prefetchUserSymbols() {
        List<Dso> user = new ArrayList<>();
        for (Dso d : byId) {
            if (d.kind() == Dso.Kind.USER && d.buildId() != null && d.symbols() == null && !userPrefetch.containsKey(d)) {
                user.add(d);
                userPrefetch.put(d, new Prefetch());
            }
        }
        if (user.isEmpty()) {
            return;
        }
        Map<Dso, Prefetch> pending = Map.copyOf(userPrefetch);
        Thread t = new Thread(() -> {
            for (Dso d : user) {
                Prefetch p = pending.get(d);
                if (p.claimed.compareAndSet(false, true)) {
                    p.loaded.complete(loadUser(d));
                }
            }
        }, "jperf-elf");
        t.setDaemon(true);
        t.start();
    }

    /** A prefetched DSO's table (waiting for it if need be); under the lock, which the reading thread never takes. */
    private SymbolTable prefetched(Dso dso) {
        Prefetch p = userPrefetch.remove(dso);
        Loaded l = p.claimed.compareAndSet(false, true) ? loadUser(dso) : p.loaded.join();
        warnings.addAll(l.warnings());
        return l.table();
    }

    /** {@code dso}'s symbols and the problems met reading them (any thread: takes no lock). */
    private Loaded loadUser(Dso dso) {
        List<String> w = new ArrayList<>();
        try {
            return new Loaded(userSymbols(dso, w), w);
        } catch (IOException | RuntimeException e) {
            w.add(dso.longName() + ": " + e.getMessage());
            return new Loaded(SymbolTable.EMPTY, w);
        }
    }

    /** {@code dso}'s symbols from its ELF images; problems go to {@code warnings}. */
    private SymbolTable userSymbols(Dso dso, List<String> warnings) throws IOException {
        Images found = search(dso, warnings);
        ElfFile syms = found.symsrc() != null ? found.symsrc() : found.runtime();
        if (syms == null) {
            return SymbolTable.EMPTY;
        }
        return ElfSymbols.load(syms, found.runtime() != null ? found.runtime() : syms, options.demangler());
    }

    /**
     * The images of a user DSO as perf's dso__load picks them: {@code symsrc} the first with a
     * {@code .symtab} (perf's symsrc_filename, the file it gives addr2line; else the DSO's own path
     * when it is a file), {@code runtime} the first with a {@code .dynsym}; either may be null.
     */
    record Images(ElfFile symsrc, Path symsrcPath, ElfFile runtime) {}

    Images images(Dso dso, List<String> warnings) {
        Images found = search(dso, warnings);
        if (found.symsrc() != null) {
            return found;
        }
        // no symsrc: perf names the DSO itself to addr2line
        Path own = Path.of(dso.longName());
        ElfFile syms = openMatching(own, dso.buildId(), warnings);
        return new Images(syms, syms == null ? null : own, found.runtime());
    }

    /** The first candidate image with a {@code .symtab} and the first with a {@code .dynsym} (either may be null). */
    private Images search(Dso dso, List<String> warnings) {
        if (dso.buildId() == null) {
            // as dso__load: without a recorded build-id, take the file's own (for the debug-file lookups)
            Path p = symfs(dso.longName());
            if (Files.isRegularFile(p)) {
                try {
                    ElfFile.open(p).buildId().ifPresent(dso::setBuildId);
                } catch (IOException | RuntimeException e) {
                    warnings.add(p + ": " + e.getMessage());
                }
            }
        }
        ElfFile syms = null;
        Path symsPath = null;
        ElfFile runtime = null;
        for (Path p : userCandidates(dso)) {
            ElfFile f = openMatching(p, dso.buildId(), warnings);
            if (f == null) {
                continue;
            }
            // a detached debug file (libc6-dbg's) keeps .dynsym as SHT_NOBITS: its tables are not there,
            // and the runtime image is the one further down the list whose tables are
            if (syms == null && hasTable(f, ".symtab")) {
                syms = f;
                symsPath = p;
            }
            if (runtime == null && hasTable(f, ".dynsym")) {
                runtime = f;
            }
            if (syms != null && runtime != null) {
                break;
            }
        }
        return new Images(syms, symsPath, runtime);
    }

    private static boolean hasTable(ElfFile f, String name) {
        Optional<ElfSection> s = f.section(name);
        return s.isPresent() && s.get().type() != ElfSection.SHT_NOBITS;
    }

    /** Candidate images for a user DSO, in perf's binary_type_symtab order. */
    private List<Path> userCandidates(Dso dso) {
        Set<Path> out = new LinkedHashSet<>();
        String path = dso.longName();
        Path onSymfs = symfs(path);
        String bid = dso.buildIdHex();
        // DSO_BINARY_TYPE__DEBUGLINK
        try {
            if (Files.isRegularFile(onSymfs)) {
                Optional<ElfDebugLink> link = ElfFile.open(onSymfs).debugLink();
                if (link.isPresent()) {
                    String name = link.get().fileName();
                    Path dir = onSymfs.getParent() == null ? Path.of("/") : onSymfs.getParent();
                    out.add(dir.resolve(name));
                    out.add(dir.resolve(".debug").resolve(name));
                    out.add(Path.of(options.debugDir() + dir.toString()).resolve(name));
                }
            }
        } catch (IOException | RuntimeException e) {
            // an unreadable file is skipped here as perf skips it; it is reported when opened below
        }
        if (bid != null) {
            // DSO_BINARY_TYPE__BUILD_ID_CACHE and __BUILD_ID_CACHE_DEBUGINFO
            Path link = options.buildIdDir().resolve(".build-id").resolve(bid.substring(0, 2)).resolve(bid.substring(2));
            out.add(link.resolve("elf"));
            out.add(link);
            out.add(link.resolve("debug"));
        }
        // FEDORA / UBUNTU debuginfo
        out.add(Path.of(options.debugDir() + path + ".debug"));
        out.add(Path.of(options.debugDir() + path));
        if (bid != null) {
            // DSO_BINARY_TYPE__BUILDID_DEBUGINFO
            out.add(symfs(options.debugDir() + "/.build-id/" + bid.substring(0, 2) + "/" + bid.substring(2) + ".debug"));
        }
        // DSO_BINARY_TYPE__SYSTEM_PATH_DSO
        out.add(onSymfs);
        return new ArrayList<>(out);
    }

    /**
     * The image perf's annotate disassembles for a user DSO (dso__disassemble_filename): the
     * build-id cache's copy when there is one, else the file at its path (under --symfs); null when neither exists.
     */
    public Path disassemblyFile(Dso dso) {
        String bid = dso.buildIdHex();
        if (bid != null) {
            Path link = options.buildIdDir().resolve(".build-id").resolve(bid.substring(0, 2)).resolve(bid.substring(2));
            if (Files.isRegularFile(link.resolve("elf"))) {
                return link.resolve("elf");
            }
            if (Files.isRegularFile(link)) {
                return link;
            }
        }
        Path p = symfs(dso.longName());
        return Files.isRegularFile(p) ? p : null;
    }

    private Path symfs(String path) {
        if (options.symfs() == null) {
            return Path.of(path);
        }
        return Path.of(options.symfs().toString() + (path.startsWith("/") ? path : "/" + path));
    }

    /** Opens {@code p} when it is a regular ELF file whose build-id is {@code buildId} (when known). */
    private ElfFile openMatching(Path p, byte[] buildId, List<String> warnings) {
        if (!Files.isRegularFile(p)) {
            return null;
        }
        try {
            ElfFile f = ElfFile.open(p);
            if (buildId != null) {
                Optional<byte[]> id = f.buildId();
                if (id.isEmpty() || !Arrays.equals(id.get(), buildId)) {
                    return null;
                }
            }
            return f;
        } catch (IOException | RuntimeException e) {
            warnings.add(p + ": " + e.getMessage());
            return null;
        }
    }

    static String shortName(String longName, Dso.Kind kind) {
        String jit = jitName(longName, kind);
        if (jit != null) {
            return jit;
        }
        if (kind == Dso.Kind.KERNEL_MODULE && longName.startsWith("/")) {
            return kmodName(longName);
        }
        if (kind == Dso.Kind.USER || kind == Dso.Kind.PERF_MAP) {
            int slash = longName.lastIndexOf('/');
            return slash >= 0 ? longName.substring(slash + 1) : longName;
        }
        return longName;
    }

    /** perf's is_kernel_module by file name: {@code .ko}, compressed or not. */
    public static boolean isKernelModulePath(String path) {
        return path.endsWith(".ko") || path.endsWith(".ko.gz") || path.endsWith(".ko.xz") || path.endsWith(".ko.zst");
    }

    /** perf's kmod_path__parse_name: {@code [name]}, the file name up to its first dot, '-' as '_'. */
    public static String kmodName(String path) {
        String base = path.substring(path.lastIndexOf('/') + 1);
        int dot = base.indexOf('.');
        return "[" + (dot > 0 ? base.substring(0, dot) : base).replace('-', '_') + "]";
    }

    /**
     * perf's dso__set_basename: a DSO whose long name scans as {@code /tmp/perf-%d.map} (JITed code
     * named by a perf map) is shown as {@code [JIT] tid %d}. jperf reads perf maps from its
     * perfMapDir, so a PERF_MAP DSO is recognised by its file name in any directory.
     */
    static String jitName(String longName, Dso.Kind kind) {
        int slash = longName.lastIndexOf('/');
        String dir = slash >= 0 ? longName.substring(0, slash + 1) : "";
        String base = longName.substring(slash + 1);
        if (!base.startsWith("perf-") || !(dir.equals("/tmp/") || kind == Dso.Kind.PERF_MAP)) {
            return null;
        }
        // sscanf("%d") semantics: optional sign, digits; whatever follows them does not matter
        int i = "perf-".length();
        int digits = i < base.length() && (base.charAt(i) == '-' || base.charAt(i) == '+') ? i + 1 : i;
        int end = digits;
        while (end < base.length() && Character.isDigit(base.charAt(end))) {
            end++;
        }
        if (end == digits || end - digits > 10) {
            return null;
        }
        long tid = Long.parseLong(base.substring(i, end));
        return tid < Integer.MIN_VALUE || tid > Integer.MAX_VALUE ? null : "[JIT] tid " + tid;
    }

    static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
