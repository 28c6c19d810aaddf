package dev.jperf.cli;

import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import dev.jperf.cli.options.UsageException;
import dev.jperf.format.BuildIdDir;
import dev.jperf.format.PerfDataFile;
import dev.jperf.format.feature.BuildIds;
import dev.jperf.recorder.BuildIdCache;
import dev.jperf.report.header.BuildIdList;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code jperf buildid-cache}: perf's build-id cache ({@code --buildid-dir}, else
 * $PERF_BUILDID_DIR, else ~/.debug) managed as perf buildid-cache does: add (-a) or update (-u)
 * files, remove them (-r), purge a path's every entry (-p) or the whole cache (-P), list it (-l),
 * and list a recording's DSOs missing from it (-M). Messages on stderr in perf's words (-v for
 * each file's), exit 0 as perf's.
 */
final class BuildidCacheCommand implements Subcommand {
    private Set<String> add;
    private Set<String> update;
    private Set<String> remove;
    private Set<String> purge;
    private boolean purgeAll;
    private boolean list;
    private String missing;
    private boolean verbose;
    private Path buildIdDir;

    @Override
    public String name() {
        return "buildid-cache";
    }

    @Override
    public String summary() {
        return "Manage the build-id cache";
    }

    @Override
    public Options options() {
        return new Options("jperf buildid-cache [<options>]")
                .value('a', "add", "file list", "file(s) to add")
                .flag('f', "force", "don't complain, do it")
                .flag('l', "list", "list all cached files")
                .value('M', "missing", "file", "to find missing build ids in the cache")
                .value('p', "purge", "file list", "file(s) to remove (remove old caches too)")
                .flag('P', "purge-all", "purge all cached files")
                .value('r', "remove", "file list", "file(s) to remove")
                .value('u', "update", "file list", "file(s) to update")
                .flag('v', "verbose", "be more verbose")
                .value('\0', "buildid-dir", "dir", "the build-id cache (default: $PERF_BUILDID_DIR, else ~/.debug)");
    }

    @Override
    public void buildIdDir(Path dir) {
        buildIdDir = dir;
    }

    /** The lists as perf's strlist keeps them: sorted, each file once. */
    @Override
    public void set(String name, OptionValue v) {
        switch (name) {
            case "add" -> add = new TreeSet<>(CommaList.strings(v.text()));
            case "update" -> update = new TreeSet<>(CommaList.strings(v.text()));
            case "remove" -> remove = new TreeSet<>(CommaList.strings(v.text()));
            case "purge" -> purge = new TreeSet<>(CommaList.strings(v.text()));
            case "purge-all" -> purgeAll = v.on();
            case "list" -> list = v.on();
            case "missing" -> missing = v.text();
            case "verbose" -> verbose = v.on();
            case "force" -> {
                // perf's check of a perf.data's owner (-M): jperf reads any file it can open
            }
            case "buildid-dir" -> buildIdDir = Path.of(v.text());
            default -> throw new IllegalStateException("option not handled: " + name);
        }
    }

    @Override
    public int call() throws IOException {
        BuildIdCache cache = BuildIdCache.at(BuildIdDir.resolve(buildIdDir));
        PrintStream err = System.err;
        // builtin-buildid-cache.c's order: add, remove, purge, purge-all, missing, update, list
        if (add != null) {
            for (String f : add) {
                addOrUpdate(cache, f, false, err);
            }
        }
        if (remove != null) {
            for (String f : remove) {
                Optional<String> bid = readBuildId(f, err);
                if (bid.isPresent() && cache.remove(bid.get()) && verbose) {
                    err.println("Removing " + bid.get() + " " + f + ": Ok");
                }
            }
        }
        if (purge != null) {
            for (String f : purge) {
                String real;
                try {
                    real = Path.of(f).toRealPath().toString();
                } catch (NoSuchFileException e) {
                    real = f;
                }
                for (String bid : cache.buildIdsOf(real)) {
                    if (cache.remove(bid) && verbose) {
                        err.println("Removing " + bid + " " + f + ": Ok");
                    }
                }
                if (verbose) {
                    err.println("Purging " + f + ": Ok");
                }
            }
        }
        if (purgeAll) {
            for (BuildIdCache.Cached c : cache.list()) {
                if (cache.remove(c.buildId()) && verbose) {
                    err.println("Removing " + c.name() + " (" + c.buildId() + "): Ok");
                }
            }
            if (verbose) {
                err.println("Purged all: Ok");
            }
        }
        PrintStream out = Input.stdout();
        if (missing != null) {
            try (PerfDataFile file = PerfDataFile.open(Path.of(missing))) {
                for (BuildIds.Entry e : BuildIdList.entries(file)) {
                    if (!cache.cached(e.buildIdHex())) {
                        out.println(BuildIdList.line(e));
                    }
                }
            }
        }
        if (update != null) {
            for (String f : update) {
                addOrUpdate(cache, f, true, err);
            }
        }
        if (list) {
            for (BuildIdCache.Cached c : cache.list()) {
                out.println(c.buildId() + " " + c.name());
            }
        }
        if (add == null && update == null && remove == null && purge == null && !purgeAll && !list && missing == null) {
            throw new UsageException("no operation: give -a, -u, -r, -p, -P, -l or -M");
        }
        out.flush();
        err.flush();
        return 0;
    }

    /** -a / -u of one file: perf's messages, a failure one line and no error exit. */
    private void addOrUpdate(BuildIdCache cache, String f, boolean update, PrintStream err) {
        try {
            Optional<String> bid = cache.add(Path.of(f), update);
            if (bid.isEmpty()) {
                err.println("Couldn't " + (update ? "update " : "add ") + f + ": no build-id in it");
            } else if (verbose) {
                err.println((update ? "Updating " : "Adding ") + bid.get() + " " + f + ": Ok");
            }
        } catch (NoSuchFileException e) {
            err.println("Couldn't " + (update ? "update " : "add ") + f + ": No such file or directory");
        } catch (IOException e) {
            err.println("Couldn't " + (update ? "update " : "add ") + f + ": " + e.getMessage());
        }
    }

    /** A file's build-id for -r; a file that cannot be read is one line, as perf's. */
    private static Optional<String> readBuildId(String f, PrintStream err) {
        try {
            return BuildIdCache.buildIdOf(Path.of(f));
        } catch (NoSuchFileException e) {
            err.println("Couldn't remove " + f + ": No such file or directory");
        } catch (IOException e) {
            err.println("Couldn't remove " + f + ": " + e.getMessage());
        }
        return Optional.empty();
    }
}
