package dev.sluice.bench.ctld;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@code scripts/bench-ctld}'s database options: the embedded H2 by default, or a site's MariaDB. */
class TestBenchOptions {
    @Test
    void sluiceDbdKeepsItsEmbeddedDatabaseUnlessAJdbcUrlIsGiven() {
        BenchOptions.Daemons embedded =
                BenchOptions.parse(new String[] {"--jobs", "10"}).daemons();
        assertThat(embedded.jdbcUrl()).isNull();
        assertThat(embedded.dbPid()).isZero();

        BenchOptions.Daemons mariadb = BenchOptions.parse(
                        new String[] {"--jdbc-url", "jdbc:mariadb://127.0.0.1:3306/acct", "--db-pid", "4242"})
                .daemons();
        assertThat(mariadb.jdbcUrl()).isEqualTo("jdbc:mariadb://127.0.0.1:3306/acct");
        assertThat(mariadb.dbPid()).isEqualTo(4242);
    }

    @Test
    void aDatabaseServersPidWithoutOneIsRefused() {
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {"--db-pid", "4242"}))
                .hasMessage("--db-pid needs --jdbc-url, with accounting");
        assertThatThrownBy(() -> BenchOptions.parse(new String[] {
                    "--jdbc-url", "jdbc:mariadb://127.0.0.1:3306/acct", "--db-pid", "4242", "--no-accounting"
                }))
                .hasMessage("--db-pid needs --jdbc-url, with accounting");
    }
}
