package dev.sluice.noded.rpc;

import dev.sluice.noded.launch.BatchLauncher;
import dev.sluice.protocol.v1.LaunchBatchJobRequest;
import dev.sluice.protocol.v1.LaunchBatchJobResponse;
import dev.sluice.protocol.v1.NodeControlGrpc;
import dev.sluice.protocol.v1.NodeSignalJobRequest;
import dev.sluice.protocol.v1.NodeSignalJobResponse;
import dev.sluice.protocol.v1.TerminateJobRequest;
import dev.sluice.protocol.v1.TerminateJobResponse;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.io.IOException;

/** What the controller asks of this node: launch, signal, terminate. */
public final class NodeControlService extends NodeControlGrpc.NodeControlImplBase {
    private final BatchLauncher launcher;
    private final dev.sluice.noded.launch.StepLauncher steps;

    public NodeControlService(BatchLauncher launcher, dev.sluice.noded.launch.StepLauncher steps) {
        this.launcher = launcher;
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
