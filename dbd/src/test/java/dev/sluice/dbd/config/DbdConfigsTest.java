package dev.sluice.dbd.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DbdConfigsTest {
    @Test
    void slurmdbdConfWithMysqlStorageNamesMariaDb() {
        String text = """
                # as up.sh writes it
                AuthType=auth/munge
                DbdAddr=127.0.0.1
                DbdPort=7031
                StorageType=accounting_storage/mysql
                StorageHost=db.example
                StoragePort=3307
                StorageUser=slurm
                StoragePass=slurmpw
                StorageLoc=acct
                """;
        DbdConfig c = DbdConfigs.parse(text, "slurmdbd.conf", DbdConfigs.Overrides.none());
        assertThat(c.jdbcUrl()).isEqualTo("jdbc:mariadb://db.example:3307/acct");
        assertThat(c.storageUser()).isEqualTo("slurm");
        assertThat(c.storagePass()).isEqualTo("slurmpw");
        assertThat(c.dbdAddr()).isEqualTo("127.0.0.1");
        assertThat(c.dbdPort()).isEqualTo(7031);
        assertThat(c.grpcPort()).isEqualTo(7131);
    }

    @Test
    void withoutDbdAddrOrNoInAddrAnyEveryAddressIsBound() {
        assertThat(DbdConfigs.parse("DbdHost=db1\n", "f", DbdConfigs.Overrides.none())
                        .dbdAddr())
                .isEmpty();
    }

    @Test
    void noInAddrAnyBindsDbdAddrElseDbdHostElseLocalhost() {
        String flag = "CommunicationParameters=NoInAddrAny\n";
        assertThat(DbdConfigs.parse(flag + "DbdHost=db1\nDbdAddr=10.0.0.9\n", "f", DbdConfigs.Overrides.none())
                        .dbdAddr())
                .isEqualTo("10.0.0.9");
        assertThat(DbdConfigs.parse(flag + "DbdHost=db1\n", "f", DbdConfigs.Overrides.none())
                        .dbdAddr())
                .isEqualTo("db1");
        assertThat(DbdConfigs.parse(flag, "f", DbdConfigs.Overrides.none()).dbdAddr())
                .isEqualTo("localhost");
        // --bind still wins.
        assertThat(DbdConfigs.parse(
                                flag,
                                "f",
                                new DbdConfigs.Overrides(
                                        Optional.empty(),
                                        Optional.empty(),
                                        Optional.empty(),
                                        Optional.empty(),
                                        Optional.of("127.0.0.2")))
                        .dbdAddr())
                .isEqualTo("127.0.0.2");
    }

    @Test
    void withoutStorageTypeTheEmbeddedDatabaseLivesUnderTheDataDirectory() {
        DbdConfig c = DbdConfigs.parse(
                "",
                "none",
                new DbdConfigs.Overrides(
                        Optional.empty(),
                        Optional.of(Path.of("/srv/acct")),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty()));
        assertThat(c.jdbcUrl()).startsWith("jdbc:h2:file:/srv/acct/sluice_acct;MODE=MariaDB");
        assertThat(c.dbdPort()).isEqualTo(6819);
        assertThat(c.grpcPort()).isEqualTo(6919);
    }

    @Test
    void aJdbcUrlOnTheCommandLineWins() {
        DbdConfig c = DbdConfigs.parse(
                "StorageType=accounting_storage/mysql\n",
                "f",
                new DbdConfigs.Overrides(
                        Optional.of("jdbc:mariadb://h/db?password=secret"),
                        Optional.empty(),
                        Optional.of(0),
                        Optional.empty(),
                        Optional.empty()));
        assertThat(c.jdbcUrl()).isEqualTo("jdbc:mariadb://h/db?password=secret");
        assertThat(c.redactedUrl()).isEqualTo("jdbc:mariadb://h/db?password=***");
        assertThat(c.grpcPort()).isEqualTo(DbdConfig.GRPC_ABOVE);
    }

    @Test
    void badLinesNameTheFileAndLine() {
        assertThatThrownBy(() -> DbdConfigs.parse("DbdPort=6819\nBogusKey=1\n", "x.conf", DbdConfigs.Overrides.none()))
                .hasMessage("x.conf:2: unknown key \"BogusKey\"");
        assertThatThrownBy(() -> DbdConfigs.parse("DbdPort=99999\n", "x.conf", DbdConfigs.Overrides.none()))
                .hasMessageContaining("not a port number");
        assertThatThrownBy(() -> DbdConfigs.parse(
                        "StorageType=accounting_storage/pgsql\n", "x.conf", DbdConfigs.Overrides.none()))
                .hasMessageContaining("not supported");
    }
}
