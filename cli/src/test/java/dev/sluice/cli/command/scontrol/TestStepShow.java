package dev.sluice.cli.command.scontrol;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.v1.StepInfo;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** Expected records are Slurm 22.05's `scontrol show step` (/work/shared/tools/real-slurm). */
class TestStepShow {
    private static final long START = Instant.parse("2026-11-29T14:15:18Z").getEpochSecond();

    @Test
    void anSrunStep() {
        StepInfo step = StepInfo.newBuilder()
                .setJobId(35)
                .setStepId(0)
                .setName("sleep")
                .setPartition("gpu")
                .setStartTime(START)
                .setNodeList("n1")
                .setNumNodes(1)
                .setNumCpus(2)
                .setNumTasks(1)
                .setTres("cpu=2,mem=0,node=1")
                .setSrunHost("vm")
                .setSrunPid(4445)
                .build();
        assertThat(Layout.render(StepShow.lines(step, ZoneOffset.UTC), false)).isEqualTo("""
                        StepId=35.0 UserId=0 StartTime=2026-11-29T14:15:18 TimeLimit=UNLIMITED
                           State=RUNNING Partition=gpu NodeList=n1
                           Nodes=1 CPUs=2 Tasks=1 Name=sleep Network=(null)
                           TRES=cpu=2,mem=0,node=1
                           ResvPorts=(null)
                           CPUFreqReq=Default Dist=Cyclic
                           SrunHost:Pid=vm:4445

                        """);
        assertThat(Layout.render(StepShow.lines(step, ZoneOffset.UTC), true))
                .isEqualTo("StepId=35.0 UserId=0 StartTime=2026-11-29T14:15:18 TimeLimit=UNLIMITED State=RUNNING"
                        + " Partition=gpu NodeList=n1 Nodes=1 CPUs=2 Tasks=1 Name=sleep Network=(null)"
                        + " TRES=cpu=2,mem=0,node=1 ResvPorts=(null) CPUFreqReq=Default Dist=Cyclic"
                        + " SrunHost:Pid=vm:4445\n");
    }

    @Test
    void theBatchStep() {
        StepInfo batch = StepInfo.newBuilder()
                .setJobId(35)
                .setStepId(StepShow.BATCH_STEP)
                .setName("batch")
                .setPartition("gpu")
                .setStartTime(START)
                .setNodeList("n1")
                .setNumNodes(1)
                .setNumTasks(1)
                .build();
        assertThat(Layout.render(StepShow.lines(batch, ZoneOffset.UTC), false)).isEqualTo("""
                        StepId=35.batch UserId=0 StartTime=2026-11-29T14:15:18 TimeLimit=UNLIMITED
                           State=RUNNING Partition=gpu NodeList=n1
                           Nodes=1 CPUs=0 Tasks=1 Name=batch Network=(null)
                           TRES=(null)
                           ResvPorts=(null)
                           CPUFreqReq=Default
                           SrunHost:Pid=(null):0

                        """);
    }
}
