package dev.sluice.ctld.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.conf.IncludeResolver;
import dev.sluice.common.conf.SlurmConf;
import dev.sluice.common.conf.SlurmConfReader;
import dev.sluice.common.slurm.PreemptMode;
import dev.sluice.ctld.sched.PreemptPolicy;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** slurm.conf's preemption keys as the scheduler and scontrol show partition read them. */
class TestPreemptConfig {
    private static SlurmConf conf(String extra) throws Exception {
        String text = "ClusterName=c\nSlurmctldHost=h\nNodeName=n[1-2] CPUs=4\n" + extra;
        return SlurmConfReader.parse(text, "slurm.conf", IncludeResolver.none());
    }

    @Test
    void partitionPrioWithAPartitionsOwnModeAndExemptTime() throws Exception {
        SlurmConf c = conf("PreemptType=preempt/partition_prio\nPreemptMode=REQUEUE\nPreemptExemptTime=00:05:00\n"
                + "AuthInfo=cred_expire=30\n"
                + "PartitionName=low Nodes=n[1-2] PriorityTier=1 PreemptMode=CANCEL GraceTime=20\n"
                + "PartitionName=high Nodes=n[1-2] PriorityTier=2\n");
        PreemptPolicy p = CtldConfigs.preemptPolicy(c);
        assertThat(p.type()).isEqualTo(PreemptPolicy.Type.PARTITION_PRIO);
        assertThat(p.clusterMode()).isEqualTo(PreemptMode.REQUEUE);
        assertThat(p.partitionModes()).isEqualTo(Map.of("low", PreemptMode.CANCEL));
        assertThat(p.exemptSeconds()).isEqualTo(300);
        assertThat(p.requeueHoldBackSeconds()).isEqualTo(31);
        assertThat(CtldConfigs.shownPreemptMode(c, c.partitions().get(0))).isEqualTo("CANCEL");
        assertThat(CtldConfigs.shownPreemptMode(c, c.partitions().get(1))).isEqualTo("REQUEUE");
    }

    @Test
    void withoutPreemptTypeNothingIsPreemptedAndPartitionsShowOff() throws Exception {
        SlurmConf c = conf("PartitionName=p Nodes=n[1-2]\n");
        assertThat(CtldConfigs.preemptPolicy(c).enabled()).isFalse();
        assertThat(CtldConfigs.shownPreemptMode(c, c.partitions().get(0))).isEqualTo("OFF");
    }

    @Test
    void suspendGangIsShownGangFirst() throws Exception {
        SlurmConf c =
                conf("PreemptType=preempt/partition_prio\nPreemptMode=SUSPEND,GANG\nPartitionName=p Nodes=n[1-2]\n");
        assertThat(CtldConfigs.shownPreemptMode(c, c.partitions().get(0))).isEqualTo("GANG,SUSPEND");
    }
}
