package dev.sluice.ctld.step;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.text.ControlCharacters;
import dev.sluice.ctld.control.Caller;
import dev.sluice.ctld.control.StepCommands;
import dev.sluice.ctld.control.StepControl;
import dev.sluice.ctld.dispatch.NodeDispatcher;
import dev.sluice.ctld.loop.ControllerLoop;
import dev.sluice.ctld.loop.LoopAnswers;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobSteps;
import dev.sluice.ctld.state.StepShare;
import dev.sluice.ctld.wire.WireMapper;
import dev.sluice.protocol.v1.CreateStepRequest;
import dev.sluice.protocol.v1.CreateStepResponse;
import dev.sluice.protocol.v1.GetStepsRequest;
import dev.sluice.protocol.v1.GetStepsResponse;
import dev.sluice.protocol.v1.LaunchStepRequest;
import dev.sluice.protocol.v1.StepCompleteRequest;
import dev.sluice.protocol.v1.StepCompleteResponse;
import java.util.Comparator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The wire side of job steps: srun's requests in, the controller loop deciding them
 * ({@link StepCommands}: placement, step ids, the journaled starts and ends, the steps as soft
 * state), and the launch of a placed step's tasks on its nodes once its start is durable.
 */
public final class StepService {
    private static final Logger log = LoggerFactory.getLogger(StepService.class);

    private final ControllerLoop loop;
    private final NodeDispatcher dispatcher;

    public StepService(ControllerLoop loop, NodeDispatcher dispatcher) {
        this.loop = requireNonNull(loop, "loop is null");
        this.dispatcher = requireNonNull(dispatcher, "dispatcher is null");
    }

    /**
     * The running steps of {@code jobId} (0: of every job), each batch job's {@code N.batch}
     * first, as {@code scontrol show step} lists them.
     *
     * @throws SlurmException {@code Invalid job id specified} for a job that does not exist
     */
    public GetStepsResponse list(GetStepsRequest request) {
        ClusterImage image = loop.image();
        if (request.getJobId() != 0 && image.job(request.getJobId()).isEmpty()) {
            throw new SlurmException(ErrorCode.INVALID_JOB_ID);
        }
        GetStepsResponse.Builder out = GetStepsResponse.newBuilder();
        for (Job job : image.jobs()) {
            if (!job.isRunning() || (request.getJobId() != 0 && job.id() != request.getJobId())) {
                continue;
            }
            if (!job.request().launch().script().isEmpty()) {
                out.addSteps(StepInfos.batch(job));
            }
            JobSteps mine = image.steps().get(job.id());
            if (mine != null && mine.belongTo(job)) {
                mine.running().stream()
                        .sorted(Comparator.comparingInt(r -> r.step().stepId()))
                        .forEach(r -> out.addSteps(StepInfos.of(job, r)));
            }
        }
        return out.build();
    }

    /**
     * sstat: the job's running steps (its batch step first) with what their tasks use now, asked
     * of every node of the job; a node that does not answer adds nothing. Slurm's "Invalid job
     * id" for a job the controller does not know; no steps for one that does not run.
     */
    public dev.sluice.protocol.v1.GetStepStatsResponse stats(dev.sluice.protocol.v1.GetStepStatsRequest request) {
        ClusterImage image = loop.image();
        Job job = image.job(request.getJobId()).orElseThrow(() -> new SlurmException(ErrorCode.INVALID_JOB_ID));
        var out = dev.sluice.protocol.v1.GetStepStatsResponse.newBuilder();
        if (!job.isRunning()) {
            return out.build();
        }
        java.util.Map<Integer, dev.sluice.protocol.v1.StepUsage.Builder> steps = new java.util.LinkedHashMap<>();
        for (var info :
                list(GetStepsRequest.newBuilder().setJobId(job.id()).build()).getStepsList()) {
            steps.put(
                    info.getStepId(),
                    dev.sluice.protocol.v1.StepUsage.newBuilder()
                            .setJobId(info.getJobId())
                            .setStepId(info.getStepId())
                            .setNumTasks(info.getNumTasks())
                            .setNodeList(info.getNodeList()));
        }
        for (Allocation.NodeShare share : job.allocation().nodes()) {
            try {
                for (var step :
                        dispatcher.stepUsage(image, share.node(), job.id()).getStepsList()) {
                    var s = steps.get(step.getStepId());
                    if (s != null) {
                        s.addAllTasks(step.getTasksList());
                    }
                }
            } catch (RuntimeException e) {
                log.warn("sstat: node {} did not say what job {} uses: {}", share.node(), job.id(), e.getMessage());
            }
        }
        steps.values().forEach(s -> {
            List<dev.sluice.protocol.v1.TaskUsage> sorted = new java.util.ArrayList<>(s.getTasksList());
            sorted.sort(Comparator.comparingInt(dev.sluice.protocol.v1.TaskUsage::getTaskId));
            out.addSteps(s.clearTasks().addAllTasks(sorted));
        });
        return out.build();
    }

