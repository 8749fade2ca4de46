package dev.sluice.cli.testing;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.CompleteAllocationResponse;
import dev.sluice.protocol.v1.CreateStepRequest;
import dev.sluice.protocol.v1.CreateStepResponse;
import dev.sluice.protocol.v1.GetJobsResponse;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.SlurmError;
import dev.sluice.protocol.v1.StepCompleteResponse;
import dev.sluice.protocol.v1.SubmitBatchJobResponse;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * A controller and one node for srun's and salloc's tests: allocations are job 42 on n1, running
 * at once (or left pending with {@link #pending()}), steps run their tasks as local processes
 * ({@link FakeStepNode}). Records the requests as {@link FakeController} does.
 */
public final class FakeCluster implements AutoCloseable {
    public static final int JOB_ID = 42;

    private final FakeController controller;
    private final FakeStepNode node = new FakeStepNode();
    private volatile JobSpec allocation = JobSpec.getDefaultInstance();
    private volatile boolean pending;
    private volatile String prologFailsOn = "";
    private final java.util.concurrent.atomic.AtomicInteger prologPolls =
            new java.util.concurrent.atomic.AtomicInteger();

    public FakeCluster() throws IOException {
        controller = new FakeController(this::answer);
    }

    public int port() {
        return controller.port();
    }

    /** The controller this cluster answers through. */
    FakeController controller() {
        return controller;
    }

    /** Jobs stay PENDING, as when every node is busy. */
    public void pending() {
        pending = true;
    }

    /**
     * The allocation Prolog fails on {@code node} ({@code PrologFlags=Alloc}): the first
     * {@code runningPolls} looks at the job show it running with reason {@code Prolog}, later ones
     * cancelled, naming that node.
     */
    public void prologFailsOn(String node, int runningPolls) {
        prologFailsOn = node;
        prologPolls.set(runningPolls);
    }

    public FakeStepNode node() {
        return node;
    }

    public List<ClientRequest> requests() {
        return controller.requests();
    }

    /** The allocation's spec as submitted, if one was. */
    public Optional<JobSpec> submitted() {
        return requests().stream()
                .filter(ClientRequest::hasSubmitBatchJob)
                .map(r -> r.getSubmitBatchJob().getSpec())
                .findFirst();
    }

    public Optional<CreateStepRequest> step() {
        return requests().stream()
                .filter(ClientRequest::hasCreateStep)
                .map(ClientRequest::getCreateStep)
                .findFirst();
    }

    /** The status the allocation was released with, if it was. */
    public Optional<Integer> released() {
        return requests().stream()
                .filter(ClientRequest::hasCompleteAllocation)
                .map(r -> r.getCompleteAllocation().getStatus())
                .findFirst();
    }

    private ClientResponse answer(ClientRequest req) {
        ClientResponse.Builder r = ClientResponse.newBuilder();
        switch (req.getBodyCase()) {
            case SUBMIT_BATCH_JOB -> {
                allocation = req.getSubmitBatchJob().getSpec();
                SubmitBatchJobResponse.Builder b =
                        SubmitBatchJobResponse.newBuilder().setJobId(JOB_ID);
                if (req.getSubmitBatchJob().getTestOnly()) {
                    b.setStartTime(1_700_000_000L).setCpus(1).setNodeList("n1").setPartition("gpu");
                }
                r.setSubmitBatchJob(b);
            }
            case GET_JOBS -> {
                JobInfo.Builder job = JobInfo.newBuilder()
                        .setJobId(JOB_ID)
                        .setSpec(allocation)
                        .setState(pending ? JobState.PENDING : JobState.RUNNING)
                        .setNodeList("n1")
                        .setNumNodes(1)
                        .setPartition("gpu");
                if (!prologFailsOn.isEmpty()) {
                    if (prologPolls.getAndDecrement() > 0) {
                        job.setReason(dev.sluice.common.slurm.JobReason.PROLOG.slurmName());
                    } else {
                        job.setState(JobState.CANCELLED).setPrologFailedNode(prologFailsOn);
                    }
                }
                r.setGetJobs(GetJobsResponse.newBuilder().addJobs(job));
            }
            case CREATE_STEP -> {
                CreateStepRequest step = req.getCreateStep();
                int tasks = Math.max(1, step.getNumTasks());
                node.start(step, 0, tasks);
                r.setCreateStep(CreateStepResponse.newBuilder()
                        .setStepId(0)
                        .setNodeList("n1")
                        .setNumNodes(1)
                        .setNumTasks(tasks));
            }
            case STEP_COMPLETE -> r.setStepComplete(StepCompleteResponse.getDefaultInstance());
            case COMPLETE_ALLOCATION -> r.setCompleteAllocation(CompleteAllocationResponse.getDefaultInstance());
            default ->
                r.setError(SlurmError.newBuilder()
                        .setCode(ErrorCode.INVALID_JOB_ID.number())
                        .setMessage(ErrorCode.INVALID_JOB_ID.text()));
        }
        return r.build();
    }

    @Override
    public void close() throws IOException {
        controller.close();
    }
}
