package dev.sluice.ctld.rpc;

import static dev.sluice.ctld.rpc.ClientApiHandler.await;

import dev.sluice.common.error.SlurmException;
import dev.sluice.ctld.control.JobControl;
import dev.sluice.ctld.control.NodeControl;
import dev.sluice.ctld.loop.ControllerLoop;
import dev.sluice.ctld.wire.WireMapper;
import dev.sluice.protocol.v1.GresFound;
import dev.sluice.protocol.v1.HeartbeatRequest;
import dev.sluice.protocol.v1.HeartbeatResponse;
import dev.sluice.protocol.v1.JobCompleteRequest;
import dev.sluice.protocol.v1.JobCompleteResponse;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.NodeRegistryGrpc;
import dev.sluice.protocol.v1.RegisterNodeRequest;
import dev.sluice.protocol.v1.RegisterNodeResponse;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Node daemons register, heartbeat and report job ends here; each call is a loop command. */
public final class NodeRegistryService extends NodeRegistryGrpc.NodeRegistryImplBase {
    private final ControllerLoop loop;
    private final NodeControl nodes;
    private final JobControl jobs;
    private final String clusterName;
    private final int heartbeatSeconds;

    public NodeRegistryService(
            ControllerLoop loop, NodeControl nodes, JobControl jobs, String clusterName, int heartbeatSeconds) {
        this.loop = loop;
        this.nodes = nodes;
        this.jobs = jobs;
        this.clusterName = clusterName;
        this.heartbeatSeconds = heartbeatSeconds;
    }

    @Override
    public void register(RegisterNodeRequest request, StreamObserver<RegisterNodeResponse> observer) {
        NodeControl.Registration reg = new NodeControl.Registration(
                request.getName(),
                request.getHostname(),
                request.getAddr(),
                request.getPort(),
                WireMapper.toDomain(request.getHardware()),
                request.getDynamic(),
                new HashSet<>(request.getRunningJobIdsList()),
                request.getBootTime(),
                request.getVersion(),
                request.getHardware().getFeaturesList(),
                request.getHardware().getGres(),
                found(request));
        try {
            NodeControl.RegistrationAnswer answer = await(loop.submit((state, now) -> nodes.register(state, reg, now)));
            observer.onNext(RegisterNodeResponse.newBuilder()
                    .setClusterName(clusterName)
                    .setHeartbeatIntervalSeconds(heartbeatSeconds)
                    .addAllOrphanJobIds(answer.orphanJobs())
                    .build());
            observer.onCompleted();
        } catch (SlurmException e) {
            observer.onError(
                    Status.FAILED_PRECONDITION.withDescription(e.getMessage()).asRuntimeException());
        }
    }

    @Override
    public void heartbeat(HeartbeatRequest request, StreamObserver<HeartbeatResponse> observer) {
        boolean again = await(loop.submit((state, now) -> nodes.heartbeat(state, request.getName(), now)));
        observer.onNext(HeartbeatResponse.newBuilder().setReregister(again).build());
        observer.onCompleted();
    }

    @Override
    public void jobComplete(JobCompleteRequest request, StreamObserver<JobCompleteResponse> observer) {
        var endState = request.getEndState() == JobState.JOB_STATE_UNSPECIFIED
                ? null
                : WireMapper.toDomain(request.getEndState());
        JobControl.NodeScripts scripts = request.getPrologFailed()
                ? JobControl.NodeScripts.PROLOG_FAILED
                : request.getEpilogFailed() ? JobControl.NodeScripts.EPILOG_FAILED : JobControl.NodeScripts.OK;
        await(loop.submit((state, now) -> jobs.complete(
                state,
                request.getNodeName(),
                (int) request.getJobId(),
                request.getRestartCount(),
                request.getExitStatus(),
                endState,
                scripts,
                nodes.slurmUser(),
                now)));
        observer.onNext(JobCompleteResponse.getDefaultInstance());
        observer.onCompleted();
    }

    /** Detected resources, summed per GRES name; absent from daemons that do not report them. */
    static Optional<NodeControl.Found> found(RegisterNodeRequest request) {
        if (!request.hasDetected() || request.getDetected().getCpus() == 0) {
            return Optional.empty();
        }
        Map<String, Long> gres = new LinkedHashMap<>();
        for (GresFound g : request.getGresFoundList()) {
            gres.merge(g.getName(), g.getCount(), Long::sum);
        }
        return Optional.of(new NodeControl.Found(WireMapper.toDomain(request.getDetected()), gres));
    }
}
