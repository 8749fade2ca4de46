package dev.sluice.ctld.step;

import dev.sluice.ctld.accounting.AccountingEvents;
import dev.sluice.ctld.control.StepControl;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobState;
import dev.sluice.ctld.state.JobStep;
import dev.sluice.protocol.v1.StepInfo;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What {@code squeue -s} and {@code scontrol show step} are told about steps, and the step
 * records accounting keeps. Pure.
 */
public final class StepInfos {
    private StepInfos() {}

    /** A running srun step and where its srun is. */
    public record RunningStep(JobStep step, String srunHost, int srunPid) {}

    /**
     * The batch step of a running batch job. Slurm 22.05 shows it with {@code CPUs=0},
     * {@code TRES=(null)} and {@code SrunHost:Pid=(null):0} (observed on
     * /work/shared/tools/real-slurm): it is not a step srun created.
     */
    public static StepInfo batch(Job job) {
        return common(job)
                .setStepId(AccountingEvents.BATCH_STEP)
                .setName("batch")
                .setStartTime(job.startTime())
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

    /** A step just placed: RUNNING from {@code now}. */
    public static JobStep started(
            Job job, int stepId, String name, List<StepControl.StepShare> shares, String nodeList, long now) {
        int cpus = shares.stream().mapToInt(StepControl.StepShare::cpus).sum();
        int tasks = shares.stream().mapToInt(s -> s.taskIds().size()).sum();
        return new JobStep(
                stepId,
                name,
                JobState.RUNNING,
                now,
                0,
                0,
                nodeList,
                shares.size(),
                tasks,
                cpus,
                tres(job.allocation(), shares, cpus));
    }

    /**
     * How a step ended: COMPLETED for status 0; CANCELLED when its job was ended from outside
     * (scancel, time limit), as Slurm marks the steps it kills; FAILED otherwise.
     */
    public static JobState endState(Job job, int status) {
        if (status == 0) {
            return JobState.COMPLETED;
        }
        if (job.state() == JobState.CANCELLED || job.state() == JobState.TIMEOUT) {
            return JobState.CANCELLED;
        }
        return JobState.FAILED;
    }

    /**
     * Slurm's step TRES: its CPUs, the job's memory on the step's nodes (a step without
     * {@code --mem} may use all of it), its node count; {@code mem=0} when the job asked for
     * none (observed: {@code TRES=cpu=2,mem=0,node=1}).
     */
    static String tres(Allocation allocation, List<StepControl.StepShare> shares, int cpus) {
        Set<String> nodes = shares.stream().map(StepControl.StepShare::node).collect(Collectors.toSet());
        long memMb = allocation.nodes().stream()
                .filter(n -> nodes.contains(n.node()))
                .mapToLong(Allocation.NodeShare::memoryMb)
                .sum();
        return "cpu=" + cpus + ",mem=" + (memMb == 0 ? "0" : memMb + "M") + ",node=" + shares.size();
    }

    private static StepInfo.Builder common(Job job) {
        return StepInfo.newBuilder()
                .setJobId(job.id())
                .setUserId(job.request().owner().uid())
                .setUserName(job.request().owner().userName())
                .setPartition(job.partition());
    }
}
