package dev.sluice.dbd.store;

import dev.sluice.dbd.config.DbdConfigs;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class H2JobEditsTest extends JobEditsContract {
    @TempDir
    Path dir;

    @Override
    protected String jdbcUrl() {
        return DbdConfigs.embeddedUrl(dir);
    }
}
