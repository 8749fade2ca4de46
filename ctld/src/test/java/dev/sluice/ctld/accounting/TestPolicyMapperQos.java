package dev.sluice.ctld.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ctld.limits.AccountingPolicy;
import dev.sluice.ctld.limits.Qos;
import dev.sluice.ctld.limits.TresLimits;
import dev.sluice.protocol.v1.PolicySnapshot;
import dev.sluice.protocol.v1.QosEntry;
import dev.sluice.protocol.v1.WckeyEntry;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the controller takes from dbd's QOS rows: a QOS's MaxTRESPerAccount and MaxTRESPerUser, or no cap at all. */
class TestPolicyMapperQos {
    @Test
    void perAccountTresCapsComeFromTheQosRow() {
        AccountingPolicy p = PolicyMapper.fromSnapshot(PolicySnapshot.newBuilder()
                .setVersion(3)
                .addQos(QosEntry.newBuilder().setName("normal").setMaxTresPerAccount("cpu=4,mem=2G,gres/gpu=1"))
                .addQos(QosEntry.newBuilder().setName("open"))
                .build());
        assertThat(p.qos().get("normal").caps().perAccount().caps())
                .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", 4L, "mem", 2048L, "gres/gpu", 1L));
        assertThat(p.qos().get("open").caps().perAccount()).isEqualTo(TresLimits.NONE);
    }

    @Test
    void theUsersWckeysAndTheirDefaultsComeFromTheSnapshot() {
        AccountingPolicy p = PolicyMapper.fromSnapshot(PolicySnapshot.newBuilder()
                .setVersion(3)
                .addWckeys(WckeyEntry.newBuilder().setUser("kim").setName("wa"))
                .addWckeys(WckeyEntry.newBuilder().setUser("kim").setName("wb").setIsDefault(true))
                .build());
        assertThat(p.wckeys().defaultOf("kim")).contains("wb");
        assertThat(p.wckeys().holds("kim", "wa")).isTrue();
        assertThat(p.wckeys().holds("lee", "wa")).isFalse();
        assertThat(p.wckeys().defaultOf("lee")).isEmpty();
    }

    @Test
    void perUserTresCapsComeFromTheQosRow() {
        AccountingPolicy p = PolicyMapper.fromSnapshot(PolicySnapshot.newBuilder()
                .setVersion(3)
                .addQos(QosEntry.newBuilder().setName("normal").setMaxTresPerUser("cpu=8,node=2"))
                .addQos(QosEntry.newBuilder().setName("open"))
                .build());
        assertThat(p.qos().get("normal").caps().perUser().caps())
                .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", 8L, "node", 2L));
        assertThat(p.qos().get("normal").caps().perAccount()).isEqualTo(TresLimits.NONE);
        assertThat(p.qos().get("open").caps().perUser()).isEqualTo(TresLimits.NONE);
    }

    @Test
    void perNodeCapsComeFromTheQosRow() {
        AccountingPolicy p = PolicyMapper.fromSnapshot(PolicySnapshot.newBuilder()
                .setVersion(3)
                .addQos(QosEntry.newBuilder().setName("normal").setMaxTresPerNode("cpu=2,gres/gpu=1"))
                .addQos(QosEntry.newBuilder().setName("open"))
                .build());
        assertThat(p.qos().get("normal").perNode().caps())
                .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", 2L, "gres/gpu", 1L));
        assertThat(p.qos().get("open").perNode()).isEqualTo(TresLimits.NONE);
    }

    /** Slurm ignores a QOS's UsageThreshold unless the QOS has the flag EnforceUsageThreshold. */
    @Test
    void theUsageThresholdIsEnforcedOnlyUnderItsFlag() {
        AccountingPolicy p = PolicyMapper.fromSnapshot(PolicySnapshot.newBuilder()
                .setVersion(3)
                .addQos(QosEntry.newBuilder()
                        .setName("flagged")
                        .addFlags("EnforceUsageThreshold")
                        .setUsageThreshold(0.5))
                .addQos(QosEntry.newBuilder().setName("bare").setUsageThreshold(0.5))
                .addQos(QosEntry.newBuilder().setName("flagonly").addFlags("enforceusagethreshold"))
                .build());
        assertThat(p.qos().get("flagged").usageThreshold()).isEqualTo(0.5);
        assertThat(p.qos().get("bare").usageThreshold()).isEqualTo(Qos.THRESHOLD_UNSET);
        assertThat(p.qos().get("flagonly").usageThreshold()).isEqualTo(Qos.THRESHOLD_UNSET);
    }
}
