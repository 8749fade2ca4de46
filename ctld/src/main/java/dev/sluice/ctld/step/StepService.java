package dev.sluice.ctld.step;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.ctld.control.Caller;
import dev.sluice.ctld.control.StepControl;
import dev.sluice.ctld.dispatch.NodeDispatcher;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobState;
import dev.sluice.ctld.state.JobStep;
import dev.sluice.ctld.state.StateRecord;
import dev.sluice.ctld.wire.WireMapper;
import dev.sluice.protocol.v1.CreateStepRequest;
import dev.sluice.protocol.v1.CreateStepResponse;
import dev.sluice.protocol.v1.GetStepsRequest;
import dev.sluice.protocol.v1.GetStepsResponse;
import dev.sluice.protocol.v1.LaunchStepRequest;
import dev.sluice.protocol.v1.StepCompleteRequest;
import dev.sluice.protocol.v1.StepCompleteResponse;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's job steps: which steps of which running job hold what, step ids, and the
 * launch of a step's tasks on its nodes. Steps are soft state: a step lives as long as the srun
 * that started it, which reconnects to nothing after a controller restart either. Only their
 * starts and ends are journaled ({@link StateRecord.StepRecorded}), so that accounting ships
 * each exactly once. Placement itself is {@link StepControl}, pure.
 */
public final class StepService {
    private static final Logger log = LoggerFactory.getLogger(StepService.class);

    private final Supplier<ClusterImage> images;
    private final NodeDispatcher dispatcher;
    private final InstantSource clock;
    private final Consumer<StateRecord> journal;
    private final Map<Integer, JobSteps> steps = new HashMap<>();

    /** A running job's steps; {@code startTime} tells a requeued job's new run from its old one. */
    private static final class JobSteps {
        final long startTime;
        int nextStepId;
        final List<StepControl.ActiveStep> active = new ArrayList<>();
        final Map<Integer, StepInfos.RunningStep> running = new TreeMap<>();

        JobSteps(long startTime) {
            this.startTime = startTime;
        }
    }

