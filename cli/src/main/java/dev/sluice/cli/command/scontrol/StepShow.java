package dev.sluice.cli.command.scontrol;

import dev.sluice.common.time.SlurmTimestamp;
import dev.sluice.protocol.v1.StepInfo;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;

/**
 * {@code scontrol show step}: Slurm 22.05's layout, observed on /work/shared/tools/real-slurm:
 *
 * <pre>
 * StepId=35.0 UserId=0 StartTime=2026-11-29T14:15:18 TimeLimit=UNLIMITED
 *    State=RUNNING Partition=gpu NodeList=n1
 *    Nodes=1 CPUs=2 Tasks=1 Name=sleep Network=(null)
 *    TRES=cpu=2,mem=0,node=1
 *    ResvPorts=(null)
 *    CPUFreqReq=Default Dist=Cyclic
 *    SrunHost:Pid=vm:4445
 * </pre>
 *
 * The batch step shows {@code CPUs=0}, {@code TRES=(null)}, no {@code Dist=} and
 * {@code SrunHost:Pid=(null):0}.
 */
final class StepShow {
    /** SLURM_BATCH_SCRIPT. */
    static final int BATCH_STEP = dev.sluice.common.slurm.StepIds.BATCH;

    private StepShow() {}

    static String stepId(StepInfo s) {
        return s.getJobId() + "." + dev.sluice.common.slurm.StepIds.name(s.getStepId());
    }

    static List<String> lines(StepInfo s, ZoneId zone) {
        boolean batch = s.getStepId() == BATCH_STEP;
        return List.of(
                "StepId=" + stepId(s) + " UserId=" + Integer.toUnsignedString(s.getUserId()) + " StartTime="
                        + SlurmTimestamp.format(Instant.ofEpochSecond(s.getStartTime()), zone)
                        + " TimeLimit=UNLIMITED",
                "State=RUNNING Partition=" + s.getPartition() + " NodeList=" + s.getNodeList(),
                "Nodes=" + s.getNumNodes() + " CPUs=" + s.getNumCpus() + " Tasks=" + s.getNumTasks() + " Name="
                        + s.getName() + " Network=(null)",
                "TRES=" + (s.getTres().isEmpty() ? "(null)" : s.getTres()),
                "ResvPorts=(null)",
                // Sluice places a step's tasks in blocks over its nodes, which Slurm calls Cyclic
                // when there is at most one task per node (as for srun -n1).
                batch
                        ? "CPUFreqReq=Default"
                        : "CPUFreqReq=Default Dist="
                                + (Integer.compareUnsigned(s.getNumTasks(), s.getNumNodes()) <= 0 ? "Cyclic" : "Block"),
                "SrunHost:Pid="
                        + (batch ? "(null):0" : s.getSrunHost() + ":" + Integer.toUnsignedString(s.getSrunPid())));
    }
}
