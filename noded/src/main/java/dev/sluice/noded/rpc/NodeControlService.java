package dev.sluice.noded.rpc;

import dev.sluice.noded.launch.BatchLauncher;
import dev.sluice.protocol.v1.LaunchBatchJobRequest;
import dev.sluice.protocol.v1.LaunchBatchJobResponse;
import dev.sluice.protocol.v1.NodeControlGrpc;
import dev.sluice.protocol.v1.NodeReconfigureRequest;
import dev.sluice.protocol.v1.NodeReconfigureResponse;
import dev.sluice.protocol.v1.NodeSignalJobRequest;
import dev.sluice.protocol.v1.NodeSignalJobResponse;
import dev.sluice.protocol.v1.TerminateJobRequest;
import dev.sluice.protocol.v1.TerminateJobResponse;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.io.IOException;

/** What the controller asks of this node: launch, signal, terminate, reconfigure. */
public final class NodeControlService extends NodeControlGrpc.NodeControlImplBase {
    private final BatchLauncher launcher;
    private final Runnable reconfigure;
    private final dev.sluice.noded.launch.StepLauncher steps;

    /** @param reconfigure re-reads the configuration and registers again */
    public NodeControlService(
            BatchLauncher launcher, Runnable reconfigure, dev.sluice.noded.launch.StepLauncher steps) {
        this.launcher = launcher;
        this.reconfigure = reconfigure;
        this.steps = steps;
    }

    @Override
    public void launchStep(
            dev.sluice.protocol.v1.LaunchStepRequest request,
            StreamObserver<dev.sluice.protocol.v1.LaunchStepResponse> observer) {
        try {
            steps.launch(request);
            observer.onNext(dev.sluice.protocol.v1.LaunchStepResponse.getDefaultInstance());
            observer.onCompleted();
        } catch (IOException | RuntimeException e) {
            observer.onError(Status.UNAVAILABLE
                    .withDescription("step launch failed: " + e.getMessage())
                    .asRuntimeException());
        }
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
        try {
            launcher.launch(request);
            observer.onNext(LaunchBatchJobResponse.getDefaultInstance());
            observer.onCompleted();
        } catch (IOException | RuntimeException e) {
            observer.onError(Status.UNAVAILABLE
                    .withDescription("launch failed: " + e.getMessage())
                    .asRuntimeException());
        }
    }

    @Override
    public void signalJob(NodeSignalJobRequest request, StreamObserver<NodeSignalJobResponse> observer) {
        launcher.signal(request.getJobId(), request.getSignal(), request.getBatchOnly());
        observer.onNext(NodeSignalJobResponse.getDefaultInstance());
        observer.onCompleted();
    }

    @Override
    public void terminateJob(TerminateJobRequest request, StreamObserver<TerminateJobResponse> observer) {
        launcher.terminate(request.getJobId(), request.getReason());
        steps.signalJob(request.getJobId(), "KILL");
        observer.onNext(TerminateJobResponse.getDefaultInstance());
        observer.onCompleted();
    }
}
