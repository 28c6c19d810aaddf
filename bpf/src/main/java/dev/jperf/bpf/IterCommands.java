package dev.jperf.bpf;

import dev.jperf.loader.BpfObject;
import dev.jperf.loader.BpfObjectException;
import dev.jperf.loader.BpfProgram;
import dev.jperf.loader.LoadOptions;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code bpftool iter pin OBJ PATH [map MAP]} (iter.c of bpftool 7.1): the object loaded with
 * jperf's loader, its first program attached as an iterator (over the map, if one is named) and
 * the link pinned at PATH, where reading the file runs the iterator; everything else unloads
 * when the command exits, the pin keeping the link and its program.
 */
public final class IterCommands {
    private final KernelObjects kernel = new KernelObjects();
    private final Output o;
    private final PrintStream err;

    /** {@code err} takes libbpf's lines that bpftool prints before its error. */
    public IterCommands(Output o, PrintStream err) {
        this.o = o;
        this.err = err;
    }

    /** do_pin. */
    public void pin(String verb, List<String> args) {
        if (args.size() < 2) {
            // REQ_ARGS's error, then usage(): iter's help on stderr (no JSON null), exit 255
            reportNow("'" + verb + "' needs at least 2 arguments, " + args.size() + " found");
            throw BpftoolException.quiet("usage");
        }
        String objfile = args.get(0);
        String path = args.get(1);
        int mapFd = -1;
        if (args.size() > 2 && "map".startsWith(args.get(2))) {
            List<String> spec = args.subList(3, args.size());
            if (spec.size() < 2) {
                reportNow("'" + args.get(2) + "' needs at least 2 arguments, " + spec.size() + " found");
                throw new BpftoolException("incorrect map spec");
            }
            mapFd = new MapElemCommands(o).openOne(BpfHandle.parse(spec, 0, "map"));
        }
        try (BpfObject obj = open(objfile)) {
            try {
                obj.load(LoadOptions.DEFAULT);
            } catch (BpfObjectException e) {
                err.println("libbpf: " + e.getMessage());
                throw new BpftoolException("can't load objfile " + objfile, false, -(e.errno() != 0 ? e.errno() : Errno.EINVAL));
            }
            for (BpfProgram p : obj.programs()) {
                if (p.autoload() && p.fd() < 0) {
                    err.println("libbpf: prog '" + p.name() + "': failed to load: " + p.error());
                    throw new BpftoolException("can't load objfile " + objfile, false,
                            -(p.errno() != 0 ? p.errno() : Errno.EINVAL));
                }
            }
            if (obj.programs().isEmpty()) {
                throw new BpftoolException("can't find bpf program in objfile " + objfile, false, -Errno.ENOENT);
            }
            BpfProgram prog = obj.programs().get(0);
            int link = kernel.bpf.iterLinkCreate(prog.fd(), mapFd);
            if (link < 0) {
                err.println("libbpf: prog '" + prog.name() + "': failed to attach to iterator: " + Errno.text(-link));
                throw new BpftoolException("attach_iter failed for program " + prog.name(), false, link);
            }
            try {
                Bpffs.mountForPin(path);
                int e = pinLink(link, path);
                if (e < 0) {
                    throw new BpftoolException("pin_iter failed for program " + prog.name() + " to path " + path, false, e);
                }
            } finally {
                Fd.close(link);
            }
        } finally {
            Fd.close(mapFd);
        }
    }

    /** libbpf's bpf_link__pin: the parent directory made, which must be in a bpf file system; 0 or -errno. */
    private int pinLink(int link, String path) {
        String dir = KernelObjects.dirname(path);
        java.io.File d = new java.io.File(dir);
        if (!d.exists() && !d.mkdir()) {
            err.println("libbpf: failed to mkdir " + path + ": " + Errno.text(Errno.EACCES));
            return -Errno.EACCES;
        }
        if (!Bpffs.isBpffs(dir)) {
            err.println("libbpf: specified path " + path + " is not on BPF FS");
            return -Errno.EINVAL;
        }
        return kernel.bpf.objPin(link, path);
    }

    private BpfObject open(String file) {
        // libbpf's open(2) of the file says why it cannot be read (bpffs answers EPERM for a missing name)
        int fd = Fd.open(file, Fd.O_RDONLY);
        if (fd < 0) {
            err.println("libbpf: elf: failed to open " + file + ": " + Errno.text(-fd));
            throw new BpftoolException("can't open objfile " + file, false, fd);
        }
        Fd.close(fd);
        try {
            return BpfObject.open(Path.of(file));
        } catch (BpfObjectException e) {
            err.println("libbpf: " + e.getMessage());
            throw new BpftoolException("can't open objfile " + file, false, -(e.errno() != 0 ? e.errno() : Errno.EINVAL));
        } catch (RuntimeException e) {
            err.println("libbpf: " + e.getMessage());
            throw new BpftoolException("can't open objfile " + file, false, -Errno.EINVAL);
        }
    }

    /** A p_err the command goes on after. */
    private void reportNow(String message) {
        if (o.json()) {
            o.error(message);
        } else {
            err.println("Error: " + message);
        }
    }
}
