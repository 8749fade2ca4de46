package dev.sluice.dbd.store;

import dev.sluice.dbd.config.DbdConfigs;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The store on the embedded default: file-backed H2 in MariaDB mode, same migrations. */
class H2AccountingStoreTest extends AccountingStoreContract {
    @TempDir
    Path dir;

    @Override
    protected String jdbcUrl() {
        return DbdConfigs.embeddedUrl(dir);
    }
}
