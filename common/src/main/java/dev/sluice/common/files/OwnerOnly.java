package dev.sluice.common.files;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Owner-only files and directories. The daemons set their process umask to 077 at start
 * ({@link #restrictProcessUmask()}), so that whatever they or their libraries create (the
 * embedded database, log files) is private too; the files they name themselves are also
 * created with explicit modes, so that a failed umask call leaves nothing readable.
 */
public final class OwnerOnly {
    public static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");
    public static final Set<PosixFilePermission> DIRECTORY_MODE = PosixFilePermissions.fromString("rwx------");

    private OwnerOnly() {}

    /** For {@code Files.newByteChannel}/{@code FileChannel.open} with {@code CREATE}. */
    public static FileAttribute<Set<PosixFilePermission>> file() {
        return PosixFilePermissions.asFileAttribute(FILE_MODE);
    }

    /** Creates {@code dir} and its missing parents 0700; an existing directory keeps its mode. */
    public static Path createDirectories(Path dir) throws IOException {
        Path absolute = dir.toAbsolutePath();
        if (Files.isDirectory(absolute)) {
            return dir;
        }
        Path parent = absolute.getParent();
        if (parent != null) {
            createDirectories(parent);
        }
        try {
            Files.createDirectory(absolute, PosixFilePermissions.asFileAttribute(DIRECTORY_MODE));
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(absolute)) {
                throw e;
            }
        }
        return dir;
    }

    /** An owner-only file to append to (a daemon's log): created 0600, or made 0600. */
    public static Path privateFile(Path file) throws IOException {
        if (!Files.exists(file)) {
            try {
                Files.createFile(file, file());
                return file;
            } catch (FileAlreadyExistsException e) {
                // made meanwhile: tightened below
            }
        }
        Files.setPosixFilePermissions(file, FILE_MODE);
        return file;
    }

    /** Writes a whole file owner-only: a new one is created 0600, an existing one made 0600. */
    public static void write(Path file, byte[] data) throws IOException {
        if (!Files.exists(file)) {
            Files.createFile(file, file());
        } else {
            Files.setPosixFilePermissions(file, FILE_MODE);
        }
        Files.write(file, data);
    }

    /**
     * Sets this process's umask to 077 (what a daemon holding users' secrets should run with,
     * whatever its caller's was); false where libc cannot be reached, which only the explicit
     * modes then cover.
     */
    public static boolean restrictProcessUmask() {
        try {
            dev.sluice.common.os.LibC.get().umask(0077);
            return true;
        } catch (LinkageError | RuntimeException e) {
            return false;
        }
    }
}
