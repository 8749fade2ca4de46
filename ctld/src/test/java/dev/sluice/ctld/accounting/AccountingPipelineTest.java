package dev.sluice.ctld.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.slurm.Licenses;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.protocol.auth.DaemonAuth;
import dev.sluice.protocol.v1.AccountingRecord;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AccountingPipelineTest {
    private static final long NOW = 1_700_000_000L;
    private static final InstantSource CLOCK = InstantSource.fixed(Instant.ofEpochSecond(NOW));

    @TempDir
    Path dir;

    /** The outbox's records once the pipeline is closed, as the shipper would send them. */
    private List<AccountingRecord> shipped(long journalThrough) throws Exception {
        try (Outbox o = Outbox.open(dir.resolve(AccountingPipeline.DIRECTORY), journalThrough, CLOCK)) {
            return o.awaitBatch(100, 0);
        }
    }

    @Test
    void aControllerStartSendsTheClusterSizeWithTheTrackedLicenses() throws Exception {
        // Nodes known from the state register without a record: only the start can tell dbd
        // the size, and with AccountingStorageTRES=license/foo it registers that TRES (Slurm
        // 22.05: license|foo|1004 in sacctmgr show tres as soon as slurmctld is up).
        ClusterState state = ClusterFixture.idle(2, 4, NOW).state();
        DaemonAuth auth = DaemonAuth.forThisProcess(
                ClusterKeys.of(new ClusterKeys.Key("k", new byte[ClusterKeys.MIN_KEY_BYTES])),
                "localhost",
                List.of(),
                Clock.systemUTC());
        try (AccountingPipeline pipeline = AccountingPipeline.open(
                new AccountingSettings("c1", "127.0.0.1", 1, Set.of("foo")),
                dir,
                0,
                CLOCK,
                auth,
                false,
                Licenses.configured("foo:4,bar"))) {
            // An earlier controller's start, journaled with this one's on upgrade: no size of now.
            pipeline.applied(1, new StateRecord.ControllerStarted(NOW - 3600), state);
            pipeline.beforeSync();
            pipeline.synced(1);
            assertThat(pipeline.depth()).isZero();
            pipeline.applied(2, new StateRecord.ControllerStarted(NOW), state);
            pipeline.beforeSync();
            pipeline.synced(2);
            assertThat(pipeline.depth()).isOne();
            // A job record changes no size: nothing more.
            pipeline.applied(3, new StateRecord.JobsPurged(List.of(), NOW), state);
            pipeline.beforeSync();
            pipeline.synced(3);
            assertThat(pipeline.depth()).isOne();
        }
        assertThat(shipped(3)).singleElement().satisfies(r -> {
            assertThat(r.getClusterTres().getTime()).isEqualTo(NOW);
            assertThat(r.getClusterTres().getTres()).isEqualTo("cpu=8,mem=2000M,node=2,billing=8,license/foo=4");
        });
    }
}
