package dev.sluice.ctld.control;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.ctld.gres.GresPool;
import dev.sluice.ctld.sched.Scheduler;
import dev.sluice.ctld.select.Allocator;
import dev.sluice.ctld.select.NodeCapacity;
import dev.sluice.ctld.select.PlacementResult;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.JobState;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.Partition;
import dev.sluice.ctld.state.StateRecord;
import java.util.ArrayList;
import java.util.List;

/** Job handlers: submission, cancel/signal, completion reported by a node. */
public final class JobControl {
    private final Scheduler.SelectDefaults defaults;

    public JobControl(Scheduler.SelectDefaults defaults) {
        this.defaults = defaults;
    }

    /**
     * Accepts a batch job or rejects it with Slurm's error. A job that could never run on this
     * cluster is rejected now; one that merely cannot run yet is accepted and waits.
     */
    public ControlResult<Integer> submit(ClusterState state, JobRequest request, long now) {
        Partition partition = resolvePartition(state, request.partition());
        if (!partition.acceptsJobs()) {
            throw new SlurmException(ErrorCode.PARTITION_NOT_AVAIL);
        }
        if (request.script().isEmpty()) {
            throw new SlurmException(ErrorCode.JOB_SCRIPT_MISSING);
        }
        long limit = request.timeLimitMinutes();
        if (limit == JobRequest.TIME_NOT_SET) {
            limit = partition.defaultTimeMinutes() != JobRequest.TIME_NOT_SET
                    ? partition.defaultTimeMinutes()
                    : partition.maxTimeMinutes();
        }
        List<NodeCapacity> idle = partition.nodes().stream()
                .map(state::node)
                .filter(n -> n != null)
                .map(JobControl::idleCapacity)
                .toList();
        PlacementResult result = Allocator.place(idle, Scheduler.placementRequest(request, partition, defaults));
        if (result instanceof PlacementResult.Rejected rejected) {
            throw new SlurmException(rejected.error());
        }
        int jobId = state.nextJobId();
        return ControlResult.of(
                List.of(new StateRecord.JobSubmitted(jobId, request, partition.name(), limit, now)), List.of(), jobId);
    }

    private static NodeCapacity idleCapacity(Node node) {
        return new NodeCapacity(
                node.name(),
                node.hardware(),
                node.hardware().cpus(),
                node.hardware().realMemoryMb(),
                true,
                true,
                node.features(),
                node.weight(),
                GresPool.idle(node.gres()));
    }

    private static Partition resolvePartition(ClusterState state, String requested) {
        if (requested == null || requested.isEmpty()) {
            return state.partitions().stream()
                    .filter(Partition::isDefault)
                    .findFirst()
                    .orElseThrow(() -> new SlurmException(ErrorCode.DEFAULT_PARTITION_NOT_SET));
        }
        // Slurm accepts a comma-separated list; the first that exists is used here.
        for (String name : requested.split(",")) {
            for (Partition p : state.partitions()) {
                if (p.name().equals(name.trim())) {
                    return p;
                }
            }
        }
        throw new SlurmException(ErrorCode.INVALID_PARTITION_NAME);
    }

    /**
     * Cancels or signals one job. Cancelling a pending job ends it at once; a running one ends
     * as CANCELLED and its nodes are told to kill it.
     */
    public ControlResult<Void> signal(
            ClusterState state, Caller caller, int jobId, int signal, boolean cancel, boolean batchOnly, long now) {
        Job job = state.job(jobId);
        if (job == null) {
            throw new SlurmException(ErrorCode.INVALID_JOB_ID);
        }
        if (!caller.isOperator() && caller.uid() != job.request().owner().uid()) {
            throw new SlurmException(ErrorCode.ACCESS_DENIED);
        }
        if (job.state().isFinished()) {
            throw new SlurmException(ErrorCode.ALREADY_DONE);
        }
        if (job.isPending()) {
            if (!cancel) {
                throw new SlurmException(ErrorCode.JOB_PENDING);
            }
            return ControlResult.of(
                    List.of(new StateRecord.JobEnded(jobId, JobState.CANCELLED, 0, "None", now)), List.of(), null);
        }
        List<String> nodes = job.allocation().nodeNames();
        if (cancel) {
            return ControlResult.of(
                    List.of(new StateRecord.JobEnded(jobId, JobState.CANCELLED, 15, "None", now)),
                    List.of(new Effect.Terminate(jobId, nodes, JobState.CANCELLED)),
                    null);
        }
        return ControlResult.of(List.of(), List.of(new Effect.Signal(jobId, nodes, signal, batchOnly)), null);
    }

    /**
     * A node reports that a job's batch script ended. Reports for jobs already ended (cancelled,
     * or reported twice after a retry) change nothing, so node daemons may resend freely.
     */
    public ControlResult<Void> complete(
            ClusterState state, String nodeName, int jobId, int exitStatus, JobState endState, long now) {
        Job job = state.job(jobId);
        if (job == null || !job.isRunning() || !job.allocation().batchHost().equals(nodeName)) {
            return ControlResult.answer(null);
        }
        JobState finalState = endState;
        if (finalState == null) {
            finalState = exitStatus == 0 ? JobState.COMPLETED : JobState.FAILED;
        }
        String reason = finalState == JobState.FAILED ? "NonZeroExitCode" : "None";
        List<StateRecord> records = new ArrayList<>();
        records.add(new StateRecord.JobEnded(jobId, finalState, exitStatus, reason, now));
        List<Effect> effects = new ArrayList<>();
        if (job.allocation().nodes().size() > 1) {
            effects.add(new Effect.Terminate(jobId, job.allocation().nodeNames(), finalState));
        }
        return ControlResult.of(records, effects, null);
    }
}
