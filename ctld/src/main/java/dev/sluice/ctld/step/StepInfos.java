package dev.sluice.ctld.step;

import dev.sluice.ctld.accounting.AccountingEvents;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobStep;
import dev.sluice.ctld.state.RunningStep;
import dev.sluice.protocol.v1.StepInfo;

/**
 * What {@code squeue -s} and {@code scontrol show step} are told about steps. Pure. (The step
 * records accounting keeps are {@code control.StepCommands}'.)
 */
public final class StepInfos {
    private StepInfos() {}

    /**
     * The batch step of a running batch job. Slurm 22.05 shows it with {@code CPUs=0},
     * {@code TRES=(null)} and {@code SrunHost:Pid=(null):0} (observed on
     * /work/shared/tools/real-slurm): it is not a step srun created.
     */
    public static StepInfo batch(Job job) {
        return common(job)
                .setStepId(AccountingEvents.BATCH_STEP)
                .setName("batch")
                .setStartTime(job.run().startTime())
                .setNodeList(job.allocation().batchHost())
                .setNumNodes(1)
                .setNumTasks(1)
                .build();
    }

    public static StepInfo of(Job job, RunningStep running) {
        JobStep s = running.step();
        return common(job)
                .setStepId(s.stepId())
                .setName(s.name())
                .setStartTime(s.startTime())
                .setNodeList(s.nodeList())
                .setNumNodes(s.numNodes())
                .setNumCpus(s.cpus())
                .setNumTasks(s.numTasks())
                .setTres(s.tres())
                .setSrunHost(running.srunHost())
                .setSrunPid(running.srunPid())
                .build();
    }

    private static StepInfo.Builder common(Job job) {
        return StepInfo.newBuilder()
                .setJobId(job.id())
                .setUserId(job.request().owner().uid())
                .setUserName(job.request().owner().userName())
                .setPartition(job.terms().partition());
    }
}
