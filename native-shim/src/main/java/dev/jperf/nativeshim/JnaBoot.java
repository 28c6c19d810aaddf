package dev.jperf.nativeshim;

import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

/**
 * Where JNA loads its native dispatch library from, and where it looks for others (see
 * {@link #platformLibraryPath}). Left alone, JNA copies the library out of the
 * jar into a new temporary file on every start, and {@code File.createTempFile} initialises
 * SecureRandom and the security providers: tens of milliseconds of interpreted start-up in every
 * recording. Instead the library is copied once into the user's cache directory (owner-only),
 * named by its version and platform, and JNA is pointed there (it checks the version it loads). Must run before any JNA class loads the
 * library; on any problem JNA's own way is left in place.
 */
public final class JnaBoot {
    static final String BOOT_PATH = "jna.boot.library.path";
    static final String PLATFORM_PATH = "jna.platform.library.path";
    static final String NO_UNPACK = "jna.nounpack";

    private JnaBoot() {
    }

    public static void prepare() {
        platformLibraryPath();
        if (System.getProperty(BOOT_PATH) != null) {
            return;
        }
        try {
            Path cache = cacheDir();
            if (cache == null) {
                return;
            }
            // keyed by the native library's version (a constant: Native is not initialised) and
            // platform, so that a start with the copy in place looks neither into the jar nor up a
            // user name
            String file = System.mapLibraryName("jnidispatch");
            Path dir = cache.resolve("jna-" + Native.VERSION_NATIVE + "-" + Platform.RESOURCE_PREFIX);
            Path lib = dir.resolve(file);
            if (!Files.isRegularFile(lib)) {
                try (InputStream in = JnaBoot.class.getClassLoader()
                        .getResourceAsStream("com/sun/jna/" + Platform.RESOURCE_PREFIX + "/" + file)) {
                    if (in == null) {
                        return;
                    }
                    Files.createDirectories(dir);
                    if (!ownedAndPrivate(dir)) {
                        return;
                    }
                    Path tmp = dir.resolve(file + "." + ProcessHandle.current().pid() + ".tmp");
                    Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                    Files.move(tmp, lib, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                }
            } else if (!ownedAndPrivate(dir)) {
                return;
            }
            System.setProperty(BOOT_PATH, dir.toString());
            // nothing of JNA's is unpacked then: it need not scan the temporary directory for
            // stale copies either (removeTemporaryFiles, ~2 ms)
            System.setProperty(NO_UNPACK, "true");
        } catch (IOException | RuntimeException e) {
            // JNA extracts the library itself, as it always does
        }
    }

    /**
     * Left unset, JNA's NativeLibrary computes its search path when first used, and on Linux that
     * runs {@code /sbin/ldconfig -p} in a child process (its CPU is the recorder's too). The only
     * library loaded here is libc by its versioned name, which the dynamic linker finds on its
     * own: the standard directories that exist are path enough.
     */
    static void platformLibraryPath() {
        if (System.getProperty(PLATFORM_PATH) != null) {
            return;
        }
        StringBuilder b = new StringBuilder();
        for (String dir : new String[] {"/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
                "/lib/aarch64-linux-gnu", "/usr/lib64", "/lib64", "/usr/lib", "/lib"}) {
            if (new File(dir).isDirectory()) {
                b.append(b.length() == 0 ? "" : File.pathSeparator).append(dir);
            }
        }
        System.setProperty(PLATFORM_PATH, b.toString());
    }

    /** jperf's cache: $XDG_CACHE_HOME/jperf or ~/.cache/jperf, created owner-only; null without a home. */
    public static Path cacheDir() throws IOException {
        String xdg = System.getenv("XDG_CACHE_HOME");
        String home = System.getProperty("user.home");
        Path base = xdg != null && xdg.startsWith("/") ? Path.of(xdg) : home == null || home.equals("?") ? null
                : Path.of(home, ".cache");
        if (base == null) {
            return null;
        }
        Path dir = base.resolve("jperf");
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        return ownedAndPrivate(dir) ? dir : null;
    }

    /**
     * A library is loaded from here by root too: the directory itself (not a link) must be ours
     * and writable by nobody else. Numeric ids: resolving a user name costs an NSS lookup.
     */
    private static boolean ownedAndPrivate(Path dir) throws IOException {
        Map<String, Object> a = Files.readAttributes(dir, "unix:uid,mode", LinkOption.NOFOLLOW_LINKS);
        int mode = (Integer) a.get("mode");
        // /proc/self belongs to the process's effective uid
        Object self = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        return a.get("uid").equals(self) && (mode & 0_170000) == 0_040000 && (mode & 0_022) == 0;
    }
}
