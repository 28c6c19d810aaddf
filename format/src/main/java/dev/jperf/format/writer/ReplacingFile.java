package dev.jperf.format.writer;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.concurrent.ThreadLocalRandom;

/**
 * An output file (an export, stat's {@code -o}) written whole or not at all: the bytes go to a
 * temporary file beside it, which {@link #commit} renames over it; {@link #close} without a
 * commit removes the temporary file. A failure midway (bad input, a full disk, Ctrl-C) thus leaves
 * the previous file as it was. The file gets the mode a new file gets (0666 less the umask), or
 * an existing one's mode and owner, as writing into it would have kept them.
 *
 * <p>What is not a regular file (a device such as /dev/null, a FIFO), a symbolic link, or a file
 * in a directory that takes no new file (not writable, say) is written in place, as before.
 */
public final class ReplacingFile implements Closeable {
    private final Path path;
    /** The temporary file, or null when {@link #path} is written in place. */
    private final Path temp;
    private final OutputStream out;
    private boolean done;

    private ReplacingFile(Path path, Path temp, OutputStream out) {
        this.path = path;
        this.temp = temp;
        this.out = out;
    }

    /**
     * Opens {@code path} for writing (buffered). The temporary file is created now, so that an
     * unwritable place fails before any input is read, with the exception
     * {@link Files#newOutputStream} throws for {@code path}.
     */
    public static ReplacingFile create(Path path) throws IOException {
        boolean exists = Files.exists(path, LinkOption.NOFOLLOW_LINKS);
        if (Files.isSymbolicLink(path) || (exists && !Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS))) {
            return inPlace(path);
        }
        Path dir = path.toAbsolutePath().getParent();
        Path temp = dir.resolve("." + path.getFileName() + "." + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16)
                + ".tmp");
        OutputStream raw;
        try {
            raw = Files.newOutputStream(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        } catch (IOException e) {
            // the directory takes no new file: the file's own error, or the file written in place
            return inPlace(path);
        }
        try {
            temp.toFile().deleteOnExit(); // an export cut by Ctrl-C leaves nothing behind
            if (exists) {
                keepModeAndOwner(path, temp);
            }
        } catch (IOException | RuntimeException e) {
            raw.close();
            Files.deleteIfExists(temp);
            throw e;
        }
        return new ReplacingFile(path, temp, new BufferedOutputStream(raw, 1 << 16));
    }

    private static ReplacingFile inPlace(Path path) throws IOException {
        return new ReplacingFile(path, null, new BufferedOutputStream(Files.newOutputStream(path), 1 << 16));
    }

    /** The mode of the file being replaced and, where allowed (root), its owner and group. */
    private static void keepModeAndOwner(Path path, Path temp) throws IOException {
        PosixFileAttributes a = Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        PosixFileAttributeView v = Files.getFileAttributeView(temp, PosixFileAttributeView.class);
        v.setPermissions(a.permissions());
        try {
            v.setGroup(a.group());
            v.setOwner(a.owner());
        } catch (IOException e) {
            // not ours to give away: the file becomes this user's, as any new file would
        }
    }

    /** Where the bytes go; {@link #commit} flushes it. */
    public OutputStream stream() {
        return out;
    }

    /** The file is complete: flushed, closed and put in place of the previous one. */
    public void commit() throws IOException {
        if (done) {
            throw new IllegalStateException(path + ": already closed");
        }
        done = true;
        try {
            out.close();
            if (temp != null) {
                Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            if (temp != null) {
                Files.deleteIfExists(temp);
            }
            throw e;
        }
    }

    /** Without a {@link #commit}: the temporary file removed, the previous file untouched. */
    @Override
    public void close() {
        if (done) {
            return;
        }
        done = true;
        try {
            out.close();
        } catch (IOException e) {
            // the bytes are being thrown away
        }
        if (temp != null) {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException e) {
                // deleteOnExit tries again
            }
        }
    }
}