    /**
     * Places and launches a step, or refuses with Slurm's error; {@code Requested nodes are busy}
     * means "not now" and srun retries.
     */
    public CreateStepResponse create(Caller who, CreateStepRequest request) {
        // squeue -s and scontrol show step print these to every user.
        ControlCharacters.checked("StepName", request.getName());
        ControlCharacters.checked("SrunHost", request.getSrunHost());
        StepCommands.Wanted wanted = new StepCommands.Wanted(
                request.getJobId(),
                new StepControl.StepRequest(
                        request.getNumTasks(),
                        request.getNumNodes(),
                        request.getCpusPerTask(),
                        request.getGres(),
                        request.getExclusive(),
                        nodeList(request.getNodeList()),
                        request.getRelative(),
                        request.getGpusPerTask()),
                request.getName(),
                request.getSrunHost(),
                request.getSrunPid());
        StepCommands.Placed placed =
                LoopAnswers.await(loop.submit((state, now) -> StepCommands.create(state, who, wanted, now)));
        Job job = placed.job();
        int stepId = placed.stepId();
        List<StepShare> shares = placed.shares();
        String nodeList = placed.nodeList();
        ClusterImage image = loop.image();
        int numTasks = shares.stream().mapToInt(s -> s.taskIds().size()).sum();
        String tasksPerNode = dev.sluice.common.slurm.RepeatCounts.format(
                shares.stream().map(s -> s.taskIds().size()).toList());
        try {
            for (StepShare share : shares) {
                LaunchStepRequest.Builder launch = LaunchStepRequest.newBuilder()
                        .setJobId(job.id())
                        .setStepId(stepId)
                        .setOwner(WireMapper.toWire(job.request().owner()))
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
                        .putAllMpsPerGpu(dev.sluice.ctld.dispatch.LaunchRequests.mpsPerGpu(image, share.node()))
                        .setGpusPerTask(request.getGpusPerTask())
                        .setStdinMode(request.getStdinMode())
                        .setStdinTask(request.getStdinTask())
                        .setIoHost(request.getIoHost())
                        .setIoPort(request.getIoPort());
                if (request.hasPty()) {
                    launch.setPty(request.getPty());
                }
                dispatcher.launchStep(image, share.node(), launch.build());
            }
        } catch (RuntimeException e) {
            LoopAnswers.await(loop.submit((state, now) ->
                    StepCommands.release(state, job.id(), job.run().startTime(), stepId, 1 << 8, now)));
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

    /** {@code -w}'s host list, names as the job's; a bad list names no node of the job. */
    private static List<String> nodeList(String text) {
        if (text.isBlank()) {
            return List.of();
        }
        try {
            return dev.sluice.common.hostlist.HostList.expand(text);
        } catch (IllegalArgumentException e) {
            throw new SlurmException(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE);
        }
    }

    /** srun saw every task end: the step's CPUs and devices return to the job. */
    public StepCompleteResponse complete(Caller who, StepCompleteRequest request) {
        LoopAnswers.await(loop.submit((state, now) ->
                StepCommands.complete(state, who, request.getJobId(), request.getStepId(), request.getStatus(), now)));
        return StepCompleteResponse.getDefaultInstance();
    }
}
