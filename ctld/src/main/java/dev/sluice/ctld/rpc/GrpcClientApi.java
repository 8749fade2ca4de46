package dev.sluice.ctld.rpc;

import dev.sluice.common.error.SlurmException;
import dev.sluice.protocol.v1.GetConfigRequest;
import dev.sluice.protocol.v1.GetConfigResponse;
import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.GetJobsResponse;
import dev.sluice.protocol.v1.GetNodesRequest;
import dev.sluice.protocol.v1.GetNodesResponse;
import dev.sluice.protocol.v1.GetPartitionsRequest;
import dev.sluice.protocol.v1.GetPartitionsResponse;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.PingRequest;
import dev.sluice.protocol.v1.PingResponse;
import dev.sluice.protocol.v1.SignalJobRequest;
import dev.sluice.protocol.v1.SignalJobResponse;
import dev.sluice.protocol.v1.SlurmctldApiGrpc;
import dev.sluice.protocol.v1.SubmitBatchJobRequest;
import dev.sluice.protocol.v1.SubmitBatchJobResponse;
import dev.sluice.protocol.v1.UpdateJobRequest;
import dev.sluice.protocol.v1.UpdateJobResponse;
import dev.sluice.protocol.v1.UpdateNodeRequest;
import dev.sluice.protocol.v1.UpdateNodeResponse;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.function.Supplier;

/** The client API over gRPC: the same {@link ClientApiHandler} as the command socket. */
public final class GrpcClientApi extends SlurmctldApiGrpc.SlurmctldApiImplBase {
    /** Metadata key carrying the Slurm errno of a failed call. */
    public static final Metadata.Key<String> SLURM_ERRNO =
            Metadata.Key.of("slurm-errno", Metadata.ASCII_STRING_MARSHALLER);

    static final Metadata.Key<String> UID = Metadata.Key.of("sluice-uid", Metadata.ASCII_STRING_MARSHALLER);
    static final Metadata.Key<String> GID = Metadata.Key.of("sluice-gid", Metadata.ASCII_STRING_MARSHALLER);
    static final Metadata.Key<String> USER = Metadata.Key.of("sluice-user", Metadata.ASCII_STRING_MARSHALLER);
    static final Context.Key<Identity> IDENTITY = Context.key("sluice-identity");

    private final ClientApiHandler handler;

    public GrpcClientApi(ClientApiHandler handler) {
        this.handler = handler;
    }

    /** Reads the caller's identity from metadata (authenticated by the security layer). */
    public static ServerInterceptor identityInterceptor() {
        return new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(
                    ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
                Identity.Builder id =
                        Identity.newBuilder().setUid(65534).setGid(65534).setUserName("nobody");
                try {
                    if (headers.get(UID) != null) {
                        id.setUid(Integer.parseInt(headers.get(UID)));
                    }
                    if (headers.get(GID) != null) {
                        id.setGid(Integer.parseInt(headers.get(GID)));
                    }
                } catch (NumberFormatException e) {
                    call.close(Status.INVALID_ARGUMENT.withDescription("bad identity"), new Metadata());
                    return new ServerCall.Listener<>() {};
                }
                if (headers.get(USER) != null) {
                    id.setUserName(headers.get(USER));
                }
                return Contexts.interceptCall(Context.current().withValue(IDENTITY, id.build()), call, headers, next);
            }
        };
    }

    private static <T> void answer(StreamObserver<T> observer, Supplier<T> body) {
        try {
            observer.onNext(body.get());
            observer.onCompleted();
        } catch (SlurmException e) {
            Metadata trailers = new Metadata();
            trailers.put(SLURM_ERRNO, Integer.toString(e.code().number()));
            observer.onError(
                    Status.FAILED_PRECONDITION.withDescription(e.getMessage()).asRuntimeException(trailers));
        }
    }

    private static Identity who() {
        Identity id = IDENTITY.get();
        return id == null ? Identity.getDefaultInstance() : id;
    }

    @Override
    public void submitBatchJob(SubmitBatchJobRequest request, StreamObserver<SubmitBatchJobResponse> observer) {
        Identity who = who();
        answer(observer, () -> handler.submitBatchJob(who, request));
    }

    @Override
    public void signalJob(SignalJobRequest request, StreamObserver<SignalJobResponse> observer) {
        Identity who = who();
        answer(observer, () -> handler.signalJob(who, request));
    }

    @Override
    public void getJobs(GetJobsRequest request, StreamObserver<GetJobsResponse> observer) {
        Identity who = who();
        answer(observer, () -> handler.getJobs(who, request));
    }

    @Override
    public void getNodes(GetNodesRequest request, StreamObserver<GetNodesResponse> observer) {
        answer(observer, () -> handler.getNodes(request));
    }

    @Override
    public void getPartitions(GetPartitionsRequest request, StreamObserver<GetPartitionsResponse> observer) {
        answer(observer, () -> handler.getPartitions(request));
    }

    @Override
    public void updateNode(UpdateNodeRequest request, StreamObserver<UpdateNodeResponse> observer) {
        Identity who = who();
        answer(observer, () -> handler.updateNode(who, request));
    }

    @Override
    public void updateJob(UpdateJobRequest request, StreamObserver<UpdateJobResponse> observer) {
        Identity who = who();
        answer(observer, () -> handler.updateJob(who, request));
    }

    @Override
    public void getConfig(GetConfigRequest request, StreamObserver<GetConfigResponse> observer) {
        answer(observer, handler::getConfig);
    }

    @Override
    public void ping(PingRequest request, StreamObserver<PingResponse> observer) {
        answer(observer, handler::ping);
    }

    @Override
    public void createNode(
            dev.sluice.protocol.v1.CreateNodeRequest request,
            StreamObserver<dev.sluice.protocol.v1.CreateNodeResponse> observer) {
        Identity who = who();
        answer(observer, () -> handler.createNode(who, request));
    }

    @Override
    public void deleteNode(
            dev.sluice.protocol.v1.DeleteNodeRequest request,
            StreamObserver<dev.sluice.protocol.v1.DeleteNodeResponse> observer) {
        Identity who = who();
        answer(observer, () -> handler.deleteNode(who, request));
    }

    @Override
    public void reconfigure(
            dev.sluice.protocol.v1.ReconfigureRequest request,
            StreamObserver<dev.sluice.protocol.v1.ReconfigureResponse> observer) {
        Identity who = who();
        answer(observer, () -> handler.reconfigure(who));
    }
}
