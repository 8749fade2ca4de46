package dev.sluice.ctld.control;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.slurm.JobState;
import dev.sluice.common.tres.Tres;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobEvent;
import dev.sluice.ctld.state.JobLifecycle;
import dev.sluice.ctld.state.JobStep;
import dev.sluice.ctld.state.JobSteps;
import dev.sluice.ctld.state.RunningStep;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.ctld.state.StepShare;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Job step handlers, run by the controller loop like every other decision: a step is placed in
 * its job ({@link StepControl#place}), its start and end are journaled through the job lifecycle
 * (for accounting), and the job's steps are soft state ({@link JobSteps}). The launch of a
 * placed step's tasks is the caller's, after the start is durable.
 */
public final class StepCommands {
    private StepCommands() {}

    /** A step placed and recorded: where its tasks go. */
    public record Placed(Job job, int stepId, List<StepShare> shares, String nodeList) {
        public Placed {
            shares = List.copyOf(shares);
        }
    }

    /** What srun asked for, and where that srun is. */
    public record Wanted(int jobId, StepControl.StepRequest request, String name, String srunHost, int srunPid) {}

    /**
     * Places a step, or refuses with Slurm's error; {@code Requested nodes are busy} means "not
     * now" and srun retries.
     */
    public static ControlResult<Placed> create(ClusterView state, Caller who, Wanted wanted, long now) {
        Job job = state.job(wanted.jobId());
        if (job == null) {
            throw new SlurmException(ErrorCode.INVALID_JOB_ID);
        }
        if (!who.mayActOnJobOf(job.request().owner().uid())) {
            throw new SlurmException(ErrorCode.ACCESS_DENIED);
        }
        if (job.isPending()) {
            throw new SlurmException(ErrorCode.JOB_PENDING);
        }
        if (!job.isRunning()) {
            throw new SlurmException(ErrorCode.ALREADY_DONE);
        }
        JobSteps mine = state.steps().get(job.id());
        // Steps of an earlier run (the job was requeued) are swept first.
        ControlResult<Void> swept =
                mine != null && !mine.belongTo(job) ? sweep(state, now) : ControlResult.answer(null);
        if (mine == null || !mine.belongTo(job)) {
            mine = JobSteps.of(job);
        }
        List<StepControl.ActiveStep> active = mine.running().stream()
                .map(r -> new StepControl.ActiveStep(r.step().stepId(), r.exclusive(), r.shares()))
                .toList();
        StepControl.Outcome outcome = StepControl.place(job.allocation(), active, wanted.request());
        if (!(outcome instanceof StepControl.Outcome.Placed placed)) {
            throw new SlurmException(ErrorCode.NODES_BUSY);
        }
        int stepId = mine.nextStepId();
        List<StepShare> shares = placed.shares();
        String nodeList = HostList.compress(shares.stream().map(StepShare::node).toList());
        JobStep step = started(
                job, stepId, wanted.name(), shares, nodeList, wanted.request().exclusive(), now);
        JobSteps after = mine.with(
                RunningStep.started(step, wanted.request().exclusive(), shares, wanted.srunHost(), wanted.srunPid()));
        List<StateRecord> records = new ArrayList<>(swept.records());
        records.addAll(
                JobLifecycle.apply(job, new JobEvent.StepStarted(step), now).records());
        List<SoftChange> soft = new ArrayList<>(swept.softChanges());
        soft.add(new SoftChange.StepsChanged(job.id(), after));
        return new ControlResult<>(records, soft, List.of(), new Placed(job, stepId, shares, nodeList));
    }

    /** srun saw every task of its step end: the step's CPUs and devices return to the job. */
    public static ControlResult<Void> complete(
            ClusterView state, Caller who, int jobId, int stepId, int status, long now) {
        Job job = state.job(jobId);
        if (job == null) {
            throw new SlurmException(ErrorCode.INVALID_JOB_ID);
        }
        if (!who.mayActOnJobOf(job.request().owner().uid())) {
            throw new SlurmException(ErrorCode.ACCESS_DENIED);
        }
        return release(state, jobId, job.run().startTime(), stepId, status, now);
    }

    /**
     * {@code scancel [-s SIG] J.S}: the signal goes to that step's tasks on its nodes. SIGKILL
     * (scancel's default) cancels the step: it ends CANCELLED when its srun reports the tasks'
     * ends, as in Slurm. A step that is not running is Slurm's {@code Invalid job id specified}.
     */
    public static ControlResult<Void> signal(
            ClusterView state, Caller caller, String jobText, String stepText, int signal, boolean cancel) {
        int stepId;
        try {
            stepId = Integer.parseInt(stepText);
        } catch (NumberFormatException e) {
            throw new SlurmException(ErrorCode.INVALID_JOB_ID);
        }
        List<JobTargets.Target> targets = JobTargets.resolve(state, jobText);
        if (targets.size() != 1 || targets.get(0).pendingTask() >= 0) {
            throw new SlurmException(ErrorCode.INVALID_JOB_ID);
        }
        Job job = targets.get(0).job();
        if (!caller.isOperator() && caller.uid() != job.request().owner().uid()) {
            throw new SlurmException(ErrorCode.ACCESS_DENIED);
        }
        JobSteps mine = state.steps().get(job.id());
        RunningStep step =
                mine == null || !mine.belongTo(job) ? null : mine.find(stepId).orElse(null);
        if (step == null) {
            // Recorded from Slurm 22.05 (compat 101): "Invalid job id specified", exit 225.
            throw new SlurmException(ErrorCode.INVALID_JOB_ID);
        }
        boolean cancelling = cancel || signal == JobControl.SIGKILL;
        List<String> nodes = step.shares().stream().map(StepShare::node).toList();
        List<SoftChange> soft = cancelling
                ? List.of(new SoftChange.StepsChanged(job.id(), mine.replacing(step.asCancelled())))
                : List.of();
        return new ControlResult<>(
                List.of(),
                soft,
                List.of(new Effect.SignalStep(
                        job.id(), stepId, nodes, cancelling ? JobControl.SIGKILL : signal, cancelling)),
                null);
    }

    /**
     * The step ended with {@code status} (or could not be launched): its resources return to the
     * job, its end is recorded. Changes nothing when the job's run is no longer the step's.
     */
    public static ControlResult<Void> release(
            ClusterView state, int jobId, long jobStartTime, int stepId, int status, long now) {
        Job job = state.job(jobId);
        JobSteps mine = state.steps().get(jobId);
        if (job == null
                || mine == null
                || mine.jobStartTime() != jobStartTime
                || job.run().startTime() != jobStartTime) {
            return ControlResult.answer(null);
        }
        RunningStep gone = mine.find(stepId).orElse(null);
        if (gone == null) {
            return ControlResult.answer(null);
        }
        JobStep ended = gone.step().ended(gone.cancelled() ? JobState.CANCELLED : endState(job, status), status, now);
        return new ControlResult<>(
                JobLifecycle.apply(job, new JobEvent.StepEnded(ended), now).records(),
                List.of(new SoftChange.StepsChanged(jobId, mine.without(stepId))),
                List.of(),
                null);
    }

    /**
     * Forgets the steps of jobs that no longer run (or run again after a requeue), recording
     * those whose srun never said they ended as ended with the job: its end time, CANCELLED when
     * the job was cancelled or timed out; a requeued job's as CANCELLED now (the requeue killed
     * them). Run once a second by the loop, and before a step of a
     * requeued job is placed.
     */
    public static ControlResult<Void> sweep(ClusterView state, long now) {
        List<StateRecord> records = new ArrayList<>();
        List<SoftChange> soft = new ArrayList<>();
        for (Map.Entry<Integer, JobSteps> e : state.steps().entrySet()) {
            Job job = state.job(e.getKey());
            JobSteps mine = e.getValue();
            if (job != null && mine.belongTo(job)) {
                continue;
            }
            soft.add(new SoftChange.StepsForgotten(e.getKey()));
            if (job == null) {
                continue;
            }
            // Ended with the job, or killed by its requeue (the job pends or runs anew).
            boolean finished = job.status().state().isFinished();
            long end = finished ? job.run().endTime() : now;
            JobState endState = finished ? endState(job, 0xf) : JobState.CANCELLED;
            for (RunningStep s : mine.running()) {
                JobStep ended = s.step().ended(endState, 0xf, end);
                records.addAll(JobLifecycle.apply(job, new JobEvent.StepEnded(ended), end)
                        .records());
            }
        }
        return new ControlResult<>(records, soft, List.of(), null);
    }

    /**
     * A step just placed: RUNNING from {@code now}. As in Slurm 22.05, a step is allocated every
     * CPU of the job on its nodes ({@code srun -n1} in a 2-CPU job: cpu=2) unless it is
     * {@code --exclusive}, which holds only the CPUs its tasks need.
     */
    public static JobStep started(
            Job job, int stepId, String name, List<StepShare> shares, String nodeList, boolean exclusive, long now) {
        Set<String> nodes = shares.stream().map(StepShare::node).collect(Collectors.toSet());
        int cpus = exclusive
                ? shares.stream().mapToInt(StepShare::cpus).sum()
                : job.allocation().nodes().stream()
                        .filter(n -> nodes.contains(n.node()))
                        .mapToInt(Allocation.NodeShare::cpus)
                        .sum();
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
        if (job.status().state() == JobState.CANCELLED || job.status().state() == JobState.TIMEOUT) {
            return JobState.CANCELLED;
        }
        return JobState.FAILED;
    }

    /**
     * Slurm's step TRES: its CPUs, the job's memory on the step's nodes (a step without
     * {@code --mem} may use all of it), its node count, its GRES; {@code mem=0} when the job
     * asked for none (observed: {@code TRES=cpu=2,mem=0,node=1}).
     */
    public static String tres(Allocation allocation, List<StepShare> shares, int cpus) {
        Set<String> nodes = shares.stream().map(StepShare::node).collect(Collectors.toSet());
        long memMb = allocation.nodes().stream()
                .filter(n -> nodes.contains(n.node()))
                .mapToLong(Allocation.NodeShare::memoryMb)
                .sum();
        Tres tres = Tres.empty().with("cpu", cpus).with("mem", memMb).with("node", shares.size());
        Map<String, Long> gres = new TreeMap<>();
        shares.forEach(s -> s.gres().forEach(g -> gres.merge(g.name(), g.count(), Long::sum)));
        for (Map.Entry<String, Long> g : gres.entrySet()) {
            tres = tres.with("gres/" + g.getKey(), g.getValue());
        }
        return tres.format();
    }
}
