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
import dev.sluice.ctld.wire.WireMapper;
import dev.sluice.protocol.v1.CreateStepRequest;
import dev.sluice.protocol.v1.CreateStepResponse;
import dev.sluice.protocol.v1.LaunchStepRequest;
import dev.sluice.protocol.v1.StepCompleteRequest;
import dev.sluice.protocol.v1.StepCompleteResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's job steps: which steps of which running job hold what, step ids, and the
 * launch of a step's tasks on its nodes. Steps are soft state, never journaled: a step lives as
 * long as the srun that started it, which reconnects to nothing after a controller restart
 * either (Slurm keeps them in its state save to account them; accounting of steps is not
 * here yet). Placement itself is {@link StepControl}, pure.
 */
public final class StepService {
    private static final Logger log = LoggerFactory.getLogger(StepService.class);

    private final Supplier<ClusterImage> images;
    private final NodeDispatcher dispatcher;
    private final Map<Integer, JobSteps> steps = new HashMap<>();

    /** A running job's steps; {@code startTime} tells a requeued job's new run from its old one. */
    private static final class JobSteps {
        final long startTime;
        int nextStepId;
        final List<StepControl.ActiveStep> active = new ArrayList<>();

        JobSteps(long startTime) {
            this.startTime = startTime;
        }
    }

    public StepService(Supplier<ClusterImage> images, NodeDispatcher dispatcher) {
        this.images = requireNonNull(images, "images is null");
        this.dispatcher = requireNonNull(dispatcher, "dispatcher is null");
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
        StepControl.StepRequest wanted = new StepControl.StepRequest(
                request.getNumTasks(),
                request.getNumNodes(),
                request.getCpusPerTask(),
                request.getGres(),
                request.getExclusive());
        int stepId;
        List<StepControl.StepShare> shares;
        synchronized (this) {
            steps.keySet().removeIf(id -> image.job(id).map(j -> !j.isRunning()).orElse(true));
            JobSteps mine = steps.get(job.id());
            if (mine == null || mine.startTime != job.startTime()) {
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
        }
        String nodeList = HostList.compress(
                shares.stream().map(StepControl.StepShare::node).toList());
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
                                .putAllMpsPerGpu(NodeDispatcher.mpsPerGpu(image, share.node()))
                                .setIoHost(request.getIoHost())
                                .setIoPort(request.getIoPort())
                                .build());
            }
        } catch (RuntimeException e) {
            release(job.id(), stepId);
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
        release(request.getJobId(), request.getStepId());
        return StepCompleteResponse.getDefaultInstance();
    }

    private synchronized void release(int jobId, int stepId) {
        JobSteps mine = steps.get(jobId);
        if (mine != null) {
            mine.active.removeIf(s -> s.stepId() == stepId);
        }
    }
}
