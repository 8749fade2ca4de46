package dev.sluice.noded.rpc;

import dev.sluice.common.auth.AuthException;
import dev.sluice.noded.launch.AllocationPrologs;
import dev.sluice.noded.launch.BatchLauncher;
import dev.sluice.noded.wire.BatchJobMapper;
import dev.sluice.noded.wire.JobEndMapper;
import dev.sluice.noded.wire.StepLaunchMapper;
import dev.sluice.protocol.auth.JobCredentials;
import dev.sluice.protocol.v1.LaunchBatchJobRequest;
import dev.sluice.protocol.v1.LaunchBatchJobResponse;
import dev.sluice.protocol.v1.LaunchBatchJobsRequest;
import dev.sluice.protocol.v1.LaunchBatchJobsResponse;
import dev.sluice.protocol.v1.LaunchOutcome;
import dev.sluice.protocol.v1.NodeControlGrpc;
import dev.sluice.protocol.v1.NodeReconfigureRequest;
import dev.sluice.protocol.v1.NodeReconfigureResponse;
import dev.sluice.protocol.v1.NodeSignalJobRequest;
import dev.sluice.protocol.v1.NodeSignalJobResponse;
import dev.sluice.protocol.v1.SuspendAction;
import dev.sluice.protocol.v1.TerminateJobRequest;
import dev.sluice.protocol.v1.TerminateJobResponse;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the controller asks of this node: launch, signal, terminate, reconfigure. Calls reach it
 * only with the controller's credential (see {@code DaemonAuth}); a launch must carry, besides,
 * a job credential for this node that was not used before. The credential is checked on the
 * request exactly as it arrived (the signature covers its bytes); only a request that passes is
 * mapped ({@link BatchJobMapper}) and handed on, so nothing the launcher sees was unsigned.
 */
public final class NodeControlService extends NodeControlGrpc.NodeControlImplBase {
    private static final Logger log = LoggerFactory.getLogger(NodeControlService.class);
    /** Slurm's number for a job's batch step (N.batch). */
    private static final int BATCH_STEP = 0xfffffffb;

    private final BatchLauncher launcher;
    private final AllocationPrologs allocationPrologs;
    private final Runnable reconfigure;
    private final dev.sluice.noded.launch.StepLauncher steps;
    private final JobCredentials.Checker credentials;

    /** @param reconfigure re-reads the configuration and registers again */
    public NodeControlService(
            BatchLauncher launcher,
            AllocationPrologs allocationPrologs,
            Runnable reconfigure,
            dev.sluice.noded.launch.StepLauncher steps,
            JobCredentials.Checker credentials) {
        this.launcher = launcher;
        this.allocationPrologs = allocationPrologs;
        this.reconfigure = reconfigure;
        this.steps = steps;
        this.credentials = credentials;
    }

    /** A launch whose credential does not hold: the controller hears why, the log says so. */
    private static void refuse(String what, AuthException e, StreamObserver<?> observer) {
        log.warn("refused {}: {}", what, e.getMessage());
        observer.onError(
                Status.PERMISSION_DENIED.withDescription(e.getMessage()).asRuntimeException());
    }

    @Override
    public void launchStep(
            dev.sluice.protocol.v1.LaunchStepRequest request,
            StreamObserver<dev.sluice.protocol.v1.LaunchStepResponse> observer) {
        try {
            credentials.check(request);
        } catch (AuthException e) {
            refuse("launch of step " + request.getJobId() + "." + request.getStepId(), e, observer);
            return;
        }
        try {
            steps.launch(StepLaunchMapper.toStep(request));
            observer.onNext(dev.sluice.protocol.v1.LaunchStepResponse.getDefaultInstance());
            observer.onCompleted();
        } catch (IOException | RuntimeException e) {
            observer.onError(Status.UNAVAILABLE
                    .withDescription("step launch failed: " + e.getMessage())
                    .asRuntimeException());
        }
    }

    /** sstat: the batch step's and every step's tasks of the job here, as /proc shows them now. */
    @Override
    public void stepUsage(
            dev.sluice.protocol.v1.NodeStepUsageRequest request,
            StreamObserver<dev.sluice.protocol.v1.NodeStepUsageResponse> observer) {
        dev.sluice.noded.launch.ProcessUsage reader = dev.sluice.noded.launch.ProcessUsage.system();
        var out = dev.sluice.protocol.v1.NodeStepUsageResponse.newBuilder();
        launcher.batchUsage(request.getJobId(), reader)
                .ifPresent(t -> out.addSteps(dev.sluice.protocol.v1.NodeStepUsage.newBuilder()
                        .setStepId(BATCH_STEP)
                        .addTasks(JobEndMapper.toWire(t))));
        steps.usage(request.getJobId(), reader)
                .forEach((step, tasks) -> out.addSteps(dev.sluice.protocol.v1.NodeStepUsage.newBuilder()
                        .setStepId(step)
                        .addAllTasks(tasks.stream().map(JobEndMapper::toWire).toList())));
        observer.onNext(out.build());
        observer.onCompleted();
    }

