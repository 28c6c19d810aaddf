package dev.jperf.bpf;

import dev.jperf.loader.BpfMap;
import dev.jperf.loader.BpfObject;
import dev.jperf.loader.BpfObjectException;
import dev.jperf.loader.BpfProgram;
import dev.jperf.loader.LoadOptions;
import dev.jperf.loader.SectionDef;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code bpftool prog load|loadall OBJ PATH [map {idx IDX | name NAME} MAP]... [pinmaps DIR]}
 * (prog.c's load_with_options over libbpf 1.1) with jperf's loader: the whole object loaded,
 * then the first program pinned at PATH ({@code load}) or every program at PATH/NAME
 * ({@code loadall}, libbpf's bpf_object__pin_programs), the maps at DIR/NAME with dots made
 * underscores (bpf_object__pin_maps). As with libbpf, one program refused fails the command and
 * nothing stays loaded. {@code type T} loads every program as T (libbpf's section names, T or
 * T/); {@code dev} is refused: the loader offloads nothing.
 */
public final class ProgLoadCommands {
    /**
     * What bpftool 7.1 (Linux 6.1) says after a failure once the object is open (err_close_obj):
     * its text, then p_info's newline.
     */
    private static final String STRICT_MODE = "Warning: bpftool is now running in libbpf strict mode and has more"
            + " stringent requirements about BPF programs.\nIf it used to work for this object file but now doesn't,"
            + " see --legacy option for more details.\n\n";

    private final KernelObjects kernel = new KernelObjects();
    private final Output o;
    private final PrintStream err;

    /** {@code err} takes what libbpf would warn about before bpftool's error line. */
    public ProgLoadCommands(Output output, PrintStream err) {
        this.o = output;
        this.err = err;
    }

    /** One {@code map idx|name ... MAP}: which map of the object, and the fd it reuses. */
    private static final class Replace {
        int idx;
        final String name;
        final int fd;

        Replace(int idx, String name, int fd) {
            this.idx = idx;
            this.name = name;
            this.fd = fd;
        }
    }

    /** load_with_options: {@code firstOnly} for {@code load}, else {@code loadall}. */
    public void load(List<String> args, boolean firstOnly) {
        PinCommands.require(args, 2, firstOnly ? "load" : "loadall");
        String file = args.get(0);
        String pinfile = args.get(1);
        String pinmaps = null;
        SectionDef common = null;
        List<Replace> replace = new ArrayList<>();
        try {
            int i = 2;
            while (i < args.size()) {
                String w = args.get(i);
                if ("type".startsWith(w)) {
                    if (common != null) {
                        throw new BpftoolException("program type already specified");
                    }
                    PinCommands.require(args.subList(i + 1, args.size()), 1, w);
                    common = programType(args.get(i + 1));
                    i += 2;
                } else if ("dev".startsWith(w)) {
                    throw new BpftoolException("'dev' is not supported by jperf: its loader offloads nothing");
                } else if ("map".startsWith(w)) {
                    PinCommands.require(args.subList(i + 1, args.size()), 4, w);
                    String kind = args.get(i + 1);
                    String what = args.get(i + 2);
                    int idx;
                    String name;
                    if ("idx".startsWith(kind)) {
                        Long v = MapElemCommands.strtoul(what, 0);
                        if (v == null) {
                            throw new BpftoolException("can't parse " + what + " as IDX");
                        }
                        idx = (int) (long) v;
                        name = null;
                    } else if ("name".startsWith(kind)) {
                        idx = -1;
                        name = what;
                    } else {
                        throw new BpftoolException("expected 'idx' or 'name', got: '" + kind + "'?");
                    }
                    int fd = new MapElemCommands(o).openOne(BpfHandle.parse(args, i + 3, "map"));
                    replace.add(new Replace(idx, name, fd));
                    i += 5;
                } else if ("pinmaps".startsWith(w)) {
                    PinCommands.require(args.subList(i + 1, args.size()), 1, w);
                    pinmaps = args.get(i + 1);
                    i += 2;
                } else {
                    throw new BpftoolException("expected no more arguments, 'type', 'map' or 'dev', got: '" + w + "'?");
                }
            }
            try (BpfObject obj = open(file)) {
                for (BpfProgram p : obj.programs()) {
                    SectionDef d = common;
                    if (d == null && (d = p.sectionDef()) == null) {
                        // get_prog_type_by_name: libbpf's debug lines, no error of bpftool's own
                        err.println("libbpf: failed to guess program type from ELF section '" + p.sectionName() + "'");
                        throw BpftoolException.quiet("no program type for section " + p.sectionName());
                    }
                    p.setType(d.progType(), d.expectedAttachType());
                }
                pin(obj, replace, pinfile, pinmaps, firstOnly);
            } catch (BpftoolException e) {
                throw e.getMessage().equals("failed to open object file") ? e : e.withInfo(STRICT_MODE);
            }
        } finally {
            for (Replace r : replace) {
                Fd.close(r.fd);
            }
        }
        if (o.json()) {
            o.jw().nul();
        }
    }

    /** The open object's maps replaced, the object loaded, its programs (and maps) pinned. */
    private void pin(BpfObject obj, List<Replace> replace, String pinfile, String pinmaps, boolean firstOnly) {
        reuse(obj, replace);
        try {
            obj.load(LoadOptions.DEFAULT);
        } catch (BpfObjectException e) {
            err.println("libbpf: " + e.getMessage());
            throw new BpftoolException("failed to load object file");
        }
        for (BpfProgram p : obj.programs()) {
            if (p.autoload() && p.fd() < 0) {
                err.println("libbpf: prog '" + p.name() + "': failed to load: " + p.error());
                throw new BpftoolException("failed to load object file");
            }
        }
        Bpffs.mountForPin(pinfile);
        List<String> pinned = new ArrayList<>();
        if (firstOnly) {
            pinFirst(obj, pinfile);
            pinned.add(pinfile);
        } else {
            pinPrograms(obj, pinfile, pinned);
        }
        if (pinmaps != null) {
            try {
                pinMaps(obj, pinmaps);
            } catch (BpftoolException e) {
                // err_unpin: the programs' pins go; the maps pinned before the failure stay, as in bpftool
                unlink(pinned);
                throw e;
            }
        }
    }

    /**
     * libbpf_prog_type_by_name of {@code type}, then of {@code type/} as bpftool retries it; a
     * name neither matches fails with libbpf's line and no error of bpftool's.
     */
    private SectionDef programType(String type) {
        SectionDef d = SectionDef.find(type);
        if (d == null) {
            d = SectionDef.find(type + "/");
        }
        if (d == null) {
            err.println("libbpf: failed to guess program type from ELF section '" + type + "/'");
            throw BpftoolException.quiet("unknown program type " + type);
        }
        return d;
    }

    private BpfObject open(String file) {
        try {
            return BpfObject.open(Path.of(file));
        } catch (BpfObjectException | RuntimeException e) {
            err.println("libbpf: " + e.getMessage());
            throw new BpftoolException("failed to open object file");
        }
    }

    /** The {@code map} replacements, sorted and resolved as load_with_options does. */
    private void reuse(BpfObject obj, List<Replace> replace) {
        replace.sort((a, b) -> Integer.compare(a.idx, b.idx));
        List<BpfMap> maps = obj.maps();
        for (Replace r : replace) {
            if (r.name == null) {
                continue;
            }
            for (int i = 0; i < maps.size(); i++) {
                if (maps.get(i).name().equals(r.name)) {
                    r.idx = i;
                    break;
                }
            }
            if (r.idx == -1) {
                throw new BpftoolException("unable to find map '" + r.name + "'");
            }
        }
        replace.sort((a, b) -> Integer.compare(a.idx, b.idx));
        int j = 0;
        for (int idx = 0; idx < maps.size(); idx++) {
            if (j < replace.size() && idx == replace.get(j).idx) {
                Replace r = replace.get(j++);
                BpfMapInfo info = info(r.fd);
                try {
                    maps.get(idx).reuseFd(r.fd, info.type(), info.keySize(), info.valueSize());
                } catch (IllegalArgumentException | IllegalStateException e) {
                    err.println("libbpf: " + e.getMessage());
                    throw new BpftoolException("unable to set up map reuse: " + -Errno.EINVAL);
                }
                if (j < replace.size() && replace.get(j).idx == idx) {
                    throw new BpftoolException("replacement for map idx " + idx + " specified more than once");
                }
            }
        }
        if (j < replace.size()) {
            throw new BpftoolException("map idx '" + replace.get(j).idx + "' not used");
        }
    }

    private BpfMapInfo info(int fd) {
        try {
            return BpfMapInfo.decode(kernel.info(fd, new com.sun.jna.Memory(dev.jperf.format.bpf.BpfMapInfoLayout.SIZE),
                    dev.jperf.format.bpf.BpfMapInfoLayout.SIZE, true));
        } catch (dev.jperf.nativeshim.NativeException e) {
            throw new BpftoolException("unable to set up map reuse: " + -e.errno());
        }
    }

    /** {@code load}: the object's first program pinned at {@code pinfile}. */
    private void pinFirst(BpfObject obj, String pinfile) {
        if (obj.programs().isEmpty()) {
            throw new BpftoolException("object file doesn't contain any bpf program");
        }
        BpfProgram p = obj.programs().get(0);
        int e = p.fd() < 0 ? -Errno.EBADF : kernel.bpf.objPin(p.fd(), pinfile);
        if (e < 0) {
            throw new BpftoolException("failed to pin program " + p.sectionName());
        }
    }

    /** bpf_object__pin_programs: each at DIR/NAME; on a failure those pinned are unpinned. */
    private void pinPrograms(BpfObject obj, String dir, List<String> pinned) {
        for (BpfProgram p : obj.programs()) {
            String path = dir + "/" + p.name();
            String why = p.fd() < 0 ? "prog '" + p.name() + "': can't pin program that wasn't loaded" : prepare(path);
            if (why == null) {
                int e = kernel.bpf.objPin(p.fd(), path);
                if (e < 0) {
                    why = "prog '" + p.name() + "': failed to pin at '" + path + "': " + Errno.text(-e);
                }
            }
            if (why != null) {
                err.println("libbpf: " + why);
                unlink(pinned);
                pinned.clear();
                throw new BpftoolException("failed to pin all programs");
            }
            pinned.add(path);
        }
    }

    /** bpf_object__pin_maps(obj, DIR): every map at DIR/NAME, '.' made '_' (bpffs allows no dots). */
    private void pinMaps(BpfObject obj, String dir) {
        for (BpfMap m : obj.maps()) {
            String path = (dir + "/" + m.name()).replace('.', '_');
            String why = prepare(path);
            if (why == null) {
                int e = kernel.bpf.objPin(m.fd(), path);
                if (e < 0) {
                    why = "failed to pin map: " + Errno.text(-e);
                }
            }
            if (why != null) {
                err.println("libbpf: " + why);
                // bpf_object__pin_maps unpins only maps with a pin path of their own: none here
                throw new BpftoolException("failed to pin all maps");
            }
        }
    }

    /** make_parent_dir (mkdir 0700) and check_path: null, or what libbpf warns. */
    private static String prepare(String path) {
        Path dir = Path.of(KernelObjects.dirname(path));
        if (!Files.isDirectory(dir)) {
            try {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } catch (IOException e) {
                return "failed to mkdir " + path + ": " + e.getMessage();
            }
        }
        if (!Bpffs.isBpffs(dir.toString())) {
            return "specified path " + path + " is not on BPF FS";
        }
        return null;
    }

    private static void unlink(List<String> paths) {
        for (String p : paths) {
            try {
                Files.deleteIfExists(Path.of(p));
            } catch (IOException e) {
                // as unlink(2) failing in bpftool: nothing more to do
            }
        }
    }
}
