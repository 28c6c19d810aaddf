package dev.jperf.recorder;

import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.format.bpf.BpilArray;
import dev.jperf.loader.BpfObjInfo;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Captures bpf_prog_info (every array perf stores: 0x1f9) and BTF of BPF programs, racing their
 * unload. Capture has two steps: {@link #pin} turns a program id into an fd at once (one syscall;
 * the fd keeps the program and its BTF alive), then a fetcher thread does the slow part (two info
 * passes, BTF) and closes the fd. A program already gone at pin time counts as missed.
 *
 * <p>{@link #pin} is called by real-time side-band threads and takes no lock an ordinary thread
 * could hold: a lock holder preempted on a busy CPU would stall the pinner for a whole time slice,
 * and programs loaded meanwhile would be lost - a priority inversion. That rules out waking the fetcher
 * (LockSupport.unpark takes the parked thread's mutex) from there: the recorder's main loop, which
 * races nothing, wakes it after each pass that finds a queue not empty ({@link #wakeFetcher}); a
 * pinned program cannot go away meanwhile. It also allocates nothing: touching a fresh heap page
 * faults, and a page fault waits for the process-wide mmap lock, which any preempted JVM thread may
 * hold.
 */
final class BpfCapture {
    /** Largest program BTF blob accepted from the kernel. */
    static final long MAX_BTF_SIZE = 64L << 20;

    /**
     * How long an idle fetcher sleeps unless woken: only a backstop, {@link #wakeFetcher} wakes it.
     * Every wakeup of a thread costs CPU, several times its own while the machine is sampled.
     */
    private static final long FETCH_POLL_NS = 1_000_000_000L;
    /**
     * Enough for the JIT's default thresholds to have the pin path compiled before a storm starts
     * (an embedding JVM, the tests); each iteration is a bpf(2) call through JNA, and 2000 were
     * 7-14 ms of a recording's start. The launcher compiles the pin path after 2 calls and asks
     * for 250 ({@code -Djperf.pinWarmUp}).
     */
    static final int WARM_UP_ITERATIONS = Integer.getInteger("jperf.pinWarmUp", 2000);
    /** Pin-path iterations {@link #warmUp} has left to run in this JVM. */
    private static final AtomicInteger WARM_UP_LEFT = new AtomicInteger(WARM_UP_ITERATIONS);

    private final Bpf fetchBpf = new Bpf();
    private final IdSet seen = new IdSet();
    private final CopyOnWriteArrayList<PinQueue> queues = new CopyOnWriteArrayList<>();
    private final AtomicInteger missed = new AtomicInteger();
    private final Thread fetcher = new Thread(new Runnable() { // not a method reference: see HeaderFeatures#setStatic
        @Override
        public void run() {
            fetchLoop();
        }
    }, "jperf-bpf-fetch");
    private volatile boolean stopping;
    private final Map<Integer, BpfProgInfo> progs = new TreeMap<>();
    private final Map<Integer, byte[]> btfs = new TreeMap<>();
    private int failed;
    private String firstFailure;
    private long version;

    /**
     * Pins program {@code id} with {@code bpf} (the calling thread's own) if it was not seen
     * before, queueing it on {@code queue} (the calling thread's own, see {@link #newQueue}).
     * Returns false if it is already gone (counted as missed). Allocates nothing.
     */
    boolean pin(int id, Bpf bpf, PinQueue queue) {
        if (id == 0 || !seen.add(id)) {
            return true;
        }
        int fd = bpf.progGetFdByIdOrErrno(id);
        if (fd < 0) {
            missed.incrementAndGet();
            if (fd != -Errno.ENOENT) {
                synchronized (this) {
                    noteFailure("bpf(BPF_PROG_GET_FD_BY_ID, id " + id + ") failed: " + Errno.describe(-fd));
                }
            }
            return false;
        }
        if (!queue.offer(id, fd)) {
            Fd.close(fd);
            missed.incrementAndGet();
            return false;
        }
        return true;
    }

    /** A queue for one pinning thread; the fetcher takes from every queue made here. */
    PinQueue newQueue() {
        PinQueue q = new PinQueue();
        queues.add(q);
        return q;
    }

    /**
     * Runs the pin path on throw-away state, so that its classes are loaded and its code compiled
     * before the first real program loads: first-time costs take milliseconds, while a program
     * may live 25 us. The pinning threads share one budget of iterations (the code they warm is
     * the same) and a later recording in the same JVM finds it compiled already.
     */
    static void warmUp(Bpf bpf) {
        IdSet s = new IdSet();
        PinQueue q = new PinQueue();
        for (int i = 1; WARM_UP_LEFT.getAndDecrement() > 0; i++) {
            s.add(-i);
            s.contains(-i);
            int fd = bpf.progGetFdByIdOrErrno(-i); // ids near 2^32 are never handed out
            if (fd >= 0) {
                Fd.close(fd);
            }
            q.offer(i, -1);
            q.poll();
        }
    }

    /**
     * Why BPF programs cannot be read by id here (the kernel's answer to BPF_PROG_GET_NEXT_ID, which
     * needs CAP_SYS_ADMIN), or null when they can. Called before the fetcher starts.
     */
    String unavailable() {
        try {
            fetchBpf.progGetNextId(0);
            return null;
        } catch (NativeException e) {
            return e.getMessage();
        }
    }

    /** Whether program {@code id} has been pinned or captured already. */
    boolean seen(int id) {
        return seen.contains(id);
    }

    /** Starts fetching pinned programs in the background. */
    void startFetcher() {
        fetcher.setDaemon(true);
        fetcher.start();
    }

    /** Wakes the fetcher if a program is waiting in a queue (called by the main loop, never by a pinner). */
    void wakeFetcher() {
        for (PinQueue q : queues) {
            if (!q.isEmpty()) {
                LockSupport.unpark(fetcher);
                return;
            }
        }
    }

    /** Stops the fetcher after it has fetched everything pinned so far. */
    void stopFetcher() throws InterruptedException {
        stopping = true;
        LockSupport.unpark(fetcher);
        if (fetcher.isAlive()) {
            fetcher.join();
        }
        fetchPinned();
    }

    private void fetchLoop() {
        while (!stopping) {
            if (!fetchPinned()) {
                LockSupport.parkNanos(FETCH_POLL_NS);
            }
        }
    }

    /** Fetches info and BTF of every program pinned so far, in the calling thread; false if none. */
    boolean fetchPinned() {
        boolean any = false;
        for (PinQueue q : queues) {
            for (long v; (v = q.poll()) != -1; ) {
                fetchOne(new int[] {(int) (v >>> 32), (int) v});
                any = true;
            }
        }
        return any;
    }

    private void fetchOne(int[] p) {
        try {
            BpfProgInfo c = BpfObjInfo.progInfo(fetchBpf, p[1], BpilArray.PERF_DEFAULT_MASK);
            byte[] btf = null;
            int btfId = c.btfId();
            if (btfId != 0 && !hasBtf(btfId)) {
                btf = BpfObjInfo.btfBlob(fetchBpf, btfId, MAX_BTF_SIZE);
            }
            synchronized (this) {
                progs.putIfAbsent(c.id(), c);
                if (btf != null) {
                    btfs.putIfAbsent(btfId, btf);
                }
                version++;
            }
        } catch (NativeException e) {
            synchronized (this) {
                noteFailure(e.getMessage());
            }
        } catch (RuntimeException e) {
            synchronized (this) {
                noteFailure("program " + p[0] + ": " + e.getMessage());
            }
        } finally {
            Fd.close(p[1]);
        }
    }

    /** Adds a program already fetched elsewhere (the start-up synthesis). */
    synchronized void add(BpfProgInfo c, byte[] btf) {
        seen.add(c.id());
        progs.putIfAbsent(c.id(), c);
        if (btf != null) {
            btfs.putIfAbsent(c.btfId(), btf);
        }
        version++;
    }

    synchronized boolean hasBtf(int btfId) {
        return btfs.containsKey(btfId);
    }

    synchronized byte[] btf(int btfId) {
        return btfs.get(btfId);
    }

    private void noteFailure(String why) {
        failed++;
        if (firstFailure == null) {
            firstFailure = why;
        }
    }

    /** Programs captured, by id. */
    synchronized Map<Integer, BpfProgInfo> programs() {
        return new TreeMap<>(progs);
    }

    /** BTF blobs captured, by BTF id. */
    synchronized Map<Integer, byte[]> btfs() {
        return new TreeMap<>(btfs);
    }

    /** Changes with every capture, so the feature sections are re-encoded only when needed. */
    synchronized long version() {
        return version;
    }

    synchronized int captured() {
        return progs.size();
    }

    /** Programs seen loading but gone before they could be pinned, plus fetches that failed. */
    synchronized int missed() {
        return missed.get() + failed;
    }

    synchronized String firstFailure() {
        return firstFailure;
    }
}
