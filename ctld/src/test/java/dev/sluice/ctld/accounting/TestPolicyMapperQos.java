package dev.sluice.ctld.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ctld.limits.AccountingPolicy;
import dev.sluice.ctld.limits.TresLimits;
import dev.sluice.protocol.v1.PolicySnapshot;
import dev.sluice.protocol.v1.QosEntry;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the controller takes from dbd's QOS rows: a QOS's MaxTRESPerAccount, or no cap at all. */
class TestPolicyMapperQos {
    @Test
    void perAccountTresCapsComeFromTheQosRow() {
        AccountingPolicy p = PolicyMapper.fromSnapshot(PolicySnapshot.newBuilder()
                .setVersion(3)
                .addQos(QosEntry.newBuilder().setName("normal").setMaxTresPerAccount("cpu=4,mem=2G,gres/gpu=1"))
                .addQos(QosEntry.newBuilder().setName("open"))
                .build());
        assertThat(p.qos().get("normal").maxTresPerAccount().caps())
                .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", 4L, "mem", 2048L, "gres/gpu", 1L));
        assertThat(p.qos().get("open").maxTresPerAccount()).isEqualTo(TresLimits.NONE);
    }
}
