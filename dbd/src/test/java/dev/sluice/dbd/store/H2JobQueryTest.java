package dev.sluice.dbd.store;

import dev.sluice.dbd.config.DbdConfigs;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** sacct's queries on the embedded default: file-backed H2 in MariaDB mode, same migrations. */
class H2JobQueryTest extends JobQueryContract {
    @TempDir
    Path dir;

    @Override
    protected String jdbcUrl() {
        return DbdConfigs.embeddedUrl(dir);
    }
}
