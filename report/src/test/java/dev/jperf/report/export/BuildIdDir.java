package dev.jperf.report.export;

import dev.jperf.report.CorpusFixture;
import dev.jperf.report.symbol.SymbolResolver;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * A private build-id cache laid out as perf's ({@code [vdso]/BID/vdso} and the
 * {@code .build-id/xx/rest} link perf 6.1 looks it up by) holding the corpus vdso, so that perf
 * ({@code perf --buildid-dir DIR}) and jperf name the recorded [vdso] alike and neither reads
 * {@code ~/.debug}.
 */
final class BuildIdDir {
    private BuildIdDir() {
    }

    static Path create(Path dir) throws IOException {
        Path cache = dir.resolve(".debug");
        Files.createDirectories(cache);
        try (DirectoryStream<Path> vdsos = Files.newDirectoryStream(CorpusFixture.CORPUS.resolve("vdso"), "*.so")) {
            for (Path v : vdsos) {
                String bid = v.getFileName().toString().replace(".so", "");
                Path d = cache.resolve("[vdso]").resolve(bid);
                Files.createDirectories(d);
                Files.copy(v, d.resolve("vdso"));
                Path link = cache.resolve(".build-id").resolve(bid.substring(0, 2)).resolve(bid.substring(2));
                Files.createDirectories(link.getParent());
                Files.createSymbolicLink(link, Path.of("../../[vdso]/" + bid));
            }
        }
        return cache;
    }

    /** jperf's symbol options with {@code cache} as the build-id cache. */
    static SymbolResolver.Options symbols(Path kallsyms, Path cache) {
        SymbolResolver.Options d = SymbolResolver.Options.defaults(kallsyms, null);
        return new SymbolResolver.Options(kallsyms, null, cache, d.debugDir(), d.procKallsyms(), d.kernelNotes(),
                d.perfMapDir());
    }

    /**
     * Runs {@code body} with {@code user.home} the parent of {@code cache}: the report's entry points
     * take the build-id cache from there (until they have perf's --buildid-dir).
     */
    static <T> T withHome(Path cache, Supplier<T> body) {
        String home = System.getProperty("user.home");
        System.setProperty("user.home", cache.getParent().toString());
        try {
            return body.get();
        } finally {
            System.setProperty("user.home", home);
        }
    }
}
