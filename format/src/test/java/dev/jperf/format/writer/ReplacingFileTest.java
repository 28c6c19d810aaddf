package dev.jperf.format.writer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ReplacingFile: the previous file stays until the new one is complete, with the mode it had. */
class ReplacingFileTest {
    @TempDir
    Path dir;

    private List<Path> entries() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }

    @Test
    void previousFileStaysUntilCommit() throws IOException {
        Path out = Files.writeString(dir.resolve("out.txt"), "previous");
        try (ReplacingFile f = ReplacingFile.create(out)) {
            f.stream().write("new".getBytes(StandardCharsets.UTF_8));
            f.stream().flush();
            assertEquals("previous", Files.readString(out));
            assertEquals(2, entries().size(), "the new bytes go to a file beside it");
            f.commit();
        }
        assertEquals("new", Files.readString(out));
        assertEquals(List.of(out), entries());
    }

    @Test
    void closedWithoutCommitLeavesThePreviousFileAndNothingElse() throws IOException {
        Path out = Files.writeString(dir.resolve("out.txt"), "previous");
        try (ReplacingFile f = ReplacingFile.create(out)) {
            f.stream().write(new byte[100_000]); // past the buffer: on disk
        }
        assertEquals("previous", Files.readString(out));
        assertEquals(List.of(out), entries());
        Path fresh = dir.resolve("fresh.txt");
        ReplacingFile.create(fresh).close();
        assertEquals(List.of(out), entries(), "a failed first write leaves no file");
    }

    @Test
    void modeOfTheReplacedFileOrOfANewOne() throws IOException {
        Path out = Files.writeString(dir.resolve("out.txt"), "previous");
        Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rw-r-----"));
        try (ReplacingFile f = ReplacingFile.create(out)) {
            f.commit();
        }
        assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(out)));
        // a new file: the mode Files.newOutputStream gives one (0666 less the umask)
        Path plain = dir.resolve("plain");
        Files.newOutputStream(plain).close();
        Path made = dir.resolve("made");
        try (ReplacingFile f = ReplacingFile.create(made)) {
            f.commit();
        }
        assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(made));
    }

    @Test
    void devicesAndLinksAreWrittenInPlace() throws IOException {
        try (ReplacingFile f = ReplacingFile.create(Path.of("/dev/null"))) {
            f.stream().write(1);
            f.commit();
        }
        Path target = Files.writeString(dir.resolve("target"), "previous");
        Path link = Files.createSymbolicLink(dir.resolve("link"), target.getFileName());
        try (ReplacingFile f = ReplacingFile.create(link)) {
            f.stream().write("new".getBytes(StandardCharsets.UTF_8));
            f.commit();
        }
        assertEquals("new", Files.readString(target));
        assertEquals(target.getFileName(), Files.readSymbolicLink(link));
    }

    @Test
    void missingDirectoryIsTheFilesOwnError() {
        Path out = dir.resolve("missing").resolve("out.txt");
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> ReplacingFile.create(out));
        assertEquals(out.toString(), e.getFile());
    }

    @Test
    void commitTwiceIsAMistake() throws IOException {
        Path out = dir.resolve("out.txt");
        try (ReplacingFile f = ReplacingFile.create(out)) {
            OutputStream s = f.stream();
            s.write(new byte[] {1, 2});
            f.commit();
            assertThrows(IllegalStateException.class, f::commit);
        }
        assertArrayEquals(new byte[] {1, 2}, Files.readAllBytes(out));
    }
}
