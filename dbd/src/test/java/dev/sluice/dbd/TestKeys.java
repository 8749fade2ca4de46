package dev.sluice.dbd;

import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.ClusterKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A fresh cluster key in a test's configuration directory, as an administrator would make it. */
public final class TestKeys {
    private TestKeys() {}

    /** Writes {@code dir/slurm.key} (0600) unless it exists, and loads it the daemons' way. */
    public static ClusterKeys write(Path dir) throws IOException {
        Path file = dir.resolve(ClusterKeys.KEY_FILE);
        if (!Files.exists(file)) {
            Files.createDirectories(dir);
            ClusterKeys.generate(file);
        }
        try {
            return ClusterKeys.loadFromConfigDir(dir);
        } catch (AuthException e) {
            throw new IOException(e.getMessage(), e);
        }
    }
}
