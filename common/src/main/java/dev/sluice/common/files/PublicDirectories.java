package dev.sluice.common.files;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Directories every local user must be able to enter: where the controller's and the agent's
 * sockets live. A daemon runs with umask 077 ({@link OwnerOnly#restrictProcessUmask()}), so a
 * directory it creates for a socket is given 0755 explicitly; one that exists keeps the mode its
 * administrator chose.
 */
public final class PublicDirectories {
    private PublicDirectories() {}

    /** Creates {@code dir} and its missing parents, each 0755. */
    public static void create(Path dir) throws IOException {
        Path absolute = dir.toAbsolutePath();
        if (Files.isDirectory(absolute)) {
            return;
        }
        if (absolute.getParent() != null) {
            create(absolute.getParent());
        }
        try {
            Files.createDirectory(absolute);
            Files.setPosixFilePermissions(absolute, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(absolute)) {
                throw e;
            }
        }
    }
}
