package dev.jperf.nativeshim;

import com.sun.jna.Platform;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Where JNA loads its native dispatch library from, and where it looks for others (see
 * {@link #platformLibraryPath}). Left alone, JNA copies the library out of the
 * jar into a new temporary file on every start, and {@code File.createTempFile} initialises
 * SecureRandom and the security providers: tens of milliseconds of interpreted start-up in every
 * recording. Instead the library is copied once into the user's cache directory (owner-only),
 * named by its CRC in the jar, and JNA is pointed there. Must run before any JNA class loads the
 * library; on any problem JNA's own way is left in place.
 */
public final class JnaBoot {
    static final String BOOT_PATH = "jna.boot.library.path";
    static final String PLATFORM_PATH = "jna.platform.library.path";

    private JnaBoot() {
    }

    public static void prepare() {
        platformLibraryPath();
        if (System.getProperty(BOOT_PATH) != null) {
            return;
        }
        try {
            String file = System.mapLibraryName("jnidispatch");
            URL u = JnaBoot.class.getClassLoader().getResource("com/sun/jna/" + Platform.RESOURCE_PREFIX + "/" + file);
            Path cache = cacheDir();
            if (u == null || cache == null) {
                return;
            }
            URLConnection c = u.openConnection();
            if (!(c instanceof JarURLConnection jar) || jar.getJarEntry().getCrc() < 0) {
                return;
            }
            Path dir = cache.resolve("jna-" + Long.toHexString(jar.getJarEntry().getCrc()));
            Path lib = dir.resolve(file);
            if (!Files.isRegularFile(lib)) {
                Files.createDirectories(dir);
                if (!ownedAndPrivate(dir)) {
                    return;
                }
                Path tmp = dir.resolve(file + "." + ProcessHandle.current().pid() + ".tmp");
                try (InputStream in = c.getInputStream()) {
                    Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                }
                Files.move(tmp, lib, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } else if (!ownedAndPrivate(dir)) {
                return;
            }
            System.setProperty(BOOT_PATH, dir.toString());
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

    /** $XDG_CACHE_HOME/jperf or ~/.cache/jperf, created owner-only; null without a home. */
    static Path cacheDir() throws IOException {
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

    /** A library is loaded from here by root too: nobody else may own or write the directory. */
    private static boolean ownedAndPrivate(Path dir) throws IOException {
        Set<PosixFilePermission> p = Files.getPosixFilePermissions(dir);
        return Files.getOwner(dir).getName().equals(System.getProperty("user.name"))
                && !p.contains(PosixFilePermission.GROUP_WRITE) && !p.contains(PosixFilePermission.OTHERS_WRITE);
    }
}
