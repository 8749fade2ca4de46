package dev.sluice.dbd.store;

import dev.sluice.dbd.config.DbdConfigs;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Reservations' accounting on the embedded default: file-backed H2 in MariaDB mode. */
class H2ReservationStoreTest extends ReservationStoreContract {
    @TempDir
    Path dir;

    @Override
    protected String jdbcUrl() {
        return DbdConfigs.embeddedUrl(dir);
    }
}