    @Override
    public void reconfigure(NodeReconfigureRequest request, StreamObserver<NodeReconfigureResponse> observer) {
        try {
            reconfigure.run();
            observer.onNext(NodeReconfigureResponse.getDefaultInstance());
            observer.onCompleted();
        } catch (RuntimeException e) {
            observer.onError(Status.FAILED_PRECONDITION
                    .withDescription("reconfigure failed: " + e.getMessage())
                    .asRuntimeException());
        }
    }

    @Override
    public void launchBatchJob(LaunchBatchJobRequest request, StreamObserver<LaunchBatchJobResponse> observer) {
        LaunchOutcome outcome = launch(request);
        if (outcome.getRefused()) {
            observer.onError(
                    Status.PERMISSION_DENIED.withDescription(outcome.getError()).asRuntimeException());
        } else if (!outcome.getError().isEmpty()) {
            observer.onError(
                    Status.UNAVAILABLE.withDescription(outcome.getError()).asRuntimeException());
        } else {
            observer.onNext(LaunchBatchJobResponse.getDefaultInstance());
            observer.onCompleted();
        }
    }

    /** Each launch as {@link #launchBatchJob} would take it alone, its outcome in its place. */
    @Override
    public void launchBatchJobs(LaunchBatchJobsRequest request, StreamObserver<LaunchBatchJobsResponse> observer) {
        LaunchBatchJobsResponse.Builder out = LaunchBatchJobsResponse.newBuilder();
        for (LaunchBatchJobRequest launch : request.getLaunchesList()) {
            out.addOutcomes(launch(launch));
        }
        observer.onNext(out.build());
        observer.onCompleted();
    }

    private LaunchOutcome launch(LaunchBatchJobRequest request) {
        LaunchOutcome.Builder outcome = LaunchOutcome.newBuilder().setJobId(request.getJobId());
        byte[] asSigned;
        try {
            asSigned = credentials.check(request);
        } catch (AuthException e) {
            log.warn("refused launch of job {}: {}", request.getJobId(), e.getMessage());
            return outcome.setRefused(true).setError(e.getMessage()).build();
        }
        try {
            launcher.launch(BatchJobMapper.toJob(request), asSigned);
            return outcome.build();
        } catch (IOException | RuntimeException e) {
            return outcome.setError("launch failed: " + e.getMessage()).build();
        }
    }

    @Override
    public void runAllocationProlog(
            LaunchBatchJobRequest request,
            StreamObserver<dev.sluice.protocol.v1.RunAllocationPrologResponse> observer) {
        try {
            credentials.check(request);
        } catch (AuthException e) {
            refuse("the Prolog of job " + request.getJobId(), e, observer);
            return;
        }
        try {
            allocationPrologs.run(BatchJobMapper.toJob(request));
            observer.onNext(dev.sluice.protocol.v1.RunAllocationPrologResponse.getDefaultInstance());
            observer.onCompleted();
        } catch (IOException | RuntimeException e) {
            observer.onError(Status.UNAVAILABLE
                    .withDescription("Prolog failed to start: " + e.getMessage())
                    .asRuntimeException());
        }
    }

    @Override
    public void signalJob(NodeSignalJobRequest request, StreamObserver<NodeSignalJobResponse> observer) {
        switch (request.getSuspend()) {
            case SUSPEND_ACTION_SUSPEND, SUSPEND_ACTION_RESUME -> {
                boolean suspend = request.getSuspend() == SuspendAction.SUSPEND_ACTION_SUSPEND;
                launcher.suspend(request.getJobId(), suspend);
                // Step tasks run in sessions of their own: they are stopped and continued too.
                steps.signalJob(request.getJobId(), suspend ? "STOP" : "CONT");
            }
            default -> {
                if (request.hasStepId()) {
                    steps.signalStep(
                            request.getJobId(), request.getStepId(), request.getSignal(), request.getCancelStep());
                } else if (request.getStepsOnly()) {
                    // --signal without B: reaches every step task here and leaves the batch shell alone.
                    steps.signalJob(request.getJobId(), Integer.toString(request.getSignal()));
                } else if (request.getBatchOnly()) {
                    launcher.signal(request.getJobId(), request.getSignal(), true);
                } else {
                    // scancel --full: the batch shell's process group and every step task.
                    launcher.signal(request.getJobId(), request.getSignal(), false);
                    steps.signalJob(request.getJobId(), Integer.toString(request.getSignal()));
                }
            }
        }
        observer.onNext(NodeSignalJobResponse.getDefaultInstance());
        observer.onCompleted();
    }

    @Override
    public void terminateJob(TerminateJobRequest request, StreamObserver<TerminateJobResponse> observer) {
        launcher.terminate(
                request.getJobId(), JobEndMapper.terminateReason(request.getReason()), request.getRestartCount());
        steps.signalJob(request.getJobId(), "KILL");
        observer.onNext(TerminateJobResponse.getDefaultInstance());
        observer.onCompleted();
    }
}
