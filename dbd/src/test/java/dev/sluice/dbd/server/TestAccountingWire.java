package dev.sluice.dbd.server;

import static dev.sluice.dbd.store.Records.job;
import static dev.sluice.dbd.store.Records.jobBefore;
import static dev.sluice.dbd.store.Records.pending;
import static dev.sluice.dbd.store.Records.running;
import static dev.sluice.dbd.store.Records.wireBatch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.dbd.model.AccountingEntry;
import dev.sluice.protocol.v1.AccountingRecord;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobInfo;
import org.junit.jupiter.api.Test;

/** The controller's records read at the edge: what the store will write, and what is refused. */
class TestAccountingWire {
    @Test
    void aJobIsReadWithSlurmsUnsignedIdsAndItsArrayKey() {
        JobInfo j = pending(7, "sim", "kim", 500).toBuilder()
                .setSpec(pending(7, "sim", "kim", 500).getSpec().toBuilder()
                        .setOwner(Identity.newBuilder().setUid(-2).setGid(100).setUserName("kim")))
                .setArrayJobId(5)
                .setArrayTaskId(2)
                .setDisplayId("5_2")
                .setTimeLimitMinutes(-2)
                .build();
        AccountingEntry.Job e = (AccountingEntry.Job)
                AccountingWire.entries(wireBatch("alpha", job(3, j))).entries().get(0);
        assertThat(e.sequence()).isEqualTo(3);
        assertThat(e.owner().uid()).isEqualTo(4294967294L);
        assertThat(e.owner().userName()).isEqualTo("kim");
        assertThat(e.key().displayId()).isEqualTo("5_2");
        assertThat(e.key().arrayTaskId()).isEqualTo(2);
        assertThat(e.times().limitMinutes()).isEqualTo(4294967294L);
        assertThat(e.outcome().cancelledBy()).isEqualTo(-1);
    }

    @Test
    void aPlainJobHasNoArrayKey() {
        JobInfo j = pending(7, "sim", "kim", 500).toBuilder().setDisplayId("7").build();
        AccountingEntry.Job e = (AccountingEntry.Job)
                AccountingWire.entries(wireBatch("alpha", job(1, j))).entries().get(0);
        assertThat(e.key().isArray()).isFalse();
        assertThat(e.key().displayId()).isEmpty();
        assertThat(e.key().arrayTaskId()).isEqualTo(-1);
    }

    @Test
    void batchesNoRetryCanFixAreRefused() {
        AccountingRecord empty = AccountingRecord.newBuilder().setSequence(4).build();
        assertThatThrownBy(() -> AccountingWire.entries(wireBatch("alpha", empty)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("record 4 is empty");
        JobInfo j = pending(7, "sim", "kim", 500);
        assertThatThrownBy(() -> AccountingWire.entries(wireBatch("alpha", job(5, j), job(4, j))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sequence 4 follows 5");
        assertThatThrownBy(() -> AccountingWire.entries(wireBatch(" ", job(1, j))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("accounting batch without a cluster name");
    }

    @Test
    void aRecordInTheShapeSentBeforeReadsAsTheSameEntry() {
        JobInfo j = pending(7, "sim", "kim", 500).toBuilder()
                .setArrayJobId(5)
                .setArrayTaskId(2)
                .setDisplayId("5_2")
                .setPriority(-3)
                .setReason("Priority")
                .build();
        JobInfo ran = running(j, 510);
        for (JobInfo info : new JobInfo[] {j, ran}) {
            assertThat(AccountingWire.entries(wireBatch("alpha", jobBefore(1, info))))
                    .isEqualTo(AccountingWire.entries(wireBatch("alpha", job(1, info))));
        }
    }
}