    /** @param journal journals a record through the controller loop (asynchronously) */
    public StepService(
            Supplier<ClusterImage> images,
            NodeDispatcher dispatcher,
            InstantSource clock,
            Consumer<StateRecord> journal) {
        this.images = requireNonNull(images, "images is null");
        this.dispatcher = requireNonNull(dispatcher, "dispatcher is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.journal = requireNonNull(journal, "journal is null");
    }

    /**
     * The running steps of {@code jobId} (0: of every job), each batch job's {@code N.batch}
     * first, as {@code scontrol show step} lists them.
     *
     * @throws SlurmException {@code Invalid job id specified} for a job that does not exist
     */
    public GetStepsResponse list(GetStepsRequest request) {
        ClusterImage image = images.get();
        if (request.getJobId() != 0 && image.job(request.getJobId()).isEmpty()) {
            throw new SlurmException(ErrorCode.INVALID_JOB_ID);
        }
        GetStepsResponse.Builder out = GetStepsResponse.newBuilder();
        Map<Integer, List<StepInfos.RunningStep>> running = new TreeMap<>();
        synchronized (this) {
            sweep(image);
            steps.forEach((id, mine) -> running.put(id, List.copyOf(mine.running.values())));
        }
        for (Job job : image.jobs()) {
            if (!job.isRunning() || (request.getJobId() != 0 && job.id() != request.getJobId())) {
                continue;
            }
            if (!job.request().script().isEmpty()) {
                out.addSteps(StepInfos.batch(job));
            }
            for (StepInfos.RunningStep s : running.getOrDefault(job.id(), List.of())) {
                out.addSteps(StepInfos.of(job, s));
            }
        }
        return out.build();
    }

    /**
     * Forgets the steps of jobs that no longer run (or run again after a requeue), recording
     * those whose srun never said they ended as ended with the job: its time, CANCELLED when the
     * job was cancelled or timed out.
     */
    private void sweep(ClusterImage image) {
        var it = steps.entrySet().iterator();
        while (it.hasNext()) {
            var entry = it.next();
            Job job = image.job(entry.getKey()).orElse(null);
            JobSteps mine = entry.getValue();
            if (job != null && job.isRunning() && job.startTime() == mine.startTime) {
                continue;
            }
            it.remove();
            if (job == null) {
                continue;
            }
            long end = job.isRunning() ? clock.instant().getEpochSecond() : job.endTime();
            JobState state = job.isRunning() ? JobState.CANCELLED : StepInfos.endState(job, 0xf);
            for (StepInfos.RunningStep s : mine.running.values()) {
                journal.accept(new StateRecord.StepRecorded(job.id(), s.step().ended(state, 0xf, end), end));
            }
        }
    }

    /**
     * Places and launches a step, or refuses with Slurm's error; {@code Requested nodes are busy}
     * means "not now" and srun retries.
     */
    public CreateStepResponse create(Caller who, CreateStepRequest request) {
        ClusterImage image = images.get();
        Job job = image.job(request.getJobId()).orElseThrow(() -> new SlurmException(ErrorCode.INVALID_JOB_ID));
        if (!who.mayActOnJobOf(job.request().owner().uid())) {
            throw new SlurmException(ErrorCode.ACCESS_DENIED);
        }
        if (job.isPending()) {
            throw new SlurmException(ErrorCode.JOB_PENDING);
        }
        if (!job.isRunning()) {
            throw new SlurmException(ErrorCode.ALREADY_DONE);
        }
        // squeue -s and scontrol show step print these to every user.
        dev.sluice.ctld.control.JobText.field("StepName", request.getName());
        dev.sluice.ctld.control.JobText.field("SrunHost", request.getSrunHost());
        StepControl.StepRequest wanted = new StepControl.StepRequest(
                request.getNumTasks(),
                request.getNumNodes(),
                request.getCpusPerTask(),
                request.getGres(),
                request.getExclusive());
        int stepId;
        List<StepControl.StepShare> shares;
        String nodeList;
        synchronized (this) {
            sweep(image);
            JobSteps mine = steps.get(job.id());
            if (mine == null) {
                mine = new JobSteps(job.startTime());
                steps.put(job.id(), mine);
            }
            StepControl.Outcome outcome = StepControl.place(job.allocation(), mine.active, wanted);
            if (!(outcome instanceof StepControl.Outcome.Placed placed)) {
                throw new SlurmException(ErrorCode.NODES_BUSY);
            }
            stepId = mine.nextStepId++;
            shares = placed.shares();
            mine.active.add(new StepControl.ActiveStep(stepId, request.getExclusive(), shares));
            nodeList = HostList.compress(
                    shares.stream().map(StepControl.StepShare::node).toList());
            long now = clock.instant().getEpochSecond();
            JobStep step = StepInfos.started(job, stepId, request.getName(), shares, nodeList, now);
            mine.running.put(stepId, new StepInfos.RunningStep(step, request.getSrunHost(), request.getSrunPid()));
            journal.accept(new StateRecord.StepRecorded(job.id(), step, now));
        }
        int numTasks = shares.stream().mapToInt(s -> s.taskIds().size()).sum();
        String tasksPerNode = NodeDispatcher.compressCounts(
                shares.stream().map(s -> s.taskIds().size()).toList());
        try {
            for (StepControl.StepShare share : shares) {
                dispatcher.launchStep(
                        image,
                        share.node(),
                        LaunchStepRequest.newBuilder()
                                .setJobId(job.id())
                                .setStepId(stepId)
                                .setOwner(WireMapper.toWire(job.request()).getOwner())
                                .addAllArgv(request.getArgvList())
                                .putAllEnvironment(request.getEnvironmentMap())
                                .setWorkDir(request.getWorkDir())
                                .addAllTaskIds(share.taskIds())
                                .setNodeId(share.nodeId())
                                .setNumNodes(shares.size())
                                .setNumTasks(numTasks)
                                .setNodeList(nodeList)
                                .setTasksPerNode(tasksPerNode)
                                .setCpusOnNode(share.cpus())
                                .addAllGres(WireMapper.toWireGres(share.gres()))
                                .addAllCores(job.allocation().nodes().stream()
                                        .filter(n -> n.node().equals(share.node()))
                                        .findFirst()
                                        .map(Allocation.NodeShare::cores)
                                        .orElse(List.of()))
                                .setMemPerNodeMb(job.allocation().nodes().stream()
                                        .filter(n -> n.node().equals(share.node()))
                                        .findFirst()
                                        .map(Allocation.NodeShare::memoryMb)
                                        .orElse(0L))
                                .putAllMpsPerGpu(NodeDispatcher.mpsPerGpu(image, share.node()))
                                .setIoHost(request.getIoHost())
                                .setIoPort(request.getIoPort())
                                .build());
            }
        } catch (RuntimeException e) {
            release(job, stepId, 1 << 8);
            log.warn("step {}.{} could not be launched: {}", job.id(), stepId, e.getMessage());
            throw new SlurmException(ErrorCode.UNEXPECTED, "step launch failed: " + e.getMessage());
        }
        log.info("step {}.{} started on {} ({} tasks)", job.id(), stepId, nodeList, numTasks);
        return CreateStepResponse.newBuilder()
                .setStepId(stepId)
                .setNodeList(nodeList)
                .setNumTasks(numTasks)
                .setNumNodes(shares.size())
                .build();
    }

    /** srun saw every task end: the step's CPUs and devices return to the job. */
    public StepCompleteResponse complete(Caller who, StepCompleteRequest request) {
        Job job = images.get().job(request.getJobId()).orElseThrow(() -> new SlurmException(ErrorCode.INVALID_JOB_ID));
        if (!who.mayActOnJobOf(job.request().owner().uid())) {
            throw new SlurmException(ErrorCode.ACCESS_DENIED);
        }
        release(job, request.getStepId(), request.getStatus());
        return StepCompleteResponse.getDefaultInstance();
    }

    /** The step ended with {@code status}: its resources return to the job, its end is recorded. */
    private synchronized void release(Job job, int stepId, int status) {
        JobSteps mine = steps.get(job.id());
        if (mine == null || mine.startTime != job.startTime()) {
            return;
        }
        mine.active.removeIf(s -> s.stepId() == stepId);
        StepInfos.RunningStep gone = mine.running.remove(stepId);
        if (gone != null) {
            long now = clock.instant().getEpochSecond();
            journal.accept(new StateRecord.StepRecorded(
                    job.id(), gone.step().ended(StepInfos.endState(job, status), status, now), now));
        }
    }
}
