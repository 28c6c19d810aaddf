package dev.jperf.report.session;

import static dev.jperf.format.record.PerfRecord.PERF_RECORD_MISC_CPUMODE_MASK;
import static dev.jperf.format.record.PerfRecord.PERF_RECORD_MISC_GUEST_KERNEL;
import static dev.jperf.format.record.PerfRecord.PERF_RECORD_MISC_GUEST_USER;
import static dev.jperf.format.record.PerfRecord.PERF_RECORD_MISC_KERNEL;
import static dev.jperf.format.record.PerfRecord.PERF_RECORD_MISC_USER;

import dev.jperf.format.io.ByteSource;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.SampleRecord;
import dev.jperf.format.record.UserStack;
import dev.jperf.format.unwind.Cfi;
import dev.jperf.format.unwind.Unwinder;
import dev.jperf.report.symbol.BpfProgSymbols;
import dev.jperf.report.symbol.Dso;
import dev.jperf.report.symbol.Kallsyms;
import dev.jperf.report.symbol.SourceLines;
import dev.jperf.report.symbol.Symbol;
import dev.jperf.report.symbol.SymbolResolver;
import dev.jperf.report.symbol.SymbolTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The host as the recording saw it (perf's struct machine): threads by tid with their address
 * spaces, the kernel address space (kernel, modules, JITed BPF functions), and the rules that turn
 * MMAP/MMAP2, COMM, FORK, EXIT and KSYMBOL records into that state. Records must be applied in time
 * order ({@link OrderedEvents}).
 */
public final class Machine {
    /** perf's PERF_MAX_STACK_DEPTH: the addresses a callchain walk keeps. */
    public static final int PERF_MAX_STACK_DEPTH = 127;
    /** The most callchain entries a record can hold (its size is a u16): a deeper --max-stack keeps them all. */
    public static final int MAX_CHAIN_NR = 0xffff / 8;
    static final int PROT_EXEC = 4;

    private final SymbolResolver resolver;
    /** By tid; looked up for every sample (no boxing). */
    private final LongMap<PerfThread> threads = new LongMap<>();
    private final MapGroup kernelMaps = new MapGroup();
    private final Map<String, byte[]> buildIds = new HashMap<>();
    private Mapping kernelMap;
    private boolean modulesCreated;
    /** Module maps taken from kallsyms (no MMAP for them yet): a module's MMAP record replaces them. */
    private final List<Mapping> kallsymsModuleMaps = new ArrayList<>();
    private Supplier<BpfProgSymbols> bpfProgSource = () -> BpfProgSymbols.EMPTY;
    private BpfProgSymbols bpfProgs;
    /** Frame keys: DSO short name -> dsoKey, (dsoKey, start, end) -> symbolKey. */
    private final Map<String, Integer> dsoKeys = new HashMap<>();
    private final Map<SymbolId, Integer> symbolKeys = new HashMap<>();

    /**
     * A hash key; equals and hashCode written out because a record's generated ones bootstrap
     * method handles on their first call (milliseconds of every report's start).
     */
    /**
     * An inlined function's symbol key: perf's sort__sym_cmp tells inlined symbols apart by name,
     * then by the range of the symbol they were inlined into.
     */
    private record InlinedId(int dsoKey, String name, long start, long end) {}

    private final Map<InlinedId, Integer> inlinedKeys = new HashMap<>();
    /** The next symbol key, of symbols and inlined functions alike. */
    private int nextSymbolKey;
    /** {@link #unwindUser}'s frames; grows when inlined frames need more room. */
    private Frame[] userOut = new Frame[PERF_MAX_STACK_DEPTH];

    private record SymbolId(int dsoKey, long start, long end) {
        @Override
        public boolean equals(Object o) {
            return o instanceof SymbolId s && s.dsoKey == dsoKey && s.start == start && s.end == end;
        }

        @Override
        public int hashCode() {
            return (31 * dsoKey + Long.hashCode(start)) * 31 + Long.hashCode(end);
        }
    }

    /** The DWARF unwinder (session thread only) and the address space it walks. */
    private final Unwinder unwinder = new Unwinder();
    private long[] unwound = new long[PERF_MAX_STACK_DEPTH];
    private MapGroup unwindMaps;
    private final Unwinder.Modules unwindModules = new Unwinder.Modules() {
        @Override
        public Cfi find(long pc, long[] vaddr) {
            Mapping m = unwindMaps.find(pc);
            if (m == null || m.dso() == null) {
                return null;
            }
            if (!m.cfiLooked) {
                Dso.Kind k = m.dso().kind();
                m.cfi = k == Dso.Kind.USER || k == Dso.Kind.VDSO ? resolver.cfi(m.dso()) : null;
                m.cfiLooked = true;
            }
            if (m.cfi != null) {
                vaddr[0] = m.cfi.vaddr(m.mapIp(pc));
            }
            return m.cfi;
        }
    };

    public Machine(SymbolResolver resolver) {
        this.resolver = resolver;
        PerfThread idle = findOrCreateThread(0, 0);
        idle.setComm("swapper");
    }

    public SymbolResolver resolver() {
        return resolver;
    }

    /**
     * Where JITed BPF functions no KSYMBOL record named come from (HEADER_BPF_PROG_INFO); asked
     * once, on the first kernel address that needs it.
     */
    public void setBpfProgSymbols(Supplier<BpfProgSymbols> source) {
        this.bpfProgSource = source;
        this.bpfProgs = null;
    }

    public MapGroup kernelMaps() {
        return kernelMaps;
    }

    /** A build-id known for a file name (HEADER_BUILD_ID); applied to its DSO. */
    public void addBuildId(String filename, byte[] id) {
        buildIds.put(filename, id);
        Dso d = resolver.dso(filename, kindOf(filename));
        d.setBuildId(id);
    }

    /** perf's machine__findnew_thread. */
    public PerfThread findOrCreateThread(int pid, int tid) {
        PerfThread t = threads.get(tid);
        if (t != null) {
            if (t.pid() == -1 && pid != -1 && pid != t.pid()) {
                t.setPid(pid);
                if (pid != tid) {
                    t.setMaps(findOrCreateThread(pid, pid).maps());
                }
            }
            return t;
        }
        MapGroup maps = pid == tid || pid == -1 ? new MapGroup() : findOrCreateThread(pid, pid).maps();
        t = new PerfThread(pid, tid, maps);
        threads.put(tid, t);
        return t;
    }

    /** Every thread, in no particular order. */
    public List<PerfThread> threads() {
        return threads.values();
    }

    public PerfThread thread(int tid) {
        return threads.get(tid);
    }

    public void comm(int pid, int tid, String comm) {
        findOrCreateThread(pid, tid).setComm(comm);
    }

    /** perf's machine__process_fork_event. */
    public void fork(int pid, int ppid, int tid, int ptid, int misc) {
        PerfThread parent = findOrCreateThread(ppid, ptid);
        if (parent.pid() != ppid) {
            threads.remove(parent.tid());
            parent = findOrCreateThread(ppid, ptid);
        }
        threads.remove(tid);
        PerfThread child = findOrCreateThread(pid, tid);
        if (parent.commSet()) {
            child.setComm(parent.comm());
        }
        child.setPpid(parent.tid());
        if (child.pid() != parent.pid() && child.maps() != parent.maps() && (misc & PerfRecord.PERF_RECORD_MISC_FORK_EXEC) == 0) {
            child.setMaps(parent.maps().copy());
        }
    }

    /**
     * MMAP (prot = exec unless misc says data) and MMAP2; {@code flags} and {@code ino} are kept
     * for report --mmaps.
     */
    public void mmap(int pid, int tid, long start, long len, long pgoff, String filename, int prot, int flags, long ino,
            int cpumode, byte[] buildId) {
        long end = start + len;
        if (cpumode == PERF_RECORD_MISC_KERNEL || (pid == -1 && cpumode != PERF_RECORD_MISC_USER)) {
            kernelMmap(start, end, pgoff, filename);
            return;
        }
        PerfThread t = findOrCreateThread(pid, tid);
        boolean anon = filename.equals("//anon") || filename.startsWith("/dev/zero") || filename.startsWith("/anon_hugepage");
        boolean noDso = filename.startsWith("[stack") || filename.startsWith("/SYSV") || filename.equals("[heap]");
        Dso dso;
        boolean identity = false;
        if ((anon || noDso) && (prot & PROT_EXEC) != 0) {
            dso = resolver.dso(resolver.options().perfMapDir().resolve("perf-" + pid + ".map").toString(), Dso.Kind.PERF_MAP);
            identity = true;
        } else if (anon || noDso) {
            dso = resolver.dso(filename, Dso.Kind.NO_DSO);
            identity = true;
        } else {
            dso = resolver.dso(filename, kindOf(filename));
            if (dso.kind() == Dso.Kind.VDSO) {
                // perf's map__new: a vdso map's pgoff is 0 whatever the record says (kernels of the
                // 3.x era wrote the map's address there)
                pgoff = 0;
            }
        }
        if (buildId != null) {
            dso.setBuildId(buildId);
        }
        t.maps().insertReplacing(new Mapping(start, end, pgoff, dso, identity, false, prot, flags, ino));
    }

    private static Dso.Kind kindOf(String filename) {
        if (filename.equals("[vdso]")) {
            return Dso.Kind.VDSO;
        }
        if (filename.startsWith(SymbolResolver.KERNEL_NAME)) {
            return Dso.Kind.KERNEL;
        }
        if (filename.startsWith("[")) {
            return Dso.Kind.NO_DSO;
        }
        return SymbolResolver.isKernelModulePath(filename) ? Dso.Kind.KERNEL_MODULE : Dso.Kind.USER;
    }

    private void kernelMmap(long start, long end, long pgoff, String filename) {
        if (filename.startsWith(SymbolResolver.KERNEL_NAME) || filename.startsWith("[guest.kernel.kallsyms")) {
            Dso k = resolver.dso(SymbolResolver.KERNEL_NAME, Dso.Kind.KERNEL);
            if (kernelMap != null) {
                kernelMaps.remove(kernelMap);
            }
            long lo = start;
            long hi = start == 0 && end == 0 ? -1L : end;
            Kallsyms ks = resolver.kallsyms(k.buildId());
            long delta = 0;
            if (ks != null && ks.kernel().size() > 0) {
                delta = kaslrDelta(ks, filename, pgoff);
                // perf's map__fixup_start/end after loading kallsyms: the map spans the symbols
                // (init text and data beyond _etext included), in the recording's addresses
                lo = ks.kernel().start(0) - delta;
                hi = ks.kernel().end(ks.kernel().size() - 1) - delta;
            }
            kernelMap = delta == 0 ? new Mapping(lo, hi, 0, k, true, true) : new Mapping(lo, hi, lo + delta, k, false, true);
            kernelMaps.insert(kernelMap);
            createModuleMaps();
            return;
        }
        if (filename.startsWith("/")) {
            Dso d = moduleDso(SymbolResolver.kmodName(filename));
            // the recording's own module map wins over one guessed from kallsyms
            for (Mapping guessed : List.copyOf(kallsymsModuleMaps)) {
                if (Long.compareUnsigned(guessed.start(), end) < 0 && Long.compareUnsigned(start, guessed.end()) < 0) {
                    kernelMaps.remove(guessed);
                    kallsymsModuleMaps.remove(guessed);
                }
            }
            kernelMaps.insert(new Mapping(start, end, 0, d, true, true));
        }
    }

    /**
     * KASLR: the kernel MMAP's pgoff is where the recording's kernel had its reference symbol
     * ("[kernel.kallsyms]_text": _text); a kallsyms file from another boot has it elsewhere, and
     * every kernel symbol is off by the same amount (perf's kallsyms__delta).
     */
    private static long kaslrDelta(Kallsyms ks, String filename, long pgoff) {
        String ref = filename.startsWith(SymbolResolver.KERNEL_NAME) ? filename.substring(SymbolResolver.KERNEL_NAME.length()) : "";
        if (ref.isEmpty() || pgoff == 0) {
            return 0;
        }
        Long at = ks.refSymbol(ref);
        return at == null ? 0 : at - pgoff;
    }

    /**
     * The DSO of module {@code mod} ("[name]"): perf finds the one it made for the build-id table's
     * entry of that module (named by the entry's path, so perf script prints the path) by short
     * name, else it makes one named {@code mod}.
     */
    private Dso moduleDso(String mod) {
        for (String f : buildIds.keySet()) {
            if (SymbolResolver.isKernelModulePath(f) && SymbolResolver.kmodName(f).equals(mod)) {
                return resolver.dso(f, Dso.Kind.KERNEL_MODULE);
            }
        }
        return resolver.dso(mod, Dso.Kind.KERNEL_MODULE);
    }

    /** Module maps from the kallsyms in use (perf takes them from /proc/modules; offline, kallsyms is what we have). */
    private void createModuleMaps() {
        if (modulesCreated) {
            return;
        }
        modulesCreated = true;
        Dso k = resolver.dso(SymbolResolver.KERNEL_NAME, Dso.Kind.KERNEL);
        Kallsyms ks = resolver.kallsyms(k.buildId());
        if (ks == null) {
            return;
        }
        for (Map.Entry<String, SymbolTable> e : ks.modules().entrySet()) {
            String name = e.getKey();
            SymbolTable t = e.getValue();
            // [bpf]: JITed programs, trampolines and dispatchers live at the time kallsyms was read,
            // no module: the recording's KSYMBOL records map that space (perf reads modules from
            // /proc/modules, where there is no [bpf]); a map made of it would hide them
            if (name.startsWith("[__builtin__") || name.equals("[bpf]") || t.size() == 0) {
                continue;
            }
            long lo = t.start(0);
            long hi = t.end(t.size() - 1);
            if (kernelMaps.find(lo) == null) {
                Mapping m = new Mapping(lo, hi, 0, moduleDso(name), true, true);
                kernelMaps.insert(m);
                kallsymsModuleMaps.add(m);
            }
        }
    }

    /** PERF_RECORD_KSYMBOL, as machine__process_ksymbol_register/unregister. */
    public void ksymbol(long addr, int len, String name, boolean unregister) {
        Mapping m = kernelMaps.find(addr);
        if (unregister) {
            if (m != null && m != kernelMap) {
                kernelMaps.remove(m);
            }
            return;
        }
        if (m == null) {
            Dso d = resolver.newDso(name, Dso.Kind.BPF);
            m = new Mapping(addr, addr + (len & 0xffffffffL), 0, d, false, true);
            kernelMaps.insert(m);
        }
        long s = m.mapIp(m.start());
        if (m == kernelMap) {
            s = m.mapIp(addr);
        }
        m.dso().insertSymbol(new Symbol(s, s + (len & 0xffffffffL), name, Symbol.STT_FUNC, 1));
    }

    /**
     * perf's callchain walk in callee order (ORDER_CALLEE: perf script, callee-order call graphs)
     * of a chain stored callee first: the innermost {@value #PERF_MAX_STACK_DEPTH} addresses,
     * context markers switching the cpumode of what follows, an unknown marker emptying the chain
     * as perf's cursor reset does. The chain's {@code nr} entries are {@code ips}, or when that is
     * null the u64s at {@code at} in {@code src}. Stores the frames caller first into {@code out}
     * and returns how many, or -1 when the chain has no more than that many addresses: then the
     * caller-order walk keeps the same ones and there is nothing to cut.
     */
    public int calleeCut(PerfThread thread, ByteSource src, long at, long[] ips, int nr, Frame[] out) {
        return calleeCut(thread, src, at, ips, nr, out, PERF_MAX_STACK_DEPTH);
    }

    /** {@link #calleeCut} keeping the innermost {@code maxStack} addresses (perf's --max-stack). */
    public int calleeCut(PerfThread thread, ByteSource src, long at, long[] ips, int nr, Frame[] out, int maxStack) {
        int entries = 0;
        for (int i = 0; i < nr; i++) {
            entries += SampleRecord.isContextMarker(ips != null ? ips[i] : src.u64(at + 8L * i)) ? 0 : 1;
        }
        if (entries <= maxStack) {
            return -1;
        }
        Frame[] callee = new Frame[maxStack];
        int k = 0;
        int cpumode = PERF_RECORD_MISC_USER;
        for (int i = 0; i < nr && k < maxStack; i++) {
            long ip = ips != null ? ips[i] : src.u64(at + 8L * i);
            if (SampleRecord.isContextMarker(ip)) {
                cpumode = SampleRecord.cpumodeAfter(ip);
                if (cpumode < 0) {
                    k = 0;
                    break;
                }
                continue;
            }
            callee[k++] = resolve(thread, cpumode, ip);
        }
        for (int i = 0; i < k; i++) {
            out[i] = callee[k - 1 - i];
        }
        return k;
    }

    /**
     * perf's thread__resolve_callchain_unwind: the user frames of a sample unwound from its
     * registers and stack copy (a {@link UserStack} located in {@code src}), innermost first into
     * {@link #unwound()}: at most {@value #PERF_MAX_STACK_DEPTH} addresses, each with its inlined
     * functions' frames unless --no-inline; none when the sample has no registers or an empty copy
     * (perf's "nothing was captured"). Returns how many frames.
     */
    public int unwindUser(PerfThread thread, ByteSource src, UserStack us) {
        return unwindUser(thread, src, us, PERF_MAX_STACK_DEPTH);
    }

    /**
     * {@link #unwindUser} keeping at most {@code maxStack} addresses, counted from the interrupted
     * pc: perf's get_entries stops its unwind at --max-stack, the pc alone at 1, nothing at 0.
     */
    public int unwindUser(PerfThread thread, ByteSource src, UserStack us, int maxStack) {
        if (us.abi == 0 || us.stackSize == 0) {
            return 0;
        }
        unwindMaps = thread.maps();
        if (unwound.length < maxStack) {
            unwound = new long[maxStack];
        }
        int n = unwinder.unwind(src, us.regsAt, us.mask, us.stackAt, us.stackSize, unwindModules, unwound, maxStack);
        int k = 0;
        Frame[] out = userOut;
        for (int i = 0; i < n; i++) {
            // perf's unwind entry(): skips a 0 address
            if (unwound[i] == 0) {
                continue;
            }
            Frame f = resolve(thread, PERF_RECORD_MISC_USER, unwound[i]);
            Frame[] in = resolver.options().inline() ? inlines(f) : null;
            int add = in == null ? 1 : in.length;
            if (k + add + (n - 1 - i) > out.length) {
                out = userOut = Arrays.copyOf(out, 2 * (k + add + n));
            }
            if (in == null) {
                out[k++] = f;
            } else {
                System.arraycopy(in, 0, out, k, add);
                k += add;
            }
        }
        return k;
    }

    /** The frames of the last {@link #unwindUser}, innermost first. */
    public Frame[] unwound() {
        return userOut;
    }

    /**
     * perf's append_inlines: the frames addr2line's inline chain gives in {@code f}'s place (a
     * frame per record at the same address, innermost first, with the record's srcline), or null
     * when it gives none (no symbol, no DSO, no record): then the frame stays. Cached on the frame, i.e. per mapping and
     * address; the chain itself per DSO and address in its {@link SourceLines}.
     */
    private Frame[] inlines(Frame f) {
        Frame[] in = f.inlines;
        if (in != null) {
            return in.length == 0 ? null : in;
        }
        Symbol sym = f.symbol();
        Dso dso = f.dso();
        SourceLines lines = dso == null ? null : dso.sourceLines();
        SourceLines.Inlines records = sym == null || lines == null ? null : lines.inlines(dso, f.addr(), sym);
        if (records == null) {
            f.inlines = NO_FRAMES;
            return null;
        }
        Symbol[] syms = records.symbols();
        in = new Frame[syms.length];
        for (int i = 0; i < syms.length; i++) {
            Symbol s = syms[i];
            int key = s == sym ? f.symbolKey()
                    : inlinedKeys.computeIfAbsent(new InlinedId(f.dsoKey(), s.name(), s.start(), s.end()), k -> nextSymbolKey++);
            in[i] = new Frame(f.ip(), f.addr(), f.map(), s, f.level(), f.dsoKey(), key, records.srclines()[i]);
        }
        f.inlines = in;
        return in;
    }

    private static final Frame[] NO_FRAMES = new Frame[0];

    /**
     * Resolves one address as perf's thread__find_symbol: kernel addresses in the kernel address
     * space, user ones in the thread's. Cached per (mapping, address).
     */
    public Frame resolve(PerfThread thread, int cpumode, long ip) {
        MapGroup maps;
        char level;
        switch (cpumode & PERF_RECORD_MISC_CPUMODE_MASK) {
            case PERF_RECORD_MISC_KERNEL -> {
                maps = kernelMaps;
                level = 'k';
            }
            case PERF_RECORD_MISC_USER -> {
                maps = thread.maps();
                level = '.';
            }
            default -> {
                return new Frame(ip, ip, null, null, 'H');
            }
        }
        Mapping m = maps.find(ip);
        Frame f = m == null ? null : m.cachedFrame(ip);
        if (f != null) {
            // resolved before (the BPF_PROG_INFO fallback keeps a mapping with a cached frame)
            return f;
        }
        if (level == 'k' && (m == null || m == kernelMap)) {
            m = bpfProgInfoFallback(ip, m);
        }
        if (m == null) {
            return new Frame(ip, ip, null, null, level);
        }
        f = m.cachedFrame(ip);
        if (f == null) {
            long addr = m.mapIp(ip);
            Symbol sym = resolver.find(m.dso(), addr);
            if (sym == null && m.dso().kind() == Dso.Kind.KERNEL_MODULE) {
                // perf's module maps are relative (map__map_ip), its module symbols too: an address
                // no symbol names is the offset into the module's map
                addr = ip - m.start();
            }
            int dk = dsoKeys.computeIfAbsent(m.dso().shortName(), k -> dsoKeys.size());
            int sk = sym == null ? -1
                    : symbolKeys.computeIfAbsent(new SymbolId(dk, sym.start(), sym.end()), k -> nextSymbolKey++);
            f = new Frame(ip, addr, m, sym, level, dk, sk);
            m.cacheFrame(ip, f);
        }
        return f;
    }

    /**
     * A kernel address in JITed BPF code that no KSYMBOL named (no mapping, or the kernel map
     * without a symbol there): the function from HEADER_BPF_PROG_INFO is registered as its
     * KSYMBOL would have been, with perf's synthesized name.
     */
    private Mapping bpfProgInfoFallback(long ip, Mapping m) {
        if (bpfProgs == null) {
            try {
                bpfProgs = bpfProgSource.get();
            } catch (RuntimeException e) {
                // a malformed BPF_PROG_INFO names nothing; the rest of the report stands
                bpfProgs = BpfProgSymbols.EMPTY;
            }
        }
        if (bpfProgs.size() == 0) {
            return m;
        }
        BpfProgSymbols.JitedFunction fn = bpfProgs.find(ip);
        if (fn == null || (m != null && (m.cachedFrame(ip) != null || resolver.find(m.dso(), m.mapIp(ip)) != null))) {
            return m;
        }
        ksymbol(fn.start(), (int) fn.len(), fn.name(), false);
        return kernelMaps.find(ip);
    }

    /**
     * perf's thread__find_cpumode_addr_location: the address in the user, then the kernel address
     * space; level 'H' and no map when neither maps it (the guest modes, last tried, fail on a host).
     */
    public Frame resolveAnyMode(PerfThread thread, long ip) {
        Frame f = resolve(thread, PERF_RECORD_MISC_USER, ip);
        if (f.map() != null) {
            return f;
        }
        f = resolve(thread, PERF_RECORD_MISC_KERNEL, ip);
        return f.map() != null ? f : new Frame(ip, ip, null, null, 'H');
    }

    static boolean isGuest(int cpumode) {
        return cpumode == PERF_RECORD_MISC_GUEST_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_USER;
    }
}
